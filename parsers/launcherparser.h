#pragma once
// Launcher lines: torchrun / torch.distributed.elastic ([formats 5]), DeepSpeed, Open MPI,
// Lightning ([formats 6]), and rendezvous / store / bootstrap failures. One input line → what it yields:
//
// torchrun agent, all three logging dialects (≤2.0 "ERROR:torch.distributed.elastic…:",
// 2.1–2.2 "[2024-07-25 06:36:18,293] torch.distributed.elastic.multiprocessing.api: [WARNING] ",
// ≥2.3 "E0325 20:57:27.620000 2606 site-packages/…/api.py:869] ", thread id in 2.3):
//   "failed (exitcode: -6) local_rank: 0 (pid: 218624) of binary: /home/…/bin/python"
//     → LauncherWorkerFailed code = -6, pid = 218624, peerRank = local rank 0, Error
//   "Sending process 153929 closing signal SIGTERM"
//     → LauncherSignalSent pid = 153929, code = 15 (SIGKILL 9, SIGINT 2 …), Warning
//   "Unable to shutdown process 754025 via Signals.SIGTERM, forcefully exiting via
//   Signals.SIGKILL"   → LauncherSignalSent pid = 754025, code = 9, detail = "sigterm_ignored",
//                         Warning
//
// ChildFailedError table ([formats 5.2]), possibly prefixed on every line and once per node:
//   "Failures:" / "Root Cause (first observed failure):" sections, "  <NO_OTHER_FAILURES>",
//   "[1]:" + "  time      : 2023-06-14_22:36:10" + "  host      : …" + "  rank      : 1
//   (local_rank: 1)"
//   + "  exitcode  : -6 (pid: 2385923)" + "  error_file: <N/A>" + "  traceback : Signal 6 …"
//   (the traceback may go on over lines indented by two more spaces)
//     → one LauncherFailure record per "[i]:" (reportedAsRootCause in the Root Cause section)
//       + LauncherFailureRecord event: code = exit code, peerRank = global rank, pid,
//         text = the traceback's last line, peer = host, time = the record's time, Error.
//
// Rendezvous result (pt:torch/distributed/elastic/agent/server/api.py `_rendezvous`, logged
// with "\n" inside one message; torch._logging ≥2.1 repeats its envelope on every line):
//   "[default] Rendezvous complete for workers. Result:" + "  restart_count=0",
//   "  master_addr=…", "  master_port=…", "  group_rank=0", "  group_world_size=2",
//   "  local_ranks=[0, 1]", "  role_ranks=[0, 1]", "  global_ranks=[0, 1]",
//   "  role_world_sizes=[4, 4]", "  global_world_sizes=[4, 4]"   → WorkerGroupLayout record
//
// DeepSpeed launcher (deepspeed/launcher/launch.py):
//   "[…] [ERROR] [launch.py:325:sigkill_handler] ['…/python3.9', '-u', 'x.py', '--local_rank=1',
//   …] exits with return code = -6"  → LauncherExit code = -6, peerRank = local rank 1 (-1 if
//                                       absent), detail = "deepspeed", Error
//   "Killing subprocess 748089"       → LauncherSignalSent pid = 748089, code = 15, Warning
//   "Process 748090 exits successfully." → LauncherExit code = 0, pid = 748090,
//                                          detail = "deepspeed", Info
//
// Open MPI / PRRTE:
//   "prterun noticed that process rank 7 with PID 0 on node gpu0304 exited on signal 6
//   (Aborted)." (also mpirun/orterun) → LauncherExit code = -6, peerRank = world rank 7,
//                                       peer = node, pid (-1 when printed as 0), detail = "mpi"
//   "  Process name: [[11192,1],8]" then "  Exit code:    3" (Open MPI 4 abort summary)
//                                     → LauncherExit code = 3, peerRank = 8, detail = "mpi"
//
// Frameworks:
//   "Initializing distributed: GLOBAL_RANK: 3, MEMBER: 4/8" (Lightning)
//                                     → FrameworkInfo peerRank = 3, code = 8 (world size), Info
//   "Initializing TorchBackend in DeepSpeed with backend nccl"
//                                     → FrameworkInfo peerRank = -1, code = -1 (unknown), Info
//
// Rendezvous / store / bootstrap failures → LauncherRendezvousError, text = the message from
// the error's first word, detail = exception class when the line is an exception line, Error.
// A writer repeating the same text (connect retries) yields one event.
//   "torch.distributed.DistStoreError: Timed out after 1201 seconds waiting for clients.
//   511/512 clients joined."        → code = 511 (joined), seq = 512 (expected),
//                                     durationMs = 1201000   (pt:c10d/TCPStore.cpp waitForWorkers)
//   "torch.distributed.DistStoreError: Socket Timeout"          (pt:c10d/TCPStore.cpp doWait)
//   "… DistStoreError: wait timeout after 600000ms, keys: /default_pg/0//cuda//0" (newer doWait)
//   "torch.distributed.DistNetworkError: …"
//   "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"  (raised bare by
//   "…RendezvousClosedError"     dynamic_rendezvous.py _RendezvousOpExecutor.run, etcd backend)
//   "…RendezvousConnectionError: The connection to the C10d store has failed. See inner
//   exception for details."                  (elastic/rendezvous/c10d_rendezvous_backend.py)
//   "The server socket has failed to listen on any local network address."
//                                                     (pt:c10d/socket.cpp SocketListenOp)
//   "The client socket has timed out after 60s while trying to connect to (host, 29400)."
//                                                     (socket.cpp throwTimeoutError; ≤2.1 "to h:p")
//   "The client socket has failed to connect to [host]:29500 (errno: 111 - Connection refused)."
//   "The client socket has failed to connect to any network address of (host, 29500)."
//                                     → peer = the address after "connect to"
//   "RuntimeError: connect() timed out. Original timeout was 60000 ms." (TCPStore ≤1.10,
//                                                     pytorch/pytorch#67581)
//   "… TCPStore … Connection refused" (older TCPStore / c10d wording)
// Source lines naming these classes ("raise RendezvousTimeoutError()", "except …:") are not
// exception lines and yield nothing.

