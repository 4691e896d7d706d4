#pragma once
// Python tracebacks, CUDA OOM and CUDA errors, fatal signals and exit codes (log-formats §8, §9).
// STUB: to be implemented.

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <string_view>

namespace rankscope::parsers {

class PythonErrorParser {
public:
    // True when the line was recognised (and events or records were added).
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A multi-line block is open: the scanner must hand over every following line.
    bool inBlock() const { return false; }
    // End of input: close open blocks.
    void finish(model::ParsedSource& out);
};

} // namespace rankscope::parsers
