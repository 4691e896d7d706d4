// Reading and copying logs in the log viewer: selection and Copy (masked), the context menu
// and its path:line link, wrapping long lines, Find's sideways scroll and "match i of N", and
// the severity filter.
#include "documentfixture.h"
#include "viewtestsupport.h"

#include "model/evidencelocation.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/selectionstate.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <functional>
#include <memory>
#include <set>

using namespace rankscope;
using namespace rankscope::testing;
using views::LogTextView;

namespace {

class StringBytes : public model::SourceBytes {
public:
    explicit StringBytes(std::string text)
        : m_text(std::move(text))
    {
    }
    std::string_view bytes() const override { return m_text; }

private:
    std::string m_text;
};

constexpr const char* kToken = "hf_SeedHfTokenAbCdEfGhIjKlMnOpQrStUv01";

std::string logWithSecret()
{
    return std::string("first line of the log\n") + "+ export HF_TOKEN=" + kToken + "\n"
        + "third line\twith a tab\n" + "fourth line\n";
}

void pumpUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

QAction* menuAction(QMenu* menu, const char* name)
{
    for (QAction* a : menu->actions()) {
        if (a->objectName() == QLatin1String(name))
            return a;
    }
    return nullptr;
}

} // namespace

TEST_CASE(
    "log text view selects with mouse and keyboard and copies masked text", "[logviewer][copy]")
{
    LogTextView view;
    view.resize(800, 300);
    view.show();
    view.setSource(std::make_shared<StringBytes>(logWithSecret()));
    QGuiApplication::clipboard()->clear();

    // Press at the start of line 1, Shift+click after the end of line 3.
    const QRect first = view.lineRect(1);
    const QRect third = view.lineRect(3);
    REQUIRE_FALSE(first.isEmpty());
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(0, first.center().y()));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::ShiftModifier,
        QPoint(view.viewport()->width() - 2, third.center().y()));
    REQUIRE(view.hasSelection());
    view.grab().save(shotPath(QStringLiteral("logtext-selection.png")));
    QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
    const QString copied = QGuiApplication::clipboard()->text();
    CHECK(copied.startsWith(QStringLiteral("first line of the log\n+ export HF_TOKEN=")));
    CHECK(copied.endsWith(QStringLiteral("third line      with a tab")));
    // The viewer re-reads the file, so the copy must be masked as the model was.
    CHECK(copied.contains(QStringLiteral("‹masked:")));
    CHECK_FALSE(copied.contains(QLatin1String(kToken)));
    CHECK_FALSE(view.lineString(2).contains(QLatin1String(kToken)));

    // Shift+Down extends the selection by a line; Ctrl+A selects everything.
    QTest::keyClick(&view, Qt::Key_Down, Qt::ShiftModifier);
    CHECK(view.selectedText().endsWith(QStringLiteral("with a tab\nfourth line")));
    QTest::keyClick(&view, Qt::Key_A, Qt::ControlModifier);
    CHECK(view.selectedText().count(QLatin1Char('\n')) == 3);
    CHECK(view.selectedText().endsWith(QStringLiteral("fourth line")));

    // A drag selects what it covers; a click without Shift drops the selection.
    view.selectBetween(
        QPoint(0, first.center().y()), QPoint(view.viewport()->width() - 2, first.center().y()));
    CHECK(view.selectedText() == QStringLiteral("first line of the log"));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(0, third.center().y()));
    CHECK_FALSE(view.hasSelection());

    // The context menu offers Copy, Select All and the link to the line under the mouse.
    std::unique_ptr<QMenu> menu(view.createContextMenu(third.center()));
    REQUIRE(menuAction(menu.get(), "copyAction"));
    REQUIRE(menuAction(menu.get(), "selectAllAction"));
    QAction* link = menuAction(menu.get(), "copyLinkAction");
    REQUIRE(link);
    CHECK(view.currentLine() == 3);
    QSignalSpy spy(&view, &LogTextView::linkToLineRequested);
    link->trigger();
    REQUIRE(spy.count() == 1);
    CHECK(spy.at(0).at(0).toULongLong() == 3);
}

