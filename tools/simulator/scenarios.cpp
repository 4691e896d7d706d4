// Scenario builders (one per scenario name) and the job-level timeline.
#include "scenarioplan.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace rankscope::simulator {

namespace {

// First op at or after `idx` the CPU blocks on: ranks that enqueued program[idx] keep
// enqueueing asynchronous ops up to and including it ([formats 1.5] rule 4).
int syncIndexFrom(const Job& job, int idx)
{
    for (int i = idx; i < static_cast<int>(job.program.size()); ++i)
        if (job.program[static_cast<std::size_t>(i)].cpuSync)
            return i;
    return static_cast<int>(job.program.size()) - 1;
}

int pickHangStep(const Job& job, Rng& rng)
{
    const int lo = std::max(1, job.steps / 2);
    const int hi = std::max(lo, job.steps - 1);
    return rng.uniformInt(lo, hi);
}

// Ranks do not enqueue the same collective at the same instant: most within a few hundred
// milliseconds, some seconds later (data loading, Python jitter).
Micros hangJitter(const Job& job, int rank)
{
    Rng r = Rng::derived(job.seed, "hang-jitter", static_cast<std::uint64_t>(rank));
    if (r.chance(0.15))
        return r.uniform(400, 2500) * kMilli;
    return r.uniform(0, 250) * kMilli;
}

std::vector<int> allRanksExcept(const Job& job, const std::vector<int>& except)
{
    std::vector<int> out;
    for (int r = 0; r < job.world; ++r)
        if (std::find(except.begin(), except.end(), r) == except.end())
            out.push_back(r);
    return out;
}

void setStuck(const Job& job, ScenarioPlan& plan, int opIdx)
{
    const Collective& c = job.program[static_cast<std::size_t>(opIdx)];
    plan.hasHang = true;
    plan.stuckOp = opIdx;
    plan.stuckSeq = c.seq;
    plan.hangStep = c.step;
    plan.verdict.stuckCollective
        = Verdict::StuckCollective { "0", std::string(torchOpName(c.op)), c.seq };
}

// Every rank enters program[opIdx] and waits in it.
void allWait(const Job& job, ScenarioPlan& plan, int opIdx)
{
    setStuck(job, plan, opIdx);
    const int stop = syncIndexFrom(job, opIdx) + 1;
    Micros earliest = -1;
    for (int r = 0; r < job.world; ++r) {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.fate = Fate::Waits;
        rp.stopOp = stop;
        rp.work = job.program[static_cast<std::size_t>(opIdx)];
        rp.hasWork = true;
        rp.lastEnqueued = job.program[static_cast<std::size_t>(stop - 1)].seq;
        // PyTorch starts lastCompletedSeq at -1 and numbers collectives from 1: stuck in the
        // first one, the status line says "last completed work: -1", never 0.
        rp.lastCompleted = rp.work.seq > 1 ? rp.work.seq - 1 : -1;
        rp.enqueueAt = job.enqueueTime(r, opIdx) + hangJitter(job, r);
        if (earliest < 0 || rp.enqueueAt < earliest)
            earliest = rp.enqueueAt;
    }
    plan.hangAt = earliest;
}

void verdict(ScenarioPlan& plan, const Job& job, std::string status, std::string cls,
    std::vector<int> initiating, bool collateralAreOthers)
{
    std::sort(initiating.begin(), initiating.end());
    plan.verdict.status = std::move(status);
    plan.verdict.rootCauseClass = std::move(cls);
    plan.verdict.collateralRanks
        = collateralAreOthers ? allRanksExcept(job, initiating) : std::vector<int> {};
    plan.verdict.initiatingRanks = std::move(initiating);
}

// ---------------------------------------------------------------------------------------

void planHealthy(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const Micros end = job.stepStart[static_cast<std::size_t>(job.steps)] + job.stepDuration;
    plan.trainingEndAt = end;
    for (auto& rp : plan.ranks)
        rp.fate = plan.variant == "still_training" ? Fate::Running : Fate::Completes;
    if (plan.variant == "still_training") {
        const int s = std::max(1, job.steps - rng.uniformInt(0, std::max(0, job.steps / 4)));
        plan.collectAt = job.stepStart[static_cast<std::size_t>(s)]
            + static_cast<Micros>(static_cast<double>(job.stepDuration) * rng.real(0.2, 0.8));
    }
    plan.harmlessWarn = plan.variant == "plugin_warn";
    plan.benignNoise = plan.variant == "benign_noise";
    verdict(plan, job, "no_hang_found", "none", {}, false);
    plan.notes = plan.variant == "still_training"
        ? "Nothing injected: the bundle is a snapshot of a job that is still training normally."
        : "Nothing injected: every rank trains to the end and exits 0.";
    if (plan.harmlessWarn)
        plan.notes = "Nothing injected: the job completes; NCCL prints a harmless WARN about the "
                     "kernel command line.";
    if (plan.benignNoise)
        plan.notes = "Nothing injected: the job completes. dmesg holds application Xids 13/43/31 "
                     "of an earlier job's process, corrected ECC/AER notices and an Xid 92; "
                     "PyTorch warns that a hang is possible (device unknown at barrier, process "
                     "group not destroyed).";
}

void planStraggler(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const int h = pickHangStep(job, rng);
    int r = rng.uniformInt(0, job.world - 1);
    if (plan.variant == "checkpoint" && rng.chance(0.6))
        r = 0;
    const bool raced = plan.variant == "raced_ahead";
    const int first = job.stepFirstOp[static_cast<std::size_t>(h)];
    const int opIdx = raced ? first + 1 : first;
    allWait(job, plan, opIdx);
    if (raced) {
        // Ranks that finished backward enqueued two more buckets (E = S+2); the others are
        // blocked in the allocator behind the stuck stream (E = S).
        for (int q = 0; q < job.world; ++q) {
            RankPlan& rp = plan.ranks[static_cast<std::size_t>(q)];
            Rng qr = Rng::derived(job.seed, "raced", static_cast<std::uint64_t>(q));
            const int ahead = qr.chance(0.6) || q == (r + 1) % job.world ? 2 : 0;
            rp.stopOp = std::min(opIdx + 1 + ahead, static_cast<int>(job.program.size()));
            rp.lastEnqueued = job.program[static_cast<std::size_t>(rp.stopOp - 1)].seq;
        }
    }
    RankPlan& s = plan.ranks[static_cast<std::size_t>(r)];
    s.fate = Fate::NeverEnters;
    s.kind = plan.variant == "no_pyspy" ? "dataloader" : (raced ? "dataloader" : plan.variant);
    s.stopOp = opIdx;
    s.hasWork = false;
    s.lastEnqueued = plan.stuckSeq - 1;
    s.lastCompleted = plan.stuckSeq - 1;
    s.stallAt = (raced ? job.enqueueTime(r, first) + 30 * kMilli
                       : job.stepStart[static_cast<std::size_t>(h)] + 2 * kMilli);
    s.enqueueAt = -1;
    plan.forcedPyspyOff = plan.variant == "no_pyspy";
    plan.dumpOnTimeout = rng.chance(0.8);
    verdict(plan, job, "hang_diagnosed", "straggler_stall", { r }, true);
    static const std::pair<const char*, const char*> kWhy[] = {
        { "dataloader", "stalls in its DataLoader (a worker blocked on storage)" },
        { "checkpoint", "is still writing its checkpoint shard" },
        { "sleep", "sleeps in a retry loop waiting for a lock file" },
    };
    std::string why = "stalls in its DataLoader (a worker blocked on storage)";
    for (const auto& [k, w] : kWhy)
        if (s.kind == k)
            why = w;
    plan.notes = "Rank " + std::to_string(r) + " " + why + " and never enqueues collective #"
        + std::to_string(plan.stuckSeq) + " on PG 0; every other rank waits in it and times out.";
}

void planFrozen(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const Micros freeze = job.setupAt - rng.uniform(2, 6) * kSecond;
    plan.hangAt = freeze;
    plan.hasHang = true;
    for (int r = 0; r < job.world; ++r) {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.fate = Fate::Frozen;
        rp.stopOp = 0;
        rp.stallAt = freeze
            + Rng::derived(job.seed, "freeze", static_cast<std::uint64_t>(r)).uniform(0, 900)
                * kMilli;
        rp.lastEnqueued = -1;
        rp.lastCompleted = -1;
        rp.kind = plan.variant;
    }
    // The watchdog counts its heartbeat whether or not a collective is in flight; only a call
    // that never returns in the watchdog stops it. The logs show that it stopped, not why.
    verdict(plan, job, "inconclusive", "unknown", {}, false);
    plan.notes = plan.variant == "cuda_hang"
        ? "A CUDA call never returns in any process before the first collective (peer-to-peer "
          "copies over a PCIe path the IOMMU blocks); the NCCL watchdog thread blocks in its event "
          "query and the heartbeat monitor fires everywhere with no collective timed out. The logs "
          "say the watchdog stopped, not why: inconclusive."
        : "A helper thread holds the GIL inside a blocking CUDA call before the first collective; "
          "the NCCL watchdog thread waits for it and the heartbeat monitor fires everywhere with "
          "no collective timed out. The logs say the watchdog stopped, not why: inconclusive.";
}

void planCrashed(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const int h = pickHangStep(job, rng);
    const int r = rng.uniformInt(0, job.world - 1);
    const int opIdx = job.stepFirstOp[static_cast<std::size_t>(h)];
    allWait(job, plan, opIdx);
    RankPlan& c = plan.ranks[static_cast<std::size_t>(r)];
    c.hasWork = false;
    c.stopOp = opIdx;
    c.lastEnqueued = plan.stuckSeq - 1;
    c.lastCompleted = plan.stuckSeq - 1;
    c.kind = plan.variant;
    const Micros stepStart = job.stepStart[static_cast<std::size_t>(h)];
    if (plan.variant == "clean_exit") {
        c.fate = Fate::CleanExit;
        c.eventAt = stepStart - job.stepDuration / 20 + rng.uniform(2, 6) * kSecond / 10;
        c.stallAt = stepStart - job.stepDuration / 20;
        plan.earlyStopNote = true;
    } else {
        c.fate = Fate::Crashes;
        c.eventAt = stepStart + rng.uniform(5, 40) * kMilli;
        if (plan.variant == "host_oom_kill")
            plan.oomKilledRank = r;
    }
    plan.hangAt = c.eventAt;
    // A cross-node ring neighbour may see the dead peer's sockets close and fail early.
    const int next = job.ringNext(r, 0);
    if (plan.variant != "clean_exit"
        && job.ranks[static_cast<std::size_t>(next)].node
            != job.ranks[static_cast<std::size_t>(r)].node
        && rng.chance(0.4)) {
        RankPlan& n = plan.ranks[static_cast<std::size_t>(next)];
        n.fate = Fate::NetError;
        n.kind = "closed_by_peer";
        n.peer = r;
        n.eventAt = c.eventAt + rng.uniform(300, 4000) * kMilli;
        n.enqueueAt = std::min(n.enqueueAt, n.eventAt - kMilli);
    }
    verdict(plan, job, "hang_diagnosed", "rank_crashed", { r }, true);
    static const std::pair<const char*, const char*> kWhat[] = {
        { "exception", "raises a Python exception in its data pipeline and exits 1" },
        { "cuda_oom", "hits CUDA out of memory in forward and exits 1" },
        { "illegal_memory_access", "hits a CUDA illegal memory access and exits 1" },
        { "host_oom_kill", "is killed by the kernel OOM killer (SIGKILL)" },
        { "segfault", "dies of a segmentation fault (SIGSEGV)" },
        { "clean_exit", "leaves the training loop early (early stopping) and exits 0" },
    };
    std::string what;
    for (const auto& [k, w] : kWhat)
        if (plan.variant == k)
            what = w;
    plan.notes = "Rank " + std::to_string(r) + " " + what + " at step " + std::to_string(h)
        + "; its node's siblings are torn down or time out, every other rank times out in "
          "collective #"
        + std::to_string(plan.stuckSeq) + ".";
}

void planHardware(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const int h = pickHangStep(job, rng);
    const int lossIdx = job.stepFirstOp[static_cast<std::size_t>(h)] + 0;
    int opIdx = lossIdx;
    // The GPU dies between the gradient all-reduces and the step's final scalar all-reduce.
    for (int i = lossIdx; i < static_cast<int>(job.program.size()); ++i) {
        const Collective& c = job.program[static_cast<std::size_t>(i)];
        if (c.step != h)
            break;
        opIdx = i;
    }
    allWait(job, plan, opIdx);
    std::vector<int> culprits;
    const bool pair = plan.variant == "xid74_nvlink_pair";
    const int node = rng.uniformInt(0, job.nodes - 1);
    const int cnt = job.ranksOn(node);
    const int l1 = rng.uniformInt(0, std::max(0, cnt - 1));
    culprits.push_back(node * job.perNode + l1);
    if (pair) {
        const int l2 = (l1 + 1) % cnt;
        culprits.push_back(node * job.perNode + l2);
    }
    std::sort(culprits.begin(), culprits.end());
    Micros minEnq = -1;
    for (int r : culprits) {
        const Micros e = plan.ranks[static_cast<std::size_t>(r)].enqueueAt;
        minEnq = minEnq < 0 ? e : std::min(minEnq, e);
    }
    plan.xidAt = minEnq - rng.uniform(80, 900) * kMilli;
    plan.hangAt = plan.xidAt;
    plan.xidRanks = culprits;
    if (plan.variant == "xid79")
        plan.xid = 79;
    else if (plan.variant == "xid48")
        plan.xid = 48;
    else if (plan.variant == "xid_gsp119")
        plan.xid = 119;
    else if (plan.variant == "ecc_watchdog_cuda_error")
        plan.xid = rng.chance(0.5) ? 94 : 95;
    else
        plan.xid = 74;
    for (int r : culprits) {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        bool error = plan.variant == "xid48" || plan.variant == "ecc_watchdog_cuda_error";
        if (plan.variant == "xid79")
            error = rng.chance(0.4);
        if (error) {
            rp.fate = Fate::GpuError;
            rp.kind = plan.xid == 79 ? "unknown error" : "uncorrectable ECC error encountered";
            rp.eventAt = plan.xidAt + rng.uniform(150, 2500) * kMilli;
        } else {
            rp.fate = Fate::GpuHung;
            rp.heartbeatVariant = job.heartbeatSec > 0 && rng.chance(0.7);
        }
    }
    verdict(plan, job, "hang_diagnosed", "hardware_fault", culprits, true);
    if (pair)
        plan.verdict.stuckPair = std::make_pair(culprits[0], culprits[1]);
    std::string who = pair
        ? "ranks " + std::to_string(culprits[0]) + " and " + std::to_string(culprits[1])
        : "rank " + std::to_string(culprits[0]);
    static const std::pair<int, const char*> kWhat[] = {
        { 79, "falls off the bus (Xid 79)" },
        { 48, "reports a double-bit ECC error (Xid 48)" },
        { 119, "stops answering GSP RPCs (Xid 119)" },
        { 94, "reports a contained ECC error (Xid 94)" },
        { 95, "reports an uncontained ECC error (Xid 95)" },
        { 74, "lose their NVLink connection (Xid 74)" },
    };
    std::string what;
    for (const auto& [x, w] : kWhat)
        if (plan.xid == x)
            what = w;
    plan.notes = std::string("The GPU") + (pair ? "s" : "") + " of " + who + " on host "
        + job.hosts[static_cast<std::size_t>(node)].name + " " + what + " during step "
        + std::to_string(h) + "; every other rank waits in collective #"
        + std::to_string(plan.stuckSeq) + " and times out.";
}

// A cross-node ring edge of channel 0: (last rank of node n, first rank of node n+1).
std::pair<int, int> crossNodeEdge(const Job& job, int n)
{
    const std::vector<int> ring0 = job.ring(0);
    const int a = ring0[static_cast<std::size_t>(std::min((n + 1) * job.perNode, job.world) - 1)];
    const int b = job.ringNext(a, 0);
    return { a, b };
}

void planNetwork(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const int h = pickHangStep(job, rng);
    int opIdx = job.stepFirstOp[static_cast<std::size_t>(h)];
    for (int i = opIdx; i < static_cast<int>(job.program.size())
         && job.program[static_cast<std::size_t>(i)].step == h;
         ++i)
        opIdx = i;
    allWait(job, plan, opIdx);
    const int n = rng.uniformInt(0, job.nodes - 2);
    auto [a, b] = crossNodeEdge(job, n);
    RankPlan& pa = plan.ranks[static_cast<std::size_t>(a)];
    RankPlan& pb = plan.ranks[static_cast<std::size_t>(b)];
    pa.fate = Fate::NetError;
    pa.peer = b;
    pa.errorStatus = 12;
    pa.eventAt = pa.enqueueAt + rng.uniform(18, 75) * kSecond;
    pb.fate = Fate::NetError;
    pb.peer = a;
    pb.errorStatus = rng.chance(0.5) ? 12 : 5;
    pb.eventAt = pa.eventAt + rng.uniform(40, 2000) * kMilli;
    const std::string kind = plan.variant == "socket_closed" ? "socket" : "ib";
    pa.kind = kind;
    pb.kind = kind == "socket" ? "socket_closed" : "ib";
    plan.socketTransport = kind == "socket";
    plan.hangAt = pa.eventAt - 30 * kSecond;
    plan.linkDownNodes = { job.ranks[static_cast<std::size_t>(a)].node };
    plan.linkDownAt = pa.eventAt - rng.uniform(5, 25) * kSecond;
    verdict(plan, job, "hang_diagnosed", "network_pair", { a, b }, true);
    plan.verdict.stuckPair = std::make_pair(std::min(a, b), std::max(a, b));
    plan.notes = "The " + std::string(plan.socketTransport ? "TCP connection" : "InfiniBand link")
        + " between ring neighbours rank " + std::to_string(a) + " (" + job.hostOf(a).name
        + ") and rank " + std::to_string(b) + " (" + job.hostOf(b).name
        + ") fails during collective #" + std::to_string(plan.stuckSeq)
        + "; both report the peer, every other rank times out.";
}

void planConfiguration(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    if (plan.variant == "socket_ifname") {
        // NET/IB missing in the container, sockets to other hosts blocked: every cross-node
        // connection times out while the first communicator connects.
        plan.socketTransport = true;
        plan.hasHang = true;
        plan.hangAt = job.setupAt;
        for (int r = 0; r < job.world; ++r) {
            RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
            rp.stopOp = 0;
            rp.fate = Fate::InitWait;
        }
        for (int n = 0; n < job.nodes && job.nodes > 1; ++n) {
            auto [a, b] = crossNodeEdge(job, n);
            for (auto [x, y] : { std::pair { a, b }, std::pair { b, a } }) {
                RankPlan& rp = plan.ranks[static_cast<std::size_t>(x)];
                rp.fate = Fate::InitError;
                rp.kind = "socket_timeout";
                rp.peer = y;
                rp.eventAt
                    = job.setupAt + rng.uniform(125, 133) * kSecond + rng.uniform(0, 900) * kMilli;
            }
        }
        verdict(plan, job, "hang_diagnosed", "configuration", {}, false);
        plan.notes = "IB is not available in the container and sockets between hosts are blocked: "
                     "every host's connections to its ring peers time out while the first "
                     "communicator connects.";
        return;
    }
    const bool gid = plan.variant == "gid_mismatch";
    int opIdx = 0;
    if (!gid) {
        const int h = pickHangStep(job, rng);
        opIdx = job.stepFirstOp[static_cast<std::size_t>(h)];
        for (int i = opIdx; i < static_cast<int>(job.program.size())
             && job.program[static_cast<std::size_t>(i)].step == h;
             ++i)
            opIdx = i;
    }
    allWait(job, plan, opIdx);
    const Micros t0 = plan.hangAt + (gid ? rng.uniform(20, 40) : rng.uniform(5, 20)) * kSecond;
    for (int n = 0; n < job.nodes && job.nodes > 1; ++n) {
        auto [a, b] = crossNodeEdge(job, n);
        for (auto [x, y] : { std::pair { a, b }, std::pair { b, a } }) {
            RankPlan& rp = plan.ranks[static_cast<std::size_t>(x)];
            rp.fate = Fate::NetError;
            rp.kind = "ib";
            rp.peer = y;
            rp.errorStatus = 12;
            rp.eventAt = t0 + rng.uniform(0, 900) * kMilli;
        }
    }
    plan.linkDownNodes.clear();
    verdict(plan, job, "hang_diagnosed", "configuration", {}, false);
    plan.notes = gid ? "NCCL_IB_GID_INDEX points at a link-local RoCE GID: every host's queue "
                       "pairs fail with retry-exceeded toward every peer on the first collective."
                     : "NCCL_IB_TIMEOUT is set far too low: under load every host reports "
                       "retry-exceeded completions toward its peers within the same second.";
}

void planMismatch(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const int h = pickHangStep(job, rng);
    const int first = job.stepFirstOp[static_cast<std::size_t>(h)];
    int last = first;
    for (int i = first; i < static_cast<int>(job.program.size())
         && job.program[static_cast<std::size_t>(i)].step == h;
         ++i)
        last = i;
    const std::string& v = plan.variant;
    const int r = rng.uniformInt(0, job.world - 1);
    if (v == "algo_deadlock") {
        allWait(job, plan, last);
        verdict(plan, job, "hang_diagnosed", "collective_mismatch", {}, false);
        plan.notes = "Every rank enters collective #" + std::to_string(plan.stuckSeq)
            + " and NCCL deadlocks inside it under a forced protocol/algorithm; no rank is at "
              "fault.";
        return;
    }
    if (v == "numel_mismatch") {
        allWait(job, plan, last);
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.work.numelIn = rp.work.numelOut = rp.work.numelIn + 1;
        verdict(plan, job, "hang_diagnosed", "collective_mismatch", { r }, true);
        plan.notes = "Rank " + std::to_string(r)
            + " all-reduces one more metric than the others in collective #"
            + std::to_string(plan.stuckSeq) + " (NumelIn differs); everyone waits and times out.";
        return;
    }
    allWait(job, plan, first);
    plan.detailFingerprint = v == "op_mismatch" && rng.chance(0.25);
    if (v == "op_mismatch") {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.work.op = Op::Broadcast;
        rp.work.numelIn = rp.work.numelOut = 4;
        verdict(plan, job, "hang_diagnosed", "collective_mismatch", { r }, true);
        plan.notes = "Rank " + std::to_string(r) + " issues a BROADCAST at sequence #"
            + std::to_string(plan.stuckSeq)
            + " where every other rank issues an ALLREDUCE (code-path divergence).";
        if (plan.detailFingerprint) {
            for (int q = 0; q < job.world; ++q) {
                RankPlan& p = plan.ranks[static_cast<std::size_t>(q)];
                p.fate = Fate::Crashes;
                p.kind = "fingerprint";
                p.peer = r;
                p.eventAt = plan.hangAt
                    + Rng::derived(job.seed, "fp", static_cast<std::uint64_t>(q)).uniform(20, 600)
                        * kMilli;
                p.stopOp = first;
                p.hasWork = false;
            }
            plan.notes += " TORCH_DISTRIBUTED_DEBUG=DETAIL catches it before NCCL runs.";
        }
        return;
    }
    if (v == "subgroup_skip") {
        // The script keeps a second NCCL group over all ranks for metrics (new_group(); every
        // rank used it at setup, so its communicator exists). At step h a rank-conditional
        // branch (`if rank == r: log_metrics()`) makes rank r alone all-reduce its metrics on
        // that group and block on .item(); the others go on to PG 0's #S. Neither call can
        // ever complete: a deadlock across groups. Rank r is inside a collective, not busy in
        // Python, and its own watchdog names the metrics group's work.
        allWait(job, plan, first);
        plan.metricsPgId = job.tpSize > 0 ? 2 : 1;
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.stopOp = first;
        rp.work = Collective {};
        rp.work.pg = plan.metricsPgId;
        rp.work.seq = 2; // #1 was the setup call every rank made
        rp.work.op = Op::AllReduce;
        rp.work.numelIn = rp.work.numelOut = 4; // loss, grad norm, lr, tokens/s
        rp.work.cpuSync = true;
        rp.work.step = h;
        // The status counters of the failing group are the metrics group's.
        rp.lastEnqueued = 2;
        rp.lastCompleted = 1;
        verdict(plan, job, "hang_diagnosed", "collective_mismatch", { r }, true);
        plan.notes = "Rank " + std::to_string(r)
            + " alone all-reduces its metrics on process group " + std::to_string(plan.metricsPgId)
            + " (a rank-conditional log_metrics()) and waits there; every other rank waits in "
              "collective #"
            + std::to_string(plan.stuckSeq) + " on PG 0, which rank " + std::to_string(r)
            + " never enqueues.";
        return;
    }
    if (v == "extra_collective") {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.skipOp = first;
        // Its sequence number S is the step's next op; it keeps going until its own sync.
        const int realNext = first + 1;
        rp.work = job.program[static_cast<std::size_t>(realNext)];
        rp.work.seq = plan.stuckSeq;
        const int stop = syncIndexFrom(job, realNext) + 1;
        rp.stopOp = stop;
        rp.lastEnqueued = job.program[static_cast<std::size_t>(stop - 1)].seq - 1;
        rp.enqueueAt = job.enqueueTime(r, realNext) + hangJitter(job, r);
        verdict(plan, job, "hang_diagnosed", "collective_mismatch", { r }, true);
        plan.notes = "Rank " + std::to_string(r)
            + " skips the step's token-count all-reduce (rank-local branch), so its collective #"
            + std::to_string(plan.stuckSeq) + " is a different operation than everyone else's.";
        return;
    }
    // even_split: two equal camps.
    std::vector<int> order(static_cast<std::size_t>(job.world));
    for (int i = 0; i < job.world; ++i)
        order[static_cast<std::size_t>(i)] = i;
    for (int i = job.world - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)],
            order[static_cast<std::size_t>(rng.uniformInt(0, i))]);
    for (int i = 0; i < job.world / 2; ++i) {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
        rp.work.op = Op::Broadcast;
        rp.work.numelIn = rp.work.numelOut = 4;
    }
    verdict(plan, job, "hang_diagnosed", "collective_mismatch", {}, false);
    plan.notes = "Half of the ranks issue a BROADCAST and the other half an ALLREDUCE at sequence #"
        + std::to_string(plan.stuckSeq) + "; no single rank is the odd one out.";
}

