// Rules on where ranks stand on the stuck collective ([formats 1.5], [formats 11] F):
// the odd rank out that never entered, the whole-job freeze, everyone inside, the rank that
// should have logged but did not, and stack dumps taken before any timeout.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <optional>
#include <set>

namespace rankscope::model {

namespace {

bool isStragglerActivity(StackActivity a)
{
    return a == StackActivity::DataLoading || a == StackActivity::CheckpointIo || a == StackActivity::Sleeping
        || a == StackActivity::Other;
}

} // namespace

// Ranks that never entered, plus (PyTorch without status lines, or a rank killed before it
// could print) ranks that kept logging but printed no timeout. Silence alone is weak: on a big
// job the launcher's SIGTERM reaches many waiting ranks before their own watchdog fires (every
// rank entered at about the same time, so they all time out within a second or two), and they
// print nothing either. So the ranks with evidence of their own — a status saying last
// enqueued < S, an NCCL COLL opCount below the stuck collective's, a last line or stack dump
// outside any collective, a communicator it tore down itself, a process that ignored SIGTERM —
// are the odd ones when there are any; the merely silent ones only when nobody has such
// evidence (then *onlySilence is set).
std::vector<std::int32_t> oddRanksOf(const DiagnosisFacts& facts, const PgFacts& pg, bool* onlySilence)
{
    std::vector<std::int32_t> odd = pg.neverEntered;
    std::vector<std::int32_t> silentOnly;
    // When torn-down ranks still printed their progress (PyTorch ≥2.3 logs it on the dump
    // signal, before the launcher's SIGTERM lands), a torn-down rank that printed none may have
    // stopped earlier than the others — weak, as said above.
    bool tornDownRanksReport = false;
    for (std::size_t i = 0; i < pg.members.size(); ++i) {
        const std::int32_t r = pg.members[i];
        if (static_cast<std::size_t>(r) < facts.ranks.size() && facts.ranks[r].tornDown && !facts.ranks[r].anyTimeout
            && (pg.positions[i] == Position::Entered || pg.positions[i] == Position::Completed))
            tornDownRanksReport = pg.neverEntered.empty();
    }
    // NCCL COLL lines settle it where they exist ([formats 3.5]): NCCL prints the line when the call is
    // made, and every rank that timed out in S made its call for S, so the lowest opCount among
    // them is at least S's. A rank below it never called NCCL for S. (Not the highest: ranks
    // that raced ahead enqueued more calls, and a rank sitting in S would look behind them.)
    const std::int64_t peerOpCount = stuckCollOpCount(facts, pg);
    for (std::int32_t r : pg.silent) {
        if (static_cast<std::size_t>(r) >= facts.ranks.size())
            continue;
        const RankFacts& rf = facts.ranks[r];
        if (rf.lastCollOpCount >= 0 && peerOpCount >= 0) {
            if (rf.lastCollOpCount < peerOpCount)
                odd.push_back(r);
            continue;
        }
        // Silent on this group but timed out in another one: its own watchdog shows it was
        // alive and blocked in a collective elsewhere when the hang began, torn down or not
        // (a stack in a collective call is that other collective).
        if (rf.hasLogs && rf.anyTimeout) {
            odd.push_back(r);
            continue;
        }
        // A stack dump in the collective call shows the rank entered it: not odd at all.
        if (rf.stackDump != kNoIndex && rf.activity == StackActivity::InCollective)
            continue;
        const bool saidItWasBusy = rf.lastActivityEvent != kNoIndex
            && (rf.lastActivity == StackActivity::DataLoading || rf.lastActivity == StackActivity::CheckpointIo
                || rf.lastActivity == StackActivity::Sleeping || rf.lastActivity == StackActivity::Other);
        // Only a stack in a known stall (DataLoader, checkpoint I/O, sleep): a main thread in the
        // script's own code may be blocked in a CUDA call the Python stack does not show (a rank
        // that raced ahead waits in the allocator behind the stuck stream, [formats 11] F).
        const bool stackOutside = rf.stackDump != kNoIndex
            && (rf.activity == StackActivity::DataLoading || rf.activity == StackActivity::CheckpointIo
                || rf.activity == StackActivity::Sleeping);
        const bool leftOnItsOwn = rf.commTeardown != kNoIndex && !rf.anyTimeout;
        if (rf.hasLogs && (saidItWasBusy || stackOutside || leftOnItsOwn || rf.survivedSigterm))
            odd.push_back(r);
        else if (rf.hasLogs && (!rf.tornDown || tornDownRanksReport))
            silentOnly.push_back(r);
    }
    if (onlySilence)
        *onlySilence = odd.empty() && !silentOnly.empty();
    if (odd.empty())
        odd = std::move(silentOnly);
    std::sort(odd.begin(), odd.end());
    odd.erase(std::unique(odd.begin(), odd.end()), odd.end());
    return odd;
}

std::int64_t stuckCollOpCount(const DiagnosisFacts& facts, const PgFacts& pg)
{
    std::int64_t lowest = -1;
    for (std::int32_t r : pg.entered)
        if (static_cast<std::size_t>(r) < facts.ranks.size() && facts.ranks[r].lastCollOpCount >= 0
            && (lowest < 0 || facts.ranks[r].lastCollOpCount < lowest))
            lowest = facts.ranks[r].lastCollOpCount;
    return lowest;
}

namespace {

// What a stack dump or a last line shows the main thread doing, in the never-entered rule's words.
std::string activityWords(const RuleContext& ctx, StackActivity a)
{
    switch (a) {
    case StackActivity::DataLoading:
        return ctx.say("straggler.never_entered", "activity_data_loading");
    case StackActivity::CheckpointIo:
        return ctx.say("straggler.never_entered", "activity_checkpoint_io");
    case StackActivity::Sleeping:
        return ctx.say("straggler.never_entered", "activity_sleeping");
    case StackActivity::Other:
        return ctx.say("straggler.never_entered", "activity_other");
    case StackActivity::InCollective:
        return ctx.say("straggler.never_entered", "activity_in_collective");
    case StackActivity::InNcclInit:
        return ctx.say("straggler.never_entered", "activity_in_nccl_init");
    default:
        return ctx.say("straggler.never_entered", "activity_unknown");
    }
}

// The stuck collective's op as PyTorch names it, "collective" when no timeout line says.
std::string stuckOpName(const RuleContext& ctx)
{
    return ctx.stuckOp() != OpType::Unknown ? std::string(torchName(ctx.stuckOp())) : "collective";
}

// "allreduce #41 of PG 0 (default_pg)"
std::string stuckWhere(const RuleContext& ctx, const PgFacts& pg)
{
    return ctx.sayShared("stuck_where",
        { { "op_name", stuckOpName(ctx) }, { "stuck_seq", std::to_string(pg.stuckSeq) }, { "pg_label", ctx.pgLabel(pg.pg) } });
}

// Frames of a stack dump as evidence text.
std::string stackText(const RuleContext& ctx, const StackDump& s)
{
    const Bundle& b = ctx.bundle;
    std::string out;
    for (std::size_t i = 0; i < s.mainThread.size() && i < 4; ++i) {
        const StackFrame& f = s.mainThread[i];
        out += (i ? " <- " : " ") + std::string(b.text(f.function));
        if (f.file != kNoStr)
            out += " (" + std::string(b.text(f.file)) + (f.line >= 0 ? ":" + std::to_string(f.line) : "") + ")";
    }
    return ctx.sayShared("main_thread_frames", { { "frames", out } });
}

// The launcher's lines that signalled these ranks (SIGTERM, then SIGKILL), as evidence.
std::vector<EvidenceLine> launcherLinesOf(const RuleContext& ctx, const std::vector<std::int32_t>& ranks)
{
    const Bundle& b = ctx.bundle;
    std::vector<EvidenceLine> lines;
    for (std::int32_t r : ranks) {
        const RankInfo* info = b.rankInfo(r);
        if (!info || info->pid < 0)
            continue;
        for (std::uint32_t i = 0; i < b.events.size() && lines.size() < 4; ++i) {
            const Event& e = b.events[i];
            if (e.kind == EventKind::LauncherSignalSent && e.pid == info->pid && b.text(e.detail) == "sigterm_ignored"
                && (e.rank < 0 || e.rank == r))
                lines.push_back(evidenceOf(b, i));
        }
    }
    return lines;
}

// The odd ranks printed nothing of their own after their last normal step and nothing shows
// they were alive: they stopped logging. Whether they died or hung is what the launcher's
// teardown may tell.
void concludeStoppedLogging(const RuleContext& ctx, RuleOutput& out, const PgFacts& pg,
    const std::vector<std::int32_t>& odd, Placeholders values)
{
    static constexpr const char* kRule = "silent.stopped_logging";
    const Bundle& b = ctx.bundle;
    const std::int32_t first = odd.front();
    Finding& s = out.add(ctx, kRule, RootCauseClass::Unknown, values);
    s.ranks = odd;
    s.confidence = 0.55;
    if (const RankFacts& rf = ctx.facts.ranks[first]; rf.lastEvent != kNoIndex)
        s.evidence.push_back(evidenceOf(b, rf.lastEvent));
    for (std::int32_t r : pg.timedOut) {
        const RankProgress* p = b.progressOf(pg.pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent) {
            s.evidence.push_back(evidenceOf(b, p->timeoutEvent));
            break;
        }
    }
    std::vector<std::int32_t> unresponsive;
    for (std::int32_t r : odd)
        if (ctx.facts.ranks[r].survivedSigterm)
            unresponsive.push_back(r);
    if (!unresponsive.empty()) {
        // torchrun SIGKILLs only a worker still alive 30 s after SIGTERM (elastic
        // multiprocessing api.py _close); ranks waiting in a collective die on SIGTERM.
        values["teardown"] = ctx.say(kRule, "unresponsive", { { "unresponsive", formatRanks(unresponsive) } });
        for (const auto& e : launcherLinesOf(ctx, unresponsive))
            if (s.evidence.size() < 6)
                s.evidence.push_back(e);
    } else {
        values["teardown"] = ctx.say(kRule, "died_or_hung");
    }
    // Several ranks equally silent: nothing tells which one stopped first, so none is named.
    if (odd.size() > 1) {
        s.confidence = 0.35;
        values["several"] = ctx.say(kRule, "several_alike");
        s.explanation = ctx.explain(kRule, values);
        return;
    }
    s.explanation = ctx.explain(kRule, values);
    const bool hung = ctx.facts.ranks[first].survivedSigterm;
    if (hung)
        s.confidence = 0.65;
    values["how"] = ctx.say(kRule, hung ? "verdict_hung" : "verdict_unknown");
    out.propose(RootCauseClass::Unknown, odd, s.confidence, kRule, ctx.verdict(kRule, values));
}

// Each odd rank's own watchdog fired in another collective than the one its peers wait in:
// both sides wait for each other, a collective-order mismatch.
void concludeWaitsElsewhere(const RuleContext& ctx, RuleOutput& out, const std::vector<std::int32_t>& odd,
    std::vector<EvidenceLine> evidence, Placeholders values)
{
    static constexpr const char* kRule = "mismatch.waits_elsewhere";
    values["waits"] = ctx.say(kRule, odd.size() == 1 ? "waits_one" : "waits_many");
    Finding& m = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
    m.ranks = odd;
    m.evidence = std::move(evidence);
    m.confidence = 0.8;
    m.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::CollectiveMismatch, odd, 0.8, kRule, ctx.verdict(kRule, values));
}

} // namespace

