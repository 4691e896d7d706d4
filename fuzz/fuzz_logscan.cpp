// The log scanner with every parser behind it, through SourceBuilder as the loader feeds it:
// content sniffing, UTF-16, masking, line splitting across chunks, and each format parser.
// The first byte picks the chunk size, so lines torn across chunks are exercised too.

#include "fuzzinput.h"
#include "parsers/sourcebuilder.h"

#include <algorithm>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::size_t chunk = 1 + data[0] * 7u;
    std::string_view bytes = fuzz::bytesOf(data + 1, size - 1);
    parsers::LoadLimits limits;
    limits.maxJsonBytes = 4 << 20;
    model::Source meta;
    meta.id = 0;
    meta.path = "node-1/rank3.log";
    meta.containerPath = meta.path;
    parsers::SourceBuilder builder(meta, limits, false);
    while (!bytes.empty()) {
        const std::size_t n = std::min(chunk, bytes.size());
        builder.feed(bytes.substr(0, n));
        bytes.remove_prefix(n);
    }
    const model::ParsedSource source = builder.finish();
    (void)source;
    return 0;
}
