// Moving between the main window's panels with the keyboard: Tab leaves the ranks table,
// F6 / Shift+F6 cycle the panels, Alt+N focuses (never hides) dock N, a frame marks the
// panel the keyboard moved to, and the shortcuts dialog lists these keys.
#include "viewtestsupport.h"
#include "app/gui/mainwindow.h"
#include "app/gui/rankspanel.h"
#include "views/ranktimelineview.h"
#include "views/selectionstate.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include <algorithm>
#include <functional>

using namespace rankscope;
using namespace rankscope::testing;
using app::MainWindow;

namespace {

const QString kFixture = QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks");

// A window with the straggler bundle open, active so that focus and shortcuts work.
struct OpenWindow {
    MainWindow window;

    OpenWindow()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
        // Settings of their own: opening a bundle writes the recent list, which the other
        // window tests (run in parallel by ctest) read back.
        QCoreApplication::setApplicationName(QStringLiteral("rankscope-navigation-tests"));
        window.resize(1360, 850);
        window.show();
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPaths({ kFixture });
        REQUIRE(waitFor([&] { return shown.count() > 0; }));
        window.activateWindow();
        REQUIRE(QTest::qWaitForWindowActive(&window));
        QCoreApplication::processEvents();
    }

    QWidget* focusFrame() const
    {
        return window.findChild<QWidget*>(QStringLiteral("panelFocusFrame"));
    }
    bool focusInside(const QWidget* panel) const
    {
        const QWidget* focus = QApplication::focusWidget();
        return focus && (focus == panel || panel->isAncestorOf(focus));
    }
};

} // namespace

TEST_CASE("Tab leaves the ranks table instead of walking its cells", "[mainwindow][keys]")
{
    OpenWindow w;
    QTableView* table = w.window.ranksPanel()->table();
    w.window.dock(QStringLiteral("ranksDock"))->raise();
    table->setFocus(Qt::MouseFocusReason);
    REQUIRE(QApplication::focusWidget() == table);
    const int rank = w.window.selection()->selectedRank();
    REQUIRE(rank >= 0);

    for (int i = 0; i < 3; ++i) {
        table->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(table, Qt::Key_Tab);
        CHECK(QApplication::focusWidget() != table);
        CHECK(w.window.selection()->selectedRank() == rank);
    }
    table->setFocus(Qt::MouseFocusReason);
    QTest::keyClick(table, Qt::Key_Backtab, Qt::ShiftModifier);
    CHECK(QApplication::focusWidget() != table);
    CHECK(w.window.selection()->selectedRank() == rank);

    // The first Tab already shows where the focus went.
    QWidget* frame = w.focusFrame();
    REQUIRE(frame);
    CHECK(frame->isVisible());
    w.window.grab().save(shotPath(QStringLiteral("navigation-tab-frame.png")));
    // A click is its own pointer: no frame.
    table->setFocus(Qt::MouseFocusReason);
    CHECK_FALSE(frame->isVisible());
}

TEST_CASE("F6 and Shift+F6 cycle the focus through the timeline and the visible docks",
    "[mainwindow][keys]")
{
    OpenWindow w;
    w.window.timeline()->setFocus(Qt::MouseFocusReason);
    QList<QWidget*> visited;
    for (int i = 0; i < 12; ++i) {
        QTest::keyClick(&w.window, Qt::Key_F6);
        QWidget* focus = QApplication::focusWidget();
        REQUIRE(focus);
        QWidget* panel = nullptr;
        for (QDockWidget* dock : w.window.findChildren<QDockWidget*>()) {
            if (dock->isAncestorOf(focus))
                panel = dock;
        }
        if (!panel && w.window.centralWidget()->isAncestorOf(focus))
            panel = w.window.centralWidget();
        REQUIRE(panel);
        CHECK(panel->isVisible());
        if (!visited.contains(panel))
            visited << panel;
    }
    // Every visible dock and the centre were reached.
    int visibleDocks = 0;
    for (QDockWidget* dock : w.window.findChildren<QDockWidget*>())
        visibleDocks += dock->isVisible() ? 1 : 0;
    CHECK(visited.size() == visibleDocks + 1);
    CHECK(visited.contains(w.window.centralWidget()));

    // Shift+F6 goes back the way F6 came.
    w.window.timeline()->setFocus(Qt::MouseFocusReason);
    QTest::keyClick(&w.window, Qt::Key_F6);
    QWidget* afterTimeline = QApplication::focusWidget();
    QTest::keyClick(&w.window, Qt::Key_F6, Qt::ShiftModifier);
    CHECK(QApplication::focusWidget() == w.window.timeline());
    QTest::keyClick(&w.window, Qt::Key_F6);
    CHECK(QApplication::focusWidget() == afterTimeline);
    QWidget* frame = w.focusFrame();
    REQUIRE(frame);
    CHECK(frame->isVisible());
    waitFor([] { return false; }, 100);
    w.window.grab().save(shotPath(QStringLiteral("navigation-f6-frame.png")));
}