void ruleNeverEntered(const RuleContext& ctx, RuleOutput& out)
{
    const PgFacts* pg = ctx.stuckPg();
    if (!pg || pg->stuckSeq < 0 || pg->timedOut.empty())
        return;
    const Bundle& b = ctx.bundle;
    // Odd ones out: status says last enqueued < S, or (old PyTorch without status lines) the
    // rank kept logging but printed no timeout for this group while its peers did.
    std::vector<std::int32_t> odd = oddRanksOf(ctx.facts, *pg);
    std::sort(odd.begin(), odd.end());
    odd.erase(std::unique(odd.begin(), odd.end()), odd.end());
    if (odd.empty())
        return;
    const std::size_t members = pg->members.size();
    // Half the group "lagging" is no odd one out: a mismatch or a split, not a straggler.
    if (odd.size() * 2 >= members)
        return;

    const std::int32_t first = odd.front();
    static constexpr const char* kRule = "straggler.never_entered";
    const std::string where = stuckWhere(ctx, *pg);
    Placeholders values = ctx.placeholdersFor(first);
    values["ranks"] = formatRanks(odd);
    values["who"] = odd.size() == 1 ? ctx.rankLabel(first) : formatRanks(odd);
    values["subject"] = ctx.ranksSubject(odd);
    values["object"] = ctx.ranksObject(odd);
    values["where"] = where;
    values["timed_out"] = std::to_string(pg->timedOut.size());
    Finding& f = out.add(ctx, kRule, RootCauseClass::StragglerStall, values);
    f.ranks = odd;

    double confidence = 0.6;
    std::string perRank; // what each odd rank's own evidence says
    std::size_t disambiguated = 0;
    std::size_t insideNccl = 0;
    std::size_t alive = 0; // odd ranks that showed they were still running after the hang began
    const std::int64_t peerOpCount = stuckCollOpCount(ctx.facts, *pg);
    for (std::int32_t r : odd) {
        const RankFacts& rf = ctx.facts.ranks[r];
        const RankProgress* p = b.progressOf(pg->pg, r);
        Placeholders own { { "rank_label", ctx.rankLabel(r) } };
        if (p && p->hasStatus) {
            ++alive;
            own["enqueued"] = std::to_string(p->lastEnqueued);
            own["completed"] = std::to_string(p->lastCompleted);
            own["stuck_seq"] = std::to_string(pg->stuckSeq);
            perRank += ctx.say(kRule, "status", own);
            if (p->statusEvent != RankProgress::kNoEvent)
                f.evidence.push_back(evidenceOf(b, p->statusEvent));
        } else {
            own["pg_label"] = ctx.pgLabel(pg->pg);
            perRank += ctx.say(kRule, "no_timeout", own);
            if (rf.lastEvent != kNoIndex)
                f.evidence.push_back(evidenceOf(b, rf.lastEvent));
        }
        if (rf.stackDump != kNoIndex) {
            const StackDump& s = b.stackDumps[rf.stackDump];
            f.evidence.push_back(evidenceOf(b, s.evidence, stackText(ctx, s)));
            own["activity"] = activityWords(ctx, rf.activity);
            perRank += ctx.say(kRule, "stack", own);
            if (isStragglerActivity(rf.activity)) {
                ++disambiguated;
                ++alive;
            } else if (rf.activity == StackActivity::InCollective)
                ++insideNccl;
        } else if (rf.lastActivityEvent != kNoIndex && isStragglerActivity(rf.lastActivity)) {
            f.evidence.push_back(evidenceOf(b, rf.lastActivityEvent));
            own["activity"] = activityWords(ctx, rf.lastActivity);
            own["line"] = std::string(b.text(b.events[rf.lastActivityEvent].text)).substr(0, 160);
            perRank += ctx.say(kRule, "last_line", own);
            ++disambiguated;
            ++alive;
        } else if (rf.lastCollOpCount >= 0 && peerOpCount >= 0) {
            if (rf.lastCollOpCount < peerOpCount) {
                own["own_op_count"] = std::to_string(rf.lastCollOpCount);
                own["peer_op_count"] = std::to_string(peerOpCount);
                perRank += ctx.say(kRule, "coll_behind", own);
                ++disambiguated;
            } else {
                perRank += ctx.say(kRule, "coll_same", own);
                ++insideNccl;
            }
        } else if (rf.lastUtilization >= 0 && rf.lastUtilization < 5) {
            own["utilisation"] = std::to_string(static_cast<int>(rf.lastUtilization));
            perRank += ctx.say(kRule, "gpu_idle", own);
            ++disambiguated;
        }
    }
    // Waiting is not being late: an odd rank whose own watchdog timed out in another
    // collective (another process group, or a rank-conditional call the others never make)
    // is blocked in a collective its peers never enter. Both sides wait on each other: a
    // collective-order mismatch, a deadlock, not a straggler.
    std::vector<EvidenceLine> elsewhereEvidence;
    for (std::int32_t r : odd)
        for (const RankProgress* p : b.progressOfRank(r))
            if (p->pg != pg->pg && p->timeoutSeq >= 0 && p->timeoutEvent != RankProgress::kNoEvent) {
                elsewhereEvidence.push_back(evidenceOf(b, p->timeoutEvent));
                break;
            }
    // A rank whose watchdog fired elsewhere was alive when the hang began.
    alive += elsewhereEvidence.size();
    // COLL lines show where a rank stopped, not that it is still running: a dead rank's last
    // opCount is as low as a straggler's. Only a status, a stack or a line of its own does.
    // A rank that printed nothing of its own after its last normal step, with nothing (no
    // status, stack or activity line) showing it was alive, may as well have died silently:
    // that is not a straggler claim.
    if (alive == 0 && insideNccl == 0) {
        out.findings.pop_back();
        concludeStoppedLogging(ctx, out, *pg, odd, values);
        return;
    }
    const std::size_t waiting = pg->entered.size() + pg->completed.size();
    values["waiting"] = std::to_string(waiting);
    values["them"] = ctx.say(kRule, odd.size() == 1 ? "waiting_for_one" : "waiting_for_many");
    values["per_rank"] = perRank;
    if (disambiguated == odd.size()) {
        confidence = 0.85;
    } else if (insideNccl > 0) {
        confidence = 0.45;
        values["caveat"] = ctx.say(kRule, "caveat_inside_nccl");
    } else {
        confidence = 0.65;
        values["caveat"] = ctx.say(kRule, "caveat_unsettled");
    }
    if (pg->neverEntered.empty())
        confidence -= 0.1; // only the absence of a timeout line (PyTorch ≤2.1 prints no status)
    f.confidence = confidence;
    f.explanation = ctx.explain(kRule, values);
    for (std::int32_t r : pg->timedOut) {
        if (f.evidence.size() >= 6)
            break;
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent) {
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
            break;
        }
    }
    const RankFacts& firstFacts = ctx.facts.ranks[first];
    const StackActivity shown = firstFacts.activity != StackActivity::Unknown ? firstFacts.activity
        : (firstFacts.lastActivityEvent != kNoIndex ? firstFacts.lastActivity : StackActivity::Unknown);
    if (disambiguated && isStragglerActivity(shown))
        values["while_busy"] = ctx.say(kRule, "while_busy", { { "activity", activityWords(ctx, shown) } });
    if (!elsewhereEvidence.empty() && elsewhereEvidence.size() == odd.size()) {
        std::vector<EvidenceLine> evidence = std::move(elsewhereEvidence);
        for (const auto& e : f.evidence)
            if (evidence.size() < 6)
                evidence.push_back(e);
        out.findings.pop_back();
        concludeWaitsElsewhere(ctx, out, odd, std::move(evidence), values);
        return;
    }
    out.propose(RootCauseClass::StragglerStall, odd, confidence, kRule, ctx.verdict(kRule, values));
}

