// RankTimelineView on a real bundle (tests/data/views/straggler8: 8 ranks on 2 hosts, rank 1
// stalls in its DataLoader and never enqueues ALLREDUCE #13 of PG 0; the other 7 time out),
// and on a simulated one with Flight Recorder dumps.

#include "viewtestsupport.h"
#include "documentfixture.h"
#include "views/ranktimelineview.h"
#include "views/timelinepainter.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace rankscope;
using namespace rankscope::testing;
using rankscope::views::RankTimelineView;
using rankscope::views::SelectionState;
using rankscope::views::StepInfo;

namespace {

const std::string kStraggler = std::string(RANKSCOPE_TEST_DATA) + "/views/straggler8";

views::DocumentPtr stragglerDocument()
{
    static const views::DocumentPtr doc = testing::loadDocument({ kStraggler });
    return doc;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    return p;
}

struct Fixture {
    SelectionState selection;
    RankTimelineView view { &selection };

    explicit Fixture(QSize size = { 1100, 420 })
    {
        selection.setDocument(stragglerDocument());
        view.resize(size);
        view.show();
        QApplication::processEvents();
    }
};

QImage shot(QWidget& w, const QString& name)
{
    const QImage image = w.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QString dir = QStringLiteral(RANKSCOPE_SHOTS_DIR);
    QDir().mkpath(dir);
    image.save(dir + QLatin1Char('/') + name);
    return image;
}

QPoint toWidget(const RankTimelineView& view, QPoint viewportPos)
{
    return view.viewport()->mapTo(&view, viewportPos);
}

// The pixel at a logical position of a grabbed image (device pixels on high-DPI screens).
QRgb pixelAt(const QImage& image, QPoint logical)
{
    return image.pixel((QPointF(logical) * image.devicePixelRatio()).toPoint());
}

} // namespace

TEST_CASE("timeline opens on the wall-clock axis and switches to the sequence axis", "[timeline]")
{
    Fixture f;
    CHECK(f.view.axisMode() == RankTimelineView::AxisMode::Time);
    CHECK(f.view.scene().rankCount() == 8);
    CHECK(f.view.scene().ranksByGroup.size() == 2);
    CHECK(f.view.rowLayout().count() == 2 + 8);
    QSignalSpy modes(&f.view, &RankTimelineView::axisModeChanged);
    const QList<QAction*> actions = f.view.toolBarActions();
    REQUIRE(actions.size() >= 2);
    CHECK(actions[0]->isChecked());
    actions[1]->trigger(); // "Sequence"
    CHECK(f.view.axisMode() == RankTimelineView::AxisMode::Sequence);
    CHECK(modes.count() == 1);
    CHECK(actions[1]->isChecked());
    QTest::keyClick(&f.view, Qt::Key_T);
    CHECK(f.view.axisMode() == RankTimelineView::AxisMode::Time);
    CHECK(modes.count() == 2);
}

TEST_CASE(
    "stepping moves the selected collective and lists completed, waiting and never-entered ranks",
    "[timeline]")
{
    Fixture f;
    // The document opens on the stuck collective.
    REQUIRE(f.selection.selectedSeq() == 13);
    StepInfo s = f.view.stepInfo();
    CHECK(s.seq == 13);
    CHECK(s.op == QStringLiteral("ALLREDUCE"));
    CHECK(s.processGroup == QStringLiteral("0"));
    CHECK(s.neverEntered == QVector<int> { 1 });
    CHECK(s.waiting == QVector<int> { 0, 2, 3, 4, 5, 6, 7 });
    CHECK(s.completed.isEmpty());
    CHECK(s.summary().contains(QStringLiteral("never entered (rank 1)")));

    QSignalSpy steps(&f.view, &RankTimelineView::stepChanged);
    f.view.previousCollective();
    CHECK(f.selection.selectedSeq() == 12);
    REQUIRE(steps.count() == 1);
    s = steps.takeFirst().at(0).value<StepInfo>();
    CHECK(s.seq == 12);
    CHECK(s.completed.size() == 8);
    CHECK(s.waiting.isEmpty());
    CHECK(s.neverEntered.isEmpty());

    // Keyboard: N and Alt+Right step forward, P and Alt+Left back.
    f.view.setFocus();
    QTest::keyClick(&f.view, Qt::Key_N);
    CHECK(f.selection.selectedSeq() == 13);
    QTest::keyClick(&f.view, Qt::Key_Right, Qt::AltModifier);
    CHECK(f.selection.selectedSeq() == 13); // #13 is the last collective anyone enqueued
    QTest::keyClick(&f.view, Qt::Key_Left, Qt::AltModifier);
    CHECK(f.selection.selectedSeq() == 12);
    QTest::keyClick(&f.view, Qt::Key_P);
    CHECK(f.selection.selectedSeq() == 11);
    // Stepping stops at the end of the axis.
    for (int i = 0; i < 20; ++i)
        f.view.nextCollective();
    CHECK(f.selection.selectedSeq() == f.view.scene().seqHi - 1);
}

