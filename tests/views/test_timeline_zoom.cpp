// Zooming and panning the per-rank timeline by keys, wheel and the overview strip, the
// bounds of the zoom, and the caches that keep it smooth (painted plot, overview image).
// Bundles: tests/data/views/straggler8 (8 ranks, rank 1 never enters ALLREDUCE #13) and the
// simulated Flight Recorder straggler of tests/data/scenarios.

#include "app/gui/mainwindow.h"
#include "documentfixture.h"
#include "views/ranktimelineview.h"
#include "views/timelinepainter.h"
#include "viewtestsupport.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace rankscope;
using namespace rankscope::testing;
using rankscope::views::RankTimelineView;
using rankscope::views::SelectionState;

namespace {

views::DocumentPtr straggler8()
{
    static const views::DocumentPtr doc
        = loadDocument({ std::string(RANKSCOPE_TEST_DATA) + "/views/straggler8" });
    return doc;
}

views::DocumentPtr frStraggler()
{
    static const views::DocumentPtr doc = loadDocument(
        { std::string(RANKSCOPE_TEST_DATA) + "/scenarios/fr-logs-straggler-torch26" });
    return doc;
}

struct Rig {
    SelectionState selection;
    RankTimelineView view { &selection };

    explicit Rig(const views::DocumentPtr& doc, QSize size = { 1100, 420 })
    {
        selection.setDocument(doc);
        view.resize(size);
        view.show();
        QApplication::processEvents();
        view.setFocus();
    }
    void key(int key, Qt::KeyboardModifiers modifiers = {})
    {
        QTest::keyClick(&view, static_cast<Qt::Key>(key), modifiers);
    }
    void wheel(QPoint at, QPoint delta, Qt::KeyboardModifiers modifiers)
    {
        QWheelEvent e(at, view.viewport()->mapToGlobal(at), QPoint(), delta, Qt::NoButton,
            modifiers, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.viewport(), &e);
    }
    void drag(QPoint from, QPoint to)
    {
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, from);
        for (int i = 1; i <= 4; ++i) {
            const QPointF at = from + QPointF(to - from) * i / 4.0;
            QMouseEvent move(QEvent::MouseMove, at, view.viewport()->mapToGlobal(at), Qt::NoButton,
                Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(view.viewport(), &move);
        }
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, to);
    }
    views::AxisMap map() const { return view.axisMap(); }
    QImage shot(const QString& name)
    {
        const QImage image
            = view.viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        image.save(shotPath(name));
        return image;
    }
};

QRgb pixelAt(const QImage& image, QPoint logical)
{
    return image.pixel((QPointF(logical) * image.devicePixelRatio()).toPoint());
}

} // namespace

