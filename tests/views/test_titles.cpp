// Titles read whole at the default window size and the smallest supported one: the tabs of
// docks stacked in one area and the titles and axis titles of the charts are never elided
// ("Ch…", "sequence num...").
#include "viewtestsupport.h"

#include "app/gui/mainwindow.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QSignalSpy>
#include <QStyle>
#include <QTabBar>

using namespace rankscope;
using namespace rankscope::testing;

namespace {

// Qt Charts ends a title or label it had to cut with "..."; a QTabBar draws an elided tab
// narrower than its text and padding.
QStringList elidedChartTexts(QChartView* view)
{
    QStringList cut;
    for (QGraphicsItem* item : view->chart()->scene()->items()) {
        const auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible())
            continue;
        const QString plain = text->toPlainText();
        if (plain.contains(QStringLiteral("...")) || plain.contains(QChar(0x2026)))
            cut << plain;
    }
    return cut;
}

QStringList elidedTabs(QTabBar* bar)
{
    QStringList cut;
    const int padding = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
    for (int i = 0; i < bar->count(); ++i) {
        const QRect tab = bar->tabRect(i);
        const int needed = bar->fontMetrics().horizontalAdvance(bar->tabText(i)) + padding;
        if (tab.width() < needed || !bar->rect().contains(tab))
            cut << QStringLiteral("%1 (%2 px of %3)")
                       .arg(bar->tabText(i))
                       .arg(tab.width())
                       .arg(needed);
    }
    return cut;
}

} // namespace

TEST_CASE("dock tabs and chart titles read whole at 1360 x 850 and 1024 x 700",
    "[mainwindow][narrow][screenshot]")
{
    isolateSettings();
    app::MainWindow window;
    window.resize(1360, 850);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::documentShown);
    window.openPaths({ QStringLiteral(RANKSCOPE_SAMPLES_DIR "/hung-allreduce") });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    for (const QSize size : { QSize(1360, 850), QSize(1024, 700) }) {
        window.resize(size);
        waitFor([] { return false; }, 300);
        INFO(size.width() << " x " << size.height());
        window.grab().save(
            shotPath(QStringLiteral("titles-%1x%2.png").arg(size.width()).arg(size.height())));
        int bars = 0;
        for (QTabBar* bar : window.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (!bar->isVisible())
                continue;
            ++bars;
            const QStringList cut = elidedTabs(bar);
            INFO("elided tabs: " << cut.join(QStringLiteral(", ")).toStdString());
            CHECK(cut.isEmpty());
        }
        CHECK(bars >= 2); // the right-hand docks and the ranks / import issues pair
        int charts = 0;
        for (QChartView* view : window.findChildren<QChartView*>()) {
            if (!view->isVisible())
                continue;
            ++charts;
            const QStringList cut = elidedChartTexts(view);
            INFO("cut chart texts: " << cut.join(QStringLiteral(" | ")).toStdString());
            CHECK(cut.isEmpty());
        }
        CHECK(charts == 2);
    }
}