void planResource(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    if (plan.variant == "shm_node_wide") {
        plan.shmNode = rng.uniformInt(0, job.nodes - 1);
        plan.hasHang = true;
        plan.hangAt = job.setupAt;
        std::vector<int> onNode;
        for (int r = 0; r < job.world; ++r) {
            RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
            rp.stopOp = 0;
            if (job.ranks[static_cast<std::size_t>(r)].node == plan.shmNode) {
                rp.fate = Fate::InitError;
                rp.kind = "shm";
                rp.eventAt = job.setupAt + rng.uniform(1500, 4000) * kMilli;
                onNode.push_back(r);
            } else {
                rp.fate = Fate::InitWait;
            }
        }
        verdict(plan, job, "hang_diagnosed", "resource_exhaustion", {}, false);
        plan.verdict.collateralRanks = allRanksExcept(job, onNode);
        plan.notes = "/dev/shm on host " + job.hosts[static_cast<std::size_t>(plan.shmNode)].name
            + " is too small: all its ranks fail to create NCCL shared-memory segments during the "
              "first communicator's init; the other hosts wait in init.";
        return;
    }
    const int h = pickHangStep(job, rng);
    const int r = rng.uniformInt(0, job.world - 1);
    plan.newPgId = job.tpSize > 0 ? 2 : 1;
    plan.newPgAt = job.stepStart[static_cast<std::size_t>(h)] + job.stepDuration / 3;
    plan.hasHang = true;
    plan.hangStep = h;
    plan.hangAt = plan.newPgAt;
    const int stop = job.stepFirstOp[static_cast<std::size_t>(h)] + 1;
    for (int q = 0; q < job.world; ++q) {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(q)];
        rp.fate = Fate::InitWait;
        rp.stopOp = stop;
        rp.lastEnqueued = job.program[static_cast<std::size_t>(stop - 1)].seq;
        rp.lastCompleted = rp.lastEnqueued;
    }
    RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
    rp.fate = Fate::InitError;
    rp.kind = plan.variant == "nccl_calloc" ? "calloc" : "cuda_oom";
    rp.eventAt = plan.newPgAt + rng.uniform(300, 1500) * kMilli;
    verdict(plan, job, "hang_diagnosed", "resource_exhaustion", { r }, true);
    plan.notes = "Rank " + std::to_string(r) + " runs out of GPU memory ("
        + std::string(
            plan.variant == "nccl_calloc" ? "NCCL cannot calloc its buffers" : "cudaMalloc fails")
        + ") while the evaluation sub-group's communicator initializes at step " + std::to_string(h)
        + "; the other ranks wait in that init forever.";
}

