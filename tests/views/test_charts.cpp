// Charts: per-rank progress bars (initiating rank in the initiating colour, in-flight
// collectives stacked on top, bucketed at 4096 ranks) and the per-rank wait-time chart.
#include "viewtestsupport.h"
#include "documentfixture.h"

#include "app/gui/chartspanel.h"
#include "app/gui/mainwindow.h"
#include "views/chartlegend.h"
#include "views/chartsupport.h"
#include "views/durationchart.h"
#include "views/progresschart.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <catch2/catch.hpp>

#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QDir>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QSet>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QValueAxis>

using namespace rankscope;
using namespace rankscope::testing;

namespace {

views::DocumentPtr straggler()
{
    static views::DocumentPtr doc
        = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/straggler-8ranks" });
    return doc;
}

// A synthetic 4096-rank job: every rank completed 99 and enqueued 100, except rank 1234
// which never enqueued 100.
views::DocumentPtr bigJob()
{
    auto bundle = std::make_shared<model::Bundle>();
    const int n = 4096;
    bundle->ranks.resize(n);
    const model::StrId pg = bundle->strings.intern("0");
    for (int r = 0; r < n; ++r) {
        bundle->ranks[static_cast<std::size_t>(r)].rank = r;
        model::RankProgress p;
        p.rank = r;
        p.pg = pg;
        p.lastCompleted = 99;
        p.lastEnqueued = r == 1234 ? 99 : 100;
        p.hasStatus = true;
        p.timeoutSeq = r == 1234 ? -1 : 100;
        p.ranForMs = r == 1234 ? -1 : 600000 + r;
        bundle->progress.push_back(p);
    }
    auto diagnosis = std::make_shared<model::Diagnosis>();
    diagnosis->status = model::DiagnosisStatus::HangDiagnosed;
    diagnosis->rootCause = model::RootCauseClass::StragglerStall;
    diagnosis->initiatingRanks = { 1234 };
    diagnosis->stuckCollective = model::StuckCollective { "0", model::OpType::AllReduce, 100 };
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<const model::TimelineData>(
        model::TimelineData::build(*bundle, *diagnosis));
    doc->bundle = bundle;
    doc->diagnosis = diagnosis;
    return doc;
}

} // namespace

TEST_CASE("a chart of thousands of ranks draws one marker per cell, not per rank", "[charts]")
{
    // Up to kThinAboveRanks ranks every rank keeps its marker.
    std::vector<QPointF> few;
    for (int r = 0; r < 1024; ++r)
        few.emplace_back(r, 600.0);
    CHECK(views::charts::markerPoints(few, 1024, 600.0).size() == 1024);

    // 4096 ranks that all waited 600 s, but one that waited 10 s and one at 300 s: the band
    // at 600 s shares markers (at most one per column), the outliers keep theirs, and no
    // marker is drawn where no rank is.
    std::vector<QPointF> many;
    for (int r = 0; r < 4096; ++r)
        many.emplace_back(r, r == 1000 ? 10.0 : r == 3000 ? 300.0 : 600.0);
    const QList<QPointF> drawn = views::charts::markerPoints(many, 4096, 600.0);
    CHECK(drawn.size() <= 1024 + 2);
    CHECK(drawn.size() >= 1000);
    CHECK(drawn.contains(QPointF(1000, 10.0)));
    CHECK(drawn.contains(QPointF(3000, 300.0)));
    for (const QPointF& p : drawn)
        CHECK(many[static_cast<std::size_t>(p.x())] == p);
}

TEST_CASE("progress chart draws the initiating rank's bar in the initiating colour", "[charts]")
{
    auto doc = straggler();
    views::SelectionState selection;
    views::ProgressChart chart(&selection);
    chart.resize(700, 420);
    chart.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();
    REQUIRE(chart.hasData());
    CHECK(chart.barCount() == 8);
    const int bar = chart.barOfRank(6);
    REQUIRE(bar >= 0);
    CHECK(chart.barValue(bar) == 18);
    const QPalette pal = chart.palette();
    const QColor initiating = views::theme::colors(pal).initiating;
    CHECK(chart.initiatingSet()->color() == initiating);
    CHECK(chart.initiatingSet()->at(bar) == 18);
    CHECK(chart.initiatingSet()->at(chart.barOfRank(0)) == 0);
    // Rank 0 enqueued #19 and never completed it; rank 6 never enqueued it.
    CHECK(chart.inFlightSet()->at(chart.barOfRank(0)) == 1);
    CHECK(chart.inFlightSet()->at(bar) == 0);

    const QImage image = chart.grab().toImage();
    image.save(shotPath(QStringLiteral("progresschart.png")));
    CHECK(distinctColours(image) > 8);
    // Where the chart's own mapping puts the middle of rank 6's bar, the pixel is red.
    const QPointF scene
        = chart.chart()->mapToPosition(QPointF(bar, chart.barValue(bar) - 0.5), chart.series());
    const QPoint pos = chart.mapFromScene(scene);
    CHECK(image.pixelColor(pos).name() == initiating.name());
    const QPointF otherScene = chart.chart()->mapToPosition(
        QPointF(chart.barOfRank(0), chart.barValue(0) - 0.5), chart.series());
    CHECK(image.pixelColor(chart.mapFromScene(otherScene)).name()
        == views::theme::colors(pal).collateral.name());
}

