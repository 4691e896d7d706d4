#include "model/diagnosis/facts.h"

#include "model/rankresolver.h"
#include "model/xidcatalogue.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <thread>

namespace rankscope::model {

bool comparableTimes(const TimePoint& a, const TimePoint& b)
{
    if (!a.valid() || !b.valid())
        return false;
    const bool aWall = a.domain == TimeDomain::LocalWall || a.domain == TimeDomain::LocalWallNoYear;
    const bool bWall = b.domain == TimeDomain::LocalWall || b.domain == TimeDomain::LocalWallNoYear;
    return (aWall && bWall && a.domain == b.domain) || (a.domain == b.domain && a.domain == TimeDomain::Utc);
}

bool earlierThan(const TimePoint& a, const TimePoint& b)
{
    return comparableTimes(a, b) && wholeSeconds(a) < wholeSeconds(b);
}

namespace {

bool containsAny(std::string_view text, std::initializer_list<std::string_view> needles)
{
    for (auto n : needles)
        if (text.find(n) != std::string_view::npos)
            return true;
    return false;
}

} // namespace

// CUDA errors that mean the GPU itself is gone or broken ([formats 9], [formats 11] A), as opposed to a
// kernel bug of the application (illegal memory access, device-side assert).
bool isCudaStickyText(std::string_view text)
{
    return containsAny(text, { "CUDA error: unknown error", "uncorrectable ECC", "ECC error", "GPU has fallen off",
        "GPU is lost", "Cuda failure 999", "Xid" });
}

// Messages of a failed allocation: CUDA OOM, NCCL's calloc/malloc, /dev/shm.
bool isResourceText(std::string_view text)
{
    return containsAny(text, { "out of memory", "Failed to CUDA calloc", "Failed to CUDA malloc", "/dev/shm",
        "shared memory", "OutOfMemoryError", "cudaErrorMemoryAllocation" });
}

// NCCL's own warning that it could not create, extend or open a /dev/shm segment
// (shmutils.cc, shm.h), as a WARN line or quoted after PyTorch's "Last error:".
bool isNcclShmText(std::string_view text)
{
    return containsAny(text, { "/dev/shm", "shared memory segment", "posix_fallocate", "unable to allocate shared memory" });
}

// ATen's MapAllocator names the file it could not write; torch's shared-memory files are
// "/torch_<pid>_<random>[_<n>]", created with shm_open in /dev/shm. Older releases print the
// same without the errno ("… </torch_76_3625483894> at /pytorch/aten/src/TH/THAllocator.c:383").
// multiprocessing.synchronize.SemLock calls sem_open, which creates "/dev/shm/sem.*": "OSError:
// [Errno 28] No space left on device" raised there (a Queue's or a Lock's semaphore) is the same
// full tmpfs, told by the traceback's innermost frame.
bool isShmFullPythonException(const Bundle& bundle, const Event& e)
{
    if (e.kind != EventKind::PythonException)
        return false;
    const std::string_view text = bundle.text(e.text);
    if (text.find("unable to write to file </torch_") != std::string_view::npos)
        return true;
    if (text.find("No space left on device") == std::string_view::npos)
        return false;
    for (const PythonTraceback& t : bundle.tracebacks)
        if (t.exceptionLine == e.evidence)
            return !t.frames.empty() && bundle.text(t.frames.back().file).ends_with("multiprocessing/synchronize.py");
    return false;
}

namespace {

// A host memory kill of the job's own processes, not of a daemon or another user's tool: Ray's
// memory monitor or Slurm's cgroup limit (they kill only the job's workers), or the kernel's OOM
// killer naming a process of the job (its comm, 15 bytes at most).
bool killedJobProcess(std::string_view detail)
{
    return detail == kOomByRayMonitor || detail == kOomBySlurmCgroup || detail.starts_with("python")
        || detail.starts_with("pt_main_thread") || detail.starts_with("pt_data_worker")
        || detail.starts_with("ray::") || detail == "torchrun" || detail == "deepspeed";
}

// A worker's exit code that is its own failure: 1 and up (a Python exception, sys.exit), -9
// (SIGKILL: the OOM killer), -11 (SIGSEGV), -7 (SIGBUS). -6 is the watchdog's abort and -15
// the agent's kill: reactions to someone else's failure. A rank whose own lines show it only
// reacted to another failure (a timeout, a store error, a remote error) exits 1 too; the
// rules weigh its lines, the exit code alone proves nothing.
bool isOwnFailureExit(std::int32_t code)
{
    // A worker the launcher says died (Ray's RayActorError) ended on its own too.
    return code > 0 || code == -9 || code == -11 || code == -7 || code == kExitCodeUnknown;
}

// c10d store waits (ProcessGroupNCCL::broadcastUniqueNCCLID, TCPStore, the store-based
// barrier): the process waited for another that never came.
bool isStoreWait(std::string_view message)
{
    return containsAny(message, { "store->get(", "waitForInput", "Socket Timeout", "Wait timeout",
        "Timed out initializing process group in store based barrier" });
}

// A Python exception that is only the echo of a collective failure elsewhere
// ([formats 1.4] d–h, [formats 5]): the watchdog's own exception, an aborted communicator, a remote error.
bool isConsequence(std::string_view type, std::string_view message)
{
    return containsAny(message, { "Watchdog caught collective operation timeout", "communicator was aborted",
               "Some NCCL operations have failed", "remote process exited", "ncclRemoteError",
               "Connection closed by", "Connection reset by peer", "watchdog thread terminated",
               "timed out in blocking wait", "got signal: 15", "got signal: 1" })
        || isStoreWait(message)
        || containsAny(type, { "ChildFailedError", "SignalException", "KeyboardInterrupt" });
}



std::string peerAddressOnly(std::string_view peer)
{
    const auto lt = peer.find('<');
    std::string_view p = lt == std::string_view::npos ? peer : peer.substr(0, lt);
    if (p.starts_with("::ffff:"))
        p.remove_prefix(7);
    return std::string(p);
}

bool isNumericAddress(std::string_view s)
{
    return !s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || s.find(':') != std::string_view::npos);
}

class FactCollector {
public:
    explicit FactCollector(const Bundle& b)
        : m_b(b)
    {
        m_f.ranks.resize(b.ranks.size());
        for (std::size_t r = 0; r < b.ranks.size(); ++r) {
            RankFacts& rf = m_f.ranks[r];
            rf.rank = static_cast<std::int32_t>(r);
            rf.hasSourceFile = !b.ranks[r].sources.empty();
            rf.hasLogs = b.ranks[r].seen;
            for (SourceId s : b.ranks[r].sources)
                if (const Source* src = b.source(s))
                    rf.lineCount += src->lines;
            const RankInfo& info = b.ranks[r];
            const std::string host = info.host != kNoStr ? std::string(b.text(info.host)) : std::string();
            if (!host.empty()) {
                m_ranksOnHost[host].push_back(static_cast<std::int32_t>(r));
                if (info.localRank >= 0)
                    m_byHostLocal[{ host, info.localRank }] = static_cast<std::int32_t>(r);
                if (info.busId != kNoStr)
                    m_byHostBus[{ host, std::string(b.text(info.busId)) }] = static_cast<std::int32_t>(r);
            }
            if (info.pid >= 0)
                m_byPid[info.pid].push_back(static_cast<std::int32_t>(r));
            if (info.busId != kNoStr)
                m_byBus[std::string(b.text(info.busId))].push_back(static_cast<std::int32_t>(r));
            for (StrId ip : info.ips)
                m_byIp[std::string(b.text(ip))].push_back(static_cast<std::int32_t>(r));
        }
        findWorldComm();
        m_torchrunAgents = !b.workerGroups.empty();
        for (const auto& e : b.events)
            if (e.kind == EventKind::LauncherWorkerFailed || e.kind == EventKind::LauncherSignalSent
                || e.kind == EventKind::LauncherFailureRecord)
                m_torchrunAgents = true;
    }

