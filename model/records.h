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
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

namespace rankscope::model {

// NCCL "comm 0x.. rank R nranks N cudaDev D [nvmlDev D] busId B [commId 0x..] - Init START|COMPLETE"
// ([formats 3.3]). Ties a process (host, pid) to a communicator rank and a GPU.
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

// Who talks to whom inside a communicator ([formats 3.4]): ring neighbours, tree parents and
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

// Summary of NCCL_DEBUG_SUBSYS=COLL lines ([formats 3.5]) for one (process, communicator): one line
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
    std::int32_t device = -1; // the CUDA device of its NCCL header ("[3]"), -1 when not shown
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

// One record of torchrun's ChildFailedError table ([formats 5.2]). The table's "Root Cause" is
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

// Where a hung process's main thread sits ([formats 8]). Frames are innermost first.
enum class StackActivity : std::uint8_t {
    Unknown,
    InCollective,  // waiting on peers in a collective or a synchronize after one
    DataLoading,   // DataLoader / queue.get / dataset map
    CheckpointIo,  // torch.save / safetensors / fsync / copy
    Sleeping,      // time.sleep / input()
    Other,         // running Python elsewhere
    InNcclInit,    // blocked creating a communicator (ncclCommInitRank, bootstrap): waiting for peers to join
};

enum class StackTool : std::uint8_t { PySpy, Faulthandler, C10Signal, Gdb };

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

// TORCH_NCCL_DESYNC_DEBUG report ([formats 1.4] l). Ranks are PG ranks.
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

// One Flight Recorder entry ([formats 2.3]): a collective or p2p op as one rank recorded it.
enum class FrState : std::uint8_t { Unknown, Scheduled, Started, Completed };

inline constexpr std::uint32_t kNoFrIndex = 0xffffffffu;

// What an entry called and from where, shared by every entry of one dump that made the
// same call from the same code: a training loop repeats a few dozen distinct calls thousands
// of times, so entries keep an index into a de-duplicated FrCall table instead of ~80 bytes
// of their own (issue 6: 4096 dumps × 2000 entries must fit in memory). A call belongs to one
// dump, so the entry finds its dump and its Python stack through it.
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
    std::uint32_t dump = 0;          // index into the owning FrDump list (bundle-wide after merging)
    std::uint32_t stack = kNoFrIndex; // index into FrStacks; kNoFrIndex without frames
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

// record/collective/p2p ids are 32-bit, saturating at kMaxFrId (a process issuing 1000 ops
// per second needs 24 days to reach it).
inline constexpr std::int32_t kMaxFrId = 0x7fffffff;

// One entry in 32 bytes (issue 6: 4096 dumps × 2000 entries, 262 MB instead of 524 MB at
// 64 bytes). What the entry called, its dump and its stack are in its FrCall; the fields are
// packed as follows, and setters clamp what does not fit and say so with clamped():
//  - time_created_ns: CLOCK_REALTIME epoch ns (Utc) in 61 bits, exact (up to the year 2043);
//  - time_discovered_started_ns / _completed_ns: as gaps after time_created in a 24-bit float
//    (19-bit mantissa, 5-bit exponent): exact below 524 µs, within 2 ppm above (±1.2 ms on a
//    10-minute gap, far below the watchdog's polling period), up to 13 days;
//  - duration_ms: GPU time in µs in a 15-bit float (10-bit mantissa): exact below 1 ms,
//    within 0.1 % above, up to 25 days;
//  - op_id is not kept: nothing reads it (collective_seq_id and p2p_seq_id line ops up).
// Times are 0 when the dump has none (null in the pickle, 0 in JSON); created() /
// discoveredStarted() / discoveredCompleted() give them as TimePoints.
class FrEntry {
public:
    std::uint32_t call = kNoFrIndex;  // index into the FrCall table (what, where, which dump)
    std::int32_t collectiveSeq = -1;  // collective_seq_id
    std::int32_t recordId = -1;       // per process, across all PGs
    std::int32_t p2pSeq = -1;         // p2p_seq_id

    static constexpr std::int64_t kMaxCreatedNs = (std::int64_t(1) << 61) - 1;
    static constexpr std::int64_t kMaxGapNs = std::int64_t((1u << 19) - 2) << 31;
    static constexpr double kMaxDurationMs = double((1u << 10) - 1) * double(1u << 31) / 1000.0;

