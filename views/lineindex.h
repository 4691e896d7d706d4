#pragma once
// A sparse line index over a (possibly multi-GB, memory-mapped) text buffer: the byte offset
// of every kStride-th line start. Built incrementally in bounded chunks so the GUI thread can
// index a huge file from a timer without ever blocking; finding any line costs one lookup
// plus a memchr scan over at most kStride lines. Lines are counted on \n only, the way an
// editor and model::EvidenceRef::line count them.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rankscope::views {

class LineIndex {
public:
    static constexpr std::uint64_t kStride = 1024;

    LineIndex() = default;
    explicit LineIndex(std::string_view bytes);

    std::string_view bytes() const { return m_bytes; }
    // Scans at most `maxBytes` more bytes; returns true once the whole buffer is indexed.
    bool indexMore(std::size_t maxBytes);
    bool complete() const { return m_scanned >= m_bytes.size(); }
    std::uint64_t indexedBytes() const { return m_scanned; }
    // Lines whose start is known: all lines once complete (a last line without \n counts;
    // an empty buffer has 0 lines), else the lines started within the scanned prefix.
    std::uint64_t knownLines() const;

    // Byte offset where 0-based line `line` starts, if it lies within the scanned prefix
    // (else the start of the last known line).
    std::uint64_t offsetOfLine(std::uint64_t line) const;
    // 0-based line holding byte `offset` (offset must lie within the scanned prefix, else
    // the last known line is returned).
    std::uint64_t lineOfOffset(std::uint64_t offset) const;

    // Helpers over any buffer, used for scrolling a few lines without the index.
    static std::uint64_t lineStartAtOrBefore(std::string_view bytes, std::uint64_t offset);
    // Start of the next line after the one starting at `lineStart`; bytes.size() at the end.
    static std::uint64_t nextLineStart(std::string_view bytes, std::uint64_t lineStart);
    // Start of the line before the one starting at `lineStart` (0 stays 0).
    static std::uint64_t previousLineStart(std::string_view bytes, std::uint64_t lineStart);
    // The text of the line starting at `lineStart`, without its \n (and a trailing \r).
    static std::string_view lineText(std::string_view bytes, std::uint64_t lineStart);
    static std::uint64_t countNewlines(std::string_view bytes);

private:
    std::string_view m_bytes;
    std::vector<std::uint64_t> m_checkpoints { 0 }; // start of line k*kStride
    std::uint64_t m_scanned = 0; // bytes scanned so far
    std::uint64_t m_newlines = 0; // \n seen in the scanned prefix
};

} // namespace rankscope::views
