#include "views/logsearch.h"

#include "views/lineindex.h"
#include "views/logdisplaylines.h"
#include "views/textsearch.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstring>

namespace rankscope::views {

LogSearch::LogSearch(LogSearchQuery query)
    : m_query(std::move(query))
{
    if (m_query.pattern.isEmpty()) {
        m_error = QCoreApplication::translate("LogSearch", "Type something to search for");
        return;
    }
    if (!m_query.regularExpression)
        return;
    m_regex = QRegularExpression(m_query.pattern, QRegularExpression::MultilineOption);
    if (!m_regex.isValid()) {
        m_error = QCoreApplication::translate("LogSearch", "Not a valid regular expression: %1 (at character %2)")
                      .arg(m_regex.errorString())
                      .arg(m_regex.patternErrorOffset() + 1);
        return;
    }
    m_regex.optimize();
}

qsizetype LogSearch::displayedMatch(const QString& text) const
{
    if (m_query.regularExpression) {
        const QRegularExpressionMatch match = m_regex.match(text);
        return match.hasMatch() ? match.capturedStart() : -1;
    }
    return text.indexOf(m_query.pattern, 0, Qt::CaseInsensitive);
}

QString LogSearch::aroundMatch(QString text, qsizetype at)
{
    // A match far into a line (after a progress bar's redraws, a long prefix) is shown with a
    // little of what precedes it, so the hit list says why the line matched.
    constexpr qsizetype kShownBefore = 16;
    if (at <= kMatchColumn)
        return text;
    return QChar(0x2026) + text.mid(at - kShownBefore);
}

void LogSearch::search(
    std::string_view bytes, const HitSink& onHit, const std::atomic<bool>& cancel) const
{
    if (!m_error.isEmpty())
        return;
    if (m_query.regularExpression)
        searchRegex(bytes, onHit, cancel);
    else
        searchPlain(bytes, onHit, cancel);
}

namespace {

// The end of the chunk that starts at line start `pos`: about kChunkBytes, cut after a whole
// line so that no match straddles two chunks.
std::uint64_t wholeLineChunkEnd(std::string_view bytes, std::uint64_t pos)
{
    const std::uint64_t end = std::min<std::uint64_t>(bytes.size(), pos + LogSearch::kChunkBytes);
    if (end >= bytes.size())
        return end;
    return LineIndex::nextLineStart(bytes, LineIndex::lineStartAtOrBefore(bytes, end));
}

} // namespace

void LogSearch::searchPlain(
    std::string_view bytes, const HitSink& onHit, const std::atomic<bool>& cancel) const
{
    const QByteArray utf8 = m_query.pattern.toUtf8();
    const TextSearch needle(
        std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    std::uint64_t pos = 0; // a line start
    std::uint64_t line = 0; // 0-based line of pos
    while (pos < bytes.size()) {
        if (cancel.load(std::memory_order_relaxed))
            return;
        const std::uint64_t chunkEnd = wholeLineChunkEnd(bytes, pos);
        while (pos < chunkEnd) {
            const auto hit = needle.findFirst(bytes.substr(pos, chunkEnd - pos));
            if (!hit) {
                line += LineIndex::countNewlines(bytes.substr(pos, chunkEnd - pos));
                pos = chunkEnd;
                break;
            }
            const std::uint64_t at = pos + *hit;
            const std::uint64_t start = LineIndex::lineStartAtOrBefore(bytes, at);
            line += LineIndex::countNewlines(bytes.substr(pos, start - pos));
            QString text = LogDisplayLines::displayLineAt(bytes, start);
            const qsizetype shownAt = displayedMatch(text);
            if (shownAt >= 0 && !onHit(line + 1, start, aroundMatch(std::move(text), shownAt)))
                return;
            pos = LineIndex::nextLineStart(bytes, start);
            if (pos > start && bytes[pos - 1] == '\n')
                ++line;
        }
    }
}

void LogSearch::searchRegex(
    std::string_view bytes, const HitSink& onHit, const std::atomic<bool>& cancel) const
{
    // Decoding a chunk of whole lines once and matching it in multiline mode is far faster
    // than one QString per line; '\n' is one byte and one QChar, so lines map one to one.
    std::uint64_t pos = 0; // a line start
    std::uint64_t chunkLine = 0; // 0-based line of pos
    while (pos < bytes.size()) {
        if (cancel.load(std::memory_order_relaxed))
            return;
        const std::uint64_t chunkEnd = wholeLineChunkEnd(bytes, pos);
        const std::string_view chunk = bytes.substr(pos, chunkEnd - pos);
        const QString text = QString::fromUtf8(chunk.data(), static_cast<qsizetype>(chunk.size()));
        std::uint64_t line = chunkLine; // 0-based line starting at text[from]
        std::uint64_t lineStart = pos; // its byte offset
        qsizetype from = 0;
        while (from < text.size()) {
            const QRegularExpressionMatch match = m_regex.match(text, from);
            if (!match.hasMatch() || match.capturedStart() >= text.size())
                break;
            const qsizetype at = match.capturedStart();
            // Walk to the line holding the match, in QChars and in bytes alike.
            for (qsizetype nl = text.indexOf(QLatin1Char('\n'), from); nl >= 0 && nl < at;
                 nl = text.indexOf(QLatin1Char('\n'), nl + 1)) {
                ++line;
                lineStart = LineIndex::nextLineStart(bytes, lineStart);
                from = nl + 1;
            }
            QString shown = LogDisplayLines::displayLineAt(bytes, lineStart);
            const qsizetype shownAt = displayedMatch(shown);
            if (shownAt >= 0 && !onHit(line + 1, lineStart, aroundMatch(std::move(shown), shownAt)))
                return;
            // One hit per line: go on from the next line.
            const qsizetype next = text.indexOf(QLatin1Char('\n'), std::max(at, from));
            if (next < 0)
                break;
            ++line;
            lineStart = LineIndex::nextLineStart(bytes, lineStart);
            from = next + 1;
        }
        chunkLine += LineIndex::countNewlines(chunk);
        pos = chunkEnd;
    }
}

} // namespace rankscope::views
