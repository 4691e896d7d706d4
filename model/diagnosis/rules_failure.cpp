// Rules for ranks that failed on their own ([formats 9], [formats 11] D, E, G): a crash earlier
// than everyone's timeouts, memory or /dev/shm exhaustion while creating a communicator,
// and hangs before the first collective (init / bootstrap / rendezvous).

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include "model/rankresolver.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

std::string failureText(const Bundle& b, std::uint32_t index)
{
    const Event& e = b.events[index];
    std::string text(b.text(e.text));
    if (e.kind == EventKind::PythonException && e.detail != kNoStr)
        text = std::string(b.text(e.detail)) + ": " + text;
    if (e.kind == EventKind::LauncherWorkerFailed || e.kind == EventKind::LauncherFailureRecord
        || e.kind == EventKind::LauncherExit)
        text = "exit code " + std::to_string(e.code) + (text.empty() ? "" : " (" + text + ")");
    if (text.size() > 300)
        text = text.substr(0, 300) + "…";
    return text;
}

void addFailureEvidence(const Bundle& b, const RankFacts& rf, Finding& f)
{
    f.evidence.push_back(evidenceOf(b, rf.primaryFailure));
    // The traceback's exception line and the launcher's record, when they are other lines.
    for (const auto& t : b.tracebacks)
        if (b.rankOfIdentity(t.identity) == rf.rank && !(t.exceptionLine == b.events[rf.primaryFailure].evidence)) {
            if (!t.frames.empty()) {
                const StackFrame& last = t.frames.back();
                f.evidence.push_back(evidenceOf(b, t.evidence, "Traceback, innermost frame: " + std::string(b.text(last.function))
                        + " (" + std::string(b.text(last.file)) + ":" + std::to_string(last.line) + ")"));
            }
            break;
        }
    if (rf.launcherEvent != kNoIndex && rf.launcherEvent != rf.primaryFailure)
        f.evidence.push_back(evidenceOf(b, rf.launcherEvent));
}

std::size_t countWaiting(const DiagnosisFacts& facts, const std::vector<std::int32_t>& except)
{
    std::size_t n = 0;
    for (const auto& rf : facts.ranks)
        if (std::find(except.begin(), except.end(), rf.rank) == except.end()
            && (rf.anyTimeout || rf.tornDown || (rf.initStarted && !rf.initCompleted) || !rf.storeErrors.empty()))
            ++n;
    return n;
}

} // namespace