void planInit(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    plan.hasHang = true;
    plan.hangAt = job.setupAt;
    for (auto& rp : plan.ranks) {
        rp.stopOp = 0;
        rp.fate = Fate::InitWait;
    }
    if (plan.variant == "missing_rank") {
        const int r = rng.uniformInt(1, job.world - 1);
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
        rp.fate = Fate::InitMissing;
        rp.stallAt
            = job.ranks[static_cast<std::size_t>(r)].procStart + rng.uniform(6, 11) * kSecond;
        verdict(plan, job, "hang_diagnosed", "init_bootstrap", { r }, true);
        plan.notes = "Rank " + std::to_string(r)
            + " never reaches NCCL init (stuck in startup I/O); every other rank waits in Init "
              "START for the world communicator.";
        return;
    }
    if (plan.variant == "store_error") {
        RankPlan& z = plan.ranks[0];
        z.fate = Fate::Crashes;
        z.kind = "startup_exception";
        z.eventAt = job.setupAt - rng.uniform(3, 9) * kSecond;
        for (int q = 1; q < job.world; ++q) {
            RankPlan& rp = plan.ranks[static_cast<std::size_t>(q)];
            rp.fate = Fate::InitError;
            rp.kind = "store";
            rp.eventAt = -1; // decided by the timeline: when the store goes away
        }
        verdict(plan, job, "hang_diagnosed", "init_bootstrap", { 0 }, true);
        plan.notes = "Rank 0 crashes during startup before publishing the ncclUniqueId; the other "
                     "ranks fail retrieving it from the c10d store.";
        return;
    }
    // ifname
    plan.badIfname = rng.chance(0.5) ? "ib1" : "enp1s0f1";
    for (int q = 0; q < job.world; ++q) {
        RankPlan& rp = plan.ranks[static_cast<std::size_t>(q)];
        rp.fate = Fate::InitError;
        rp.kind = "ifname";
        rp.eventAt = job.setupAt
            + Rng::derived(job.seed, "ifn", static_cast<std::uint64_t>(q)).uniform(50, 400)
                * kMilli;
    }
    // The job hangs in bootstrap, but the cause is the environment: public threads with this
    // signature ("no socket interface found", NCCL_SOCKET_IFNAME naming a missing device) are
    // resolved by fixing the variable, so the class is configuration.
    verdict(plan, job, "hang_diagnosed", "configuration", {}, false);
    plan.notes = "NCCL_SOCKET_IFNAME names an interface (" + plan.badIfname
        + ") that does not exist on any host: bootstrap finds no socket interface on every rank.";
}

