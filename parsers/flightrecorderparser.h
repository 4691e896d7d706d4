#pragma once
// PyTorch Flight Recorder dumps (log-formats §2): nccl_trace_rank_N, as a pickle (protocol
// 2–5, read by a restricted reader that never executes anything) or as JSON. Fills
// ParsedSource::frDumps / frEntries and a FlightRecorderDump event. STUB: issue 6.

#include "model/parsedsource.h"

#include <string_view>

namespace rankscope::parsers {

// `bytes` is the whole file. Hostile or broken input is an import issue, never a crash.
void parseFlightRecorderPickle(std::string_view bytes, model::ParsedSource& out);
void parseFlightRecorderJson(std::string_view bytes, model::ParsedSource& out);
// Cheap content check on a JSON document's head: has "entries"/"pg_config"/"version" keys.
bool looksLikeFlightRecorderJson(std::string_view head);

} // namespace rankscope::parsers
