// PairHeatmapView and its image on a real bundle (tests/data/views/straggler8: rank 1 never
// entered ALLREDUCE #13; the 7 other ranks wait on it, so column 1 carries "waits on").

#include "documentfixture.h"
#include "views/heatmapimage.h"
#include "views/pairheatmapview.h"
#include "viewtestsupport.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace rankscope;
using rankscope::views::PairHeatmapView;
using rankscope::views::SelectionState;

namespace {

views::DocumentPtr stragglerDocument()
{
    static const views::DocumentPtr doc
        = testing::loadDocument({ std::string(RANKSCOPE_TEST_DATA) + "/views/straggler8" });
    return doc;
}

// The pixel at a logical position of a grabbed image (device pixels on high-DPI screens).
QRgb pixelAt(const QImage& image, QPointF logical)
{
    return image.pixel((logical * image.devicePixelRatio()).toPoint());
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    for (auto role :
        { QPalette::Window, QPalette::Button, QPalette::AlternateBase, QPalette::ToolTipBase })
        p.setColor(role, window);
    for (auto role :
        { QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText })
        p.setColor(role, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
    p.setColor(QPalette::Mid, QColor(0x50, 0x52, 0x56));
    p.setColor(QPalette::Midlight, QColor(0x60, 0x62, 0x66));
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    return p;
}

struct Fixture {
    SelectionState selection;
    PairHeatmapView view { &selection };

    explicit Fixture(QSize size = { 640, 480 })
    {
        selection.setDocument(stragglerDocument());
        view.resize(size);
        view.show();
        QApplication::processEvents();
    }
};

// A sparse matrix of n ranks with `cells` pairs of evidence, built like PairEvidence::build
// would from a bundle: the public API only, through a synthetic bundle and diagnosis.
model::PairEvidence syntheticPairs(std::int32_t n, const std::vector<std::int32_t>& initiating)
{
    model::Bundle b;
    b.ranks.resize(static_cast<std::size_t>(n));
    for (std::int32_t r = 0; r < n; ++r)
        b.ranks[static_cast<std::size_t>(r)].rank = r;
    model::Diagnosis d;
    d.initiatingRanks = initiating;
    for (std::int32_t r = 0; r < n; ++r)
        if (std::find(initiating.begin(), initiating.end(), r) == initiating.end())
            d.collateralRanks.push_back(r);
    return model::PairEvidence::build(b, d);
}

} // namespace

TEST_CASE("heatmap image has one pixel per cell and pools large matrices by maximum", "[heatmap]")
{
    const model::PairEvidence pairs = syntheticPairs(64, { 5 });
    const auto full = views::HeatmapImage::build(pairs, model::PairMetric::WaitsOn, 1000);
    REQUIRE(full.resolution == 64);
    CHECK_FALSE(full.pooled());
    CHECK(full.image.format() == QImage::Format_Indexed8);
    CHECK(full.cellsWithEvidence == 63);
    // Column 5 is lit for every row but 5; everything else is background (index 0).
    CHECK(full.image.pixelIndex(5, 0) > 0);
    CHECK(full.image.pixelIndex(5, 63) > 0);
    CHECK(full.image.pixelIndex(5, 5) == 0);
    CHECK(full.image.pixelIndex(4, 0) == 0);
    const std::int32_t cell = full.cellAtPixel(5, 9);
    REQUIRE(cell >= 0);
    CHECK(pairs.cells()[static_cast<std::size_t>(cell)].from == 9);
    CHECK(pairs.cells()[static_cast<std::size_t>(cell)].to == 5);

    // 64 ranks on 10 pixels: column 5 falls into pixel 0 and must survive the downscale.
    const auto pooled = views::HeatmapImage::build(pairs, model::PairMetric::WaitsOn, 10);
    REQUIRE(pooled.resolution == 10);
    CHECK(pooled.pooled());
    CHECK(pooled.pixelOf(5) == 0);
    CHECK(pooled.pixelOf(63) == 9);
    CHECK(pooled.firstIndex(1) == 7); // ceil(64/10)
    CHECK(pooled.pixelOf(pooled.firstIndex(7)) == 7);
    for (int y = 0; y < 10; ++y)
        CHECK(pooled.image.pixelIndex(0, y) > 0);
    CHECK(pooled.image.pixelIndex(3, 3) == 0);
    // Scaling without smoothing keeps cells crisp and where hit testing expects them.
    const QImage big = views::scaledNearest(pooled.image, 25);
    REQUIRE(big.width() == 25);
    CHECK(big.format() == QImage::Format_Indexed8);
    for (int d = 0; d < 25; ++d)
        CHECK(big.pixelIndex(d, 0) == pooled.image.pixelIndex(d * 10 / 25, 0));
    // Another metric with no evidence leaves the image empty.
    const auto none = views::HeatmapImage::build(pairs, model::PairMetric::NetworkErrors, 100);
    CHECK(none.cellsWithEvidence == 0);
    CHECK(none.maxValue == 0.0f);
}

TEST_CASE("heatmap colour table starts at the background and rises away from it", "[heatmap]")
{
    const QColor bg(Qt::white);
    const auto light = views::heatmapColorTable(bg, false);
    REQUIRE(light.size() == 256);
    CHECK(light[0] == bg.rgb());
    auto distance = [&](QRgb c) {
        return std::abs(qRed(c) - bg.red()) + std::abs(qGreen(c) - bg.green())
            + std::abs(qBlue(c) - bg.blue());
    };
    CHECK(distance(light[255]) > distance(light[1]));
    CHECK(views::heatmapColorIndex(0.0f, 5.0f) == 0);
    CHECK(views::heatmapColorIndex(5.0f, 5.0f) == 255);
    CHECK(views::heatmapColorIndex(0.01f, 5.0f) > 1);
}

TEST_CASE("heatmap of 4096 ranks builds fast and stays on rank pairs when asked", "[heatmap]")
{
    const model::PairEvidence pairs = syntheticPairs(4096, { 1234 });
    QElapsedTimer timer;
    timer.start();
    const auto img = views::HeatmapImage::build(pairs, model::PairMetric::Combined, 900);
    const auto ms = timer.elapsed();
    INFO("build " << ms << " ms");
    CHECK(ms < 200);
    CHECK(img.resolution == 900);
    CHECK(img.image.pixelIndex(img.pixelOf(1234), img.pixelOf(0)) > 0);
}

TEST_CASE(
    "clicking a heatmap cell selects the pair, filters the timeline to it and jumps to evidence",
    "[heatmap]")
{
    Fixture f;
    CHECK_FALSE(f.view.hostMode()); // 8 ranks: rank pairs
    CHECK(f.view.matrixSize() == 8);
    CHECK(f.view.metric() == model::PairMetric::Combined);
    QSignalSpy evidence(&f.selection, &SelectionState::evidenceSelected);
    const QRectF cell = f.view.cellRect(0, 1);
    REQUIRE_FALSE(cell.isNull());
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, cell.center().toPoint());
    CHECK(f.selection.selectedPair() == qMakePair(0, 1));
    CHECK(f.selection.rankFilter() == QVector<int> { 0, 1 });
    REQUIRE(evidence.count() == 1);
    const auto ref = evidence.takeFirst().at(0).value<model::EvidenceRef>();
    CHECK(ref == f.view.currentPairs()->cell(0, 1)->evidence.front());
    // Outside the matrix: the filter goes away.
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, QPoint(f.view.width() - 3, f.view.height() - 3));
    CHECK(f.selection.rankFilter().isEmpty());
    CHECK(f.selection.selectedPair() == qMakePair(-1, -1));
}

