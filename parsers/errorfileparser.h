#pragma once
// torchrun error.json (log-formats §5.3) written by @record: the exception of a failed
// worker with its timestamp. STUB: to be implemented.

#include "model/parsedsource.h"

#include <string_view>

namespace rankscope::parsers {

// Parses the whole file; malformed JSON becomes an import issue, never an exception.
void parseErrorFile(std::string_view bytes, model::ParsedSource& out);

// True when the bytes look like an error.json (cheap content check for detection).
bool looksLikeErrorFile(std::string_view head);

} // namespace rankscope::parsers
