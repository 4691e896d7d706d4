#pragma once
// A Flight Recorder dump as readable text lines. The dump file itself is a pickle (binary)
// or one long JSON document, so showing its bytes tells nobody anything; the log viewer and
// report excerpts show these lines instead, one per entry, and FR evidence points at them.

#include "model/bundle.h"

#include <cstdint>
#include <string>

namespace rankscope::model {

// Line 1 says what the file is, line 2 the process groups; entry i of the dump is on line
// kFrFirstEntryLine + i.
inline constexpr std::uint64_t kFrFirstEntryLine = 3;

// "nccl:all_reduce #4, input [[4096, 4096]] Float, scheduled"
std::string describeFrEntry(const Bundle& b, std::uint32_t entry);

// The 1-based line of `entry` in frDumpText of its dump.
std::uint64_t frEntryLine(const Bundle& b, std::uint32_t entry);

// The dump read from `source`, or nullptr when the source holds none.
const FrDump* frDumpOfSource(const Bundle& b, SourceId source);

// Every entry of the dump, oldest first, with its times, state and innermost frame.
std::string frDumpText(const Bundle& b, const FrDump& dump);

} // namespace rankscope::model
