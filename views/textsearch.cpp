#include "views/textsearch.h"

#include <algorithm>
#include <cstring>

namespace rankscope::views {

namespace {

unsigned char lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + ('a' - 'A')) : c;
}

bool matchesAt(std::string_view haystack, std::size_t pos, std::string_view needle)
{
    for (std::size_t i = 1; i < needle.size(); ++i) {
        if (lower(static_cast<unsigned char>(haystack[pos + i]))
            != static_cast<unsigned char>(needle[i]))
            return false;
    }
    return true;
}

} // namespace

TextSearch::TextSearch(std::string_view needle)
    : m_needle(needle)
{
    for (char& c : m_needle)
        c = static_cast<char>(lower(static_cast<unsigned char>(c)));
}

std::optional<std::size_t> TextSearch::findFirst(std::string_view haystack) const
{
    if (m_needle.empty() || haystack.size() < m_needle.size())
        return std::nullopt;
    // Candidate positions come from memchr on the first byte in both cases (near memchr
    // speed on logs), then the rest is compared case-insensitively.
    const unsigned char first = static_cast<unsigned char>(m_needle[0]);
    const unsigned char upper
        = (first >= 'a' && first <= 'z') ? static_cast<unsigned char>(first - ('a' - 'A')) : first;
    const std::size_t last = haystack.size() - m_needle.size();
    // Next occurrence of each case of the first byte at or after pos; each memchr result is
    // reused until pos passes it, so the scan stays linear.
    const auto next = [&](unsigned char c, std::size_t from) -> std::size_t {
        if (from > last)
            return std::string_view::npos;
        const void* hit = std::memchr(haystack.data() + from, c, last - from + 1);
        return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - haystack.data())
                   : std::string_view::npos;
    };
    std::size_t nextLower = next(first, 0);
    std::size_t nextUpper = upper != first ? next(upper, 0) : std::string_view::npos;
    while (nextLower != std::string_view::npos || nextUpper != std::string_view::npos) {
        const std::size_t at = std::min(nextLower, nextUpper);
        if (matchesAt(haystack, at, m_needle))
            return at;
        if (at == nextLower)
            nextLower = next(first, at + 1);
        if (at == nextUpper)
            nextUpper = next(upper, at + 1);
    }
    return std::nullopt;
}

std::optional<std::size_t> TextSearch::findLast(std::string_view haystack) const
{
    if (m_needle.empty() || haystack.size() < m_needle.size())
        return std::nullopt;
    const unsigned char first = static_cast<unsigned char>(m_needle[0]);
    for (std::size_t at = haystack.size() - m_needle.size() + 1; at-- > 0;) {
        if (lower(static_cast<unsigned char>(haystack[at])) == first
            && matchesAt(haystack, at, m_needle))
            return at;
    }
    return std::nullopt;
}

} // namespace rankscope::views
