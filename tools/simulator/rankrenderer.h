#pragma once
// Prints one rank's history (its ScenarioPlan fate and timeline outcome) as the text that
// process writes: Python prints and warnings, tqdm bars, framework progress lines, NCCL
// INFO/WARN/COLL lines, PyTorch ProcessGroupNCCL messages and C++ frame dumps, Python
// tracebacks — each in the dialect of the job's PyTorch and NCCL versions.

#include "jobmodel.h"
#include "rankstream.h"
#include "scenarioplan.h"

namespace rankscope::simulator {

class RankRenderer {
public:
    RankRenderer(const Job& job, const ScenarioPlan& plan)
        : m_job(job)
        , m_plan(plan)
    {
    }

    // The rank's stdout+stderr chunks in time order, cut at the rank's end.
    RankStream render(int rank) const;

    // The error.json a torchrun worker decorated with @record leaves; empty when none.
    std::string errorJson(int rank) const;

    // The Python traceback text of a rank that died of a Python exception (used by the
    // torchrun ChildFailedError table); empty when none.
    std::string pythonTraceback(int rank) const;

private:
    const Job& m_job;
    const ScenarioPlan& m_plan;
};

} // namespace rankscope::simulator