void ruleEarlyCrash(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    std::vector<const RankFacts*> failed;
    for (const auto& rf : facts.ranks)
        if (rf.primaryFailure != kNoIndex && !rf.ncclAllocationFailure && !(rf.failureIsResource && rf.failureDuringInit))
            failed.push_back(&rf);
    if (failed.empty())
        return;
    // A failure that precedes the other ranks' timeouts, or one of a rank that never timed
    // out itself (it was gone before its watchdog could fire).
    std::vector<const RankFacts*> early;
    for (const auto* rf : failed) {
        bool before = !rf->anyTimeout;
        // A timeout line without a clock of its own (PyTorch ≤2.1) only carries the time of an
        // earlier line of its stream, a lower bound: a failure that looks later proves
        // nothing, and a rank that never timed out itself was gone before its watchdog fired.
        if (comparableTimes(rf->primaryFailureTime, facts.firstTimeout))
            before = earlierThan(rf->primaryFailureTime, facts.firstTimeout)
                || (!rf->anyTimeout && wholeSeconds(rf->primaryFailureTime) <= wholeSeconds(facts.firstTimeout))
                || (!rf->anyTimeout && facts.firstTimeout.inferred);
        if (before)
            early.push_back(rf);
    }
    if (early.empty())
        return;
    std::stable_sort(early.begin(), early.end(), [](const RankFacts* x, const RankFacts* y) {
        return earlierThan(x->primaryFailureTime, y->primaryFailureTime);
    });
    std::vector<std::int32_t> initiating { early.front()->rank };
    for (std::size_t i = 1; i < early.size(); ++i) {
        const bool sameSecond = comparableTimes(early[i]->primaryFailureTime, early.front()->primaryFailureTime)
            && wholeSeconds(early[i]->primaryFailureTime) == wholeSeconds(early.front()->primaryFailureTime);
        const bool unknownOrder = !comparableTimes(early[i]->primaryFailureTime, early.front()->primaryFailureTime);
        if (sameSecond || unknownOrder)
            initiating.push_back(early[i]->rank);
    }
    std::sort(initiating.begin(), initiating.end());
    const std::size_t waiting = countWaiting(facts, initiating) + facts.unmappedTeardowns;
    const RankFacts& rf = facts.ranks[initiating.front()];
    Placeholders values = ctx.placeholdersFor(rf.rank);
    values["ranks"] = formatRanks(initiating);
    const bool initPhase = rf.failureDuringInit && !facts.anyCollectiveCompleted;
    const RootCauseClass cls = initPhase ? RootCauseClass::InitBootstrap : RootCauseClass::RankCrashed;
    const Precedence precedence
        = initPhase ? Precedence("init.rank_failed_at_startup") : Precedence("crash.first_failure");
    Finding& f = out.add(ctx, initPhase ? "init.rank_failed_at_startup" : "crash.first_failure", cls, values);
    f.ranks = initiating;
    const std::string what = failureText(b, rf.primaryFailure);
    if (f.title.empty())
        f.title = ctx.rankLabel(rf.rank) + " failed first: " + what.substr(0, 120);
    addFailureEvidence(b, rf, f);
    std::string explanation = ctx.rankLabel(rf.rank) + " failed on its own";
    if (rf.primaryFailureTime.valid())
        explanation += " at " + formatTime(rf.primaryFailureTime) + (rf.primaryFailureTime.inferred ? " (time of its last timestamped line)" : "");
    explanation += ": " + what + ". ";
    if (facts.firstTimeout.valid() && !facts.firstTimeout.inferred && comparableTimes(rf.primaryFailureTime, facts.firstTimeout)
        && !earlierThan(facts.firstTimeout, rf.primaryFailureTime))
        explanation += "The first watchdog timeout elsewhere came " + std::to_string(wholeSeconds(facts.firstTimeout) - wholeSeconds(rf.primaryFailureTime))
            + " s later. ";
    if (initiating.size() > 1)
        explanation += "Ranks " + formatRanks(initiating) + " failed at the same time; the logs cannot order them. ";
    if (initPhase)
        explanation += "No collective had completed yet, so the other ranks are stuck setting up communication with it. ";
    explanation += std::to_string(waiting)
        + " other rank(s) only timed out or were torn down by their launcher afterwards: they are collateral.";
    f.explanation = explanation;
    // Many ranks failing in the same second is a job-wide problem (environment, a shared
    // input, the network), not one rank's: no rank is named, whoever else waited or not.
    const std::size_t jobSize = std::max<std::size_t>(b.world.ranksSeen.size(),
        b.world.worldSize ? static_cast<std::size_t>(*b.world.worldSize) : 0);
    if (initiating.size() > 3 && initiating.size() * 2 >= jobSize) {
        f.confidence = 0.4;
        return;
    }
    if (waiting == 0) {
        // Nobody logged a timeout or a teardown. The job still failed around this rank when
        // the others stopped without any failure of their own (srun --kill-on-bad-exit and
        // MPI kill the step silently); if every rank failed, there was no hang at all.
        std::size_t survivors = 0;
        std::size_t othersKnown = 0; // ranks the bundle shows exist besides the failed ones
        for (const auto& other : facts.ranks) {
            if (other.hasLogs && other.primaryFailure == kNoIndex)
                ++survivors;
            if (other.primaryFailure == kNoIndex)
                ++othersKnown;
        }
        if (survivors == 0 && othersKnown > 0) {
            // Only the failing rank's lines are here (a paste), but the job had other ranks:
            // they can only have waited for it.
            f.confidence = 0.6;
            // Without a stated world size the count is only what the highest rank named implies.
            f.explanation += " Only this rank's lines are in the bundle; the job had "
                + std::string(ctx.bundle.world.worldSize ? "" : "at least ") + std::to_string(othersKnown)
                + " other rank(s), which could only wait for it.";
            out.propose(cls, initiating, 0.6, precedence,
                (initiating.size() == 1 ? ctx.rankLabel(rf.rank) : "Ranks " + formatRanks(initiating)) + " failed ("
                    + what.substr(0, 160) + "); the other ranks of the job could only wait for it.");
            return;
        }
        if (survivors == 0 && failed.size() == 1 && facts.ranks.size() == 1) {
            // The bundle knows of no other rank at all (one worker's launcher line pasted
            // alone): nothing contradicts the failure as the job's cause.
            f.confidence = 0.5;
            f.explanation += " No other rank's lines are in the bundle.";
            out.propose(cls, initiating, 0.5, precedence,
                ctx.rankLabel(rf.rank) + " failed (" + what.substr(0, 160)
                    + "); no other rank's lines are in the bundle to say more.");
            return;
        }
        if (survivors == 0) {
            f.confidence = 0.5;
            f.explanation += " Every other rank failed on its own too, so this run failed rather than hung.";
            return;
        }
        f.confidence = 0.7;
        f.explanation += " The other " + std::to_string(survivors)
            + " rank(s) stopped without any error of their own: the launcher killed the job after this failure.";
        out.propose(cls, initiating, 0.7, precedence,
            (initiating.size() == 1 ? ctx.rankLabel(rf.rank) : "Ranks " + formatRanks(initiating)) + " failed ("
                + what.substr(0, 160) + ") and the launcher took the other " + std::to_string(survivors)
                + " rank(s) down with it.");
        return;
    }
    f.confidence = initiating.size() == 1 ? 0.85 : 0.7;
    out.propose(cls, initiating, f.confidence, precedence,
        (initiating.size() == 1 ? ctx.rankLabel(rf.rank) : "Ranks " + formatRanks(initiating)) + " failed first ("
            + what.substr(0, 160) + ")" + (initPhase ? " before the first collective" : "") + "; "
            + std::to_string(waiting) + " other rank(s) only waited or were torn down.");
}

