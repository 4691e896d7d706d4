#pragma once
// Typed facts that are not one-line events: communicator init lines, bootstrap
// addresses, topology, summarised NCCL COLL traffic, launcher failure tables, Python
// tracebacks, stack dumps. Each keeps the identity of the writer and its evidence.

#include "model/evidence.h"
#include "model/optype.h"
#include "model/stringpool.h"
#include "model/timepoint.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rankscope::model {

// NCCL "comm 0x.. rank R nranks N cudaDev D [nvmlDev D] busId B [commId 0x..] - Init START|COMPLETE"
// (log-formats §3.3). Ties a process (host, pid) to a communicator rank and a GPU.
struct CommInit {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    TimePoint time;
    StrId host = kNoStr;
    std::int32_t pid = -1;
    StrId commPtr = kNoStr;    // "0x5614942e7890", per process
    StrId commId = kNoStr;     // "0x898b6d578585998c", same on all ranks of a comm; empty for splits
    StrId parentComm = kNoStr; // split parent pointer
    std::int32_t color = -1;
    std::int32_t commRank = -1;
    std::int32_t nranks = -1;
    std::int32_t cudaDev = -1;
    std::int32_t nvmlDev = -1;
    StrId busId = kNoStr; // normalised PCI address "0000:7e:00.0"
    bool complete = false; // START vs COMPLETE
};

// "Bootstrap : Using eth0:10.0.0.1<0>", "NET/IB : Using [...] ; OOB eth0:10.0.0.1<0>":
// the address peers print when they report this process in an IB or socket error.
struct BootstrapAddress {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    StrId host = kNoStr;
    std::int32_t pid = -1;
    StrId interfaceName = kNoStr;
    StrId ip = kNoStr;
};

enum class LinkKind : std::uint8_t { RingNeighbour, TreeParent, ChannelSend, ChannelReceive };

// Who talks to whom inside a communicator (§3.4): ring neighbours, tree parents and
// per-channel connections with their transport ("NET/IB/0/GDRDMA", "P2P/IPC/read").
struct CommLink {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    StrId host = kNoStr;
    std::int32_t pid = -1;
    StrId commPtr = kNoStr;
    LinkKind kind = LinkKind::RingNeighbour;
    std::int32_t channel = -1;
    std::int32_t fromRank = -1; // communicator ranks
    std::int32_t toRank = -1;
    StrId transport = kNoStr;
};

// Summary of NCCL_DEBUG_SUBSYS=COLL lines (§3.5) for one (process, communicator): one line
// per collective per rank is the bulk of a big bundle, so only the tail is kept.
struct CollCall {
    std::uint64_t opCount = 0;
    std::uint64_t count = 0;
    OpType op = OpType::Unknown;
    std::int32_t datatype = -1;
    std::int32_t root = -1; // peer rank for Send/Recv
    EvidenceRef evidence;
};

struct CollTrace {
    static constexpr std::size_t kTailSize = 64;
    std::uint32_t identity = 0;
    StrId host = kNoStr;
    std::int32_t pid = -1;
    StrId commPtr = kNoStr;
    std::int32_t nranks = -1;
    std::uint64_t calls = 0;
    CollCall first;
    std::vector<CollCall> tail; // last kTailSize calls, oldest first
};

// "NCCL_IB_TIMEOUT set by environment to 22." and PyTorch "environments" fields.
struct EnvSetting {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    StrId name = kNoStr;
    StrId value = kNoStr;
};

// One record of torchrun's ChildFailedError table (§5.2). The table's "Root Cause" is
// kept as reported, and never trusted over stronger evidence.
struct LauncherFailure {
    EvidenceRef evidence;
    TimePoint time;
    StrId host = kNoStr;
    std::int32_t globalRank = -1;
    std::int32_t localRank = -1;
    std::int32_t exitCode = 0;
    std::int32_t pid = -1;
    StrId errorFile = kNoStr;
    StrId traceback = kNoStr;
    bool reportedAsRootCause = false;
};

struct StackFrame {
    StrId function = kNoStr;
    StrId file = kNoStr;
    std::int32_t line = -1;
};

