#include "model/timepoint.h"
#include "views/timelinecoords.h"

#include <catch2/catch.hpp>

using namespace rankscope::views;
using rankscope::model::kNsPerSecond;

namespace {

AxisMap timeMap()
{
    // 10 minutes of ns on 1000 px starting at x = 120 (the gutter).
    AxisMap m;
    m.start = 0;
    m.end = 600.0 * kNsPerSecond;
    m.left = 120;
    m.width = 1000;
    return m;
}

} // namespace

TEST_CASE("time to x and back round-trips to the nanosecond", "[timeline]")
{
    const AxisMap m = timeMap();
    CHECK(m.toX(0) == Approx(120));
    CHECK(m.toX(600.0 * kNsPerSecond) == Approx(1120));
    CHECK(m.toX(300.0 * kNsPerSecond) == Approx(620));
    for (double v : { 0.0, 1.0, 123456789.0, 599.999999999e9 })
        CHECK(m.toValue(m.toX(v)) == Approx(v).margin(1e-3));
    for (double x : { 120.0, 121.5, 700.25, 1119.0 })
        CHECK(m.toX(m.toValue(x)) == Approx(x).margin(1e-9));
}

TEST_CASE("relative nanoseconds over days keep full precision on the axis", "[timeline]")
{
    // Three days of ns relative to the document's first time: still exact in a double.
    AxisMap m;
    m.start = 0;
    m.end = 3.0 * 86400 * kNsPerSecond;
    m.left = 0;
    m.width = 1920;
    const double v = 2.0 * 86400 * kNsPerSecond + 7; // 7 ns past midnight of day 2
    CHECK(m.toValue(m.toX(v)) == Approx(v).margin(0.5));
}

TEST_CASE("zooming about a point keeps that point's value under it", "[timeline]")
{
    const AxisMap m = timeMap();
    for (double x : { 120.0, 400.0, 987.0, 1120.0 }) {
        const double before = m.toValue(x);
        for (double f : { 1.25, 4.0, 0.5, 1000.0 }) {
            const AxisMap z = m.zoomedAbout(x, f);
            CHECK(z.toValue(x) == Approx(before).margin(1e-3));
            CHECK(z.span() == Approx(m.span() / f));
        }
    }
    // Zooming in then out by the same factor restores the range.
    const AxisMap back = m.zoomedAbout(333, 3.0).zoomedAbout(333, 1.0 / 3.0);
    CHECK(back.start == Approx(m.start).margin(1e-3));
    CHECK(back.end == Approx(m.end));
}

TEST_CASE(
    "panning moves the content with the mouse and rubber band zooms to the band", "[timeline]")
{
    const AxisMap m = timeMap();
    const double at500 = m.toValue(500);
    const AxisMap p = m.panned(100); // drag right by 100 px
    CHECK(p.toValue(600) == Approx(at500));
    CHECK(p.span() == Approx(m.span()));
    const AxisMap z = m.zoomedTo(620, 370); // any order
    CHECK(z.start == Approx(m.toValue(370)));
    CHECK(z.end == Approx(m.toValue(620)));
}

TEST_CASE("clamping shifts a range back inside the data before shrinking it", "[timeline]")
{
    AxisMap m;
    m.left = 0;
    m.width = 100;
    m.start = -50;
    m.end = 50;
    AxisMap c = m.clamped(0, 1000, 1);
    CHECK(c.start == Approx(0));
    CHECK(c.end == Approx(100));
    m.start = 950;
    m.end = 1100;
    c = m.clamped(0, 1000, 1);
    CHECK(c.start == Approx(850));
    CHECK(c.end == Approx(1000));
    m.start = -500;
    m.end = 5000; // wider than the data
    c = m.clamped(0, 1000, 1);
    CHECK(c.start == Approx(0));
    CHECK(c.end == Approx(1000));
    m.start = 10;
    m.end = 10.0001; // narrower than the minimum span
    c = m.clamped(0, 1000, 2);
    CHECK(c.span() == Approx(2));
}

TEST_CASE("sequence numbers map to cells and back", "[timeline]")
{
    AxisMap m;
    m.start = 189.5;
    m.end = 201.5;
    m.left = 100;
    m.width = 600; // 50 px per collective
    CHECK(m.toX(190) == Approx(125));
    CHECK(m.toX(191) - m.toX(190) == Approx(50));
    // The cell under a pixel is floor(value).
    CHECK(static_cast<long>(std::floor(m.toValue(m.toX(198) + 1))) == 198);
    CHECK(static_cast<long>(std::floor(m.toValue(m.toX(199) - 1))) == 198);
}

TEST_CASE("row layout groups ranks under host rows and skips collapsed hosts", "[timeline]")
{
    const std::vector<std::vector<std::int32_t>> groups { { 0, 1, 2, 3 }, { 4, 5, 6, 7 },
        { 8, 9 } };
    RowLayout::Params p;
    p.rankRowHeight = 16;
    p.hostRowHeight = 20;
    const RowLayout all = RowLayout::build(groups, {}, {}, 10, p);
    REQUIRE(all.count() == 13);
    CHECK(all.totalHeight() == 3 * 20 + 10 * 16);
    CHECK(all.row(0).kind == TimelineRow::Kind::Host);
    CHECK(all.rowOfRank(4) == 6);
    CHECK(all.top(6) == 2 * 20 + 4 * 16);

    const RowLayout collapsed = RowLayout::build(groups, { false, true }, {}, 10, p);
    REQUIRE(collapsed.count() == 9);
    CHECK(collapsed.rowOfRank(5) == -1);
    CHECK(collapsed.rowOfGroup(1) == 5);
    CHECK(collapsed.rowOfRank(8) == 7);
    CHECK(collapsed.top(collapsed.rowOfRank(8)) == 20 + 4 * 16 + 20 + 20);
    // y → row is exact at row boundaries.
    CHECK(collapsed.rowAt(0) == 0);
    CHECK(collapsed.rowAt(19) == 0);
    CHECK(collapsed.rowAt(20) == 1);
    CHECK(collapsed.rowAt(collapsed.totalHeight()) == -1);
    CHECK(collapsed.rowAt(-1) == -1);
}