TEST_CASE("progress chart labels every bar of a small job however wide it is", "[charts]")
{
    auto doc = straggler();
    views::SelectionState selection;
    views::ProgressChart chart(&selection);
    selection.setDocument(doc);
    for (const int width : { 420, 900, 1800 }) {
        chart.resize(width, 420);
        chart.show();
        QCoreApplication::processEvents();
        const auto axes = chart.chart()->axes(Qt::Horizontal);
        REQUIRE(axes.size() == 1);
        auto* ranks = qobject_cast<QCategoryAxis*>(axes.front());
        REQUIRE(ranks);
        INFO("width " << width);
        CHECK(ranks->categoriesLabels().size() == 8);
    }
}

TEST_CASE("progress chart buckets 4096 ranks and keeps the initiating rank visible", "[charts]")
{
    auto doc = bigJob();
    views::SelectionState selection;
    views::ProgressChart chart(&selection);
    chart.resize(900, 420);
    chart.show();
    selection.setDocument(doc);
    REQUIRE(chart.hasData());
    CHECK(chart.barCount() <= 128);
    const int bar = chart.barOfRank(1234);
    REQUIRE(bar >= 0);
    CHECK(chart.initiatingSet()->at(bar) == 99);
    CHECK(chart.inFlightSet()->at(bar) == 0);
    CHECK(chart.inFlightSet()->at(chart.barOfRank(0)) == 1);
    const QImage image = chart.grab().toImage();
    image.save(shotPath(QStringLiteral("progresschart-4096.png")));
    const QPointF scene = chart.chart()->mapToPosition(QPointF(bar, 98.5), chart.series());
    CHECK(image.pixelColor(chart.mapFromScene(scene)).name()
        == views::theme::colors(chart.palette()).initiating.name());
}

TEST_CASE("duration chart shows each rank's wait and the initiating rank at zero", "[charts]")
{
    auto doc = straggler();
    views::SelectionState selection;
    views::DurationChart chart(&selection);
    chart.resize(700, 420);
    chart.show();
    selection.setDocument(doc);
    REQUIRE(chart.hasData());
    CHECK(chart.valueOfRank(6) == 0);
    CHECK(chart.valueOfRank(0) == Approx(600).margin(5));
    REQUIRE(chart.initiatingSeries());
    CHECK(chart.initiatingSeries()->count() == 1);
    CHECK(chart.initiatingSeries()->color() == views::theme::colors(chart.palette()).initiating);
    chart.grab().save(shotPath(QStringLiteral("durationchart.png")));
    chart.setMode(views::DurationChart::Mode::TimeoutTime);
    CHECK(chart.mode() == views::DurationChart::Mode::TimeoutTime);
    chart.grab().save(shotPath(QStringLiteral("durationchart-timeouts.png")));

    auto big = bigJob();
    chart.setMode(views::DurationChart::Mode::WaitDuration);
    selection.setDocument(big);
    CHECK(chart.valueOfRank(1234) == 0);
    CHECK(chart.valueOfRank(4095) == Approx(604.095));
    chart.grab().save(shotPath(QStringLiteral("durationchart-4096.png")));
}

