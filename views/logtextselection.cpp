#include "views/logtextselection.h"

#include "views/lineindex.h"
#include "views/logdisplaylines.h"

#include <algorithm>

namespace rankscope::views {

void LogTextSelection::moveCursor(const LogTextPosition& pos, bool extend)
{
    m_cursor = pos;
    if (!extend)
        m_anchor = pos;
}

void LogTextSelection::set(const LogTextPosition& anchor, const LogTextPosition& cursor)
{
    m_anchor = anchor;
    m_cursor = cursor;
}

std::optional<std::pair<int, int>> LogTextSelection::columnsOn(std::uint64_t lineStart) const
{
    if (empty())
        return std::nullopt;
    const LogTextPosition first = from();
    const LogTextPosition last = to();
    if (lineStart < first.lineStart || lineStart > last.lineStart)
        return std::nullopt;
    return std::make_pair(lineStart == first.lineStart ? first.column : 0,
        lineStart == last.lineStart ? last.column : LogTextPosition::kLineEnd);
}

QString LogTextSelection::text(std::string_view bytes, const std::vector<LogLineRef>* filter,
    qsizetype maxChars, bool* truncated) const
{
    if (truncated)
        *truncated = false;
    if (empty() || bytes.empty())
        return {};
    const LogTextPosition first = from();
    const LogTextPosition last = to();
    QString out;
    bool firstLine = true;
    // Appends the selected part of one line; false once the cap is reached.
    const auto append = [&](const QString& line, std::uint64_t lineStart) {
        const auto columns = columnsOn(lineStart);
        if (!columns)
            return true;
        const qsizetype begin = std::min<qsizetype>(columns->first, line.size());
        const qsizetype end = std::min<qsizetype>(columns->second, line.size());
        if (!firstLine)
            out += QLatin1Char('\n');
        firstLine = false;
        out += line.mid(begin, std::max<qsizetype>(0, end - begin));
        if (out.size() <= maxChars)
            return true;
        out.truncate(maxChars);
        if (truncated)
            *truncated = true;
        return false;
    };
    if (filter) {
        const auto begin = std::lower_bound(filter->begin(), filter->end(), first.lineStart,
            [](const LogLineRef& ref, std::uint64_t start) { return ref.lineStart < start; });
        for (auto it = begin; it != filter->end() && it->lineStart <= last.lineStart; ++it) {
            if (!append(LogDisplayLines::displayLineAt(bytes, it->lineStart), it->lineStart))
                break;
        }
        return out;
    }
    LogDisplayLines lines(bytes, first.lineStart);
    for (std::uint64_t start = first.lineStart; start < bytes.size() && start <= last.lineStart;
         start = LineIndex::nextLineStart(bytes, start)) {
        if (!append(lines.displayLine(start), start))
            break;
    }
    return out;
}

} // namespace rankscope::views
