// Times the logs do not give: a line without a timestamp is placed at its stream's last
// time (TimePoint::inferred). The timeline must not draw such a wait or marker as a measured
// one, and an inferred time hours before the fault must not choose the wall-clock axis.
//
// The documents are built here (as sequenceOnlyDocument in test_timeline_view.cpp): four
// ranks on one host, rank 2 never enters ALLREDUCE #42 of PG 0, the others time out in it.

#include "views/ranktimelineview.h"
#include "views/timelinepainter.h"
#include "viewtestsupport.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QImage>

using namespace rankscope;
using namespace rankscope::testing;
using rankscope::views::RankTimelineView;
using rankscope::views::SelectionState;

namespace {

const std::int64_t kFault
    = model::makeLocalWall(2025, 3, 1, 14, 0, 0, 0, model::TimePrecision::Millisecond)->ns;
constexpr std::int64_t kS = model::kNsPerSecond;

struct HangShape {
    std::int64_t waitMs = 600'000; // watchdog "ran for"; -1: the lines give none
    int inferredTimeoutRank = -1; // its watchdog line has no timestamp of its own
    bool networkErrors = false; // rank 0 (measured) and rank 1 (inferred) at fault - 300 s
    bool lateErrors = false; // ranks 0 and 1, measured, one second after the fault
    int outlierHours = 0; // > 0: rank 2's traceback stamped this many hours before the fault
};

views::DocumentPtr hangDocument(const HangShape& shape)
{
    auto bundle = std::make_shared<model::Bundle>();
    model::Bundle& b = *bundle;
    b.ranks.resize(4);
    const model::StrId host = b.strings.intern("node-a");
    b.world.hosts.push_back(host);
    model::ProcessGroup pg;
    pg.key = b.strings.intern("0");
    pg.isDefault = true;
    b.processGroups.push_back(pg);
    auto event = [&](std::int32_t rank, std::int64_t ns, model::EventKind kind, bool inferred) {
        model::Event& e = b.events.emplace_back();
        e.kind = kind;
        e.severity = model::Severity::Error;
        e.rank = rank;
        e.identity = static_cast<std::uint32_t>(rank);
        e.time.ns = ns;
        e.time.domain = model::TimeDomain::LocalWall;
        e.time.precision = model::TimePrecision::Millisecond;
        e.time.inferred = inferred;
        e.evidence.line = 57;
        e.text = b.strings.intern("a line of rank " + std::to_string(rank));
        return static_cast<std::uint32_t>(b.events.size() - 1);
    };
    for (std::int32_t r = 0; r < 4; ++r) {
        b.ranks[static_cast<std::size_t>(r)].rank = r;
        b.ranks[static_cast<std::size_t>(r)].host = host;
        model::RawIdentity id;
        id.globalRank = r;
        b.identities.push_back(id);
        b.identityRank.push_back(r);
        model::RankProgress p;
        p.rank = r;
        p.pg = pg.key;
        p.hasStatus = true;
        p.lastCompleted = 41;
        p.lastEnqueued = r == 2 ? 41 : 42;
        if (r != 2) {
            const std::uint32_t i = event(r, kFault + r * kS / 10,
                model::EventKind::TorchWatchdogTimeout, r == shape.inferredTimeoutRank);
            b.events[i].seq = 42;
            b.events[i].op = model::OpType::AllReduce;
            b.events[i].durationMs = shape.waitMs;
            p.timeoutSeq = 42;
            p.timeoutOp = model::OpType::AllReduce;
            p.timeoutEvent = i;
        }
        b.progress.push_back(p);
    }
    if (shape.networkErrors) {
        event(0, kFault - 300 * kS, model::EventKind::NcclSocketError, false);
        event(1, kFault - 300 * kS, model::EventKind::NcclSocketError, true);
    }
    if (shape.lateErrors) {
        event(0, kFault + kS, model::EventKind::NcclSocketError, false);
        event(1, kFault + kS, model::EventKind::NcclSocketError, false);
    }
    if (shape.outlierHours > 0)
        event(2, kFault - shape.outlierHours * 3600 * kS, model::EventKind::PythonException, true);
    model::Diagnosis d;
    d.initiatingRanks = { 2 };
    d.stuckCollective = model::StuckCollective { "0", model::OpType::AllReduce, 42 };
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<model::TimelineData>(model::TimelineData::build(b, d));
    doc->pairs = std::make_shared<model::PairEvidence>(model::PairEvidence::build(b, d));
    doc->diagnosis = std::make_shared<model::Diagnosis>(std::move(d));
    doc->bundle = std::move(bundle);
    return doc;
}

QImage viewportShot(RankTimelineView& view, const QString& name)
{
    const QImage image = view.viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32);
    image.save(shotPath(name));
    return image;
}

QRgb pixelAt(const QImage& image, QPoint logical)
{
    return image.pixel((QPointF(logical) * image.devicePixelRatio()).toPoint());
}

} // namespace

TEST_CASE("a watchdog line without its own time yields an inferred wait in the timeline data",
    "[timeline][inferred]")
{
    HangShape shape;
    shape.inferredTimeoutRank = 3;
    const views::DocumentPtr doc = hangDocument(shape);
    const model::TimelineData& t = *doc->timeline;
    REQUIRE(t.spans(3).size() == 1);
    CHECK(t.spans(3).front().inferredTime);
    CHECK(t.spans(3).front().startNs == kFault + 3 * kS / 10 - 600 * kS);
    REQUIRE(t.spans(1).size() == 1);
    CHECK_FALSE(t.spans(1).front().inferredTime);
    REQUIRE(t.markers(3).size() == 1);
    CHECK(t.markers(3).front().inferredTime);
}