namespace {

// Ranks that printed ProcessGroupNCCL's exit warning (their process groups were never
// destroyed) reached the end of the script; a watchdog that then got stuck, with no collective
// timed out, hung in the teardown: communicators left for the interpreter's exit to tear down
// one process at a time, while NCCL's abort and destroy need the group's members together
// (PyTorch's own 2.4 warning says such an exit "can block the progress of another member").
// Scripts with many groups (expert or pipeline parallel) meet it most. The stall is the
// script's missing destroy_process_group(), not a GPU's: no rank is named.
void proposeExitWithoutDestroy(
    const RuleContext& ctx, RuleOutput& out, const std::vector<std::int32_t>& blocked)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::uint32_t> exits;
    std::set<std::int32_t> exited;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind == EventKind::TorchExitWithoutDestroy) {
            exits.push_back(i);
            if (e.rank >= 0)
                exited.insert(e.rank);
        }
        // A failure before the exit is a run that ended badly, not a clean end's teardown.
        else if (e.severity >= Severity::Error && e.kind != EventKind::TorchHeartbeatStuck
            && e.kind != EventKind::TorchHeartbeatTerminate && exits.empty())
            return;
    }
    if (exits.empty())
        return;
    // The stall came after an exit: a stuck watchdog timed before the first exit warning is a
    // hang during the run.
    const Event& firstExit = b.events[exits.front()];
    const Event& stuck = b.events[ctx.facts.ranks[blocked.front()].heartbeatStuck];
    if (firstExit.time.valid() && stuck.time.valid() && firstExit.time.domain == stuck.time.domain
        && wholeSeconds(stuck.time) < wholeSeconds(firstExit.time))
        return;
    static constexpr const char* kRule = "configuration.exit_without_destroy";
    Placeholders values;
    values["blocked"] = ctx.ranksObject(blocked);
    values["exited"] = exited.empty() ? ctx.say(kRule, "some_processes")
                                      : ctx.ranksObject({ exited.begin(), exited.end() });
    Finding& f = out.add(ctx, kRule, RootCauseClass::Configuration, values);
    f.evidence.push_back(evidenceOf(b, exits.front()));
    f.evidence.push_back(evidenceOf(b, ctx.facts.ranks[blocked.front()].heartbeatStuck));
    f.confidence = 0.5;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::Configuration, {}, 0.5, kRule, ctx.verdict(kRule, values));
}

} // namespace