    DiagnosisFacts run()
    {
        scanEvents();
        judgeApplicationXids();
        attributeUnmappedTeardowns();
        discountTransportFailures();
        judgeLauncherFailures();
        scanRecords();
        buildPgFacts();
        chooseStuckPg();
        mapLinkErrors();
        return std::move(m_f);
    }

private:
    void findWorldComm()
    {
        if (!m_b.world.worldSize)
            return;
        std::map<StrId, int> count;
        for (const auto& c : m_b.commInits)
            if (c.nranks == *m_b.world.worldSize && c.commId != kNoStr)
                ++count[c.commId];
        int best = 0;
        for (const auto& [id, n] : count)
            if (n > best) {
                best = n;
                m_worldComm = id;
            }
    }

    std::string hostOfEvent(const Event& e) const
    {
        const RawIdentity& id = m_b.identities[e.identity];
        if (id.host != kNoStr)
            return shortHostName(m_b.text(id.host));
        const Source* src = m_b.source(id.source);
        return src && !src->pathIdentity.host.empty() ? shortHostName(src->pathIdentity.host) : std::string();
    }

    std::int32_t rankByPid(std::int32_t pid, const std::string& host) const
    {
        auto it = m_byPid.find(pid);
        if (it == m_byPid.end())
            return -1;
        if (it->second.size() == 1)
            return it->second.front();
        for (std::int32_t r : it->second)
            if (m_b.ranks[r].host != kNoStr && m_b.text(m_b.ranks[r].host) == host)
                return r;
        return -1;
    }

    // Xid (PCI:0000:7e:00) → the rank whose NCCL init line printed that busId, on that host.
    std::int32_t rankByBus(const std::string& bus, const std::string& host) const
    {
        if (!host.empty()) {
            auto it = m_byHostBus.find({ host, bus });
            return it == m_byHostBus.end() ? -1 : it->second;
        }
        auto it = m_byBus.find(bus);
        return it != m_byBus.end() && it->second.size() == 1 ? it->second.front() : -1;
    }

    void primary(RankFacts& rf, std::uint32_t index, bool resource)
    {
        const Event& e = m_b.events[index];
        if (rf.primaryFailure == kNoIndex || earlierThan(e.time, rf.primaryFailureTime)) {
            rf.primaryFailure = index;
            rf.primaryFailureTime = e.time;
        }
        if (resource) {
            rf.failureIsResource = true;
            rf.resourceEvents.push_back(index);
        }
    }

