// Log viewer: the sparse line index, case-insensitive search, the custom text view on huge
// files, and the panel following the shared selection on a real bundle.
#include "viewtestsupport.h"
#include "documentfixture.h"

#include "views/lineindex.h"
#include "views/logdisplaylines.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/selectionstate.h"
#include "views/textsearch.h"
#include "views/theme.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QScrollBar>
#include <QSet>
#include <QTest>

#include <cstdio>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace rankscope;
using namespace rankscope::testing;
using views::LineIndex;
using views::LogTextView;
using views::TextSearch;

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

// A read-only mapping, as the application maps plain files.
class MappedBytes : public model::SourceBytes {
public:
    explicit MappedBytes(const std::string& path)
    {
        const int fd = ::open(path.c_str(), O_RDONLY);
        struct stat st { };
        if (fd >= 0 && ::fstat(fd, &st) == 0 && st.st_size > 0) {
            m_size = static_cast<std::size_t>(st.st_size);
            m_data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
        }
        if (fd >= 0)
            ::close(fd);
    }
    ~MappedBytes() override
    {
        if (m_data && m_data != MAP_FAILED)
            ::munmap(m_data, m_size);
    }
    std::string_view bytes() const override
    {
        return m_data && m_data != MAP_FAILED
            ? std::string_view(static_cast<const char*>(m_data), m_size)
            : std::string_view();
    }

private:
    void* m_data = nullptr;
    std::size_t m_size = 0;
};

std::string numberedLines(int count)
{
    std::string text;
    for (int i = 1; i <= count; ++i)
        text += "line " + std::to_string(i) + " of the log\n";
    return text;
}

void pumpUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

} // namespace

TEST_CASE(
    "line index finds line starts and lines of offsets, indexed in any chunk size", "[logviewer]")
{
    const std::string text = "abc\ndef\n\nxyz";
    LineIndex whole(text);
    whole.indexMore(1 << 20);
    REQUIRE(whole.complete());
    CHECK(whole.knownLines() == 4);
    CHECK(whole.offsetOfLine(0) == 0);
    CHECK(whole.offsetOfLine(2) == 8);
    CHECK(whole.offsetOfLine(3) == 9);
    CHECK(whole.lineOfOffset(10) == 3);
    CHECK(whole.lineOfOffset(4) == 1);
    CHECK(LineIndex::lineText(text, 9) == "xyz");
    CHECK(LineIndex::lineStartAtOrBefore(text, 6) == 4);
    CHECK(LineIndex::previousLineStart(text, 9) == 8);

    LineIndex empty { std::string_view() };
    empty.indexMore(10);
    CHECK(empty.knownLines() == 0);

    const std::string trailing = "one\ntwo\n";
    LineIndex t(trailing);
    t.indexMore(100);
    CHECK(t.knownLines() == 2);

    // Past the stride: checkpoints must agree with a plain scan, whatever the chunk size.
    const std::string many = numberedLines(5000);
    LineIndex chunked(many);
    while (!chunked.indexMore(777)) { }
    CHECK(chunked.knownLines() == 5000);
    std::uint64_t offset = 0;
    for (std::uint64_t line = 0; line < 5000; ++line) {
        if (line % 997 == 0 || line == 1024 || line == 2048 || line == 4999) {
            CHECK(chunked.offsetOfLine(line) == offset);
            CHECK(chunked.lineOfOffset(offset + 2) == line);
        }
        offset = LineIndex::nextLineStart(many, offset);
    }
}

TEST_CASE("a partly indexed buffer reports only the lines started so far", "[logviewer]")
{
    const std::string many = numberedLines(3000);
    LineIndex index(many);
    index.indexMore(1000);
    CHECK_FALSE(index.complete());
    CHECK(index.knownLines() < 3000);
    CHECK(index.knownLines() > 10);
}

TEST_CASE("text search is case-insensitive and finds first and last matches", "[logviewer]")
{
    const TextSearch search("watchdog");
    CHECK(search.findFirst("x Watchdog caught ... WATCHDOG") == std::optional<std::size_t>(2));
    CHECK(search.findLast("x Watchdog caught ... WATCHDOG") == std::optional<std::size_t>(22));
    CHECK_FALSE(search.findFirst("watchdo").has_value());
    CHECK_FALSE(search.findFirst("").has_value());
    CHECK(TextSearch("A").findFirst("bbba") == std::optional<std::size_t>(3));
    CHECK(TextSearch("[e0108").findFirst("[rank6]:[E0108 21:07") == std::optional<std::size_t>(8));
}