TEST_CASE(
    "long lines wrap by default and run off the view when wrapping is off", "[logviewer][wrap]")
{
    std::string text = "short\n";
    std::string longLine;
    for (int i = 0; i < 40; ++i)
        longLine += "word" + std::to_string(i) + " ";
    longLine += "END_OF_EVIDENCE";
    text += longLine + "\nafter\n";
    LogTextView view;
    view.resize(500, 300);
    view.show();
    view.setSource(std::make_shared<StringBytes>(text));
    REQUIRE(view.wrapLines());
    const int lh = view.lineHeight();
    CHECK(view.lineRect(2).height() >= 3 * lh); // ~290 characters over ~50 columns
    CHECK(view.lineRect(3).top() == view.lineRect(2).bottom() + 1);
    CHECK(view.horizontalScrollBar()->maximum() == 0);
    view.grab().save(shotPath(QStringLiteral("logtext-wrapped.png")));

    view.setWrapLines(false);
    CHECK(view.lineRect(2).height() == lh);
    CHECK(view.lineRect(3).top() == 2 * lh);
}

TEST_CASE("find scrolls sideways to a match and counts the matches", "[logviewer][find]")
{
    std::string text;
    text += "needle at the start, needle again\n";
    text += "plain line\n";
    text += std::string(300, '.') + " needle far right\n";
    text += "last NEEDLE\n";
    LogTextView view;
    view.resize(500, 300);
    view.show();
    view.setWrapLines(false);
    view.setSource(std::make_shared<StringBytes>(text));

    view.goToLine(2);
    view.find(QStringLiteral("needle"), false);
    pumpUntil([&] { return !view.searching() && view.matchCountComplete(); }, 5000);
    CHECK(view.currentLine() == 3);
    CHECK(view.matchCount() == 4);
    CHECK(view.currentMatchOrdinal() == std::optional<std::uint64_t>(3));
    // The match lies ~300 characters in: the view scrolled sideways to it.
    const int matchX = view.fontMetrics().horizontalAdvance(QString(301, QLatin1Char('.')));
    const int hscroll = view.horizontalScrollBar()->value();
    CHECK(hscroll > 0);
    CHECK(matchX >= hscroll);
    CHECK(matchX < hscroll + view.viewport()->width());
    view.setSearchHighlight(QStringLiteral("needle"));
    view.grab().save(shotPath(QStringLiteral("logtext-find-sideways.png")));

    view.find(QStringLiteral("needle"), false);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == 4);
    CHECK(view.currentMatchOrdinal() == std::optional<std::uint64_t>(4));
    CHECK(view.horizontalScrollBar()->value() == 0); // back to the left for a match there

    // Wrapping round to the first line visits both matches on it in turn.
    view.find(QStringLiteral("needle"), false);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentMatchOrdinal() == std::optional<std::uint64_t>(1));
    view.find(QStringLiteral("needle"), false);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == 1);
    CHECK(view.currentMatchOrdinal() == std::optional<std::uint64_t>(2));
    view.find(QStringLiteral("needle"), true);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentMatchOrdinal() == std::optional<std::uint64_t>(1));
}

