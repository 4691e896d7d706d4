#pragma once
// Counts the matches of the log viewer's Find in a whole source, in bounded chunks from the
// view's timer, so "match 3 of 17" appears without freezing the window on a 1 GB log. Matches
// are counted the way Find steps through them: case-insensitive, each start one byte after
// the previous one (overlapping). The first kMaxKeptOffsets start offsets are kept so the
// ordinal of the match Find landed on is a binary search.

#include "views/textsearch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::views {

class LogMatchCounter {
public:
    static constexpr std::size_t kMaxKeptOffsets = 1'000'000;

    LogMatchCounter(std::string_view bytes, std::string_view needle);

    const std::string& needle() const { return m_needle; }
    // Scans at most `maxBytes` more bytes; returns true once the whole buffer is counted.
    bool countMore(std::size_t maxBytes);
    bool complete() const { return m_scanned >= m_bytes.size(); }
    std::uint64_t count() const { return m_count; } // so far
    // 1-based ordinal of the match starting at `offset`, once it has been counted and kept.
    std::optional<std::uint64_t> ordinalOf(std::uint64_t offset) const;

private:
    std::string_view m_bytes;
    std::string m_needle;
    TextSearch m_search;
    std::uint64_t m_scanned = 0; // every match starting before this has been counted
    std::uint64_t m_count = 0;
    std::vector<std::uint64_t> m_offsets; // first kMaxKeptOffsets match starts, ascending
};

} // namespace rankscope::views
