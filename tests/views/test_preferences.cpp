// Preferences kept across runs and fields sized for what they say: the view choices come
// back in a new window (each test process has a settings folder of its own), and every
// filter and search field shows its whole placeholder at the default and the smallest
// supported window size.
#include "viewtestsupport.h"

#include "app/gui/chartspanel.h"
#include "app/gui/logsearchdialog.h"
#include "app/gui/mainwindow.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/pairheatmapview.h"
#include "views/placeholderwidth.h"
#include "views/ranktimelineview.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace rankscope;
using namespace rankscope::testing;
using app::MainWindow;
using views::RankTimelineView;

namespace {

const QString kFixture = QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks");

void openFixture(MainWindow& window)
{
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openPaths({ kFixture });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    QApplication::processEvents();
}

// What a user does with a combo box: pick an entry (activated is the user's signal).
void pick(QComboBox* box, int index)
{
    REQUIRE(box);
    REQUIRE(index >= 0);
    box->setCurrentIndex(index);
    Q_EMIT box->activated(index);
}

struct Choices {
    RankTimelineView::AxisMode axis;
    model::PairMetric metric;
    views::DurationChart::Mode wait;
    bool wrap;
    std::optional<model::Severity> severity;
};

Choices choicesOf(MainWindow& window)
{
    auto* charts = window.findChild<app::ChartsPanel*>();
    auto* heatmap = window.findChild<views::PairHeatmapView*>();
    REQUIRE(charts);
    REQUIRE(heatmap);
    return { window.timeline()->axisMode(), heatmap->metric(), charts->durationChart()->mode(),
        window.logViewer()->textView()->wrapLines(), window.logViewer()->severityFilter() };
}

} // namespace

TEST_CASE("view choices come back when the window is made again", "[preferences]")
{
    isolateSettings();
    Choices defaults {};
    {
        MainWindow window;
        window.resize(1360, 850);
        window.show();
        openFixture(window);
        defaults = choicesOf(window);
        // The bundle's own default axis (wall clock here) is not a choice to keep.
        REQUIRE(defaults.axis == RankTimelineView::AxisMode::Time);
        REQUIRE(defaults.wrap);
        REQUIRE_FALSE(defaults.severity);
        REQUIRE(defaults.wait == views::DurationChart::Mode::WaitDuration);

        // T on the timeline, as a keyboard user switches the axis.
        window.timeline()->setFocus();
        QTest::keyClick(window.timeline(), Qt::Key_T);
        CHECK(window.timeline()->axisMode() == RankTimelineView::AxisMode::Sequence);
        auto* metricBox = window.findChild<QComboBox*>(QStringLiteral("heatmapMetric"));
        REQUIRE(metricBox);
        metricBox->setCurrentIndex(
            metricBox->findData(static_cast<int>(model::PairMetric::NetworkErrors)));
        auto* waitBox = window.findChild<QComboBox*>(QStringLiteral("waitChartMode"));
        REQUIRE(waitBox);
        pick(waitBox, waitBox->findData(static_cast<int>(views::DurationChart::Mode::TimeoutTime)));
        auto* wrap = window.findChild<QToolButton*>(QStringLiteral("wrapLinesButton"));
        REQUIRE(wrap);
        wrap->click();
        auto* severity = window.findChild<QComboBox*>(QStringLiteral("severityFilter"));
        REQUIRE(severity);
        // Errors only: narrower than the evidence line the app opens the log at.
        pick(severity, severity->findData(static_cast<int>(model::Severity::Error)));
        window.close();
    }
    {
        MainWindow window;
        window.resize(1360, 850);
        window.show();
        openFixture(window);
        const Choices kept = choicesOf(window);
        CHECK(kept.axis == RankTimelineView::AxisMode::Sequence);
        CHECK(kept.metric == model::PairMetric::NetworkErrors);
        CHECK(kept.wait == views::DurationChart::Mode::TimeoutTime);
        CHECK_FALSE(kept.wrap);
        CHECK(kept.severity == model::Severity::Error);
        // Kept, though the evidence line the log opened at is not an error line: that line
        // is shown anyway, and the status says so.
        auto* text = window.logViewer()->textView();
        REQUIRE(text->currentLine() > 0);
        CHECK(text->lineFiltered());
        CHECK(window.findChild<QComboBox*>(QStringLiteral("severityFilter"))->currentData().toInt()
            == static_cast<int>(model::Severity::Error));
        CHECK_FALSE(text->lineRect(text->currentLine()).isEmpty());
        REQUIRE(text->lineShownDespiteFilter() == text->currentLine());
        CHECK(window.logViewer()->statusText().contains(QStringLiteral("shown though")));
        // The controls show the kept choices too, not just the views.
        CHECK_FALSE(window.findChild<QToolButton*>(QStringLiteral("wrapLinesButton"))->isChecked());
        CHECK(window.findChild<QComboBox*>(QStringLiteral("waitChartMode"))->currentData().toInt()
            == static_cast<int>(views::DurationChart::Mode::TimeoutTime));
        CHECK(window.findChild<QAction*>(QStringLiteral("sequenceAxisAction"))->isChecked());

        // The menu's axis is kept even when it is the one already shown.
        window.findChild<QAction*>(QStringLiteral("sequenceAxisAction"))->trigger();
        window.findChild<QAction*>(QStringLiteral("timeAxisAction"))->trigger();
        QApplication::processEvents();
        window.close();
    }
    MainWindow window;
    window.show();
    openFixture(window);
    CHECK(window.timeline()->axisMode() == RankTimelineView::AxisMode::Time);
}

