#include "parsers/errorfileparser.h"

namespace rankscope::parsers {

void parseErrorFile(std::string_view, model::ParsedSource&)
{
}

bool looksLikeErrorFile(std::string_view)
{
    return false;
}

} // namespace rankscope::parsers
