#pragma once
// One run of the log viewer's Find over a source's bytes: case-insensitive, forwards or
// backwards from a position, wrapping around the end once, scanned in bounded chunks so the
// view can drive it from a timer and a multi-GB log never freezes the window. Line numbers
// are counted on the way (the line index may not have reached the match yet); a backward
// search that wraps needs the line count of the whole file, so it extends the index.

#include "views/lineindex.h"
#include "views/textsearch.h"

#include <cstdint>
#include <string_view>

namespace rankscope::views {

class LogFind {
public:
    enum class Step { Running, Found, NotFound };

    // `pos` is where the scan starts (forwards: the first byte a match may start at;
    // backwards: matches must start before it); `line` is the 0-based line holding it.
    LogFind(std::string_view needle, bool backwards, std::uint64_t pos, std::uint64_t line);

    // Scans about `chunkBytes` more; `index` must be over the same bytes.
    Step step(LineIndex& index, std::size_t chunkBytes);

    bool wrapped() const { return m_wrapped; }
    std::uint64_t matchOffset() const { return m_matchOffset; }
    std::uint64_t matchLine() const { return m_matchLine; } // 0-based
    std::size_t needleSize() const { return m_searcher.size(); }

private:
    Step found(std::uint64_t line, std::uint64_t offset);

    TextSearch m_searcher;
    bool m_backwards;
    bool m_wrapped = false;
    std::uint64_t m_pos; // next byte to scan (forward) / end of the unscanned part (backward)
    std::uint64_t m_line; // 0-based line of m_pos
    std::uint64_t m_stopAt; // where the search began; reaching it again after wrapping = not found
    std::uint64_t m_matchOffset = 0;
    std::uint64_t m_matchLine = 0;
};

} // namespace rankscope::views
