#pragma once
// A one-pass multi-keyword prefilter: which of up to 64 keywords occur in a line, in one
// scan. A bitmap over a hash of every 4-byte window marks the first 4 bytes of each
// keyword; only windows that hit the bitmap are compared. Every keyword must be at least
// 4 bytes long. Built once, immutable, cheap on lines that contain none of the words.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

class KeywordSet {
public:
    static constexpr std::size_t kMaxKeywords = 64;

    // Keyword i (in the given order) is bit i of find()'s result.
    explicit KeywordSet(std::vector<std::string_view> keywords);

    std::uint64_t find(std::string_view text) const;
    std::string_view keyword(unsigned index) const { return m_keywords[index]; }
    std::size_t size() const { return m_keywords.size(); }

private:
    std::vector<std::string_view> m_keywords;
    std::array<std::uint64_t, 1024> m_windowBits {};
};

} // namespace rankscope::parsers