TEST_CASE("visible row range covers exactly the rows intersecting the viewport", "[timeline]")
{
    std::vector<std::vector<std::int32_t>> groups(512);
    for (std::int32_t r = 0; r < 4096; ++r)
        groups[static_cast<std::size_t>(r / 8)].push_back(r);
    std::vector<bool> collapsed(512, false);
    for (std::size_t g = 0; g < 512; g += 2)
        collapsed[g] = true; // every other host collapsed
    const RowLayout l = RowLayout::build(groups, collapsed, {}, 4096, {});
    CHECK(l.count() == 512 + 256 * 8);
    const int y0 = 12345, y1 = y0 + 700;
    const auto [first, last] = l.visibleRows(y0, y1);
    REQUIRE(first < last);
    CHECK(l.top(first) <= y0);
    CHECK(l.top(first) + l.height(first) > y0);
    CHECK(l.top(last - 1) < y1);
    CHECK((last == l.count() || l.top(last) >= y1));
    // Past the end and empty ranges.
    CHECK(l.visibleRows(l.totalHeight() + 10, l.totalHeight() + 100).first
        == l.visibleRows(l.totalHeight() + 10, l.totalHeight() + 100).second);
    const auto tail = l.visibleRows(l.totalHeight() - 5, l.totalHeight() + 500);
    CHECK(tail.second == l.count());
    CHECK(tail.second - tail.first == 1);
}

TEST_CASE("rank filter keeps only the named ranks and their hosts", "[timeline]")
{
    const std::vector<std::vector<std::int32_t>> groups { { 0, 1, 2, 3 }, { 4, 5, 6, 7 } };
    const RowLayout l = RowLayout::build(groups, {}, { 5, 7, 99, -1 }, 8, {});
    REQUIRE(l.count() == 3);
    CHECK(l.row(0).kind == TimelineRow::Kind::Host);
    CHECK(l.row(0).group == 1);
    CHECK(l.rowOfRank(5) == 1);
    CHECK(l.rowOfRank(7) == 2);
    CHECK(l.rowOfRank(0) == -1);
    CHECK(l.rowOfGroup(0) == -1);
}

TEST_CASE("time ticks use clock steps and readable labels", "[timeline]")
{
    CHECK(niceTimeStepNs(0.7e9) == kNsPerSecond);
    CHECK(niceTimeStepNs(11e9) == 15 * kNsPerSecond);
    CHECK(niceTimeStepNs(40 * 60e9) == 3600 * kNsPerSecond);
    CHECK(niceTimeStepNs(3e6) == 5'000'000);
    CHECK(niceSeqStep(0.3) == 1);
    CHECK(niceSeqStep(3) == 5);
    CHECK(niceSeqStep(12) == 20);
    CHECK(niceSeqStep(501) == 1000);

    const auto base = rankscope::model::makeLocalWall(
        2024, 12, 18, 20, 27, 21, 250'000'000, rankscope::model::TimePrecision::Millisecond);
    REQUIRE(base);
    const std::int64_t t = base->ns;
    CHECK(formatTimeTick(t - 250'000'000, kNsPerSecond, false) == "20:27:21");
    CHECK(formatTimeTick(t, 250'000'000, false) == "20:27:21.250");
    CHECK(formatTimeTick(t, 3600 * kNsPerSecond, true) == "12-18 20:27");
    CHECK(formatTimeTick(t, 86400 * kNsPerSecond, false) == "12-18");
    CHECK(formatTimeTick(t - 250'000'000, kNsPerSecond, true) == "12-18 20:27:21");

    const auto ticks = ticksBetween(t, t + 60 * kNsPerSecond, 15 * kNsPerSecond);
    REQUIRE(ticks.size() == 4); // :30, :45, :00, :15 — multiples of the step
    for (std::int64_t v : ticks)
        CHECK(v % (15 * kNsPerSecond) == 0);
    CHECK(ticks.front() >= t);
    CHECK(ticksBetween(10, 5, 1).empty());
    CHECK(ticksBetween(-7, 7, 5) == std::vector<std::int64_t> { -5, 0, 5 });
    CHECK(ticksBetween(0, 1'000'000, 1, 50).size() == 50);
}

TEST_CASE("sequence progress is completed from the watchdog's timed-out collective", "[timeline]")
{
    // Status line: completed 197, enqueued 200, timeout at 198.
    SeqProgress p = effectiveSeqProgress(197, 200, 198);
    CHECK(p.completed == 197);
    CHECK(p.enqueued == 200);
    CHECK(stepState(p, 197) == StepState::Completed);
    CHECK(stepState(p, 198) == StepState::Waiting);
    CHECK(stepState(p, 200) == StepState::Waiting);
    CHECK(stepState(p, 201) == StepState::NeverEntered);
    // Watchdog line only (PyTorch before the status line): S enqueued, S-1 completed.
    p = effectiveSeqProgress(-1, -1, 15);
    CHECK(p.completed == 14);
    CHECK(p.enqueued == 15);
    CHECK(stepState(p, 15) == StepState::Waiting);
    // Nothing logged.
    p = effectiveSeqProgress(-1, -1, -1);
    CHECK_FALSE(p.known());
    CHECK(stepState(p, 3) == StepState::Unknown);
}