TEST_CASE(
    "heatmap host mode aggregates pairs and a click filters to both hosts' ranks", "[heatmap]")
{
    Fixture f;
    QSignalSpy modes(&f.view, &PairHeatmapView::hostModeChanged);
    f.view.setHostMode(true);
    CHECK(modes.count() == 1);
    REQUIRE(f.view.matrixSize() == 2);
    const QRectF cell = f.view.cellRect(1, 0); // dgx29 ranks wait on rank 1 of dgx28
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, cell.center().toPoint());
    CHECK(f.selection.rankFilter().size() == 8);
    CHECK(f.selection.selectedPair().second == 1);
    CHECK(f.selection.selectedPair().first >= 4);
}

TEST_CASE(
    "heatmap hover tooltip lists ranks, hosts, values per metric and evidence count", "[heatmap]")
{
    Fixture f;
    const QString tip = f.view.toolTipAt(f.view.cellRect(2, 1).center().toPoint());
    CHECK(tip.contains(QStringLiteral("rank 2")));
    CHECK(tip.contains(QStringLiteral("rank 1")));
    CHECK(tip.contains(QStringLiteral("dgx28")));
    CHECK(tip.contains(QStringLiteral("Waits on")));
    CHECK(tip.contains(QStringLiteral("evidence line")));
    const QString empty = f.view.toolTipAt(f.view.cellRect(1, 2).center().toPoint());
    CHECK(empty.contains(QStringLiteral("no evidence")));
    CHECK(f.view.toolTipAt(QPoint(2, f.view.height() - 2)).isEmpty());
    // The metric selector changes what the cells show.
    auto* combo = f.view.findChild<QComboBox*>();
    REQUIRE(combo);
    combo->setCurrentIndex(combo->findData(static_cast<int>(model::PairMetric::WaitsOn)));
    CHECK(f.view.metric() == model::PairMetric::WaitsOn);
}