TEST_CASE("an axis a new bundle picks for itself is not kept as the user's choice", "[preferences]")
{
    isolateSettings();
    {
        MainWindow window;
        window.show();
        // A paste without a single time opens on the sequence axis: the view's choice.
        QSignalSpy shown(&window, &MainWindow::documentShown);
        REQUIRE(window.addPastedLog(QStringLiteral(
            "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
            "Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n")));
        REQUIRE(waitFor([&] { return shown.count() > 0; }));
        QApplication::processEvents();
        REQUIRE(window.timeline()->axisMode() == RankTimelineView::AxisMode::Sequence);
        window.close();
    }
    MainWindow window;
    window.show();
    openFixture(window);
    CHECK(window.timeline()->axisMode() == RankTimelineView::AxisMode::Time);
}

TEST_CASE("only the axis the user chooses is kept, at once, and never a bundle's default",
    "[preferences]")
{
    isolateSettings();
    const QString key = QStringLiteral("views/timelineAxis");
    MainWindow window;
    window.show();
    RankTimelineView* timeline = window.timeline();
    QSignalSpy chosen(timeline, &RankTimelineView::axisModeChosen);
    // Two bundles with different defaults: the sequence axis for a paste without a single
    // time, then the wall clock for the fixture. Neither is the user's choice.
    QSignalSpy shown(&window, &MainWindow::documentShown);
    REQUIRE(window.addPastedLog(QStringLiteral(
        "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n")));
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    REQUIRE(timeline->axisMode() == RankTimelineView::AxisMode::Sequence);
    openFixture(window);
    REQUIRE(timeline->axisMode() == RankTimelineView::AxisMode::Time);
    waitFor([] { return false; }, 100); // whatever the event loop has pending runs
    CHECK(chosen.isEmpty());
    CHECK_FALSE(timeline->chosenAxisMode());
    CHECK_FALSE(QSettings().contains(key));

    // The timeline's own toolbar button for the axis already shown is a choice too.
    QAction* timeButton = nullptr;
    for (QAction* a : timeline->toolBarActions())
        if (a->text() == QStringLiteral("Time"))
            timeButton = a;
    REQUIRE(timeButton);
    timeButton->trigger();
    // Kept at once, before the event loop runs again (the window may be closed next).
    CHECK(QSettings().value(key).toString() == QStringLiteral("time"));
    CHECK(timeline->chosenAxisMode() == RankTimelineView::AxisMode::Time);
    QTest::keyClick(timeline, Qt::Key_T);
    CHECK(QSettings().value(key).toString() == QStringLiteral("sequence"));
    CHECK(chosen.count() == 2);
}

