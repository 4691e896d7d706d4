#pragma once
// The log viewer's text selection: an anchor and a cursor, each a line start and a column of
// the displayed line, and the selected text as the viewer shows it (secrets masked). Columns
// are of the displayed text (tabs expanded), so a copy is what the reader saw. Positions
// need no line index, so Select All works on a file the index has not finished.

#include <QString>

#include <climits>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope::views {

// A place in the text: the line (1-based; 0 when unknown, as for the end after Select All on
// a file still being indexed), the byte offset of its start, and a column of its displayed
// text (kLineEnd: after its last character).
struct LogTextPosition {
    static constexpr int kLineEnd = INT_MAX;
    std::uint64_t line = 0;
    std::uint64_t lineStart = 0;
    int column = 0;
    bool operator<(const LogTextPosition& o) const
    {
        return lineStart != o.lineStart ? lineStart < o.lineStart : column < o.column;
    }
    bool operator==(const LogTextPosition& o) const
    {
        return lineStart == o.lineStart && column == o.column;
    }
};

// A line the severity filter keeps.
struct LogLineRef {
    std::uint64_t line = 0; // 1-based
    std::uint64_t lineStart = 0;
};

class LogTextSelection {
public:
    const LogTextPosition& anchor() const { return m_anchor; }
    const LogTextPosition& cursor() const { return m_cursor; }
    LogTextPosition from() const { return std::min(m_anchor, m_cursor); }
    LogTextPosition to() const { return std::max(m_anchor, m_cursor); }
    bool empty() const { return m_anchor == m_cursor; }

    // Moves the cursor; the anchor follows unless the selection is being extended.
    void moveCursor(const LogTextPosition& pos, bool extend);
    void set(const LogTextPosition& anchor, const LogTextPosition& cursor);
    void clear() { m_anchor = m_cursor; }

    // Selected columns [first, last) of the line starting at `lineStart`, last = kLineEnd
    // when the selection runs on past its end; nothing when the line is not selected.
    std::optional<std::pair<int, int>> columnsOn(std::uint64_t lineStart) const;

    // The selected text of `bytes`, lines joined by \n; only the lines of `filter` when one
    // is given. Stops after `maxChars` characters and sets *truncated.
    QString text(std::string_view bytes, const std::vector<LogLineRef>* filter, qsizetype maxChars,
        bool* truncated = nullptr) const;

private:
    LogTextPosition m_anchor;
    LogTextPosition m_cursor;
};

} // namespace rankscope::views