    // An application Xid kills the CUDA context of the process whose kernel faulted; a rank of
    // the job hit by it then logs a CUDA error of its own ("an illegal memory access was
    // encountered") or stops, and its peers time out. So with the ranks' own logs in the bundle
    // and none of that in them, the Xid belonged to another process (the kernel's pid is in
    // the host's namespace, not the container's, so it cannot be compared). With no rank's log
    // at all, nothing tells, and the Xid stays a failure worth an inconclusive verdict.
    void judgeApplicationXids()
    {
        if (m_f.applicationXids.empty())
            return;
        const bool anyRankLog = std::any_of(m_f.ranks.begin(), m_f.ranks.end(), [](const RankFacts& rf) { return rf.hasLogs; });
        if (!anyRankLog)
            m_f.anyFailure = true;
    }

    void scanEvents()
    {
        for (std::uint32_t i = 0; i < m_b.events.size(); ++i) {
            const Event& e = m_b.events[i];
            if (e.severity >= Severity::Error)
                m_f.anyFailure = true;
            if (e.rank < 0) {
                if (isCollectiveTimeout(e)) {
                    m_f.anyTimeout = true;
                    ++m_f.unrankedTimeouts;
                }
                hostLevelEvent(i, e);
                continue;
            }
            if (static_cast<std::size_t>(e.rank) >= m_f.ranks.size())
                continue;
            RankFacts& rf = m_f.ranks[e.rank];
            rf.lastEvent = i;
            const std::string_view text = m_b.text(e.text);
            const std::string_view detail = m_b.text(e.detail);
            if (isCollectiveTimeout(e)) {
                m_f.anyTimeout = true;
                rf.anyTimeout = true;
                rf.waited = true;
                if (rf.firstTimeoutEvent == kNoIndex || earlierThan(e.time, rf.firstTimeoutTime)) {
                    rf.firstTimeoutEvent = i;
                    rf.firstTimeoutTime = e.time;
                }
                if (!m_f.firstTimeout.valid() || earlierThan(e.time, m_f.firstTimeout))
                    m_f.firstTimeout = e.time;
            }
            switch (e.kind) {
            case EventKind::PythonException:
                if (!isConsequence(detail, text))
                    primary(rf, i, isResourceText(text) || isResourceText(detail));
                else {
                    m_consequence.insert(e.rank);
                    rf.waited = rf.waited || isStoreWait(text);
                }
                if (isShmFullPythonException(m_b, e))
                    m_f.shmEvents.push_back(i);
                break;
            case EventKind::CudaOutOfMemory:
                primary(rf, i, true);
                break;
            case EventKind::CudaError:
                primary(rf, i, false);
                if (isCudaStickyText(text) && rf.cudaStickyError == kNoIndex)
                    rf.cudaStickyError = i;
                break;
            case EventKind::FatalSignal:
                // SIGABRT is how the watchdog takes a timed-out process down; it is a
                // failure of the rank's own only when no timeout preceded it.
                if (e.code != 6 && e.code != 15)
                    primary(rf, i, false);
                break;
            case EventKind::TorchWatchdogException:
            case EventKind::TorchAsyncNcclError:
                if (isCudaStickyText(text) && rf.cudaStickyError == kNoIndex)
                    rf.cudaStickyError = i;
                // The watchdog dying on a CUDA error of this GPU (illegal memory access,
                // launch failure): the rank's own failure, not a timeout of someone else's.
                else if (e.kind == EventKind::TorchWatchdogException && text.find("CUDA error") != std::string_view::npos)
                    primary(rf, i, false);
                // ≤2.0 rethrows the async NCCL error from the watchdog itself; its "Last error:"
                // names the peer just like (f) does ([formats 1.4] e, f).
                if (e.kind == EventKind::TorchAsyncNcclError
                    || (e.kind == EventKind::TorchWatchdogException && e.peer != kNoStr))
                    rf.asyncErrors.push_back(i);
                if (e.kind == EventKind::TorchAsyncNcclError && isNcclShmText(detail))
                    m_f.shmEvents.push_back(i);
                break;
            case EventKind::TorchNcclApiError:
                if (isResourceText(text) || isResourceText(detail)) {
                    primary(rf, i, true);
                    rf.ncclAllocationFailure = true;
                }
                // NCCL's /dev/shm WARN quoted after "Last error:" is the node's shared memory,
                // as the WARN line itself would be.
                if (isNcclShmText(detail))
                    m_f.shmEvents.push_back(i);
                break;
            case EventKind::TorchHeartbeatStuck:
            case EventKind::TorchHeartbeatTerminate:
                if (rf.heartbeatStuck == kNoIndex)
                    rf.heartbeatStuck = i;
                break;
            case EventKind::NcclIbCompletionError:
                rf.ibErrors.push_back(i);
                break;
            case EventKind::NcclSocketError:
                rf.socketErrors.push_back(i);
                break;
            case EventKind::NcclBootstrapError:
                rf.bootstrapErrors.push_back(i);
                break;
            case EventKind::NcclCudaFailure:
                if (isResourceText(text)) {
                    primary(rf, i, true);
                    rf.ncclAllocationFailure = true;
                }
                else if (isCudaStickyText(text) && rf.cudaStickyError == kNoIndex)
                    rf.cudaStickyError = i;
                break;
            case EventKind::NcclLocalRankClosed: {
                // Its own local rank closing is its own exit, not a peer's.
                const RankInfo& info = m_b.ranks[e.rank];
                const std::int32_t own = info.localRank >= 0 ? info.localRank : info.cudaDev;
                if (rf.peerGone == kNoIndex && e.peerRank >= 0 && e.peerRank != own)
                    rf.peerGone = i;
                break;
            }
            case EventKind::NcclIbAsyncEvent:
                rf.ibAsyncEvents.push_back(i);
                m_f.ibAsyncEvents.push_back(i);
                break;
            case EventKind::NcclShmError:
                m_f.shmEvents.push_back(i);
                primary(rf, i, true);
                rf.ncclAllocationFailure = true;
                break;
            case EventKind::NcclCommTeardown:
                if (rf.commTeardown == kNoIndex)
                    rf.commTeardown = i;
                break;
            case EventKind::TorchStoreError:
                rf.storeErrors.push_back(i);
                rf.waited = true;
                break;
            case EventKind::NcclInitStart:
            case EventKind::NcclInitComplete:
                if (m_worldComm == kNoStr || e.detail == m_worldComm) {
                    rf.initStarted = true;
                    if (e.kind == EventKind::NcclInitComplete)
                        rf.initCompleted = true;
                }
                break;
            case EventKind::TorchDumpSignal:
                if (e.peerRank >= 0)
                    m_f.dumpSignals.push_back(i);
                break;
            case EventKind::TrainingProgress:
                // Only the latest progress line counts: a checkpoint save followed by more
                // training steps is history, not what the rank is stuck in.
                rf.lastActivity = static_cast<StackActivity>(e.code);
                rf.lastActivityEvent = rf.lastActivity == StackActivity::Unknown ? kNoIndex : i;
                break;
            case EventKind::LauncherWorkerFailed:
            case EventKind::LauncherExit:
            case EventKind::LauncherFailureRecord:
            case EventKind::LauncherSignalSent:
            case EventKind::HostOutOfMemory:
            case EventKind::GpuXid:
                hostLevelEvent(i, e);
                break;
            default:
                break;
            }
        }
    }