void planSilent(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    const int h = pickHangStep(job, rng);
    const int r = rng.uniformInt(0, job.world - 1);
    const int opIdx = job.stepFirstOp[static_cast<std::size_t>(h)];
    allWait(job, plan, opIdx);
    RankPlan& rp = plan.ranks[static_cast<std::size_t>(r)];
    rp.fate = Fate::Silent;
    rp.hasWork = false;
    rp.stopOp = opIdx;
    rp.lastEnqueued = -1;
    rp.stallAt = job.stepStart[static_cast<std::size_t>(h)] - job.stepDuration / 10;
    plan.forcedPyspyOff = false;
    verdict(plan, job, "hang_diagnosed", "unknown", { r }, true);
    plan.notes = "Rank " + std::to_string(r) + "'s output simply stops after step "
        + std::to_string(h - 1)
        + " (no error, no watchdog line); every other rank times out in collective #"
        + std::to_string(plan.stuckSeq) + ".";
}

void planAllEntered(const Job& job, ScenarioPlan& plan, Rng& rng, bool excerpt)
{
    const int h = pickHangStep(job, rng);
    int opIdx = job.stepFirstOp[static_cast<std::size_t>(h)];
    for (int i = opIdx; i < static_cast<int>(job.program.size())
         && job.program[static_cast<std::size_t>(i)].step == h;
         ++i)
        opIdx = i;
    allWait(job, plan, opIdx);
    verdict(plan, job, "inconclusive", "unknown", {}, false);
    if (excerpt) {
        plan.excerpt = true;
        const int k = std::min(job.world, rng.uniformInt(2, 3));
        std::vector<int> picked;
        while (static_cast<int>(picked.size()) < k) {
            const int r = rng.uniformInt(0, job.world - 1);
            if (std::find(picked.begin(), picked.end(), r) == picked.end())
                picked.push_back(r);
        }
        std::sort(picked.begin(), picked.end());
        plan.excerptRanks = picked;
        plan.worldSizeVisible.reset();
        plan.notes = "A pasted excerpt with the watchdog timeouts of " + std::to_string(k)
            + " ranks only; nothing shows the world size or what the other ranks did.";
    } else {
        plan.notes = "Every rank enters collective #" + std::to_string(plan.stuckSeq)
            + " and times out; NCCL_DEBUG is off and nothing else is logged, so nothing identifies "
              "a culprit.";
    }
}

