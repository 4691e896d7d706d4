#pragma once
// The pickle opcodes the restricted reader knows (pickletools names) and the decoding of
// their fixed-size arguments, shared by the reader (picklereader.cpp) and the repeated-dict
// copier (picklerepeats.cpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace rankscope::parsers::pickle {

namespace op {
constexpr std::uint8_t kMark = '(';
constexpr std::uint8_t kStop = '.';
constexpr std::uint8_t kPop = '0';
constexpr std::uint8_t kPopMark = '1';
constexpr std::uint8_t kDup = '2';
constexpr std::uint8_t kFloat = 'F';
constexpr std::uint8_t kInt = 'I';
constexpr std::uint8_t kBinInt = 'J';
constexpr std::uint8_t kBinInt1 = 'K';
constexpr std::uint8_t kLong = 'L';
constexpr std::uint8_t kBinInt2 = 'M';
constexpr std::uint8_t kNone = 'N';
constexpr std::uint8_t kPersId = 'P';
constexpr std::uint8_t kBinPersId = 'Q';
constexpr std::uint8_t kReduce = 'R';
constexpr std::uint8_t kString = 'S';
constexpr std::uint8_t kBinString = 'T';
constexpr std::uint8_t kShortBinString = 'U';
constexpr std::uint8_t kUnicode = 'V';
constexpr std::uint8_t kBinUnicode = 'X';
constexpr std::uint8_t kAppend = 'a';
constexpr std::uint8_t kBuild = 'b';
constexpr std::uint8_t kGlobal = 'c';
constexpr std::uint8_t kDict = 'd';
constexpr std::uint8_t kEmptyDict = '}';
constexpr std::uint8_t kAppends = 'e';
constexpr std::uint8_t kGet = 'g';
constexpr std::uint8_t kBinGet = 'h';
constexpr std::uint8_t kInst = 'i';
constexpr std::uint8_t kLongBinGet = 'j';
constexpr std::uint8_t kList = 'l';
constexpr std::uint8_t kEmptyList = ']';
constexpr std::uint8_t kObj = 'o';
constexpr std::uint8_t kPut = 'p';
constexpr std::uint8_t kBinPut = 'q';
constexpr std::uint8_t kLongBinPut = 'r';
constexpr std::uint8_t kSetItem = 's';
constexpr std::uint8_t kTuple = 't';
constexpr std::uint8_t kEmptyTuple = ')';
constexpr std::uint8_t kSetItems = 'u';
constexpr std::uint8_t kBinFloat = 'G';
constexpr std::uint8_t kProto = 0x80;
constexpr std::uint8_t kNewObj = 0x81;
constexpr std::uint8_t kExt1 = 0x82;
constexpr std::uint8_t kExt2 = 0x83;
constexpr std::uint8_t kExt4 = 0x84;
constexpr std::uint8_t kTuple1 = 0x85;
constexpr std::uint8_t kTuple2 = 0x86;
constexpr std::uint8_t kTuple3 = 0x87;
constexpr std::uint8_t kNewTrue = 0x88;
constexpr std::uint8_t kNewFalse = 0x89;
constexpr std::uint8_t kLong1 = 0x8a;
constexpr std::uint8_t kLong4 = 0x8b;
constexpr std::uint8_t kBinBytes = 'B';
constexpr std::uint8_t kShortBinBytes = 'C';
constexpr std::uint8_t kShortBinUnicode = 0x8c;
constexpr std::uint8_t kBinUnicode8 = 0x8d;
constexpr std::uint8_t kBinBytes8 = 0x8e;
constexpr std::uint8_t kEmptySet = 0x8f;
constexpr std::uint8_t kAddItems = 0x90;
constexpr std::uint8_t kFrozenSet = 0x91;
constexpr std::uint8_t kNewObjEx = 0x92;
constexpr std::uint8_t kStackGlobal = 0x93;
constexpr std::uint8_t kMemoize = 0x94;
constexpr std::uint8_t kFrame = 0x95;
constexpr std::uint8_t kByteArray8 = 0x96;
constexpr std::uint8_t kNextBuffer = 0x97;
constexpr std::uint8_t kReadonlyBuffer = 0x98;
} // namespace op

[[gnu::always_inline]] inline std::uint64_t loadLe(const std::uint8_t* p, int n)
{
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

// BINFLOAT's double is big-endian.
[[gnu::always_inline]] inline std::uint64_t loadBe8(const std::uint8_t* p)
{
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | p[i];
    return v;
}

// LONG1/LONG4 payload: little-endian two's complement of any length.
[[gnu::always_inline]] inline std::int64_t decodeLong(
    const std::uint8_t* p, std::size_t n, bool& overflow)
{
    overflow = false;
    if (n == 8) // what torch::jit::Pickler and Python write for epoch nanoseconds
        return static_cast<std::int64_t>(loadLe(p, 8));
    if (n == 0)
        return 0;
    const bool negative = (p[n - 1] & 0x80) != 0;
    // Bytes above the low 8 must be pure sign extension, and bit 63 must agree.
    const std::uint8_t fill = negative ? 0xff : 0x00;
    for (std::size_t i = 8; i < n; ++i)
        if (p[i] != fill)
            overflow = true;
    std::uint64_t v = 0;
    const std::size_t low = std::min<std::size_t>(n, 8);
    for (std::size_t i = low; i-- > 0;)
        v = (v << 8) | p[i];
    if (n < 8 && negative)
        v |= ~std::uint64_t(0) << (8 * n);
    if (n > 8 && ((v >> 63) != 0) != negative)
        overflow = true;
    if (overflow)
        return negative ? std::numeric_limits<std::int64_t>::min()
                        : std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(v);
}

} // namespace rankscope::parsers::pickle