TEST_CASE("with Flight Recorder dumps only, waits are estimated from entry times", "[charts]")
{
    // fr-only-straggler: rank 7 never entered ALLREDUCE #76; ranks 0-6 sat in it until the
    // first watchdog fired, so each waited at most the timeout and the earliest exactly it.
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/scenarios/fr-only-straggler" });
    REQUIRE(doc);
    views::SelectionState selection;
    views::DurationChart chart(&selection);
    chart.resize(700, 420);
    chart.show();
    selection.setDocument(doc);
    REQUIRE(chart.hasData());
    CHECK(chart.estimatedFromDumps());
    CHECK(chart.valueOfRank(7) == 0); // the initiating rank did not wait
    double longest = 0;
    for (int r = 0; r < 7; ++r) {
        CHECK(chart.valueOfRank(r) > 0);
        longest = std::max(longest, chart.valueOfRank(r));
    }
    CHECK(longest == Approx(600).margin(0.001)); // the dumps' timeout_ms is 600000
    // Every waiting rank is plotted (as waiting or as stuck in the collective).
    int plotted = 0;
    for (QAbstractSeries* s : chart.chart()->series())
        plotted += static_cast<QScatterSeries*>(s)->count();
    CHECK(plotted == 8);
    // A legend entry for each series with points, none for an empty one.
    auto* legend = chart.findChild<views::ChartLegend*>();
    REQUIRE(legend);
    QStringList drawn;
    for (QAbstractSeries* s : chart.chart()->series())
        if (static_cast<QScatterSeries*>(s)->count() > 0)
            drawn << s->name();
    QStringList entries;
    for (const auto& e : legend->entries())
        entries << e.text;
    CHECK(entries == drawn);
    CHECK(chart.chart()->title().contains(QStringLiteral("Flight Recorder")));
    // Eight ranks on a wide chart: one tick per rank, never half ranks labelled twice.
    const auto axes = chart.chart()->axes(Qt::Horizontal);
    REQUIRE(axes.size() == 1);
    CHECK(static_cast<QValueAxis*>(axes.front())->tickInterval() >= 1.0);
    const QImage image = chart.grab().toImage();
    image.save(shotPath(QStringLiteral("durationchart-fr-only.png")));
    CHECK(distinctColours(image) > 4);
}

TEST_CASE("charts follow the selected process group and survive an empty document", "[charts]")
{
    views::SelectionState selection;
    app::ChartsPanel panel(&selection);
    panel.resize(900, 700);
    panel.show();
    selection.setDocument(straggler());
    selection.setProcessGroup(QStringLiteral("no-such-group"));
    CHECK(panel.progressChart()->hasData()); // unknown group: falls back to the stuck one
    selection.setProcessGroup(QStringLiteral("0"));
    CHECK(panel.progressChart()->hasData());
    panel.grab().save(shotPath(QStringLiteral("chartspanel.png")));
    selection.setDocument(nullptr);
    CHECK_FALSE(panel.progressChart()->hasData());
    CHECK_FALSE(panel.durationChart()->hasData());
}

TEST_CASE("progress chart gives every rank a slot, a rank without data a no-data bar",
    "[charts]")
{
    // crash-oom-pernode: rank 0 ran out of memory and logged no sequence number, nor did
    // the other seven ranks of its node or rank 9; ranks 8 and 10-15 timed out at #159.
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/scenarios/crash-oom-pernode" });
    REQUIRE(doc);
    views::SelectionState selection;
    views::ProgressChart chart(&selection);
    chart.resize(700, 420);
    chart.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();
    REQUIRE(chart.hasData());
    CHECK(chart.barCount() == 16);
    const int culprit = chart.barOfRank(0);
    REQUIRE(culprit >= 0);
    CHECK_FALSE(chart.barHasData(culprit));
    CHECK(chart.initiatingNoDataSet()->at(culprit) > 0);
    CHECK(chart.noDataSet()->at(culprit) == 0);
    CHECK(chart.noDataSet()->at(chart.barOfRank(9)) > 0);
    CHECK(chart.barHasData(chart.barOfRank(8)));
    CHECK(chart.noDataSet()->at(chart.barOfRank(8)) == 0);
    // The culprit's number is on the axis.
    auto* ranks = qobject_cast<QCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).front());
    REQUIRE(ranks);
    CHECK(ranks->categoriesLabels().contains(QStringLiteral("0")));
    // The value axis zooms onto the known values (158-159), not down to zero.
    auto* values = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).front());
    REQUIRE(values);
    CHECK(values->min() > 100);
    const QImage image = chart.grab().toImage();
    image.save(shotPath(QStringLiteral("progresschart-no-data.png")));
    // The culprit's slot is drawn in the initiating colour (its hatch), not left empty.
    const QRectF plot = chart.chart()->plotArea();
    const QPointF top = chart.chart()->mapToPosition(QPointF(culprit, values->max()), chart.series());
    const QColor initiating = views::theme::colors(chart.palette()).initiating;
    int hatch = 0;
    for (int y = static_cast<int>(plot.top()) + 2; y < static_cast<int>(plot.bottom()) - 2; ++y)
        for (int dx = -8; dx <= 8; ++dx)
            hatch += image.pixelColor(chart.mapFromScene(QPointF(top.x() + dx, y))) == initiating;
    CHECK(hatch > 20);
}

