// Rules on where ranks stand on the stuck collective ([formats 1.5], [formats 11] F):
// the odd rank out that never entered, the whole-job freeze, everyone inside, and the
// rank that should have logged but did not.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
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

std::string_view activityWords(StackActivity a)
{
    switch (a) {
    case StackActivity::DataLoading:
        return "loading data";
    case StackActivity::CheckpointIo:
        return "writing a checkpoint";
    case StackActivity::Sleeping:
        return "sleeping or waiting for input";
    case StackActivity::Other:
        return "running Python outside any collective";
    case StackActivity::InCollective:
        return "inside a collective call";
    case StackActivity::InNcclInit:
        return "creating an NCCL communicator";
    default:
        return "in an unknown place";
    }
}

// Frames of a stack dump as evidence text.
std::string stackText(const Bundle& b, const StackDump& s)
{
    std::string out = "main thread:";
    for (std::size_t i = 0; i < s.mainThread.size() && i < 4; ++i) {
        const StackFrame& f = s.mainThread[i];
        out += (i ? " <- " : " ") + std::string(b.text(f.function));
        if (f.file != kNoStr)
            out += " (" + std::string(b.text(f.file)) + (f.line >= 0 ? ":" + std::to_string(f.line) : "") + ")";
    }
    return out;
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
    Placeholders values = ctx.placeholdersFor(first);
    values["ranks"] = formatRanks(odd);
    Finding& f = out.add(ctx, "straggler.never_entered", RootCauseClass::StragglerStall, values);
    f.ranks = odd;
    const std::string op = ctx.stuckOp() != OpType::Unknown ? std::string(torchName(ctx.stuckOp())) : "collective";
    const std::string where = op + " #" + std::to_string(pg->stuckSeq) + " of " + ctx.pgLabel(pg->pg);
    if (f.title.empty())
        f.title = (odd.size() == 1 ? ctx.rankLabel(first) + " never entered " : formatRanks(odd) + " never entered ") + where;

    double confidence = 0.6;
    std::string explanation;
    std::size_t disambiguated = 0;
    std::size_t insideNccl = 0;
    std::size_t alive = 0; // odd ranks that showed they were still running after the hang began
    const std::int64_t peerOpCount = stuckCollOpCount(ctx.facts, *pg);
    for (std::int32_t r : odd) {
        const RankFacts& rf = ctx.facts.ranks[r];
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->hasStatus) {
            ++alive;
            explanation += ctx.rankLabel(r) + " reports last enqueued " + std::to_string(p->lastEnqueued)
                + " and last completed " + std::to_string(p->lastCompleted) + " while the stuck collective is #"
                + std::to_string(pg->stuckSeq) + ". ";
            if (p->statusEvent != RankProgress::kNoEvent)
                f.evidence.push_back(evidenceOf(b, p->statusEvent));
        } else {
            explanation += ctx.rankLabel(r) + " kept logging but printed no watchdog timeout for "
                + ctx.pgLabel(pg->pg) + ". ";
            if (rf.lastEvent != kNoIndex)
                f.evidence.push_back(evidenceOf(b, rf.lastEvent));
        }
        if (rf.stackDump != kNoIndex) {
            const StackDump& s = b.stackDumps[rf.stackDump];
            f.evidence.push_back(evidenceOf(b, s.evidence, stackText(b, s)));
            explanation += "Its stack dump shows the main thread " + std::string(activityWords(rf.activity)) + ". ";
            if (isStragglerActivity(rf.activity)) {
                ++disambiguated;
                ++alive;
            } else if (rf.activity == StackActivity::InCollective)
                ++insideNccl;
        } else if (rf.lastActivityEvent != kNoIndex && isStragglerActivity(rf.lastActivity)) {
            f.evidence.push_back(evidenceOf(b, rf.lastActivityEvent));
            explanation += "Its last line says it was " + std::string(activityWords(rf.lastActivity)) + ": \""
                + std::string(b.text(b.events[rf.lastActivityEvent].text)).substr(0, 160) + "\". ";
            ++disambiguated;
            ++alive;
        } else if (rf.lastCollOpCount >= 0 && peerOpCount >= 0) {
            if (rf.lastCollOpCount < peerOpCount) {
                explanation += "Its last NCCL COLL line has opCount " + std::to_string(rf.lastCollOpCount)
                    + " against " + std::to_string(peerOpCount) + " on the waiting ranks: it never called NCCL for this collective. ";
                ++disambiguated;
            } else {
                explanation += "Its NCCL COLL lines reach the same opCount as its peers: it is inside the NCCL call. ";
                ++insideNccl;
            }
        } else if (rf.lastUtilization >= 0 && rf.lastUtilization < 5) {
            explanation += "Its GPU sits idle (" + std::to_string(static_cast<int>(rf.lastUtilization))
                + "% utilisation) while the waiting GPUs spin. ";
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
        Finding& s = out.add(ctx, "silent.stopped_logging", RootCauseClass::Unknown, values);
        s.ranks = odd;
        s.title = (odd.size() == 1 ? ctx.rankLabel(first) : "Ranks " + formatRanks(odd))
            + " stopped logging before " + where;
        s.confidence = 0.55;
        if (const RankFacts& rf = ctx.facts.ranks[first]; rf.lastEvent != kNoIndex)
            s.evidence.push_back(evidenceOf(b, rf.lastEvent));
        for (std::int32_t r : pg->timedOut) {
            const RankProgress* p = b.progressOf(pg->pg, r);
            if (p && p->timeoutEvent != RankProgress::kNoEvent) {
                s.evidence.push_back(evidenceOf(b, p->timeoutEvent));
                break;
            }
        }
        s.explanation = std::to_string(pg->timedOut.size()) + " rank(s) timed out in " + where + " while "
            + (odd.size() == 1 ? ctx.rankLabel(first) : "ranks " + formatRanks(odd))
            + " printed no timeout, no status and no error: its own output stops after its last normal step (only"
              " NCCL's or the launcher's teardown lines follow).";
        std::vector<std::int32_t> unresponsive;
        for (std::int32_t r : odd)
            if (ctx.facts.ranks[r].survivedSigterm)
                unresponsive.push_back(r);
        if (!unresponsive.empty()) {
            // torchrun SIGKILLs only a worker still alive 30 s after SIGTERM (elastic
            // multiprocessing api.py _close); ranks waiting in a collective die on SIGTERM.
            s.explanation += " When the job was torn down, " + formatRanks(unresponsive)
                + " did not react to the launcher's SIGTERM and had to be SIGKILLed 30 s later, while the ranks"
                  " waiting in the collective died at once: the process was alive but unresponsive — hung (in a CUDA"
                  " or driver call, or uninterruptible I/O) — before its watchdog could report. Its last lines do not"
                  " say where.";
            for (const auto& e : launcherLinesOf(ctx, unresponsive))
                if (s.evidence.size() < 6)
                    s.evidence.push_back(e);
        } else {
            s.explanation += " It either died without a word (SIGKILL, OOM killer, node loss) or hung before its"
                             " watchdog could report; the logs cannot tell which.";
        }
        // Several ranks equally silent: nothing tells which one stopped first, so none is named.
        if (odd.size() > 1) {
            s.confidence = 0.35;
            s.explanation += " Several ranks look the same here, so none of them is named as the cause.";
            return;
        }
        const bool hung = ctx.facts.ranks[first].survivedSigterm;
        if (hung)
            s.confidence = 0.65;
        out.propose(RootCauseClass::Unknown, odd, s.confidence, "silent.stopped_logging",
            ctx.rankLabel(first) + " went silent while " + std::to_string(pg->timedOut.size())
                + " rank(s) timed out waiting in " + where
                + (hung ? "; it ignored the launcher's SIGTERM, so it was hung, not dead, but its logs do not say where."
                        : "; whether it died or hung is not in the logs."));
        return;
    }
    const std::size_t waiting = pg->entered.size() + pg->completed.size();
    explanation += std::to_string(pg->timedOut.size()) + " other rank(s) timed out inside " + where
        + " waiting for " + (odd.size() == 1 ? "it" : "them") + " (" + std::to_string(waiting)
        + " entered it). The watchdog fires on the healthy side; the rank that is missing is the cause.";
    if (disambiguated == odd.size()) {
        confidence = 0.85;
    } else if (insideNccl > 0) {
        confidence = 0.45;
        explanation += " Caveat: PyTorch bumps \"last enqueued\" only after the NCCL call returns, and the evidence"
                       " shows the rank inside NCCL: it may be stuck in the collective (GPU, link or NCCL) rather than late.";
    } else {
        confidence = 0.65;
        explanation += " Caveat: PyTorch bumps \"last enqueued\" only after the NCCL call returns, so a rank stuck inside"
                       " the call looks the same; no stack dump, Flight Recorder or COLL line settles it here.";
    }
    if (pg->neverEntered.empty())
        confidence -= 0.1; // only the absence of a timeout line (PyTorch ≤2.1 prints no status)
    f.confidence = confidence;
    f.explanation = explanation;
    for (std::int32_t r : pg->timedOut) {
        if (f.evidence.size() >= 6)
            break;
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent) {
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
            break;
        }
    }
    std::string summary = (odd.size() == 1 ? ctx.rankLabel(first) : "Ranks " + formatRanks(odd)) + " never entered "
        + where + "; " + std::to_string(pg->timedOut.size()) + " rank(s) timed out waiting";
    const RankFacts& firstFacts = ctx.facts.ranks[first];
    const StackActivity shown = firstFacts.activity != StackActivity::Unknown ? firstFacts.activity
        : (firstFacts.lastActivityEvent != kNoIndex ? firstFacts.lastActivity : StackActivity::Unknown);
    if (disambiguated && isStragglerActivity(shown))
        summary += " while it was " + std::string(activityWords(shown));
    summary += ".";
    if (!elsewhereEvidence.empty() && elsewhereEvidence.size() == odd.size()) {
        const std::vector<EvidenceLine> stuckEvidence = f.evidence;
        out.findings.pop_back();
        Finding& m = out.add(ctx, "mismatch.waits_elsewhere", RootCauseClass::CollectiveMismatch, values);
        m.ranks = odd;
        m.title = (odd.size() == 1 ? ctx.rankLabel(first) : "Ranks " + formatRanks(odd))
            + (odd.size() == 1 ? " waits" : " wait") + " in another collective than " + where;
        m.evidence = elsewhereEvidence;
        for (const auto& e : stuckEvidence)
            if (m.evidence.size() < 6)
                m.evidence.push_back(e);
        m.confidence = 0.8;
        m.explanation = std::to_string(pg->timedOut.size()) + " rank(s) timed out in " + where + " while "
            + (odd.size() == 1 ? ctx.rankLabel(first) : "ranks " + formatRanks(odd))
            + " timed out in a different collective (another process group or a call the others do not make). Each"
              " side waits for the other: the ranks issued collectives in a different order, for instance a"
              " rank-conditional collective (logging, metrics, evaluation on some ranks only).";
        out.propose(RootCauseClass::CollectiveMismatch, odd, 0.8, "mismatch.waits_elsewhere",
            (odd.size() == 1 ? ctx.rankLabel(first) + " waits" : "Ranks " + formatRanks(odd) + " wait") + " in another collective while "
                + std::to_string(pg->timedOut.size()) + " rank(s) wait in " + where + ": a collective-order mismatch.");
        return;
    }
    out.propose(RootCauseClass::StragglerStall, odd, confidence, "straggler.never_entered", summary);
}

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
    Placeholders values = ctx.placeholdersFor(blocked.front());
    values["ranks"] = formatRanks(blocked);
    Finding& f = out.add(ctx, "hang.watchdog_blocked", RootCauseClass::Unknown, values);
    f.ranks = blocked;
    if (f.title.empty())
        f.title = "The NCCL watchdog thread itself got stuck";
    f.confidence = 0.35;
    const std::string who = blocked.size() == 1 ? ctx.rankLabel(blocked.front()) : "ranks " + formatRanks(blocked);
    f.explanation = "The heartbeat monitor fired on " + who
        + " and no collective timed out anywhere. The watchdog thread counts a heartbeat every 100 ms whether or not"
          " a collective is in flight, so a main thread waiting on a filesystem, a lock or a slow peer does not"
          " stop it: the watchdog was blocked inside a CUDA or NCCL call (an event query, an event destroy, a"
          " communicator abort) on a GPU or driver that stopped answering, or waited for the GIL held by a thread"
          " inside such a call. The logs do not say which; the native stack of the process and the node's kernel"
          " log do.";
    for (std::size_t i = 0; i < blocked.size() && i < 2; ++i)
        f.evidence.push_back(evidenceOf(b, ctx.facts.ranks[blocked[i]].heartbeatStuck));
    Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.35, "hang.watchdog_blocked",
        "The NCCL watchdog thread got stuck on " + who
            + " with no collective timed out: a CUDA or NCCL call (or the GIL) hung in "
            + (blocked.size() == 1 ? "that process" : "those processes") + "; the logs do not say why.");
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
    const Bundle& b = ctx.bundle;
    Placeholders values = ctx.placeholdersFor(pg->entered.front());
    const std::string op = ctx.stuckOp() != OpType::Unknown ? std::string(torchName(ctx.stuckOp())) : "collective";
    const std::string where = op + " #" + std::to_string(pg->stuckSeq) + " of " + ctx.pgLabel(pg->pg);
    if (!ctx.facts.algorithmOverrides.empty()) {
        Finding& f = out.add(ctx, "mismatch.algorithm_deadlock", RootCauseClass::CollectiveMismatch, values);
        if (f.title.empty())
            f.title = "Every rank is inside " + where + " with an NCCL algorithm/protocol override";
        f.confidence = 0.5;
        std::string settings;
        for (std::uint32_t i : ctx.facts.algorithmOverrides) {
            const EnvSetting& s = b.envSettings[i];
            const std::string item = std::string(b.text(s.name)) + "=" + std::string(b.text(s.value));
            if (settings.find(item) == std::string::npos)
                settings += (settings.empty() ? "" : ", ") + item;
            if (f.evidence.size() < 3)
                f.evidence.push_back(evidenceOf(b, s.evidence, std::string(b.text(s.name)) + " set by environment to "
                        + std::string(b.text(s.value))));
        }
        f.explanation = "All " + std::to_string(pg->entered.size()) + " ranks entered " + where
            + " and none completed it; no rank is missing, no transport error, no Xid. The job forces " + settings
            + ": a hang inside NCCL with a forced algorithm or protocol is the known signature of an algorithm/protocol"
              " deadlock (no single rank is to blame). Rerun without the override to confirm.";
        out.propose(RootCauseClass::CollectiveMismatch, {}, 0.5, "mismatch.algorithm_deadlock",
            "Every rank entered " + where + " and none finished it, with " + settings
                + " forced: an NCCL algorithm/protocol deadlock, not one bad rank.");
        return;
    }
    Finding& f = out.add(ctx, "hang.all_entered", std::nullopt, values);
    if (f.title.empty())
        f.title = "Every rank is inside " + where + "; the logs do not say why";
    f.confidence = 0.3;
    f.explanation = "All " + std::to_string(pg->entered.size()) + " ranks entered " + where
        + " and none completed it, so no rank is missing at the PyTorch level: the hang is inside NCCL, the transport or a"
          " GPU. These logs carry no NCCL warning, Xid or stack dump that points at one rank or link.";
    for (std::int32_t r : pg->entered) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent) {
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
            break;
        }
    }
    Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.3, "hang.all_entered",
        "Every rank entered " + where + " and timed out; the logs do not show which rank, GPU or link is stuck.");
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
    for (std::int32_t r : pg->timedOut) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (!p || p->timeoutSeq != pg->stuckSeq || p->timeoutNumelIn != 1)
            return;
        numelOut = std::max(numelOut, p->timeoutNumelOut);
    }
    std::size_t group = pg->membersKnown ? pg->members.size() : 0;
    // An all_gather's output holds one input per member: its size is the group's.
    if (ctx.stuckOp() == OpType::AllGather && numelOut > 1 && numelOut < (1u << 20))
        group = std::max<std::size_t>(group, numelOut);
    std::set<std::int32_t> inside(pg->timedOut.begin(), pg->timedOut.end());
    inside.insert(pg->entered.begin(), pg->entered.end());
    if (group > 0 && inside.size() >= group)
        return;
    const std::string op = ctx.stuckOp() != OpType::Unknown ? std::string(torchName(ctx.stuckOp())) : "collective";
    const std::string where = op + " #" + std::to_string(pg->stuckSeq) + " of " + ctx.pgLabel(pg->pg);
    Finding& f = out.add(ctx, "straggler.sync_point_timeout", RootCauseClass::StragglerStall, {});
    if (f.title.empty())
        f.title = "Ranks timed out at a one-element " + op + ": a rank had not reached it";
    f.confidence = 0.35;
    for (std::int32_t r : pg->timedOut) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        if (p && p->timeoutEvent != RankProgress::kNoEvent && f.evidence.size() < 2)
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
    }
    f.explanation = formatRanks(std::vector<std::int32_t>(inside.begin(), inside.end())) + " timed out in " + where
        + ", a call of one element (NumelIn=1): a barrier, the size exchange of all_gather_object or"
          " broadcast_object_list, or a scalar reduction. It moves no data, so it cannot be slow on the network; it"
          " waits for a member that had not called it"
        + (group > 0 ? " (the group has " + std::to_string(group) + " members, " + std::to_string(inside.size())
                    + " seen inside the call)"
                     : "")
        + ". That rank was busy elsewhere (evaluation, a checkpoint, data loading, work only one rank does) or took"
          " another code path. These lines do not show which rank it was.";
    Proposal& p = out.propose(RootCauseClass::StragglerStall, {}, 0.35, "straggler.sync_point_timeout",
        "Ranks timed out in " + where
            + ", a one-element call that moves no data: a rank had not reached it (busy elsewhere or on another code"
              " path). Which rank is not in these lines.");
    p.status = DiagnosisStatus::Inconclusive;
}

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
    // own file is present, or most of the world is here. A pasted excerpt that stops is not.
    const bool mostOfWorld = b.world.ranksSeen.size() * 2 > static_cast<std::size_t>(*b.world.worldSize);
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
    Placeholders values = ctx.placeholdersFor(silent.front());
    values["ranks"] = formatRanks(silent);
    Finding& f = out.add(ctx, "silent.missing_rank", RootCauseClass::Unknown, values);
    f.ranks = silent;
    const std::string op = ctx.stuckOp() != OpType::Unknown ? std::string(torchName(ctx.stuckOp())) : "collective";
    if (f.title.empty())
        f.title = (silent.size() == 1 ? ctx.rankLabel(silent.front()) : "Ranks " + formatRanks(silent))
            + " logged nothing while the others timed out";
    f.confidence = 0.55;
    std::string files;
    for (std::int32_t r : silent) {
        const RankInfo* info = b.rankInfo(r);
        if (info && !info->sources.empty())
            files += (files.empty() ? "" : ", ") + b.sources[info->sources.front()].path;
    }
    f.explanation = std::to_string(pg->timedOut.size()) + " rank(s) timed out in " + op + " #"
        + std::to_string(pg->stuckSeq) + " while " + (silent.size() == 1 ? "this rank" : "these ranks")
        + " wrote no timeout, no error and no status"
        + (files.empty() ? std::string(" (no log at all in a bundle that holds most ranks)") : " (its log " + files + " is present but silent)")
        + ". A process that died without output (SIGKILL, OOM killer, node loss) or hung before logging looks like"
          " this; the logs cannot tell which.";
    out.propose(RootCauseClass::Unknown, silent, 0.55, "silent.missing_rank",
        (silent.size() == 1 ? ctx.rankLabel(silent.front()) : "Ranks " + formatRanks(silent))
            + " went silent while " + std::to_string(pg->timedOut.size())
            + " rank(s) timed out waiting in " + op + " #" + std::to_string(pg->stuckSeq)
            + "; whether it died or hung is not in the logs.");
}

} // namespace rankscope::model