TEST_CASE("log viewer shows match i of N, filters by severity and copies a path:line link",
    "[logviewer][find][severity][copy]")
{
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/straggler-8ranks" });
    REQUIRE(doc->diagnosis);
    const model::EvidenceRef ref = doc->diagnosis->findings.front().evidence.front().ref;

    views::SelectionState selection;
    views::LogViewer viewer(&selection);
    viewer.resize(900, 500);
    viewer.show();
    selection.setDocument(doc);
    selection.selectEvidence(ref);
    LogTextView* text = viewer.textView();
    REQUIRE(text->currentLine() == ref.line);

    // Find: "match i of N" once the count is done.
    viewer.showFind();
    auto* edit = viewer.findChild<QLineEdit*>();
    REQUIRE(edit);
    edit->setText(QStringLiteral("ProcessGroupNCCL"));
    viewer.findNext();
    pumpUntil([&] { return !text->searching() && text->matchCountComplete(); }, 5000);
    QCoreApplication::processEvents();
    CHECK(viewer.findStatusText().startsWith(QStringLiteral("match ")));
    CHECK(viewer.findStatusText().contains(QStringLiteral(" of %1").arg(
        QLocale().toString(static_cast<qulonglong>(text->matchCount())))));
    CHECK(text->matchCount() > 1);

    // Copy link to this line: the path:line the report and the CLI write.
    std::unique_ptr<QMenu> menu(text->createContextMenu(text->lineRect(ref.line).center()));
    QAction* link = menuAction(menu.get(), "copyLinkAction");
    REQUIRE(link);
    link->trigger();
    const QString expected = QString::fromStdString(model::evidenceLocation(*doc->bundle, ref));
    CHECK(QGuiApplication::clipboard()->text() == expected);
    CHECK(expected.endsWith(QStringLiteral(":%1").arg(ref.line)));

    // Severity filter: only lines holding an event at least that severe are shown.
    auto* severity = viewer.findChild<QComboBox*>(QStringLiteral("severityFilter"));
    REQUIRE(severity);
    viewer.setSeverityFilter(model::Severity::Warning);
    REQUIRE(text->lineFiltered());
    std::set<std::uint64_t> severe;
    std::uint64_t quiet = 0;
    for (const model::Event& e : doc->bundle->events) {
        if (e.evidence.source == viewer.currentSource() && e.severity >= model::Severity::Warning)
            severe.insert(e.evidence.line);
    }
    REQUIRE_FALSE(severe.empty());
    for (std::uint64_t line = 1; line < 40 && quiet == 0; ++line)
        if (!severe.count(line))
            quiet = line;
    CHECK(text->lineRect(quiet).isEmpty());
    CHECK_FALSE(text->lineRect(*severe.begin()).isEmpty());
    CHECK(text->lineRect(*severe.begin()).top() == 0);
    QCoreApplication::processEvents(); // lay the status out before the grab
    viewer.grab().save(shotPath(QStringLiteral("logviewer-warnings.png")));
    // Jumping to a hidden line keeps the filter and shows that line among the others, with
    // a note in the status saying why it is there.
    const int chosen = severity->currentIndex();
    text->goToLine(quiet);
    CHECK(text->lineFiltered());
    CHECK(severity->currentIndex() == chosen);
    CHECK(text->currentLine() == quiet);
    CHECK_FALSE(text->lineRect(quiet).isEmpty());
    CHECK(text->lineShownDespiteFilter() == quiet);
    CHECK(viewer.statusText().contains(QStringLiteral("line %1 shown though").arg(quiet)));
    // The other severe lines are still the only others shown.
    std::uint64_t otherQuiet = 0;
    for (std::uint64_t line = quiet + 1; line < 60 && otherQuiet == 0; ++line)
        if (!severe.count(line))
            otherQuiet = line;
    CHECK(text->lineRect(otherQuiet).isEmpty());
    CHECK_FALSE(text->lineRect(*severe.begin()).isEmpty());
    // The next such jump replaces it; another filter forgets it.
    text->goToLine(otherQuiet);
    CHECK(text->lineRect(quiet).isEmpty());
    CHECK(text->lineShownDespiteFilter() == otherQuiet);
    viewer.setSeverityFilter(model::Severity::Error);
    CHECK_FALSE(text->lineShownDespiteFilter());
    CHECK_FALSE(viewer.statusText().contains(QStringLiteral("shown though")));
}
