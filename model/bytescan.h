#pragma once
// Byte searches for the per-line hot path (parsers and the secret masker), 16 bytes at a
// time with SSE2 (part of every x86-64 CPU, so no dispatch is needed) and a plain loop
// elsewhere. Lines are short (most are 100-250 bytes), where a libc memchr call per line and
// per character costs more than the scan itself. Never reads outside [p, end): the vector
// loop stops 16 bytes before the end.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rankscope::model {

// First byte equal to a or b in [p, end), or end.
inline const char* findEitherByte(const char* p, const char* end, char a, char b)
{
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a);
    const __m128i vb = _mm_set1_epi8(b);
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const int mask
            = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
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

// First place in [p, end) where byte a is followed by byte b, or end. For a keyword whose
// first byte is common in text ("loo": 'l' is everywhere, "oo" is rare), where anchoring a
// search on the first byte stops at nearly every word.
inline const char* findBytePair(const char* p, const char* end, char a, char b)
{
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8(a);
    const __m128i vb = _mm_set1_epi8(b);
    while (end - p >= 17) {
        const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i second = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
        const int mask = _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(first, va), _mm_cmpeq_epi8(second, vb)));
        if (mask != 0)
            return p + __builtin_ctz(static_cast<unsigned>(mask));
        p += 16;
    }
#endif
    for (; p + 1 < end; ++p)
        if (p[0] == a && p[1] == b)
            return p;
    return end;
}

// a[0, n) == b[0, n), inline: for the 20-60 byte headers compared on every line, where the
// call into libc memcmp costs as much as the comparison.
inline bool bytesEqual(const char* a, const char* b, std::size_t n)
{
#if defined(__SSE2__)
    if (n >= 16) {
        auto block = [&](std::size_t at) {
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + at));
            const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + at));
            return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
        };
        for (std::size_t at = 0; at + 16 < n; at += 16)
            if (!block(at))
                return false;
        return block(n - 16); // the last 16 bytes, overlapping the previous block
    }
#endif
    for (std::size_t i = 0; i < n; ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

// a[0, n) == b[0, n) for sizeof(Word) <= n <= 2 * sizeof(Word): the first and the last
// Word of both, which overlap when n is smaller.
template <class Word> bool equalByTwoWords(const char* a, const char* b, std::size_t n)
{
    Word a0, b0, a1, b1;
    std::memcpy(&a0, a, sizeof a0);
    std::memcpy(&b0, b, sizeof b0);
    std::memcpy(&a1, a + n - sizeof a1, sizeof a1);
    std::memcpy(&b1, b + n - sizeof b1, sizeof b1);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

// a[0, n) == b[0, n) for n <= 16, by two overlapping loads of 8 (or 4) bytes each: with a
// constant n (a literal keyword) this is a few register compares, not a memcmp call.
inline bool bytesEqualShort(const char* a, const char* b, std::size_t n)
{
    if (n >= 8)
        return equalByTwoWords<std::uint64_t>(a, b, n);
    if (n >= 4)
        return equalByTwoWords<std::uint32_t>(a, b, n);
    for (std::size_t i = 0; i < n; ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

// a == b for short strings such as host names and pointers, without a memcmp call.
inline bool sameText(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    return a.size() <= 16 ? bytesEqualShort(a.data(), b.data(), a.size())
                          : bytesEqual(a.data(), b.data(), a.size());
}

} // namespace rankscope::model
