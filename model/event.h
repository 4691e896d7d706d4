#pragma once
// The event every parser emits: one line (or one multi-line block) that matters for the
// diagnosis, with its time, the identity of the process that wrote it and where it is.
// High-volume facts (NCCL COLL lines, channel lines) are summarised in typed tables
// (see records.h) instead of becoming one Event each.

#include "model/evidence.h"
#include "model/optype.h"
#include "model/stringpool.h"
#include "model/timepoint.h"

#include <cstdint>
#include <string_view>

namespace rankscope::model {

enum class Severity : std::uint8_t { Debug, Info, Warning, Error, Fatal };

enum class EventKind : std::uint16_t {
    Unknown,
    // PyTorch ProcessGroupNCCL ([formats 1.4])
    TorchWatchdogTimeout,     // (a) seq, op, numel, timeoutMs, durationMs = "ran for"; code 1: seen
                              // only from a WorkNCCL::checkTimeout backtrace (no seq)
    TorchWatchdogStatus,      // (b) pg, seq, lastEnqueued/lastStarted/lastCompleted; detail = PG desc;
                              // code 1: the line was cut before its counters (they are unknown)
    TorchFailedCollectiveStack, // (c) frames follow in text; "not found" sets code=0
    TorchTeardown,            // (d)
    TorchWatchdogException,   // (e) text = what(); detail = exception class when known
    TorchAsyncNcclError,      // (f) text = NCCL error; detail = "Last error:" line; peer = address the
                              // last error names, code = its ibv status (-1 for socket errors)
    TorchNcclApiError,        // (g) NCCL error in: file:line
    TorchCommAborted,         // (h) pgRank
    TorchHeartbeatStuck,      // (i) durationMs = stuck seconds * 1000
    TorchHeartbeatTerminate,  // (i) fatal line
    TorchDumpSignal,          // (j) peerRank = signalling rank or -1 for local
    TorchDumpProgress,        // (j) text = stage; detail = dump path
    TorchRemoteError,         // (j) TORCH_NCCL_PROPAGATE_ERROR: peerRank
    TorchBlockingWaitTimeout, // (k)
    TorchDesyncReport,        // (l) see DesyncReport table
    TorchFingerprintMismatch, // (m) pgRank = a, peerRank = b
    TorchPgOptions,           // (n) initialization options (see ProcessGroupInfo)
    TorchPgEnvironment,       // (n) environments line
    TorchCommCreated,         // (n) detail = ncclComm pointer, code = CUDA device
    TorchStoreError,          // (n) store->get error during unique-id exchange; peerRank = rank asked;
                              // also a TCPStore wait that timed out (durationMs), Warning
    TorchUniqueIdBroadcast,   // (n) "broadcast unique ID through store took N ms": durationMs
    TorchWorkUpdate,          // (n) periodic last enqueued / completed
    // NCCL debug output ([formats 3])
    NcclVersion,         // detail = version string
    NcclEnvSetting,      // detail = name, text = value
    NcclInitStart,       // see CommInit table
    NcclInitComplete,
    NcclCommTeardown,    // Destroy / Abort COMPLETE
    NcclBootstrap,       // Bootstrap : Using / OOB address (see BootstrapAddress)
    NcclNetSelect,       // Using network IB / Socket, NET/IB : Using [...]
    NcclWarn,            // a WARN not recognised more precisely
    NcclIbCompletionError, // code = ibv_wc status, peer = peer address, detail = hca
    NcclIbAsyncEvent,    // text = event, detail = device
    NcclSocketError,     // peer = remote address, text = reason
    NcclBootstrapError,  // rank-count mismatch, duplicate rank, no interface, version mismatch
    NcclProxyError,      // [Service thread] / Proxy errors
    NcclLocalRankClosed, // [Service thread] Connection closed by localRank N: peerRank = N (local)
    NcclCudaFailure,     // Cuda failure / Failed to CUDA calloc|malloc; text = message, detail = the
                         // NCCL source file:line of a WARN ("transport/nvls.cc:244") when printed
    NcclShmError,        // /dev/shm failures
    NcclErrorChain,      // file:line -> rc (code = ncclResult_t)
    // Launchers ([formats 5], [formats 6])
    LauncherWorkerFailed, // code = exit code, pid = worker pid, peerRank = worker's local rank
    LauncherSignalSent,   // closing signal to a sibling: pid = target, code = signal number
    LauncherFailureRecord, // ChildFailedError record (see LauncherFailure table)
    LauncherErrorFile,    // error.json
    LauncherExit,         // DeepSpeed / MPI / srun / Ray exit lines: code = exit code (-signal), or
                          // kExitCodeUnknown when only a death is said (Ray), pid,
                          // detail = "deepspeed" | "mpi" | "srun" | "ray"; peerRank = world rank
                          // (MPI, Ray Train); -1 for DeepSpeed, whose line shows the
                          // last-spawned worker's argv, not the failed one's
    LauncherRendezvousError, // rendezvous / store failures: detail = exception class ("store_based_barrier"
                             // for that barrier, peerRank = the rank waiting in it), peer = address,
                             // code = clients joined, seq = clients expected, durationMs = timeout
    // Python and CUDA ([formats 8], [formats 9])
    PythonException,      // detail = exception type (kArgparseRefusal for argparse), text = message
    CudaOutOfMemory,      // code = local CUDA ordinal (-1 when not printed)
    CudaError,            // illegal memory access, unknown error, ECC
    FatalSignal,          // code = signal number
    StackDump,            // py-spy / faulthandler dump (see StackDump table)
    // Kernel / hardware ([formats 7])
    GpuXid,               // code = Xid, detail = PCI busId (0000:7e:00.0), pid = GPU user
    NicLinkState,         // text = state, detail = device
    PcieError,
    HostOutOfMemory,      // kernel OOM kill: pid, detail = command; Ray's memory monitor or Slurm's
                          // cgroup limit: detail = kOomByRayMonitor / kOomBySlurmCgroup, no pid
    GpuUtilization,       // summarised in GpuSample table
    // Progress and frameworks
    TrainingProgress,     // iteration/step lines: seq = step when known
    FrameworkInfo,        // a rank stating who it is (Lightning GLOBAL_RANK): peerRank = global rank,
                          // code = world size (-1 when not printed)
    // Flight Recorder and RAS ([formats 2], [formats 4])
    FlightRecorderDump,
    RasReport,
    RasDeadProcess,
    RasMissingRank,
    RasCountMismatch,
    // Horovod (horovod/common/stall_inspector.cc)
    HorovodStalledTensor, // one rank of a stalled tensor: text = tensor name, peerRank = rank,
                          // code 1 = the rank submitted it ("ready ranks"), 0 = it did not
    // nvidia-smi
    GpuInaccessible,      // "Unable to determine the device handle for GPU0000:03:00.0: Unknown
                          // Error": the driver lost the GPU; detail = PCI busId
    // PyTorch's Gloo backend (c10d ProcessGroupGloo, gloo/transport/tcp)
    GlooConnectError,     // a Gloo TCP connection failed: peer = the address it went to
    GlooLoopbackFallback, // the hostname resolved to no address: Gloo bound to loopback
    // A framework's own cross-rank check spoke: detail = which check ("loading_barrier":
    // SGLang's barrier after loading the model timed out, peerRank = a rank that arrived, never
    // the culprit; "rank_disagreement": DeepSpeed ZeRO-3 found a rank's module or parameter
    // sequence differs from rank 0's, peerRank = that rank; "peer_access_unavailable":
    // TensorRT-LLM or TurboMind found two GPUs without peer access, a Warning, code = the
    // first device); text = message
    FrameworkCheck,
    // nccl-tests' own check of a CUDA or NCCL call failed (src/common.h CUDACHECK, NCCLCHECK):
    // text = the error's words ("invalid device ordinal"), detail = "cuda" | "nccl",
    // peer = the host the line names
    NcclTestsFailure,
    // nccl-tests printed its banner ("# nThread …") or its summary ("# Avg bus bandwidth") a
    // second time with no result row since the first: only the process that is rank 0 of its
    // world prints them (common.h PRINT), so two at once are two worlds, each process running
    // the whole test alone. text = the repeated line, code = how many were seen so far
    NcclTestsSeparateRuns,
    // nccl-tests printed its result table's column header and the output ended with no result
    // row after it: the first collective never completed. detail = the host every "#  Rank"
    // line named when they named one, code = how many "#  Rank" lines there were
    NcclTestsStalled,
    // ProcessGroupNCCL's destructor found a process group nobody destroyed ("destroy_process_group()
    // was not called before program exit"; 2.3 and 2.4: "process group has NOT been destroyed
    // before …"): this process reached its exit with its communicators alive
    TorchExitWithoutDestroy,
    // NCCL INFO of a step joining the NVLink SHARP multicast group (NCCL 2.17–2.21's "NVLS Bind
    // mem …", "NVLS Creating Multicast group …", "NVLS importing shareableHandle …", "NVLS group
    // … adding dev …"): the bind blocks until every rank of the node has joined
    NcclNvlsSetup,
    KindCount
};

std::string_view eventKindName(EventKind kind);

// A launcher's word that a worker's process died, without its exit code (Event::code).
inline constexpr std::int32_t kExitCodeUnknown = -2147483647 - 1;

// HostOutOfMemory's detail when no kernel OOM killer named a command: who killed the workers.
inline constexpr std::string_view kOomByRayMonitor = "ray_memory_monitor";
inline constexpr std::string_view kOomBySlurmCgroup = "slurm_cgroup";
// PythonException's detail for argparse refusing the command line ("train.py: error: …").
inline constexpr std::string_view kArgparseRefusal = "argparse";

struct Event;
// A collective that ran past its timeout: a watchdog or blocking-wait timeout line, or the
// watchdog's exception that quotes one ("Process group watchdog thread terminated with
// exception: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, …").
bool isCollectiveTimeout(const Event& e);
std::string_view severityName(Severity severity);

struct Event {
    TimePoint time;
    EvidenceRef evidence;
    EventKind kind = EventKind::Unknown;
    Severity severity = Severity::Info;
    OpType op = OpType::Unknown;
    std::uint32_t identity = 0; // index into the bundle's identity table
    std::int32_t rank = -1;     // resolved global rank, filled in by the rank resolver
    std::int32_t pgRank = -1;   // rank inside the process group (PyTorch "Rank N")
    std::int32_t peerRank = -1; // a rank the event names (signalling rank, local rank, ...)
    std::int32_t code = 0;      // exit code, signal, Xid, ibv status, ncclResult_t ...
    std::int32_t pid = -1;      // a process the event names (Xid user, failed worker, SIGTERM target)
    StrId pg = kNoStr;          // process-group key: PG GUID when known, else PG ID; none for ≤2.1 lines
    StrId text = kNoStr;        // the message body (prefixes stripped)
    StrId detail = kNoStr;      // a secondary field named per kind above
    StrId peer = kNoStr;        // a remote address or host the event names
    std::int64_t seq = -1;
    std::int64_t lastEnqueued = -1;
    std::int64_t lastStarted = -1;
    std::int64_t lastCompleted = -1;
    std::uint64_t numelIn = 0;
    std::uint64_t numelOut = 0;
    std::int64_t timeoutMs = -1;
    std::int64_t durationMs = -1;
};

} // namespace rankscope::model