#include "model/parsedsource.h"
#include "parsers/keywordset.h"
#include "parsers/linecontext.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope::parsers {

class LauncherParser {
public:
    LauncherParser();

    // True when the line was recognised (and events or records were added).
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A table or rendezvous result is open: the scanner must hand over every following line.
    bool inBlock() const { return m_openBlocks > 0; }
    // End of input: close open blocks.
    void finish(model::ParsedSource& out);

private:
    enum class Block : std::uint8_t { None, FailureTable, RendezvousResult };

    // One "[i]:" record of a ChildFailedError table while its fields arrive.
    struct PendingFailure {
        model::LauncherFailure record;
        model::TimePoint lineTime; // the "[i]:" line's own or inherited time
        std::uint32_t identity = 0;
        std::string traceback;
        bool inTraceback = false;
        unsigned strayLines = 0; // lines since the last field that were not fields
    };
    // What one line did to an open failure table.
    enum class TableLine : std::uint8_t { Consumed, Stray, End };

    // Per writer (ctx.identity): combined files interleave agents of several nodes.
    static constexpr std::uint32_t kNoPendingEvent = 0xffffffffu;

    struct Stream {
        Block block = Block::None;
        std::uint64_t blockOffset = 0; // where the open block started
        bool rootCauseSection = false;
        bool haveFailure = false;
        PendingFailure failure;
        model::WorkerGroupLayout layout;
        std::int32_t mpiRank = -1; // Open MPI 4 "Process name:" waiting for its "Exit code:"
        unsigned mpiLinesSince = 0;
        std::int32_t rayWorldRank = -1; // Ray Train's worker description, before its actor's error
        std::uint64_t rayWorldRankLine = 0;
        std::uint32_t mpiPeerGoneEvent = kNoPendingEvent; // Open MPI's peer-disconnected exit, awaiting its "Peer host:"
        std::uint64_t mpiPeerGoneLine = 0;
        model::StrId lastRendezvousText = model::kNoStr;
    };

    bool feedBlock(
        Stream& stream, const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    TableLine feedFailureTable(
        Stream& stream, const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool feedRendezvousResult(Stream& stream, std::string_view body);
    void openBlock(Stream& stream, Block block);
    void closeBlock(Stream& stream, model::ParsedSource& out);
    void closeFailure(Stream& stream, model::ParsedSource& out);

    bool parseAgentFailed(const LineContext& ctx, std::string_view text, model::ParsedSource& out);
    bool parseClosingSignal(
        const LineContext& ctx, std::string_view text, model::ParsedSource& out);
    bool parseSignalReceived(
        const LineContext& ctx, std::string_view text, model::ParsedSource& out);
    bool parseDeepSpeed(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool parseRay(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool parseMpi(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool parseFramework(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool parseSlurm(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool parseRendezvousError(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool startBlocks(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);

    // Bit i set when keyword i occurs in the text (the list is in the .cpp).
    std::uint64_t findKeywords(std::string_view text) const { return m_keywords.find(text); }

    std::unordered_map<std::uint32_t, Stream> m_streams;
    std::size_t m_openBlocks = 0; // streams with a table or rendezvous result open
    std::size_t m_pendingMpi = 0; // streams waiting for an Open MPI "Exit code:" line
    // One-pass prefilter over the keyword list in the .cpp; shared by every instance (it is
    // immutable), so a bundle of 4096 files does not build 4096 copies.
    const KeywordSet& m_keywords;
};

} // namespace rankscope::parsers