TEST_CASE("Alt+N shows, raises and focuses dock N and never hides it", "[mainwindow][keys]")
{
    OpenWindow w;
    QDockWidget* ranks = w.window.dock(QStringLiteral("ranksDock"));
    QDockWidget* issues = w.window.dock(QStringLiteral("issuesDock"));
    REQUIRE(ranks);
    REQUIRE(issues);
    issues->raise(); // the ranks dock is now a tab behind it
    waitFor([&] { return !ranks->isVisible(); }, 1000);
    INFO("ranks dock visible behind the issues tab: " << ranks->isVisible() << ", tabified with "
                                                     << w.window.tabifiedDockWidgets(ranks).size());

    // The ranks dock is the third in the View menu: Alt+3.
    for (int press = 0; press < 2; ++press) {
        QTest::keyClick(&w.window, Qt::Key_3, Qt::AltModifier);
        QCoreApplication::processEvents();
        CHECK(ranks->isVisible());
        CHECK(w.focusInside(ranks));
        CHECK_FALSE(ranks->visibleRegion().isEmpty()); // raised in front of the issues tab
    }
    // A closed dock opens again.
    ranks->close();
    REQUIRE(ranks->isHidden());
    QTest::keyClick(&w.window, Qt::Key_3, Qt::AltModifier);
    CHECK(ranks->isVisible());
    CHECK(w.focusInside(ranks));
    // Alt+0 is the timeline.
    QTest::keyClick(&w.window, Qt::Key_0, Qt::AltModifier);
    CHECK(QApplication::focusWidget() == w.window.timeline());
    // The View menu's toggles still hide.
    ranks->toggleViewAction()->trigger();
    CHECK(ranks->isHidden());
}

TEST_CASE("the shortcuts dialog lists the panel and timeline navigation keys", "[mainwindow][keys]")
{
    MainWindow window;
    const auto rows = window.shortcutList();
    const auto has = [&](const QString& text, const QString& keys) {
        return std::any_of(rows.begin(), rows.end(),
            [&](const auto& row) { return row.first.contains(text) && row.second.contains(keys); });
    };
    CHECK(has(QStringLiteral("Next Panel"), QStringLiteral("F6")));
    CHECK(has(QStringLiteral("Previous Panel"), QStringLiteral("Shift+F6")));
    CHECK(has(QStringLiteral("Go to Root cause"), QStringLiteral("Alt+1")));
    CHECK(has(QStringLiteral("Go to Timeline"), QStringLiteral("Alt+0")));
    CHECK(has(QStringLiteral("first / last rank"), QStringLiteral("Home / End")));
    CHECK(has(QStringLiteral("go to rank"), QStringLiteral("Ctrl+G")));
    CHECK(has(QStringLiteral("leaves a table"), QStringLiteral("Tab")));
    // The dock toggles no longer carry Alt+N (it would hide a panel Alt+N should focus).
    CHECK(std::count_if(rows.begin(), rows.end(),
              [](const auto& row) { return row.second == QStringLiteral("Alt+1"); })
        == 1);
}
