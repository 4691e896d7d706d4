#pragma once
// NCCL_DEBUG output ([formats 3]). Every line of a bundle reaches this parser first and
// most of a big bundle is NCCL INFO, so the hot path is hand-written scanning: one memmem for
// "NCCL " rejects every other line, the header is found by walking back from the level word,
// and the message is dispatched on its first bytes. No regular expression runs on INFO lines.
//
// Header ([formats 3.1]), found anywhere in the line; with a torn line the LAST complete header wins:
//   [2025-03-01 12:00:05] host:pid:tid [dev] [trace_ms] [file:line [(func)]] NCCL LEVEL msg
//   "NCCL version 2.21.5+cuda12.4" (bare banner, ≤2.21 rank 0 / VERSION level)
//   Without host:pid:tid (XLA builds print "[10] NCCL INFO …"; pastes cut it: "include/shm.h:28
//   NCCL WARN …", "NCCL WARN …") when the optional fields reach the line's start: the line's
//   writer is then whatever its prefix or file says.
//
// INFO / TRACE message → what it yields:
//   NCCL version 2.28.9+cuda13.0                    → NcclVersion, detail = "2.28.9+cuda13.0"
//   NCCL_IB_TIMEOUT set by environment to 22.       → EnvSetting (no event)
//   [Rank 1] ncclCommInitRank comm 0xb9c26e0 rank 1 nranks 16 cudaDev 1 nvmlDev 1 busId 7e000
//       commId 0x898b6d578585998c - Init START      → CommInit + NcclInitStart (every [formats 3.3] row)
//   comm 0x12fd4c240 rank 3 nranks 4 cudaDev 3 busId 70 - Abort COMPLETE → NcclCommTeardown
//   comm 0x5558e3c10180 rank 13 nRanks 16 nNodes 2 … → current comm of the process
//   Bootstrap : Using enp45s0f0:146.155.155.83<0>   → BootstrapAddress + NcclBootstrap
//   NET/IB : Using [0]mlx5_0:1/IB … [RO]; OOB eth0:10.0.0.1<0>
//                                                   → BootstrapAddress + NcclNetSelect
//   NET/Socket : Using [0]eth0:11.130.1.53<0>       → BootstrapAddress + NcclNetSelect
//   Using network IB / NET/IB : No device found. / NET/Plugin: No plugin found
//                                                   → NcclNetSelect
//   Ring 00 : 3 -> 0 -> 1                           → 2 CommLink RingNeighbour
//   Trees [0] 3/-1/-1->2->1 [1] …                   → CommLink TreeParent per channel
//   Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA
//                                                   → CommLink ChannelSend / ChannelReceive
//   Channel 00/02 :    0   1   2   3                → CommLink RingNeighbour (wraps around)
//   AllReduce: opCount 28c sendbuff … comm 0x55bef0201370 [nranks=4] stream …
//                                                   → CollTrace of (process, comm); no event
//   [Service thread] Connection closed by localRank 3 → NcclLocalRankClosed, peerRank = 3
//   transport/net.cc:1298 -> 6                      → NcclErrorChain, code 6 (first of a run)
//   include/alloc.h:250 Cuda failure 'driver shutting down' → NcclCudaFailure (Warning)
//
// WARN message → event (text = message, identity = the header's process):
//   NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 … hca mlx5_0
//                                                   → NcclIbCompletionError, code, peer, hca
//   NET/IB : mlx5_3:1 async fatal event on QP (0x7…): …
//                                                   → NcclIbAsyncEvent, text = event, dev
//   socketProgress: Connection closed by remote peer gpu004<55693> → NcclSocketError, peer
//   Bootstrap Root : mismatch in rank count from procs 8 : 7 → NcclBootstrapError
//   [Service thread] Error encountered progressing operation=Connect, … → NcclProxyError
//   Cuda failure 'out of memory' / Failed to CUDA calloc 1234 bytes → NcclCudaFailure
//   Error: failed to extend /dev/shm/nccl-x to 9637892 bytes → NcclShmError
//   anything else                                         → NcclWarn
//
// Channel, ring and tree lines name no communicator: they belong to the communicator the same
// process announced last (Init START/COMPLETE or "comm %p rank %d nRanks" line).

#include "model/parsedsource.h"
#include "parsers/bytescan.h"
#include "parsers/linecontext.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope::parsers {