void ruleEarlyExit(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const PgFacts* pg = ctx.stuckPg();
    if (!pg || pg->timedOut.empty())
        return;
    std::vector<std::int32_t> exited;
    for (std::int32_t r : oddRanksOf(ctx.facts, *pg)) {
        const RankFacts& rf = ctx.facts.ranks[r];
        if (rf.commTeardown != kNoIndex && !rf.anyTimeout && rf.primaryFailure == kNoIndex)
            exited.push_back(r);
    }
    if (exited.empty() || exited.size() * 2 >= pg->members.size())
        return;
    const RankFacts& rf = ctx.facts.ranks[exited.front()];
    Placeholders values = ctx.placeholdersFor(rf.rank);
    values["ranks"] = formatRanks(exited);
    Finding& f = out.add(ctx, "crash.early_exit", RootCauseClass::RankCrashed, values);
    f.ranks = exited;
    if (f.title.empty())
        f.title = (exited.size() == 1 ? ctx.rankLabel(rf.rank) : "Ranks " + formatRanks(exited))
            + " left the job while the others kept training";
    f.evidence.push_back(evidenceOf(b, rf.commTeardown));
    if (rf.lastEvent != kNoIndex && rf.lastEvent != rf.commTeardown)
        f.evidence.push_back(evidenceOf(b, rf.lastEvent));
    f.confidence = 0.8;
    f.explanation = ctx.rankLabel(rf.rank) + " tore down its NCCL communicator itself (\""
        + std::string(b.text(b.events[rf.commTeardown].text)).substr(0, 160)
        + "\") without any error or timeout: the process left the training loop on its own (early stopping, a"
          " return or exit on one rank) while " + std::to_string(pg->timedOut.size())
        + " rank(s) waited for it in the next collective.";
    out.propose(RootCauseClass::RankCrashed, exited, 0.8, "crash.early_exit",
        (exited.size() == 1 ? ctx.rankLabel(rf.rank) : "Ranks " + formatRanks(exited))
            + " exited early without an error (communicator destroyed) while " + std::to_string(pg->timedOut.size())
            + " rank(s) timed out waiting for it in the next collective.");
}

