// Rules for ranks that failed on their own ([formats 9], [formats 11] D, E, G): a crash earlier
// than everyone's timeouts, memory or /dev/shm exhaustion while creating a communicator,
// and hangs before the first collective (init / bootstrap / rendezvous).

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include "model/rankresolver.h"
#include "model/shortentext.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

// Event `first` was logged before event `then`: earlier in the same file, or by their times.
bool loggedBefore(const Bundle& b, std::uint32_t first, std::uint32_t then)
{
    const Event& x = b.events[first];
    const Event& y = b.events[then];
    if (x.evidence.source == y.evidence.source)
        return x.evidence.line < y.evidence.line;
    return earlierThan(x.time, y.time);
}

// The words the failure rules share (a launcher's exit code, a traceback's frame) and those of
// the two findings ruleEarlyCrash makes are crash.first_failure's phrases.
constexpr const char* kFailureWords = "crash.first_failure";

std::string failureText(const RuleContext& ctx, std::uint32_t index)
{
    const Bundle& b = ctx.bundle;
    const Event& e = b.events[index];
    std::string text(b.text(e.text));
    if (e.kind == EventKind::PythonException && e.detail != kNoStr)
        text = std::string(b.text(e.detail)) + ": " + text;
    // A launcher that says only that the process died (Ray) has its message and no code.
    if ((e.kind == EventKind::LauncherWorkerFailed || e.kind == EventKind::LauncherFailureRecord
            || e.kind == EventKind::LauncherExit)
        && e.code != kExitCodeUnknown)
        text = ctx.say(kFailureWords, text.empty() ? "exit_code" : "exit_code_with_message",
            { { "code", std::to_string(e.code) }, { "message", text } });
    return shortenText(text, 300);
}