TEST_CASE("log text view jumps to lines and finds text forwards, backwards and around the end",
    "[logviewer]")
{
    LogTextView view;
    view.resize(800, 400);
    view.show();
    view.setSource(std::make_shared<StringBytes>(numberedLines(10000)));
    REQUIRE(view.indexComplete());
    CHECK(view.knownLines() == 10000);

    view.goToLine(5000);
    CHECK(view.currentLine() == 5000);
    CHECK_FALSE(view.lineRect(5000).isEmpty());
    CHECK(view.lineString(5000) == QStringLiteral("line 5000 of the log"));

    view.find(QStringLiteral("LINE 7777 "), false);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == 7777);
    CHECK_FALSE(view.lineRect(7777).isEmpty());

    view.find(QStringLiteral("line 12 of"), true);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == 12);

    // Backwards from line 12 to line 9999 wraps around the start.
    view.find(QStringLiteral("line 9999 "), true);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == 9999);

    // Forwards from 9999 to 3 wraps around the end.
    view.find(QStringLiteral("line 3 of"), false);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == 3);

    const quint64 before = view.currentLine();
    view.find(QStringLiteral("no such text"), false);
    pumpUntil([&] { return !view.searching(); }, 5000);
    CHECK(view.currentLine() == before);
}

TEST_CASE(
    "log text view shows binary garbage and glued carriage returns without crashing", "[logviewer]")
{
    LogTextView view;
    view.resize(600, 200);
    std::string text = "ok line\nprogress 10%\rprogress 20%\n";
    text += std::string("\x00\x01\xff\xfe garbage\n", 13);
    text += std::string(10000, 'x'); // a long last line without \n
    view.setSource(std::make_shared<StringBytes>(text));
    CHECK(view.knownLines() == 4);
    CHECK(view.lineString(2).contains(QChar(0x21B5)));
    CHECK(view.lineString(4).size() == views::LogDisplayLines::kMaxLineChars);
    const QImage image = view.grab().toImage();
    CHECK(distinctColours(image) > 2);
}

TEST_CASE(
    "a 200 MB log opens, jumps to its last line and indexes without blocking", "[logviewer][big]")
{
    const QString path = QDir::temp().filePath(
        QStringLiteral("rankscope-bigtest-%1.log").arg(QCoreApplication::applicationPid()));
    // RANKSCOPE_BIG_LOG_MB=1024 runs the same test on a 1 GB file.
    const std::uint64_t megabytes = qEnvironmentVariableIsSet("RANKSCOPE_BIG_LOG_MB")
        ? qEnvironmentVariableIntValue("RANKSCOPE_BIG_LOG_MB")
        : 200;
    const std::uint64_t target = std::max<std::uint64_t>(16, megabytes) << 20;
    std::uint64_t lines = 0;
    std::uint64_t lastLineOffset = 0;
    {
        std::FILE* f = std::fopen(path.toLocal8Bit().constData(), "wb");
        REQUIRE(f);
        std::string buffer;
        std::uint64_t written = 0;
        while (written < target) {
            buffer.clear();
            for (int i = 0; i < 4096; ++i) {
                lastLineOffset = written + buffer.size();
                ++lines;
                buffer += "[rank3]:[I0108 20:57:14.010904705 ProcessGroupNCCL.cpp:4115] step "
                    + std::to_string(lines) + " loss 2.31 lr 3e-4 tokens/s 181234\n";
            }
            std::fwrite(buffer.data(), 1, buffer.size(), f);
            written += buffer.size();
        }
        std::fclose(f);
    }
    LogTextView view;
    view.resize(1000, 600);
    view.show();

    QElapsedTimer timer;
    timer.start();
    auto bytes = std::make_shared<MappedBytes>(path.toStdString());
    REQUIRE(bytes->bytes().size() >= target);
    view.setSource(bytes);
    const qint64 openMs = timer.elapsed();
    CHECK_FALSE(view.indexComplete());

    // Jump to the last line by its byte offset, before the index has got there.
    timer.restart();
    view.goToLine(lines, lastLineOffset);
    const QImage shot = view.grab().toImage();
    const qint64 jumpMs = timer.elapsed();
    CHECK(view.currentLine() == lines);
    CHECK(view.lineString(lines).contains(QStringLiteral("step %1 ").arg(lines)));
    CHECK(distinctColours(shot) > 2);

    // Index the rest from the timer; no single tick may block the event loop for long.
    qint64 longestTick = 0;
    timer.restart();
    QElapsedTimer tick;
    while (!view.indexComplete() && timer.elapsed() < 60000) {
        tick.restart();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        longestTick = std::max(longestTick, tick.elapsed());
    }
    const qint64 indexMs = timer.elapsed();
    REQUIRE(view.indexComplete());
    CHECK(view.knownLines() == lines);

    // A scroll-bar jump to the middle goes through the index.
    timer.restart();
    view.verticalScrollBar()->setValue(static_cast<int>(lines / 2));
    view.grab();
    const qint64 scrollMs = timer.elapsed();
    CHECK(view.topLine() == lines / 2);

    // Find from the top to a line near the end: chunked, the event loop keeps running.
    view.goToLine(1, 0);
    timer.restart();
    qint64 longestSearchTick = 0;
    view.find(QStringLiteral("STEP %1 loss").arg(lines - 1), false);
    while (view.searching() && timer.elapsed() < 60000) {
        tick.restart();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
        longestSearchTick = std::max(longestSearchTick, tick.elapsed());
    }
    const qint64 searchMs = timer.elapsed();
    CHECK(view.currentLine() == lines - 1);
    CHECK(longestSearchTick < 1000);

    WARN("find near the end: " << searchMs << " ms (longest tick " << longestSearchTick << " ms)");
    WARN(megabytes << " MB log: open " << openMs << " ms, jump to last line + paint " << jumpMs
                   << " ms, full index " << indexMs << " ms (longest event-loop tick "
                   << longestTick << " ms), scroll to middle + paint " << scrollMs << " ms");
    CHECK(openMs < 500);
    CHECK(jumpMs < 500);
    CHECK(longestTick < 1000);
    bytes.reset();
    view.clear();
    QFile::remove(path);
}

