// Archive and compressed input held in memory (tar, zip, cpio, gz, zst, nested ones), with
// small limits so a bomb is refused within the fuzzer's memory, and every member parsed.

#include "fuzzinput.h"
#include "parsers/inputreader.h"

#include <cstdlib>

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    parsers::LoadLimits limits;
    limits.maxEntryBytes = 8 << 20;
    limits.maxArchiveBytes = 16 << 20;
    limits.ratioCheckAfterBytes = 1 << 20;
    limits.maxArchiveEntries = 1000;
    limits.maxJsonBytes = 4 << 20;
    std::uint64_t reported = 0;
    parsers::ReadControl control;
    control.hashContent = false;
    control.onBytes = [&reported](std::uint64_t n) { reported += n; };
    const auto result = parsers::readMemory(fuzz::bytesOf(data, size), "bundle.tgz", limits, control);
    // Progress counts bytes of the input, whatever is nested inside it.
    if (reported > size)
        std::abort();
    std::uint64_t produced = 0;
    for (const auto& s : result.sources)
        produced += s.source.bytes;
    // Nothing expands past the archive limit (plus the one read block that crossed it).
    if (produced > limits.maxArchiveBytes + (2u << 20))
        std::abort();
    return 0;
}
