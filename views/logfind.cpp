#include "views/logfind.h"

#include <algorithm>

namespace rankscope::views {

LogFind::LogFind(std::string_view needle, bool backwards, std::uint64_t pos, std::uint64_t line)
    : m_searcher(needle)
    , m_backwards(backwards)
    , m_pos(pos)
    , m_line(line)
    , m_stopAt(pos)
{
}

LogFind::Step LogFind::found(std::uint64_t line, std::uint64_t offset)
{
    m_matchLine = line;
    m_matchOffset = offset;
    return Step::Found;
}

LogFind::Step LogFind::step(LineIndex& index, std::size_t chunkBytes)
{
    const std::string_view b = index.bytes();
    const std::uint64_t n = m_searcher.size();
    if (!m_backwards) {
        const std::uint64_t end = m_wrapped ? m_stopAt : b.size();
        const std::uint64_t chunkEnd = std::min<std::uint64_t>(end, m_pos + chunkBytes);
        // Matches may start before chunkEnd and run past it.
        const std::uint64_t windowEnd = std::min<std::uint64_t>(b.size(), chunkEnd + n - 1);
        if (m_pos < windowEnd) {
            const auto hit = m_searcher.findFirst(b.substr(m_pos, windowEnd - m_pos));
            if (hit && m_pos + *hit < chunkEnd) {
                const std::uint64_t at = m_pos + *hit;
                return found(m_line + LineIndex::countNewlines(b.substr(m_pos, at - m_pos)), at);
            }
        }
        m_line += LineIndex::countNewlines(b.substr(m_pos, chunkEnd - m_pos));
        m_pos = chunkEnd;
        if (m_pos >= end) {
            if (m_wrapped || m_stopAt == 0) {
                return Step::NotFound;
            }
            m_wrapped = true;
            m_pos = 0;
            m_line = 0;
        }
        return Step::Running;
    }
    // Backwards: scan [lo, pos) from its end.
    if (m_wrapped && !index.complete()) {
        // The line number of the end of the file needs the full index.
        index.indexMore(chunkBytes);
        if (!index.complete())
            return Step::Running;
        m_line = index.knownLines() - ((!b.empty() && b.back() != '\n') ? 1 : 0);
    }
    const std::uint64_t lo = m_wrapped ? m_stopAt : 0;
    const std::uint64_t chunkStart = m_pos > lo + chunkBytes ? m_pos - chunkBytes : lo;
    const std::uint64_t windowEnd = std::min<std::uint64_t>(b.size(), m_pos + n - 1);
    if (chunkStart < windowEnd) {
        const auto hit = m_searcher.findLast(b.substr(chunkStart, windowEnd - chunkStart));
        if (hit && chunkStart + *hit < m_pos) {
            const std::uint64_t at = chunkStart + *hit;
            return found(m_line - LineIndex::countNewlines(b.substr(at, m_pos - at)), at);
        }
    }
    m_line -= LineIndex::countNewlines(b.substr(chunkStart, m_pos - chunkStart));
    m_pos = chunkStart;
    if (m_pos <= lo) {
        if (m_wrapped || m_stopAt >= b.size()) {
            return Step::NotFound;
        }
        m_wrapped = true;
        m_pos = b.size();
        if (index.complete())
            m_line = index.knownLines() - ((!b.empty() && b.back() != '\n') ? 1 : 0);
    }
    return Step::Running;
}

} // namespace rankscope::views