TEST_CASE("clicking a rank selects it and clicking a host row collapses the host", "[timeline]")
{
    Fixture f;
    const QRect row5 = f.view.rowRect(5);
    REQUIRE_FALSE(row5.isNull());
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, QPoint(20, row5.center().y()));
    CHECK(f.selection.selectedRank() == 5);

    const int group = f.view.scene().groupOfRank[5];
    const QRect host = f.view.hostRowRect(group);
    REQUIRE_FALSE(host.isNull());
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, host.center());
    CHECK(f.view.isHostCollapsed(group));
    CHECK(f.view.rowRect(5).isNull());
    CHECK(f.view.rowLayout().count() == 2 + 4);
    // Selecting a rank of a collapsed host (e.g. from the ranks table) expands it again.
    f.selection.selectRank(6);
    CHECK_FALSE(f.view.isHostCollapsed(group));
    CHECK_FALSE(f.view.rowRect(6).isNull());
}

TEST_CASE("clicking a watchdog marker selects the event and its evidence line", "[timeline]")
{
    Fixture f;
    const auto& t = *f.view.scene().document->timeline;
    REQUIRE_FALSE(t.markers(0).empty());
    const auto& marker = t.markers(0).front();
    const QPoint at(static_cast<int>(std::lround(f.view.timeToX(marker.timeNs))),
        f.view.rowRect(0).center().y());
    QSignalSpy evidence(&f.selection, &SelectionState::evidenceSelected);
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, at);
    REQUIRE(f.selection.selectedEvent() >= 0);
    CHECK(f.selection.selectedRank() == 0);
    CHECK(evidence.count() == 1);
    const auto& e
        = f.view.scene()
              .document->bundle->events[static_cast<std::size_t>(f.selection.selectedEvent())];
    CHECK(e.kind == model::EventKind::TorchWatchdogTimeout);
}

TEST_CASE("hover tooltip shows the event's kind, rank, text and source line", "[timeline]")
{
    Fixture f;
    const auto& t = *f.view.scene().document->timeline;
    const auto& marker = t.markers(3).front();
    const QPoint at(static_cast<int>(std::lround(f.view.timeToX(marker.timeNs))),
        f.view.rowRect(3).center().y());
    const QString tip = f.view.toolTipAt(at);
    CHECK(tip.contains(QStringLiteral("torch watchdog timeout")));
    CHECK(tip.contains(QStringLiteral("rank 3")));
    CHECK(tip.contains(QStringLiteral("SeqNum=13")));
    CHECK(tip.contains(QStringLiteral("rank_3.txt:")));
    // Gutter: who the rank is and where it stands.
    const QString gutter = f.view.toolTipAt(QPoint(20, f.view.rowRect(1).center().y()));
    CHECK(gutter.contains(QStringLiteral("initiating rank")));
    // The state in words; its JSON id ("never_entered") is not for the reader.
    CHECK(gutter.contains(QStringLiteral("never entered")));
    CHECK_FALSE(gutter.contains(QStringLiteral("never_entered")));
    CHECK(gutter.contains(QStringLiteral("last enqueued 12")));
    // Sequence axis cell.
    f.view.setAxisMode(RankTimelineView::AxisMode::Sequence);
    const QPoint cell(static_cast<int>(f.view.seqToX(13.5)), f.view.rowRect(4).center().y());
    const QString seqTip = f.view.toolTipAt(cell);
    CHECK(seqTip.contains(QStringLiteral("#13: enqueued, not completed")));
    CHECK(seqTip.contains(QStringLiteral("timed out here")));
    // Header: nothing.
    CHECK(f.view.toolTipAt(QPoint(300, 5)).isEmpty());
}

