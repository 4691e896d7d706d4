#pragma once
// PyTorch ProcessGroupNCCL (c10d) messages, [formats 1], every dialect 1.13 → 2.7+.
// Grammars are searched anywhere in the line (tqdm bars and torn writes glue them to other
// text); the envelope "[E1218 20:27:21.4 ProcessGroupNCCL.cpp:629] " / "[E ….cpp:737] " /
// glog "E0527 15:16:57.738664 58629 ….cpp:2183] " only contributes its severity letter
// (F → Fatal, W → at least Warning), its time when it sits mid-line, and a mid-line
// "[rankN]:" tag. The PG prefix right before a message ("[Rank 3] ", "[PG 0 Rank 25] ",
// "[PG 0 (default_pg) Rank 1] ", "[PG ID 2 PG GUID 3(desc) Rank 3] ", doubled) fills
// Event::pg (GUID, else PG ID) and Event::pgRank on every event. <W> = WorkNCCL(…) of any
// era (TensorShape=[…], SeqNum=…, NumelIn=18446744073709551615, …) fills seq, op,
// numelIn/numelOut, timeoutMs; one cut before its ')' keeps what was read and adds the import
// issue "pytorch_truncated_work".
//
// One input line → what it yields:
// (a) "[Rank 0] Watchdog caught collective operation timeout: <W> ran for 600081 milliseconds
//      before timing out."                   → TorchWatchdogTimeout, durationMs = ran for, Error
// (b) "<P>Exception (either an error or timeout) detected by watchdog at work: 808, last
//      enqueued NCCL work: 811, last completed NCCL work: 807." / "<P>Timeout at NCCL work: …" /
//     "<P>NCCL error is detected by watchdog at work: …" / "<P> failure detected by watchdog at
//      work sequence id: 1 PG status: last enqueued work: 547, [last started work: 546, ]last
//      completed work: -1"                   → TorchWatchdogStatus, seq, lastEnqueued/Started/
//                                              Completed, detail = PG desc, Error
// (c) "Stack trace of the failed collective: " + envelope-less "#0 f from file:line" lines
//                                            → TorchFailedCollectiveStack, text = frames, code 1
//     "Stack trace of the failed collective not found, potentially because FlightRecorder is
//      disabled. …"                          → TorchFailedCollectiveStack, code 0
//     (the line carries no PG prefix; pg/pgRank come from the status line just before it)
// (d) "[Rank 0] Some NCCL operations have failed or timed out. …" (≤1.13 single line too)
//                                            → TorchTeardown, Warning; "[Rank 0] To avoid data
//                                              inconsistency, …" only when the first is missing
// (e) "<P>Process group watchdog thread terminated with exception: <what>" / ≤2.1 "[Rank 16]
//      NCCL watchdog thread terminated with exception: <what>"
//                                            → TorchWatchdogException, text = what, seq/op/numel/
//                                              timeoutMs/durationMs from a WorkNCCL in it, Fatal
//     "terminate called after throwing an instance of 'c10::DistBackendError'"
//                                            → detail = class on the latest such event of the
//                                              stream (a placeholder event when there is none)
//     "  what():  <e or a or NCCL error text>", "Exception raised from … (most recent call
//      first):", "frame #3: …"               → recognised; a what() that repeats an event adds
//                                              nothing (de-duplicated by writer and text)
// (f) "[Rank 0] Collective <W> raised the following async exception: NCCL error: …" + "ncclX…:",
//     "Last error:", "<last NCCL WARN>"      → TorchAsyncNcclError, text = "NCCL error: …",
//                                              detail = the last-error line, Error
// (g) "… NCCL error in: ../ProcessGroupNCCL.cpp:1275, unhandled system error …, NCCL version
//      2.18.1" (+ detail lines as in f)      → TorchNcclApiError, detail = last error, Error
//     "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO …)" (vLLM's
//      pynccl; PyTorch 1.x what()): the result text alone, one of ncclGetErrorString()'s
//                                            → TorchNcclApiError, Error
// (h) "NCCL communicator was aborted on rank 2.  Original reason for failure was: …"
//                                            → TorchCommAborted, pgRank = 2, Error
// (i) "<P>Heartbeat monitor timed out! …", "<P>First PG on this rank that detected no heartbeat
//      of its watchdog."                     → TorchHeartbeatStuck, Error
//     "<P><P>ProcessGroupNCCL's watchdog got stuck for 480 seconds …"
//                                            → TorchHeartbeatStuck, durationMs = 480000, Error
//     "<P><P>Terminating the process after attempting to dump debug info, due to
//      ProcessGroupNCCL watchdog hang."      → TorchHeartbeatTerminate, Fatal
//     "Could not acquire GIL within 300 ms on exit, possible GIL induced hang"
//                                            → TorchHeartbeatStuck, code 1, Warning
// (j) "<P>Received a dump signal due to a collective timeout from this local rank | from  rank 7
//      … Last enqueued NCCL work: E, last completed NCCL work: C." (2.3/2.4 "Received a timeout
//      signal from this local rank", "Received a global dump signal from rank N")
//                                            → TorchDumpSignal, peerRank (-1 = local), Warning
//     "<P>ProcessGroupNCCL preparing to dump debug info. …", "<P>ProcessGroupNCCL dumping nccl
//      trace to /tmp/nccl_trace_rank_3" (detail = path), "Flight Recorder trace successfully
//      dumped.", "Finished writing NCCLPG debug info to <f>" (detail), "Finished flight recorder
//      successfully. …", "Observed flight recorder dump signal from another rank via TCPStore.",
//      "First PG on this rank to signal dumping.", "Broadcasting flight-recorder dump signal …"
//                                            → TorchDumpProgress, Info
//     "<P>Future for Flight recorder dump in heartbeatMonitor timed out after 15000 ms",
//     "<P>Exception thrown when waiting for future Flight recorder dump in heartbeatMonitor: …"
//                                            → TorchDumpProgress, code 1, durationMs, Warning
//     "<P> remote error detected from rank: 5" → TorchRemoteError, peerRank = 5, Error
// (k) "[Rank 0] Work <W> timed out in blocking wait." → TorchBlockingWaitTimeout, Error
// (l) "\t - [3] Timeout at collective: ALLREDUCE, #4084" and the following "\t…" lines
//     (after the (a) line ≤2.1, a bare "<P>" line 2.2–2.6, or "Rank 3" ≥2.7)
//                                            → DesyncReport record + TorchDesyncReport (seq, op,
//                                              pgRank = reporting rank, code 1), Error
//     "Failed to retrieve TORCH_NCCL_DESYNC_DEBUG report. …" (also "rerieve")
//                                            → TorchDesyncReport, code 0, no record, Warning
// (m) "Detected mismatch between collectives on ranks. Rank 0 is running collective:
//      CollectiveFingerPrint(SequenceNumber=18, OpType=ALLGATHER, …), but Rank 2 is running
//      collective: CollectiveFingerPrint(OpType=BROADCAST)."
//                                            → TorchFingerprintMismatch, pgRank 0, peerRank 2,
//                                              seq/op of rank 0, detail = "BROADCAST", Error
// (n) "<P>ProcessGroupNCCL initialization options: size: 8, global rank: 3, TIMEOUT(ms): 600000,
//      …, PG Name: 0"                        → ProcessGroupOptions record + TorchPgOptions
//     "<P>ProcessGroupNCCL environments: NCCL version: 2.21.5, TORCH_NCCL_…: 3, …",
//     "<P>HeartbeatMonitor environments: …"  → TorchPgEnvironment + one EnvSetting per pair
//     "<P>TORCH_NCCL_BLOCKING_WAIT is enabled, NO watchdog thread is created."
//                                            → TorchPgEnvironment + EnvSetting (…BLOCKING_WAIT=1)
//     "<P>ProcessGroupNCCL created ncclComm_ 0x555b8d27b370 on CUDA device: 5" (or a raw byte)
//                                            → TorchCommCreated, detail = pointer, code = device
//     "[3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d
//      key-value store by key '0', but store->get('0') got error: …"
//                                            → TorchStoreError, pgRank 3, peerRank 0, Error
//     "<P>ProcessGroupNCCL broadcast unique ID through store took 4103.04 ms"
//                                            → TorchUniqueIdBroadcast, durationMs = 4103
//     "<P>NCCL Work update periodically: last enqueued NCCL work: N, last completed NCCL work: M."
//                                            → TorchWorkUpdate
//
// Multi-line blocks (c, e-g backtraces, l) are kept per writer: continuation lines carry no
// envelope and, behind the C++ logger's "[rankN]:", no prefix either, so a continuation goes
// to the open block of its own identity, else to the latest block whose identity does not
// contradict the line's prefixes. Failures printed 2-3 times per rank (LOG line, terminate's
// what(), the Python re-raise) are de-duplicated by (kind, compatible writer, text).

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

