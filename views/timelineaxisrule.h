#pragma once
// Which x axis the per-rank timeline opens on, decided in one place (RankTimelineView asks
// defaultTimelineAxis() for every new document unless the user picked an axis).
//
// The rule. The timeline opens on the SEQUENCE axis when the bundle has one and either
//   (1) few ranks are timed: fewer than half the ranks have anything on the wall clock
//       (2 * ranksWithTime < rankCount). A launcher log or one rank with timestamps would
//       leave most lanes of the time axis empty, while the sequence axis shows every rank
//       that logged its progress; or
//   (2) the wall-clock span is squeezed: at least kSqueezedShare (3/4) of the timed ranks
//       have everything their row shows inside one window of 2 % of the span (kWindowBins
//       consecutive bins of kBins equal bins) — on a 1000-pixel plot, 20 pixels for three
//       rows in four. That is the shape of one outlying or inferred time (a traceback stamped
//       with its stream's last time hours earlier, a start-up warning) stretching an axis
//       whose rows all happen within seconds. It takes kMinSqueezedRows timed ranks.
// Otherwise it opens on the TIME axis, and always on it when there is no sequence axis; with
// no wall clock at all it opens on the sequence axis.
//
// Rows, not events, are what is weighed: a watchdog wait drawn from its enqueue to its
// timeout fills its row however many markers pile up at its end, and such a row reads well on
// the wall clock; a row whose markers, waits and Flight Recorder bars all fall within 2 % of
// the axis is a few pixels wide wherever they fall.
//
// Bins make the measure O(ranks + bins) with no sort: a row fits the windows that start at or
// before its first bin and end after its last one; a difference array counts, per window
// start, the rows that fit.
//
// Qt-free, so tests/views/test_timeline_axisrule.cpp runs it on synthetic rows.

#include <array>
#include <cstdint>

namespace rankscope::views {

// Where the timed rows of a bundle sit within the wall-clock span [lo, hi].
class TimeSpread {
public:
    static constexpr int kBins = 500;
    static constexpr int kWindowBins = 10; // 2 % of the span

    TimeSpread() = default;
    TimeSpread(std::int64_t lo, std::int64_t hi);

    // One timed rank: everything its row shows lies within [first, last]. Times outside
    // [lo, hi] are clamped into the first or last bin.
    void addRow(std::int64_t first, std::int64_t last);
    std::uint32_t rows() const { return m_rows; }
    // Share (0..1) of the rows that lie wholly inside the one window of kWindowBins bins that
    // holds the most of them; 0 without rows.
    double squeezedShare() const;
    // That window as [start, end) in the span's units.
    std::int64_t windowStart() const;
    std::int64_t windowEnd() const;

private:
    int bin(std::int64_t t) const;
    // Window start holding the most rows, and how many.
    std::pair<int, std::uint32_t> bestWindow() const;

    std::int64_t m_lo = 0;
    std::int64_t m_hi = 0;
    std::uint32_t m_rows = 0;
    // Difference array over window starts 0 .. kBins - kWindowBins (+1 past the end).
    std::array<std::int32_t, kBins - kWindowBins + 2> m_fitDelta {};
};

enum class TimelineAxisChoice : std::uint8_t { Time, Sequence };

struct TimelineAxisFacts {
    bool hasTime = false; // anything on the wall clock
    bool hasSequence = false; // a sequence axis for the shown process group
    std::int32_t rankCount = 0;
    std::int32_t ranksWithTime = 0; // ranks with a marker, a wait or a Flight Recorder bar
    TimeSpread spread; // those ranks' rows
};

inline constexpr double kSqueezedShare = 0.75;
inline constexpr std::uint32_t kMinSqueezedRows = 2;

// (2) above.
bool wallClockSqueezed(const TimeSpread& spread);
// The rule above.
TimelineAxisChoice defaultTimelineAxis(const TimelineAxisFacts& facts);

} // namespace rankscope::views
