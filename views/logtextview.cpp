#include "views/logtextview.h"

#include "views/logdisplaylines.h"
#include "views/theme.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QPainter>
#include <QScrollBar>
#include <QTimerEvent>

#include <algorithm>
#include <climits>

namespace rankscope::views {

namespace {

// Moving the top line by fewer lines than this walks the bytes from the current top;
// farther jumps go through the line index.
constexpr std::uint64_t kRelativeMoveLines = 64;

int clampToInt(std::uint64_t v)
{
    return v > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(v);
}

int digitsOf(std::uint64_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        ++d;
    }
    return d;
}

} // namespace

LogTextView::LogTextView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
    verticalScrollBar()->setSingleStep(1);
    setHorizontalScrollBarPolicy(m_wrap ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
}

void LogTextView::setSource(std::shared_ptr<const model::SourceBytes> bytes)
{
    cancelFind();
    m_bytes = std::move(bytes);
    m_index = m_bytes ? LineIndex(m_bytes->bytes()) : LineIndex();
    m_topLine = 0;
    m_topOffset = 0;
    m_currentLine = 0;
    m_currentOffset = 0;
    m_minScrollLines = 0;
    m_pendingLine.reset();
    m_markedLines.clear();
    m_maxTextWidth = 0;
    m_matchText.clear();
    m_matchLength = 0;
    m_counter.reset();
    m_filter.reset();
    m_shownDespiteFilter.reset();
    m_selection = {};
    m_dragging = false;
    // Index the first chunk right away so a small file is complete before the first paint.
    m_index.indexMore(kChunkBytes);
    if (!m_index.complete())
        m_timer.start(0, this);
    updateScrollRange();
    m_settingTop = true;
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    m_settingTop = false;
    Q_EMIT indexProgress(m_index.indexedBytes(), m_index.bytes().size());
    viewport()->update();
}

void LogTextView::clear()
{
    setSource(nullptr);
}

void LogTextView::setMarkedLines(std::vector<std::uint64_t> lines)
{
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    m_markedLines = std::move(lines);
    viewport()->update();
}

int LogTextView::lineHeight() const
{
    return fontMetrics().lineSpacing();
}

int LogTextView::visibleLineCount() const
{
    return std::max(1, viewport()->height() / std::max(1, lineHeight()));
}

int LogTextView::gutterWidth() const
{
    const int digits = std::max(4, digitsOf(std::max(knownLines(), m_minScrollLines)));
    return fontMetrics().horizontalAdvance(QLatin1Char('9')) * (digits + 2);
}

void LogTextView::updateScrollRange()
{
    const std::uint64_t total
        = m_filter ? m_filter->size() : std::max(knownLines(), m_minScrollLines);
    const std::uint64_t page = static_cast<std::uint64_t>(visibleLineCount());
    const bool wasSetting = m_settingTop;
    m_settingTop = true;
    QScrollBar* v = verticalScrollBar();
    v->setPageStep(static_cast<int>(page));
    // Wrapped lines take several rows, so the last line may need to come up to the top.
    const std::uint64_t maxTop
        = m_wrap ? (total > 0 ? total - 1 : 0) : (total > page ? total - page + 1 : 0);
    v->setRange(0, clampToInt(maxTop));
    QScrollBar* h = horizontalScrollBar();
    const int textArea = std::max(0, viewport()->width() - gutterWidth());
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('m'));
    h->setPageStep(std::max(1, textArea));
    h->setSingleStep(std::max(1, em * 4));
    h->setRange(0, m_wrap ? 0 : std::max(0, m_maxTextWidth - textArea + em * 2));
    m_settingTop = wasSetting;
    // The range may have clamped the value: keep the painted top in step with the bar.
    if (!m_settingTop
        && static_cast<std::uint64_t>(v->value()) != std::min<std::uint64_t>(m_topLine, INT_MAX))
        moveTopTo(static_cast<std::uint64_t>(v->value()));
}

void LogTextView::setTop(std::uint64_t line, std::uint64_t offset)
{
    m_topLine = line;
    m_topOffset = offset;
    // A jump past the indexed part must stay scrollable until the index catches up.
    m_minScrollLines
        = std::max(m_minScrollLines, line + static_cast<std::uint64_t>(visibleLineCount()));
    m_settingTop = true;
    updateScrollRange();
    verticalScrollBar()->setValue(clampToInt(line));
    m_settingTop = false;
    viewport()->update();
}