TEST_CASE("zooming writes the shared visible time range and follows it when another view zooms",
    "[timeline]")
{
    Fixture f;
    const qint64 start0 = f.selection.visibleStartNs();
    const qint64 end0 = f.selection.visibleEndNs();
    REQUIRE(end0 > start0);
    f.view.zoomIn();
    const qint64 span1 = f.selection.visibleEndNs() - f.selection.visibleStartNs();
    CHECK(span1 < end0 - start0);
    // Ctrl+wheel zooms about the cursor: the time under it stays put.
    const QPoint at(f.view.gutterWidth() + 200, 100);
    const double before = f.view.axisMap().toValue(at.x());
    QWheelEvent wheel(at, f.view.viewport()->mapToGlobal(at), QPoint(), QPoint(0, 240),
        Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(f.view.viewport(), &wheel);
    CHECK(f.view.axisMap().toValue(at.x()) == Approx(before).epsilon(1e-6));
    CHECK(f.selection.visibleEndNs() - f.selection.visibleStartNs() < span1);
    // Another view sets the range: the timeline maps it to its plot width.
    const qint64 a = start0 + 100 * model::kNsPerSecond, b = start0 + 200 * model::kNsPerSecond;
    f.selection.setVisibleTimeRange(a, b);
    CHECK(f.view.timeToX(a) == Approx(f.view.gutterWidth()));
    CHECK(f.view.timeToX(b) == Approx(f.view.gutterWidth() + f.view.axisMap().width));
    // Rubber band (right drag) zooms to the dragged pixels.
    const int x0 = f.view.gutterWidth() + 100, x1 = f.view.gutterWidth() + 300;
    const double v0 = f.view.axisMap().toValue(x0), v1 = f.view.axisMap().toValue(x1 - 1);
    QTest::mousePress(f.view.viewport(), Qt::RightButton, {}, QPoint(x0, 120));
    QMouseEvent move(QEvent::MouseMove, QPointF(x1 - 1, 130),
        f.view.viewport()->mapToGlobal(QPointF(x1 - 1, 130)), Qt::NoButton, Qt::RightButton,
        Qt::NoModifier);
    QApplication::sendEvent(f.view.viewport(), &move);
    QTest::mouseRelease(f.view.viewport(), Qt::RightButton, {}, QPoint(x1 - 1, 130));
    CHECK(f.view.axisMap().start == Approx(v0).epsilon(1e-6));
    CHECK(f.view.axisMap().end == Approx(v1).epsilon(1e-6));
    // F fits everything again.
    f.view.setFocus();
    QTest::keyClick(&f.view, Qt::Key_F);
    CHECK(f.selection.visibleStartNs() <= start0);
    CHECK(f.selection.visibleEndNs() >= end0);
}

TEST_CASE("rank filter shows only the filtered ranks and Esc shows all again", "[timeline]")
{
    Fixture f;
    f.selection.setRankFilter({ 1, 6 });
    CHECK(f.view.rowLayout().count() == 4); // two hosts, one rank each
    CHECK(f.view.rowRect(0).isNull());
    CHECK_FALSE(f.view.rowRect(6).isNull());
    CHECK(distinctColours(shot(f.view, QStringLiteral("timeline-filtered.png"))) > 8);
    f.view.setFocus();
    QTest::keyClick(&f.view, Qt::Key_Escape);
    CHECK(f.selection.rankFilter().isEmpty());
    CHECK(f.view.rowLayout().count() == 10);
}

TEST_CASE("timeline screenshots show the initiating rank highlighted where the coordinates say",
    "[timeline][screenshot]")
{
    for (const bool dark : { false, true }) {
        Fixture f;
        if (dark)
            f.view.setPalette(darkPalette());
        f.selection.selectRank(4);
        for (const auto mode :
            { RankTimelineView::AxisMode::Time, RankTimelineView::AxisMode::Sequence }) {
            f.view.setAxisMode(mode);
            const QString name
                = QStringLiteral("timeline-%1-%2.png")
                      .arg(mode == RankTimelineView::AxisMode::Time ? QStringLiteral("time")
                                                                    : QStringLiteral("sequence"),
                          dark ? QStringLiteral("dark") : QStringLiteral("light"));
            const QImage image = shot(f.view, name);
            INFO(name.toStdString());
            CHECK(distinctColours(image, 2) > 12);
            // The initiating rank's gutter cell carries the highlight colour (right end, past
            // the label), in the row the view's own layout puts rank 1.
            const QRect row = f.view.rowRect(1);
            REQUIRE_FALSE(row.isNull());
            const QPoint probe
                = toWidget(f.view, QPoint(f.view.gutterWidth() - 4, row.center().y()));
            const QColor expected = RankTimelineView::initiatingRowColor(f.view.palette());
            INFO("probe " << QColor(pixelAt(image, probe)).name().toStdString() << " expected "
                          << expected.name().toStdString());
            CHECK(pixelAt(image, probe) == expected.rgb());
            // A collateral row is not highlighted.
            const QPoint other = toWidget(
                f.view, QPoint(f.view.gutterWidth() - 4, f.view.rowRect(2).center().y()));
            CHECK(pixelAt(image, other) != expected.rgb());
        }
    }
}

namespace {

// Four ranks with sequence numbers but no wall-clock time (an excerpt of status lines whose
// timestamps did not survive): rank 2 is behind.
// Progress lines only; the first `timedRanks` ranks also log an exception with a wall-clock
// time (a bundle where only some processes print timestamps).
views::DocumentPtr sequenceOnlyDocument(int timedRanks = 0)
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
        p.lastCompleted = r == 2 ? 40 : 41;
        p.lastEnqueued = r == 2 ? 40 : 42;
        b.progress.push_back(p);
    }
    for (std::int32_t r = 0; r < timedRanks; ++r) {
        model::Event e;
        e.kind = model::EventKind::PythonException;
        e.rank = r;
        e.time.ns = 1'735'000'000'000'000'000 + r * 1'000'000'000LL;
        e.time.domain = model::TimeDomain::LocalWall;
        e.time.precision = model::TimePrecision::Second;
        b.events.push_back(e);
    }
    model::Diagnosis d;
    d.initiatingRanks = { 2 };
    d.collateralRanks = { 0, 1, 3 };
    d.stuckCollective = model::StuckCollective { "0", model::OpType::AllReduce, 42 };
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<model::TimelineData>(model::TimelineData::build(b, d));
    doc->pairs = std::make_shared<model::PairEvidence>(model::PairEvidence::build(b, d));
    doc->diagnosis = std::make_shared<model::Diagnosis>(std::move(d));
    doc->bundle = std::move(bundle);
    return doc;
}

} // namespace

