#pragma once
// A one-pass multi-keyword prefilter: which of up to 64 keywords occur in a line, in one
// scan. Windows of 4 bytes are visited Wu-Manber style (a table on their last 2 bytes skips
// up to 3 positions at once); a bitmap over a hash of each keyword's first 4 bytes picks the
// windows that are compared. Every keyword must be at least 4 bytes long. Built once,
// immutable, cheap on lines that contain none of the words.

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
    static constexpr std::size_t kWindow = 4;
    std::vector<std::string_view> m_keywords;
    std::array<std::uint64_t, 1024> m_windowBits {};
    // By the 2 bytes ending a 4-byte window: how far the window may move without passing
    // the start of a keyword (3 for blocks in no keyword's first 4 bytes).
    std::vector<std::uint8_t> m_shift;
};

} // namespace rankscope::parsers