void LogTextView::moveTopTo(std::uint64_t line)
{
    if (!m_bytes || line == m_topLine)
        return;
    if (m_filter) {
        m_topLine = line;
        viewport()->update();
        return;
    }
    const std::string_view b = bytes();
    const std::uint64_t distance = line > m_topLine ? line - m_topLine : m_topLine - line;
    if (distance >= kRelativeMoveLines && line < knownLines()) {
        m_topOffset = m_index.offsetOfLine(line);
        m_topLine = line;
    } else if (line > m_topLine) {
        while (m_topLine < line && m_topOffset < b.size()) {
            const std::uint64_t next = LineIndex::nextLineStart(b, m_topOffset);
            if (next >= b.size())
                break; // stay on the last line
            m_topOffset = next;
            ++m_topLine;
        }
    } else {
        while (m_topLine > line) {
            m_topOffset = LineIndex::previousLineStart(b, m_topOffset);
            --m_topLine;
        }
    }
    viewport()->update();
}

void LogTextView::scrollContentsBy(int, int)
{
    if (!m_settingTop)
        moveTopTo(static_cast<std::uint64_t>(verticalScrollBar()->value()));
    viewport()->update();
}

void LogTextView::setCurrent(std::uint64_t line, std::uint64_t offset)
{
    m_currentOffset = offset;
    if (line == m_currentLine) {
        viewport()->update();
        return;
    }
    m_currentLine = line;
    viewport()->update();
    Q_EMIT currentLineChanged(line);
}

std::optional<std::uint64_t> LogTextView::offsetOfVisibleOrIndexed(std::uint64_t line) const
{
    if (!m_bytes)
        return std::nullopt;
    const std::string_view b = bytes();
    // Near the top line: walk from it (works beyond the indexed prefix too).
    if (!m_filter && line >= m_topLine && line - m_topLine < kRelativeMoveLines) {
        std::uint64_t offset = m_topOffset;
        for (std::uint64_t l = m_topLine; l < line; ++l) {
            offset = LineIndex::nextLineStart(b, offset);
            if (offset >= b.size())
                return std::nullopt;
        }
        return offset;
    }
    if (line < knownLines())
        return m_index.offsetOfLine(line);
    return std::nullopt;
}

void LogTextView::goToLine(std::uint64_t line, std::optional<std::uint64_t> offset)
{
    if (!m_bytes || line == 0)
        return;
    if (m_filter) {
        if (const auto index = filterIndexOf(line)) {
            setCurrent(line, (*m_filter)[*index].lineStart);
            if (!lineRect(line).isEmpty()
                && lineRect(line).top() + lineHeight() <= viewport()->height())
                return;
            const std::uint64_t quarter = static_cast<std::uint64_t>(visibleLineCount()) / 4;
            m_topLine = *index > quarter ? *index - quarter : 0;
            m_settingTop = true;
            updateScrollRange();
            verticalScrollBar()->setValue(clampToInt(m_topLine));
            m_settingTop = false;
            viewport()->update();
            return;
        }
        // The reader asked for a line the filter hides: show it among the filtered lines
        // (the filter is the reader's choice; dropping it would look like losing it).
        const std::string_view b = bytes();
        std::uint64_t start = 0;
        if (offset && *offset <= b.size()) {
            start = LineIndex::lineStartAtOrBefore(b, *offset);
        } else if (line - 1 < knownLines()) {
            start = m_index.offsetOfLine(line - 1);
        } else {
            // Not indexed yet: retry as the index grows.
            m_pendingLine = line;
            if (!m_timer.isActive())
                m_timer.start(0, this);
            return;
        }
        const auto byLine = [](const LogLineRef& ref, std::uint64_t l) { return ref.line < l; };
        if (m_shownDespiteFilter) {
            const auto old = std::lower_bound(
                m_filter->begin(), m_filter->end(), *m_shownDespiteFilter, byLine);
            if (old != m_filter->end() && old->line == *m_shownDespiteFilter)
                m_filter->erase(old);
        }
        m_filter->insert(
            std::lower_bound(m_filter->begin(), m_filter->end(), line, byLine), { line, start });
        m_shownDespiteFilter = line;
        m_pendingLine.reset();
        updateScrollRange();
        Q_EMIT lineShownDespiteFilterChanged(line);
        goToLine(line, start);
        return;
    }
    const std::string_view b = bytes();
    const std::uint64_t target = line - 1;
    std::uint64_t start = 0;
    if (offset && *offset <= b.size()) {
        start = LineIndex::lineStartAtOrBefore(b, *offset);
    } else if (auto known = offsetOfVisibleOrIndexed(target)) {
        start = *known;
    } else {
        // Neither an offset nor an indexed line: retry as the index grows.
        m_pendingLine = line;
        if (!m_timer.isActive())
            m_timer.start(0, this);
        return;
    }
    m_pendingLine.reset();
    setCurrent(line, start);
    const std::uint64_t visible = static_cast<std::uint64_t>(visibleLineCount());
    if (target >= m_topLine && target < m_topLine + visible) {
        // Already on screen (its first row, wrapped lines included): do not move the text
        // under the reader's eyes.
        const QRect rect = lineRect(line);
        if (!rect.isEmpty() && rect.top() + lineHeight() <= viewport()->height())
            return;
    }
    // Put the line a quarter down the view so the lines before it give context.
    std::uint64_t top = target;
    std::uint64_t topOffset = start;
    for (std::uint64_t i = 0; i < visible / 4 && top > 0; ++i) {
        topOffset = LineIndex::previousLineStart(b, topOffset);
        --top;
    }
    setTop(top, topOffset);
}