    std::int32_t rankForLauncherEvent(const Event& e) const
    {
        const std::string host = hostOfEvent(e);
        if (e.kind == EventKind::LauncherFailureRecord || e.kind == EventKind::LauncherExit) {
            if (e.kind == EventKind::LauncherFailureRecord && e.peerRank >= 0)
                return e.peerRank;
            // MPI and Ray Train name the world rank; DeepSpeed's "--local_rank=N" is a local
            // rank; an srun task is a rank when srun started one task per GPU (no torchrun
            // agent below it).
            if (e.kind == EventKind::LauncherExit && e.peerRank >= 0
                && (m_b.text(e.detail) == "mpi" || m_b.text(e.detail) == "ray"))
                return e.peerRank;
            if (e.kind == EventKind::LauncherExit && e.peerRank >= 0 && m_b.text(e.detail) == "srun")
                return m_torchrunAgents ? -1 : e.peerRank;
        }
        if (e.pid >= 0)
            if (std::int32_t r = rankByPid(e.pid, host); r >= 0)
                return r;
        if (e.kind == EventKind::LauncherWorkerFailed && m_b.localRanksAreGlobal)
            return e.peerRank;
        if (e.kind == EventKind::LauncherWorkerFailed || e.kind == EventKind::LauncherExit) {
            if (e.peerRank >= 0 && !host.empty() && m_b.text(e.detail) != "mpi" && m_b.text(e.detail) != "srun"
                && m_b.text(e.detail) != "ray") {
                auto it = m_byHostLocal.find({ host, e.peerRank });
                if (it != m_byHostLocal.end())
                    return it->second;
            }
        }
        return -1;
    }

