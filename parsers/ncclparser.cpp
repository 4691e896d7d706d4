#include "parsers/ncclparser.h"

namespace rankscope::parsers {

bool NcclParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void NcclParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
