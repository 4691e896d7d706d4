// Paste a log: Edit → Paste Log (Ctrl+V), the welcome page's paste area and text dropped
// from another application load the text as a log and diagnose it like the file.
#include "viewtestsupport.h"
#include "app/gui/documentloader.h"
#include "app/gui/mainwindow.h"
#include "app/gui/pastearea.h"
#include "app/gui/pastedlogs.h"
#include "app/gui/recentbundles.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QClipboard>
#include <QCoreApplication>
#include <QDir>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

using namespace rankscope;
using namespace rankscope::testing;
using app::MainWindow;

namespace {

// A real user's paste: PyTorch's desync report names rank 7 (it never joined).
const QString kExcerpt = QStringLiteral(RANKSCOPE_TEST_DATA "/real/pytorch152623-desync-report-rank7/console.log");

QString textOf(const QString& path)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return QString::fromUtf8(f.readAll());
}

QStringList sourceNames(const views::DocumentPtr& doc)
{
    QStringList out;
    for (const auto& s : doc->bundle->sources)
        out << QString::fromStdString(s.path);
    return out;
}

// Waits for the next document the window shows after `trigger`.
views::DocumentPtr shownAfter(MainWindow& window, const std::function<void()>& trigger)
{
    QSignalSpy shown(&window, &MainWindow::documentShown);
    trigger();
    REQUIRE(waitFor([&] { return shown.count() > 0 && !window.loader()->isLoading(); }));
    return window.document();
}

} // namespace

TEST_CASE("pasted logs are named pasted-N, or by the rank the user gives", "[paste]")
{
    app::PastedLogs logs;
    CHECK_FALSE(logs.add(QStringLiteral("  \n\t ")));
    CHECK(logs.add(QStringLiteral("a")) == QStringLiteral("pasted-1.log"));
    CHECK(logs.add(QStringLiteral("b")) == QStringLiteral("pasted-2.log"));
    CHECK(logs.add(QStringLiteral("c"), 5) == QStringLiteral("rank5-pasted.log"));
    CHECK(logs.add(QStringLiteral("d"), 5) == QStringLiteral("rank5-pasted-2.log"));
    CHECK(logs.list().size() == 4);
    CHECK(*logs.list()[2].text == "c");
    logs.clear();
    CHECK(logs.add(QStringLiteral("e")) == QStringLiteral("pasted-1.log"));
}

TEST_CASE("Ctrl+V pastes the clipboard as a log with the file's verdict", "[paste]")
{
    isolateSettings();
    app::RecentBundles::clear();
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));

    const views::DocumentPtr fromFile = shownAfter(window, [&] { window.openPaths({ kExcerpt }); });
    REQUIRE(fromFile->diagnosis);
    CHECK(fromFile->diagnosis->initiatingRanks == std::vector<std::int32_t> { 7 });

    // A fresh window, nothing open: the paste alone is the bundle.
    app::RecentBundles::clear();
    MainWindow pasted;
    pasted.resize(1400, 900);
    pasted.show();
    REQUIRE(QTest::qWaitForWindowExposed(&pasted));
    QGuiApplication::clipboard()->setText(textOf(kExcerpt));
    pasted.activateWindow();
    pasted.setFocus();
    const views::DocumentPtr doc = shownAfter(pasted, [&] { QTest::keyClick(&pasted, Qt::Key_V, Qt::ControlModifier); });
    REQUIRE(doc->diagnosis);
    CHECK(sourceNames(doc) == QStringList { QStringLiteral("pasted-1.log") });
    CHECK(doc->diagnosis->status == fromFile->diagnosis->status);
    CHECK(doc->diagnosis->rootCause == fromFile->diagnosis->rootCause);
    CHECK(doc->diagnosis->initiatingRanks == fromFile->diagnosis->initiatingRanks);
    CHECK(app::RecentBundles::load().isEmpty()); // text has no path to reopen

    // A second paste joins the first; opening a folder lets both go.
    QGuiApplication::clipboard()->setText(QStringLiteral("unrelated terminal output\n"));
    const views::DocumentPtr two = shownAfter(pasted, [&] { pasted.findChild<QAction*>(QStringLiteral("pasteLogAction"))->trigger(); });
    CHECK(sourceNames(two) == (QStringList { QStringLiteral("pasted-1.log"), QStringLiteral("pasted-2.log") }));
    const views::DocumentPtr folder = shownAfter(pasted, [&] { pasted.openPaths({ QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks") }); });
    CHECK_FALSE(sourceNames(folder).contains(QStringLiteral("pasted-1.log")));
    CHECK(pasted.pastedLogs().empty());
    pasted.grab().save(shotPath(QStringLiteral("paste-after-folder.png")));
}

TEST_CASE("the welcome page's paste area diagnoses what is typed or pasted into it", "[paste]")
{
    isolateSettings();
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    REQUIRE(window.welcomeShown());
    auto* area = window.findChild<app::PasteArea*>(QStringLiteral("pasteArea"));
    REQUIRE(area);
    CHECK_FALSE(area->diagnoseButton()->isEnabled());
    area->editor()->setPlainText(textOf(kExcerpt));
    area->rankBox()->setValue(0); // the excerpt is rank 0's terminal
    CHECK(area->diagnoseButton()->isEnabled());
    window.grab().save(shotPath(QStringLiteral("paste-welcome.png")));

    const views::DocumentPtr doc = shownAfter(window, [&] { area->diagnoseButton()->click(); });
    CHECK(sourceNames(doc) == QStringList { QStringLiteral("rank0-pasted.log") });
    REQUIRE(doc->diagnosis);
    CHECK(doc->diagnosis->initiatingRanks == std::vector<std::int32_t> { 7 });
    CHECK(area->editor()->toPlainText().isEmpty());
    window.grab().save(shotPath(QStringLiteral("paste-diagnosed.png")));
}

TEST_CASE("text dropped from another application is a pasted log", "[paste]")
{
    isolateSettings();
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QMimeData mime;
    mime.setText(textOf(kExcerpt));
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    CHECK(enter.isAccepted());
    const views::DocumentPtr doc = shownAfter(window, [&] {
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
    });
    CHECK(sourceNames(doc) == QStringList { QStringLiteral("pasted-1.log") });
}
