#include "parsers/kernelparser.h"

namespace rankscope::parsers {

bool KernelParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void KernelParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