// ProcessGroupNCCL's watchdog thread wakes every 100 ms and counts a heartbeat whether or not
// a collective is in flight; its heartbeat monitor kills the process when the count stops for
// TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC ("watchdog got stuck for 480 seconds"). A main thread
// waiting on a filesystem, a lock or a slow rank does not stop it: the watchdog itself sat in
// a call that did not return — a CUDA or NCCL API call (an event query or destroy, a
// communicator abort) on a GPU or driver that stopped answering, or the GIL held by a thread
// inside such a call. With no collective timed out anywhere, that is all the logs say: which of
// these, and why, needs the process's native stack and the node's kernel log.
void ruleWatchdogBlocked(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    if (ctx.facts.anyTimeout)
        return;
    std::vector<std::int32_t> blocked;
    for (const auto& rf : ctx.facts.ranks)
        if (rf.heartbeatStuck != kNoIndex)
            blocked.push_back(rf.rank);
    if (blocked.empty())
        return;
    proposeExitWithoutDestroy(ctx, out, blocked);
    static constexpr const char* kRule = "hang.watchdog_blocked";
    Placeholders values = ctx.placeholdersFor(blocked.front());
    values["ranks"] = formatRanks(blocked);
    values["object"] = ctx.ranksObject(blocked);
    values["processes"] = ctx.say(kRule, blocked.size() == 1 ? "one_process" : "several_processes");
    Finding& f = out.add(ctx, kRule, RootCauseClass::Unknown, values);
    f.ranks = blocked;
    f.confidence = 0.35;
    f.explanation = ctx.explain(kRule, values);
    for (std::size_t i = 0; i < blocked.size() && i < 2; ++i)
        f.evidence.push_back(evidenceOf(b, ctx.facts.ranks[blocked[i]].heartbeatStuck));
    Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.35, kRule, ctx.verdict(kRule, values));
    p.status = DiagnosisStatus::Inconclusive;
}

