#pragma once
// murmur3's 64-bit finaliser: every input bit reaches every output bit, so hash tables that
// index by the low bits spread keys that differ only in a few high or low bits (a rank number,
// the tail of a string).

#include <cstdint>

namespace rankscope::model {

constexpr std::uint64_t mix64(std::uint64_t h) noexcept
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

} // namespace rankscope::model