QRect LogTextView::lineRect(std::uint64_t line) const
{
    if (line == 0)
        return {};
    const Layout layout = layoutRows();
    const int lh = lineHeight();
    QRect rect;
    for (std::size_t i = 0; i < layout.rows.size(); ++i) {
        if (layout.rows[i].line == line)
            rect |= QRect(0, static_cast<int>(i) * lh, viewport()->width(), lh);
    }
    return rect;
}

QString LogTextView::lineString(std::uint64_t line) const
{
    if (line == 0)
        return {};
    const auto offset = offsetOfVisibleOrIndexed(line - 1);
    if (!offset)
        return {};
    return LogDisplayLines::displayLineAt(bytes(), *offset);
}
qreal LogTextView::columnWidth() const
{
    // Averaged over many glyphs: one glyph's advance is rounded, and the error adds up
    // across a 150-column row until the last characters fall off the right edge.
    const QFontMetricsF fm(font());
    return std::max(1.0, fm.horizontalAdvance(QString(100, QLatin1Char('m'))) / 100.0);
}

int LogTextView::wrapColumns() const
{
    const int pad = fontMetrics().horizontalAdvance(QLatin1Char(' '));
    return std::max(
        8, static_cast<int>((viewport()->width() - gutterWidth() - 2 * pad) / columnWidth()));
}

int LogTextView::textX0() const
{
    return gutterWidth() + fontMetrics().horizontalAdvance(QLatin1Char(' '))
        - (m_wrap ? 0 : horizontalScrollBar()->value());
}

LogTextView::Layout LogTextView::layoutRows() const
{
    Layout out;
    if (!m_bytes)
        return out;
    const std::string_view b = bytes();
    const int maxRows = visibleLineCount() + 1;
    // The font is fixed-width, so a wrapped line's rows are runs of wrapColumns() characters.
    const int columns = m_wrap ? wrapColumns() : INT_MAX;
    const auto addLine = [&](LogDisplayLines& lines, std::uint64_t line, std::uint64_t start) {
        bool cut = false;
        QString text = lines.displayLine(start, &cut);
        const int index = static_cast<int>(out.texts.size());
        const int length = static_cast<int>(text.size());
        out.texts.push_back(std::move(text));
        out.cut.push_back(cut);
        int column = 0;
        do {
            const int n = std::min(columns, length - column);
            out.rows.push_back({ line, start, index, column, n });
            column += n;
        } while (column < length && static_cast<int>(out.rows.size()) < maxRows);
    };
    if (m_filter) {
        for (std::uint64_t i = m_topLine;
             i < m_filter->size() && static_cast<int>(out.rows.size()) < maxRows; ++i) {
            const LogLineRef& ref = (*m_filter)[i];
            LogDisplayLines lines(b, ref.lineStart);
            addLine(lines, ref.line, ref.lineStart);
        }
        return out;
    }
    LogDisplayLines lines(b, m_topOffset);
    std::uint64_t line = m_topLine + 1;
    for (std::uint64_t offset = m_topOffset;
         offset < b.size() && static_cast<int>(out.rows.size()) < maxRows;
         offset = LineIndex::nextLineStart(b, offset))
        addLine(lines, line++, offset);
    return out;
}

