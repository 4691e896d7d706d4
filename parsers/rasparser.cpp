#include "parsers/rasparser.h"

namespace rankscope::parsers {

bool RasTextParser::parseLine(const LineContext&, std::string_view, model::ParsedSource&)
{
    return false;
}

void RasTextParser::finish(model::ParsedSource&)
{
}

void parseRasJson(std::string_view, model::ParsedSource& out)
{
    out.issues.add("ras_json_not_read", out.source.path + ": NCCL RAS JSON report found; this version does not read it yet");
}

bool looksLikeRasJson(std::string_view)
{
    return false;
}

} // namespace rankscope::parsers