    std::int64_t createdNs() const { return static_cast<std::int64_t>(m_created & kCreatedMask); }
    std::int64_t startedNs() const { return timeAfterCreated(gapCode(0)); }
    std::int64_t completedNs() const { return timeAfterCreated(gapCode(24)); }
    // duration_ms (GPU time, TORCH_NCCL_ENABLE_TIMING); -1 when absent.
    float durationMs() const
    {
        const auto code = static_cast<std::uint32_t>((m_packed >> 48) & 0x7fffu);
        if (code == kNoDuration)
            return -1.f;
        const std::uint64_t us = std::uint64_t(code & 0x3ffu) << (code >> 10);
        return static_cast<float>(static_cast<double>(us) / 1000.0);
    }
    FrState state() const { return static_cast<FrState>((m_created >> 61) & 3u); }
    bool retired() const { return (m_created >> 63) != 0; }
    // A time or duration did not fit its field and was clamped (or dropped: a discovered time
    // without a creation time, or one before it).
    bool clamped() const { return (m_packed >> 63) != 0; }

    // Epoch ns, 0 (or negative) for "not observed". False when something was clamped.
    bool setTimes(std::int64_t created, std::int64_t started, std::int64_t completed);
    // Negative: absent. False when clamped.
    bool setDurationMs(double ms);
    void setState(FrState s)
    {
        m_created = (m_created & ~(std::uint64_t(3) << 61))
            | (std::uint64_t(static_cast<std::uint8_t>(s) & 3u) << 61);
    }
    void setRetired(bool r)
    {
        m_created = (m_created & ~(std::uint64_t(1) << 63)) | (std::uint64_t(r ? 1 : 0) << 63);
    }

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
    TimePoint created() const { return timeOf(createdNs()); }
    TimePoint discoveredStarted() const { return timeOf(startedNs()); }
    TimePoint discoveredCompleted() const { return timeOf(completedNs()); }

    // The 24-bit gap code of `ns` (>= 0), false when clamped. kNoGap is reserved for "absent".
    static bool encodeGap(std::int64_t ns, std::uint32_t& code);
    static std::int64_t decodeGap(std::uint32_t code)
    {
        return static_cast<std::int64_t>(std::uint64_t(code & 0x7ffffu) << (code >> 19));
    }
    static constexpr std::uint32_t kNoGap = 0xffffffu;

private:
    static constexpr std::uint64_t kCreatedMask = (std::uint64_t(1) << 61) - 1;
    static constexpr std::uint32_t kNoDuration = 0x7fffu;

    std::uint32_t gapCode(int shift) const
    {
        return static_cast<std::uint32_t>((m_packed >> shift) & 0xffffffu);
    }
    std::int64_t timeAfterCreated(std::uint32_t code) const
    {
        return code == kNoGap ? 0 : createdNs() + decodeGap(code);
    }
    void setClamped() { m_packed |= std::uint64_t(1) << 63; }

