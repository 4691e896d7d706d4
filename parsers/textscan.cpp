#include "parsers/textscan.h"

namespace rankscope::parsers {

// memchr on one byte of the needle, then memcmp: on log-length lines this is several times
// faster than glibc's memmem, whose two-way set-up dominates short haystacks. The byte searched
// for is the needle's first that is not a blank: a needle such as " ranks: " anchored on its
// blank would stop memchr at every word of every line.
std::size_t findLiteral(std::string_view hay, std::string_view needle, std::size_t from)
{
    if (from > hay.size())
        return std::string_view::npos;
    if (needle.empty())
        return from;
    const std::size_t n = needle.size();
    if (hay.size() - from < n)
        return std::string_view::npos;
    std::size_t k = 0;
    while (k + 1 < n && needle[k] == ' ')
        ++k;
    // Candidates start in [first, last]; the anchor byte sits k bytes after the start.
    const char* p = hay.data() + from + k;
    const char* const lastAnchor = hay.data() + (hay.size() - n) + k;
    while (p <= lastAnchor) {
        p = static_cast<const char*>(std::memchr(p, needle[k], static_cast<std::size_t>(lastAnchor - p) + 1));
        if (!p)
            return std::string_view::npos;
        const char* start = p - k;
        if (std::memcmp(start, needle.data(), n) == 0)
            return static_cast<std::size_t>(start - hay.data());
        ++p;
    }
    return std::string_view::npos;
}

} // namespace rankscope::parsers
