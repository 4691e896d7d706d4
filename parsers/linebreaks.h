#pragma once
// Line breaks of a buffer found many at a time: one vector pass over 64-byte blocks serves
// every line in them, where a search per line would restart (and pay a call) per line. The
// line splitter's hot loop.

#include <cstdint>

namespace rankscope::parsers {

struct LineBreaks {
    static constexpr std::uint32_t kCapacity = 128;
    std::uint32_t count = 0;
    std::uint32_t next = 0; // first entry not yet used by the caller
    const char* at[kCapacity];
};

// Every '\n' and '\r' of [p, end) in order, up to kCapacity of them (next is reset to 0).
// May stop early: it looks at whole 64-byte blocks only, and at none without AVX2, so a
// caller finds the breaks after the last whole block (or all of them) one by one.
void findLineBreaks(const char* p, const char* end, LineBreaks& breaks);

} // namespace rankscope::parsers
