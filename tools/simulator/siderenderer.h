#pragma once
// Everything a job leaves besides the workers' own output: the torchrun agent's console
// per node (start banner, rendezvous block, SIGTERM/failed lines, ChildFailedError table),
// srun/slurmstepd messages, per-host kernel logs (boot noise, Xid, OOM killer, NFS,
// mlx5 link changes) and py-spy dumps of live processes.

#include "jobmodel.h"
#include "rankrenderer.h"
#include "rankstream.h"
#include "scenarioplan.h"

#include <string>

namespace rankscope::simulator {

class SideRenderer {
public:
    SideRenderer(const Job& job, const ScenarioPlan& plan, const RankRenderer& ranks)
        : m_job(job)
        , m_plan(plan)
        , m_ranks(ranks)
    {
    }

    // torchrun's stderr on `node` (Stream::Err chunks).
    RankStream agentLog(int node) const;
    // srun and slurmstepd messages of the whole job step (unlabelled in the job's output).
    RankStream srunLog() const;
    // dmesg of one host, boot-relative timestamps.
    std::string dmesg(int node) const;
    // py-spy dump of `rank` taken at plan.pyspyAt; empty when the process was gone.
    std::string pyspy(int rank) const;
    // Ranks that get a py-spy file.
    std::vector<int> pyspyRanks() const;

private:
    void agentPrefix(std::string& o, char sev, Micros t, int node, std::string_view module,
        std::string_view file, int line) const;
    void agentLines(RankStream& rs, Micros t, char sev, int node, std::string_view module,
        std::string_view file, int line, const std::string& message) const;
    void childFailedTable(RankStream& rs, int node) const;

    const Job& m_job;
    const ScenarioPlan& m_plan;
    const RankRenderer& m_ranks;
};

} // namespace rankscope::simulator