    void hostLevelEvent(std::uint32_t index, const Event& e)
    {
        switch (e.kind) {
        case EventKind::NcclIbAsyncEvent:
            m_f.ibAsyncEvents.push_back(index);
            break;
        case EventKind::NcclShmError:
            m_f.shmEvents.push_back(index);
            break;
        case EventKind::PythonException:
            if (isShmFullPythonException(m_b, e))
                m_f.shmEvents.push_back(index);
            break;
        case EventKind::TorchNcclApiError:
        case EventKind::TorchAsyncNcclError:
            // NCCL's WARN quoted after "Last error:", from a line no rank prefix names.
            if (isNcclShmText(m_b.text(e.detail)))
                m_f.shmEvents.push_back(index);
            break;
        case EventKind::GpuXid: {
            if (e.code >= 0 && xidCategory(static_cast<std::uint64_t>(e.code)) == XidCategory::Application)
                m_f.applicationXids.push_back(index);
            const std::string bus(m_b.text(e.detail));
            const std::int32_t r = rankByBus(bus, hostOfEvent(e));
            if (r >= 0 && static_cast<std::size_t>(r) < m_f.ranks.size())
                m_f.ranks[r].xidEvents.push_back(index);
            else
                m_f.xidWithoutRank.push_back(index);
            break;
        }
        case EventKind::HostOutOfMemory: {
            const std::int32_t r = e.pid >= 0 ? rankByPid(e.pid, hostOfEvent(e)) : -1;
            if (r >= 0 && static_cast<std::size_t>(r) < m_f.ranks.size())
                primary(m_f.ranks[r], index, true);
            else if (killedJobProcess(m_b.text(e.detail)))
                m_f.unmappedHostOom.push_back(index);
            break;
        }
        case EventKind::LauncherSignalSent: {
            const std::int32_t r = rankForLauncherEvent(e);
            if (r >= 0 && static_cast<std::size_t>(r) < m_f.ranks.size()) {
                m_f.ranks[r].tornDown = true;
                if (m_b.text(e.detail) == "sigterm_ignored")
                    m_f.ranks[r].survivedSigterm = true;
            } else {
                ++m_f.unmappedTeardowns;
                if (m_b.text(e.detail) != "sigterm_ignored")
                    ++m_unmappedTeardownsOnHost[hostOfEvent(e)];
            }
            break;
        }
        case EventKind::LauncherWorkerFailed:
        case EventKind::LauncherExit:
        case EventKind::LauncherFailureRecord: {
            const std::int32_t r = rankForLauncherEvent(e);
            if (r < 0 || static_cast<std::size_t>(r) >= m_f.ranks.size()) {
                if (e.code == -6 || e.code == -15 || e.code == 15)
                    ++m_f.unmappedTeardowns;
                else if (isOwnFailureExit(e.code))
                    m_f.unmappedWorkerFailures.push_back(index);
                break;
            }
            RankFacts& rf = m_f.ranks[r];
            if (rf.launcherEvent == kNoIndex) {
                rf.launcherEvent = index;
                rf.launcherExitCode = e.code;
            }
            if (e.code == -15 || e.code == 15)
                rf.tornDown = true;
            else if (isOwnFailureExit(e.code))
                m_launcherFailures.emplace_back(r, index);
            break;
        }
        default:
            break;
        }
    }

    // A worker that never printed its pid (no NCCL line, not in the failure table) cannot be tied
    // to its agent's "Sending process P closing signal SIGTERM". When a host's agent signalled
    // at least as many unknown pids as the host has such ranks without a timeout, they were
    // all among them: their silence is the teardown's, not a sign they stopped earlier.
    void attributeUnmappedTeardowns()
    {
        for (const auto& [host, signalled] : m_unmappedTeardownsOnHost) {
            auto it = m_ranksOnHost.find(host);
            if (host.empty() || it == m_ranksOnHost.end())
                continue;
            std::vector<std::int32_t> unknownPid;
            for (std::int32_t r : it->second)
                if (m_b.ranks[r].pid < 0 && !m_f.ranks[r].anyTimeout && !m_f.ranks[r].tornDown)
                    unknownPid.push_back(r);
            if (!unknownPid.empty() && unknownPid.size() <= signalled)
                for (std::int32_t r : unknownPid)
                    m_f.ranks[r].tornDown = true;
        }
    }

    // An NCCL error raised into Python ("RuntimeError: NCCL error in: …, unhandled system
    // error", DistBackendError) by a process whose own NCCL lines show a socket, IB or
    // bootstrap failure is that transport failure surfacing ([formats 1.4] g, [formats 3.8], [formats 11] B/G): NCCL's
    // "Last error" is the WARN the rank just logged. It is not the rank's own crash; the
    // network and init rules judge it. Memory failures stay: they are the rank's own.
    void discountTransportFailures()
    {
        for (auto& rf : m_f.ranks) {
            if (rf.primaryFailure == kNoIndex || rf.failureIsResource)
                continue;
            if (rf.socketErrors.empty() && rf.ibErrors.empty() && rf.bootstrapErrors.empty())
                continue;
            const Event& e = m_b.events[rf.primaryFailure];
            const bool ncclError = (e.kind == EventKind::PythonException || e.kind == EventKind::TorchNcclApiError)
                && m_b.text(e.text).find("NCCL error") != std::string_view::npos;
            if (!ncclError)
                continue;
            rf.primaryFailure = kNoIndex;
            rf.primaryFailureTime = {};
            m_consequence.insert(rf.rank);
        }
    }

    // Exit codes from launchers count as the rank's own failure only when its own lines
    // do not show it reacting to someone else's.
    void judgeLauncherFailures()
    {
        for (const auto& [r, index] : m_launcherFailures) {
            RankFacts& rf = m_f.ranks[r];
            // NCCL's own transport and bootstrap errors count as reactions too: the process
            // exits 1 because communication could not be set up, not because of its own bug.
            const bool reacted = rf.anyTimeout || !rf.storeErrors.empty() || m_consequence.count(r)
                || !rf.asyncErrors.empty() || !rf.socketErrors.empty() || !rf.ibErrors.empty()
                || !rf.bootstrapErrors.empty();
            const std::int32_t code = m_b.events[index].code;
            if (!reacted || code == -9 || code == -11 || code == -7)
                primary(rf, index, code == -9);
        }
    }

    // A traceback whose frames pass through torch.distributed's collective API
    // (distributed_c10d.py barrier/all_reduce/…): the exception came out of a collective the
    // process was waiting in.
    bool raisedInCollective(const PythonTraceback& t) const
    {
        for (const StackFrame& f : t.frames) {
            const std::string_view file = m_b.text(f.file);
            const std::string_view fn = m_b.text(f.function);
            if (file.ends_with("distributed_c10d.py")
                && containsAny(fn, { "barrier", "all_reduce", "broadcast", "all_gather", "reduce_scatter", "all_to_all" }))
                return true;
        }
        return false;
    }