TEST_CASE("progress chart axis starts near the data when a rank never completed one",
    "[charts]")
{
    // Eight ranks at #37520; rank 3 timed out on it but no line said what it completed.
    auto bundle = std::make_shared<model::Bundle>();
    bundle->ranks.resize(8);
    const model::StrId pg = bundle->strings.intern("0");
    for (int r = 0; r < 8; ++r) {
        bundle->ranks[static_cast<std::size_t>(r)].rank = r;
        model::RankProgress p;
        p.rank = r;
        p.pg = pg;
        p.lastCompleted = r == 3 ? -1 : 37519;
        p.lastEnqueued = r == 3 ? -1 : 37520;
        p.hasStatus = r != 3;
        p.timeoutSeq = 37520;
        bundle->progress.push_back(p);
    }
    auto diagnosis = std::make_shared<model::Diagnosis>();
    diagnosis->stuckCollective = model::StuckCollective { "0", model::OpType::AllReduce, 37520 };
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<const model::TimelineData>(
        model::TimelineData::build(*bundle, *diagnosis));
    doc->bundle = bundle;
    doc->diagnosis = diagnosis;

    views::SelectionState selection;
    views::ProgressChart chart(&selection);
    chart.resize(700, 420);
    chart.show();
    selection.setDocument(doc);
    REQUIRE(chart.hasData());
    auto* values = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).front());
    REQUIRE(values);
    INFO("axis " << values->min() << " to " << values->max());
    CHECK(values->min() > 37500);
    CHECK(values->min() < 37519);
    CHECK(values->max() >= 37520);
    // Rank 3 enqueued #37520: its in-flight bar reaches it from the bottom of the axis.
    const int bar = chart.barOfRank(3);
    CHECK(chart.barHasData(bar));
    CHECK(chart.inFlightSet()->at(bar) == 37520);
    chart.grab().save(shotPath(QStringLiteral("progresschart-high-seq.png")));
}

TEST_CASE("time waited plots an initiating rank that timed out too at zero, not at 600 s",
    "[charts]")
{
    // Eight ranks whose watchdogs all fired on #100 after 600 s, rank 3's included: it
    // called a different collective (a mismatch), so it is the cause although it waited.
    auto bundle = std::make_shared<model::Bundle>();
    bundle->ranks.resize(8);
    const model::StrId pg = bundle->strings.intern("0");
    for (int r = 0; r < 8; ++r) {
        bundle->ranks[static_cast<std::size_t>(r)].rank = r;
        model::RankProgress p;
        p.rank = r;
        p.pg = pg;
        p.lastCompleted = 99;
        p.lastEnqueued = 100;
        p.hasStatus = true;
        p.timeoutSeq = 100;
        p.ranForMs = 600000 + r;
        bundle->progress.push_back(p);
    }
    auto diagnosis = std::make_shared<model::Diagnosis>();
    diagnosis->status = model::DiagnosisStatus::HangDiagnosed;
    diagnosis->initiatingRanks = { 3 };
    diagnosis->stuckCollective = model::StuckCollective { "0", model::OpType::AllReduce, 100 };
    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<const model::TimelineData>(
        model::TimelineData::build(*bundle, *diagnosis));
    doc->bundle = bundle;
    doc->diagnosis = diagnosis;

    views::SelectionState selection;
    views::DurationChart chart(&selection);
    chart.resize(700, 420);
    chart.show();
    selection.setDocument(doc);
    REQUIRE(chart.hasData());
    CHECK(chart.valueOfRank(0) == Approx(600));
    CHECK(chart.valueOfRank(3) == 0);
    REQUIRE(chart.initiatingSeries());
    REQUIRE(chart.initiatingSeries()->count() == 1);
    CHECK(chart.initiatingSeries()->at(0).y() == 0);
    // The legend says where the cause is drawn, and does not claim it did not wait.
    const QString name = chart.initiatingSeries()->name();
    CHECK(name.contains(QStringLiteral("0 s")));
    CHECK_FALSE(name.contains(QStringLiteral("did not wait")));
    chart.grab().save(shotPath(QStringLiteral("durationchart-cause-timed-out.png")));

    // ib-pair-status12: the failed link's two ends raised an async error instead of
    // waiting; both sit at zero and the legend says they did not wait.
    selection.setDocument(
        testing::loadDocument({ RANKSCOPE_TEST_DATA "/scenarios/ib-pair-status12" }));
    REQUIRE(chart.hasData());
    CHECK(chart.valueOfRank(0) == Approx(600).margin(5));
    CHECK(chart.valueOfRank(7) == 0);
    CHECK(chart.valueOfRank(8) == 0);
    CHECK(chart.initiatingSeries()->name().contains(QStringLiteral("did not wait")));
    chart.grab().save(shotPath(QStringLiteral("durationchart-ib-pair.png")));
}