int LogTextView::matchColumn(const QString& text) const
{
    if (m_matchLength == 0 || m_matchText.isEmpty())
        return -1;
    const std::string_view raw = LineIndex::lineText(bytes(), m_matchLineStart);
    const std::uint64_t within = m_matchOffset - m_matchLineStart;
    if (within > raw.size())
        return -1;
    // Columns count displayed characters; a secret masked before the match shifts it, and
    // then the text itself is looked for.
    const int column = static_cast<int>(logDisplayText(raw.substr(0, within)).size());
    if (text.mid(column, m_matchText.size()).compare(m_matchText, Qt::CaseInsensitive) == 0)
        return column;
    return static_cast<int>(text.indexOf(m_matchText, 0, Qt::CaseInsensitive));
}

void LogTextView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    const QPalette& pal = palette();
    const theme::SemanticColors colors = theme::colors(pal);
    p.fillRect(viewport()->rect(), pal.color(QPalette::Base));
    const int gutter = gutterWidth();
    p.fillRect(QRect(0, 0, gutter, viewport()->height()), pal.color(QPalette::Window));
    if (!m_bytes)
        return;
    const QFontMetrics fm = fontMetrics();
    const int lh = fm.lineSpacing();
    const int pad = fm.horizontalAdvance(QLatin1Char(' '));
    const int markerWidth = std::max(3, pad / 2);
    const int x0 = textX0();
    const int baseline = fm.ascent() + (lh - fm.height()) / 2;
    const QColor markedBg = theme::tint(colors.warning, pal);
    const QColor currentBg = theme::tint(colors.initiating, pal);
    const QColor matchBg
        = theme::isDark(pal) ? colors.warning.darker(160) : colors.warning.lighter(130);
    const QColor numberColor = pal.color(QPalette::PlaceholderText);
    const QString cutNote = tr("… (line cut)");
    const Layout layout = layoutRows();
    int widest = m_maxTextWidth;
    for (std::size_t i = 0; i < layout.rows.size(); ++i) {
        const Row& row = layout.rows[i];
        const QString& text = layout.texts[static_cast<std::size_t>(row.text)];
        const QString piece = text.mid(row.start, row.length);
        const bool lastRow = row.start + row.length >= text.size();
        const int y = static_cast<int>(i) * lh;
        const QRect textRect(gutter, y, viewport()->width() - gutter, lh);
        const auto xOf = [&](int column) {
            return x0
                + fm.horizontalAdvance(piece.left(std::clamp(column - row.start, 0, row.length)));
        };
        const bool current = row.line == m_currentLine;
        const bool marked
            = std::binary_search(m_markedLines.begin(), m_markedLines.end(), row.line);
        if (current || marked) {
            p.fillRect(textRect, current ? currentBg : markedBg);
            p.fillRect(QRect(0, y, markerWidth, lh), current ? colors.initiating : colors.warning);
        }
        if (row.start == 0) {
            p.setPen(current ? pal.color(QPalette::Text) : numberColor);
            p.drawText(QRect(0, y, gutter - pad, lh), Qt::AlignRight | Qt::AlignVCenter,
                QString::number(row.line));
        }
        p.save();
        p.setClipRect(textRect);
        // Every visible match of the Find text (a match cut by a wrap is tinted on both rows).
        if (!m_highlight.isEmpty()) {
            for (qsizetype at = text.indexOf(m_highlight, 0, Qt::CaseInsensitive); at >= 0;
                 at = text.indexOf(m_highlight, at + m_highlight.size(), Qt::CaseInsensitive)) {
                const int from = xOf(static_cast<int>(at));
                const int to = xOf(static_cast<int>(at + m_highlight.size()));
                if (to > from)
                    p.fillRect(QRect(from, y, to - from, lh), matchBg);
            }
        }
        QRect selected;
        if (const auto columns = m_selection.columnsOn(row.lineStart)) {
            const auto [from, to] = *columns;
            // A selection running on past the line end takes its line break: one space more.
            const int tail = to > text.size() && lastRow ? pad : 0;
            const int xFrom = xOf(from);
            const int xTo = xOf(to) + tail;
            if (xTo > xFrom && from <= row.start + row.length) {
                selected = QRect(xFrom, y, xTo - xFrom, lh);
                p.fillRect(selected, pal.color(QPalette::Highlight));
            }
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(x0, y + baseline, piece);
        if (!selected.isEmpty()) {
            p.setClipRect(selected & textRect);
            p.setPen(pal.color(QPalette::HighlightedText));
            p.drawText(x0, y + baseline, piece);
            p.setClipRect(textRect);
        }
        if (row.lineStart == m_matchLineStart && m_matchLength > 0) {
            const int column = matchColumn(text);
            if (column >= 0 && column < row.start + row.length
                && column + m_matchText.size() > row.start) {
                const int from = xOf(column);
                const int to = xOf(column + static_cast<int>(m_matchText.size()));
                p.setPen(QPen(colors.initiating, 2));
                p.drawRect(QRect(from, y + 1, std::max(2, to - from), lh - 2));
            }
        }
        const int width = fm.horizontalAdvance(piece);
        const bool cut = layout.cut[static_cast<std::size_t>(row.text)] && lastRow;
        if (cut) {
            p.setPen(numberColor);
            p.drawText(x0 + width + pad, y + baseline, cutNote);
        }
        p.restore();
        widest = std::max(widest, width + (cut ? fm.horizontalAdvance(cutNote) + pad : 0));
    }
    if (!m_wrap && widest > m_maxTextWidth) {
        m_maxTextWidth = widest;
        // Changing the scroll range while painting would recurse; do it right after.
        QMetaObject::invokeMethod(
            this, [this] { updateScrollRange(); }, Qt::QueuedConnection);
    }
}