// A Python exception with its frames (most recent call last, as Python prints them).
struct PythonTraceback {
    std::uint32_t identity = 0;
    EvidenceRef evidence; // the "Traceback (most recent call last):" line
    EvidenceRef exceptionLine;
    TimePoint time;
    StrId exceptionType = kNoStr;
    StrId message = kNoStr;
    std::vector<StackFrame> frames;
};

// Where a hung process's main thread sits (§8). Frames are innermost first.
enum class StackActivity : std::uint8_t {
    Unknown,
    InCollective,  // waiting on peers in a collective or a synchronize after one
    DataLoading,   // DataLoader / queue.get / dataset map
    CheckpointIo,  // torch.save / safetensors / fsync / copy
    Sleeping,      // time.sleep / input()
    Other,         // running Python elsewhere
};

enum class StackTool : std::uint8_t { PySpy, Faulthandler, C10Signal };

struct StackDump {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    TimePoint time;
    StackTool tool = StackTool::PySpy;
    std::int32_t pid = -1;
    StrId threadName = kNoStr;
    std::vector<StackFrame> mainThread; // innermost first
    StackActivity activity = StackActivity::Unknown;
};

// TORCH_NCCL_DESYNC_DEBUG report (§1.4 l). Ranks are PG ranks.
struct DesyncReport {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    TimePoint time;
    std::int32_t reportingPgRank = -1;
    std::int64_t seq = -1;
    OpType op = OpType::Unknown;
    std::vector<std::int32_t> laggingRanks;        // "never joined any collectives"
    std::vector<std::int32_t> joinedNotFinished;   // "[1] joined but didn't finish collective #N"
    std::vector<std::int32_t> finishedNotJoined;   // "[0] finished collective #N-1, but didn't join"
};

// "ProcessGroupNCCL initialization options: size: 8, global rank: 3, TIMEOUT(ms): 600000, ..."
struct ProcessGroupOptions {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    StrId pg = kNoStr;
    StrId pgDesc = kNoStr;
    std::int32_t pgRank = -1;
    std::int32_t size = -1;
    std::int32_t globalRank = -1;
    std::int64_t timeoutMs = -1;
};

// torchrun's "Rendezvous complete for workers. Result:" block: which global ranks this node's
// local ranks got. Resolves "[defaultK]:" prefixes to global ranks.
struct WorkerGroupLayout {
    std::uint32_t identity = 0;
    EvidenceRef evidence;
    StrId host = kNoStr; // master_addr is not this node; host comes from the path or prefixes
    std::int32_t groupRank = -1;
    std::int32_t groupWorldSize = -1;
    std::vector<std::int32_t> localRanks;
    std::vector<std::int32_t> globalRanks;
    std::int32_t worldSize = -1; // global_world_sizes[0]
};

// One Flight Recorder entry (log-formats §2.3): a collective or p2p op as one rank recorded it.
enum class FrState : std::uint8_t { Unknown, Scheduled, Started, Completed };

inline constexpr std::uint32_t kNoFrIndex = 0xffffffffu;

// What an entry called, shared by every entry that called the same thing: a training loop
// repeats a few dozen distinct calls thousands of times, so entries keep an index into a
// de-duplicated FrCall table instead of ~60 bytes of their own (issue 6: 4096 dumps × 2000
// entries must fit in memory).
struct FrCall {
    StrId pg = kNoStr;               // process_group[0] (pg name, e.g. "0")
    StrId pgDesc = kNoStr;           // process_group[1] ("default_pg")
    StrId profilingName = kNoStr;    // "nccl:all_reduce", "nccl:send 1->2"
    StrId inputSizes = kNoStr;       // "[[3, 4]]" as printed, for explanations
    StrId outputSizes = kNoStr;
    StrId inputDtypes = kNoStr;      // "Float" (joined with ',' when several)
    StrId outputDtypes = kNoStr;
    std::int32_t p2pSrc = -1;        // PG-local ranks from "nccl:send 1->2" / "nccl:recv 3<-0"
    std::int32_t p2pDst = -1;
    std::uint64_t inputNumel = 0;    // product of input_sizes, summed over tensors
    std::uint64_t outputNumel = 0;
    std::int64_t timeoutMs = -1;
    OpType op = OpType::Unknown;
    bool isP2p = false;

