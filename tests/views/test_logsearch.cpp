// Search across every rank's log: the matcher (plain text and regular expressions, one hit
// per line, masked text, cancellation) and the window that runs it off the GUI thread,
// streams hits, caps them and opens a hit's line in the log viewer.
#include "documentfixture.h"

#include "app/gui/logsearchdialog.h"
#include "app/gui/logsearchrunner.h"
#include "model/evidencelocation.h"
#include "views/logsearch.h"
#include "views/logsearchmodel.h"
#include "views/logsearchpanel.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/selectionstate.h"

#include <catch2/catch.hpp>

#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QTest>
#include <QTreeView>

#include <atomic>
#include <functional>
#include <set>
#include <vector>

using namespace rankscope;
using views::LogSearch;
using views::LogSearchQuery;

namespace {

struct Hit {
    std::uint64_t line;
    std::uint64_t lineStart;
    QString text;
};

std::vector<Hit> searchAll(const LogSearchQuery& query, std::string_view bytes)
{
    const LogSearch search(query);
    REQUIRE(search.error().isEmpty());
    std::vector<Hit> hits;
    std::atomic<bool> cancel { false };
    search.search(
        bytes,
        [&](std::uint64_t line, std::uint64_t start, QString text) {
            hits.push_back({ line, start, std::move(text) });
            return true;
        },
        cancel);
    return hits;
}

void pumpUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

const std::string kLog = "NCCL INFO ring 0\n"
                         "[E] watchdog timeout after 600000 ms, timeout again\n"
                         "+ export HF_TOKEN=hf_SeedHfTokenAbCdEfGhIjKlMnOpQrStUv01\n"
                         "all good\n"
                         "[E] Timeout on rank 3"; // no final newline

} // namespace

TEST_CASE("log search finds plain text once per line, case-insensitively, with line numbers",
    "[logsearch]")
{
    const auto hits = searchAll({ QStringLiteral("TIMEOUT"), false }, kLog);
    REQUIRE(hits.size() == 2);
    CHECK(hits[0].line == 2);
    CHECK(hits[0].lineStart == kLog.find("[E] watchdog"));
    CHECK(hits[0].text.startsWith(QStringLiteral("[E] watchdog timeout")));
    CHECK(hits[1].line == 5);
    CHECK(hits[1].text == QStringLiteral("[E] Timeout on rank 3"));
}

TEST_CASE("log search matches regular expressions per line and reports a bad one", "[logsearch]")
{
    const auto hits = searchAll({ QStringLiteral("^\\[E\\] .*rank \\d+$"), true }, kLog);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].line == 5);
    const auto lines = searchAll({ QStringLiteral("\\d{6}"), true }, kLog);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].line == 2);

    const LogSearch bad({ QStringLiteral("(unclosed"), true });
    CHECK(bad.error().startsWith(QStringLiteral("Not a valid regular expression")));
    CHECK_FALSE(LogSearch({ QString(), false }).error().isEmpty());
}

TEST_CASE("log search shows masked text and never matches inside a secret", "[logsearch]")
{
    const auto named = searchAll({ QStringLiteral("HF_TOKEN"), false }, kLog);
    REQUIRE(named.size() == 1);
    CHECK(named[0].text.contains(QStringLiteral("‹masked:")));
    CHECK_FALSE(named[0].text.contains(QStringLiteral("hf_Seed")));
    CHECK(searchAll({ QStringLiteral("hf_SeedHfToken"), false }, kLog).empty());
    CHECK(searchAll({ QStringLiteral("hf_[A-Za-z]+"), true }, kLog).empty());
}

TEST_CASE("log search stops when cancelled or when the sink has enough", "[logsearch]")
{
    std::string big;
    for (int i = 0; i < 200000; ++i)
        big += "step " + std::to_string(i) + " loss 2.31\n";
    const LogSearch search({ QStringLiteral("loss"), false });
    std::atomic<bool> cancel { true };
    int hits = 0;
    search.search(
        big, [&](std::uint64_t, std::uint64_t, QString) { return ++hits, true; }, cancel);
    CHECK(hits == 0);
    cancel = false;
    search.search(
        big, [&](std::uint64_t, std::uint64_t, QString) { return ++hits < 10; }, cancel);
    CHECK(hits == 10);
    // Regular expressions across chunk boundaries keep their line numbers.
    const LogSearch regex({ QStringLiteral("^step 199999 "), true });
    std::uint64_t line = 0;
    regex.search(
        big, [&](std::uint64_t l, std::uint64_t, QString) { return line = l, true; }, cancel);
    CHECK(line == 200000);
}

