// The Flight Recorder JSON reader (nesting check, nlohmann's parser, the shared mapping).

#include "fuzzinput.h"
#include "parsers/flightrecorderparser.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes = fuzz::bytesOf(data, size);
    model::ParsedSource out;
    out.source.path = "nccl_trace_rank_0.json";
    out.source.pathIdentity.globalRank = 0;
    parsers::parseFlightRecorderJson(bytes, out);
    (void)parsers::looksLikeFlightRecorderJson(bytes);
    return 0;
}