// The injected hang is one of the plain ones above; what changes is how much of its output
// reached the bundle.
void planPartial(const Job& job, ScenarioPlan& plan, Rng& rng)
{
    if (plan.variant == "missing_rank_file") {
        // Every rank entered #S and waits (an NCCL-internal hang, nothing names a culprit),
        // and one rank's output was never collected. Its absence says nothing about it: the
        // ranks that are present all sit inside #S, so the bundle cannot tell whether the
        // missing rank is the one that never arrived or one more waiter.
        planAllEntered(job, plan, rng, false);
        const int lost = rng.uniformInt(0, job.world - 1);
        plan.lostRanks = { lost };
        plan.notes = "Every rank enters collective #" + std::to_string(plan.stuckSeq)
            + " and times out; rank " + std::to_string(lost)
            + "'s output is missing from the bundle, and its absence is no evidence about it.";
        return;
    }
    // cut_mid_line: a straggler whose bundle was copied with a byte budget; every rank's
    // output ends half-way through its last line. Everything before that line still says
    // who stalled.
    plan.variant = "dataloader";
    planStraggler(job, plan, rng);
    plan.variant = "cut_mid_line";
    plan.cutMidLine = true;
    plan.notes += " Every rank's output is cut half-way through its last line.";
}

} // namespace