TEST_CASE(
    "heatmap screenshots show the waits-on column of the initiating rank", "[heatmap][screenshot]")
{
    for (const bool dark : { false, true }) {
        Fixture f;
        if (dark)
            f.view.setPalette(darkPalette());
        // Hover a cell so the crosshair is in the picture too.
        QTest::mouseMove(&f.view, f.view.cellRect(5, 1).center().toPoint());
        const QImage image = f.view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
        image.save(QStringLiteral(RANKSCOPE_SHOTS_DIR "/heatmap-%1.png")
                       .arg(dark ? QStringLiteral("dark") : QStringLiteral("light")));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y));
        CHECK(colours.size() > 12);
        const QRgb background = PairHeatmapView::emptyCellColor(f.view.palette()).rgb();
        // Column 1 (the initiating rank) is lit in the rows of the ranks that wait on it.
        for (int from : { 0, 3, 7 }) {
            const QRectF c = f.view.cellRect(from, 1);
            INFO("from " << from << " dark " << dark);
            CHECK(pixelAt(image, c.center()) != background);
        }
        // Its own row / neighbouring column: background.
        CHECK(pixelAt(image, f.view.cellRect(3, 2).center()) == background);
        CHECK(
            pixelAt(image, f.view.cellRect(1, 3).center()) == background); // rank 1 waits on nobody
    }
}

namespace {

// Eight ranks whose Flight Recorder dumps show a pipeline send 4 → 6 (PG "3", ranks [4, 6])
// that never completed on either side: the p2p pair the heatmap must show.
views::DocumentPtr p2pDocument()
{
    auto bundle = std::make_shared<model::Bundle>();
    model::Bundle& b = *bundle;
    b.ranks.resize(8);
    for (std::int32_t r = 0; r < 8; ++r)
        b.ranks[static_cast<std::size_t>(r)].rank = r;
    b.world.worldSize = 8;
    const model::StrId pipe = b.strings.intern("3");
    for (const auto& [rank, op] : { std::pair { 4, model::OpType::Send }, std::pair { 6, model::OpType::Recv } }) {
        model::FrCall call;
        call.pg = pipe;
        call.op = op;
        call.isP2p = true;
        call.p2pSrc = 0;
        call.p2pDst = 1;
        call.dump = static_cast<std::uint32_t>(b.frDumps.size());
        b.frCalls.push_back(call);
        model::FrDump d;
        d.globalRank = rank;
        d.pgConfig.push_back({ pipe, model::kNoStr, { 4, 6 } });
        d.firstEntry = static_cast<std::uint32_t>(b.frEntries.size());
        d.entryCount = 1;
        model::FrEntry e;
        e.call = static_cast<std::uint32_t>(b.frCalls.size() - 1);
        e.setState(model::FrState::Started);
        b.frEntries.push_back(e);
        b.frDumps.push_back(d);
    }
    model::Diagnosis d;
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<model::TimelineData>(model::TimelineData::build(b, d));
    doc->pairs = std::make_shared<model::PairEvidence>(model::PairEvidence::build(b, d));
    doc->diagnosis = std::make_shared<model::Diagnosis>(std::move(d));
    doc->bundle = std::move(bundle);
    return doc;
}

} // namespace