class PytorchParser {
public:
    // True when the line was recognised (and events or records were added).
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A multi-line block is open: the scanner must hand over every following line.
    bool inBlock() const { return !m_blocks.empty(); }
    // End of input: close open blocks.
    void finish(model::ParsedSource& out);

private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    struct Message; // where a message sits in its line: prefix, envelope (pytorchparser.cpp)

    enum class BlockKind : std::uint8_t {
        FailedStack, // (c) "#0 f from file:line" frames
        ErrorDetail, // (e)-(g) "ncclRemoteError: …", "Last error:", C++ backtrace lines
        Desync, // (l) "\t - …" items
    };

    struct Block {
        BlockKind kind = BlockKind::ErrorDetail;
        std::uint32_t identity = 0;
        std::size_t event = kNone; // index into out.events, kNone when the block has none
        std::uint64_t lastLine = 0;
        bool afterLastError = false; // the next line is ncclGetLastError()'s text
        std::string frames;
        model::DesyncReport report;
    };

    // Events that a later repeat must not duplicate, and terminate's class must reach.
    struct RecentEvent {
        model::EventKind kind = model::EventKind::Unknown;
        std::uint32_t identity = 0;
        model::StrId text = model::kNoStr;
        std::size_t event = 0;
    };

    // The last PG prefix seen per writer: the desync report and the failed-collective stack
    // lines carry none of their own.
    struct PrefixMark {
        std::uint32_t identity = 0;
        std::uint64_t lineNo = 0;
        model::StrId pg = model::kNoStr;
        std::int32_t pgRank = -1;
        bool valid = false;
    };