TEST_CASE("log viewer opens the evidence line a selection names and tints the evidence lines",
    "[logviewer]")
{
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/straggler-8ranks" });
    REQUIRE(doc->diagnosis);
    REQUIRE_FALSE(doc->diagnosis->findings.empty());
    REQUIRE_FALSE(doc->diagnosis->findings.front().evidence.empty());
    const model::EvidenceRef ref = doc->diagnosis->findings.front().evidence.front().ref;

    views::SelectionState selection;
    views::LogViewer viewer(&selection);
    viewer.resize(900, 500);
    viewer.show();
    selection.setDocument(doc);
    selection.selectEvidence(ref);
    CHECK(viewer.currentSource() == ref.source);
    LogTextView* text = viewer.textView();
    CHECK(text->currentLine() == ref.line);
    const QRect row = text->lineRect(ref.line);
    REQUIRE_FALSE(row.isEmpty());
    CHECK(viewer.statusText().contains(QStringLiteral("line %1").arg(ref.line)));

    // The current line carries the initiating tint right of the gutter.
    const QImage image = text->viewport()->grab().toImage();
    const QColor tint
        = views::theme::tint(views::theme::colors(text->palette()).initiating, text->palette());
    int tinted = 0;
    for (int x = 0; x < image.width(); ++x)
        tinted += image.pixelColor(x, row.center().y()).name() == tint.name() ? 1 : 0;
    CHECK(tinted > image.width() / 4);
    viewer.grab().save(shotPath(QStringLiteral("logviewer.png")));
    CHECK(distinctColours(viewer.grab().toImage()) > 8);

    // Selecting another rank opens that rank's log, its sources listed first.
    selection.selectRank(2);
    const model::RankInfo* info = doc->bundle->rankInfo(2);
    REQUIRE(info);
    CHECK(std::find(info->sources.begin(), info->sources.end(), viewer.currentSource())
        != info->sources.end());
    auto* picker = viewer.findChild<QComboBox*>();
    REQUIRE(picker);
    CHECK(picker->itemText(0).startsWith(QStringLiteral("rank 2")));

    // Clicking a line that holds an event selects that event for the other views.
    selection.selectEvidence(ref);
    const QRect evidenceRow = text->lineRect(ref.line);
    QTest::mouseClick(text->viewport(), Qt::LeftButton, {}, evidenceRow.center());
    CHECK(selection.selectedEvent() >= 0);
    if (selection.selectedEvent() >= 0)
        CHECK(doc->bundle->events[static_cast<std::size_t>(selection.selectedEvent())].evidence.line
            == ref.line);
}
