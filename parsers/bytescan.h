#pragma once
// Byte searches for the per-line hot path, 16 bytes at a time with SSE2 (part of every
// x86-64 CPU, so no dispatch is needed) and a plain loop elsewhere. Lines are short (most are
// 100-250 bytes), where a libc memchr call per line and per character costs more than the
// scan itself. Never reads outside [p, end): the vector loop stops 16 bytes before the end.

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rankscope::parsers {

// First byte equal to a or b in [p, end), or end.
inline const char* findEitherByte(const char* p, const char* end, char a, char b)
{
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a);
    const __m128i vb = _mm_set1_epi8(b);
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
        if (mask != 0)
            return p + __builtin_ctz(static_cast<unsigned>(mask));
        p += 16;
    }
#endif
    for (; p < end; ++p)
        if (*p == a || *p == b)
            return p;
    return end;
}

// First byte equal to c in [p, end), or end.
inline const char* findByte(const char* p, const char* end, char c)
{
    return findEitherByte(p, end, c, c);
}

} // namespace rankscope::parsers