ScenarioPlan planScenario(const Job& job, const std::string& scenario, const std::string& variant)
{
    ScenarioPlan plan;
    plan.scenario = scenario;
    plan.variant = variant;
    plan.worldSizeVisible = job.world;
    plan.ranks.resize(static_cast<std::size_t>(job.world));
    plan.nodes.resize(static_cast<std::size_t>(job.nodes));
    Rng rng = Rng::derived(job.seed, "scenario");
    if (scenario == "healthy")
        planHealthy(job, plan, rng);
    else if (scenario == "straggler_stall")
        planStraggler(job, plan, rng);
    else if (scenario == "frozen_job")
        planFrozen(job, plan, rng);
    else if (scenario == "rank_crashed")
        planCrashed(job, plan, rng);
    else if (scenario == "hardware_fault")
        planHardware(job, plan, rng);
    else if (scenario == "network_pair")
        planNetwork(job, plan, rng);
    else if (scenario == "configuration")
        planConfiguration(job, plan, rng);
    else if (scenario == "collective_mismatch")
        planMismatch(job, plan, rng);
    else if (scenario == "resource_exhaustion")
        planResource(job, plan, rng);
    else if (scenario == "init_bootstrap")
        planInit(job, plan, rng);
    else if (scenario == "silent_rank")
        planSilent(job, plan, rng);
    else if (scenario == "partial_bundle")
        planPartial(job, plan, rng);
    else if (scenario == "excerpt_only")
        planAllEntered(job, plan, rng, true);
    else
        planAllEntered(job, plan, rng, false);
    return plan;
}

// ---------------------------------------------------------------------------------------
// Timeline

namespace {

enum class Ev : std::uint8_t {
    Signal,
    Timeout,
    DumpPoll,
    Heartbeat,
    Fatal,
    Death,
    AgentPoll,
    SrunKill,
    StoreGone
};

struct Event {
    Micros t;
    Ev kind;
    int who; // rank or node
    int code;
    std::uint64_t order;
    bool operator>(const Event& o) const
    {
        if (t != o.t)
            return t > o.t;
        return order > o.order;
    }
};

class Timeline {
public:
    Timeline(const Job& job, ScenarioPlan& plan)
        : m_job(job)
        , m_plan(plan)
    {
        m_alive.assign(static_cast<std::size_t>(job.world), true);
    }

    void run();

private:
    void push(Micros t, Ev kind, int who, int code = 0)
    {
        m_queue.push({ t, kind, who, code, m_order++ });
    }
    Rng rankRng(std::string_view what, int r) const
    {
        return Rng::derived(m_job.seed, what, static_cast<std::uint64_t>(r));
    }
    RankPlan& rp(int r) { return m_plan.ranks[static_cast<std::size_t>(r)]; }
    void schedule();
    void signalSource(int r, Micros t);
    void death(int r, Micros t, int code, bool byLauncher);
    void agentPoll(int node, Micros t);
    void finish();
    bool hasMonitor(int r) const;