TEST_CASE(
    "timeline without wall-clock times opens on the sequence axis and stays there", "[timeline]")
{
    SelectionState selection;
    RankTimelineView view(&selection);
    view.resize(800, 300);
    view.show();
    // No document yet: an empty state, not a crash.
    CHECK_FALSE(view.grab().isNull());
    CHECK(view.toolTipAt(QPoint(200, 100)).isEmpty());
    view.nextCollective();
    CHECK(selection.selectedSeq() == -1);

    selection.setDocument(sequenceOnlyDocument());
    REQUIRE_FALSE(view.scene().hasTime);
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Sequence);
    CHECK_FALSE(view.toolBarActions()[0]->isEnabled());
    view.setAxisMode(RankTimelineView::AxisMode::Time);
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Sequence);
    // The straggler's frontier dips: its completed bar ends one collective earlier.
    const StepInfo s41 = [&] {
        selection.selectSeq(41);
        return view.stepInfo();
    }();
    CHECK(s41.completed == QVector<int> { 0, 1, 3 });
    CHECK(s41.neverEntered == QVector<int> { 2 });
    selection.selectSeq(42);
    const StepInfo s42 = view.stepInfo();
    CHECK(s42.waiting == QVector<int> { 0, 1, 3 });
    CHECK(s42.neverEntered == QVector<int> { 2 });
    CHECK(s42.op == QStringLiteral("ALLREDUCE"));
    const QImage image = shot(view, QStringLiteral("timeline-sequence-only.png"));
    CHECK(distinctColours(image, 2) > 8);
    // Up/Down walk the ranks.
    view.setFocus();
    selection.selectRank(0);
    QTest::keyClick(&view, Qt::Key_Down);
    CHECK(selection.selectedRank() == 1);
    QTest::keyClick(&view, Qt::Key_Up);
    QTest::keyClick(&view, Qt::Key_Up);
    CHECK(selection.selectedRank() == 0);
}