namespace {

// SIGBUS ("Bus error", signal 7, exit code -7, UCX's "Caught signal 7"): a page of a mapped
// file had nothing behind it. In a training job the file is a tmpfs segment in /dev/shm —
// NCCL's SHM transport and DataLoader workers both map theirs there — and a tmpfs that is full
// (docker's default is 64 MiB) delivers SIGBUS on the first touch past its end instead of an
// error at allocation. The node's limit, not the rank's fault; which rank hit it first is
// chance, so none is named.
bool busErrorOnSharedMemory(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::uint32_t> busErrors;
    for (std::uint32_t i = 0; i < b.events.size() && busErrors.size() < 4; ++i) {
        const Event& e = b.events[i];
        if ((e.kind == EventKind::FatalSignal && e.code == 7)
            || (e.kind == EventKind::LauncherWorkerFailed && e.code == -7))
            busErrors.push_back(i);
    }
    if (busErrors.empty())
        return false;
    Finding& f = out.add(ctx, "resource.shm_sigbus", RootCauseClass::ResourceExhaustion, {});
    if (f.title.empty())
        f.title = "A process died of SIGBUS: shared memory (/dev/shm) ran out";
    for (std::uint32_t i : busErrors)
        f.evidence.push_back(evidenceOf(b, i));
    f.confidence = 0.6;
    f.explanation = "A process was killed by SIGBUS (\"" + std::string(b.text(b.events[busErrors.front()].text)).substr(0, 120)
        + "\"). SIGBUS means a page of a memory-mapped file had nothing behind it; in a training job that file is a"
          " shared-memory segment in /dev/shm (NCCL's SHM transport, DataLoader workers), and a full tmpfs answers"
          " with SIGBUS on first touch rather than an error when the segment is created. /dev/shm is per node, so"
          " no rank is at fault.";
    out.propose(RootCauseClass::ResourceExhaustion, {}, 0.6, "resource.shm_sigbus",
        "A process died of SIGBUS: a shared-memory segment in /dev/shm had no memory behind it (full or too small,"
        " docker's default is 64 MiB). The node's limit, not one rank's fault.");
    return true;
}

} // namespace

