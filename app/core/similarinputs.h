#pragma once
// Inputs named alike: the same display path once every run of digits is set aside, so
// "node3/nccl_trace_rank_17" and "node12/nccl_trace_rank_5" (or "node0.tar.gz" and
// "node7.tar.gz") are alike. Such files are nearly always the same kind of output from other
// ranks or hosts. The loader uses this to guess, from the Flight Recorder dumps merged so
// far, how many entries the dumps still being read will bring (see OrderedMerge).

#include "parsers/inputplan.h"

#include <cstdint>
#include <vector>

namespace rankscope::app {

class SimilarInputs {
public:
    explicit SimilarInputs(const std::vector<parsers::InputTask>& tasks);

    // The disk bytes of the tasks after `task` (in plan order) named like it.
    std::uint64_t bytesAfter(std::size_t task) const
    {
        return task < m_bytesAfter.size() ? m_bytesAfter[task] : 0;
    }

private:
    std::vector<std::uint64_t> m_bytesAfter;
};

} // namespace rankscope::app
