#pragma once
// NCCL RAS reports ([formats 4]; NVIDIA/nccl src/ras/client_support.cc): the `ncclras`
// text report and its JSON form, saved into the bundle, the 2.29 monitor stream and the RAS
// debug lines. Dead and missing processes and operation-count mismatches become events.
//
// clang-format off
// Text report: one multi-line report per stream; inside its "Errors"/"Warnings" sections the
// parser reports a block as open, so the lines reach it even when they look like NCCL output.
//   NCCL version 2.24.3+cuda12.x compiled with CUDA 12.x   → RasReport (detail = version)
//   RAS Monitor Mode - watching for peer changes (…)...   → RasReport (detail = "monitor")
//   Errors / ======   |   Warnings / ========               → opens a section
//   INCOMPLETE / Missing communicator data from 1 job process
//     Process 3487984 on node 172.16.64.213 managing GPU 5 → RasMissingRank (peerRank -1,
//                                                             pid, peer = node)
//   The missing process(es): / Process … managing GPU(s) … → the same (2.24 network summary)
//   DEAD / 1 job process is considered dead (…)
//     Process 3487984 on node 172.16.64.213 managing GPU 5 → RasDeadProcess (pid,
//                                                             peer = node, detail = GPU)
//   #0-0 (cf264af53edbe986) INCOMPLETE
//     The missing rank: 21  |  The missing ranks: 3,5      → RasMissingRank (peerRank =
//     Rank 21 -- GPU 5 managed by process P on node H        comm rank, detail = comm hash)
//   #0-0 (27a079b828ff1a75) MISMATCH
//     Communicator ranks have different collective|AllReduce operation counts
//     26 ranks have launched up to operation 6650          → the majority (printed first)
//     6 ranks have launched up to operation 6649
//     Rank 0 -- GPU 0 managed by process 483072 on node H  → RasCountMismatch (peerRank =
//     Rank 5 has launched up to operation 6649 -- GPU …      comm rank, seq = its count,
//     Rank 7 has not launched any operations -- GPU …        code = majority or -1, op,
//                                                             detail = comm hash, pid, peer);
//                                                             ranks at the majority: nothing
//     Communicator ranks have different status / …         → recognised, no event
//   #0-0 (…) ERROR / Initialization|Asynchronous error(s) on N rank(s)
//     Rank 3 reported Unhandled CUDA error -- GPU … managed by process P on node H
//     2 ranks reported Remote process error / Rank R -- GPU …
//                                                          → RasReport, Severity Error
//                                                            (peerRank, detail = the error,
//                                                            code 1 init / 2 async, pid, peer)
//   TIMEOUT / Encountered 2 communication timeouts …       → recognised
// Monitor and debug lines (searched unanchored):
//   [2025-12-19 13:07:07] PEER_DEAD: Process 1524345 on node 172.16.64.245 managing GPU 1
//                                                          → RasDeadProcess (pid, peer, GPU)
//   RAS declaring peer 10.0.0.5<43210> as DEAD; rasDeadPeersHash 0x…
//                                                          → RasDeadProcess (peer = 10.0.0.5,
//                                                            detail = "10.0.0.5<43210>")
//
// JSON (2.28.7+): {"nccl_version", "timestamp", "communicators": [{"hash", "ranks": [{"rank",
// "host", "pid", "collective_counts": {"AllReduce": 6650, …}}], "missing_ranks": [{"rank",
// "host", "pid", "cuda_dev", "status": {"unresponsive", "considered_dead"}}]}]}
//   → RasReport; per op type the highest count, and RasCountMismatch for each rank below it
//     (code = the highest); missing ranks → RasDeadProcess when considered_dead, else
//     RasMissingRank.
// clang-format on

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

// Line parser for the text report (plugs into the LogScanner like the others).
class RasTextParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A report section or block is open in some stream.
    // Asked for every NCCL line: inline, and streams exist only once a RAS line was seen.
    bool inBlock() const { return !m_streams.empty() && anyStreamOpen(); }
    void finish(model::ParsedSource& out);

private:
    enum class Section : std::uint8_t { None, Errors, Warnings };
    enum class Block : std::uint8_t {
        None,
        JobIncomplete, // "INCOMPLETE": processes that sent no data
        MissingProcesses, // "The missing process(es):" of the RAS-network summary
        Dead,
        CommIncomplete, // "#g-i (hash) INCOMPLETE"
        CommError,
        CommMismatch,
        Timeout,
    };
    enum class Detail : std::uint8_t { None, Status, Counts, InitErrors, AsyncErrors };

    struct Stream {
        std::uint32_t identity = 0;
        Section section = Section::None;
        Section pendingHeading = Section::None; // "Errors" seen, "======" expected next
        Block block = Block::None;
        Detail detail = Detail::None;
        std::string commHash;
        model::OpType op = model::OpType::Unknown;
        std::int64_t majority = -1; // most frequent count of the current op type
        std::int64_t groupCount = -1; // count of the group whose ranks follow
        bool expectMajority = false;
        std::string errorName; // "Remote process error" of "N ranks reported …"

        // Back to "no report open", keeping the stream's identity.
        void reset()
        {
            const std::uint32_t id = identity;
            *this = Stream();
            identity = id;
        }
        bool open() const
        {
            return section != Section::None || pendingHeading != Section::None
                || block != Block::None;
        }
    };

    Stream& stream(std::uint32_t identity);
    Stream* findStream(std::uint32_t identity);
    bool anyStreamOpen() const;
    bool continueReport(Stream& s, const LineContext& ctx, std::string_view body,
        std::string_view t, model::ParsedSource& out);
    bool heading(Stream& s, std::string_view t);
    bool detailLine(
        Stream& s, const LineContext& ctx, std::string_view t, model::ParsedSource& out);
    bool rankLine(Stream& s, const LineContext& ctx, std::string_view t, model::ParsedSource& out);
    bool processLine(
        Stream& s, const LineContext& ctx, std::string_view t, model::ParsedSource& out);
    bool startLine(const LineContext& ctx, std::string_view body, std::string_view t,
        model::ParsedSource& out);
    bool deadLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);

    std::vector<Stream> m_streams;
};

void parseRasJson(std::string_view bytes, model::ParsedSource& out);
bool looksLikeRasJson(std::string_view head);

} // namespace rankscope::parsers