void ruleAllEntered(const RuleContext& ctx, RuleOutput& out)
{
    const PgFacts* pg = ctx.stuckPg();
    if (!pg || pg->stuckSeq < 0 || !pg->neverEntered.empty())
        return;
    // Ranks their launcher tore down before they could print are not evidence against
    // "everyone entered"; ranks that kept logging without a timeout are.
    std::size_t tornDownSilent = 0;
    for (std::int32_t r : pg->silent) {
        const RankFacts& rf = ctx.facts.ranks[r];
        if (rf.tornDown && !rf.anyTimeout && rf.lastActivityEvent == kNoIndex && !rf.survivedSigterm) {
            ++tornDownSilent;
            continue;
        }
        if (rf.hasLogs || !pg->membersKnown)
            return;
    }
    if (pg->entered.size() < 2 || pg->entered.size() + pg->completed.size() + tornDownSilent < pg->members.size())
        return;
    // The default group holds every rank of the world. Without its membership, ranks the bundle
    // knows exist (below the highest seen) that left no line at all were not seen entering:
    // "every rank entered" would be a claim about ranks nobody can see.
    if (!pg->membersKnown) {
        const ProcessGroup* g = ctx.bundle.processGroup(pg->pg);
        if (g && g->isDefault)
            for (const RankFacts& rf : ctx.facts.ranks)
                if (!rf.hasLogs && !rf.hasSourceFile && !rf.tornDown
                    && std::find(pg->members.begin(), pg->members.end(), rf.rank) == pg->members.end())
                    return;
    }
    const Bundle& b = ctx.bundle;
    Placeholders values = ctx.placeholdersFor(pg->entered.front());
    values["where"] = stuckWhere(ctx, *pg);
    values["entered"] = std::to_string(pg->entered.size());
    if (!ctx.facts.algorithmOverrides.empty()) {
        static constexpr const char* kRule = "mismatch.algorithm_deadlock";
        Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
        f.confidence = 0.5;
        std::string settings;
        for (std::uint32_t i : ctx.facts.algorithmOverrides) {
            const EnvSetting& s = b.envSettings[i];
            const std::string item = std::string(b.text(s.name)) + "=" + std::string(b.text(s.value));
            if (settings.find(item) == std::string::npos)
                settings += (settings.empty() ? "" : ", ") + item;
            if (f.evidence.size() < 3)
                f.evidence.push_back(evidenceOf(b, s.evidence,
                    ctx.say(kRule, "setting_evidence",
                        { { "name", std::string(b.text(s.name)) }, { "value", std::string(b.text(s.value)) } })));
        }
        values["settings"] = settings;
        f.explanation = ctx.explain(kRule, values);
        out.propose(RootCauseClass::CollectiveMismatch, {}, 0.5, kRule, ctx.verdict(kRule, values));
        return;
    }
    static constexpr const char* kRule = "hang.all_entered";
    Finding& f = out.add(ctx, kRule, std::nullopt, values);
    f.confidence = 0.3;
    f.explanation = ctx.explain(kRule, values);
    for (std::int32_t r : pg->entered) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent) {
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
            break;
        }
    }
    Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.3, kRule, ctx.verdict(kRule, values));
    p.status = DiagnosisStatus::Inconclusive;
}