    bool operator==(const FrCall&) const = default;
};

// A Python stack (innermost first) in the de-duplicated FrStacks table.
struct FrStacks {
    std::vector<StackFrame> frames;
    std::vector<std::uint32_t> begin; // stack i is frames[begin[i], begin[i + 1]) (or to the end)

    std::size_t size() const { return begin.size(); }
    // Frames of stack `id`, innermost first; empty for kNoFrIndex.
    std::pair<const StackFrame*, const StackFrame*> of(std::uint32_t id) const
    {
        if (id >= begin.size())
            return { nullptr, nullptr };
        const std::size_t end = id + 1 < begin.size() ? begin[id + 1] : frames.size();
        return { frames.data() + begin[id], frames.data() + end };
    }
};

// Times are CLOCK_REALTIME epoch ns (Utc), 0 when the dump has none (null in the pickle, 0
// in JSON); created()/started()/completed() give them as TimePoints. record/p2p/op ids are
// 32-bit (saturating at kMaxFrId; a process issuing 1000 ops per second needs 24 days to
// reach it): 64 bytes per entry instead of 80 for 4096 dumps × 2000 entries.
inline constexpr std::int32_t kMaxFrId = 0x7fffffff;

struct FrEntry {
    std::int64_t collectiveSeq = -1; // collective_seq_id
    std::int64_t createdNs = 0;      // time_created_ns
    std::int64_t startedNs = 0;      // time_discovered_started_ns
    std::int64_t completedNs = 0;    // time_discovered_completed_ns
    std::int32_t recordId = -1;      // per process, across all PGs
    std::int32_t p2pSeq = -1;        // p2p_seq_id
    std::int32_t opId = -1;
    std::uint32_t dump = 0;          // index into the owning FrDump list (bundle-wide after merging)
    std::uint32_t call = kNoFrIndex; // index into the FrCall table
    std::uint32_t stack = kNoFrIndex; // index into FrStacks; kNoFrIndex without frames
    float durationMs = -1;
    FrState state = FrState::Unknown;
    bool retired = false;

    static TimePoint timeOf(std::int64_t ns)
    {
        TimePoint t;
        if (ns > 0) {
            t.ns = ns;
            t.domain = TimeDomain::Utc;
            t.precision = TimePrecision::Nanosecond;
        }
        return t;
    }
    TimePoint created() const { return timeOf(createdNs); }
    TimePoint discoveredStarted() const { return timeOf(startedNs); }
    TimePoint discoveredCompleted() const { return timeOf(completedNs); }
};
static_assert(sizeof(FrEntry) <= 64, "FrEntry is stored millions of times (see the comment above)");

struct FrPgConfig {
    StrId name = kNoStr;
    StrId desc = kNoStr;
    std::vector<std::int32_t> ranks; // global ranks of the group
};

struct FrPgStatus {
    StrId pg = kNoStr;
    std::int64_t lastEnqueued = -1;
    std::int64_t lastStarted = -1;
    std::int64_t lastCompleted = -1;
};

// One rank's Flight Recorder dump (pickle or JSON).
struct FrDump {
    std::uint32_t identity = 0;
    EvidenceRef evidence;         // the dump file (line 0)
    std::int32_t globalRank = -1; // from the file name (nccl_trace_rank_N) when known
    StrId version = kNoStr;       // FR format version ("2.5"), not the PyTorch version
    std::vector<FrPgConfig> pgConfig;
    std::vector<FrPgStatus> pgStatus;
    std::uint32_t firstEntry = 0; // range in the entry table
    std::uint32_t entryCount = 0;
    bool truncated = false;       // the dump ended early; entries read so far are kept
};

// nvidia-smi / dcgmi samples summarised per GPU (§7.3).
struct GpuUtilSummary {
    EvidenceRef evidence;
    StrId host = kNoStr;
    std::int32_t gpuIndex = -1;
    StrId busId = kNoStr;
    std::uint32_t samples = 0;
    float lastUtilization = -1.f;
    float minUtilization = -1.f;
    float maxUtilization = -1.f;
    float lastPowerWatts = -1.f;
    TimePoint lastTime;
};

} // namespace rankscope::model
