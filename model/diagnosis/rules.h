#pragma once
// The rule set. Each rule looks at the facts, emits findings (with evidence, explanation,
// fix and verification) and may propose a verdict with a confidence and a precedence id. The
// id's band in the precedence table (precedence.h) encodes causal precedence; rules state
// facts and confidence, not numbers. The engine arbitrates (arbitration.h).

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"
#include "model/diagnosis/facts.h"
#include "model/diagnosis/knowledge.h"
#include "model/diagnosis/proposal.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::model {

struct RuleContext {
    const Bundle& bundle;
    const DiagnosisFacts& facts;
    const Knowledge& knowledge;

    const PgFacts* stuckPg() const { return facts.stuckPg ? &facts.pgs[*facts.stuckPg] : nullptr; }
    // The op most ranks timed out on at the stuck SeqNum.
    OpType stuckOp() const;
    // "rank 3 (node-01, GPU 3)"
    std::string rankLabel(std::int32_t rank) const { return bundle.describeRank(rank); }
    std::string pgLabel(StrId pg) const;
    Placeholders placeholdersFor(std::int32_t rank) const;
    // One of a rule's phrases from the knowledge base, filled with values. A phrase the
    // rule's entry lacks reads
    // "{missing phrase rule/name}" and a value left unknown stays "{name}", both visible to
    // the tests that read every finding's words.
    std::string say(std::string_view rule, std::string_view phrase, const Placeholders& values = {}) const;
    // A phrase several rules share ("{op_name} #{stuck_seq} of {pg_label}").
    std::string sayShared(std::string_view phrase, const Placeholders& values = {}) const;
    // Ranks as a sentence names them: one rank's label, or "Ranks 3,5" to start a sentence
    // and "ranks 3,5" inside one (shared phrases).
    std::string ranksSubject(const std::vector<std::int32_t>& ranks) const;
    std::string ranksObject(const std::vector<std::int32_t>& ranks) const;
    // A rule entry's title filled with values: for a finding told in another rule's words.
    std::string title(std::string_view rule, const Placeholders& values) const;
    // The rule's explanation (its entry's summary) and its verdict sentence, filled alike.
    std::string explain(std::string_view rule, const Placeholders& values) const;
    std::string verdict(std::string_view rule, const Placeholders& values) const;
};

class RuleOutput {
public:
    std::vector<Finding> findings;
    std::vector<Proposal> proposals;

    // Starts a finding; fix/verify/confirm are filled from the knowledge base with the
    // given placeholders (rule entry first, then the class entry).
    Finding& add(const RuleContext& ctx, std::string rule, std::optional<RootCauseClass> suggests,
        const Placeholders& values);
    Proposal& propose(RootCauseClass cls, std::vector<std::int32_t> initiating, double confidence,
        Precedence precedence, std::string summary);
};

// The odd ones out on a process group's stuck collective (rules_progress.cpp). onlySilence,
// when given, is set when they rest on nothing but their silence (no rank showed evidence).
std::vector<std::int32_t> oddRanksOf(const DiagnosisFacts& facts, const PgFacts& pg, bool* onlySilence = nullptr);
// The NCCL COLL opCount of the stuck collective as far as the waiting ranks show it (the
// lowest last opCount among them), -1 without COLL lines.
std::int64_t stuckCollOpCount(const DiagnosisFacts& facts, const PgFacts& pg);

// Evidence helpers.
EvidenceLine evidenceOf(const Bundle& b, std::uint32_t eventIndex);
EvidenceLine evidenceOf(const Bundle& b, const EvidenceRef& ref, std::string text);

