// The default-axis rule of the timeline (views/timelineaxisrule.h) on synthetic rows: rows
// spread over the span, one outlier stretching the span, watchdog waits that fill their rows,
// the 3/4 threshold itself, too few rows to judge, times outside the span.

#include "model/timepoint.h"
#include "views/timelineaxisrule.h"

#include <catch2/catch.hpp>

using namespace rankscope::views;
using rankscope::model::kNsPerSecond;

namespace {

constexpr std::int64_t kHour = 3600 * kNsPerSecond;

TimelineAxisFacts timedFacts(const TimeSpread& spread)
{
    TimelineAxisFacts f;
    f.hasTime = true;
    f.hasSequence = true;
    f.rankCount = static_cast<std::int32_t>(spread.rows());
    f.ranksWithTime = static_cast<std::int32_t>(spread.rows());
    f.spread = spread;
    return f;
}

} // namespace

TEST_CASE("rows spread over the span keep the wall clock", "[timeline][axis]")
{
    // 100 ranks, each a single timeout, one every 36 s over an hour.
    TimeSpread spread(0, kHour);
    for (int r = 0; r < 100; ++r)
        spread.addRow(kHour * r / 100, kHour * r / 100);
    CHECK(spread.rows() == 100);
    // 2 % of the span holds two of them.
    CHECK(spread.squeezedShare() == Approx(0.02));
    CHECK_FALSE(wallClockSqueezed(spread));
    CHECK(defaultTimelineAxis(timedFacts(spread)) == TimelineAxisChoice::Time);
}

TEST_CASE("one outlier hours before rows that sit within seconds squeezes the axis",
    "[timeline][axis]")
{
    // 16 ranks time out within 3 s of each other five hours after an inferred time that
    // stamps rank 0's traceback with its stream's first line.
    const std::int64_t fault = 5 * kHour;
    const std::int64_t end = fault + 3 * kNsPerSecond;
    TimeSpread spread(0, end);
    spread.addRow(0, fault); // rank 0: the outlier and its own timeout
    for (int r = 1; r < 16; ++r)
        spread.addRow(fault + r * kNsPerSecond / 5, fault + r * kNsPerSecond / 5);
    CHECK(spread.squeezedShare() == Approx(15.0 / 16.0));
    CHECK(wallClockSqueezed(spread));
    // The window is the 2 % of the span holding the fault.
    CHECK(spread.windowStart() <= fault);
    CHECK(spread.windowEnd() >= end);
    CHECK(static_cast<double>(spread.windowEnd() - spread.windowStart())
        == Approx(0.02 * static_cast<double>(end)).epsilon(0.01));
    CHECK(defaultTimelineAxis(timedFacts(spread)) == TimelineAxisChoice::Sequence);
}

TEST_CASE("watchdog waits fill their rows and keep the wall clock although their markers "
          "pile up at the end",
    "[timeline][axis]")
{
    // The sample's shape: each collateral rank waits 600 s in the stuck all-reduce, then logs
    // five lines within a second (timeout, exception, abort, ...); the straggler logs nothing.
    const std::int64_t wait = 600 * kNsPerSecond;
    TimeSpread spread(0, wait + kNsPerSecond);
    for (int r = 0; r < 15; ++r)
        spread.addRow(r * kNsPerSecond / 100, wait + kNsPerSecond);
    CHECK(spread.squeezedShare() == 0.0);
    CHECK_FALSE(wallClockSqueezed(spread));
    CHECK(defaultTimelineAxis(timedFacts(spread)) == TimelineAxisChoice::Time);
    // Two thirds of the ranks with markers only at the end, one third with waits: still the
    // wall clock (2/3 < 3/4).
    TimeSpread mixed(0, wait + kNsPerSecond);
    for (int r = 0; r < 10; ++r)
        mixed.addRow(wait, wait + kNsPerSecond);
    for (int r = 0; r < 5; ++r)
        mixed.addRow(0, wait + kNsPerSecond);
    CHECK(mixed.squeezedShare() == Approx(10.0 / 15.0));
    CHECK_FALSE(wallClockSqueezed(mixed));
}

