#pragma once
// The evidence the rules reason about, extracted once from the bundle: per rank, what it
// said about itself (crashes, CUDA errors, timeouts, stack dumps, init progress), what the
// hardware and the fabric said about it (Xids by PCI address, IB/socket errors naming its
// address), and, per process group, where every rank stands relative to the stuck
// collective ([formats 1.5], [formats 11]).

#include "model/bundle.h"
#include "model/frmatch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

inline constexpr std::uint32_t kNoIndex = 0xffffffffu;

// Where a rank stands on the stuck collective S of its process group.
enum class Position : std::uint8_t {
    Unknown,      // no status line and no timeout line
    NeverEntered, // last enqueued < S
    Entered,      // last enqueued >= S, last completed < S
    Completed,    // last completed >= S
    NoTimeoutLine, // alive enough to log, but printed no timeout for the PG while peers did
};

struct RankFacts {
    std::int32_t rank = -1;
    bool hasLogs = false;    // any source or line attributed
    bool hasSourceFile = false;

    // A failure of the rank's own (not a consequence of another rank's): Python exception,
    // CUDA OOM / error, segfault, kill by the OOM killer, non-signal exit.
    std::uint32_t primaryFailure = kNoIndex; // event index
    TimePoint primaryFailureTime;
    bool failureIsResource = false;  // OOM, NCCL calloc/malloc, /dev/shm
    // NCCL itself could not allocate (calloc/malloc/shm/cudaMalloc inside NCCL): that only
    // happens while a communicator is being created or connected.
    bool ncclAllocationFailure = false;
    // The rank failed while communication was still being set up: its world communicator
    // init never completed and no collective had completed anywhere.
    bool failureDuringInit = false;
    std::vector<std::uint32_t> resourceEvents; // NcclCudaFailure / NcclShmError / CUDA OOM
    std::int32_t launcherExitCode = 0;   // from torchrun/DeepSpeed/MPI, 0 when unknown
    std::uint32_t launcherEvent = kNoIndex;
    bool tornDown = false;                // SIGTERM'ed by its agent after another failure
    // Still running 30 s after its agent's SIGTERM, so the agent had to SIGKILL it ("Unable to
    // shutdown process P via Signals.SIGTERM, forcefully exiting via Signals.SIGKILL",
    // torch/distributed/elastic/multiprocessing/api.py): a process waiting in a collective dies
    // on SIGTERM; one that ignores it is hung (uninterruptible driver call or I/O).
    bool survivedSigterm = false;

    // Hardware.
    std::vector<std::uint32_t> xidEvents;      // Xids on this rank's GPU
    std::uint32_t cudaStickyError = kNoIndex;  // watchdog died on a CUDA error / ECC
    std::uint32_t heartbeatStuck = kNoIndex;
    // The first "[Service thread] Connection closed by localRank L" this rank logged about
    // another process: that process had exited by then.
    std::uint32_t peerGone = kNoIndex;

    // Network errors this rank's process logged.
    std::vector<std::uint32_t> ibErrors;
    std::vector<std::uint32_t> socketErrors;
    std::vector<std::uint32_t> asyncErrors; // PyTorch (f) with "Last error:"
    std::vector<std::uint32_t> bootstrapErrors; // NCCL bootstrap failures ([formats 3.8])
    std::vector<std::uint32_t> ibAsyncEvents;   // NET/IB async events: port error, catastrophic error

    // The rank tore down its NCCL communicator itself ("Destroy COMPLETE" / "Abort COMPLETE"):
    // with no timeout of its own, the process left the job on purpose (early stopping, a
    // return on one rank) while the others kept going ([formats 11] E, "early clean exit").
    std::uint32_t commTeardown = kNoIndex;

    // It waited for another process and gave up: a watchdog timeout, a blocking wait, a c10d
    // store wait (unique-id exchange, store barrier, socket wait) that raised.
    bool waited = false;

    // Progress.
    bool anyTimeout = false;
    TimePoint firstTimeoutTime;
    std::uint32_t firstTimeoutEvent = kNoIndex;
    bool frozen = false; // all counters -1 with a heartbeat / dump line
    bool initStarted = false;   // world communicator Init START seen
    bool initCompleted = false; // world communicator Init COMPLETE seen
    std::vector<std::uint32_t> storeErrors;

    // Last NCCL COLL opCount on the world communicator (NCCL_DEBUG_SUBSYS=COLL), -1 when
    // not logged. NCCL prints it when the call is enqueued inside NCCL, so it tells "stuck
    // inside the call" from "never called" where PyTorch's last-enqueued cannot ([formats 3.5]).
    std::int64_t lastCollOpCount = -1;

    // Stack dump of the main thread after the hang.
    std::uint32_t stackDump = kNoIndex; // index into Bundle::stackDumps
    StackActivity activity = StackActivity::Unknown;

    // The last thing the rank's own script said it was doing (TrainingProgress with an
    // activity), when that was its last progress line ([formats 11] F).
    StackActivity lastActivity = StackActivity::Unknown;
    std::uint32_t lastActivityEvent = kNoIndex;

    // GPU utilisation summary of this rank's GPU, when sampled.
    float lastUtilization = -1.f;

    // Where the Flight Recorder puts the rank on the stuck collective of the FR's first stuck
    // PG (DiagnosisFacts::flightRecorder): tells "stuck inside" (started, not completed) from
    // "never started" where PyTorch's last-enqueued cannot ([formats 1.5], [formats 2.3]).
    FrRankPosition frPosition = FrRankPosition::Unknown;

