#include "parsers/keywordset.h"

#include <cstring>

namespace rankscope::parsers {

namespace {

std::uint32_t windowHash(const char* p)
{
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return (v * 0x9E3779B1u) >> 16;
}

} // namespace

KeywordSet::KeywordSet(std::vector<std::string_view> keywords)
    : m_keywords(std::move(keywords))
{
    if (m_keywords.size() > kMaxKeywords)
        m_keywords.resize(kMaxKeywords);
    for (std::string_view word : m_keywords) {
        if (word.size() < 4)
            continue; // documented precondition; skipping keeps find() safe
        const std::uint32_t h = windowHash(word.data());
        m_windowBits[h >> 6] |= std::uint64_t { 1 } << (h & 63);
    }
}

std::uint64_t KeywordSet::find(std::string_view text) const
{
    std::uint64_t found = 0;
    if (text.size() < 4)
        return found;
    const char* p = text.data();
    const std::size_t last = text.size() - 4;
    for (std::size_t i = 0; i <= last; ++i) {
        const std::uint32_t h = windowHash(p + i);
        if (!((m_windowBits[h >> 6] >> (h & 63)) & 1))
            continue;
        for (unsigned k = 0; k < m_keywords.size(); ++k) {
            const std::string_view word = m_keywords[k];
            if (word.size() >= 4 && text.size() - i >= word.size() && std::memcmp(p + i, word.data(), word.size()) == 0)
                found |= std::uint64_t { 1 } << k;
        }
    }
    return found;
}

} // namespace rankscope::parsers