TEST_CASE("+ and - zoom about the selected collective, Ctrl+0 and 0 fit everything again",
    "[timeline][zoom][keys]")
{
    Rig r(straggler8());
    // Wall clock: Ctrl+0 restores what the document opened with.
    const views::AxisMap fit = r.map();
    r.key(Qt::Key_Plus);
    CHECK(r.map().span() == Approx(fit.span() / 1.25));
    r.key(Qt::Key_Equal, Qt::ControlModifier); // Ctrl+= (Ctrl++ without Shift) zooms too
    CHECK(r.map().span() == Approx(fit.span() / 1.25 / 1.25));
    r.key(Qt::Key_0, Qt::ControlModifier);
    CHECK(r.map().start == Approx(fit.start));
    CHECK(r.map().end == Approx(fit.end));

    // Sequence axis: the selected collective (the stuck #13) stays under its pixel.
    r.view.setAxisMode(RankTimelineView::AxisMode::Sequence);
    REQUIRE(r.selection.selectedSeq() == 13);
    const views::AxisMap seqFit = r.map();
    const double x13 = r.view.seqToX(13.5);
    REQUIRE(x13 > seqFit.left + seqFit.width * 0.6); // not the middle: the anchor matters
    for (int i = 0; i < 3; ++i)
        r.key(Qt::Key_Plus);
    CHECK(r.map().span() == Approx(seqFit.span() / (1.25 * 1.25 * 1.25)));
    CHECK(r.view.seqToX(13.5) == Approx(x13).margin(0.01));
    r.key(Qt::Key_Minus);
    CHECK(r.view.seqToX(13.5) == Approx(x13).margin(0.01));
    r.key(Qt::Key_0);
    CHECK(r.map().start == Approx(seqFit.start));
    CHECK(r.map().end == Approx(seqFit.end));

    // With the mouse resting on the plot, the keys zoom about the mouse instead.
    const QPoint mouse(r.view.gutterWidth() + 150, r.view.rowRect(2).center().y());
    QMouseEvent move(QEvent::MouseMove, QPointF(mouse),
        r.view.viewport()->mapToGlobal(QPointF(mouse)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(r.view.viewport(), &move);
    const double under = r.map().toValue(mouse.x());
    r.key(Qt::Key_Plus);
    r.key(Qt::Key_Plus);
    CHECK(r.map().toValue(mouse.x()) == Approx(under).margin(1e-9));
    CHECK(r.view.seqToX(13.5) != Approx(x13).margin(1.0));
}

TEST_CASE("zoom stops at 1 µs or 3 collectives and at the whole axis", "[timeline][zoom][keys]")
{
    Rig r(straggler8());
    for (int i = 0; i < 200; ++i)
        r.key(Qt::Key_Plus);
    CHECK(r.map().span() == Approx(1000.0)); // ns
    CHECK(r.selection.visibleEndNs() - r.selection.visibleStartNs() == Approx(1000).margin(1));
    for (int i = 0; i < 200; ++i)
        r.key(Qt::Key_Minus);
    CHECK(r.map().span() == Approx(r.view.overviewMap().span()));
    CHECK(r.map().start == Approx(r.view.overviewMap().start));

    r.view.setAxisMode(RankTimelineView::AxisMode::Sequence);
    const QPoint mid(r.view.gutterWidth() + 300, r.view.rowRect(3).center().y());
    for (int i = 0; i < 40; ++i)
        r.wheel(mid, QPoint(0, 120), Qt::ControlModifier);
    CHECK(r.map().span() == Approx(3.0));
    for (int i = 0; i < 40; ++i)
        r.wheel(mid, QPoint(0, -120), Qt::ControlModifier);
    CHECK(r.map().span() == Approx(r.view.overviewMap().span()));
}

TEST_CASE(
    "arrow keys, Shift+wheel and a drag pan the axis without zooming", "[timeline][pan][keys]")
{
    Rig r(straggler8());
    for (int i = 0; i < 4; ++i)
        r.key(Qt::Key_Plus);
    const views::AxisMap m0 = r.map();
    const double px = m0.unitsPerPixel();
    r.key(Qt::Key_Right);
    CHECK(r.map().start == Approx(m0.start + m0.width / 8 * px));
    CHECK(r.map().span() == Approx(m0.span()));
    r.key(Qt::Key_Left);
    r.key(Qt::Key_Left);
    CHECK(r.map().start == Approx(m0.start - m0.width / 8 * px));
    const views::AxisMap m1 = r.map();
    // Shift+wheel: a notch moves the content 60 px to the right (earlier times come in).
    r.wheel(QPoint(r.view.gutterWidth() + 100, 200), QPoint(0, 120), Qt::ShiftModifier);
    CHECK(r.map().start == Approx(m1.start - 60 * px));
    CHECK(r.map().span() == Approx(m0.span()));
    // Dragging the plot left by 100 px shows 100 px of later times.
    const views::AxisMap m2 = r.map();
    const int y = r.view.rowRect(4).center().y();
    r.drag(QPoint(r.view.gutterWidth() + 400, y), QPoint(r.view.gutterWidth() + 300, y));
    CHECK(r.map().start == Approx(m2.start + 100 * px));
    CHECK(r.map().span() == Approx(m0.span()));
}

TEST_CASE("clicking the overview centres the view there and dragging its window moves it",
    "[timeline][overview]")
{
    Rig r(straggler8());
    const QRect strip = r.view.overviewRect();
    REQUIRE(strip.width() > 500);
    REQUIRE(strip.top() >= views::TimelinePainter::kTitleHeight);
    REQUIRE(strip.bottom() < r.view.headerHeight());
    // Fitted: the window covers (nearly) the whole strip.
    CHECK(r.view.overviewWindowRect().width() >= strip.width() * 9 / 10);
    for (int i = 0; i < 6; ++i)
        r.key(Qt::Key_Plus);
    const double span = r.map().span();
    QRect window = r.view.overviewWindowRect();
    CHECK(window.width() == Approx(strip.width() * span / r.view.overviewMap().span()).margin(2));
    CHECK(span == Approx(r.view.overviewMap().span() * 1.04 / 1.10 / std::pow(1.25, 6)));

    // A click left of the window centres the view on the clicked value.
    const QPoint click(strip.left() + strip.width() / 5, strip.center().y());
    REQUIRE(click.x() < window.left());
    const double value = r.view.overviewMap().toValue(click.x());
    const int selectedEvent = r.selection.selectedEvent();
    const int selectedRank = r.selection.selectedRank();
    QTest::mouseClick(r.view.viewport(), Qt::LeftButton, {}, click);
    CHECK((r.map().start + r.map().end) / 2 == Approx(value).epsilon(1e-9));
    CHECK(r.map().span() == Approx(span));
    window = r.view.overviewWindowRect();
    CHECK(std::abs(window.center().x() - click.x()) <= 2);
    // Nothing under the strip was clicked: no rank or event selected by it.
    CHECK(r.selection.selectedEvent() == selectedEvent);
    CHECK(r.selection.selectedRank() == selectedRank);

    // Dragging the window 120 px right moves the view by 120 px of the overview's scale.
    const double start = r.map().start;
    const double perPixel = r.view.overviewMap().unitsPerPixel();
    r.drag(QPoint(window.center().x() + 1, strip.center().y()),
        QPoint(window.center().x() + 121, strip.center().y()));
    CHECK(r.map().start == Approx(start + 120 * perPixel).epsilon(1e-9));
    CHECK(r.map().span() == Approx(span));
    // The shared time range follows, as for any other pan.
    CHECK(
        r.selection.visibleStartNs() - r.view.scene().originNs == Approx(r.map().start).margin(1));
    // The tooltip says what the strip is for.
    CHECK(r.view.toolTipAt(strip.center()).contains(QStringLiteral("Overview")));
}

TEST_CASE("hover and selection repaint from the cached plot, a zoom rebuilds it and keeps the "
          "overview image",
    "[timeline][cache]")
{
    Rig r(straggler8());
    const views::TimelinePainter& painter = r.view.painter();
    r.shot(QStringLiteral("timeline-cache-0.png"));
    const auto plots = painter.plotBuilds();
    const auto overviews = painter.overviewBuilds();
    REQUIRE(plots >= 1);
    REQUIRE(overviews >= 1);

    // Hovering rank 4's lane tints it without a rebuild.
    const QPoint hover(r.view.gutterWidth() + 30, r.view.rowRect(4).center().y());
    const QImage before = r.shot(QStringLiteral("timeline-cache-1.png"));
    QMouseEvent move(QEvent::MouseMove, QPointF(hover),
        r.view.viewport()->mapToGlobal(QPointF(hover)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(r.view.viewport(), &move);
    const QImage hovered = r.shot(QStringLiteral("timeline-cache-hover.png"));
    CHECK(pixelAt(hovered, hover) != pixelAt(before, hover));
    r.selection.selectRank(6);
    r.shot(QStringLiteral("timeline-cache-selected.png"));
    CHECK(painter.plotBuilds() == plots);

    // A zoom is a new plot; the overview image stays, only its window moves.
    r.key(Qt::Key_Plus);
    r.shot(QStringLiteral("timeline-cache-zoomed.png"));
    CHECK(painter.plotBuilds() == plots + 1);
    CHECK(painter.overviewBuilds() == overviews);
    // Switching the axis draws the other axis's overview.
    r.key(Qt::Key_T);
    r.shot(QStringLiteral("timeline-cache-sequence.png"));
    CHECK(painter.overviewBuilds() == overviews + 1);
}

TEST_CASE("zoomed timeline screenshot shows the overview with the window outlined and the rest "
          "dimmed, and the zoomed rows",
    "[timeline][overview][screenshot]")
{
    Rig r(frStraggler(), { 1200, 460 });
    REQUIRE(r.view.axisMode() == RankTimelineView::AxisMode::Time);
    const views::TimelineStyle& st = r.view.painter().style();
    const QRect strip = r.view.overviewRect();
    const QImage whole = r.shot(QStringLiteral("timeline-overview-fit.png"));
    const QRect fitted = r.view.overviewWindowRect();
    REQUIRE(fitted.width() > strip.width() * 9 / 10);

    // Zoom into the hang: from the earliest start of the stuck collective on.
    const model::TimelineData& t = *r.view.scene().document->timeline;
    std::int64_t stuckStart = std::numeric_limits<std::int64_t>::max();
    std::int32_t collateral = -1;
    for (std::int32_t rank = 0; rank < t.rankCount(); ++rank)
        for (const auto& c : t.collectives(rank))
            if (c.stuck && c.startNs < stuckStart) {
                stuckStart = c.startNs;
                collateral = rank;
            }
    REQUIRE(collateral >= 0);
    r.selection.setVisibleTimeRange(
        stuckStart - 2 * model::kNsPerSecond, stuckStart + 6 * model::kNsPerSecond);
    QApplication::processEvents();
    const QImage zoomed = r.shot(QStringLiteral("timeline-overview-zoomed.png"));
    CHECK(distinctColours(zoomed, 2) > 12);
    const QRect window = r.view.overviewWindowRect();
    INFO("strip " << strip.left() << ".." << strip.right() << ", window " << window.left() << ".."
                  << window.right());
    REQUIRE(window.width() < strip.width() / 4);

    // The overview has content inside the fitted window (drawn undimmed there): the waits in
    // the stuck collective in the span colour, the collectives before them, the timeouts.
    auto within = [](const QRect& r, int x, int margin) {
        return x > r.left() + margin && x < r.right() - margin;
    };
    const QRgb timeout = views::markerColor(model::MarkerKind::Timeout).rgb();
    int content = 0, columns = 0, waits = 0, timeouts = 0;
    for (int x = strip.left(); x <= strip.right(); ++x) {
        if (!within(fitted, x, 3))
            continue;
        ++columns;
        bool any = false;
        for (int y = strip.top() + 1; y < strip.bottom(); ++y) {
            const QRgb c = pixelAt(whole, QPoint(x, y));
            any = any || c != st.overviewBackground.rgb();
            waits += c == st.span.rgb();
            timeouts += c == timeout;
        }
        content += any;
    }
    INFO("columns with content " << content << " of " << columns << ", wait pixels " << waits
                                 << ", timeout pixels " << timeouts);
    CHECK(content > columns / 2);
    CHECK(waits > columns);
    CHECK(timeouts >= 3 * 7); // three pixels wide, on each collateral rank's row at least
    // Zoomed in, what lies outside the new window is dimmed; inside it, nothing changed.
    int dimmed = 0, outside = 0, same = 0, inside = 0;
    for (int y = strip.top() + 2; y < strip.bottom() - 1; y += 2)
        for (int x = strip.left(); x <= strip.right(); ++x) {
            if (!within(fitted, x, 3))
                continue;
            const bool changed = pixelAt(zoomed, QPoint(x, y)) != pixelAt(whole, QPoint(x, y));
            if (within(window, x, 2)) {
                ++inside;
                same += !changed;
            } else if (x < window.left() - 2 || x > window.right() + 2) {
                ++outside;
                dimmed += changed;
            }
        }
    REQUIRE(outside > 0);
    CHECK(dimmed == outside);
    CHECK(same == inside);
    // The window's edge carries the selection colour.
    const QRgb outline = st.selectedOutline.rgb();
    bool edge = false;
    for (int dx = -1; dx <= 1; ++dx)
        edge = edge || pixelAt(zoomed, QPoint(window.left() + dx, strip.center().y())) == outline;
    CHECK(edge);

    // The rows are the zoomed ones: a collateral rank's stuck all-reduce fills its lane two
    // seconds after its start, where the fitted view was two hundred times narrower.
    const int x = static_cast<int>(r.view.timeToX(stuckStart + 2 * model::kNsPerSecond));
    REQUIRE(x > r.view.gutterWidth());
    const QColor allReduce = views::opColor(views::opColorIndex(model::OpType::AllReduce));
    const QColor lane(pixelAt(zoomed, QPoint(x, r.view.rowRect(collateral).center().y())));
    INFO("lane " << lane.name().toStdString());
    CHECK(std::abs(lane.hsvHue() - allReduce.hsvHue()) <= 4);
    // The gutter beside the strip says how much of the whole is shown.
    CHECK(distinctColours(
              zoomed.copy(QRect(0, strip.top(), r.view.gutterWidth() - 4, strip.height())), 1)
        > 2);
}

TEST_CASE("the shortcuts dialog lists the timeline's zoom, fit and pan keys", "[timeline][keys]")
{
    app::MainWindow window;
    const auto rows = window.shortcutList();
    const auto has = [&](const QString& text, const QString& keys) {
        return std::any_of(rows.begin(), rows.end(),
            [&](const auto& row) { return row.first.contains(text) && row.second.contains(keys); });
    };
    CHECK(has(QStringLiteral("Timeline: zoom"), QStringLiteral("Ctrl+wheel")));
    CHECK(has(QStringLiteral("Timeline: zoom"), QStringLiteral("Ctrl+0")));
    CHECK(has(QStringLiteral("Timeline: pan"), QStringLiteral("Shift+wheel")));
    CHECK(has(QStringLiteral("Timeline: pan"), QStringLiteral("overview")));
}