    // created ns (61 bits) | state (2) | retired (1)
    std::uint64_t m_created = 0;
    // started gap (24) | completed gap (24) | duration (15) | clamped (1)
    std::uint64_t m_packed = std::uint64_t(kNoGap) | std::uint64_t(kNoGap) << 24
        | std::uint64_t(kNoDuration) << 48;
};
static_assert(sizeof(FrEntry) == 32, "FrEntry is stored millions of times (see the comment above)");

inline bool FrEntry::encodeGap(std::int64_t ns, std::uint32_t& code)
{
    const auto v = static_cast<std::uint64_t>(ns);
    if (v < (1u << 19)) {
        code = static_cast<std::uint32_t>(v);
        return true;
    }
    int e = 0;
    while ((v >> e) >= (1u << 19))
        ++e;
    std::uint64_t m = (v + (std::uint64_t(1) << (e - 1))) >> e; // round to nearest
    if (m == (1u << 19)) {
        m >>= 1;
        ++e;
    }
    if (e > 31 || (e == 31 && m > (1u << 19) - 2)) {
        code = (31u << 19) | ((1u << 19) - 2);
        return false;
    }
    code = static_cast<std::uint32_t>(e) << 19 | static_cast<std::uint32_t>(m);
    return true;
}

inline bool FrEntry::setTimes(std::int64_t created, std::int64_t started, std::int64_t completed)
{
    bool ok = true;
    if (created > kMaxCreatedNs) { // not representable: the entry shows no times at all
        created = started = completed = 0;
        ok = false;
    }
    m_created = (m_created & ~kCreatedMask) | static_cast<std::uint64_t>(created > 0 ? created : 0);
    std::uint32_t codes[2] = { kNoGap, kNoGap };
    const std::int64_t times[2] = { started, completed };
    for (int i = 0; i < 2; ++i) {
        if (times[i] <= 0)
            continue;
        if (created <= 0) { // no base to measure from
            ok = false;
            continue;
        }
        if (times[i] < created) { // the clock stepped back between enqueue and discovery
            codes[i] = 0;
            ok = false;
            continue;
        }
        ok = encodeGap(times[i] - created, codes[i]) && ok;
    }
    m_packed = (m_packed & ~((std::uint64_t(1) << 48) - 1)) | codes[0]
        | std::uint64_t(codes[1]) << 24;
    if (!ok)
        setClamped();
    return ok;
}

inline bool FrEntry::setDurationMs(double ms)
{
    std::uint32_t code = kNoDuration;
    bool ok = true;
    if (ms >= 0) {
        const double us = ms * 1000.0 + 0.5;
        if (!(us < double((1u << 10) - 1) * double(1u << 31))) { // also NaN
            code = (31u << 10) | ((1u << 10) - 2); // the largest value that is not "absent"
            ok = false;
        } else {
            auto v = static_cast<std::uint64_t>(us);
            std::uint32_t e = 0;
            while ((v >> e) >= (1u << 10))
                ++e;
            std::uint64_t m = e == 0 ? v : (v + (std::uint64_t(1) << (e - 1))) >> e;
            if (m == (1u << 10)) {
                m >>= 1;
                ++e;
            }
            if (e > 31 || (e == 31 && m > (1u << 10) - 2)) {
                m = (1u << 10) - 2;
                e = 31;
                ok = false;
            }
            code = e << 10 | static_cast<std::uint32_t>(m);
        }
    }
    m_packed = (m_packed & ~(std::uint64_t(0x7fff) << 48)) | std::uint64_t(code) << 48;
    if (!ok)
        setClamped();
    return ok;
}

// The dump and the stack of an entry, through its call; kNoFrIndex when the call is unknown.
inline std::uint32_t frDumpOf(std::span<const FrCall> calls, const FrEntry& e)
{
    return e.call < calls.size() ? calls[e.call].dump : kNoFrIndex;
}
inline std::uint32_t frStackOf(std::span<const FrCall> calls, const FrEntry& e)
{
    return e.call < calls.size() ? calls[e.call].stack : kNoFrIndex;
}

// The global ranks of a process group as a dump's pg_config lists them, kept as runs of
// evenly spaced ranks: every dump of a 4096-rank job lists all 4096 ranks for the default
// group, which as plain ints would be 16 KB per dump and 67 MB for the bundle, growing with
// the square of the job size (issue 6: linear growth); as a run it is 12 bytes. Strided
// groups (data-parallel replicas) are one run too. Reads are vector-like.
class FrRankList {
public:
    FrRankList() = default;
    FrRankList(std::initializer_list<std::int32_t> ranks)
    {
        for (const std::int32_t r : ranks)
            push_back(r);
    }
    FrRankList(const std::vector<std::int32_t>& ranks) // NOLINT: vector-like by design
    {
        for (const std::int32_t r : ranks)
            push_back(r);
    }

    void push_back(std::int32_t rank)
    {
        ++m_size;
        if (!m_runs.empty()) {
            Run& last = m_runs.back();
            if (last.count == 1) {
                last.step = static_cast<std::int64_t>(rank) - last.first;
                last.count = 2;
                return;
            }
            if (last.first + last.step * static_cast<std::int64_t>(last.count) == rank) {
                ++last.count;
                return;
            }
        }
        m_runs.push_back({ rank, 0, 1 });
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    // O(number of runs): one or a few for real groups.
    std::int32_t operator[](std::size_t i) const
    {
        for (const Run& r : m_runs) {
            if (i < r.count)
                return static_cast<std::int32_t>(r.first + r.step * static_cast<std::int64_t>(i));
            i -= r.count;
        }
        return -1;
    }
    std::vector<std::int32_t> toVector() const
    {
        std::vector<std::int32_t> out;
        out.reserve(m_size);
        for (const Run& r : m_runs)
            for (std::uint32_t k = 0; k < r.count; ++k)
                out.push_back(static_cast<std::int32_t>(r.first + r.step * static_cast<std::int64_t>(k)));
        return out;
    }
    std::size_t runs() const { return m_runs.size(); }
    // Runs are built greedily, so equal sequences have equal runs.
    bool operator==(const FrRankList& o) const { return m_runs == o.m_runs; }
    bool operator==(const std::vector<std::int32_t>& v) const { return toVector() == v; }

private:
    struct Run {
        std::int64_t first = 0;
        std::int64_t step = 0;
        std::uint32_t count = 0;
        bool operator==(const Run&) const = default;
    };
    std::vector<Run> m_runs;
    std::size_t m_size = 0;
};

struct FrPgConfig {
    StrId name = kNoStr;
    StrId desc = kNoStr;
    FrRankList ranks; // global ranks of the group
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
    // Its entries do not show where its rank stopped: cut short, entries unreadable or
    // without sequence ids, or ending before the collectives its own pg_status says were
    // enqueued. It speaks for the collectives it holds, never for what it lacks (an import
    // issue says why).
    bool stopUnknown = false;
};

// nvidia-smi / dcgmi samples summarised per GPU ([formats 7.3]).
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