// A collective of one element moves no data: barrier() is a one-element all_reduce,
// all_gather_object and broadcast_object_list first exchange a one-element size tensor, and a
// scalar metric is reduced the same way. Such a call is never slow on the wire; it times out
// because some member has not called it yet — busy elsewhere (evaluation, a checkpoint, data
// on one rank) or gone down another code path. When everyone visibly timed out at such a
// call and the group has members no line shows inside it (or its size is unknown), that is
// the lead: a straggler, unnamed, said as inconclusive. A group whose every member is seen
// inside the call is left to hang.all_entered: nobody is missing there.
void ruleSyncPointTimeout(const RuleContext& ctx, RuleOutput& out)
{
    const PgFacts* pg = ctx.stuckPg();
    const Bundle& b = ctx.bundle;
    if (!pg || pg->timedOut.empty() || pg->stuckSeq < 0)
        return;
    std::uint64_t numelOut = 0;
    bool oneElement = false;
    for (std::int32_t r : pg->timedOut) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (!p || p->timeoutSeq != pg->stuckSeq)
            return;
        // A rank whose line gave only the SeqNum (a status line, "detected by watchdog at
        // work: N") says nothing of the call's size: it neither makes nor breaks the lead.
        if (p->timeoutOp == OpType::Unknown)
            continue;
        if (p->timeoutNumelIn != 1)
            return;
        oneElement = true;
        numelOut = std::max(numelOut, p->timeoutNumelOut);
    }
    if (!oneElement)
        return;
    std::size_t group = pg->membersKnown ? pg->members.size() : 0;
    // An all_gather's output holds one input per member: its size is the group's.
    if (ctx.stuckOp() == OpType::AllGather && numelOut > 1 && numelOut < (1u << 20))
        group = std::max<std::size_t>(group, numelOut);
    std::set<std::int32_t> inside(pg->timedOut.begin(), pg->timedOut.end());
    inside.insert(pg->entered.begin(), pg->entered.end());
    if (group > 0 && inside.size() >= group)
        return;
    static constexpr const char* kRule = "straggler.sync_point_timeout";
    const std::string op = stuckOpName(ctx);
    // Only values of its own: the class's advice names a rank and a sequence number, which
    // this rule does not know, so those steps stay out.
    Placeholders values { { "op_name", op },
        { "where", stuckWhere(ctx, *pg) },
        { "inside", ctx.ranksSubject(std::vector<std::int32_t>(inside.begin(), inside.end())) } };
    if (group > 0)
        values["group_seen"] = ctx.say(kRule, "group_seen",
            { { "group", std::to_string(group) }, { "seen", std::to_string(inside.size()) } });
    Finding& f = out.add(ctx, kRule, RootCauseClass::StragglerStall, values);
    f.confidence = 0.35;
    for (std::int32_t r : pg->timedOut) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent && f.evidence.size() < 2)
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
    }
    f.explanation = ctx.explain(kRule, values);
    Proposal& p = out.propose(RootCauseClass::StragglerStall, {}, 0.35, kRule, ctx.verdict(kRule, values));
    p.status = DiagnosisStatus::Inconclusive;
}

