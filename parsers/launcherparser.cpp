#include "parsers/launcherparser.h"

namespace rankscope::parsers {

bool LauncherParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void LauncherParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