    const Job& m_job;
    ScenarioPlan& m_plan;
    std::vector<bool> m_alive;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> m_queue;
    std::uint64_t m_order = 0;
};

bool Timeline::hasMonitor(int r) const
{
    const Fate f = m_plan.ranks[static_cast<std::size_t>(r)].fate;
    return f != Fate::Silent && f != Fate::InitMissing && f != Fate::Crashes
        && f != Fate::CleanExit;
}

void Timeline::schedule()
{
    const Micros timeout = static_cast<Micros>(m_job.timeoutMs) * kMilli;
    const Micros hb = static_cast<Micros>(m_job.heartbeatSec) * kSecond;
    for (int r = 0; r < m_job.world; ++r) {
        RankPlan& p = rp(r);
        Rng rr = rankRng("timeline", r);
        switch (p.fate) {
        case Fate::Waits:
            push(p.enqueueAt + timeout + rr.uniform(5, 99) * kMilli, Ev::Timeout, r);
            break;
        case Fate::GpuHung:
            if (p.heartbeatVariant && hb > 0)
                push(m_plan.hangAt + hb + rr.uniform(100, 900) * kMilli, Ev::Heartbeat, r);
            break;
        case Fate::GpuError:
        case Fate::NetError:
            push(p.eventAt, Ev::Signal, r);
            push(p.eventAt + rr.uniform(300, 1500) * kMilli, Ev::Death, r, -6);
            break;
        case Fate::Crashes: {
            int code = 1;
            if (p.kind == "host_oom_kill")
                code = -9;
            else if (p.kind == "segfault")
                code = -11;
            // A Python exception unwinds and runs atexit handlers before the process is gone.
            const Micros unwind = code == 1 ? rr.uniform(350, 900) * kMilli : 0;
            push(p.eventAt + unwind, Ev::Death, r, code);
            if (p.kind == "startup_exception")
                push(p.eventAt, Ev::StoreGone, r);
            break;
        }
        case Fate::CleanExit:
            push(p.eventAt, Ev::Death, r, 0);
            break;
        case Fate::InitError:
            if (p.eventAt >= 0)
                push(p.eventAt + rr.uniform(100, 600) * kMilli, Ev::Death, r, 1);
            break;
        case Fate::Frozen:
            if (hb > 0)
                push(p.stallAt + hb + rr.uniform(0, 3000) * kMilli, Ev::Heartbeat, r);
            break;
        case Fate::Completes:
            push(m_plan.trainingEndAt + rr.uniform(1500, 6000) * kMilli, Ev::Death, r, 0);
            break;
        default:
            break;
        }
    }
}

void Timeline::signalSource(int r, Micros t)
{
    if (!m_job.torch.dumpSignals || !m_plan.dumpOnTimeout)
        return;
    RankPlan& p = rp(r);
    if (p.dumpFrom == -2) {
        p.dumpFrom = -1;
        p.dumpSignalAt = t + 2 * kMilli;
    }
    if (m_plan.firstSignalRank >= 0)
        return;
    m_plan.firstSignalRank = r;
    m_plan.firstSignalAt = t;
    for (int q = 0; q < m_job.world; ++q) {
        if (q == r || !m_alive[static_cast<std::size_t>(q)] || !hasMonitor(q))
            continue;
        push(t + rankRng("dumppoll", q).uniform(40, 1000) * kMilli, Ev::DumpPoll, q);
    }
}

void Timeline::death(int r, Micros t, int code, bool byLauncher)
{
    if (!m_alive[static_cast<std::size_t>(r)])
        return;
    m_alive[static_cast<std::size_t>(r)] = false;
    RankPlan& p = rp(r);
    p.deathAt = t;
    p.exitCode = code;
    p.killedByLauncher = byLauncher;
    if (byLauncher || code == 0)
        return;
    const int node = m_job.ranks[static_cast<std::size_t>(r)].node;
    if (m_job.launcher == Launcher::Torchrun) {
        NodeOutcome& n = m_plan.nodes[static_cast<std::size_t>(node)];
        if (n.pollAt < 0) {
            const Micros interval = static_cast<Micros>(m_job.monitorIntervalMs) * kMilli;
            const Micros start = m_job.hosts[static_cast<std::size_t>(node)].agentStart;
            const Micros k = (t - start) / interval + 1;
            n.pollAt = start + k * interval + rankRng("poll", node).uniform(100, 4000);
            push(n.pollAt, Ev::AgentPoll, node);
        }
    } else if (m_job.killOnBadExit && m_plan.stepKilledAt < 0) {
        m_plan.stepKilledAt = t + rankRng("srunkill", r).uniform(60, 400) * kMilli;
        push(m_plan.stepKilledAt, Ev::SrunKill, 0);
    }
}

void Timeline::agentPoll(int node, Micros t)
{
    NodeOutcome& n = m_plan.nodes[static_cast<std::size_t>(node)];
    const int first = m_job.firstRankOf(node);
    const int cnt = m_job.ranksOn(node);
    for (int r = first; r < first + cnt; ++r) {
        const RankPlan& p = rp(r);
        if (!m_alive[static_cast<std::size_t>(r)] && p.exitCode != 0 && !p.killedByLauncher
            && p.deathAt <= t)
            n.failed.push_back(r);
    }
    for (int r = first; r < first + cnt; ++r) {
        if (!m_alive[static_cast<std::size_t>(r)])
            continue;
        n.terminated.push_back(r);
        RankPlan& p = rp(r);
        const bool stuck = p.fate == Fate::GpuHung || p.fate == Fate::Silent;
        if (stuck) {
            n.sigkilled.push_back(r);
            p.sigkillAfterTerm = true;
            death(r, t + 30 * kSecond + rankRng("sigkill", r).uniform(1, 40) * kMilli, -9, true);
        } else {
            death(r, t + rankRng("sigterm", r).uniform(4, 90) * kMilli, -15, true);
        }
    }
    n.finishedAt = t + (n.sigkilled.empty() ? 200 * kMilli : 30 * kSecond + 300 * kMilli);
}

void Timeline::run()
{
    schedule();
    while (!m_queue.empty()) {
        const Event e = m_queue.top();
        m_queue.pop();
        const int r = e.who;
        switch (e.kind) {
        case Ev::Signal:
            // NCCL async errors go through the watchdog's exception path and trigger the
            // dump; a sticky CUDA error is thrown straight out of the watchdog loop.
            if (m_alive[static_cast<std::size_t>(r)] && rp(r).fate == Fate::NetError)
                signalSource(r, e.t);
            break;
        case Ev::Timeout: {
            if (!m_alive[static_cast<std::size_t>(r)])
                break;
            RankPlan& p = rp(r);
            p.timeoutAt = e.t;
            const bool dumps = m_job.torch.dumpSignals && m_plan.dumpOnTimeout;
            const bool dumpedAlready = p.dumpFrom >= 0;
            signalSource(r, e.t);
            Rng rr = rankRng("abort", r);
            const Micros delay = dumps
                ? (dumpedAlready ? rr.uniform(60, 250) : rr.uniform(400, 1600)) * kMilli
                : rr.uniform(5, 60) * kMilli;
            push(e.t + delay, Ev::Death, r, -6);
            break;
        }
        case Ev::DumpPoll: {
            RankPlan& p = rp(r);
            if (!m_alive[static_cast<std::size_t>(r)] || p.dumpFrom != -2 || p.heartbeatAt >= 0)
                break;
            p.dumpFrom = m_plan.firstSignalRank;
            p.dumpSignalAt = e.t;
            const bool lingers = p.fate == Fate::NeverEnters || p.fate == Fate::GpuHung
                || p.fate == Fate::InitWait || p.fate == Fate::Running;
            if (lingers && m_job.heartbeatSec > 0)
                push(e.t + static_cast<Micros>(m_job.heartbeatSec) * kSecond
                        + rankRng("linger", r).uniform(1000, 15000) * kMilli,
                    Ev::Fatal, r);
            break;
        }
        case Ev::Heartbeat: {
            RankPlan& p = rp(r);
            if (!m_alive[static_cast<std::size_t>(r)] || p.dumpFrom != -2)
                break;
            p.heartbeatAt = e.t;
            Rng rr = rankRng("hbfatal", r);
            const Micros wait = m_job.torch.order <= 220
                ? rr.uniform(1000, 15000) * kMilli
                : static_cast<Micros>(m_job.heartbeatSec) * kSecond
                    + rr.uniform(1000, 15000) * kMilli;
            push(e.t + wait, Ev::Fatal, r);
            break;
        }
        case Ev::Fatal:
            if (m_alive[static_cast<std::size_t>(r)]) {
                rp(r).fatalAt = e.t;
                push(e.t + 12 * kMilli, Ev::Death, r, -6);
            }
            break;
        case Ev::Death:
            death(r, e.t, e.code, false);
            break;
        case Ev::AgentPoll:
            agentPoll(r, e.t);
            break;
        case Ev::SrunKill:
            for (int q = 0; q < m_job.world; ++q)
                if (m_alive[static_cast<std::size_t>(q)])
                    death(q, e.t + rankRng("srunterm", q).uniform(10, 200) * kMilli, -15, true);
            break;
        case Ev::StoreGone: {
            // The c10d store lives in the torchrun agent of node 0 (or in rank 0 itself
            // under srun); it disappears when that process exits.
            Micros gone = e.t + 50 * kMilli;
            if (m_job.launcher == Launcher::Torchrun) {
                const Micros interval = static_cast<Micros>(m_job.monitorIntervalMs) * kMilli;
                const Micros start = m_job.hosts[0].agentStart;
                gone = start + ((e.t - start) / interval + 1) * interval + 600 * kMilli;
            }
            for (int q = 0; q < m_job.world; ++q) {
                RankPlan& p = rp(q);
                if (p.fate == Fate::InitError && p.kind == "store"
                    && m_job.ranks[static_cast<std::size_t>(q)].node != 0) {
                    p.eventAt = gone + rankRng("store", q).uniform(5, 300) * kMilli;
                    push(p.eventAt + rankRng("storedeath", q).uniform(100, 500) * kMilli, Ev::Death,
                        q, 1);
                } else if (p.fate == Fate::InitError && p.kind == "store"
                    && m_job.launcher == Launcher::Srun) {
                    p.eventAt = gone + rankRng("store", q).uniform(5, 300) * kMilli;
                    push(p.eventAt + rankRng("storedeath", q).uniform(100, 500) * kMilli, Ev::Death,
                        q, 1);
                }
            }
            break;
        }
        }
    }
    finish();
}

void Timeline::finish()
{
    Micros lastDeath = -1;
    bool anyAlive = false;
    for (int r = 0; r < m_job.world; ++r) {
        const RankPlan& p = rp(r);
        if (m_alive[static_cast<std::size_t>(r)])
            anyAlive = p.fate != Fate::Running ? true : anyAlive;
        else
            lastDeath = std::max(lastDeath, p.deathAt);
    }
    Rng rr = Rng::derived(m_job.seed, "collect");
    if (m_plan.collectAt <= 0) {
        if (anyAlive) {
            const Micros base = std::max(lastDeath, m_plan.hangAt + 20 * kMinute);
            m_plan.collectAt = base + rr.uniform(60, 900) * kSecond;
            m_plan.timeLimit = m_job.launcher == Launcher::Srun;
        } else {
            m_plan.collectAt = std::max(lastDeath, m_plan.hangAt) + rr.uniform(20, 150) * kSecond;
        }
    }
    for (int r = 0; r < m_job.world; ++r) {
        RankPlan& p = rp(r);
        if (p.deathAt > m_plan.collectAt) {
            p.deathAt = -1;
            p.exitCode = 0;
            p.killedByLauncher = false;
        }
        p.logEnd = p.deathAt >= 0 ? p.deathAt : m_plan.collectAt;
    }
    // Nodes whose workers all exited 0.
    for (int n = 0; n < m_job.nodes; ++n) {
        NodeOutcome& o = m_plan.nodes[static_cast<std::size_t>(n)];
        bool ok = true;
        Micros last = 0;
        for (int r = m_job.firstRankOf(n); r < m_job.firstRankOf(n) + m_job.ranksOn(n); ++r) {
            const RankPlan& p = rp(r);
            ok = ok && p.deathAt >= 0 && p.exitCode == 0;
            last = std::max(last, p.deathAt);
        }
        if (ok && o.pollAt < 0) {
            o.succeeded = true;
            o.finishedAt = last + static_cast<Micros>(m_job.monitorIntervalMs) * kMilli;
        }
    }
    // py-spy: the operator notices the stall and dumps every live process before the
    // watchdogs fire.
    if (m_plan.hasHang) {
        Micros firstDeath = -1;
        for (const auto& p : m_plan.ranks)
            if (p.deathAt >= 0 && p.exitCode != 0 && !p.killedByLauncher)
                firstDeath = firstDeath < 0 ? p.deathAt : std::min(firstDeath, p.deathAt);
        Micros at = m_plan.hangAt + rr.uniform(150, 400) * kSecond;
        const Micros firstTimeout = m_plan.hangAt + static_cast<Micros>(m_job.timeoutMs) * kMilli;
        at = std::min(at, firstTimeout - 40 * kSecond);
        m_plan.pyspyAt = std::min(at, m_plan.collectAt - kSecond);
        (void)firstDeath;
    }
}

} // namespace

void simulateTimeline(const Job& job, ScenarioPlan& plan)
{
    Timeline t(job, plan);
    t.run();
}

} // namespace rankscope::simulator
