#pragma once
// NCCL RAS reports (log-formats §4): the `ncclras` text report and its JSON form, saved into
// the bundle. Dead and missing processes and operation-count mismatches become events
// (RasDeadProcess, RasMissingRank, RasCountMismatch). STUB: issue 6.

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <string_view>

namespace rankscope::parsers {

// Line parser for the text report (plugs into the LogScanner like the others).
class RasTextParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return false; }
    void finish(model::ParsedSource& out);
};

void parseRasJson(std::string_view bytes, model::ParsedSource& out);
bool looksLikeRasJson(std::string_view head);

} // namespace rankscope::parsers
