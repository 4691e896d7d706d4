#include "parsers/gputelemetryparser.h"

namespace rankscope::parsers {

bool GpuTelemetryParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void GpuTelemetryParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