void ruleResourceExhaustion(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    // /dev/shm exhausted on a whole node names no rank ([formats 11] D): two ranks of one host failing
    // on it, or "No space left on device" (the file system itself is full), is the node.
    std::map<std::string, std::vector<std::uint32_t>> shmByHost;
    for (std::uint32_t i : facts.shmEvents) {
        const Event& e = b.events[i];
        std::string host;
        if (e.rank >= 0 && b.ranks[e.rank].host != kNoStr)
            host = std::string(b.text(b.ranks[e.rank].host));
        else if (b.identities[e.identity].host != kNoStr)
            host = shortHostName(b.text(b.identities[e.identity].host));
        shmByHost[host].push_back(i);
    }
    for (const auto& [host, events] : shmByHost) {
        std::set<std::int32_t> ranks;
        std::set<std::int32_t> pids;
        bool full = false;
        std::size_t denied = 0;
        for (std::uint32_t i : events) {
            const Event& e = b.events[i];
            if (e.rank >= 0)
                ranks.insert(e.rank);
            pids.insert(b.identities[e.identity].pid);
            full = full || b.text(e.text).find("No space left") != std::string_view::npos;
            // strerror(EACCES) / strerror(EPERM) after shm_open or open: the process may not
            // create files in /dev/shm at all. A permission, not a lack of space.
            if (b.text(e.text).find("Permission denied") != std::string_view::npos
                || b.text(e.text).find("Operation not permitted") != std::string_view::npos)
                ++denied;
        }
        if (denied > 0 && !full) {
            const std::string hostName = host.empty() ? std::string("one host") : host;
            Placeholders values = ranks.empty() ? Placeholders {} : ctx.placeholdersFor(*ranks.begin());
            if (!host.empty())
                values["host"] = host;
            Finding& f = out.add(ctx, "configuration.shm_permission", RootCauseClass::Configuration, values);
            f.ranks.assign(ranks.begin(), ranks.end());
            if (f.title.empty())
                f.title = "/dev/shm on " + hostName + " refuses the job's shared-memory segments";
            f.evidence.push_back(evidenceOf(b, events.front()));
            f.confidence = 0.75;
            f.explanation = "NCCL could not create its shared-memory segments on " + hostName
                + ": the call failed with \"Permission denied\", so the job's user may not create files in /dev/shm"
                  " (its mode, an owner other than the job's, a read-only or restricted mount in the container). A"
                  " setting of the node, not a lack of space and not one rank's fault.";
            out.propose(RootCauseClass::Configuration, {}, 0.75, "configuration.shm_permission",
                "/dev/shm on " + hostName + " does not let the job create NCCL's shared-memory segments (Permission"
                                            " denied): a node setting.");
            return;
        }
        // /dev/shm is one tmpfs per node: failing to extend it is the node's limit, never the
        // rank's own fault, however many ranks got to report it before the job was torn down.
        const std::string hostName = host.empty() ? std::string("one host") : host;
        Placeholders values = ranks.empty() ? Placeholders {} : ctx.placeholdersFor(*ranks.begin());
        if (!host.empty())
            values["host"] = host;
        Finding& f = out.add(ctx, "resource.shm_node", RootCauseClass::ResourceExhaustion, values);
        f.ranks.assign(ranks.begin(), ranks.end());
        if (f.title.empty())
            f.title = "/dev/shm is exhausted on " + hostName;
        f.evidence.push_back(evidenceOf(b, events.front()));
        f.confidence = 0.75;
        f.explanation = std::string(full ? "/dev/shm is full (\"No space left on device\")" : "NCCL could not extend its /dev/shm segments")
            + " on " + hostName
            + ": NCCL could not create its shared-memory segments there. The node's /dev/shm is too small (containers"
              " default to 64 MiB) or full of stale segments; no single rank is at fault.";
        Proposal& p = out.propose(RootCauseClass::ResourceExhaustion, {}, 0.75, "resource.shm_node",
            "/dev/shm is exhausted on " + hostName + ": NCCL could not create its shared-memory buffers, and the job"
                                                   " hung setting up communication.");
        std::vector<std::int32_t> waited;
        for (std::int32_t r : b.world.ranksSeen)
            if (host.empty() || b.text(b.ranks[r].host) != host)
                waited.push_back(r);
        p.collateral = std::move(waited);
        return;
    }
    if (busErrorOnSharedMemory(ctx, out))
        return;
    std::vector<const RankFacts*> exhausted;
    for (const auto& rf : facts.ranks)
        if (rf.primaryFailure != kNoIndex && (rf.ncclAllocationFailure || (rf.failureIsResource && rf.failureDuringInit)))
            exhausted.push_back(&rf);
    if (exhausted.empty())
        return;
    std::stable_sort(exhausted.begin(), exhausted.end(), [](const RankFacts* x, const RankFacts* y) {
        return earlierThan(x->primaryFailureTime, y->primaryFailureTime);
    });
    // Half the ranks or more out of memory is a job-wide sizing problem, said by the crash
    // finding; one rank alone is that rank's, even in a bundle of two.
    if (exhausted.size() > 1 && exhausted.size() * 2 >= b.world.ranksSeen.size())
        return;
    const RankFacts& rf = *exhausted.front();
    Placeholders values = ctx.placeholdersFor(rf.rank);
    Finding& f = out.add(ctx, "resource.init_allocation", RootCauseClass::ResourceExhaustion, values);
    f.ranks = { rf.rank };
    const std::uint32_t evidence = rf.resourceEvents.empty() ? rf.primaryFailure : rf.resourceEvents.front();
    if (f.title.empty())
        f.title = ctx.rankLabel(rf.rank) + " ran out of GPU memory inside NCCL's setup";
    f.evidence.push_back(evidenceOf(b, evidence));
    if (evidence != rf.primaryFailure)
        f.evidence.push_back(evidenceOf(b, rf.primaryFailure));
    f.confidence = 0.85;
    f.explanation = ctx.rankLabel(rf.rank) + " could not allocate memory for NCCL (" + failureText(b, evidence)
        + ") before any collective completed on it. NCCL needs GPU memory for its buffers when a communicator is"
          " created; with the GPU full, that rank fails and its peers wait forever in the communicator setup or the"
          " first collective.";
    const std::size_t waiting = countWaiting(facts, { rf.rank });
    out.propose(RootCauseClass::ResourceExhaustion, { rf.rank }, 0.85, "resource.init_allocation",
        ctx.rankLabel(rf.rank) + " ran out of GPU memory inside NCCL (" + failureText(b, evidence).substr(0, 120) + ")"
            + (waiting > 0 ? "; " + std::to_string(waiting) + " rank(s) waited for it."
                           : ": its peers cannot finish the communicator setup or the first collective without it."));
}