// Rules, grouped by topic (one file each).
void ruleNeverEntered(const RuleContext& ctx, RuleOutput& out);      // rules_progress.cpp
void ruleWatchdogBlocked(const RuleContext& ctx, RuleOutput& out);   // rules_progress.cpp
void ruleAllEntered(const RuleContext& ctx, RuleOutput& out);        // rules_progress.cpp
void ruleBusyWhileOthersWaited(const RuleContext& ctx, RuleOutput& out); // rules_busy.cpp
void ruleHorovodStall(const RuleContext& ctx, RuleOutput& out);      // rules_horovod.cpp
void ruleUnmappedErrors(const RuleContext& ctx, RuleOutput& out);    // rules_unmapped.cpp
void ruleSyncPointTimeout(const RuleContext& ctx, RuleOutput& out); // rules_progress.cpp
void ruleSilentRank(const RuleContext& ctx, RuleOutput& out);        // rules_progress.cpp
void ruleStacksWithoutTimeout(const RuleContext& ctx, RuleOutput& out); // rules_progress.cpp
void ruleOpMismatch(const RuleContext& ctx, RuleOutput& out);        // rules_mismatch.cpp
void ruleFingerprintMismatch(const RuleContext& ctx, RuleOutput& out); // rules_mismatch.cpp
void ruleDesyncReport(const RuleContext& ctx, RuleOutput& out);      // rules_mismatch.cpp
void ruleMonitoredBarrier(const RuleContext& ctx, RuleOutput& out);  // rules_mismatch.cpp
void ruleTimeoutSeqOffset(const RuleContext& ctx, RuleOutput& out);  // rules_mismatch.cpp
void ruleCollLineMismatch(const RuleContext& ctx, RuleOutput& out);  // rules_mismatch.cpp
void ruleEnqueuedAhead(const RuleContext& ctx, RuleOutput& out);    // rules_mismatch.cpp
void ruleXid(const RuleContext& ctx, RuleOutput& out);               // rules_hardware.cpp
void ruleCudaStickyError(const RuleContext& ctx, RuleOutput& out);   // rules_hardware.cpp
void ruleIbPair(const RuleContext& ctx, RuleOutput& out);            // rules_network.cpp
void ruleSocketClosed(const RuleContext& ctx, RuleOutput& out);      // rules_network.cpp
void ruleTransportEverywhere(const RuleContext& ctx, RuleOutput& out); // rules_network.cpp
void ruleIbAsyncEvents(const RuleContext& ctx, RuleOutput& out);    // rules_network.cpp
void ruleDuplicateGpu(const RuleContext& ctx, RuleOutput& out);     // rules_network.cpp
void ruleEarlyCrash(const RuleContext& ctx, RuleOutput& out);        // rules_failure.cpp
void ruleResourceExhaustion(const RuleContext& ctx, RuleOutput& out); // rules_failure.cpp
void ruleEarlyExit(const RuleContext& ctx, RuleOutput& out);         // rules_failure.cpp
void ruleLocalPeerClosed(const RuleContext& ctx, RuleOutput& out);   // rules_failure.cpp
void ruleUnmappedWorkerFailure(const RuleContext& ctx, RuleOutput& out); // rules_failure.cpp
void ruleInitHang(const RuleContext& ctx, RuleOutput& out);          // rules_failure.cpp
void ruleFrMismatch(const RuleContext& ctx, RuleOutput& out);        // rules_flightrecorder.cpp
void ruleFrStuckPosition(const RuleContext& ctx, RuleOutput& out);   // rules_flightrecorder.cpp
void ruleFrMissingDump(const RuleContext& ctx, RuleOutput& out);     // rules_flightrecorder.cpp
void ruleFrP2pUnmatched(const RuleContext& ctx, RuleOutput& out);    // rules_flightrecorder.cpp
void ruleRasCountMismatch(const RuleContext& ctx, RuleOutput& out); // rules_ras.cpp
void ruleRasDeadProcess(const RuleContext& ctx, RuleOutput& out);   // rules_ras.cpp

// Run after the verdict: findings about misleading signals (launcher "Root Cause", dump
// signal source rank) judged against the chosen initiating ranks.
void ruleLauncherRootCause(const RuleContext& ctx, const std::vector<std::int32_t>& initiating, RuleOutput& out);

} // namespace rankscope::model
