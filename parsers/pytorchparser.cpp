#include "parsers/pytorchparser.h"

namespace rankscope::parsers {

bool PytorchParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void PytorchParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