class NcclParser {
public:
    // True when the line was recognised (and events or records were added).
    // NCCL's WARN text without its "host:pid:tid [dev] … NCCL WARN" header, offered by the
    // scanner only for lines no other parser took (after "Last error:" inside a PyTorch
    // exception the same text belongs to that exception):
    //   "NET/IBP:Got completion from peer …"                  the IB completion, header cut off
    //   "include/socket.h:344 WARN Socket creation failed …"  cut before the source location
    //   "… Last NCCL warning(error) … 'Bootstrap : no …'"     XLA quoting NCCL's last WARN
    bool parseBareWarn(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // NCCL's last WARN as a framework quotes it on the line after "Last error:" when no
    // exception block holds that line; file is the WARN's source location when known.
    bool parseQuotedWarn(
        const LineContext& ctx, std::string_view text, std::string_view file, model::ParsedSource& out);
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
    {
        return parseLine(ctx, body, out, startsWithCachedHeader(body));
    }
    // The same, when the caller already knows whether body starts with the cached header.
    bool parseLine(
        const LineContext& ctx, std::string_view body, model::ParsedSource& out, bool headerCached);
    // The scanner's lane for most lines of a big bundle: a line that repeats the shape of
    // the last COLL line parseLine recorded for the same writer — the same launcher prefix
    // and NCCL header bytes, the same op, the same fields after the count, so the same
    // communicator — with only the opCount, buffers and count changed. One lane per writer
    // (a table keyed by the line's first bytes), so a file interleaving processes line by
    // line (a node's torchrun --tee console, an srun --label console) keeps every process
    // on its lane. findRepeatedCollLane finds the lane whose line start begins `line`;
    // the caller then vouches that it is a new physical line whose text after the launcher
    // prefix (prefixSize bytes) has no timestamp, that no parser has a block open and that
    // the secret masker is not inside a key block. The line has not been masked: it is
    // taken only when its pieces show that the masker's prefilter would pass it by
    // (SecretMasker::mightContainSecret() is false, told from the pieces by the promises
    // the masker states in secretmasker.h), so masking would leave it as it is. Records it
    // into that writer's trace, exactly as parseLine would, and returns true; false, with
    // nothing changed, otherwise.
    struct LaneHit {
        std::uint32_t slot = 0;
        std::size_t prefixSize = 0; // the launcher prefix the full path would strip
        std::uint32_t prefixIdentity = 0; // the identity that prefix gives the line
    };
    std::optional<LaneHit> findRepeatedCollLane(std::string_view line) const;
    bool recordRepeatedColl(const LaneHit& lane, std::string_view line,
        const model::EvidenceRef& evidence, model::ParsedSource& out);
    // A multi-line block is open: the scanner must hand over every following line.
    bool inBlock() const { return false; }
    // End of input: close open blocks.
    void finish(model::ParsedSource& out);
    // The message of the last header of the line parseLine just recognised ("" when none);
    // points into that line, so it is only valid until the next line.
    std::string_view lastMessage() const { return m_lastMessage; }
    // Whether that line held more than one header (a torn line: earlier messages exist).
    bool lastLineHadSeveralHeaders() const { return m_lastSeveralHeaders; }
    // The line starts with the NCCL header ("host:pid:tid [dev] NCCL INFO ") an earlier line
    // of this input began with. No launcher prefix starts like "host:pid:tid ", so the
    // scanner has nothing to strip from such a line (tests/parsers/test_lineprefix.cpp).
    bool startsWithCachedHeader(std::string_view line) const
    {
        const std::string& text = m_headerCache.text;
        return !text.empty() && line.size() >= text.size()
            && bytesEqual(line.data(), text.data(), text.size());
    }

    // Links kept per (process, communicator); the rest are counted, not stored.
    static constexpr std::uint32_t kMaxLinksPerComm = 256;

private:
    enum class Level : std::uint8_t { Info, Warn, Trace, Call };

    struct Header {
        std::size_t start = 0; // where the host name begins in the body
        std::string_view host;
        std::int32_t pid = -1;
        std::int32_t device = -1; // "[3]": the CUDA device index, -1 when absent or garbage
        std::string_view file; // WARN/TRACE source "transport/net_ib.cc"
        std::int64_t traceNs = -1; // TRACE "%f" ms since NCCL init, in ns
        model::TimePrecision tracePrecision = model::TimePrecision::None;
        Level level = Level::Info;
        std::string_view msg;
    };

    // One recognised line with the writer's identity resolved.
    struct Line {
        const LineContext& ctx;
        std::string_view body;
        const Header& header;
        std::uint32_t identity = 0;
    };

    struct ProcessState {
        model::StrId comm = model::kNoStr; // communicator announced last
        std::int32_t commRanks = -1;
        std::int32_t chainRc = -1;
        bool inChain = false; // the previous line of this process was an error-chain line
        // The CollTrace of this process's last COLL line, keyed by the comm pointer text:
        // consecutive collectives of one process nearly always use the same communicator.
        std::string lastCollComm;
        std::size_t lastCollTrace = SIZE_MAX;
    };

    // Small direct-mapped cache: combined files interleave a handful of processes.
    struct IdentitySlot {
        bool used = false;
        std::uint32_t ctxIdentity = 0;
        std::int32_t pid = -1;
        std::string host;
        std::uint32_t identity = 0;
    };

    // Header text of the last clean one-header line ("dgx68:297712:297712 [2] NCCL INFO "):
    // consecutive lines of a file mostly repeat it, and comparing it is cheaper than parsing.
    struct HeaderCache {
        std::string text; // empty = nothing cached
        std::size_t hostSize = 0;
        std::int32_t pid = -1;
        std::int32_t device = -1;
        Level level = Level::Info;
        // The process identity of lines with this header under prefix identity identityFor.
        std::uint32_t identityFor = kNoIdentity;
        std::uint32_t identity = 0;
        bool fingerprintFree = false; // !SecretMasker::mightContainSecret(text)
    };
    static constexpr std::uint32_t kNoIdentity = UINT32_MAX;

    static bool headerWithoutNcclWord(std::string_view body, Header& header);
    void headerFromCache(std::string_view body, Header& header) const;
    enum class CachedColl : std::uint8_t { Recorded, NotColl, Torn };
    // A line starting with the cached header read as a COLL line (see parseLine).
    CachedColl cachedColl(const LineContext& ctx, std::string_view body, const Header& header,
        model::ParsedSource& out);
    void armLane(const LineContext& ctx, std::string_view body, std::uint32_t identity);
    void finishLine(const Line& line);
    void rememberHeader(std::string_view body, const Header& header, std::size_t firstStart);
    static bool findHeader(std::string_view body, std::size_t pos, Header& header,
        std::size_t& firstStart);
    static bool headerBefore(std::string_view body, std::size_t ncclPos, Header& header);

    bool parseBanner(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    std::uint32_t processIdentity(model::ParsedSource& out, const LineContext& ctx,
        std::string_view host, std::int32_t pid);
    // Identity from the NCCL header alone, for a second header inside a torn line.
    std::uint32_t bareProcessIdentity(model::ParsedSource& out, const LineContext& ctx,
        std::string_view host, std::int32_t pid);
    ProcessState& process(std::uint32_t identity) // twice per COLL line: inline
    {
        if (identity >= m_processes.size())
            m_processes.resize(identity + 1);
        return m_processes[identity];
    }
    model::Event& emit(const Line& line, model::ParsedSource& out, model::EventKind kind,
        model::Severity severity, std::string_view text);

    // INFO / TRACE dispatch, hot first.
    void dispatchInfo(const Line& line, model::ParsedSource& out);
    bool parseColl(const Line& line, std::string_view msg, model::ParsedSource& out);
    // The fields of NCCL's own COLL layout after the opCount, at position i of msg; false
    // (fields partly filled) for anything else, which the general key/value walk then reads.
    struct CollFields {
        std::optional<std::uint64_t> count;
        std::string_view comm;
        std::int32_t datatype = -1;
        std::int32_t root = -1;
        std::int32_t nranks = -1;
        // In NCCL's layout: where the walk stopped (after "[nranks=N]"). The walk saw every
        // byte before it and refused any 'N', so no second NCCL header of a torn line starts
        // there. 0 when the key walk read the line.
        std::size_t cleanEnd = 0;
        // In NCCL's layout: where " datatype " begins, and whether everything from there was
        // taken from the memo of an earlier line with the same bytes.
        std::size_t tailStart = 0;
        bool tailFromMemo = false;
        bool plainPointers = false; // both buffers as CollCursor::pointer's `plain`
    };
    // A COLL line's message read without side effects (false: not a COLL line), then stored.
    struct CollLine {
        model::CollCall call;
        std::optional<std::uint64_t> opCount;
        CollFields fields;
        std::size_t headSize = 0; // "AllReduce: opCount "
        bool headFromMemo = false;
    };
    // The last clean COLL line in NCCL's layout, in two pieces that consecutive COLL lines
    // of a process repeat byte for byte: the head ("AllReduce: opCount ") and the tail from
    // " datatype " on (datatype, op, root, comm, nranks, stream). A line starting or ending
    // with the same bytes takes the values read from them instead of walking them again;
    // only a line that passed the torn-line search is remembered (rememberColl), so a tail
    // taken from the memo holds no second NCCL header either.
    struct CollMemo {
        std::string head;
        model::OpType op = model::OpType::Unknown;
        std::string tail;
        std::int32_t datatype = -1;
        std::int32_t root = -1;
        std::int32_t nranks = -1;
        std::size_t commAt = 0; // the comm pointer within the tail
        std::size_t commSize = 0;
        bool headFingerprintFree = false; // !SecretMasker::mightContainSecret(head)
        bool tailFingerprintFree = false;
    };
    static bool readColl(std::string_view msg, CollLine& coll, const CollMemo* memo = nullptr);
    bool recordColl(const Line& line, const CollLine& coll, model::ParsedSource& out);
    void keepCall(model::CollTrace& trace, std::size_t index, const model::CollCall& call,
        std::int32_t nranks);
    bool rememberColl(std::string_view msg, const CollLine& coll);
    static bool collFieldsInNcclLayout(
        std::string_view msg, std::size_t i, CollFields& f, const CollMemo* memo);
    static void collFieldsByKey(std::string_view msg, std::size_t i, CollFields& f);
    void parseChannel(const Line& line, std::string_view msg, model::ParsedSource& out);
    void parseRing(const Line& line, std::string_view msg, model::ParsedSource& out);
    void parseConnection(const Line& line, std::string_view rest, std::int32_t channel,
        model::ParsedSource& out);
    void parseTrees(const Line& line, std::string_view msg, model::ParsedSource& out);
    bool parseCommLine(const Line& line, std::string_view msg, model::ParsedSource& out);
    bool parseEnv(const Line& line, std::string_view msg, model::ParsedSource& out);
    bool parseBootstrapOrNet(const Line& line, std::string_view msg, model::ParsedSource& out);
    bool parseFileLineMessage(const Line& line, std::string_view msg, model::ParsedSource& out);
    void addAddresses(const Line& line, std::string_view list, model::ParsedSource& out,
        model::Event* event);
    void addLink(const Line& line, model::ParsedSource& out, model::LinkKind kind,
        std::int32_t channel, std::int32_t from, std::int32_t to, model::StrId transport);

    // WARN dispatch (rare: may afford a few memmem calls).
    void dispatchWarn(const Line& line, model::ParsedSource& out);
    void parseIbCompletion(const Line& line, std::string_view msg, model::ParsedSource& out);
    void parseIbAsync(const Line& line, std::string_view msg, model::ParsedSource& out);

    model::CollTrace& collTraceFor(const Line& line, std::string_view comm,
        model::ParsedSource& out, std::size_t& index);

    HeaderCache m_headerCache;
    CollMemo m_collMemo;
    std::string_view m_lastMessage;
    bool m_lastSeveralHeaders = false;
    // The lanes of recordRepeatedColl, a direct-mapped table keyed by the first bytes of a
    // line (kLaneKeyBytes), grown when writers keep evicting each other. A lane is armed by
    // a clean COLL line at the start of a physical line (armLane) and holds what the next
    // line of that writer must repeat; its line start is compared byte for byte before use,
    // so a stale or colliding lane only sends a line down the full path. Cleared at finish().
    struct CollLane {
        std::string lineStart; // launcher prefix + NCCL header, as on the line
        std::size_t prefixSize = 0;
        bool fingerprintFree = false; // !SecretMasker::mightContainSecret(lineStart)
        CollMemo memo; // the head and tail of the writer's last COLL line
        std::uint32_t trace = 0; // its collTraces index
        std::uint32_t prefixIdentity = 0;
        std::uint32_t processIdentity = 0;
        bool ready = false;
    };
    std::vector<CollLane> m_lanes;
    std::size_t m_laneEvictions = 0;
    std::array<IdentitySlot, 16> m_identityCache;
    // Indexed by identity index (dense).
    std::vector<ProcessState> m_processes;
    // Set while the current line is an error-chain line, so the run is not reset.
    bool m_lineIsChain = false;

    // CollTrace lookup: key = identity << 32 | interned comm pointer; value = collTraces index.
    std::unordered_map<std::uint64_t, std::uint32_t> m_collIndex;
    // Next slot to overwrite in each CollTrace's tail once it is full; by collTraces index.
    std::vector<std::uint32_t> m_collNext;
    // The trace of the last COLL line: consecutive lines of a process name the same comm, so
    // most lines find their trace here without the per-process lookup.
    struct LastColl {
        std::uint32_t identity = UINT32_MAX;
        std::uint32_t index = 0;
        std::string comm;
    };
    LastColl m_lastColl;

    // Links stored per (identity << 32 | comm pointer), capped at kMaxLinksPerComm.
    std::unordered_map<std::uint64_t, std::uint32_t> m_linkCount;
    std::uint64_t m_droppedLinks = 0;
    std::uint64_t m_collapsedChainLines = 0;
};

} // namespace rankscope::parsers
