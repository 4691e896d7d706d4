#include "views/lineindex.h"

#include <algorithm>
#include <cstring>

namespace rankscope::views {

LineIndex::LineIndex(std::string_view bytes)
    : m_bytes(bytes)
{
}

bool LineIndex::indexMore(std::size_t maxBytes)
{
    const std::uint64_t end = std::min<std::uint64_t>(m_bytes.size(), m_scanned + maxBytes);
    const char* base = m_bytes.data();
    std::uint64_t pos = m_scanned;
    while (pos < end) {
        const void* hit = std::memchr(base + pos, '\n', end - pos);
        if (!hit)
            break;
        pos = static_cast<std::uint64_t>(static_cast<const char*>(hit) - base) + 1;
        ++m_newlines;
        // Line m_newlines starts at pos.
        if (m_newlines % kStride == 0)
            m_checkpoints.push_back(pos);
    }
    m_scanned = end;
    return complete();
}

std::uint64_t LineIndex::knownLines() const
{
    if (m_bytes.empty())
        return 0;
    if (complete())
        return m_bytes.back() == '\n' ? m_newlines : m_newlines + 1;
    // Line m_newlines has started (at the last \n + 1) even if it is not finished yet.
    return m_newlines + 1;
}

std::uint64_t LineIndex::offsetOfLine(std::uint64_t line) const
{
    const std::uint64_t known = knownLines();
    if (known == 0)
        return 0;
    line = std::min(line, known - 1);
    const std::uint64_t checkpoint
        = std::min<std::uint64_t>(line / kStride, m_checkpoints.size() - 1);
    std::uint64_t offset = m_checkpoints[checkpoint];
    for (std::uint64_t l = checkpoint * kStride; l < line; ++l)
        offset = nextLineStart(m_bytes, offset);
    return offset;
}

std::uint64_t LineIndex::lineOfOffset(std::uint64_t offset) const
{
    if (m_bytes.empty())
        return 0;
    offset = std::min<std::uint64_t>(offset, m_scanned == 0 ? 0 : m_scanned - 1);
    const auto it = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), offset);
    const std::size_t checkpoint = static_cast<std::size_t>(it - m_checkpoints.begin()) - 1;
    const std::uint64_t start = m_checkpoints[checkpoint];
    return checkpoint * kStride + countNewlines(m_bytes.substr(start, offset - start));
}

std::uint64_t LineIndex::lineStartAtOrBefore(std::string_view bytes, std::uint64_t offset)
{
    offset = std::min<std::uint64_t>(offset, bytes.size());
    // memrchr is a GNU extension; a reverse scan is bounded by one line.
    while (offset > 0 && bytes[offset - 1] != '\n')
        --offset;
    return offset;
}

std::uint64_t LineIndex::nextLineStart(std::string_view bytes, std::uint64_t lineStart)
{
    if (lineStart >= bytes.size())
        return bytes.size();
    const void* hit = std::memchr(bytes.data() + lineStart, '\n', bytes.size() - lineStart);
    if (!hit)
        return bytes.size();
    return static_cast<std::uint64_t>(static_cast<const char*>(hit) - bytes.data()) + 1;
}

std::uint64_t LineIndex::previousLineStart(std::string_view bytes, std::uint64_t lineStart)
{
    if (lineStart == 0)
        return 0;
    return lineStartAtOrBefore(bytes, lineStart - 1);
}

std::string_view LineIndex::lineText(std::string_view bytes, std::uint64_t lineStart)
{
    if (lineStart >= bytes.size())
        return {};
    std::uint64_t end = nextLineStart(bytes, lineStart);
    if (end > lineStart && bytes[end - 1] == '\n')
        --end;
    if (end > lineStart && bytes[end - 1] == '\r')
        --end;
    return bytes.substr(lineStart, end - lineStart);
}

std::uint64_t LineIndex::countNewlines(std::string_view bytes)
{
    std::uint64_t n = 0;
    const char* p = bytes.data();
    const char* end = p + bytes.size();
    while (p < end) {
        const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        if (!hit)
            break;
        ++n;
        p = static_cast<const char*>(hit) + 1;
    }
    return n;
}

} // namespace rankscope::views
