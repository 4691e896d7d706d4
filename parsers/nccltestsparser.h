#pragma once
// nccl-tests output (all_reduce_perf and its siblings, src/common.cu): a benchmark that ran
// to its end is evidence the collectives worked, and a paste of its table is a healthy run,
// not an unknown format.
//   "# nThread 1 nGpus 1 minBytes 8 maxBytes 2147483648 step: 2(factor) …"  → recognised
//   "#  Rank  0 Group  0 Pid   9822 on node1 device  0 [0000:2c:00] …"       → recognised
//   "   131072008      32768002     float     sum      -1   2604.6 …"        → recognised
//   "# Avg bus bandwidth    : 84.8558"                                       → recognised
//   "# Out of bounds values : 0 OK"                                          → recognised
//   "# Out of bounds values : 12 FAILED"  → NcclWarn, Error (wrong results: the data check
//                                           of the run failed)
//   "node1: Test CUDA failure common.cu:892 'invalid device ordinal'"   → NcclTestsFailure
//   "Cuda failure common.cu:891 'CUDA driver version is insufficient …'" (before 2.x), and
//   "Test NCCL failure common.cu:N '…'"   → NcclTestsFailure (its own check of a call failed)
//   a second "# nThread …" banner, or a second "# Avg bus bandwidth", with no result row since
//   the one before → NcclTestsSeparateRuns. Only the main thread of the process that is rank 0
//   of its MPI world prints them (common.h: PRINT is "if (is_main_thread) printf"), so one
//   world prints each once per run and runs one after another have their table between them.
//   Two back to back come from two processes that each think they are rank 0: a build without
//   MPI=1, or an mpirun of another MPI than the one the tests link, starts N separate tests.
//   "#       size  count  type  redop  root  time  algbw  busbw …" (the table's column header)
//   with no result row or failure after it when the input ends → NcclTestsStalled: the test
//   stopped inside its first collective (detail = the one host the "#  Rank" lines name).

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace rankscope::parsers {

class NcclTestsParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return false; }
    void finish(model::ParsedSource& out);

private:
    // One repeated line of the test's output: how often it was printed, and whether a result
    // row came since the last time.
    struct Repeat {
        std::int32_t seen = 0;
        bool rowSince = false;
        void row() { rowSince = true; }
        // true when this print follows the previous one with no result row between them
        bool printedAgain();
    };
    void noteRepeat(Repeat& r, const LineContext& ctx, std::string_view body, model::ParsedSource& out);

    Repeat m_banner;  // "# nThread 1 nGpus 8 minBytes …"
    Repeat m_summary; // "# Avg bus bandwidth    : 3.94"

    // The line of the last column header of a result table, while nothing has followed it
    // yet (its text and prefix views dropped: they do not outlive the line).
    std::optional<LineContext> m_openTable;
    // "#  Rank  0 Group  0 Pid  9822 on node1 device  0 …": the hosts named (two at most), and
    // how many lines.
    std::set<std::string, std::less<>> m_rankHosts;
    std::int32_t m_rankLines = 0;
};

} // namespace rankscope::parsers
