#include "parsers/textscan.h"

namespace rankscope::parsers {

std::size_t findLiteral(std::string_view hay, std::string_view needle, std::size_t from)
{
    if (from > hay.size())
        return std::string_view::npos;
    const std::string_view rest = hay.substr(from);
    if (needle.size() > rest.size())
        return std::string_view::npos;
    const void* hit = ::memmem(rest.data(), rest.size(), needle.data(), needle.size());
    return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - hay.data())
               : std::string_view::npos;
}

} // namespace rankscope::parsers