void LogTextView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRange();
}

void LogTextView::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        updateScrollRange();
        viewport()->update();
    }
}

std::optional<std::uint64_t> LogTextView::filterIndexOf(std::uint64_t line) const
{
    if (!m_filter)
        return std::nullopt;
    const auto it = std::lower_bound(m_filter->begin(), m_filter->end(), line,
        [](const LogLineRef& ref, std::uint64_t l) { return ref.line < l; });
    if (it == m_filter->end() || it->line != line)
        return std::nullopt;
    return static_cast<std::uint64_t>(it - m_filter->begin());
}

void LogTextView::setLineFilter(std::optional<std::vector<LogLineRef>> lines)
{
    if (!m_bytes)
        lines.reset();
    const std::uint64_t current = m_currentLine;
    const std::uint64_t currentOffset = m_currentOffset;
    m_filter = std::move(lines);
    m_shownDespiteFilter.reset();
    m_topLine = 0;
    m_topOffset = 0;
    m_settingTop = true;
    updateScrollRange();
    verticalScrollBar()->setValue(0);
    m_settingTop = false;
    // Keep the current line in view when it is still shown.
    if (current > 0 && (!m_filter || filterIndexOf(current)))
        goToLine(current, currentOffset);
    viewport()->update();
}

void LogTextView::setWrapLines(bool wrap)
{
    if (wrap == m_wrap)
        return;
    m_wrap = wrap;
    setHorizontalScrollBarPolicy(m_wrap ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    if (m_wrap)
        horizontalScrollBar()->setValue(0);
    updateScrollRange();
    viewport()->update();
    Q_EMIT wrapLinesChanged(m_wrap);
}

void LogTextView::timerEvent(QTimerEvent* event)
{
    if (event->timerId() != m_timer.timerId())
        return QAbstractScrollArea::timerEvent(event);
    tick();
}

void LogTextView::tick()
{
    if (m_find) {
        searchStep();
    } else {
        if (!m_index.complete()) {
            m_index.indexMore(kChunkBytes);
            updateScrollRange();
            viewport()->update(); // the gutter may widen
            Q_EMIT indexProgress(m_index.indexedBytes(), m_index.bytes().size());
            if (m_pendingLine && (*m_pendingLine <= knownLines() || m_index.complete()))
                goToLine(std::min(*m_pendingLine, std::max<std::uint64_t>(1, knownLines())));
        }
        if (m_counter && !m_counter->complete()) {
            m_counter->countMore(kChunkBytes);
            Q_EMIT matchCountChanged();
        }
    }
    if (!m_find && m_index.complete() && (!m_counter || m_counter->complete()))
        m_timer.stop();
}

void LogTextView::setSearchHighlight(const QString& needle)
{
    if (needle == m_highlight)
        return;
    m_highlight = needle;
    viewport()->update();
}

void LogTextView::find(const QString& needle, bool backwards)
{
    cancelFind();
    if (!m_bytes || needle.isEmpty()) {
        Q_EMIT searchFinished(false, false);
        return;
    }
    const QByteArray utf8 = needle.toUtf8();
    const std::string_view needleBytes(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    if (!m_counter || m_counter->needle() != needleBytes) {
        m_counter.emplace(bytes(), needleBytes);
        m_counter->countMore(kChunkBytes); // a small file has its count at once
        Q_EMIT matchCountChanged();
    }
    if (needle.compare(m_matchText, Qt::CaseInsensitive) != 0)
        m_matchLength = 0;
    m_matchText = needle;
    const std::string_view b = bytes();
    std::uint64_t pos = 0;
    std::uint64_t line = 0;
    if (m_matchLength > 0 && m_currentLine > 0 && m_matchLineStart == m_currentOffset) {
        // Step from the last match, so several matches on one line are each visited.
        pos = backwards ? m_matchOffset : m_matchOffset + 1;
        line = m_currentLine - 1;
    } else {
        // From the top line (while filtering, m_topLine counts shown lines: from the start).
        const std::uint64_t currentStart
            = m_currentLine > 0 ? m_currentOffset : (m_filter ? 0 : m_topOffset);
        const std::uint64_t currentLine0
            = m_currentLine > 0 ? m_currentLine - 1 : (m_filter ? 0 : m_topLine);
        const bool fromNextLine = !backwards && m_currentLine > 0;
        pos = fromNextLine ? LineIndex::nextLineStart(b, currentStart) : currentStart;
        line = fromNextLine ? currentLine0 + 1 : currentLine0;
    }
    m_find.emplace(needleBytes, backwards, pos, line);
    // The first chunk runs now: a hit near the cursor needs no event-loop round trip.
    if (!searchStep() || !m_counter->complete())
        m_timer.start(0, this);
}

void LogTextView::cancelFind()
{
    m_find.reset();
}

void LogTextView::finishSearch(std::optional<std::uint64_t> matchLine, std::uint64_t matchOffset)
{
    const bool wrapped = m_find && m_find->wrapped();
    const std::uint64_t length = m_find ? m_find->needleSize() : 0;
    cancelFind();
    if (matchLine) {
        m_matchOffset = matchOffset;
        m_matchLength = length;
        m_matchLineStart = LineIndex::lineStartAtOrBefore(bytes(), matchOffset);
        goToLine(*matchLine + 1, matchOffset);
        scrollToMatch();
    }
    Q_EMIT searchFinished(matchLine.has_value(), wrapped);
}

bool LogTextView::searchStep()
{
    const bool indexWasComplete = m_index.complete();
    const LogFind::Step step = m_find->step(m_index, kChunkBytes);
    if (!indexWasComplete && m_index.complete())
        updateScrollRange(); // a backward search that wrapped finished the index
    if (step == LogFind::Step::Running)
        return false;
    if (step == LogFind::Step::Found)
        finishSearch(m_find->matchLine(), m_find->matchOffset());
    else
        finishSearch(std::nullopt, 0);
    return true;
}

void LogTextView::scrollToMatch()
{
    if (m_wrap || m_matchLength == 0)
        return;
    const QString text = LogDisplayLines::displayLineAt(bytes(), m_matchLineStart);
    const int column = matchColumn(text);
    if (column < 0)
        return;
    const QFontMetrics fm = fontMetrics();
    const int x = fm.horizontalAdvance(text.left(column));
    const int w = fm.horizontalAdvance(text.mid(column, m_matchText.size()));
    const int textArea = std::max(
        0, viewport()->width() - gutterWidth() - 2 * fm.horizontalAdvance(QLatin1Char(' ')));
    m_maxTextWidth = std::max(m_maxTextWidth, fm.horizontalAdvance(text));
    updateScrollRange();
    QScrollBar* h = horizontalScrollBar();
    if (x >= h->value() && x + w <= h->value() + textArea)
        return;
    // A third into the view, so the text before the match gives context.
    h->setValue(std::max(0, x - textArea / 3));
}

std::optional<std::uint64_t> LogTextView::currentMatchOrdinal() const
{
    if (!m_counter || m_matchLength == 0)
        return std::nullopt;
    return m_counter->ordinalOf(m_matchOffset);
}

} // namespace rankscope::views
