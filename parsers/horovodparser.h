#pragma once
// Horovod's stall inspector (horovod/common/stall_inspector.cc): when some ranks submitted a
// tensor for a collective and others did not for 60 s, the coordinator prints which.
//   "<tensor> [ready ranks: 2, 0, 1]"              (≤0.19, also several per line, comma-
//                                                   separated after "Stalled ops:")
//       → HorovodStalledTensor per listed rank, code 1 (it submitted the tensor)
//   "<tensor> [missing ranks: 3, 6]"               (≤0.19)
//       → HorovodStalledTensor per listed rank, code 0 (it did not)
//   "Missing ranks:" then one line per rank "1: [allreduce.c_d1.bias, allreduce.c_d1.weight …]"
//                                                  (≥0.20)
//       → HorovodStalledTensor per (rank, tensor), code 0. The leading "1: " has the shape of
//         srun's --label prefix, so it arrives already stripped, as the line's srun task.
// Text is the tensor name; peerRank the rank.

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <string_view>

namespace rankscope::parsers {

class HorovodParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return m_inMissingBlock; }
    void finish(model::ParsedSource&) { m_inMissingBlock = false; }

private:
    bool parseRankLists(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    void emit(const LineContext& ctx, std::string_view tensor, std::int32_t rank, bool ready,
        model::ParsedSource& out);

    bool m_inMissingBlock = false;
    std::size_t m_eventsThisLine = 0;
};

} // namespace rankscope::parsers
