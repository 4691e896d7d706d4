#include "views/logmatchcounter.h"

#include <algorithm>

namespace rankscope::views {

LogMatchCounter::LogMatchCounter(std::string_view bytes, std::string_view needle)
    : m_bytes(bytes)
    , m_needle(needle)
    , m_search(needle)
{
    if (m_search.empty())
        m_scanned = m_bytes.size();
}

bool LogMatchCounter::countMore(std::size_t maxBytes)
{
    if (complete())
        return true;
    const std::uint64_t n = m_search.size();
    const std::uint64_t chunkEnd = std::min<std::uint64_t>(m_bytes.size(), m_scanned + maxBytes);
    // A match may start before chunkEnd and run past it.
    const std::uint64_t windowEnd = std::min<std::uint64_t>(m_bytes.size(), chunkEnd + n - 1);
    std::uint64_t pos = m_scanned;
    while (pos < chunkEnd) {
        const auto hit = m_search.findFirst(m_bytes.substr(pos, windowEnd - pos));
        if (!hit || pos + *hit >= chunkEnd)
            break;
        const std::uint64_t at = pos + *hit;
        ++m_count;
        if (m_offsets.size() < kMaxKeptOffsets)
            m_offsets.push_back(at);
        pos = at + 1;
    }
    m_scanned = chunkEnd;
    return complete();
}

std::optional<std::uint64_t> LogMatchCounter::ordinalOf(std::uint64_t offset) const
{
    const auto it = std::lower_bound(m_offsets.begin(), m_offsets.end(), offset);
    if (it == m_offsets.end() || *it != offset)
        return std::nullopt;
    return static_cast<std::uint64_t>(it - m_offsets.begin()) + 1;
}

} // namespace rankscope::views
