#pragma once
// Small locale-free character and number helpers used by every parser. <cctype> depends
// on the C locale and is undefined for negative chars, which logs are full of.

#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace rankscope::parsers {

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool isLower(char c) { return c >= 'a' && c <= 'z'; }

namespace detail {
// Letters and digits by table: one load and test per byte in the loops that walk host names,
// op names and prefixes on every line, instead of three range checks.
enum : std::uint8_t { kAlphaBit = 1, kDigitBit = 2 };
inline constexpr auto kCharClass = [] {
    struct Table {
        std::uint8_t bits[256] {};
    } t;
    for (int c = 0; c < 256; ++c) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
            t.bits[c] = kAlphaBit;
        else if (c >= '0' && c <= '9')
            t.bits[c] = kDigitBit;
    }
    return t;
}();
} // namespace detail

inline bool isAlpha(char c)
{
    return detail::kCharClass.bits[static_cast<unsigned char>(c)] & detail::kAlphaBit;
}
inline bool isAlnum(char c)
{
    return detail::kCharClass.bits[static_cast<unsigned char>(c)] != 0;
}
inline bool isHexAlpha(char c) { return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool isHexDigit(char c) { return isDigit(c) || isHexAlpha(c); }
inline bool isSpace(char c) { return c == ' ' || c == '\t'; }

// Reads decimal digits at s[i...], advancing i. nullopt (i unchanged) when there are none
// or the value overflows.
inline std::optional<std::uint64_t> readUnsigned(std::string_view s, std::size_t& i)
{
    std::uint64_t v = 0;
    const char* first = s.data() + i;
    const char* last = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr == first)
        return std::nullopt;
    i += static_cast<std::size_t>(ptr - first);
    return v;
}

// Optional leading '-'.
inline std::optional<std::int64_t> readSigned(std::string_view s, std::size_t& i)
{
    std::int64_t v = 0;
    const char* first = s.data() + i;
    const char* last = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr == first)
        return std::nullopt;
    i += static_cast<std::size_t>(ptr - first);
    return v;
}

// Hand-rolled (std::from_chars in base 16 was 2% of ingest: every COLL line has a hex
// opCount); same contract: no prefix or sign, nullopt on overflow, i unchanged on failure.
inline std::optional<std::uint64_t> readHex(std::string_view s, std::size_t& i)
{
    std::uint64_t v = 0;
    std::size_t j = i;
    for (; j < s.size(); ++j) {
        const char c = s[j];
        unsigned digit;
        if (c >= '0' && c <= '9')
            digit = static_cast<unsigned>(c - '0');
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            digit = static_cast<unsigned>((c | 0x20) - 'a' + 10);
        else
            break;
        if (v >> 60)
            return std::nullopt; // the next shift would overflow
        v = (v << 4) | digit;
    }
    if (j == i)
        return std::nullopt;
    i = j;
    return v;
}

// Whole-string conversions.
inline std::optional<std::int64_t> toSigned(std::string_view s)
{
    std::size_t i = 0;
    auto v = readSigned(s, i);
    return v && i == s.size() ? v : std::nullopt;
}

inline std::optional<std::uint64_t> toUnsigned(std::string_view s)
{
    std::size_t i = 0;
    auto v = readUnsigned(s, i);
    return v && i == s.size() ? v : std::nullopt;
}

// Literal search: the cheap prefilter run before any regular expression. Out of line on
// purpose: inlined into callers, GCC 12 mis-derives length bounds and warns
// (-Wstringop-overflow) although the range is checked.
std::size_t findLiteral(std::string_view hay, std::string_view needle, std::size_t from = 0);

inline bool contains(std::string_view hay, std::string_view needle)
{
    return findLiteral(hay, needle) != std::string_view::npos;
}

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (isSpace(s.front()) || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (isSpace(s.back()) || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace rankscope::parsers