namespace {

// Whether `edit` draws its placeholder whole: the field at its laid-out width renders the
// same text pixels as the same field with room to spare (an elided hint ends in "…").
bool placeholderShownWhole(QLineEdit* edit, QString* why)
{
    QLineEdit wide;
    wide.setFont(edit->font());
    wide.setPlaceholderText(edit->placeholderText());
    wide.setClearButtonEnabled(edit->isClearButtonEnabled());
    wide.setTextMargins(edit->textMargins());
    QLineEdit same;
    same.setFont(edit->font());
    same.setPlaceholderText(edit->placeholderText());
    same.setClearButtonEnabled(edit->isClearButtonEnabled());
    same.setTextMargins(edit->textMargins());
    const QSize size = edit->size();
    same.resize(size);
    wide.resize(size.width() + 400, size.height());
    const QImage narrowImage = same.grab().toImage();
    const QImage wideImage = wide.grab().toImage();
    // The text area: left of the frame and the clear button's slot on the right.
    const int right = size.width() - 4;
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < right; ++x)
            if (narrowImage.pixel(x, y) != wideImage.pixel(x, y)) {
                *why = QStringLiteral("'%1' %2 px wide differs at (%3, %4)")
                           .arg(edit->placeholderText())
                           .arg(size.width())
                           .arg(x)
                           .arg(y);
                return false;
            }
    return true;
}

} // namespace

TEST_CASE("filter and search fields show their whole placeholder at 1360 x 850 and 1024 x 700",
    "[preferences][narrow]")
{
    isolateSettings();
    MainWindow window;
    window.resize(1360, 850);
    window.show();
    openFixture(window);
    // Every dock that holds a field shown, as a user would open it.
    for (const char* name : { "errorHubDock", "questionsDock" }) {
        QDockWidget* dock = window.dock(QString::fromLatin1(name));
        REQUIRE(dock);
        dock->show();
        dock->raise();
    }
    window.logViewer()->showFind();
    window.findChild<QAction*>(QStringLiteral("searchAllLogsAction"))->trigger();
    for (const QSize size : { QSize(1360, 850), QSize(1024, 700) }) {
        window.resize(size);
        waitFor([] { return false; }, 300);
        QStringList widths;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (dock->isVisible())
                widths << QStringLiteral("%1 %2")
                              .arg(dock->objectName())
                              .arg(dock->minimumSizeHint().width());
        INFO(widths.join(QStringLiteral(", ")).toStdString());
        CHECK(window.width() <= size.width());
        int checked = 0;
        for (QWidget* top : QApplication::topLevelWidgets()) {
            if (!top->isVisible())
                continue;
            for (QLineEdit* edit : top->findChildren<QLineEdit*>()) {
                if (!edit->isVisible() || edit->placeholderText().isEmpty())
                    continue;
                INFO(size.width() << " x " << size.height() << ": "
                                  << edit->placeholderText().toStdString());
                CHECK(edit->width() >= views::placeholderWidth(edit));
                QString why;
                CHECK(placeholderShownWhole(edit, &why));
                INFO(why.toStdString());
                ++checked;
            }
        }
        // Ranks filter, log find, search all logs, the error hub and the question box.
        CHECK(checked >= 5);
        window.grab().save(
            shotPath(QStringLiteral("fields-%1x%2.png").arg(size.width()).arg(size.height())));
    }
}

TEST_CASE("a field's placeholder width follows its text size", "[preferences]")
{
    QLineEdit edit;
    edit.setPlaceholderText(QStringLiteral("Ranks (0-3,7) or text"));
    edit.setClearButtonEnabled(true);
    views::keepPlaceholderVisible(&edit);
    const int normal = edit.minimumWidth();
    CHECK(normal >= edit.fontMetrics().horizontalAdvance(edit.placeholderText()));
    QFont larger = edit.font();
    larger.setPointSizeF(larger.pointSizeF() * 2);
    edit.setFont(larger);
    CHECK(edit.minimumWidth() > normal * 3 / 2);
    edit.resize(edit.minimumWidth(), edit.sizeHint().height());
    QString why;
    CHECK(placeholderShownWhole(&edit, &why));
    INFO(why.toStdString());
}
