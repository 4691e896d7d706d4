#include "parsers/keywordset.h"

#include <algorithm>
#include <cstring>

namespace rankscope::parsers {

namespace {

std::uint32_t windowHash(const char* p)
{
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return (v * 0x9E3779B1u) >> 16;
}

std::uint16_t blockAt(const char* p)
{
    std::uint16_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

} // namespace

KeywordSet::KeywordSet(std::vector<std::string_view> keywords)
    : m_keywords(std::move(keywords))
    , m_shift(std::size_t { 1 } << 16, static_cast<std::uint8_t>(kWindow - 1))
{
    if (m_keywords.size() > kMaxKeywords)
        m_keywords.resize(kMaxKeywords);
    for (std::string_view word : m_keywords) {
        if (word.size() < kWindow)
            continue; // documented precondition; skipping keeps find() safe
        const std::uint32_t h = windowHash(word.data());
        m_windowBits[h >> 6] |= std::uint64_t { 1 } << (h & 63);
        // The 2-byte block ending at offset end of the word's first 4 bytes: a window whose
        // last two bytes are this block may be kWindow - end bytes before a match.
        for (std::size_t end = 2; end <= kWindow; ++end) {
            std::uint8_t& shift = m_shift[blockAt(word.data() + end - 2)];
            shift = std::min<std::uint8_t>(shift, static_cast<std::uint8_t>(kWindow - end));
        }
    }
}

std::uint64_t KeywordSet::find(std::string_view text) const
{
    std::uint64_t found = 0;
    if (text.size() < kWindow)
        return found;
    const char* p = text.data();
    const std::size_t last = text.size() - kWindow;
    // Wu-Manber: the last two bytes of the 4-byte window say how far the next possible
    // match can be; most windows of ordinary text skip 3 bytes without looking further.
    for (std::size_t i = 0; i <= last;) {
        const std::uint8_t shift = m_shift[blockAt(p + i + kWindow - 2)];
        if (shift != 0) {
            i += shift;
            continue;
        }
        const std::uint32_t h = windowHash(p + i);
        if ((m_windowBits[h >> 6] >> (h & 63)) & 1) {
            for (unsigned k = 0; k < m_keywords.size(); ++k) {
                const std::string_view word = m_keywords[k];
                if (word.size() >= kWindow && text.size() - i >= word.size()
                    && std::memcmp(p + i, word.data(), word.size()) == 0)
                    found |= std::uint64_t { 1 } << k;
            }
        }
        ++i;
    }
    return found;
}

} // namespace rankscope::parsers
