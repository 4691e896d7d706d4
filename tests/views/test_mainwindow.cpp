// The main window through the real loading path: background load, staged results,
// superseded and cancelled loads, load errors, title and status bar, docks, screenshot.
#include "viewtestsupport.h"
#include "clippedwidgets.h"

#include "app/gui/documentloader.h"
#include "app/gui/mainwindow.h"
#include "app/gui/rankspanel.h"
#include "app/gui/recentbundles.h"
#include "views/importissuesmodel.h"
#include "views/importissuesview.h"
#include "views/rootcausepanel.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/selectionstate.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QUrl>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>

using namespace rankscope;
using namespace rankscope::testing;
using app::MainWindow;

namespace {

const QString kFixture = QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks");
const QString kInconclusive = QStringLiteral(RANKSCOPE_TEST_DATA "/views/inconclusive-excerpt");

} // namespace

TEST_CASE(
    "main window loads a bundle in the background and shows the verdict everywhere", "[mainwindow]")
{
    isolateSettings();
    app::RecentBundles::clear();
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    CHECK(window.welcomeShown());

    QSignalSpy shown(&window, &MainWindow::documentShown);
    QSignalSpy summary(window.loader(), &app::DocumentLoader::summaryReady);
    window.openPaths({ kFixture });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    CHECK(summary.count() == 1); // the bundle summary came first
    CHECK_FALSE(window.welcomeShown());
    CHECK_FALSE(window.loader()->isLoading());

    const views::DocumentPtr doc = window.document();
    REQUIRE(doc);
    REQUIRE(doc->diagnosis);
    CHECK(window.windowTitle().contains(QStringLiteral("straggler-8ranks")));
    CHECK(window.windowTitle().contains(QStringLiteral("straggler stall")));
    CHECK(window.bundleInfoText().contains(QStringLiteral("8 ranks seen")));
    CHECK(window.verdictText().contains(QStringLiteral("Hang diagnosed")));
    CHECK(window.verdictText().contains(QStringLiteral("rank 6")));

    // Landed on the answer: the cause is selected and the log is open at its evidence.
    CHECK(window.selection()->selectedRank() == 6);
    const model::EvidenceRef first = doc->diagnosis->findings.front().evidence.front().ref;
    CHECK(window.logViewer()->currentSource() == first.source);
    CHECK(window.logViewer()->textView()->currentLine() == first.line);

    // Every dock is there and visible by default; each can be toggled from the View menu.
    for (const QString& name : { QStringLiteral("rootCauseDock"), QStringLiteral("heatmapDock"),
             QStringLiteral("ranksDock"), QStringLiteral("logDock"), QStringLiteral("chartsDock"),
             QStringLiteral("issuesDock") }) {
        QDockWidget* dock = window.dock(name);
        REQUIRE(dock);
        CHECK_FALSE(dock->isHidden());
        dock->toggleViewAction()->trigger();
        CHECK(dock->isHidden());
        dock->toggleViewAction()->trigger();
        CHECK_FALSE(dock->isHidden());
        dock->raise();
    }
    window.dock(QStringLiteral("ranksDock"))->raise();
    window.dock(QStringLiteral("chartsDock"))->raise();
    window.resetLayout();
    QCoreApplication::processEvents();
    CHECK(window.dock(QStringLiteral("rootCauseDock"))->width() > window.width() / 5);

    QCoreApplication::processEvents();
    const QImage image = window.grab().toImage();
    image.save(shotPath(QStringLiteral("mainwindow.png")));
    CHECK(distinctColours(image) > 30);

    const QList<QStringList> recent = app::RecentBundles::load();
    REQUIRE_FALSE(recent.isEmpty());
    CHECK(recent.front().front() == QFileInfo(kFixture).absoluteFilePath());

    const auto shortcuts = window.shortcutList();
    const auto has = [&](const QString& text) {
        return std::any_of(shortcuts.begin(), shortcuts.end(),
            [&](const auto& row) { return row.first.contains(text); });
    };
    CHECK(has(QStringLiteral("Open Folder")));
    CHECK(has(QStringLiteral("Find in log")));
    CHECK(has(QStringLiteral("Root cause")));
}

TEST_CASE("opening another bundle while one loads drops the first one", "[mainwindow]")
{
    isolateSettings();
    MainWindow window;
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openPaths({ kFixture });
    window.openPaths({ kInconclusive });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    window.loader()->waitForIdle();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    CHECK(shown.count() == 1);
    REQUIRE(window.document());
    CHECK(window.document()->inputPaths.front() == kInconclusive.toStdString());
    CHECK(window.verdictText().startsWith(QStringLiteral("Inconclusive")));
}

TEST_CASE("cancel stops a load and nothing arrives afterwards", "[mainwindow]")
{
    isolateSettings();
    MainWindow window;
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    QSignalSpy cancelled(window.loader(), &app::DocumentLoader::cancelled);
    window.openPaths({ kFixture });
    window.loader()->cancel();
    CHECK(cancelled.count() == 1);
    CHECK_FALSE(window.loader()->isLoading());
    window.loader()->waitForIdle();
    waitFor([] { return false; }, 300);
    CHECK(shown.count() == 0);
    CHECK(window.welcomeShown()); // nothing was open before: back to the welcome page
}

