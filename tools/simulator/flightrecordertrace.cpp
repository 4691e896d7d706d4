#include "flightrecordertrace.h"

#include "trainscript.h"

#include <algorithm>

namespace rankscope::simulator {

namespace {

// ProcessGroupNCCL's watchdog sleeps 100 ms between passes over its work list
// (kWatchdogThreadSleepMillis), so a start or an end is "discovered" up to 100 ms late.
constexpr Micros kWatchdogPoll = 100 * kMilli;
constexpr Micros kLaunchLatency = 15; // enqueue → kernel running on an idle stream

// A rough bandwidth model: fixed latency plus bytes at ~20 GB/s bus bandwidth; enough for
// bars of believable relative length on the timeline.
Micros collectiveDuration(const Collective& c)
{
    const std::uint64_t bytes = std::max(c.numelIn, c.numelOut) * (c.dtype == 9 ? 2 : 4);
    return 180 + static_cast<Micros>(bytes / 20'000);
}

// Fates whose process keeps its enqueued work even after its Python side stopped printing
// (the renderer's COLL lines follow the same rule).
bool keepsQueuedWork(Fate f)
{
    return f == Fate::Waits || f == Fate::GpuHung || f == Fate::NetError || f == Fate::GpuError;
}

Micros activeUntil(const RankPlan& p)
{
    switch (p.fate) {
    case Fate::NeverEnters:
    case Fate::Silent:
    case Fate::InitMissing:
    case Fate::Frozen:
    case Fate::CleanExit:
        return p.stallAt;
    case Fate::Crashes:
    case Fate::InitError:
        return p.eventAt >= 0 ? p.eventAt : p.logEnd;
    default:
        return p.logEnd;
    }
}

} // namespace

FlightRecorderTrace::FlightRecorderTrace(const Job& job, const ScenarioPlan& plan)
    : m_job(job)
    , m_plan(plan)
{
    // A collective completes when its last member has enqueued it and the previous one on
    // the same stream has completed; the stuck one (and so everything after it) never does.
    const int nOps = static_cast<int>(job.program.size());
    m_completedAt.assign(static_cast<std::size_t>(nOps), kNever);
    Micros previous = 0;
    for (int i = 0; i < nOps; ++i) {
        if (plan.stuckOp >= 0 && i >= plan.stuckOp)
            break;
        Micros lastEnqueue = 0;
        bool everyone = true;
        for (int q = 0; q < job.world && everyone; ++q) {
            const Micros t = enqueueAt(q, i);
            everyone = t != kNever;
            lastEnqueue = std::max(lastEnqueue, t);
        }
        if (!everyone)
            break;
        previous = std::max(previous, lastEnqueue) + kLaunchLatency
            + collectiveDuration(job.program[static_cast<std::size_t>(i)]);
        m_completedAt[static_cast<std::size_t>(i)] = previous;
    }
}

Micros FlightRecorderTrace::enqueueAt(int q, int i) const
{
    const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(q)];
    const int stop = p.stopOp < 0 ? static_cast<int>(m_job.program.size()) : p.stopOp;
    if (i >= stop || i == p.skipOp)
        return kNever;
    Micros t = m_job.enqueueTime(q, i);
    if (i == m_plan.stuckOp && p.hasWork)
        t = p.enqueueAt;
    else if (p.skipOp >= 0 && i == p.skipOp + 1)
        t = p.enqueueAt;
    else if (m_plan.stuckOp >= 0 && i > m_plan.stuckOp && p.enqueueAt >= 0)
        t = std::max(t, p.enqueueAt + (i - m_plan.stuckOp) * 3 * kMilli);
    // The ground truth of a hang is that every collective before S completed everywhere
    // (expected.json's last completed = S - 1), even where a dying rank's log is cut a
    // little earlier; only after S (or without a hang) does the end of a rank's activity
    // bound what it enqueued.
    const bool beforeStuck = m_plan.stuckOp >= 0 && i < m_plan.stuckOp;
    if (t > activeUntil(p) && !keepsQueuedWork(p.fate) && !beforeStuck)
        return kNever;
    return t;
}

Micros FlightRecorderTrace::dumpTime(int rank) const
{
    const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(rank)];
    switch (p.fate) {
    case Fate::Crashes:
    case Fate::CleanExit:
    case Fate::Silent: // hung hard, GIL included: the dump never gets written ([formats 2.1])
    case Fate::InitMissing: // no process group yet
    case Fate::Completes: // exited 0, nothing asked for a dump
        return kNever;
    default:
        break;
    }
    // The dump is written a few hundred ms after whatever triggered it.
    Micros trigger = kNever;
    for (const Micros t : { p.dumpSignalAt, p.timeoutAt, p.heartbeatAt })
        if (t >= 0 && (trigger == kNever || t < trigger))
            trigger = t;
    if (trigger == kNever && p.fate == Fate::Running)
        trigger = m_plan.collectAt - 2 * kSecond; // dumped on request (named pipe / API)
    if (trigger == kNever)
        return kNever;
    if (p.deathAt >= 0 && p.deathAt < trigger)
        return kNever; // torn down before anything asked for a dump
    // The watchdog waits for the dump (TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC) before it takes
    // the process down, so a rank that dies of its own timeout still leaves its file.
    const Micros at = trigger + 400 * kMilli;
    return p.deathAt >= 0 ? std::min(at, p.deathAt) : at;
}

Micros FlightRecorderTrace::watchdogDelay(int rank, int i, int which) const
{
    Rng rng = Rng::derived(m_job.seed, "fr-watchdog",
        static_cast<std::uint64_t>(rank) * 1'000'003ULL + static_cast<std::uint64_t>(i) * 2
            + static_cast<std::uint64_t>(which));
    return rng.uniform(0, kWatchdogPoll);
}

