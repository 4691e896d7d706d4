// The restricted pickle reader and the Flight Recorder mapping behind it, on both reader
// paths: no crash, no sanitizer report, and the fast loop reads what the reference reads.

#include "fuzzinput.h"
#include "parsers/flightrecorderparser.h"
#include "parsers/picklereader.h"

#include <cstdlib>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes = fuzz::bytesOf(data, size);
    parsers::PickleResult fast;
    parsers::PickleResult reference;
    parsers::readPickle(bytes, fast, {}, parsers::PickleReaderPath::Fast);
    parsers::readPickle(bytes, reference, {}, parsers::PickleReaderPath::Reference);
    // The fast path is an optimisation of the reference interpreter (picklereader.h).
    if (fast.complete != reference.complete || fast.refused != reference.refused)
        std::abort();

    model::ParsedSource out;
    out.source.path = "nccl_trace_rank_1";
    out.source.pathIdentity.globalRank = 1;
    parsers::parseFlightRecorderPickle(bytes, out);
    return 0;
}
