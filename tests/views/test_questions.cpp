// Follow-up questions in the app: "why this rank?" on the selection any view made, "why this
// pair?" on a heatmap cell, "who reached it?" on a collective, and the question box; ranks in
// the answers are links back into the views.
#include "viewtestsupport.h"
#include "app/core/followup.h"
#include "app/gui/mainwindow.h"
#include "app/gui/questionspanel.h"
#include "views/ranktimelineview.h"
#include "views/selectionstate.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QUrl>

using namespace rankscope;
using namespace rankscope::testing;

namespace {

void open(app::MainWindow& window, const QString& path)
{
    QSignalSpy shown(&window, &app::MainWindow::documentShown);
    window.openPaths({ path });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
}

} // namespace

TEST_CASE("why this rank, who reached it, and typed questions answer from the selection", "[questions]")
{
    QStandardPaths::setTestModeEnabled(true);
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    open(window, QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks"));
    app::QuestionsPanel* panel = window.questionsPanel();
    REQUIRE(panel);
    QDockWidget* dock = window.dock(QStringLiteral("questionsDock"));
    REQUIRE(dock);

    // The verdict's rank (6) and a collateral one, selected as any view selects them.
    window.selection()->selectRank(6);
    window.findChild<QAction*>(QStringLiteral("whyRankAction"))->trigger();
    CHECK(panel->isVisible());
    CHECK(panel->answerText().contains(QStringLiteral("Named by the verdict as the initiating rank")));
    window.grab().save(shotPath(QStringLiteral("questions-why-rank.png")));
    window.selection()->selectRank(2);
    window.findChild<QAction*>(QStringLiteral("whyRankAction"))->trigger();
    CHECK(panel->answerText().contains(QStringLiteral("Collateral")));

    // A rank in the answer is a link that selects it.
    Q_EMIT panel->answer()->anchorClicked(QUrl(QStringLiteral("rank:6")));
    CHECK(window.selection()->selectedRank() == 6);

    // Typed: who never reached the stuck collective.
    const qint64 stuck = window.document()->diagnosis->stuckCollective->seq;
    panel->questionBox()->setText(QStringLiteral("which ranks never reached #%1?").arg(stuck));
    QTest::keyClick(panel->questionBox(), Qt::Key_Return);
    CHECK(panel->answerText().contains(QStringLiteral("Collective #%1 on process group").arg(stuck)));
    CHECK(panel->answerText().contains(QStringLiteral("never reached it")));
    CHECK_FALSE(panel->ask(QStringLiteral("why did it hang")));
    CHECK(panel->answerText().contains(QStringLiteral("Not understood")));

    // The stepped collective.
    window.selection()->selectSeq(stuck);
    window.findChild<QAction*>(QStringLiteral("whoReachedAction"))->trigger();
    CHECK(panel->answerText().contains(QStringLiteral("Collective #%1").arg(stuck)));
}

TEST_CASE("why this pair answers for the selected heatmap cell", "[questions]")
{
    QStandardPaths::setTestModeEnabled(true);
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    open(window, QStringLiteral(RANKSCOPE_TEST_DATA "/scenarios/ib-pair-status12"));
    const auto& pair = window.document()->diagnosis->stuckPair;
    REQUIRE(pair);
    window.selection()->selectPair(pair->first, pair->second);
    window.findChild<QAction*>(QStringLiteral("whyPairAction"))->trigger();
    CHECK(window.questionsPanel()->answerText().contains(QStringLiteral("The verdict names the link between them")));
    window.grab().save(shotPath(QStringLiteral("questions-why-pair.png")));
}

TEST_CASE("stepping, zooming and asking are disabled until a bundle is open", "[questions]")
{
    QStandardPaths::setTestModeEnabled(true);
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    REQUIRE(window.welcomeShown());
    QAction* whyRank = window.findChild<QAction*>(QStringLiteral("whyRankAction"));
    REQUIRE(whyRank);
    CHECK_FALSE(whyRank->isEnabled());
    for (QAction* a : window.timeline()->toolBarActions())
        CHECK_FALSE(a->isEnabled());
    open(window, QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks"));
    CHECK(whyRank->isEnabled());
    for (QAction* a : window.timeline()->toolBarActions())
        CHECK(a->isEnabled());
}