TEST_CASE("a bundle that cannot be loaded is reported, not crashed on", "[mainwindow]")
{
    isolateSettings();
    MainWindow window;
    window.show();
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openPaths({ QStringLiteral("/nonexistent/rankscope/bundle") });
    REQUIRE(waitFor([&] { return failed.count() > 0; }));
    CHECK_FALSE(failed.front().front().toString().isEmpty());
    auto* issues = window.findChild<QTableView*>(QStringLiteral("importIssuesTable"));
    REQUIRE(issues);
    REQUIRE(issues->model()->rowCount() >= 1);
    CHECK(issues->model()->index(0, 0).data(views::ImportIssuesModel::IsErrorRole).toBool());
    CHECK(window.dock(QStringLiteral("issuesDock"))->isVisible());
    window.grab().save(shotPath(QStringLiteral("mainwindow-load-error.png")));

    // The window still works: a good bundle loads afterwards.
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openPaths({ kFixture });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
}

TEST_CASE("welcome page screenshot lists recent bundles", "[mainwindow]")
{
    isolateSettings();
    app::RecentBundles::clear();
    app::RecentBundles::add({ kFixture });
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    CHECK(window.welcomeShown());
    window.grab().save(shotPath(QStringLiteral("welcome.png")));
    app::RecentBundles::clear();
    CHECK(app::RecentBundles::load().isEmpty());
}

TEST_CASE("main window screenshot in a dark palette", "[mainwindow]")
{
    isolateSettings();
    const QPalette light = QGuiApplication::palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x2d, 0x2d, 0x2d));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    dark.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb5));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::PlaceholderText, QColor(0x9e, 0x9e, 0x9e));
    QApplication::setPalette(dark);
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy shown(&window, &MainWindow::documentShown);
        window.openPaths({ kFixture });
        REQUIRE(waitFor([&] { return shown.count() > 0; }));
        waitFor([] { return false; }, 200);
        const QImage image = window.grab().toImage();
        image.save(shotPath(QStringLiteral("mainwindow-dark.png")));
        CHECK(distinctColours(image) > 30);
        CHECK(QColor(image.pixel(image.width() / 2, image.height() / 2)).lightness() < 128);
    }
    QApplication::setPalette(light);
}

TEST_CASE("dropping a folder on the window opens it", "[mainwindow]")
{
    isolateSettings();
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(kFixture) });
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    CHECK(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    CHECK(window.document()->inputPaths.front() == kFixture.toStdString());
}

TEST_CASE("main window fits 1024 x 700 with a bundle open and the verdict still wraps",
    "[mainwindow][narrow]")
{
    isolateSettings();
    MainWindow window;
    window.resize(1360, 850);
    window.show();
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openPaths({ kFixture });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    window.resize(1024, 700);
    waitFor([] { return false; }, 300);
    INFO("minimum size hint " << window.minimumSizeHint().width() << " x "
                              << window.minimumSizeHint().height());
    // Which part holds the window wide, when it does.
    QStringList widths;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        widths << QStringLiteral("%1 %2").arg(dock->objectName()).arg(dock->minimumSizeHint().width());
    widths << QStringLiteral("statusBar %1").arg(window.statusBar()->minimumSizeHint().width());
    widths << QStringLiteral("central %1").arg(window.centralWidget()->minimumSizeHint().width());
    for (const char* dockName : { "chartsDock", "ranksDock" })
        for (QWidget* w : window.dock(QString::fromLatin1(dockName))->widget()->findChildren<QWidget*>())
            if (w->isVisible() && w->minimumSizeHint().width() > 120)
                widths << QStringLiteral("%1/%2 %3")
                              .arg(QString::fromLatin1(dockName),
                                  QString::fromLatin1(w->metaObject()->className()))
                              .arg(w->minimumSizeHint().width());
    INFO(widths.join(QStringLiteral(", ")).toStdString());
    CHECK(window.width() <= 1024);
    CHECK(window.height() <= 700);
    views::RootCausePanel* panel = window.rootCausePanel();
    REQUIRE(panel);
    CHECK(panel->isVisible());
    CHECK(panel->width() > 150);
    const QStringList clipped = testing::clippedWidgets(*panel);
    INFO(clipped.join(QLatin1Char('\n')).toStdString());
    CHECK(clipped.isEmpty());
    const QImage image = window.grab().toImage();
    image.save(shotPath(QStringLiteral("mainwindow-1024x700.png")));
    CHECK(distinctColours(image) > 30);
    // Grown again, the root-cause panel gets its share back (QMainWindow alone gives every
    // new pixel to the timeline).
    QDockWidget* rootCause = window.dock(QStringLiteral("rootCauseDock"));
    const int narrow = rootCause->width();
    window.resize(1600, 1000);
    waitFor([] { return false; }, 300);
    INFO("root cause dock " << narrow << " px at 1024, " << rootCause->width() << " px at 1600");
    CHECK(rootCause->width()
        >= std::min(rootCause->sizeHint().width(), window.width() * 30 / 100) - 8);
    CHECK(rootCause->width() > narrow);
}

TEST_CASE("while a bundle loads the empty views say so, and an issue-free bundle says none",
    "[mainwindow][loading]")
{
    isolateSettings();
    MainWindow window;
    window.resize(1360, 850);
    window.show();
    auto* issues = qobject_cast<views::ImportIssuesView*>(
        window.findChild<QTableView*>(QStringLiteral("importIssuesTable")));
    REQUIRE(issues);
    QSignalSpy shown(&window, &MainWindow::documentShown);
    window.openPaths({ kFixture });
    CHECK(window.selection()->isLoading());
    CHECK(issues->emptyText() == QStringLiteral("Loading…"));
    CHECK(window.ranksPanel()->countText() == QStringLiteral("Loading…"));
    window.grab().save(shotPath(QStringLiteral("mainwindow-loading.png")));
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    CHECK_FALSE(window.selection()->isLoading());
    CHECK(issues->emptyText().startsWith(QStringLiteral("No import issues")));
    CHECK(window.ranksPanel()->countText() == QStringLiteral("8 of 8 ranks"));
}