TEST_CASE("search all logs streams hits off the GUI thread, caps them and opens a hit's line",
    "[logsearch][app]")
{
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/straggler-8ranks" });
    views::SelectionState selection;
    views::LogViewer viewer(&selection);
    viewer.resize(900, 400);
    viewer.show();
    selection.setDocument(doc);
    app::LogSearchDialog dialog(&selection, &viewer, nullptr);
    dialog.showAndFocus();
    views::LogSearchPanel* panel = dialog.panel();

    // A bad regular expression says so and does not start.
    panel->patternEdit()->setText(QStringLiteral("watchdog("));
    panel->findChild<QCheckBox*>(QStringLiteral("logSearchRegex"))->setChecked(true);
    panel->requestSearch();
    CHECK_FALSE(dialog.runner()->running());
    CHECK(panel->statusText().startsWith(QStringLiteral("Not a valid regular expression")));

    // Every rank's log, results in rank order with rank · path:line · text.
    panel->patternEdit()->setText(QStringLiteral("Rank \\d+\\]"));
    QTest::keyClick(panel->patternEdit(), Qt::Key_Return);
    CHECK(dialog.runner()->running());
    pumpUntil([&] { return !dialog.runner()->running(); }, 20000);
    dialog.runner()->waitForIdle();
    QCoreApplication::processEvents();
    views::LogSearchModel* model = panel->model();
    INFO("status: " << panel->statusText().toStdString());
    REQUIRE(model->rowCount() > 0);
    std::set<int> ranks;
    for (int row = 0; row < model->rowCount(); ++row)
        ranks.insert(model->hit(row).rank);
    CHECK(ranks.size() >= 2);
    CHECK(panel->statusText() == QStringLiteral("%1 hit(s)").arg(model->rowCount()));
    const int row = model->rowCount() - 1;
    const model::EvidenceRef ref = model->evidenceOf(row);
    CHECK(model->index(row, views::LogSearchModel::LocationColumn).data().toString()
        == QString::fromStdString(model::evidenceLocation(*doc->bundle, ref)));
    CHECK(model->index(row, views::LogSearchModel::RankColumn).data().toString()
        == QString::number(model->hit(row).rank));
    QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
    dialog.grab().save(QStringLiteral(RANKSCOPE_SHOTS_DIR "/logsearch.png"));

    // Clicking a hit opens its line in the log viewer.
    QTreeView* list = panel->hitList();
    list->scrollTo(model->index(row, 0));
    const QRect cell = list->visualRect(model->index(row, views::LogSearchModel::TextColumn));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, cell.center());
    CHECK(viewer.currentSource() == ref.source);
    CHECK(viewer.textView()->currentLine() == ref.line);
    CHECK(viewer.textView()->lineString(ref.line) == model->hit(row).text);

    // A cap on hits, said plainly.
    dialog.runner()->setMaxHits(3);
    panel->findChild<QCheckBox*>(QStringLiteral("logSearchRegex"))->setChecked(false);
    panel->patternEdit()->setText(QStringLiteral("NCCL"));
    panel->requestSearch();
    pumpUntil([&] { return !dialog.runner()->running(); }, 20000);
    QCoreApplication::processEvents();
    CHECK(model->rowCount() == 3);
    CHECK(panel->statusText().startsWith(QStringLiteral("First 3 hits shown")));

    // Cancel stops a search in flight.
    dialog.runner()->setMaxHits(app::LogSearchRunner::kDefaultMaxHits);
    panel->requestSearch();
    dialog.runner()->cancel();
    pumpUntil([&] { return !dialog.runner()->running(); }, 20000);
    QCoreApplication::processEvents();
    CHECK_FALSE(panel->running());
}

TEST_CASE("a hit far into its line is shown from near the match", "[logsearch]")
{
    const std::string bar
        = "Training:   3%|          | 1/40 [00:00<00:22,  1.72it/s, loss=10.01]\r";
    const std::string line = bar
        + "[rank1]:[E0108 22:31:19.43 ProcessGroupNCCL.cpp:1515] Watchdog caught collective "
          "operation timeout\n";
    for (const bool regex : { false, true }) {
        const auto hits = searchAll(
            { regex ? QStringLiteral("Watchdog\\s+caught") : QStringLiteral("watchdog caught"),
                regex },
            line);
        REQUIRE(hits.size() == 1);
        CHECK(hits[0].line == 1);
        CHECK(hits[0].lineStart == 0);
        CHECK(hits[0].text.startsWith(QChar(0x2026)));
        CHECK(hits[0].text.indexOf(QStringLiteral("Watchdog caught")) <= 20);
    }
    // A match near the start keeps the whole line.
    const auto early = searchAll({ QStringLiteral("TIMEOUT"), false }, kLog);
    REQUIRE_FALSE(early.empty());
    CHECK(early[0].text.startsWith(QStringLiteral("[E] watchdog timeout")));
}