void addFailureEvidence(const RuleContext& ctx, const RankFacts& rf, Finding& f)
{
    const Bundle& b = ctx.bundle;
    f.evidence.push_back(evidenceOf(b, rf.primaryFailure));
    // The traceback's exception line and the launcher's record, when they are other lines.
    for (const auto& t : b.tracebacks)
        if (b.rankOfIdentity(t.identity) == rf.rank && !(t.exceptionLine == b.events[rf.primaryFailure].evidence)) {
            if (!t.frames.empty()) {
                const StackFrame& last = t.frames.back();
                f.evidence.push_back(evidenceOf(b, t.evidence,
                    ctx.say(kFailureWords, "innermost_frame",
                        { { "function", std::string(b.text(last.function)) },
                            { "file", std::string(b.text(last.file)) },
                            { "line", std::to_string(last.line) } })));
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
    // Both findings say the same, but for the sentence on the startup phase in the
    // explanation and the verdict of init.rank_failed_at_startup.
    const char* rule = initPhase ? "init.rank_failed_at_startup" : "crash.first_failure";
    const std::string what = failureText(ctx, rf.primaryFailure);
    values["who"] = ctx.rankLabel(rf.rank);
    // The sentence ends after it: a message's own full stop would make two.
    values["what"] = what.ends_with('.') && !what.ends_with("..") ? what.substr(0, what.size() - 1) : what;
    values["what_title"] = what.substr(0, 120);
    values["what_verdict"] = what.substr(0, 160);
    values["culprits"] = ctx.ranksSubject(initiating);
    Finding& f = out.add(ctx, rule, cls, values);
    f.ranks = initiating;
    addFailureEvidence(ctx, rf, f);
    if (rf.primaryFailureTime.valid()) {
        values["time"] = formatTime(rf.primaryFailureTime);
        if (rf.primaryFailureTime.inferred)
            values["time_inferred"] = ctx.say(kFailureWords, "time_inferred");
        values["at"] = ctx.say(kFailureWords, "at_time", values);
    }
    if (facts.firstTimeout.valid() && !facts.firstTimeout.inferred
        && comparableTimes(rf.primaryFailureTime, facts.firstTimeout)
        && !earlierThan(facts.firstTimeout, rf.primaryFailureTime)) {
        values["seconds"] = std::to_string(
            wholeSeconds(facts.firstTimeout) - wholeSeconds(rf.primaryFailureTime));
        values["timeout_later"] = ctx.say(kFailureWords, "timeout_later", values);
    }
    if (initiating.size() > 1)
        values["same_time"] = ctx.say(kFailureWords, "same_time", values);
    values["waiting"] = std::to_string(waiting);
    if (waiting > 0)
        values["collateral_sentence"] = ctx.say(kFailureWords, "collateral_sentence", values);
    f.explanation = ctx.explain(rule, values);
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
            values["others_known"] = std::to_string(othersKnown);
            f.explanation += ctx.say(kFailureWords,
                ctx.bundle.world.worldSize ? "only_these_lines" : "only_these_lines_at_least",
                values);
            out.propose(cls, initiating, 0.6, precedence,
                ctx.say(kFailureWords, "verdict_only_these_lines", values));
            return;
        }
        if (survivors == 0 && failed.size() == 1 && facts.ranks.size() == 1) {
            // The bundle knows of no other rank at all (one worker's launcher line pasted
            // alone): nothing contradicts the failure as the job's cause.
            f.confidence = 0.5;
            f.explanation += ctx.say(kFailureWords, "no_other_lines");
            out.propose(cls, initiating, 0.5, precedence,
                ctx.say(kFailureWords, "verdict_no_other_lines", values));
            return;
        }
        if (survivors == 0) {
            f.confidence = 0.5;
            f.explanation += ctx.say(kFailureWords, "all_failed");
            return;
        }
        f.confidence = 0.7;
        values["survivors"] = std::to_string(survivors);
        f.explanation += ctx.say(kFailureWords, "launcher_killed", values);
        out.propose(cls, initiating, 0.7, precedence,
            ctx.say(kFailureWords, "verdict_launcher_killed", values));
        return;
    }
    f.confidence = initiating.size() == 1 ? 0.85 : 0.7;
    out.propose(cls, initiating, f.confidence, precedence, ctx.verdict(rule, values));
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
    static constexpr const char* kRule = "crash.early_exit";
    const RankFacts& rf = ctx.facts.ranks[exited.front()];
    Placeholders values = ctx.placeholdersFor(rf.rank);
    values["ranks"] = formatRanks(exited);
    values["who"] = ctx.rankLabel(rf.rank);
    values["culprits"] = ctx.ranksSubject(exited);
    Finding& f = out.add(ctx, kRule, RootCauseClass::RankCrashed, values);
    f.ranks = exited;
    f.evidence.push_back(evidenceOf(b, rf.commTeardown));
    if (rf.lastEvent != kNoIndex && rf.lastEvent != rf.commTeardown)
        f.evidence.push_back(evidenceOf(b, rf.lastEvent));
    f.confidence = 0.8;
    values["teardown"] = std::string(b.text(b.events[rf.commTeardown].text)).substr(0, 160);
    values["timed_out"] = std::to_string(pg->timedOut.size());
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::RankCrashed, exited, 0.8, kRule, ctx.verdict(kRule, values));
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
    static constexpr const char* kRule = "resource.shm_sigbus";
    Finding& f = out.add(ctx, kRule, RootCauseClass::ResourceExhaustion, {});
    for (std::uint32_t i : busErrors)
        f.evidence.push_back(evidenceOf(b, i));
    f.confidence = 0.6;
    const Placeholders values { { "signal_line",
        std::string(b.text(b.events[busErrors.front()].text)).substr(0, 120) } };
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::ResourceExhaustion, {}, 0.6, kRule, ctx.verdict(kRule, values));
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
            // NCCL's own WARN or PyTorch's failure on its own shared-memory file (their
            // text), or PyTorch's exception quoting NCCL's WARN after "Last error:".
            const std::string_view message = b.text(
                e.kind == EventKind::NcclShmError || e.kind == EventKind::PythonException ? e.text : e.detail);
            full = full || message.find("No space left") != std::string_view::npos;
            // strerror(EACCES) / strerror(EPERM) after shm_open or open: the process may not
            // create files in /dev/shm at all. A permission, not a lack of space.
            if (message.find("Permission denied") != std::string_view::npos
                || message.find("Operation not permitted") != std::string_view::npos)
                ++denied;
        }
        if (denied > 0 && !full) {
            static constexpr const char* kRule = "configuration.shm_permission";
            Placeholders values = ranks.empty() ? Placeholders {} : ctx.placeholdersFor(*ranks.begin());
            if (!host.empty())
                values["host"] = host;
            values["node"] = host.empty() ? ctx.say(kRule, "unknown_host") : host;
            Finding& f = out.add(ctx, kRule, RootCauseClass::Configuration, values);
            f.ranks.assign(ranks.begin(), ranks.end());
            f.evidence.push_back(evidenceOf(b, events.front()));
            f.confidence = 0.75;
            f.explanation = ctx.explain(kRule, values);
            out.propose(RootCauseClass::Configuration, {}, 0.75, kRule, ctx.verdict(kRule, values));
            return;
        }
        // /dev/shm is one tmpfs per node: failing to extend it is the node's limit, never the
        // rank's own fault, however many ranks got to report it before the job was torn down.
        static constexpr const char* kRule = "resource.shm_node";
        Placeholders values = ranks.empty() ? Placeholders {} : ctx.placeholdersFor(*ranks.begin());
        if (!host.empty())
            values["host"] = host;
        values["node"] = host.empty() ? ctx.say(kRule, "unknown_host") : host;
        Finding& f = out.add(ctx, kRule, RootCauseClass::ResourceExhaustion, values);
        f.ranks.assign(ranks.begin(), ranks.end());
        f.evidence.push_back(evidenceOf(b, events.front()));
        f.confidence = 0.75;
        // Python's shared-memory files (DataLoader workers, torch.multiprocessing, semaphores) or NCCL's.
        const bool torchOnly = std::all_of(events.begin(), events.end(),
            [&b](std::uint32_t i) { return b.events[i].kind == EventKind::PythonException; });
        values["state"] = ctx.say(kRule, full ? "state_full" : torchOnly ? "state_not_written" : "state_not_extended");
        values["user"] = ctx.say(kRule, torchOnly ? "user_torch" : "user_nccl");
        values["consequence"] = ctx.say(kRule, torchOnly ? "consequence_torch" : "consequence_nccl");
        f.explanation = ctx.explain(kRule, values);
        Proposal& p = out.propose(
            RootCauseClass::ResourceExhaustion, {}, 0.75, kRule, ctx.verdict(kRule, values));
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
    // A rank whose own lines say another process of its host had already exited ("Connection
    // closed by localRank L" before its failure) did not fail first: its failure may be the
    // same lack of memory, but the job was already going down. Such a rank is not named.
    const RankFacts* late = exhausted.front();
    std::erase_if(exhausted, [&](const RankFacts* rf) {
        return rf->peerGone != kNoIndex && loggedBefore(b, rf->peerGone, rf->primaryFailure);
    });
    if (exhausted.empty()) {
        // The class is still plain from the message; the first to fail is not.
        static constexpr const char* kLate = "resource.allocation_after_exit";
        Placeholders values = ctx.placeholdersFor(late->rank);
        values["who"] = ctx.rankLabel(late->rank);
        const std::uint32_t evidence
            = late->resourceEvents.empty() ? late->primaryFailure : late->resourceEvents.front();
        values["failure"] = failureText(ctx, evidence);
        Finding& f = out.add(ctx, kLate, RootCauseClass::ResourceExhaustion, values);
        f.evidence.push_back(evidenceOf(b, late->peerGone));
        f.evidence.push_back(evidenceOf(b, evidence));
        f.confidence = 0.6;
        f.explanation = ctx.explain(kLate, values);
        out.propose(RootCauseClass::ResourceExhaustion, {}, 0.6, kLate, ctx.verdict(kLate, values));
        return;
    }
    // Half the ranks or more out of memory is a job-wide sizing problem, said by the crash
    // finding; one rank alone is that rank's, even in a bundle of two.
    if (exhausted.size() > 1 && exhausted.size() * 2 >= b.world.ranksSeen.size())
        return;
    static constexpr const char* kRule = "resource.init_allocation";
    const RankFacts& rf = *exhausted.front();
    Placeholders values = ctx.placeholdersFor(rf.rank);
    values["who"] = ctx.rankLabel(rf.rank);
    Finding& f = out.add(ctx, kRule, RootCauseClass::ResourceExhaustion, values);
    f.ranks = { rf.rank };
    const std::uint32_t evidence
        = rf.resourceEvents.empty() ? rf.primaryFailure : rf.resourceEvents.front();
    f.evidence.push_back(evidenceOf(b, evidence));
    if (evidence != rf.primaryFailure)
        f.evidence.push_back(evidenceOf(b, rf.primaryFailure));
    f.confidence = 0.85;
    const std::string failure = failureText(ctx, evidence);
    values["failure"] = failure;
    values["failure_verdict"] = failure.substr(0, 120);
    f.explanation = ctx.explain(kRule, values);
    const std::size_t waiting = countWaiting(facts, { rf.rank });
    values["waiting"] = std::to_string(waiting);
    values["aftermath"]
        = ctx.say(kRule, waiting > 0 ? "aftermath_waited" : "aftermath_stuck", values);
    out.propose(
        RootCauseClass::ResourceExhaustion, { rf.rank }, 0.85, kRule, ctx.verdict(kRule, values));
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
    static constexpr const char* kRule = "crash.local_peer_closed";
    Placeholders values = ranks.size() == 1 ? ctx.placeholdersFor(ranks.front()) : Placeholders {};
    values["host"] = std::string(b.text(host));
    values["closed_local_rank"] = std::to_string(local);
    values["subject"]
        = ranks.size() == 1 ? ctx.rankLabel(ranks.front()) : ctx.say(kRule, "process_of", values);
    Finding& f = out.add(ctx, kRule, RootCauseClass::RankCrashed, values);
    if (ranks.size() == 1)
        f.ranks = ranks;
    for (std::uint32_t i : view.events)
        f.evidence.push_back(evidenceOf(b, i));
    f.confidence = 0.65;
    values["process_count"] = std::to_string(view.pids.size());
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::RankCrashed, f.ranks, 0.65, kRule, ctx.verdict(kRule, values));
}