    // "terminate called after throwing an instance of 'X'" waiting for its what() line.
    struct PendingTerminate {
        std::uint32_t identity = 0;
        std::uint64_t lineNo = 0;
        model::StrId exceptionClass = model::kNoStr;
        std::size_t placeholder = kNone; // event created for a class with no earlier event
        bool valid = false;
    };

    struct Anchor; // one grammar's literal and what it starts (pytorchparser.cpp)
    class AnchorSearch; // finds the leftmost anchor of a line in one pass, built once
    static const AnchorSearch& anchorSearch();

    bool continueWrappedTimeout(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    void noteCheckTimeoutFrame(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    static bool isC10NoticeEnvelope(std::string_view body);
    bool parseStartAnchored(
        const LineContext& ctx, std::string_view body, model::ParsedSource& out, bool& handled);
    bool parseMessage(
        const LineContext& ctx, std::string_view body, model::ParsedSource& out, bool rankSeen);
    bool parseAnchored(const LineContext& ctx, std::string_view body, std::size_t at,
        const Anchor& anchor, model::ParsedSource& out);

    // One per grammar of [formats 1.4]; `at` is where the grammar's anchor literal starts.
    bool parseWatchdogTimeout(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseWatchdogStatus(const LineContext& ctx, std::string_view body, std::size_t at,
        std::size_t afterAnchor, model::ParsedSource& out);
    bool parseFailedStack(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseTeardown(const LineContext& ctx, std::string_view body, std::size_t at, bool first,
        model::ParsedSource& out);
    bool parseWatchdogException(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool recordWatchdogException(
        const LineContext& ctx, const Message& m, std::string_view what, model::ParsedSource& out);
    bool parseWhat(const LineContext& ctx, std::string_view body, std::size_t afterWhat,
        model::ParsedSource& out);
    bool parseTerminate(const LineContext& ctx, std::string_view line, model::ParsedSource& out);
    bool parseAsyncError(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    static bool startsWithNcclResultText(std::string_view text);
    bool parseApiError(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseCommAborted(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseDumpSignal(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseBlockingWait(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseDesyncStart(const LineContext& ctx, std::string_view body, std::string_view line,
        model::ParsedSource& out);
    bool parseDesyncFailure(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseMismatch(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseOptions(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseEnvironment(const LineContext& ctx, std::string_view body, std::size_t at,
        std::size_t listStart, model::ParsedSource& out);
    bool parseCommCreated(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseStoreError(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseBareHeader(const LineContext& ctx, std::string_view body, model::ParsedSource& out);

    // Locates the message whose text starts at (or, with up to `maxLead` words of lead, just
    // before) `anchor`: its PG prefix chain, its envelope and its writer.
    Message locate(const LineContext& ctx, std::string_view body, std::size_t anchor,
        std::size_t maxLead, model::ParsedSource& out) const;
    model::Event& emit(const LineContext& ctx, const Message& m, model::ParsedSource& out,
        model::EventKind kind, model::Severity severity, std::string_view text);
    // locate() + emit() with the text from the message start to the end of the line.
    model::Event& emitAt(const LineContext& ctx, std::string_view body, std::size_t start,
        model::ParsedSource& out, model::EventKind kind, model::Severity severity);
    void applyPrefix(model::Event& e, const Message& m, model::ParsedSource& out);

    // De-duplication of repeated failures.
    std::size_t findRecent(model::EventKind kind, std::string_view text, std::uint32_t identity,
        const model::ParsedSource& out) const;
    void remember(model::EventKind kind, std::size_t event, const model::ParsedSource& out);
    PendingTerminate takePending(
        const LineContext& ctx, std::uint32_t identity, const model::ParsedSource& out);
    // The PG prefix the writer printed within the last few lines, if any.
    const PrefixMark* recentMark(
        std::uint32_t identity, std::uint64_t lineNo, const model::ParsedSource& out) const;

    // Multi-line blocks.
    enum class Continuation : std::uint8_t { Consumed, NotMine };
    Continuation continueBlock(
        const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool continueErrorDetail(Block& block, std::string_view line, model::ParsedSource& out);
    void openBlock(BlockKind kind, std::uint32_t identity, std::size_t event,
        const LineContext& ctx, model::ParsedSource& out);
    void closeBlock(std::size_t index, model::ParsedSource& out);

    std::vector<Block> m_blocks;
    std::vector<RecentEvent> m_recent;
    std::vector<PrefixMark> m_prefixMarks; // indexed by identity
    PrefixMark m_lastMark;
    // A watchdog timeout event whose WorkNCCL(…) was wrapped onto the next line.
    std::size_t m_wrappedTimeout = static_cast<std::size_t>(-1);
    void takeGluedLastError(std::size_t event, std::string_view body, std::size_t from, model::ParsedSource& out);
    std::uint64_t m_wrappedTimeoutLine = 0;
    PendingTerminate m_pending;
    std::size_t m_lastTeardown = 0; // index + 1 of the latest (d) event, 0 = none
    std::uint64_t m_lastTeardownLine = 0;
};

} // namespace rankscope::parsers