// NCCL's proxy service thread (src/proxy.cc) logs "[Service thread] Connection closed by
// localRank L" when the process of local rank L closes its proxy connection: it exited. At the
// end of a run every process leaves and each survivor sees several peers go. When every
// process on a host that logs such lines names one and the same local rank, that process left
// while all the others were still running: it died first. Named as a rank only where the
// bundle ties that host's local rank to one; otherwise the class and the local rank are said.
void ruleLocalPeerClosed(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    struct HostView {
        std::set<std::int32_t> pids;
        std::set<std::int32_t> closedBy;
        std::vector<std::uint32_t> events;
    };
    std::map<StrId, HostView> hosts;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::NcclLocalRankClosed || e.peerRank < 0)
            continue;
        const RawIdentity& id = b.identities[e.identity];
        if (id.host == kNoStr || id.pid < 0)
            continue;
        HostView& h = hosts[id.host];
        h.pids.insert(id.pid);
        h.closedBy.insert(e.peerRank);
        if (h.events.size() < 3)
            h.events.push_back(i);
    }
    if (hosts.size() != 1)
        return;
    const auto& [host, view] = *hosts.begin();
    if (view.pids.size() < 2 || view.closedBy.size() != 1)
        return;
    const std::int32_t local = *view.closedBy.begin();
    std::vector<std::int32_t> ranks;
    for (const RankInfo& r : b.ranks)
        if (r.host == host && r.localRank == local)
            ranks.push_back(r.rank);
    const std::string where = "local rank " + std::to_string(local) + " on " + std::string(b.text(host));
    Placeholders values = ranks.size() == 1 ? ctx.placeholdersFor(ranks.front()) : Placeholders {};
    values["host"] = std::string(b.text(host));
    Finding& f = out.add(ctx, "crash.local_peer_closed", RootCauseClass::RankCrashed, values);
    if (ranks.size() == 1)
        f.ranks = ranks;
    if (f.title.empty())
        f.title = (ranks.size() == 1 ? ctx.rankLabel(ranks.front()) : "The process of " + where)
            + " exited while its peers were running";
    for (std::uint32_t i : view.events)
        f.evidence.push_back(evidenceOf(b, i));
    f.confidence = 0.65;
    f.explanation = std::to_string(view.pids.size()) + " processes on " + std::string(b.text(host))
        + " logged that NCCL's proxy connection from local rank " + std::to_string(local)
        + " closed, and none of them saw any other peer go: that one process exited (crashed, was killed or"
          " returned) while the others were still running. Its own output, the launcher's exit code and the"
          " kernel log (OOM killer, segfault) say why.";
    out.propose(RootCauseClass::RankCrashed, f.ranks, 0.65, "crash.local_peer_closed",
        (ranks.size() == 1 ? ctx.rankLabel(ranks.front()) : "The process of " + where)
            + " exited first: every other process on the host saw only its NCCL proxy connection close.");
}

// A launcher reports a worker that exited on its own (exit code, SIGKILL, SIGSEGV) and no line
// ties that worker to a rank: DeepSpeed's launch.py prints the exit code with the argv of the
// last worker it spawned, not the failed one's, and a failure table may come from a node no
// rank table covers. With no timeout anywhere the exit is not a reaction to a hang elsewhere:
// the job failed because that worker did. The class is said; no rank is guessed.
void ruleUnmappedWorkerFailure(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    if (facts.unmappedWorkerFailures.empty() || facts.firstTimeout.valid() || facts.unrankedTimeouts > 0)
        return;
    for (const auto& rf : facts.ranks)
        if (rf.anyTimeout || rf.primaryFailure != kNoIndex)
            return;
    const std::uint32_t first = facts.unmappedWorkerFailures.front();
    const Event& e = b.events[first];
    const std::string meaning = e.code == -9 ? "killed by SIGKILL, most often the kernel's OOM killer when host memory ran out"
        : e.code == -11                        ? "killed by SIGSEGV, a crash in native code"
        : e.code == -7                         ? "killed by SIGBUS, most often a full /dev/shm"
                                               : "exited with code " + std::to_string(e.code) + ", an error raised in the worker";
    Finding& f = out.add(ctx, "crash.unmapped_worker_failure", RootCauseClass::RankCrashed, {});
    if (f.title.empty())
        f.title = "A worker " + meaning.substr(0, meaning.find(',')) + " and the launcher stopped the job";
    for (std::size_t i = 0; i < facts.unmappedWorkerFailures.size() && f.evidence.size() < 3; ++i)
        f.evidence.push_back(evidenceOf(b, facts.unmappedWorkerFailures[i]));
    f.confidence = 0.55;
    f.explanation = "The launcher reports a worker that " + meaning
        + ". No rank timed out or logged a failure of its own, so this exit is not a reaction to a hang elsewhere: the"
          " job stopped because that worker failed. No line ties the worker to a rank"
        + std::string(b.text(e.detail) == "deepspeed"
                ? " (DeepSpeed's launcher prints the command line of the last worker it started, not of the one that failed,"
                  " so its --local_rank says nothing)"
                : "")
        + "; that worker's own output and the node's kernel log say which one and why.";
    out.propose(RootCauseClass::RankCrashed, {}, 0.55, "crash.unmapped_worker_failure",
        "A worker " + meaning + "; the launcher stopped the job. No line says which rank it was.");
}