namespace {

// TensorRT-LLM and TurboMind warn at start-up for each pair of GPUs without peer access
// ("Device 2 peer access Device 5 is not available."), then set up their custom all-reduce,
// which maps the other GPUs' memory through CUDA IPC and throws when peer access is refused.
// A worker that then exits with nothing else said most likely ended there: the platform has no
// P2P path for the custom all-reduce. A warning alone is no fault (with the custom all-reduce
// off the run goes on), so this only explains a failure the launcher reported.
void proposePeerAccessUnavailable(const RuleContext& ctx, RuleOutput& out, std::uint32_t exit)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::uint32_t> warnings;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind == EventKind::FrameworkCheck && b.text(e.detail) == "peer_access_unavailable")
            warnings.push_back(i);
        // A worker that logged a step or an exception of its own ended elsewhere.
        if (e.kind == EventKind::TrainingProgress || e.kind == EventKind::PythonException
            || e.kind == EventKind::CudaError || e.kind == EventKind::CudaOutOfMemory)
            return;
    }
    if (warnings.empty())
        return;
    static constexpr const char* kRule = "configuration.p2p_unavailable";
    Placeholders values { { "evidence_short", std::string(b.text(b.events[warnings.front()].text)) },
        { "pair_count", std::to_string(warnings.size()) } };
    Finding& f = out.add(ctx, kRule, RootCauseClass::Configuration, values);
    for (std::size_t i = 0; i < warnings.size() && f.evidence.size() < 2; ++i)
        f.evidence.push_back(evidenceOf(b, warnings[i]));
    f.evidence.push_back(evidenceOf(b, exit));
    f.confidence = 0.5;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::Configuration, {}, 0.5, kRule, ctx.verdict(kRule, values));
}

} // namespace

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
    static constexpr const char* kRule = "crash.unmapped_worker_failure";
    // The exit that says how it ended: MPI's "a process returned a non-zero exit code" comes
    // before the box with the code itself.
    std::uint32_t first = facts.unmappedWorkerFailures.front();
    for (std::uint32_t i : facts.unmappedWorkerFailures)
        if (b.events[i].code != kExitCodeUnknown) {
            first = i;
            break;
        }
    const Event& e = b.events[first];
    // How the worker ended ("killed by SIGKILL") and what that most often means, apart: the
    // title says only the first.
    const std::string ending = e.code == -9 ? "sigkill"
        : e.code == -11                     ? "sigsegv"
        : e.code == -7                      ? "sigbus"
        : e.code == kExitCodeUnknown        ? "died"
                                            : "exit_code";
    Placeholders values { { "code", std::to_string(e.code) } };
    values["ending"] = ctx.say(kRule, "ending_" + ending, values);
    values["ending_cause"] = ctx.say(kRule, "cause_" + ending, values);
    Finding& f = out.add(ctx, kRule, RootCauseClass::RankCrashed, values);
    for (std::size_t i = 0; i < facts.unmappedWorkerFailures.size() && f.evidence.size() < 3; ++i)
        f.evidence.push_back(evidenceOf(b, facts.unmappedWorkerFailures[i]));
    f.confidence = 0.55;
    if (b.text(e.detail) == "deepspeed")
        values["launcher_note"] = ctx.say(kRule, "deepspeed_argv");
    // mpirun's "process rank 0 … exited on signal 9" counts the rank, though no line of that
    // rank's own is in the input to say more: said, not used to name it.
    const std::string identity = e.peerRank >= 0 ? "identity_launcher" : "identity_unknown";
    values["rank"] = std::to_string(e.peerRank);
    values["identity"] = ctx.say(kRule, identity, values);
    values["identity_verdict"] = ctx.say(kRule, identity + "_verdict", values);
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::RankCrashed, {}, 0.55, kRule, ctx.verdict(kRule, values));
    proposePeerAccessUnavailable(ctx, out, first);
}

