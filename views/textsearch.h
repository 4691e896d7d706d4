#pragma once
// Case-insensitive (ASCII) substring search over raw log bytes, for the log viewer's Find.
// Works on byte ranges of a mapped file so a multi-GB source is searched chunk by chunk.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rankscope::views {

class TextSearch {
public:
    explicit TextSearch(std::string_view needle);

    bool empty() const { return m_needle.empty(); }
    std::size_t size() const { return m_needle.size(); }
    // Position of the first / last match inside `haystack`, if any.
    std::optional<std::size_t> findFirst(std::string_view haystack) const;
    std::optional<std::size_t> findLast(std::string_view haystack) const;

private:
    std::string m_needle; // lower-cased
};

} // namespace rankscope::views
