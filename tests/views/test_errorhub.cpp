// The NCCL Error Hub: the whole catalogue browsable, a pasted line explained, related entries
// side by side, and "What does this line mean?" from the root-cause panel and the log viewer.
#include "viewtestsupport.h"
#include "app/core/explainline.h"
#include "app/gui/errorhub.h"
#include "app/gui/mainwindow.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/rootcausepanel.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QTreeWidget>

#include <memory>

using namespace rankscope;
using namespace rankscope::testing;

namespace {

const char* const kWatchdogLine
    = "[rank0]:[E1203 10:00:01.000000000 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=19, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600076 "
      "milliseconds before timing out.";

} // namespace

TEST_CASE("the error hub lists every catalogue entry by family", "[errorhub]")
{
    const parsers::ErrorCatalogue* catalogue = app::builtInErrorCatalogue();
    REQUIRE(catalogue);
    app::ErrorHub hub(catalogue);
    CHECK(hub.listedEntries() == static_cast<int>(catalogue->entries().size()));
    CHECK(hub.listedEntries() >= 70);
    QStringList families;
    for (int i = 0; i < hub.entryList()->topLevelItemCount(); ++i)
        families << hub.entryList()->topLevelItem(i)->text(0);
    CHECK(families.contains(QStringLiteral("NVIDIA Xid events")));
    CHECK(families.contains(QStringLiteral("PyTorch c10d")));
    for (const QString& f : families)
        CHECK_FALSE(f.contains(QLatin1Char('_'))); // words, not the catalogue's ids
}

TEST_CASE("a pasted line opens the entry that explains it; related entries compare side by side", "[errorhub]")
{
    app::ErrorHub hub(app::builtInErrorCatalogue());
    hub.resize(520, 760);
    hub.show();
    hub.explain(QString::fromLatin1(kWatchdogLine));
    CHECK(hub.currentEntryId() == QStringLiteral("c10d.watchdog_timeout"));
    const QString details = hub.details()->toPlainText();
    CHECK(details.contains(QStringLiteral("What it does not mean")));
    CHECK(details.contains(QStringLiteral("Causes it points to")));
    CHECK_FALSE(details.contains(QStringLiteral("straggler_stall"))); // class words, not ids
    hub.grab().save(shotPath(QStringLiteral("errorhub-entry.png")));

    // The "compare side by side" link of a related entry.
    const QString html = hub.details()->toHtml();
    CHECK(html.contains(QStringLiteral("compare:c10d.watchdog_timeout:c10d.desync_report")));
    Q_EMIT hub.details()->anchorClicked(QUrl(QStringLiteral("compare:c10d.watchdog_timeout:c10d.desync_report")));
    const QString side = hub.details()->toPlainText();
    CHECK(side.contains(QStringLiteral("Side by side")));
    CHECK(side.contains(QStringLiteral("Does not mean")));
    hub.grab().save(shotPath(QStringLiteral("errorhub-compare.png")));

    hub.explain(QStringLiteral("words that no entry holds zzqx"));
    CHECK(hub.listedEntries() == 0);
    hub.explain(QString());
    CHECK(hub.listedEntries() == static_cast<int>(app::builtInErrorCatalogue()->entries().size()));
}

TEST_CASE("'What does this line mean?' opens the hub from the verdict and from the log", "[errorhub]")
{
    QStandardPaths::setTestModeEnabled(true);
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QSignalSpy shown(&window, &app::MainWindow::documentShown);
    window.openPaths({ QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks") });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    QDockWidget* hubDock = window.dock(QStringLiteral("errorHubDock"));
    REQUIRE(hubDock);

    // The watchdog evidence line of the verdict has the link; a line no entry knows has none.
    const auto links = window.rootCausePanel()->findChildren<QLabel*>(QStringLiteral("explainLink"));
    REQUIRE_FALSE(links.isEmpty());
    CHECK(links.size() < window.rootCausePanel()->findChildren<QWidget*>(QStringLiteral("evidenceRow")).size());
    Q_EMIT links.front()->linkActivated(QStringLiteral("explain"));
    CHECK(window.errorHub()->isVisible());
    CHECK(window.errorHub()->currentEntryId() == QStringLiteral("c10d.watchdog_timeout"));
    window.grab().save(shotPath(QStringLiteral("errorhub-mainwindow.png")));

    // The log viewer's context menu on the watchdog line.
    views::LogTextView* text = window.logViewer()->textView();
    std::uint64_t watchdog = 0;
    for (std::uint64_t line = 1; line <= 40 && watchdog == 0; ++line)
        if (text->lineString(line).contains(QStringLiteral("Watchdog caught")))
            watchdog = line;
    if (watchdog == 0) {
        // The first evidence line opened may be another rank's: open rank 0's log.
        for (const auto& s : window.document()->bundle->sources)
            if (QString::fromStdString(s.path).contains(QStringLiteral("rank0")))
                window.logViewer()->openSource(s.id);
        for (std::uint64_t line = 1; line <= 40 && watchdog == 0; ++line)
            if (text->lineString(line).contains(QStringLiteral("Watchdog caught")))
                watchdog = line;
    }
    REQUIRE(watchdog > 0);
    text->goToLine(watchdog);
    QCoreApplication::processEvents();
    const QRect rect = text->lineRect(watchdog);
    REQUIRE_FALSE(rect.isEmpty());
    std::unique_ptr<QMenu> menu(text->createContextMenu(rect.center()));
    QAction* explain = menu->findChild<QAction*>(QStringLiteral("explainLineAction"));
    REQUIRE(explain);
    CHECK(explain->isEnabled());
    window.errorHub()->explain(QString());
    explain->trigger();
    CHECK(window.errorHub()->currentEntryId() == QStringLiteral("c10d.watchdog_timeout"));
}