std::int64_t FlightRecorderTrace::epochNs(Micros t) const
{
    return m_job.calendar.epochSeconds(0) * 1'000'000'000LL + t * 1000;
}

// The Python stack FR captured at enqueue: the c10d function, its logger wrapper, then
// the training script (the same lines as the logs' tracebacks).
std::size_t FlightRecorderTrace::stackOf(FrTraceDump& dump, const Collective& c) const
{
    const std::string torchPy = m_job.sitePackages + "/torch/distributed/";
    const std::string script = m_job.scriptDir + "/" + m_job.script;
    int c10dLine = m_job.torch.c10dAllReduceLine;
    switch (c.op) {
    case Op::Broadcast:
        c10dLine -= 318;
        break;
    case Op::AllGatherBase:
        c10dLine += 812;
        break;
    case Op::ReduceScatterBase:
        c10dLine += 1240;
        break;
    case Op::AllReduce:
        break;
    }
    std::vector<FrFrame> frames;
    frames.push_back(
        { std::string(c10dFunction(c.op)), torchPy + "distributed_c10d.py", c10dLine });
    if (m_job.torch.c10dLogger)
        frames.push_back({ "wrapper", torchPy + "c10d_logger.py", m_job.torch.c10dLoggerLine });
    if (c.step == 0) {
        frames.push_back({ "broadcast_parameters", script, 97 });
    } else {
        if (c.cpuSync)
            frames.push_back({ "global_token_count", script, kLineTokenCount });
        else
            frames.push_back({ "_sync_grads", script, kLineSyncGrads });
        frames.push_back({ "train_step", script, kLineTrainStep });
        frames.push_back({ "train", script, kLineTrainCall });
    }
    frames.push_back({ "main", script, kLineMain });
    frames.push_back({ "<module>", script, kLineModule });
    auto it = std::find(dump.stacks.begin(), dump.stacks.end(), frames);
    if (it != dump.stacks.end())
        return static_cast<std::size_t>(it - dump.stacks.begin());
    dump.stacks.push_back(std::move(frames));
    return dump.stacks.size() - 1;
}

std::optional<FrTraceDump> FlightRecorderTrace::dump(int rank) const
{
    const Micros at = dumpTime(rank);
    if (at == kNever)
        return std::nullopt;
    const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(rank)];
    FrTraceDump d;
    d.rank = rank;
    d.worldSize = m_job.world;
    d.timeoutMs = m_job.timeoutMs;
    d.ncclVersion = m_job.nccl.version;
    d.dumpedAt = at;
    const bool timedOut = p.timeoutAt >= 0 && p.timeoutAt <= at;
    const int nOps = static_cast<int>(m_job.program.size());
    for (int i = 0; i < nOps; ++i) {
        const Micros created = enqueueAt(rank, i);
        if (created == kNever || created > at)
            continue;
        Collective c = m_job.program[static_cast<std::size_t>(i)];
        if (i == m_plan.stuckOp && p.hasWork) {
            c.op = p.work.op; // what this rank really issued at S
            c.numelIn = p.work.numelIn;
            c.numelOut = p.work.numelOut;
        }
        FrTraceEntry e;
        e.recordId = static_cast<std::int64_t>(d.entries.size());
        // A rank that skipped an op numbers every later one a step lower.
        e.collectiveSeq = c.seq - (p.skipOp >= 0 && i > p.skipOp ? 1 : 0);
        e.opId = e.collectiveSeq;
        e.op = c.op;
        e.numelIn = c.numelIn;
        e.numelOut = c.numelOut;
        e.dtype = c.dtype;
        e.createdNs = epochNs(created);
        e.stack = stackOf(d, c);
        const Micros previousDone = i == 0 ? 0 : m_completedAt[static_cast<std::size_t>(i - 1)];
        const Micros done = m_completedAt[static_cast<std::size_t>(i)];
        const bool started = previousDone != kNever;
        const Micros start = std::max(created, previousDone) + kLaunchLatency;
        if (started && start <= at && m_job.ncclTiming) {
            e.state = FrEntryState::Started;
            // A watchdog stuck behind a dead GPU only notices when the dump queries events.
            const Micros seen = p.fate == Fate::GpuHung && done == kNever
                ? at
                : std::min(at, start + watchdogDelay(rank, i, 0));
            e.discoveredStartedNs = epochNs(seen);
        }
        if (done != kNever && done <= at) {
            e.state = FrEntryState::Completed;
            e.discoveredCompletedNs = epochNs(std::min(at, done + watchdogDelay(rank, i, 1)));
            if (m_job.ncclTiming)
                e.durationMs = static_cast<double>(done - start) / 1000.0;
            e.retired = true;
        } else if (i == m_plan.stuckOp && timedOut) {
            e.retired = true; // "a retired but not completed event has timed out"
        }
        d.lastEnqueued = e.collectiveSeq;
        if (e.state != FrEntryState::Scheduled && m_job.ncclTiming)
            d.lastStarted = e.collectiveSeq;
        if (e.state == FrEntryState::Completed)
            d.lastCompleted = e.collectiveSeq;
        d.entries.push_back(std::move(e));
    }
    const std::size_t keep = static_cast<std::size_t>(std::max(1, m_job.frBufferSize));
    if (d.entries.size() > keep)
        d.entries.erase(d.entries.begin(), d.entries.end() - static_cast<std::ptrdiff_t>(keep));
    return d;
}

} // namespace rankscope::simulator