TEST_CASE("waits and markers placed by an inferred time are hatched, hollow, in the legend and "
          "explained in their tooltip",
    "[timeline][inferred][screenshot]")
{
    HangShape shape;
    shape.inferredTimeoutRank = 3;
    shape.networkErrors = true;
    SelectionState selection;
    RankTimelineView view(&selection);
    view.resize(1100, 360);
    view.show();
    selection.setDocument(hangDocument(shape));
    QApplication::processEvents();
    REQUIRE(view.axisMode() == RankTimelineView::AxisMode::Time);
    REQUIRE(view.scene().hasInferred);
    const views::TimelineStyle& st = view.painter().style();
    const QImage image = viewportShot(view, QStringLiteral("timeline-inferred.png"));

    // Along the middle of each wait: rank 1's measured wait is one solid colour, rank 3's
    // inferred one alternates hatch lines and the lane behind them.
    auto barPixels = [&](int rank) {
        const double x0 = view.timeToX(kFault + rank * kS / 10 - 600 * kS);
        const double x1 = view.timeToX(kFault + rank * kS / 10);
        const int y = view.rowRect(rank).center().y();
        QVector<QRgb> pixels;
        // Clear of the marker glyphs at fault - 300 s and at the end.
        for (int x = static_cast<int>(x0) + 4; x < static_cast<int>((x0 + x1) / 2) - 12; ++x)
            pixels << pixelAt(image, QPoint(x, y));
        return pixels;
    };
    const QVector<QRgb> measured = barPixels(1);
    REQUIRE(measured.size() > 100);
    CHECK(measured.count(st.span.rgb()) == measured.size());
    const QVector<QRgb> inferred = barPixels(3);
    REQUIRE(inferred.size() > 100);
    const auto hatch = inferred.count(st.inferredHatch.rgb());
    INFO("hatch pixels " << hatch << " of " << inferred.size());
    CHECK(hatch > inferred.size() / 16);
    CHECK(hatch < inferred.size() * 9 / 10);
    CHECK(inferred.count(st.span.rgb()) == 0);

    // The measured socket error is a filled disc, the inferred one a dotted ring: its centre
    // shows the wait behind it.
    const QRgb network = views::markerColor(model::MarkerKind::Network).rgb();
    const int xNet = static_cast<int>(std::lround(view.timeToX(kFault - 300 * kS)));
    CHECK(pixelAt(image, QPoint(xNet, view.rowRect(0).center().y())) == network);
    CHECK(pixelAt(image, QPoint(xNet, view.rowRect(1).center().y())) == st.span.rgb());

    // The legend names it, and paints its hatched swatch.
    views::TimelineFrame frame;
    frame.axis = views::TimelineAxis::Time;
    bool listed = false;
    for (const auto& item : view.painter().legendItems(view.scene(), frame))
        listed = listed || item.label.startsWith(QStringLiteral("time inferred"));
    CHECK(listed);
    int legendHatch = 0;
    for (int y = view.viewport()->height() - views::TimelinePainter::kLegendHeight;
         y < view.viewport()->height(); ++y)
        for (int x = 0; x < view.viewport()->width(); ++x)
            legendHatch += pixelAt(image, QPoint(x, y)) == st.inferredHatch.rgb();
    CHECK(legendHatch > 5);

    // Tooltips say that the time is inferred and where it came from.
    const QString barTip = view.toolTipAt(
        QPoint(static_cast<int>(view.timeToX(kFault - 450 * kS)), view.rowRect(3).center().y()));
    INFO(barTip.toStdString());
    CHECK(barTip.contains(QStringLiteral("Time inferred (hatched bar)")));
    CHECK(barTip.contains(QStringLiteral("before line 57")));
    const QString markerTip = view.toolTipAt(QPoint(xNet, view.rowRect(1).center().y()));
    CHECK(markerTip.contains(QStringLiteral("Time inferred:")));
    const QString measuredTip = view.toolTipAt(QPoint(xNet, view.rowRect(0).center().y()));
    CHECK_FALSE(measuredTip.isEmpty());
    CHECK_FALSE(measuredTip.contains(QStringLiteral("inferred")));
}

TEST_CASE("an inferred time hours before events within seconds opens the sequence axis",
    "[timeline][axis][inferred]")
{
    SelectionState selection;
    RankTimelineView view(&selection);
    view.resize(900, 300);
    HangShape shape;
    shape.waitMs = -1; // no "ran for": timeouts and errors within a second
    shape.lateErrors = true;
    selection.setDocument(hangDocument(shape));
    REQUIRE(view.scene().ranksWithTime == 3);
    CHECK_FALSE(views::wallClockSqueezed(view.scene().timeSpread));
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Time);

    // Rank 2's traceback, stamped with its stream's first time five hours earlier: the span
    // grows to 5 h, the other three rows sit in its last 2 %.
    shape.outlierHours = 5;
    selection.setDocument(hangDocument(shape));
    REQUIRE(view.scene().ranksWithTime == 4);
    CHECK(view.scene().timeSpread.squeezedShare() == Approx(0.75));
    CHECK(views::wallClockSqueezed(view.scene().timeSpread));
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Sequence);
    CHECK(view.toolBarActions()[1]->isChecked());

    // The user's choice still holds for the next bundle.
    view.showTimeAxis();
    selection.setDocument(hangDocument(shape));
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Time);
}
