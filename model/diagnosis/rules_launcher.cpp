// Misleading signals, judged against the verdict ([formats 5.2], [formats 1.4] j):
// torchrun's "Root Cause (first observed failure)" is only the earliest failure on that
// node (for signal deaths, the agent's poll time), and the rank a dump signal comes from
// is the first rank whose watchdog fired — a healthy waiter.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <set>

namespace rankscope::model {

void ruleLauncherRootCause(const RuleContext& ctx, const std::vector<std::int32_t>& initiating, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::set<std::int32_t> reported;
    for (std::uint32_t i : ctx.facts.launcherRootCauses) {
        const LauncherFailure& lf = b.launcherFailures[i];
        if (lf.globalRank < 0 || !reported.insert(lf.globalRank).second)
            continue;
        const bool agrees = std::find(initiating.begin(), initiating.end(), lf.globalRank) != initiating.end();
        const char* rule = agrees ? "launcher.root_cause_agrees" : "launcher.root_cause_collateral";
        Placeholders values = ctx.placeholdersFor(lf.globalRank);
        // The rank as torchrun names it, even one the bundle knows nothing else about.
        values["rank"] = std::to_string(lf.globalRank);
        values["launcher_local_rank"] = std::to_string(lf.localRank);
        values["exit_code"] = std::to_string(lf.exitCode);
        // Optional in the words: a failure record without a host line still has a rank.
        values["launcher_host"] = std::string(b.text(lf.host));
        Finding& f = out.add(ctx, rule, std::nullopt, values);
        f.ranks = { lf.globalRank };
        f.evidence.push_back(evidenceOf(b, lf.evidence, ctx.sayShared("launcher_root_cause_evidence", values)));
        if (agrees) {
            f.confidence = 0.5;
            f.explanation = ctx.explain(rule, values);
            continue;
        }
        f.confidence = initiating.empty() ? 0.4 : 0.8;
        if (initiating.empty()) {
            values["judgement"] = ctx.say(rule, "no_other_evidence");
        } else {
            values["initiating"] = formatRanks(initiating);
            values["fate"] = ctx.say(rule, lf.exitCode == -6 ? "fate_aborted" : "fate_went_down");
            values["judgement"] = ctx.say(rule, "evidence_elsewhere", values);
        }
        f.explanation = ctx.explain(rule, values);
    }
    // "Received a dump signal ... from rank F": F is the first rank to time out.
    std::set<std::int32_t> sources;
    std::uint32_t sample = kNoIndex;
    for (std::uint32_t i : ctx.facts.dumpSignals) {
        if (sources.insert(b.events[i].peerRank).second && sample == kNoIndex)
            sample = i;
    }
    for (std::int32_t src : sources) {
        if (std::find(initiating.begin(), initiating.end(), src) != initiating.end())
            continue;
        static constexpr const char* kRule = "launcher.dump_signal_source";
        Placeholders values = ctx.placeholdersFor(src);
        values["rank"] = std::to_string(src);
        Finding& f = out.add(ctx, kRule, std::nullopt, values);
        f.ranks = { src };
        f.evidence.push_back(evidenceOf(b, sample));
        f.confidence = 0.7;
        f.explanation = ctx.explain(kRule, values);
        break;
    }
}

} // namespace rankscope::model
