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

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <string_view>

namespace rankscope::parsers {

class NcclTestsParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return false; }
    void finish(model::ParsedSource&) { }
};

} // namespace rankscope::parsers
