#include "model/bytescan.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RANKSCOPE_BYTESCAN_X86 1
#include <immintrin.h>
#endif

namespace rankscope::model {

namespace {

#ifdef RANKSCOPE_BYTESCAN_X86
__attribute__((target("avx2"))) const char* findEitherByteAvx2(
    const char* p, const char* end, char a, char b)
{
    const __m256i va = _mm256_set1_epi8(a);
    const __m256i vb = _mm256_set1_epi8(b);
    while (end - p >= 32) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        const auto mask = static_cast<unsigned>(_mm256_movemask_epi8(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, va), _mm256_cmpeq_epi8(v, vb))));
        if (mask != 0)
            return p + __builtin_ctz(mask);
        p += 32;
    }
    return findEitherByte(p, end, a, b);
}
#endif

using FindEitherByte = const char* (*)(const char* p, const char* end, char a, char b);

FindEitherByte chooseFindEitherByte()
{
#ifdef RANKSCOPE_BYTESCAN_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return findEitherByteAvx2;
#endif
    return findEitherByte;
}

} // namespace

const char* findEitherByteWide(const char* p, const char* end, char a, char b)
{
    static const FindEitherByte implementation = chooseFindEitherByte();
    return implementation(p, end, a, b);
}

} // namespace rankscope::model
