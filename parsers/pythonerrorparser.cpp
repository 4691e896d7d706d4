#include "parsers/pythonerrorparser.h"

namespace rankscope::parsers {

bool PythonErrorParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void PythonErrorParser::finish(model::ParsedSource&)
{
}

} // namespace rankscope::parsers