namespace {

// True when every rank seen was read from one and the same file, as in a combined launcher
// log or a paste: a rank of the world that is absent from it printed nothing there.
bool allRanksInOneSource(const Bundle& b)
{
    std::optional<SourceId> only;
    for (std::int32_t r : b.world.ranksSeen) {
        const RankInfo* info = b.rankInfo(r);
        if (!info)
            continue;
        for (SourceId s : info->sources) {
            if (only && *only != s)
                return false;
            only = s;
        }
    }
    return only.has_value();
}

} // namespace

void ruleSilentRank(const RuleContext& ctx, RuleOutput& out)
{
    const PgFacts* pg = ctx.stuckPg();
    const Bundle& b = ctx.bundle;
    if (!pg || pg->timedOut.empty() || !b.world.worldSize)
        return;
    // Silence names a rank when every rank that spoke waits in the stuck collective for
    // someone. A rank that got past it (timed out later on the same group) shows the
    // collective completed for some: the logs no longer say that all wait for the silent one.
    if (!pg->completed.empty())
        return;
    // Only a bundle that shows the rank should have logged makes its silence evidence: its
    // own file is present, or most of the world speaks in the one file its lines would have
    // gone to (a combined launcher log or paste). A pasted excerpt that stops is not, and
    // neither is a rank without a file when every rank has its own or a node's file: that
    // file was simply not collected.
    const bool mostOfWorld = b.world.ranksSeen.size() * 2 > static_cast<std::size_t>(*b.world.worldSize)
        && allRanksInOneSource(b);
    std::vector<std::int32_t> silent;
    for (std::int32_t r : pg->silent) {
        const RankFacts& rf = ctx.facts.ranks[r];
        if (rf.primaryFailure != kNoIndex || rf.anyTimeout)
            continue;
        // Its agent SIGTERMed it while it was still running: it was killed before its watchdog
        // could print (its peers timed out within seconds of each other), not silent on its own.
        // Unless it ignored that SIGTERM — then it was hung.
        if (rf.tornDown && !rf.survivedSigterm)
            continue;
        const bool noUsefulLines = !rf.hasLogs || rf.lastEvent == kNoIndex;
        if (noUsefulLines && (rf.hasSourceFile || mostOfWorld))
            silent.push_back(r);
    }
    // Ranks that logged nothing at all for the PG, although the world says they exist.
    if (silent.empty() || silent.size() * 2 >= pg->members.size())
        return;
    static constexpr const char* kRule = "silent.missing_rank";
    Placeholders values = ctx.placeholdersFor(silent.front());
    values["ranks"] = formatRanks(silent);
    values["subject"] = ctx.ranksSubject(silent);
    values["these"] = ctx.say(kRule, silent.size() == 1 ? "this_rank" : "these_ranks");
    values["timed_out"] = std::to_string(pg->timedOut.size());
    values["op_name"] = stuckOpName(ctx);
    values["stuck_seq"] = std::to_string(pg->stuckSeq);
    std::string files;
    for (std::int32_t r : silent) {
        const RankInfo* info = b.rankInfo(r);
        if (info && !info->sources.empty())
            files += (files.empty() ? "" : ", ") + b.sources[info->sources.front()].path;
    }
    values["log_note"] = files.empty() ? ctx.say(kRule, "no_log") : ctx.say(kRule, "silent_log", { { "files", files } });
    Finding& f = out.add(ctx, kRule, RootCauseClass::Unknown, values);
    f.ranks = silent;
    f.confidence = 0.55;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::Unknown, silent, 0.55, kRule, ctx.verdict(kRule, values));
}