void ruleInitHang(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    if (facts.anyCollectiveCompleted)
        return;
    std::vector<std::int32_t> started, notStarted, storeErrors;
    std::vector<std::uint32_t> bootstrapErrors;
    std::map<std::int32_t, int> askedRank;
    for (const auto& rf : facts.ranks) {
        if (rf.initStarted)
            started.push_back(rf.rank);
        else if (rf.hasLogs || rf.hasSourceFile)
            notStarted.push_back(rf.rank);
        for (std::uint32_t i : rf.storeErrors) {
            storeErrors.push_back(rf.rank);
            if (b.events[i].peerRank >= 0)
                ++askedRank[b.events[i].peerRank];
        }
    }
    for (std::uint32_t i = 0; i < b.events.size(); ++i)
        if (b.events[i].kind == EventKind::NcclBootstrapError || b.events[i].kind == EventKind::LauncherRendezvousError)
            bootstrapErrors.push_back(i);
    const bool incomplete = facts.initIncomplete;
    // A stack dump (gdb, py-spy --native) whose main thread sits in ncclCommInitRank or NCCL's
    // bootstrap: the process waits there for peers that never joined the communicator.
    const StackDump* inInit = nullptr;
    for (const StackDump& s : b.stackDumps)
        if (s.activity == StackActivity::InNcclInit && !inInit)
            inInit = &s;
    if (!incomplete && storeErrors.empty() && bootstrapErrors.empty() && !inInit)
        return;

    // "Timed out after 601 seconds waiting for clients. 1/2 clients joined.": the TCPStore
    // server (rank 0) saw too few ranks. With the missing ranks identified by the world, or
    // a two-rank job (the server is rank 0, so rank 1 is the one missing), name them.
    std::vector<std::int32_t> notJoined;
    const Event* waitingForClients = nullptr;
    for (std::uint32_t i : bootstrapErrors) {
        const Event& e = b.events[i];
        if (e.kind == EventKind::LauncherRendezvousError && e.code >= 0 && e.seq > e.code)
            waitingForClients = &e;
    }
    // The store-based barrier names each waiting rank: when as many distinct ranks say they
    // wait as the barrier counts joined, the ranks of the world that never said so are the
    // ones that never arrived.
    std::set<std::int32_t> barrierWaiters;
    for (std::uint32_t i : bootstrapErrors) {
        const Event& e = b.events[i];
        if (e.kind == EventKind::LauncherRendezvousError && b.text(e.detail) == "store_based_barrier" && e.peerRank >= 0)
            barrierWaiters.insert(e.peerRank);
    }
    if (waitingForClients) {
        const std::int64_t expected = waitingForClients->seq;
        const std::int64_t joined = waitingForClients->code;
        const bool barrier = b.text(waitingForClients->detail) == "store_based_barrier";
        if (barrier) {
            if (static_cast<std::int64_t>(barrierWaiters.size()) == joined && *barrierWaiters.rbegin() < expected)
                for (std::int32_t r = 0; r < expected && notJoined.size() < 64; ++r)
                    if (!barrierWaiters.count(r))
                        notJoined.push_back(r);
        } else if (expected == 2 && joined == 1) {
            notJoined = { 1 };
        } else if (b.world.worldSize && *b.world.worldSize == expected
            && static_cast<std::int64_t>(b.world.ranksSeen.size()) == joined) {
            notJoined = b.world.ranksMissing;
        }
    }
    // JAX's coordination service lists the tasks (processes) that never reached its barrier.
    std::vector<std::int32_t> jaxMissing;
    for (std::uint32_t i : bootstrapErrors) {
        const Event& e = b.events[i];
        if (b.text(e.detail) == "jax_barrier_task" && e.peerRank >= 0)
            jaxMissing.push_back(e.peerRank);
    }
    std::sort(jaxMissing.begin(), jaxMissing.end());
    if (notJoined.empty() && !jaxMissing.empty() && jaxMissing.size() <= 64) {
        notJoined = jaxMissing;
        waitingForClients = nullptr;
    }
    std::vector<std::int32_t> initiating;
    std::string reason;
    if (!notJoined.empty() && !waitingForClients) {
        initiating = notJoined;
        reason = "the coordination service's barrier timed out waiting for task(s) " + formatRanks(notJoined)
            + ", which never reached it.";
    } else if (!notJoined.empty()) {
        initiating = notJoined;
        reason = "the store server waited for " + std::to_string(waitingForClients->seq) + " ranks and only "
            + std::to_string(waitingForClients->code) + " joined; rank(s) " + formatRanks(notJoined)
            + " never reached init_process_group.";
    } else if (!askedRank.empty()) {
        const std::int32_t asked = askedRank.begin()->first;
        initiating = { asked };
        reason = std::to_string(storeErrors.size()) + " rank(s) could not fetch NCCL's unique id from rank "
            + std::to_string(asked) + " through the store: that rank never published it (crashed or stuck at startup).";
    } else if (incomplete && !notStarted.empty() && notStarted.size() * 2 < started.size() + notStarted.size()) {
        initiating = notStarted;
        reason = std::to_string(started.size()) + " rank(s) started the world communicator's init and never completed it;"
            " rank(s) " + formatRanks(notStarted) + " never started it: the others wait for them in bootstrap.";
    } else if (inInit && bootstrapErrors.empty() && !incomplete) {
        reason = "a stack dump shows a process blocked creating its NCCL communicator (ncclCommInitRank/bootstrap):"
                 " it waits for peers that never joined or cannot reach it (rank missing, network interface or"
                 " transport choice that differs between nodes).";
    } else if (!bootstrapErrors.empty()) {
        reason = "NCCL/launcher bootstrap errors on " + std::to_string(bootstrapErrors.size())
            + " line(s): ranks could not reach each other to set up communication (network interface, firewall, rendezvous).";
    } else {
        reason = std::to_string(started.size()) + " rank(s) started communicator init and none completed it.";
    }
    Placeholders values = initiating.empty() ? (started.empty() ? Placeholders {} : ctx.placeholdersFor(started.front()))
                                             : ctx.placeholdersFor(initiating.front());
    values["ranks"] = formatRanks(initiating);
    if (!initiating.empty())
        if (const RankInfo* info = b.rankInfo(initiating.front()); info && info->host != kNoStr)
            values["master_host"] = std::string(b.text(info->host));
    Finding& f = out.add(ctx, "init.no_collective_completed", RootCauseClass::InitBootstrap, values);
    f.ranks = initiating;
    if (f.title.empty())
        f.title = "The job hung before its first collective";
    for (std::uint32_t i : bootstrapErrors)
        if (f.evidence.size() < 2)
            f.evidence.push_back(evidenceOf(b, i));
    if (inInit)
        f.evidence.push_back(evidenceOf(b, inInit->evidence, "stack dump: main thread creating an NCCL communicator"));
    for (std::int32_t r : storeErrors)
        if (f.evidence.size() < 4) {
            f.evidence.push_back(evidenceOf(b, facts.ranks[r].storeErrors.front()));
            break;
        }
    for (const auto& e : b.events)
        if (e.kind == EventKind::NcclInitStart && f.evidence.size() < 5) {
            f.evidence.push_back({ e.evidence, std::string(b.text(e.text)) });
            break;
        }
    f.confidence = initiating.empty() ? 0.6 : 0.75;
    f.explanation = "No collective ever completed. " + reason
        + " PyTorch's watchdog does not cover communicator initialisation, so such hangs often print no timeout at all.";
    out.propose(RootCauseClass::InitBootstrap, initiating, f.confidence, "init.no_collective_completed",
        "The job hung before its first collective: " + reason);
}

} // namespace rankscope::model
