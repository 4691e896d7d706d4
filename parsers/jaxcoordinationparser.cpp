#include "parsers/jaxcoordinationparser.h"

#include "parsers/textscan.h"

namespace rankscope::parsers {

namespace {

constexpr std::string_view kTask = "/task:";
// A listing of every task of a huge job is not needed to name who is missing.
constexpr std::size_t kMaxTasks = 4096;

} // namespace

// Every "/job:<name>/replica:<r>/task:<n>" in the text.
void JaxCoordinationParser::taskNames(const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    for (std::size_t at = text.find(kTask); at != std::string_view::npos; at = text.find(kTask, at + 1)) {
        if (text.rfind("/job:", at) == std::string_view::npos)
            continue;
        std::size_t i = at + kTask.size();
        const auto task = readUnsigned(text, i);
        if (!task || *task >= (1u << 24) || m_tasks.size() >= kMaxTasks)
            continue;
        if (!m_tasks.insert(static_cast<std::int32_t>(*task)).second)
            continue;
        model::Event& e = addEvent(out, ctx, model::EventKind::LauncherRendezvousError, model::Severity::Error,
            text.substr(text.rfind("/job:", at), i - text.rfind("/job:", at)));
        e.detail = out.intern("jax_barrier_task");
        e.peerRank = static_cast<std::int32_t>(*task);
    }
}

bool JaxCoordinationParser::parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (m_inTaskList) {
        const std::string_view line = trim(body);
        if (line.starts_with("/job:")) {
            taskNames(ctx, line, out);
            return true;
        }
        m_inTaskList = false;
    }
    const std::size_t at = body.find("Barrier timed out");
    if (at == std::string_view::npos)
        return false;
    const std::size_t list = body.find("Timed out task names:", at);
    const std::string_view text = trim(body.substr(at, list == std::string_view::npos ? std::string_view::npos : list - at));
    model::Event& e = addEvent(out, ctx, model::EventKind::LauncherRendezvousError, model::Severity::Error, text);
    e.detail = out.intern("jax_barrier");
    if (list != std::string_view::npos) {
        taskNames(ctx, body.substr(list), out);
        m_inTaskList = true;
    }
    return true;
}

} // namespace rankscope::parsers