TEST_CASE("heatmap shows Flight Recorder send/recv left unmatched between global ranks",
    "[heatmap][fr][screenshot]")
{
    SelectionState selection;
    PairHeatmapView view(&selection);
    view.resize(640, 480);
    view.show();
    selection.setDocument(p2pDocument());
    view.setMetric(model::PairMetric::P2pUnmatched);
    QApplication::processEvents();
    const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
    image.save(QStringLiteral(RANKSCOPE_SHOTS_DIR) + QStringLiteral("/heatmap-fr-p2p.png"));
    const QRgb empty = pixelAt(image, view.cellRect(4, 5).center());
    CHECK(pixelAt(image, view.cellRect(4, 6).center()) != empty); // the sender waits on 6
    CHECK(pixelAt(image, view.cellRect(6, 4).center()) != empty); // the receiver on 4
    CHECK(pixelAt(image, view.cellRect(0, 1).center()) == empty); // PG-local ranks are not global
    const QString tip = view.toolTipAt(view.cellRect(4, 6).center().toPoint());
    INFO(tip.toStdString());
    CHECK(tip.contains(QStringLiteral("nmatched send/recv")));
}

TEST_CASE("heatmap fills a tall dock and a wide one with square cells", "[heatmap][screenshot]")
{
    for (const QSize size : { QSize(330, 700), QSize(900, 380) }) {
        Fixture f(size);
        INFO("size " << size.width() << "x" << size.height());
        const QRect matrix = f.view.matrixRect();
        const QRect legend = f.view.legendRect();
        const QRectF cell = f.view.cellRect(2, 3);
        CHECK(cell.width() == cell.height());
        // The square takes the dock's short side, less the axis labels and legend.
        const int shortSide = std::min(size.width(), size.height() - matrix.top());
        CHECK(matrix.width() >= shortSide * 3 / 4);
        CHECK(f.view.rect().contains(legend));
        CHECK_FALSE(legend.intersects(matrix));
        const QImage image = f.view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
        image.save(QStringLiteral(RANKSCOPE_SHOTS_DIR "/heatmap-%1x%2.png")
                       .arg(size.width())
                       .arg(size.height()));
    }
}

TEST_CASE("heatmap legend says what a cell's value counts", "[heatmap]")
{
    Fixture f;
    CHECK(f.view.legendUnit().contains(QStringLiteral("score")));
    f.view.setMetric(model::PairMetric::WaitsOn);
    CHECK(f.view.legendUnit().contains(QStringLiteral("collectives")));
    f.view.setMetric(model::PairMetric::NetworkErrors);
    CHECK(f.view.legendUnit().contains(QStringLiteral("error lines")));
    // The unit is painted: the legend box under the title is not blank.
    const QImage image = f.view.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QRect legend = f.view.legendRect();
    const QRgb window = f.view.palette().color(QPalette::Window).rgb();
    int ink = 0;
    for (int y = legend.top(); y < legend.top() + f.view.fontMetrics().height(); ++y)
        for (int x = legend.left(); x < legend.right(); ++x)
            ink += image.pixel(x, y) != window;
    CHECK(ink > 20);
}

TEST_CASE("for a failed link the heatmap legend names the link's ends whole, not an initiator",
    "[heatmap][wording]")
{
    SelectionState selection;
    PairHeatmapView view(&selection);
    selection.setDocument(
        testing::loadDocument({ RANKSCOPE_TEST_DATA "/scenarios/ib-pair-status12" }));
    REQUIRE(selection.document()->diagnosis->rootCause == model::RootCauseClass::NetworkPair);
    view.resize(900, 420); // wide: the legend goes beside the matrix
    view.show();
    QApplication::processEvents();
    const QFontMetrics fm(view.font());
    for (const bool hosts : { false, true }) {
        view.setHostMode(hosts);
        QApplication::processEvents();
        const QString label = view.initiatorsSwatchLabel();
        INFO((hosts ? "hosts: " : "ranks: ") << label.toStdString());
        CHECK(label.contains(QStringLiteral("failed link")));
        CHECK_FALSE(label.contains(QStringLiteral("initiat")));
        // Beside the matrix the legend is wide enough for the label after its swatch.
        const QRect legend = view.legendRect();
        REQUIRE(legend.left() > view.matrixRect().right());
        CHECK(legend.width() >= fm.horizontalAdvance(label) + 20);
    }
    // Any other verdict keeps "initiating".
    Fixture straggler;
    CHECK(straggler.view.initiatorsSwatchLabel() == QStringLiteral("initiating rank"));
}