// Stack dumps (py-spy, faulthandler) taken while nothing has timed out or failed yet: a user
// dumps a job that looks stuck, often long before the watchdog's 10 or 30 minutes are up.
// The dumps say where each rank stood. One rank outside any collective (loading data,
// writing a checkpoint, sleeping, running Python) while the others wait in one is the rank
// they wait for; otherwise the dumps are a lead, not a cause, and saying "no hang" would be
// a claim about a job the user saw stop. A dump inside communicator set-up is the init rule's
// (init.no_collective_completed).
void ruleStacksWithoutTimeout(const RuleContext& ctx, RuleOutput& out)
{
    const DiagnosisFacts& facts = ctx.facts;
    if (facts.anyTimeout || facts.anyFailure)
        return;
    std::vector<std::int32_t> busy;
    std::vector<std::int32_t> waiting;
    for (const RankFacts& rf : facts.ranks) {
        if (rf.stackDump == kNoIndex)
            continue;
        if (isStragglerActivity(rf.activity))
            busy.push_back(rf.rank);
        else if (rf.activity == StackActivity::InCollective)
            waiting.push_back(rf.rank);
    }
    // A dump no line ties to a rank (one process's py-spy output pasted alone) still shows
    // where that process stood: a lead too, never "no hang".
    const Bundle& b = ctx.bundle;
    std::vector<const StackDump*> unranked;
    for (const StackDump& s : b.stackDumps)
        if (b.rankOfIdentity(s.identity) < 0 && (isStragglerActivity(s.activity) || s.activity == StackActivity::InCollective))
            unranked.push_back(&s);
    if (busy.empty() && waiting.empty() && unranked.empty())
        return;
    std::string stacks;
    for (const RankFacts& rf : facts.ranks)
        if (rf.stackDump != kNoIndex && (isStragglerActivity(rf.activity) || rf.activity == StackActivity::InCollective))
            stacks += (stacks.empty() ? "" : "; ")
                + ctx.say("hang.stacks_without_timeout", "rank_stack",
                    { { "rank", std::to_string(rf.rank) }, { "activity", activityWords(ctx, rf.activity) } });
    if (busy.empty() && waiting.empty())
        stacks = ctx.say("hang.stacks_without_timeout", "process_stack",
            { { "activity", activityWords(ctx, unranked.front()->activity) } });
    auto addStackEvidence = [&](Finding& f) {
        for (const RankFacts& rf : facts.ranks)
            if (rf.stackDump != kNoIndex && f.evidence.size() < 4)
                f.evidence.push_back(evidenceOf(b, b.stackDumps[rf.stackDump].evidence,
                    ctx.say("hang.stacks_without_timeout", "rank_stack",
                        { { "rank", std::to_string(rf.rank) }, { "activity", activityWords(ctx, rf.activity) } })));
        for (const StackDump* s : unranked)
            if (f.evidence.empty())
                f.evidence.push_back(evidenceOf(b, s->evidence,
                    ctx.say("hang.stacks_without_timeout", "process_stack", { { "activity", activityWords(ctx, s->activity) } })));
    };
    if (busy.size() == 1 && !waiting.empty()) {
        static constexpr const char* kBusyRule = "straggler.stacks_busy_while_others_wait";
        Placeholders values = ctx.placeholdersFor(busy.front());
        values["who"] = ctx.ranksSubject(busy);
        values["activity"] = activityWords(ctx, facts.ranks[busy.front()].activity);
        values["waiting"] = ctx.ranksObject(waiting);
        Finding& f = out.add(ctx, kBusyRule, RootCauseClass::StragglerStall, values);
        f.ranks = busy;
        f.confidence = 0.6;
        addStackEvidence(f);
        f.explanation = ctx.explain(kBusyRule, values);
        Proposal& p = out.propose(RootCauseClass::StragglerStall, busy, 0.6, kBusyRule, ctx.verdict(kBusyRule, values));
        p.collateral = waiting;
        return;
    }
    static constexpr const char* kRule = "hang.stacks_without_timeout";
    Placeholders values { { "stacks", stacks } };
    values["lead"] = ctx.say(kRule, busy.empty() ? "lead_all_waiting" : "lead_busy",
        { { "ranks", busy.empty() ? std::string() : ctx.ranksObject(busy) } });
    Finding& f = out.add(ctx, kRule, RootCauseClass::Unknown, values);
    f.confidence = 0.25;
    addStackEvidence(f);
    f.explanation = ctx.explain(kRule, values);
    Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.25, kRule, ctx.verdict(kRule, values));
    p.status = DiagnosisStatus::Inconclusive;
}

} // namespace rankscope::model
