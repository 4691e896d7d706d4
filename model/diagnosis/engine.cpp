#include "model/diagnosis/engine.h"

#include "model/diagnosis/arbitration.h"
#include "model/diagnosis/facts.h"
#include "model/diagnosis/findinggroups.h"
#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <set>

namespace rankscope::model {

namespace {

// A rank no log line gave progress for (a Flight Recorder-only bundle): its dump's pg_status
// for the stuck group says the same, last enqueued and last completed.
void frProgressOf(const Bundle& b, const Diagnosis& d, std::int32_t rank, RankVerdict& v)
{
    const std::string_view pg = d.stuckCollective ? std::string_view(d.stuckCollective->processGroup) : "0";
    for (const FrDump& dump : b.frDumps) {
        if (dump.globalRank != rank)
            continue;
        for (const FrPgStatus& st : dump.pgStatus)
            if (b.text(st.pg) == pg && st.lastEnqueued >= 0) {
                v.lastEnqueued = st.lastEnqueued;
                v.lastCompleted = st.lastCompleted;
                v.hasProgress = true;
                return;
            }
    }
}

bool intersects(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b)
{
    for (std::int32_t x : a)
        if (std::find(b.begin(), b.end(), x) != b.end())
            return true;
    return false;
}

bool isStragglerActivity(StackActivity a)
{
    return a == StackActivity::DataLoading || a == StackActivity::CheckpointIo || a == StackActivity::Sleeping
        || a == StackActivity::Other;
}

// The odd ones out on the stuck collective: never entered, or kept logging without a timeout.
std::vector<std::int32_t> oddRanks(const DiagnosisFacts& facts)
{
    std::vector<std::int32_t> odd;
    if (!facts.stuckPg)
        return odd;
    const PgFacts& pg = facts.pgs[*facts.stuckPg];
    // Ranks that are odd only for printing nothing (the launcher's SIGTERM often beats the
    // watchdog) do not outweigh a cause another rule saw on other ranks.
    bool onlySilence = false;
    odd = oddRanksOf(facts, pg, &onlySilence);
    if (odd.size() * 2 >= pg.members.size() || onlySilence)
        odd.clear();
    return odd;
}

Position positionFromFlightRecorder(FrRankPosition p)
{
    switch (p) {
    case FrRankPosition::Completed:
        return Position::Completed;
    case FrRankPosition::Started:
    case FrRankPosition::Scheduled:
        return Position::Entered;
    case FrRankPosition::StoppedBefore:
    case FrRankPosition::SkippedSeq:
        return Position::NeverEntered;
    default:
        return Position::Unknown;
    }
}

RankState stateOf(const Bundle& b, const DiagnosisFacts& facts, std::int32_t rank, bool initiating,
    const Diagnosis& d)
{
    const RankFacts& rf = facts.ranks[rank];
    Position pos = Position::Unknown;
    if (facts.stuckPg) {
        const PgFacts& pg = facts.pgs[*facts.stuckPg];
        for (std::size_t i = 0; i < pg.members.size(); ++i)
            if (pg.members[i] == rank)
                pos = pg.positions[i];
    }
    if (pos == Position::Unknown) // no watchdog line placed the rank: the Flight Recorder may
        pos = positionFromFlightRecorder(rf.frPosition);
    if (initiating) {
        if (rf.primaryFailure != kNoIndex)
            return RankState::Crashed;
        if (rf.frozen)
            return RankState::Frozen;
        if (isStragglerActivity(rf.activity))
            return RankState::Straggling;
        if (pos == Position::NeverEntered || pos == Position::NoTimeoutLine)
            return d.rootCause == RootCauseClass::StragglerStall ? RankState::NeverEntered
                : (d.rootCause == RootCauseClass::HardwareFault ? RankState::StuckInCollective : RankState::NeverEntered);
        if (pos == Position::Entered)
            return RankState::StuckInCollective;
        if (!rf.hasLogs)
            return RankState::Unknown;
        return d.rootCause == RootCauseClass::InitBootstrap ? RankState::NeverEntered : RankState::Unknown;
    }
    if (rf.tornDown && !rf.anyTimeout)
        return RankState::TornDown;
    if (rf.primaryFailure != kNoIndex)
        return RankState::Crashed;
    if (rf.frozen)
        return RankState::Frozen;
    if (rf.anyTimeout)
        return RankState::CollateralTimeout;
    if (rf.tornDown)
        return RankState::TornDown;
    if (pos == Position::Completed)
        return RankState::Completed;
    if (pos == Position::NeverEntered)
        return RankState::NeverEntered;
    // With no hang found, a rank inside a collective when its Flight Recorder was dumped is a
    // snapshot of a running job (every rank in the same collective), not a stuck one.
    if (pos == Position::Entered)
        return d.status == DiagnosisStatus::NoHangFound ? RankState::Healthy
                                                        : RankState::StuckInCollective;
    if (d.status == DiagnosisStatus::NoHangFound && rf.hasLogs)
        return RankState::Healthy;
    (void)b;
    return RankState::Unknown;
}

std::vector<std::string> missingEvidence(const Bundle& b, const DiagnosisFacts& facts, const Knowledge& k)
{
    std::vector<std::string> keys;
    if (b.commInits.empty())
        keys.push_back("nccl_debug");
    bool fr = false;
    for (const auto& s : b.sources)
        fr = fr || s.kind == SourceKind::FlightRecorderPickle || s.kind == SourceKind::FlightRecorderJson;
    if (!fr)
        keys.push_back("flight_recorder");
    bool kernel = false;
    for (const auto& e : b.events)
        kernel = kernel || e.kind == EventKind::GpuXid || e.kind == EventKind::NicLinkState || e.kind == EventKind::PcieError;
    if (!kernel)
        keys.push_back("dmesg");
    if (b.stackDumps.empty())
        keys.push_back("py_spy");
    if (!b.world.worldSize || !b.world.ranksMissing.empty())
        keys.push_back("all_ranks");
    bool status = false;
    for (const auto& p : b.progress)
        status = status || p.hasStatus;
    if (!status && facts.anyTimeout)
        keys.push_back("status_lines");
    std::vector<std::string> out;
    for (const auto& key : keys)
        if (auto it = k.collectNextTime.find(key); it != k.collectNextTime.end())
            out.push_back(it->second);
    return out;
}

} // namespace

Diagnosis diagnose(const Bundle& bundle, const Knowledge& knowledge, unsigned threads)
{
    const DiagnosisFacts facts = collectFacts(bundle, threads);
    const RuleContext ctx { bundle, facts, knowledge };
    if (!bundle.recognisedAnything()) {
        // Text no parser understood is an answer too: say so and what to collect, never guess.
        Diagnosis d;
        d.status = DiagnosisStatus::Inconclusive;
        d.rootCause = RootCauseClass::Unknown;
        d.confidence = 0.0;
        d.summary = ctx.sayShared("verdict_nothing_recognised");
        d.missingEvidence = missingEvidence(bundle, facts, knowledge);
        return d;
    }
    RuleOutput out;
    ruleFingerprintMismatch(ctx, out);
    ruleDesyncReport(ctx, out);
    ruleMonitoredBarrier(ctx, out);
    ruleTimeoutSeqOffset(ctx, out);
    ruleXid(ctx, out);
    ruleCudaStickyError(ctx, out);
    ruleResourceExhaustion(ctx, out);
    ruleEarlyCrash(ctx, out);
    ruleEarlyExit(ctx, out);
    ruleLocalPeerClosed(ctx, out);
    ruleUnmappedWorkerFailure(ctx, out);
    ruleIbPair(ctx, out);
    ruleSocketClosed(ctx, out);
    ruleTransportEverywhere(ctx, out);
    ruleIbAsyncEvents(ctx, out);
    ruleDuplicateGpu(ctx, out);
    ruleOpMismatch(ctx, out);
    ruleCollLineMismatch(ctx, out);
    ruleEnqueuedAhead(ctx, out);
    ruleInitHang(ctx, out);
    ruleFrMismatch(ctx, out);
    ruleFrStuckPosition(ctx, out);
    ruleFrMissingDump(ctx, out);
    ruleFrP2pUnmatched(ctx, out);
    ruleRasCountMismatch(ctx, out);
    ruleRasDeadProcess(ctx, out);
    ruleNeverEntered(ctx, out);
    ruleWatchdogBlocked(ctx, out);
    ruleSyncPointTimeout(ctx, out);
    ruleSilentRank(ctx, out);
    ruleStacksWithoutTimeout(ctx, out);
    ruleAllEntered(ctx, out);
    ruleBusyWhileOthersWaited(ctx, out);
    ruleHorovodStall(ctx, out);
    ruleUnmappedErrors(ctx, out);

    Diagnosis d;
    const Proposal* chosen = arbitrate(out.proposals, oddRanks(facts));
    std::size_t chosenFinding = out.findings.size();
    if (chosen) {
        d.status = chosen->status;
        d.rootCause = chosen->rootCause;
        d.initiatingRanks = chosen->initiating;
        std::sort(d.initiatingRanks.begin(), d.initiatingRanks.end());
        d.stuckPair = chosen->pair;
        d.confidence = chosen->confidence;
        d.summary = chosen->summary;
        chosenFinding = chosen->finding;
        // Findings that argue for the same cause on the same ranks raise confidence a little.
        for (std::size_t i = 0; i < out.findings.size(); ++i) {
            const Finding& f = out.findings[i];
            if (i == chosenFinding || !f.suggests || *f.suggests != d.rootCause)
                continue;
            if (d.initiatingRanks.empty() || intersects(f.ranks, d.initiatingRanks))
                d.confidence = std::min(0.97, d.confidence + 0.03);
        }
    } else if (facts.anyTimeout || facts.anyFailure) {
        d.status = DiagnosisStatus::Inconclusive;
        d.rootCause = RootCauseClass::Unknown;
        d.confidence = 0.2;
        d.summary = ctx.sayShared(facts.anyTimeout ? "verdict_timeouts_unexplained" : "verdict_errors_unexplained");
    } else if (std::any_of(bundle.frDumps.begin(), bundle.frDumps.end(),
                   [](const FrDump& dump) { return dump.stopUnknown || dump.truncated; })) {
        // A broken dump hides where its rank stood: with nothing else pointing at a hang,
        // "no hang" would be a claim about a rank nobody can see.
        d.status = DiagnosisStatus::Inconclusive;
        d.rootCause = RootCauseClass::Unknown;
        d.confidence = 0.2;
        d.summary = ctx.sayShared("verdict_broken_dump");
    } else if (std::any_of(bundle.tracebacks.begin(), bundle.tracebacks.end(),
                   [](const PythonTraceback& t) { return t.exceptionType == kNoStr; })) {
        // A traceback cut before its exception line is an error whose words are not in the
        // bundle: "no hang" would judge what nobody can read.
        d.status = DiagnosisStatus::Inconclusive;
        d.rootCause = RootCauseClass::Unknown;
        d.confidence = 0.2;
        d.summary = ctx.sayShared("verdict_traceback_cut");
    } else {
        d.status = DiagnosisStatus::NoHangFound;
        d.rootCause = RootCauseClass::None;
        d.confidence = 0.8;
        Placeholders values;
        if (!facts.applicationXids.empty()) {
            const std::size_t more = facts.applicationXids.size() - 1;
            values["application_xid"] = ctx.sayShared("application_xid",
                { { "xid", std::to_string(bundle.events[facts.applicationXids.front()].code) },
                    { "more", more ? ctx.sayShared("more_of_its_kind", { { "count", std::to_string(more) } }) : "" } });
        }
        d.summary = ctx.sayShared("verdict_no_hang", values);
    }
    if (d.status == DiagnosisStatus::Inconclusive)
        d.initiatingRanks.clear();

    if (chosen && chosen->collateral && d.status == DiagnosisStatus::HangDiagnosed) {
        d.collateralRanks = *chosen->collateral;
    } else if (d.status == DiagnosisStatus::HangDiagnosed && !d.initiatingRanks.empty()) {
        for (std::int32_t r : bundle.world.ranksSeen)
            if (std::find(d.initiatingRanks.begin(), d.initiatingRanks.end(), r) == d.initiatingRanks.end())
                d.collateralRanks.push_back(r);
    }
    if (facts.stuckPg && d.status != DiagnosisStatus::NoHangFound) {
        const PgFacts& pg = facts.pgs[*facts.stuckPg];
        StuckCollective sc;
        sc.processGroup = pg.pg == kNoStr ? "0" : std::string(bundle.text(pg.pg));
        sc.seq = pg.stuckSeq;
        sc.op = ctx.stuckOp();
        const bool collectiveRelevant = d.rootCause != RootCauseClass::InitBootstrap || facts.anyCollectiveCompleted;
        if (pg.stuckSeq >= 0 && collectiveRelevant && !(d.rootCause == RootCauseClass::StragglerStall && d.initiatingRanks.empty() && pg.allMinusOne))
            d.stuckCollective = sc;
    }
    if (!d.stuckCollective && chosen && chosen->stuckCollective && d.status != DiagnosisStatus::NoHangFound)
        d.stuckCollective = chosen->stuckCollective;
    if (d.status != DiagnosisStatus::NoHangFound)
        d.summary += summaryClassTail(d.rootCause, d.confidence);

    ruleLauncherRootCause(ctx, d.initiatingRanks, out);

    // Findings: the verdict's first, then those for the same cause, then the rest by confidence.
    std::vector<std::size_t> order(out.findings.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto rankOf = [&](std::size_t i) {
        if (i == chosenFinding && chosen)
            return 0;
        const Finding& f = out.findings[i];
        if (f.suggests && *f.suggests == d.rootCause)
            return 1;
        return 2;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        const int rx = rankOf(x), ry = rankOf(y);
        if (rx != ry)
            return rx < ry;
        return out.findings[x].confidence > out.findings[y].confidence;
    });
    for (std::size_t i : order)
        d.findings.push_back(std::move(out.findings[i]));
    foldRepeatedFindings(d.findings, knowledge, chosen && chosenFinding < out.findings.size());

    for (const auto& info : bundle.ranks) {
        RankVerdict v;
        v.rank = info.rank;
        const bool initiating = std::find(d.initiatingRanks.begin(), d.initiatingRanks.end(), info.rank) != d.initiatingRanks.end();
        v.state = stateOf(bundle, facts, info.rank, initiating, d);
        if (facts.stuckPg) {
            if (const RankProgress* p = bundle.progressOf(facts.pgs[*facts.stuckPg].pg, info.rank); p && p->hasStatus) {
                v.lastEnqueued = p->lastEnqueued;
                v.lastCompleted = p->lastCompleted;
                v.hasProgress = true;
            }
        }
        if (!v.hasProgress)
            frProgressOf(bundle, d, info.rank, v);
        d.ranks.push_back(v);
    }
    if (d.status == DiagnosisStatus::Inconclusive || d.confidence < 0.6)
        d.missingEvidence = missingEvidence(bundle, facts, knowledge);
    return d;
}

} // namespace rankscope::model