namespace {

// A store wait that ended because the store's connection broke ("store->get('0') got error:
// Connection reset by peer", a broken pipe): the server side closed, not a timeout.
bool storeServerGone(const Bundle& b, const std::vector<std::uint32_t>& storeErrorEvents)
{
    for (std::uint32_t i : storeErrorEvents) {
        const std::string_view text = b.text(b.events[i].text);
        for (std::string_view broken : { "Connection reset by peer", "Broken pipe", "Connection closed by peer" })
            if (text.find(broken) != std::string_view::npos)
                return true;
    }
    return false;
}

} // namespace

void ruleInitHang(const RuleContext& ctx, RuleOutput& out)
{
    static constexpr const char* kRule = "init.no_collective_completed";
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    if (facts.anyCollectiveCompleted)
        return;
    std::vector<std::int32_t> started, notStarted, storeErrors;
    std::vector<std::uint32_t> storeErrorEvents;
    std::vector<std::uint32_t> bootstrapErrors;
    std::map<std::int32_t, int> askedRank;
    for (const auto& rf : facts.ranks) {
        if (rf.initStarted)
            started.push_back(rf.rank);
        else if (rf.hasLogs || rf.hasSourceFile)
            notStarted.push_back(rf.rank);
        for (std::uint32_t i : rf.storeErrors) {
            storeErrors.push_back(rf.rank);
            storeErrorEvents.push_back(i);
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
        reason = ctx.say(kRule, "reason_barrier_tasks", { { "tasks", formatRanks(notJoined) } });
    } else if (!notJoined.empty()) {
        initiating = notJoined;
        reason = ctx.say(kRule, "reason_store_clients",
            { { "expected", std::to_string(waitingForClients->seq) },
                { "joined", std::to_string(waitingForClients->code) },
                { "missing", formatRanks(notJoined) } });
    } else if (!askedRank.empty() && storeServerGone(b, storeErrorEvents)) {
        // The ranks asked the store for the unique id and its connection broke: the process
        // serving the store (the asked rank's, or its launcher agent beside it) went away.
        static constexpr const char* kGone = "crash.store_server_gone";
        const std::int32_t asked = askedRank.begin()->first;
        Placeholders values = ctx.placeholdersFor(asked);
        values["asked"] = std::to_string(asked);
        values["failed"] = std::to_string(storeErrors.size());
        values["who"] = ctx.rankLabel(asked);
        Finding& f = out.add(ctx, kGone, RootCauseClass::RankCrashed, values);
        f.ranks = { asked };
        for (std::uint32_t i : storeErrorEvents)
            if (f.evidence.size() < 3)
                f.evidence.push_back(evidenceOf(b, i));
        f.confidence = 0.65;
        f.explanation = ctx.explain(kGone, values);
        out.propose(RootCauseClass::RankCrashed, { asked }, 0.65, kGone, ctx.verdict(kGone, values));
        return;
    } else if (!askedRank.empty()) {
        const std::int32_t asked = askedRank.begin()->first;
        initiating = { asked };
        reason = ctx.say(kRule, "reason_unique_id",
            { { "failed", std::to_string(storeErrors.size()) },
                { "asked", std::to_string(asked) } });
    } else if (incomplete && !notStarted.empty() && notStarted.size() * 2 < started.size() + notStarted.size()) {
        initiating = notStarted;
        reason = ctx.say(kRule, "reason_not_started",
            { { "started", std::to_string(started.size()) },
                { "not_started", formatRanks(notStarted) } });
    } else if (inInit && bootstrapErrors.empty() && !incomplete) {
        reason = ctx.say(kRule, "reason_stack_dump");
    } else if (!bootstrapErrors.empty()) {
        reason = ctx.say(kRule, "reason_bootstrap_errors",
            { { "lines", std::to_string(bootstrapErrors.size()) } });
    } else {
        reason = ctx.say(
            kRule, "reason_none_completed", { { "started", std::to_string(started.size()) } });
    }
    Placeholders values = initiating.empty() ? (started.empty() ? Placeholders {} : ctx.placeholdersFor(started.front()))
                                             : ctx.placeholdersFor(initiating.front());
    values["ranks"] = formatRanks(initiating);
    if (!initiating.empty())
        if (const RankInfo* info = b.rankInfo(initiating.front()); info && info->host != kNoStr)
            values["master_host"] = std::string(b.text(info->host));
    Finding& f = out.add(ctx, kRule, RootCauseClass::InitBootstrap, values);
    f.ranks = initiating;
    for (std::uint32_t i : bootstrapErrors)
        if (f.evidence.size() < 2)
            f.evidence.push_back(evidenceOf(b, i));
    if (inInit)
        f.evidence.push_back(
            evidenceOf(b, inInit->evidence, ctx.say(kRule, "stack_dump_evidence")));
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
    values["reason"] = reason;
    f.explanation = ctx.explain(kRule, values);
    out.propose(
        RootCauseClass::InitBootstrap, initiating, f.confidence, kRule, ctx.verdict(kRule, values));
}

} // namespace rankscope::model