namespace {

// 4096 ranks whose only evidence is the stuck pair 1000 <-> 3000.
views::DocumentPtr stuckPairIn4096()
{
    auto bundle = std::make_shared<model::Bundle>();
    bundle->ranks.resize(4096);
    for (std::int32_t r = 0; r < 4096; ++r)
        bundle->ranks[static_cast<std::size_t>(r)].rank = r;
    model::Diagnosis d;
    d.initiatingRanks = { 1000, 3000 };
    d.stuckPair = std::make_pair(1000, 3000);
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<model::TimelineData>(model::TimelineData::build(*bundle, d));
    doc->pairs = std::make_shared<model::PairEvidence>(model::PairEvidence::build(*bundle, d));
    doc->diagnosis = std::make_shared<model::Diagnosis>(std::move(d));
    doc->bundle = std::move(bundle);
    return doc;
}

int colourDistance(QRgb a, QRgb b)
{
    return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b))
        + std::abs(qBlue(a) - qBlue(b));
}

} // namespace

TEST_CASE("heatmap rings the stuck pair so it shows at 4096 ranks", "[heatmap][screenshot]")
{
    SelectionState selection;
    PairHeatmapView view(&selection);
    view.resize(640, 480);
    view.show();
    selection.setDocument(stuckPairIn4096());
    view.setHostMode(false);
    QApplication::processEvents();
    REQUIRE(view.matrixSize() == 4096);
    // A tenth of a pixel per cell: the pair itself is far below one pixel.
    REQUIRE(view.matrixRect().width() < 4096 / 4);
    const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
    image.save(QStringLiteral(RANKSCOPE_SHOTS_DIR "/heatmap-4096-stuck-pair.png"));
    const QRgb stuck = PairHeatmapView::stuckPairColor(view.palette()).rgb();
    const int radius = PairHeatmapView::kStuckMarkerDiameter / 2;
    // The ring crosses each of the four directions around the cell at its radius.
    for (const auto& [from, to] : { std::pair { 1000, 3000 }, std::pair { 3000, 1000 } }) {
        const QPointF c = view.cellRect(from, to).center();
        for (const QPointF dir : { QPointF(1, 0), QPointF(-1, 0), QPointF(0, 1), QPointF(0, -1) }) {
            int best = 1000;
            for (int d = radius - 2; d <= radius + 2; ++d)
                best = std::min(best, colourDistance(pixelAt(image, c + dir * d), stuck));
            INFO("cell " << from << "," << to << " direction " << dir.x() << "," << dir.y());
            CHECK(best < 40);
        }
    }
}

namespace {

// 4096 ranks: every other rank waits on rank 1000 (column 1000 lit), and the verdict's stuck
// pair is 1000 <-> 1002.
views::DocumentPtr waitsOnIn4096()
{
    auto bundle = std::make_shared<model::Bundle>();
    bundle->ranks.resize(4096);
    for (std::int32_t r = 0; r < 4096; ++r)
        bundle->ranks[static_cast<std::size_t>(r)].rank = r;
    model::Diagnosis d;
    d.initiatingRanks = { 1000 };
    d.stuckPair = std::make_pair(1000, 1002);
    for (std::int32_t r = 0; r < 4096; ++r)
        if (r != 1000)
            d.collateralRanks.push_back(r);
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<model::TimelineData>(model::TimelineData::build(*bundle, d));
    doc->pairs = std::make_shared<model::PairEvidence>(model::PairEvidence::build(*bundle, d));
    doc->diagnosis = std::make_shared<model::Diagnosis>(std::move(d));
    doc->bundle = std::move(bundle);
    return doc;
}

} // namespace