namespace {

// A simulated straggler with logs and Flight Recorder dumps (tests/data/scenarios, see
// regenerate.sh): the dumps give every collective of the last steps real times.
const QString kFrStraggler
    = QStringLiteral(RANKSCOPE_TEST_DATA) + QStringLiteral("/scenarios/fr-logs-straggler-torch26");

struct ExpectedHang {
    int straggler = -1;
    qint64 stuckSeq = -1;
};

// The simulator's ground truth, so the test follows the data if it is regenerated.
ExpectedHang expectedHang(const QString& dir)
{
    QFile file(dir + QStringLiteral("/expected.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject verdict = QJsonDocument::fromJson(file.readAll()).object()[QStringLiteral("verdict")].toObject();
    ExpectedHang h;
    h.straggler = verdict[QStringLiteral("initiating_ranks")].toArray().at(0).toInt(-1);
    h.stuckSeq = verdict[QStringLiteral("stuck_collective")].toObject()[QStringLiteral("seq")].toInteger(-1);
    return h;
}

} // namespace

TEST_CASE("Flight Recorder bars show each collective's real times, the stuck one running to the end",
    "[timeline][fr][screenshot]")
{
    const ExpectedHang hang = expectedHang(kFrStraggler);
    REQUIRE(hang.straggler >= 0);
    SelectionState selection;
    RankTimelineView view(&selection);
    view.resize(1100, 420);
    view.show();
    const views::DocumentPtr doc = testing::loadDocument({ kFrStraggler.toStdString() });
    selection.setDocument(doc);
    QApplication::processEvents();
    const model::TimelineData& t = *doc->timeline;
    REQUIRE(t.rankCount() == 8);
    REQUIRE(doc->bundle->frDumps.size() == 8);

    // Every rank has bars; the straggler's end completed before #S, the others' #S still runs.
    std::int64_t stuckStart = std::numeric_limits<std::int64_t>::max();
    for (std::int32_t r = 0; r < 8; ++r) {
        INFO("rank " << r);
        const auto& bars = t.collectives(r);
        REQUIRE(bars.size() > 10);
        const auto stuck = std::find_if(bars.begin(), bars.end(),
            [&](const model::TimelineCollective& c) { return c.seq == hang.stuckSeq; });
        if (r == hang.straggler) {
            CHECK(stuck == bars.end());
            CHECK(bars.back().seq == hang.stuckSeq - 1);
            CHECK_FALSE(bars.back().stillRunning);
            continue;
        }
        REQUIRE(stuck != bars.end());
        CHECK(stuck->stillRunning);
        CHECK(stuck->stuck);
        // It runs through the rank's watchdog timeout (the span's end), no further than the data.
        REQUIRE_FALSE(t.spans(r).empty());
        CHECK(stuck->endNs >= t.spans(r).front().endNs);
        CHECK(stuck->endNs <= t.maxTimeNs());
        stuckStart = std::min(stuckStart, stuck->startNs);
    }

    // Zoomed to the hang: the host row and the collateral rows (painted dimmed) carry the
    // stuck all-reduce's op colour after its start, the straggler's row does not.
    selection.setVisibleTimeRange(stuckStart - 3 * model::kNsPerSecond, stuckStart + 5 * model::kNsPerSecond);
    QApplication::processEvents();
    const QImage zoomed = shot(view, QStringLiteral("timeline-fr-hang.png"));
    CHECK(distinctColours(zoomed, 2) > 10);
    const QColor allReduce = views::opColor(views::opColorIndex(model::OpType::AllReduce));
    const int x = static_cast<int>(view.timeToX(stuckStart + 2 * model::kNsPerSecond));
    const std::int32_t collateral = (hang.straggler + 1) % 8;
    // The host summary row is the first row under the header, one rank row high or more.
    const QRect firstRank = view.rowRect(0);
    const QPoint inHost = toWidget(view, QPoint(x, firstRank.top() - firstRank.height() / 2));
    INFO("host probe " << QColor(pixelAt(zoomed, inHost)).name().toStdString() << " expected "
                       << allReduce.name().toStdString());
    CHECK(pixelAt(zoomed, inHost) == allReduce.rgb());
    const QPoint inStuck = toWidget(view, QPoint(x, view.rowRect(collateral).center().y()));
    const QColor dimmed(pixelAt(zoomed, inStuck));
    INFO("collateral probe " << dimmed.name().toStdString());
    CHECK(std::abs(dimmed.hsvHue() - allReduce.hsvHue()) <= 4);
    CHECK(dimmed.hsvSaturation() > 40);
    const QColor straggler(pixelAt(zoomed, toWidget(view, QPoint(x, view.rowRect(hang.straggler).center().y()))));
    CHECK(std::abs(straggler.hsvHue() - allReduce.hsvHue()) > 4);
    // Hovering a bar explains it from the dump.
    const QString tip = view.toolTipAt(view.viewport()->mapTo(&view, QPoint(x, view.rowRect(collateral).center().y())));
    INFO(tip.toStdString());
    CHECK(tip.contains(QStringLiteral("Flight Recorder")));

    // The whole job, and the sequence axis where the dumps give every rank its position.
    QTest::keyClick(&view, Qt::Key_F);
    shot(view, QStringLiteral("timeline-fr-time.png"));
    view.setAxisMode(RankTimelineView::AxisMode::Sequence);
    QApplication::processEvents();
    shot(view, QStringLiteral("timeline-fr-sequence.png"));
    REQUIRE(view.scene().seqAxis);
    const auto& row = view.scene().seqAxis->rows[static_cast<std::size_t>(hang.straggler)];
    CHECK(row.lastEnqueued == hang.stuckSeq - 1);
    CHECK(row.recent.size() >= 10);
}

TEST_CASE("a bundle of Flight Recorder dumps alone opens on the wall-clock axis", "[timeline][fr][screenshot]")
{
    const QString dir = QStringLiteral(RANKSCOPE_TEST_DATA) + QStringLiteral("/scenarios/fr-only-straggler");
    const ExpectedHang hang = expectedHang(dir);
    SelectionState selection;
    RankTimelineView view(&selection);
    view.resize(1100, 420);
    view.show();
    const views::DocumentPtr doc = testing::loadDocument({ dir.toStdString() });
    selection.setDocument(doc);
    QApplication::processEvents();
    // No log line has a time; the dumps' own times make the axis.
    REQUIRE(view.scene().hasTime);
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Time);
    const model::TimelineData& t = *doc->timeline;
    REQUIRE(t.rankCount() == 8);
    for (std::int32_t r = 0; r < 8; ++r) {
        INFO("rank " << r);
        const auto& bars = t.collectives(r);
        REQUIRE_FALSE(bars.empty());
        const bool hasStuck = std::any_of(bars.begin(), bars.end(),
            [&](const model::TimelineCollective& c) { return c.seq == hang.stuckSeq && c.stillRunning; });
        CHECK(hasStuck == (r != hang.straggler));
    }
    const QImage image = shot(view, QStringLiteral("timeline-fr-only.png"));
    CHECK(distinctColours(image, 2) > 8);
}

TEST_CASE("the sequence axis opens by default when fewer than half the ranks have wall-clock "
          "times, unless the user chose an axis",
    "[timeline][axis]")
{
    SelectionState selection;
    RankTimelineView view(&selection);
    view.resize(800, 300);
    QAction* timeAction = view.toolBarActions()[0];
    QAction* seqAction = view.toolBarActions()[1];
    // The main window's View menu follows this signal.
    QSignalSpy modes(&view, &RankTimelineView::axisModeChanged);

    selection.setDocument(sequenceOnlyDocument(1)); // one rank of four has a time
    REQUIRE(view.scene().hasTime);
    CHECK(view.scene().ranksWithTime == 1);
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Sequence);
    REQUIRE(modes.count() == 1);
    CHECK(modes.back().front().value<RankTimelineView::AxisMode>()
        == RankTimelineView::AxisMode::Sequence);
    CHECK(seqAction->isChecked());
    CHECK(timeAction->isEnabled()); // the time axis is still there to pick