    void scanRecords()
    {
        for (const PythonTraceback& t : m_b.tracebacks) {
            if (!raisedInCollective(t))
                continue;
            const std::int32_t r = m_b.rankOfIdentity(t.identity);
            if (r >= 0 && static_cast<std::size_t>(r) < m_f.ranks.size())
                m_f.ranks[r].waited = true;
            else
                ++m_f.unrankedCollectiveRaises;
        }
        for (std::uint32_t i = 0; i < m_b.stackDumps.size(); ++i) {
            const StackDump& s = m_b.stackDumps[i];
            std::int32_t r = m_b.rankOfIdentity(s.identity);
            if (r < 0 && s.pid >= 0)
                r = rankByPid(s.pid, {});
            if (r >= 0 && static_cast<std::size_t>(r) < m_f.ranks.size()) {
                m_f.ranks[r].stackDump = i;
                m_f.ranks[r].activity = s.activity;
            }
        }
        for (std::uint32_t i = 0; i < m_b.launcherFailures.size(); ++i)
            if (m_b.launcherFailures[i].reportedAsRootCause)
                m_f.launcherRootCauses.push_back(i);
        for (std::uint32_t i = 0; i < m_b.envSettings.size(); ++i) {
            const auto name = m_b.text(m_b.envSettings[i].name);
            if (name == "NCCL_ALGO" || name == "NCCL_PROTO")
                m_f.algorithmOverrides.push_back(i);
        }
        for (const auto& g : m_b.gpuUtil) {
            if (g.busId == kNoStr)
                continue;
            const std::int32_t r = rankByBus(std::string(m_b.text(g.busId)),
                g.host != kNoStr ? shortHostName(m_b.text(g.host)) : std::string());
            if (r >= 0 && static_cast<std::size_t>(r) < m_f.ranks.size())
                m_f.ranks[r].lastUtilization = g.lastUtilization;
        }
        std::map<std::pair<std::int32_t, StrId>, StrId> commIdOf;
        for (const auto& c : m_b.commInits) {
            const std::int32_t r = m_b.rankOfIdentity(c.identity);
            if (r >= 0)
                commIdOf[{ r, c.commPtr }] = c.commId;
        }
        for (const auto& t : m_b.collTraces) {
            const std::int32_t r = m_b.rankOfIdentity(t.identity);
            if (r < 0 || static_cast<std::size_t>(r) >= m_f.ranks.size() || t.tail.empty())
                continue;
            auto it = commIdOf.find({ r, t.commPtr });
            const bool world = (it != commIdOf.end() && it->second == m_worldComm)
                || (m_worldComm == kNoStr && m_b.world.worldSize && t.nranks == *m_b.world.worldSize);
            if (world) {
                m_f.ranks[r].lastCollOpCount = std::max<std::int64_t>(m_f.ranks[r].lastCollOpCount,
                    static_cast<std::int64_t>(t.tail.back().opCount));
                m_f.worldCollTail.resize(m_f.ranks.size());
                auto& tail = m_f.worldCollTail[r];
                tail.insert(tail.end(), t.tail.begin(), t.tail.end());
            }
        }
        // Init state and what "before any collective completed" means per rank.
        bool anyStarted = false;
        for (auto& rf : m_f.ranks) {
            if (rf.initStarted && !rf.initCompleted)
                m_f.initIncomplete = true;
            anyStarted = anyStarted || rf.initStarted;
        }
        // A timeout on SeqNum S > 1 means collectives 1..S-1 completed, even in logs without
        // status lines (PyTorch ≤2.1).
        for (const auto& p : m_b.progress)
            if ((p.hasStatus && p.lastCompleted >= 0) || p.timeoutSeq > 1)
                m_f.anyCollectiveCompleted = true;
        for (const auto& t : m_b.collTraces)
            if (t.calls > 1)
                m_f.anyCollectiveCompleted = true;
        (void)anyStarted;
        bool anyStoreErrors = false, anyInitLines = !m_b.commInits.empty(), anyInitCompleted = false;
        // NCCL_DEBUG=INFO was on (NCCL printed something) yet no communicator init line exists:
        // the job never got as far as creating one.
        bool ncclInfoOn = !m_b.bootstrapAddresses.empty() || !m_b.envSettings.empty();
        for (const auto& e : m_b.events)
            ncclInfoOn = ncclInfoOn || e.kind == EventKind::NcclVersion || e.kind == EventKind::NcclNetSelect;
        const bool neverReachedInit = ncclInfoOn && !anyInitLines;
        for (const auto& rf : m_f.ranks) {
            anyStoreErrors = anyStoreErrors || !rf.storeErrors.empty();
            anyInitCompleted = anyInitCompleted || rf.initCompleted;
        }
        for (auto& rf : m_f.ranks) {
            if (rf.primaryFailure == kNoIndex)
                continue;
            bool completedHere = false;
            for (const auto* p : m_b.progressOfRank(rf.rank))
                if ((p->hasStatus && p->lastCompleted >= 0) || p->timeoutSeq > 1)
                    completedHere = true;
            // Without NCCL INFO lines nothing says init is incomplete: then it is not claimed.
            rf.failureDuringInit = !completedHere && !m_f.anyCollectiveCompleted && !rf.initCompleted
                && (rf.initStarted || m_f.initIncomplete || anyStoreErrors || (anyInitLines && !anyInitCompleted)
                    || neverReachedInit);
        }
    }