TEST_CASE("heatmap zooms with the wheel, keys and a double-click, and pans by dragging",
    "[heatmap][zoom]")
{
    SelectionState selection;
    PairHeatmapView view(&selection);
    view.resize(640, 480);
    view.show();
    selection.setDocument(stuckPairIn4096());
    view.setHostMode(false);
    QApplication::processEvents();
    REQUIRE(view.matrixSize() == 4096);
    const QRect whole(0, 0, 4096, 4096);
    CHECK(view.visibleCells() == whole);
    CHECK_FALSE(view.isZoomed());
    QSignalSpy changed(&view, &PairHeatmapView::visibleCellsChanged);
    const QRect matrix = view.matrixRect();

    // The wheel zooms about the pointer: the cell under it stays under it.
    const QPoint at = matrix.topLeft() + QPoint(matrix.width() / 4, matrix.height() / 2);
    const auto before = view.cellAt(at);
    REQUIRE(before);
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120 * 4), Qt::NoButton,
        Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    CHECK(view.isZoomed());
    CHECK(view.visibleCells().width() < 4096 / 2);
    CHECK(view.visibleCells().width() == view.visibleCells().height());
    REQUIRE(changed.count() == 1);
    const auto after = view.cellAt(at);
    REQUIRE(after);
    CHECK(std::abs(after->first - before->first) <= 8);
    CHECK(std::abs(after->second - before->second) <= 8);
    // The matrix square keeps its place and size: only what it shows changed.
    CHECK(view.matrixRect() == matrix);

    // + zooms in twice as far about the centre, - back out, 0 shows everything.
    const int span = view.visibleCells().width();
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_Plus);
    CHECK(view.visibleCells().width() == (span + 1) / 2);
    QTest::keyClick(&view, Qt::Key_Minus);
    CHECK(std::abs(view.visibleCells().width() - span) <= 1);
    QTest::keyClick(&view, Qt::Key_0);
    CHECK(view.visibleCells() == whole);

    // A double-click zooms in on the cell under it: the stuck pair fills far more of the
    // square, and stays in view.
    const QPointF stuck = view.cellRect(1000, 3000).center();
    QTest::mouseDClick(&view, Qt::LeftButton, {}, stuck.toPoint());
    const QRect zoomed = view.visibleCells();
    CHECK(zoomed.width() == 1024);
    CHECK(zoomed.contains(QPoint(3000, 1000))); // x = column (to), y = row (from)
    CHECK(view.cellRect(1000, 3000).width() > 0.5);
    for (int i = 0; i < 3; ++i)
        view.zoomToCell(1000, 3000);
    CHECK(view.visibleCells().width() == 16);
    const QRectF cell = view.cellRect(1000, 3000);
    CHECK(cell.width() >= matrix.width() / 16.0 - 1);
    CHECK(matrix.contains(cell.center().toPoint()));
    const auto hit = view.cellAt(cell.center().toPoint());
    REQUIRE(hit);
    CHECK(*hit == std::make_pair(1000, 3000));

    // A drag pans: the cells follow the pointer, and a drag selects nothing.
    const QRect panFrom = view.visibleCells();
    const double px = static_cast<double>(matrix.width()) / panFrom.width();
    const QPoint start = matrix.center();
    QTest::mousePress(&view, Qt::LeftButton, {}, start);
    QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(static_cast<int>(px * 3), 0)),
        view.mapToGlobal(QPointF(start + QPoint(static_cast<int>(px * 3), 0))), Qt::NoButton,
        Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, start + QPoint(static_cast<int>(px * 3), 0));
    CHECK(view.visibleCells().left() == panFrom.left() - 3);
    CHECK(view.visibleCells().top() == panFrom.top());
    CHECK(selection.selectedPair() == qMakePair(-1, -1));
    // Home shows the whole matrix again.
    QTest::keyClick(&view, Qt::Key_Home);
    CHECK(view.visibleCells() == whole);
}

