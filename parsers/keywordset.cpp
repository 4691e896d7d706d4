#include "parsers/keywordset.h"

#include "model/bytescan.h"

#include <algorithm>
#include <cstring>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RANKSCOPE_KEYWORDS_X86 1
#include <immintrin.h>
#endif

namespace rankscope::parsers {

namespace {

using Tables = KeywordSet::Tables;
constexpr std::size_t kPrefix = KeywordSet::kPrefix;

// Candidate positions of [p, p + count) (each needs kPrefix - 1 more bytes after it): the
// bucket bits of every position, written to out[0, count).
using CandidateFinder
    = void (*)(const Tables&, const char* p, std::size_t count, std::uint8_t* out);

unsigned bucketsAt(const Tables& t, const char* p)
{
    unsigned bits = 0xff;
    for (std::size_t j = 0; j < kPrefix; ++j) {
        const auto c = static_cast<unsigned char>(p[j]);
        bits &= t.lo[j][c & 15] & t.hi[j][c >> 4];
    }
    return bits;
}

#ifdef RANKSCOPE_KEYWORDS_X86
__attribute__((target("avx2"))) __m256i candidatesAvx2(const Tables& t, const char* p)
{
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    __m256i bits = _mm256_set1_epi8(static_cast<char>(0xff));
    for (std::size_t j = 0; j < kPrefix; ++j) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + j));
        const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.lo[j]));
        const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.hi[j]));
        bits = _mm256_and_si256(bits,
            _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
                _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble))));
    }
    return bits;
}

// The 32 positions at p (reading 32 + kPrefix - 1 bytes): which may start a keyword, and
// the bucket bits of each in out[0, 32) when any may.
__attribute__((target("avx2"))) std::uint32_t blockAvx2(
    const Tables& t, const char* p, std::uint8_t* out)
{
    const __m256i bits = candidatesAvx2(t, p);
    const auto lanes = ~static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(bits, _mm256_setzero_si256())));
    if (lanes != 0)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bits);
    return lanes;
}
#endif

} // namespace

KeywordSet::KeywordSet(std::vector<std::string_view> keywords)
    : m_keywords(std::move(keywords))
{
    if (m_keywords.size() > kMaxKeywords)
        m_keywords.resize(kMaxKeywords);
    m_firstWord.resize(m_keywords.size(), 0);
    for (std::size_t k = 0; k < m_keywords.size(); ++k) {
        const std::string_view word = m_keywords[k];
        if (word.size() < kMinLength)
            continue; // documented precondition; never matched, which keeps find() safe
        std::memcpy(&m_firstWord[k], word.data(), 4);
        const unsigned bucket = static_cast<unsigned>(k % 8);
        m_bucketKeywords[bucket] |= std::uint64_t { 1 } << k;
        for (std::size_t j = 0; j < kPrefix; ++j) {
            const auto c = static_cast<unsigned char>(word[j]);
            const auto bit = static_cast<std::uint8_t>(1u << bucket);
            m_tables.lo[j][c & 15] |= bit;
            m_tables.lo[j][16 + (c & 15)] |= bit;
            m_tables.hi[j][c >> 4] |= bit;
            m_tables.hi[j][16 + (c >> 4)] |= bit;
        }
    }
}

std::uint64_t KeywordSet::verify(std::string_view text, std::size_t pos, unsigned buckets) const
{
    std::uint64_t found = 0;
    std::uint32_t word = 0;
    std::memcpy(&word, text.data() + pos, 4); // pos + 4 <= text.size(): checked by the caller
    for (; buckets != 0; buckets &= buckets - 1) {
        std::uint64_t keywords = m_bucketKeywords[static_cast<unsigned>(__builtin_ctz(buckets))];
        for (; keywords != 0; keywords &= keywords - 1) {
            const auto k = static_cast<unsigned>(__builtin_ctzll(keywords));
            const std::string_view kw = m_keywords[k];
            if (m_firstWord[k] == word && text.size() - pos >= kw.size()
                && model::bytesEqual(text.data() + pos + 4, kw.data() + 4, kw.size() - 4))
                found |= std::uint64_t { 1 } << k;
        }
    }
    return found;
}

std::uint64_t KeywordSet::find(std::string_view text) const
{
    std::uint64_t found = 0;
    if (text.size() < kMinLength)
        return found;
    const char* p = text.data();
    // Positions where a keyword of at least 4 bytes still fits; each reads kPrefix bytes.
    const std::size_t positions = text.size() - kMinLength + 1;
    std::size_t i = 0;
#ifdef RANKSCOPE_KEYWORDS_X86
    static const bool wide = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    if (wide) {
        std::uint8_t bits[32];
        auto take = [&](std::size_t from, std::uint32_t lanes) {
            for (; lanes != 0; lanes &= lanes - 1) {
                const auto lane = static_cast<unsigned>(__builtin_ctz(lanes));
                found |= verify(text, from + lane, bits[lane]);
            }
        };
        if (positions < 32) {
            // A short line: one block over a zero-padded copy, lanes past it dropped.
            char padded[32 + kPrefix] = {};
            std::memcpy(padded, p, text.size()); // size = positions + 3 <= 34
            take(0, blockAvx2(m_tables, padded, bits) & ((std::uint32_t { 1 } << positions) - 1));
            return found;
        }
        for (; i + 32 <= positions; i += 32)
            take(i, blockAvx2(m_tables, p + i, bits));
        if (i < positions) {
            // The rest by one block ending at the last position; lanes already seen dropped.
            const std::size_t from = positions - 32;
            take(from, blockAvx2(m_tables, p + from, bits) & (~std::uint32_t { 0 } << (i - from)));
        }
        return found;
    }
#endif
    for (; i < positions; ++i)
        if (const unsigned buckets = bucketsAt(m_tables, p + i))
            found |= verify(text, i, buckets);
    return found;
}

} // namespace rankscope::parsers
