#pragma once
// JAX/XLA's coordination service (xla/tsl coordination_service.cc): a barrier every process
// must reach — connecting (PjRT_Client_Connect), registering ([Init]Wait_for_all_tasks_to_
// register), or one of the job's own sync points — times out, and the error lists the tasks
// that never arrived. A JAX process index is the job's rank.
//   "… DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:"
//       → LauncherRendezvousError, detail "jax_barrier", text from "Barrier timed out", Error
//   "/job:jax_worker/replica:0/task:3"          (the next lines, or "\n"-escaped in a JSON blob)
//       → LauncherRendezvousError, detail "jax_barrier_task", peerRank = 3, once per task

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstdint>
#include <set>
#include <string_view>

namespace rankscope::parsers {

class JaxCoordinationParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return m_inTaskList; }
    void finish(model::ParsedSource&) { m_inTaskList = false; }

private:
    void taskNames(const LineContext& ctx, std::string_view text, model::ParsedSource& out);

    bool m_inTaskList = false;
    std::set<std::int32_t> m_tasks; // already reported in this source
};

} // namespace rankscope::parsers