    void buildPgFacts()
    {
        std::map<StrId, std::vector<const RankProgress*>> byPg;
        for (const auto& p : m_b.progress)
            byPg[p.pg].push_back(&p);
        for (auto& [pg, list] : byPg) {
            PgFacts f;
            f.pg = pg;
            const ProcessGroup* g = m_b.processGroup(pg);
            if (g && !g->members.empty()) {
                f.members = g->members;
                f.membersKnown = true;
            } else {
                for (const auto* p : list)
                    f.members.push_back(p->rank);
                std::sort(f.members.begin(), f.members.end());
            }
            if (g)
                f.timeoutMs = g->timeoutMs;
            bool anyStatus = false;
            bool allMinus = true;
            for (const auto* p : list) {
                if (p->timeoutSeq >= 0 && (f.stuckSeq < 0 || p->timeoutSeq < f.stuckSeq))
                    f.stuckSeq = p->timeoutSeq;
                if (p->timeoutTime.valid() && (!f.firstTimeout.valid() || earlierThan(p->timeoutTime, f.firstTimeout)))
                    f.firstTimeout = p->timeoutTime;
                if (p->hasStatus) {
                    anyStatus = true;
                    if (p->lastEnqueued != -1)
                        allMinus = false;
                }
            }
            f.allMinusOne = anyStatus && allMinus;
            std::map<std::int32_t, const RankProgress*> byRank;
            for (const auto* p : list)
                byRank[p->rank] = p;
            for (std::int32_t r : f.members) {
                Position pos = Position::Unknown;
                auto it = byRank.find(r);
                const RankProgress* p = it == byRank.end() ? nullptr : it->second;
                if (f.stuckSeq >= 0) {
                    if (p && p->hasStatus) {
                        if (p->lastCompleted >= f.stuckSeq)
                            pos = Position::Completed;
                        else if (p->lastEnqueued >= f.stuckSeq)
                            pos = Position::Entered;
                        else
                            pos = Position::NeverEntered;
                    } else if (p && p->timeoutSeq == f.stuckSeq) {
                        pos = Position::Entered;
                    } else if (p && p->timeoutSeq > f.stuckSeq) {
                        pos = Position::Completed;
                    } else if (static_cast<std::size_t>(r) < m_f.ranks.size() && m_f.ranks[r].hasLogs) {
                        pos = Position::NoTimeoutLine;
                    }
                }
                f.positions.push_back(pos);
                if (p && p->timeoutSeq >= 0)
                    f.timedOut.push_back(r);
                switch (pos) {
                case Position::NeverEntered:
                    f.neverEntered.push_back(r);
                    break;
                case Position::Entered:
                    f.entered.push_back(r);
                    break;
                case Position::Completed:
                    f.completed.push_back(r);
                    break;
                case Position::NoTimeoutLine:
                case Position::Unknown:
                    if (f.stuckSeq >= 0)
                        f.silent.push_back(r);
                    break;
                }
            }
            if (f.allMinusOne)
                for (const auto* p : list)
                    if (static_cast<std::size_t>(p->rank) < m_f.ranks.size())
                        m_f.ranks[p->rank].frozen = true;
            m_f.pgs.push_back(std::move(f));
        }
    }

    // The process group the hang sits on: one with a member that never entered, else the
    // one whose watchdog fired first, else the default group.
    void chooseStuckPg()
    {
        std::optional<std::size_t> best;
        auto score = [&](const PgFacts& f) {
            return std::make_tuple(!f.neverEntered.empty() ? 1 : 0, f.stuckSeq >= 0 ? 1 : 0);
        };
        for (std::size_t i = 0; i < m_f.pgs.size(); ++i) {
            const PgFacts& f = m_f.pgs[i];
            if (f.stuckSeq < 0)
                continue;
            if (!best) {
                best = i;
                continue;
            }
            const PgFacts& b = m_f.pgs[*best];
            if (score(f) > score(b)
                || (score(f) == score(b) && earlierThan(f.firstTimeout, b.firstTimeout)))
                best = i;
        }
        m_f.stuckPg = best;
    }