namespace {

// Every legend entry of `view` drawn whole: its text wraps inside its box (never elided),
// the box lies inside the legend and the legend inside the chart's visible part, and the
// text's box has text pixels in it.
void checkLegendReadable(QChartView* view, const QString& shot)
{
    auto* legend = view->findChild<views::ChartLegend*>();
    REQUIRE(legend);
    // Qt Charts' own legend (one row, elided labels) is not shown.
    CHECK_FALSE(view->chart()->legend()->isVisible());
    REQUIRE_FALSE(legend->entries().isEmpty());
    CHECK(legend->isVisible());
    CHECK(legend->visibleRegion().boundingRect() == legend->rect());
    const QImage image = legend->grab().toImage();
    image.save(shotPath(shot));
    const QFontMetrics fm(legend->font());
    for (int i = 0; i < legend->entries().size(); ++i) {
        const QString text = legend->entries()[i].text;
        const QRect box = legend->textRect(i);
        INFO("entry '" << text.toStdString() << "' in " << box.width() << " x " << box.height()
                       << " of a legend " << legend->width() << " px wide");
        CHECK(legend->rect().contains(box));
        const QRect needed
            = fm.boundingRect(QRect(0, 0, box.width(), 10000), Qt::TextWordWrap, text);
        CHECK(needed.width() <= box.width());
        CHECK(needed.height() <= box.height());
        CHECK(distinctColours(image.copy(box), 1) > 1);
    }
    // The plot ends above the legend: the chart's bottom margin holds it.
    CHECK(view->chart()->plotArea().bottom() < legend->geometry().top());
}

} // namespace

TEST_CASE("chart legends are readable whole at 1360 x 850 and at 1024 x 700", "[charts][narrow]")
{
    isolateSettings();
    app::MainWindow window;
    window.resize(1360, 850);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::documentShown);
    window.openPaths({ QStringLiteral(RANKSCOPE_SAMPLES_DIR "/hung-allreduce") });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    auto* charts = window.findChild<app::ChartsPanel*>();
    REQUIRE(charts);
    for (const QSize size : { QSize(1360, 850), QSize(1024, 700) }) {
        window.resize(size);
        waitFor([] { return false; }, 300);
        INFO(size.width() << " x " << size.height());
        REQUIRE(charts->progressChart()->isVisible());
        checkLegendReadable(
            charts->progressChart(), QStringLiteral("progress-legend-%1.png").arg(size.width()));
        // The progress chart names its sets; one of them is the cause.
        QStringList texts;
        for (const auto& e : charts->progressChart()->findChild<views::ChartLegend*>()->entries())
            texts << e.text;
        CHECK(texts.contains(QStringLiteral("initiating rank")));
        CHECK(texts.contains(QStringLiteral("completed")));
        checkLegendReadable(
            charts->durationChart(), QStringLiteral("duration-legend-%1.png").arg(size.width()));
        window.grab().save(
            shotPath(QStringLiteral("charts-%1x%2.png").arg(size.width()).arg(size.height())));
    }
}

TEST_CASE("for a failed link the chart legends name the link's ends, not an initiator",
    "[charts][wording]")
{
    views::SelectionState selection;
    views::ProgressChart progress(&selection);
    views::DurationChart duration(&selection);
    progress.resize(360, 420);
    duration.resize(360, 420);
    progress.show();
    duration.show();
    selection.setDocument(
        testing::loadDocument({ RANKSCOPE_TEST_DATA "/scenarios/ib-pair-status12" }));
    REQUIRE(selection.document()->diagnosis->rootCause == model::RootCauseClass::NetworkPair);
    const QString words = views::theme::initiatorsLabel(model::RootCauseClass::NetworkPair);
    for (QChartView* view :
        { static_cast<QChartView*>(&progress), static_cast<QChartView*>(&duration) }) {
        auto* legend = view->findChild<views::ChartLegend*>();
        REQUIRE(legend);
        bool named = false;
        for (const auto& e : legend->entries()) {
            INFO(e.text.toStdString());
            CHECK_FALSE(e.text.contains(QStringLiteral("initiat")));
            named = named || e.text.contains(words);
        }
        CHECK(named);
        checkLegendReadable(view,
            QStringLiteral("legend-network-pair-%1.png")
                .arg(QString::fromLatin1(view->metaObject()->className())
                         .section(QLatin1Char(':'), -1)));
    }
}
