#include "parsers/linebreaks.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RANKSCOPE_LINEBREAKS_X86 1
#include <immintrin.h>
#endif

namespace rankscope::parsers {

namespace {

#ifdef RANKSCOPE_LINEBREAKS_X86
__attribute__((target("avx2"))) inline std::uint32_t breaksOf32(const char* q)
{
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
    return static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')),
            _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r')))));
}

__attribute__((target("avx2"))) void findAvx2(const char* p, const char* end, LineBreaks& out)
{
    std::uint32_t count = 0;
    for (const char* q = p; end - q >= 64; q += 64) {
        std::uint64_t breaks
            = breaksOf32(q) | (static_cast<std::uint64_t>(breaksOf32(q + 32)) << 32);
        while (breaks != 0) {
            out.at[count] = q + __builtin_ctzll(breaks);
            if (++count == LineBreaks::kCapacity) {
                out.count = count;
                return;
            }
            breaks &= breaks - 1;
        }
    }
    out.count = count;
}
#endif

void findNone(const char*, const char*, LineBreaks& out)
{
    out.count = 0; // no vector unit: the caller searches line by line
}

using Finder = void (*)(const char*, const char*, LineBreaks&);

Finder chooseFinder()
{
#ifdef RANKSCOPE_LINEBREAKS_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return findAvx2;
#endif
    return findNone;
}

} // namespace

void findLineBreaks(const char* p, const char* end, LineBreaks& breaks)
{
    static const Finder finder = chooseFinder(); // the CPU does not change while we run
    breaks.next = 0;
    finder(p, end, breaks);
}

} // namespace rankscope::parsers