    // Maps each IB/socket error to the two ranks at its ends ([formats 3.7], [formats 3.8], [formats 11] B):
    // the peer address is the remote process's OOB address; the ranks on that host that are
    // ring/channel neighbours of the local rank narrow it to the exact peer.
    void mapLinkErrors()
    {
        std::map<std::int32_t, std::set<std::int32_t>> neighbours;
        std::map<std::pair<std::int32_t, StrId>, bool> isWorldComm;
        std::map<std::int32_t, bool> firstCommIsWorld;
        for (const auto& c : m_b.commInits) {
            const std::int32_t r = m_b.rankOfIdentity(c.identity);
            if (r < 0)
                continue;
            const bool world = m_worldComm != kNoStr && c.commId == m_worldComm;
            isWorldComm[{ r, c.commPtr }] = world;
            firstCommIsWorld.try_emplace(r, world);
        }
        // NCCL ≤2.17 prints rings and channels before the only init line ("Init COMPLETE"),
        // so those links carry no communicator: they belong to the first one the process sets
        // up.
        for (const auto& l : m_b.commLinks) {
            if (l.commPtr != kNoStr)
                continue;
            const std::int32_t r = m_b.rankOfIdentity(l.identity);
            if (r >= 0 && !isWorldComm.count({ r, kNoStr }))
                isWorldComm[{ r, kNoStr }] = firstCommIsWorld.count(r) ? firstCommIsWorld[r] : m_worldComm == kNoStr;
        }
        for (const auto& l : m_b.commLinks) {
            const std::int32_t r = m_b.rankOfIdentity(l.identity);
            if (r < 0)
                continue;
            auto it = isWorldComm.find({ r, l.commPtr });
            const bool world = it != isWorldComm.end() ? it->second : (m_worldComm == kNoStr);
            if (!world)
                continue;
            if (l.fromRank >= 0 && l.toRank >= 0) {
                neighbours[l.fromRank].insert(l.toRank);
                neighbours[l.toRank].insert(l.fromRank);
            }
        }
        auto addErrors = [&](const std::vector<std::uint32_t>& indices, std::int32_t rank, bool ib) {
            for (std::uint32_t i : indices) {
                const Event& e = m_b.events[i];
                LinkError le;
                le.event = i;
                le.localRank = rank;
                le.localHost = m_b.ranks[rank].host;
                le.status = ib ? e.code : -1;
                le.time = e.time;
                le.peerIp = peerAddressOnly(m_b.text(e.peer));
                std::vector<std::int32_t> candidates;
                if (auto it = m_byIp.find(le.peerIp); it != m_byIp.end())
                    candidates = it->second;
                else if (!isNumericAddress(le.peerIp)) {
                    if (auto h = m_ranksOnHost.find(shortHostName(le.peerIp)); h != m_ranksOnHost.end())
                        candidates = h->second;
                }
                if (!candidates.empty() && m_b.ranks[candidates.front()].host != kNoStr)
                    le.peerHost = m_b.ranks[candidates.front()].host;
                // The host's ranks that talk to the local rank directly.
                std::vector<std::int32_t> direct;
                for (std::int32_t c : candidates)
                    if (neighbours[rank].count(c))
                        direct.push_back(c);
                le.peerRanks = direct.size() == 1 ? direct : candidates;
                m_f.linkErrors.push_back(std::move(le));
            }
        };
        for (const auto& rf : m_f.ranks) {
            addErrors(rf.ibErrors, rf.rank, true);
            addErrors(rf.socketErrors, rf.rank, false);
            // With NCCL_DEBUG off, PyTorch's async error still carries NCCL's last WARN: the
            // same peer and status, once per distinct peer. Only used when NCCL's own WARN
            // line of that rank is not in the bundle.
            if (rf.ibErrors.empty() && rf.socketErrors.empty()) {
                std::vector<std::uint32_t> ib, socket;
                std::set<std::pair<StrId, std::int32_t>> seen;
                for (std::uint32_t i : rf.asyncErrors) {
                    const Event& e = m_b.events[i];
                    if (e.peer == kNoStr || !seen.insert({ e.peer, e.code }).second)
                        continue;
                    (e.code >= 0 ? ib : socket).push_back(i);
                }
                addErrors(ib, rf.rank, true);
                addErrors(socket, rf.rank, false);
            }
        }
        std::stable_sort(m_f.linkErrors.begin(), m_f.linkErrors.end(),
            [](const LinkError& a, const LinkError& b) { return earlierThan(a.time, b.time); });
    }

    const Bundle& m_b;
    DiagnosisFacts m_f;
    StrId m_worldComm = kNoStr;
    bool m_torchrunAgents = false; // torchrun (or DeepSpeed/MPI-like agents) run under srun
    std::set<std::int32_t> m_consequence; // ranks with an exception that echoes another failure
    std::map<std::string, std::size_t> m_unmappedTeardownsOnHost; // SIGTERMs to unknown pids, by short host
    std::vector<std::pair<std::int32_t, std::uint32_t>> m_launcherFailures; // (rank, event)
    std::map<std::string, std::vector<std::int32_t>> m_ranksOnHost;
    std::map<std::pair<std::string, std::int32_t>, std::int32_t> m_byHostLocal;
    std::map<std::pair<std::string, std::string>, std::int32_t> m_byHostBus;
    std::map<std::int32_t, std::vector<std::int32_t>> m_byPid;
    std::map<std::string, std::vector<std::int32_t>> m_byBus;
    std::map<std::string, std::vector<std::int32_t>> m_byIp;
};

} // namespace

DiagnosisFacts collectFacts(const Bundle& bundle, unsigned threads)
{
    DiagnosisFacts facts = FactCollector(bundle).run();
    if (!bundle.frDumps.empty()) {
        FrMatchOptions options;
        options.threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
        facts.flightRecorder = matchFlightRecorder(bundle, options);
        const FrMatchResult& fr = facts.flightRecorder;
        if (fr.firstStuck)
            for (const FrRankAtSeq& a : fr.pgs[*fr.firstStuck].atStuck)
                if (a.rank >= 0 && static_cast<std::size_t>(a.rank) < facts.ranks.size())
                    facts.ranks[a.rank].frPosition = a.position;
    }
    return facts;
}

} // namespace rankscope::model
