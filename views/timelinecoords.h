#pragma once
// Coordinate maths of the per-rank timeline, kept free of widgets so it can be unit-tested:
// value↔x on a linear axis (wall-clock ns or collective sequence number), zoom about a
// point, clamping, row↔y with collapsible host groups, axis ticks, and a rank's effective
// position on a sequence axis. Everything here is a small value type or a pure function.
//
// Time values are handled as doubles RELATIVE to an origin (the document's first time):
// absolute naive-local ns (~1.7e18) do not fit a double's 53-bit mantissa, relative ones
// (a few days = 1e14) do, with ns precision.

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::views {

// A linear map between axis values [start, end] and pixels [left, left + width].
struct AxisMap {
    double start = 0.0;
    double end = 1.0;
    double left = 0.0;
    double width = 1.0;

    double span() const { return end - start; }
    double unitsPerPixel() const { return span() / width; }
    double toX(double value) const { return left + (value - start) * width / span(); }
    double toValue(double x) const { return start + (x - left) * span() / width; }

    // factor > 1 zooms in. The value under pixel x stays under pixel x.
    AxisMap zoomedAbout(double x, double factor) const;
    // Content follows the mouse: dragging right by dx shows earlier values.
    AxisMap panned(double dx) const;
    // The visible range between pixels x0 and x1 (any order) becomes the whole width.
    AxisMap zoomedTo(double x0, double x1) const;
    // Keeps the span within [minSpan, hi - lo] and the range inside [lo, hi], preferring to
    // shift rather than shrink, so a pan at the edge stops instead of zooming.
    AxisMap clamped(double lo, double hi, double minSpan) const;
};

// One row of the timeline: a host header or a rank.
struct TimelineRow {
    enum class Kind : std::uint8_t { Host, Rank };
    Kind kind = Kind::Rank;
    std::int32_t group = -1; // index into the host groups given to RowLayout::build
    std::int32_t rank = -1; // -1 on host rows
};

// Rows laid out top to bottom: for each host group a header row, then (unless collapsed)
// its ranks. Host groups whose ranks are all filtered out disappear. Row lookup by y is a
// binary search over the row tops; lookup by rank is a direct index.
class RowLayout {
public:
    struct Params {
        int rankRowHeight = 16;
        int hostRowHeight = 20;
    };

    // ranksByGroup: ranks of each host group in display order. collapsed: per group, may be
    // shorter than the group list (missing = expanded). rankFilter: empty = every rank.
    // rankCount bounds the ranks (rank ids outside [0, rankCount) are ignored).
    static RowLayout build(const std::vector<std::vector<std::int32_t>>& ranksByGroup,
        const std::vector<bool>& collapsed, const std::vector<std::int32_t>& rankFilter,
        std::int32_t rankCount, Params params);

    int count() const { return static_cast<int>(m_rows.size()); }
    const TimelineRow& row(int index) const { return m_rows[static_cast<std::size_t>(index)]; }
    int top(int index) const { return m_tops[static_cast<std::size_t>(index)]; }
    int height(int index) const { return top(index + 1) - top(index); }
    int totalHeight() const { return m_tops.back(); }
    // Row containing content y (0 = top of the first row); -1 above or below all rows.
    int rowAt(int y) const;
    // Rows intersecting content [y0, y1): {first, last + 1}; empty range when none.
    std::pair<int, int> visibleRows(int y0, int y1) const;
    // Row of a rank, -1 when hidden (collapsed, filtered or unknown).
    int rowOfRank(std::int32_t rank) const;
    // Header row of a host group, -1 when the group is not shown.
    int rowOfGroup(std::int32_t group) const;

private:
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_tops { 0 }; // count() + 1 entries; the last one is the total height
    std::vector<int> m_rowOfRank;
    std::vector<int> m_rowOfGroup;
};

// Axis ticks. Steps are "nice" values (1-2-5 series, then seconds/minutes/hours/days), at
// least minStep apart; tick values are multiples of the step, so wall-clock ticks fall on
// whole seconds, minutes and (naive local) midnights.
std::int64_t niceTimeStepNs(double minStepNs);
std::int64_t niceSeqStep(double minStep);
// Multiples of step in [first, last] (absolute values), at most maxTicks of them.
std::vector<std::int64_t> ticksBetween(
    std::int64_t first, std::int64_t last, std::int64_t step, std::size_t maxTicks = 1000);
// "20:27:21", "20:27:21.250" when the step is below a second, "12-18 20:27" when the step is
// a day or more or withDate is set (the visible range spans days), "12-18" for whole days.
std::string formatTimeTick(std::int64_t ns, std::int64_t stepNs, bool withDate);

// A length of time for people: "2h 5m", "3m 20s", "4.2 s", "12.5 ms", "800 µs".
std::string formatDuration(std::int64_t ns);

// A rank's position on one process group's sequence axis, completed from what the logs
// give: a watchdog timeout at S proves S was enqueued and, because one PG's work completes
// in order on its stream, that S-1 completed when no status line said otherwise.
struct SeqProgress {
    std::int64_t completed = -1; // last completed seq, -1 none/unknown
    std::int64_t enqueued = -1; // last enqueued seq, -1 none/unknown
    bool known() const { return completed >= 0 || enqueued >= 0; }
};
SeqProgress effectiveSeqProgress(
    std::int64_t lastCompleted, std::int64_t lastEnqueued, std::int64_t timeoutSeq);

// Where one rank stood on collective `seq`.
enum class StepState : std::uint8_t { Completed, Waiting, NeverEntered, Unknown };
StepState stepState(const SeqProgress& progress, std::int64_t seq);

// Merges sub-pixel runs: the pixel bucket of x (bucket width w px, lane starting at left).
inline int pixelBucket(double x, double left, double bucketWidth)
{
    return static_cast<int>(std::floor((x - left) / bucketWidth));
}

} // namespace rankscope::views