    selection.setDocument(sequenceOnlyDocument(2)); // half: the wall clock is worth showing
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Time);
    CHECK(timeAction->isChecked());

    // A choice holds for the next bundles, either way.
    view.showSequenceAxis();
    selection.setDocument(sequenceOnlyDocument(4));
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Sequence);
    view.showTimeAxis();
    selection.setDocument(sequenceOnlyDocument(1));
    CHECK(view.axisMode() == RankTimelineView::AxisMode::Time);
    CHECK(timeAction->isChecked());
}

TEST_CASE(
    "Home and End select the first and last rank row, Ctrl+G goes to a rank", "[timeline][keys]")
{
    Fixture f({ 900, 230 }); // short: not every row fits
    const views::RowLayout& rows = f.view.rowLayout();
    int first = -1, last = -1;
    for (int i = 0; i < rows.count(); ++i) {
        if (rows.row(i).kind != views::TimelineRow::Kind::Rank)
            continue;
        if (first < 0)
            first = rows.row(i).rank;
        last = rows.row(i).rank;
    }
    REQUIRE(first >= 0);
    REQUIRE(last != first);
    const auto onScreen = [&](int rank) {
        const QRect r = f.view.rowRect(rank);
        return !r.isNull() && r.top() >= f.view.headerHeight()
            && r.bottom() <= f.view.viewport()->height();
    };

    QTest::keyClick(&f.view, Qt::Key_End);
    CHECK(f.selection.selectedRank() == last);
    CHECK(onScreen(last));
    QTest::keyClick(&f.view, Qt::Key_Home);
    CHECK(f.selection.selectedRank() == first);
    CHECK(onScreen(first));

    // Ctrl+G into a collapsed host: the host opens and the row scrolls into view.
    const int target = 6;
    const int group = f.view.scene().groupOfRank[target];
    f.view.setHostCollapsed(group, true);
    QTest::keyClick(&f.view, Qt::Key_G, Qt::ControlModifier);
    auto* dialog = f.view.findChild<QInputDialog*>(QStringLiteral("goToRankDialog"));
    REQUIRE(dialog);
    CHECK(dialog->intMaximum() == f.view.scene().rankCount() - 1);
    dialog->setIntValue(target);
    dialog->accept();
    QApplication::processEvents();
    CHECK(f.selection.selectedRank() == target);
    CHECK_FALSE(f.view.isHostCollapsed(group));
    CHECK(onScreen(target));
    CHECK_FALSE(f.view.goToRank(f.view.scene().rankCount()));
}