TEST_CASE("the squeeze threshold is three quarters of the timed rows inside 2 % of the span",
    "[timeline][axis]")
{
    // `inside` rows at the very end, the others one per 3 % of the span from its start.
    auto spreadWith = [](int inside, int spreadOut) {
        TimeSpread s(0, 1000 * kNsPerSecond);
        for (int i = 0; i < inside; ++i)
            s.addRow(995 * kNsPerSecond, 1000 * kNsPerSecond);
        for (int i = 0; i < spreadOut; ++i)
            s.addRow(i * 30 * kNsPerSecond, i * 30 * kNsPerSecond);
        return s;
    };
    const TimeSpread at = spreadWith(75, 25);
    CHECK(at.squeezedShare() == Approx(0.75));
    CHECK(wallClockSqueezed(at));
    const TimeSpread below = spreadWith(74, 26);
    CHECK(below.squeezedShare() == Approx(0.74));
    CHECK_FALSE(wallClockSqueezed(below));
    // A row just wider than the window fits no window: 21 s of 1000 s.
    TimeSpread wide(0, 1000 * kNsPerSecond);
    wide.addRow(100 * kNsPerSecond, 121 * kNsPerSecond);
    wide.addRow(500 * kNsPerSecond, 500 * kNsPerSecond);
    CHECK(wide.squeezedShare() == Approx(0.5));
    TimeSpread narrow(0, 1000 * kNsPerSecond);
    narrow.addRow(100 * kNsPerSecond, 119 * kNsPerSecond);
    narrow.addRow(100 * kNsPerSecond, 100 * kNsPerSecond);
    CHECK(narrow.squeezedShare() == Approx(1.0));
}

TEST_CASE("a squeeze needs two timed rows, and times outside the span are clamped",
    "[timeline][axis]")
{
    TimeSpread one(0, kHour);
    one.addRow(kHour / 2, kHour / 2);
    CHECK(one.squeezedShare() == Approx(1.0));
    CHECK_FALSE(wallClockSqueezed(one)); // kMinSqueezedRows
    one.addRow(kHour / 2, kHour / 2);
    CHECK(wallClockSqueezed(one));

    TimeSpread clamped(0, kHour);
    clamped.addRow(-kHour, -kHour); // first bin
    clamped.addRow(3 * kHour, 4 * kHour); // last bin
    CHECK(clamped.rows() == 2);
    CHECK(clamped.squeezedShare() == Approx(0.5));
    CHECK(clamped.windowStart() == 0);
    CHECK(TimeSpread().squeezedShare() == 0.0);
    // A span of zero (every time at one instant): everything in one window.
    TimeSpread instant(7, 7);
    instant.addRow(7, 7);
    instant.addRow(7, 7);
    CHECK(wallClockSqueezed(instant));
}

TEST_CASE("default axis: no wall clock means sequence, no sequence axis means time, few timed "
          "ranks or a squeezed span mean sequence",
    "[timeline][axis]")
{
    TimeSpread squeezed(0, kHour);
    squeezed.addRow(0, 0);
    for (int i = 0; i < 15; ++i)
        squeezed.addRow(kHour, kHour);
    REQUIRE(wallClockSqueezed(squeezed));
    TimeSpread even(0, kHour);
    for (int i = 0; i < 16; ++i)
        even.addRow(0, kHour);
    REQUIRE_FALSE(wallClockSqueezed(even));

    TimelineAxisFacts f = timedFacts(even);
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Time);
    f.hasTime = false;
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Sequence);
    f.hasTime = true;
    f.ranksWithTime = 7; // fewer than half of 16
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Sequence);
    f.ranksWithTime = 8; // half
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Time);
    f.spread = squeezed;
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Sequence);
    // Without a sequence axis there is nothing better to show.
    f.hasSequence = false;
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Time);
    f.ranksWithTime = 1;
    CHECK(defaultTimelineAxis(f) == TimelineAxisChoice::Time);
}
