#include "parsers/stackdumpparser.h"

namespace rankscope::parsers {

bool StackDumpParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void StackDumpParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