TEST_CASE("a zoomed heatmap renders the cells in view with labels that never overlap",
    "[heatmap][zoom][screenshot]")
{
    SelectionState selection;
    PairHeatmapView view(&selection);
    view.resize(900, 700);
    view.show();
    selection.setDocument(waitsOnIn4096());
    view.setHostMode(false);
    QApplication::processEvents();
    const QRgb stuck = PairHeatmapView::stuckPairColor(view.palette()).rgb();
    const QRgb background = PairHeatmapView::emptyCellColor(view.palette()).rgb();

    for (const int zooms : { 0, 2, 5 }) {
        view.resetZoom();
        for (int i = 0; i < zooms; ++i)
            view.zoomToCell(1000, 1001);
        INFO("zoomed " << zooms << " times: " << view.visibleCells().width() << " cells");
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        image.save(testing::shotPath(QStringLiteral("heatmap-4096-zoom%1.png").arg(zooms)));
        CHECK(testing::distinctColours(image) > 8);
        const QRect matrix = view.matrixRect();

        // Column 1000 (everyone waits on rank 1000) is lit, a cell beside it is not, and
        // the stuck pair is ringed, at every zoom level.
        const QRectF lit = view.cellRect(1001, 1000);
        REQUIRE_FALSE(lit.isNull());
        bool litSeen = false; // a pooled pixel rounds to one side or the other
        for (const double dx : { -1.0, 0.0, 1.0 })
            litSeen = litSeen || pixelAt(image, lit.center() + QPointF(dx, 0)) != background;
        CHECK(litSeen);
        const QRectF dark = view.cellRect(1002, 1001);
        if (dark.width() >= 3)
            CHECK(pixelAt(image, dark.center()) == background);
        const QRectF c = view.cellRect(1000, 1002);
        REQUIRE_FALSE(c.isNull());
        const int radius = static_cast<int>(
            std::max(PairHeatmapView::kStuckMarkerDiameter / 2.0, c.width() * 0.75 + 2));
        int best = 1000;
        for (const QPointF dir : { QPointF(1, 0), QPointF(-1, 0), QPointF(0, 1), QPointF(0, -1) })
            for (int d = radius - 3; d <= radius + 3; ++d)
                best = std::min(best, colourDistance(pixelAt(image, c.center() + dir * d), stuck));
        CHECK(best < 40);

        // Column labels: the ink above the matrix comes in runs (a gap of a few pixels
        // ends a label), and no run is wider than the widest label: two labels drawn over
        // each other would make one wide run.
        const QRgb window = view.palette().color(QPalette::Window).rgb();
        const int fh = view.fontMetrics().height();
        QFont bold = view.font();
        bold.setBold(true);
        const int widest = QFontMetrics(bold).horizontalAdvance(QStringLiteral("4095")) + 2;
        std::vector<std::pair<int, int>> runs; // [first, last] x of each label
        int gap = 1000;
        for (int x = matrix.left() - widest; x <= matrix.right() + widest; ++x) {
            bool ink = false;
            for (int y = matrix.top() - fh - 2; y < matrix.top() - 8; ++y)
                ink = ink || image.pixel(x, y) != window;
            if (!ink) {
                ++gap;
                continue;
            }
            if (gap >= 3 || runs.empty())
                runs.push_back({ x, x });
            runs.back().second = x;
            gap = 0;
        }
        int widestRun = 0;
        for (const auto& [first, last] : runs)
            widestRun = std::max(widestRun, last - first + 1);
        INFO("label runs " << runs.size() << ", widest " << widestRun << " px of " << widest);
        CHECK(runs.size() >= 3);
        CHECK(widestRun <= widest);
    }
}

TEST_CASE("a heatmap without its controls draws the plot only, from the top", "[heatmap]")
{
    Fixture f;
    const int withControls = f.view.matrixRect().top();
    f.view.setControlsVisible(false);
    QApplication::processEvents();
    for (QWidget* child : f.view.findChildren<QWidget*>())
        CHECK_FALSE(child->isVisible());
    CHECK(f.view.matrixRect().top() < withControls);
    // Rendered without children, the band where the controls were is plain background.
    QImage image(f.view.size(), QImage::Format_RGB32);
    f.view.render(&image, QPoint(), QRegion(), QWidget::DrawWindowBackground);
    const QRgb window = f.view.palette().color(QPalette::Window).rgb();
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < image.width(); ++x)
            REQUIRE(image.pixel(x, y) == window);
    f.view.setControlsVisible(true);
    CHECK(f.view.matrixRect().top() == withControls);
}