    std::uint32_t lastEvent = kNoIndex; // last attributed event (silence detection)
    std::uint64_t lineCount = 0;        // lines in the rank's own files
};

struct PgFacts {
    StrId pg = kNoStr;
    std::vector<std::int32_t> members; // known members, else the ranks that reported on it
    bool membersKnown = false;
    std::int64_t stuckSeq = -1;        // lowest timed-out SeqNum reported on the PG
    TimePoint firstTimeout;            // earliest timeout line
    std::int64_t timeoutMs = -1;
    std::vector<Position> positions;   // parallel to members
    std::vector<std::int32_t> timedOut;
    std::vector<std::int32_t> neverEntered;
    std::vector<std::int32_t> entered;
    std::vector<std::int32_t> completed;
    std::vector<std::int32_t> silent; // members with no line for this PG while others timed out
    bool allMinusOne = false;         // every status line says last enqueued -1
};

// One IB/socket error with both ends mapped to ranks where possible.
struct LinkError {
    std::uint32_t event = kNoIndex;
    std::int32_t localRank = -1;
    StrId localHost = kNoStr;
    std::string peerIp;   // numeric peer address without the <port>, or a host name
    StrId peerHost = kNoStr;
    std::vector<std::int32_t> peerRanks; // ranks on the peer host (or the exact peer when known)
    std::int32_t status = -1;            // ibv_wc status; -1 for socket errors
    TimePoint time;
};

struct DiagnosisFacts {
    std::vector<RankFacts> ranks; // indexed by global rank
    // Recent NCCL COLL calls on the world communicator per rank (oldest first); empty when
    // COLL lines were not logged.
    std::vector<std::vector<CollCall>> worldCollTail;
    std::vector<PgFacts> pgs;
    std::optional<std::size_t> stuckPg; // index into pgs of the PG the hang sits on
    bool anyTimeout = false;
    bool anyFailure = false;     // any error/fatal line at all
    bool anyCollectiveCompleted = false;
    bool initIncomplete = false; // some ranks started the world comm init and never completed it
    TimePoint firstTimeout;      // earliest timeout line in the bundle
    std::vector<LinkError> linkErrors;
    std::vector<std::uint32_t> launcherRootCauses; // indices into Bundle::launcherFailures
    std::vector<std::uint32_t> dumpSignals;        // TorchDumpSignal events naming a source rank
    std::vector<std::uint32_t> algorithmOverrides; // EnvSetting indices: NCCL_ALGO / NCCL_PROTO
    std::vector<std::uint32_t> xidWithoutRank;     // Xids we could not tie to a rank
    // Xids the catalogue files under the application's own kernels (13, 31, 43): on their own,
    // a fault of some process, not of the GPU (model/xidcatalogue.h).
    std::vector<std::uint32_t> applicationXids;
    std::vector<std::uint32_t> shmEvents;          // /dev/shm failures (node-wide check)
    std::vector<std::uint32_t> ibAsyncEvents;      // all NET/IB async events, with or without a rank
    // Launcher lines about workers no rank could be tied to (SIGTERM sent, watchdog aborts):
    // they still show that other processes went down with the job.
    std::size_t unmappedTeardowns = 0;
    // Launcher lines saying a worker exited on its own (exit code > 0, SIGKILL, SIGSEGV,
    // SIGBUS) where no line ties the worker to a rank: DeepSpeed's "exits with return code",
    // a failure record of a node no rank table covers. Event indices.
    std::vector<std::uint32_t> unmappedWorkerFailures;
    // Host memory kills no line ties to a rank: the kernel's OOM killer taking a process of the
    // job (python, pt_main_thread, a Ray worker) whose pid no rank printed, or Ray's memory
    // monitor killing workers of a node. Event indices.
    std::vector<std::uint32_t> unmappedHostOom;
    // Timeouts no rank could be tied to (an unprefixed paste, a backtrace without its message).
    std::size_t unrankedTimeouts = 0;
    // Python tracebacks, of no known rank, raised out of a collective call (barrier(),
    // all_reduce(), …): that process waited in the collective until it failed.
    std::size_t unrankedCollectiveRaises = 0;
    // Flight Recorder dumps matched across ranks (model/frmatch.h); empty without dumps.
    FrMatchResult flightRecorder;
};

// `threads` match Flight Recorder dumps across ranks (0: one per hardware thread); the facts
// are the same for any count.
DiagnosisFacts collectFacts(const Bundle& bundle, unsigned threads = 0);

// Messages of a failed allocation: CUDA OOM, NCCL's calloc/malloc, /dev/shm.
bool isResourceText(std::string_view text);
// NCCL's warning that a /dev/shm segment could not be created, extended or opened.
bool isNcclShmText(std::string_view text);
// A Python exception that says /dev/shm is full: PyTorch failing to fill a shared-memory file
// of its own ("unable to write to file </torch_4242_1954506624>: No space left on device (28)";
// a tensor handed between processes, DataLoader workers, torch.multiprocessing), or ENOSPC
// raised where multiprocessing creates a lock's POSIX semaphore (glibc keeps those in /dev/shm).
bool isShmFullPythonException(const Bundle& bundle, const Event& e);
// CUDA errors that mean the GPU itself is broken or gone (ECC, unknown error, fallen off).
bool isCudaStickyText(std::string_view text);

// a < b by wall clock, when both are wall-clock comparable (same domain, seconds).
bool earlierThan(const TimePoint& a, const TimePoint& b);
bool comparableTimes(const TimePoint& a, const TimePoint& b);

} // namespace rankscope::model
