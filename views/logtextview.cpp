#include "views/logtextview.h"

#include "views/theme.h"

#include <QFontDatabase>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <climits>

namespace rankscope::views {

namespace {

// Moving the top line by fewer lines than this walks the bytes from the current top;
// farther jumps go through the line index.
constexpr std::uint64_t kRelativeMoveLines = 64;
constexpr int kTabWidth = 8;

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
    const std::uint64_t total = std::max(knownLines(), m_minScrollLines);
    const int page = visibleLineCount();
    const bool wasSetting = m_settingTop;
    m_settingTop = true;
    QScrollBar* v = verticalScrollBar();
    v->setPageStep(page);
    v->setRange(0, clampToInt(total > static_cast<std::uint64_t>(page) ? total - page + 1 : 0));
    QScrollBar* h = horizontalScrollBar();
    const int textArea = std::max(0, viewport()->width() - gutterWidth());
    h->setPageStep(std::max(1, textArea));
    h->setSingleStep(std::max(1, fontMetrics().horizontalAdvance(QLatin1Char('m')) * 4));
    h->setRange(0,
        std::max(
            0, m_maxTextWidth - textArea + fontMetrics().horizontalAdvance(QLatin1Char('m')) * 2));
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
    if (line >= m_topLine && line - m_topLine < kRelativeMoveLines) {
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
    if (target >= m_topLine && target + 1 < m_topLine + visible)
        return; // already on screen: do not move the text under the reader's eyes
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
    if (line == 0 || line - 1 < m_topLine)
        return {};
    const std::uint64_t row = line - 1 - m_topLine;
    if (row >= static_cast<std::uint64_t>(visibleLineCount()))
        return {};
    const int lh = lineHeight();
    return QRect(0, static_cast<int>(row) * lh, viewport()->width(), lh);
}

QString LogTextView::lineString(std::uint64_t line) const
{
    if (line == 0)
        return {};
    const auto offset = offsetOfVisibleOrIndexed(line - 1);
    if (!offset)
        return {};
    bool cut = false;
    return displayText(LineIndex::lineText(bytes(), *offset), &cut);
}

QString LogTextView::displayText(std::string_view raw, bool* cut) const
{
    *cut = raw.size() > static_cast<std::size_t>(kMaxLineChars);
    if (*cut)
        raw = raw.substr(0, kMaxLineChars);
    const QString decoded = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
    QString out;
    out.reserve(decoded.size());
    for (const QChar c : decoded) {
        if (c == QLatin1Char('\t')) {
            const qsizetype pad = kTabWidth - out.size() % kTabWidth;
            out.append(QString(pad, QLatin1Char(' ')));
        } else if (c == QLatin1Char('\r')) {
            out.append(QChar(0x21B5)); // ↵: a \r-glued segment (tqdm) starts here
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            out.append(QChar(0x00B7)); // binary garbage stays one visible cell
        } else {
            out.append(c);
        }
    }
    return out;
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
    const int x0 = gutter + pad - horizontalScrollBar()->value();
    const std::string_view b = bytes();
    const QColor markedBg = theme::tint(colors.warning, pal);
    const QColor currentBg = theme::tint(colors.initiating, pal);
    const QColor matchBg
        = theme::isDark(pal) ? colors.warning.darker(160) : colors.warning.lighter(130);
    const QColor numberColor = pal.color(QPalette::PlaceholderText);
    const int rows = visibleLineCount() + 1;
    std::uint64_t offset = m_topOffset;
    int widest = m_maxTextWidth;
    for (int row = 0; row < rows; ++row) {
        if (offset >= b.size() && !(offset == 0 && b.empty()))
            break;
        if (b.empty())
            break;
        const std::uint64_t line = m_topLine + static_cast<std::uint64_t>(row) + 1;
        const int y = row * lh;
        const bool current = line == m_currentLine;
        const bool marked = std::binary_search(m_markedLines.begin(), m_markedLines.end(), line);
        if (current || marked)
            p.fillRect(
                QRect(gutter, y, viewport()->width() - gutter, lh), current ? currentBg : markedBg);
        if (current || marked)
            p.fillRect(QRect(0, y, markerWidth, lh), current ? colors.initiating : colors.warning);
        p.setPen(current ? pal.color(QPalette::Text) : numberColor);
        p.drawText(QRect(0, y, gutter - pad, lh), Qt::AlignRight | Qt::AlignVCenter,
            QString::number(line));

        bool cut = false;
        const QString text = displayText(LineIndex::lineText(b, offset), &cut);
        p.save();
        p.setClipRect(QRect(gutter, y, viewport()->width() - gutter, lh));
        if (!m_highlight.isEmpty()) {
            qsizetype at = text.indexOf(m_highlight, 0, Qt::CaseInsensitive);
            while (at >= 0) {
                const int mx = x0 + fm.horizontalAdvance(text.left(at));
                const int mw = fm.horizontalAdvance(text.mid(at, m_highlight.size()));
                p.fillRect(QRect(mx, y, mw, lh), matchBg);
                at = text.indexOf(m_highlight, at + m_highlight.size(), Qt::CaseInsensitive);
            }
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(x0, y + fm.ascent() + (lh - fm.height()) / 2, text);
        const int width = fm.horizontalAdvance(text);
        if (cut) {
            p.setPen(numberColor);
            p.drawText(x0 + width + pad, y + fm.ascent(), tr("… (line cut)"));
        }
        p.restore();
        widest
            = std::max(widest, width + (cut ? fm.horizontalAdvance(tr("… (line cut)")) + pad : 0));
        offset = LineIndex::nextLineStart(b, offset);
    }
    if (widest > m_maxTextWidth) {
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

void LogTextView::mousePressEvent(QMouseEvent* event)
{
    if (!m_bytes || event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    const int row = static_cast<int>(event->position().y()) / std::max(1, lineHeight());
    const std::uint64_t line0 = m_topLine + static_cast<std::uint64_t>(std::max(0, row));
    if (auto offset = offsetOfVisibleOrIndexed(line0)) {
        setCurrent(line0 + 1, *offset);
        Q_EMIT lineActivated(line0 + 1);
    }
}

void LogTextView::keyPressEvent(QKeyEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        if (event->key() == Qt::Key_Home) {
            verticalScrollBar()->setValue(0);
            return;
        }
        if (event->key() == Qt::Key_End) {
            verticalScrollBar()->setValue(verticalScrollBar()->maximum());
            return;
        }
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void LogTextView::timerEvent(QTimerEvent* event)
{
    if (event->timerId() != m_timer.timerId())
        return QAbstractScrollArea::timerEvent(event);
    tick();
}

void LogTextView::tick()
{
    if (m_search.active) {
        searchStep();
    } else if (!m_index.complete()) {
        m_index.indexMore(kChunkBytes);
        updateScrollRange();
        viewport()->update(); // the gutter may widen
        Q_EMIT indexProgress(m_index.indexedBytes(), m_index.bytes().size());
        if (m_pendingLine && (*m_pendingLine <= knownLines() || m_index.complete()))
            goToLine(std::min(*m_pendingLine, std::max<std::uint64_t>(1, knownLines())));
    }
    if (!m_search.active && m_index.complete())
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
    m_search.searcher.emplace(
        std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    m_search.backwards = backwards;
    m_search.wrapped = false;
    const std::string_view b = bytes();
    const std::uint64_t currentStart = m_currentLine > 0 ? m_currentOffset : m_topOffset;
    const std::uint64_t currentLine0 = m_currentLine > 0 ? m_currentLine - 1 : m_topLine;
    if (backwards) {
        m_search.pos = currentStart;
        m_search.line = currentLine0;
    } else {
        m_search.pos = m_currentLine > 0 ? LineIndex::nextLineStart(b, currentStart) : currentStart;
        m_search.line = m_currentLine > 0 ? currentLine0 + 1 : currentLine0;
    }
    m_search.stopAt = m_search.pos;
    m_search.active = true;
    // The first chunk runs now: a hit near the cursor needs no event-loop round trip.
    if (!searchStep())
        m_timer.start(0, this);
}

void LogTextView::cancelFind()
{
    m_search.active = false;
    m_search.searcher.reset();
}

bool LogTextView::searchStep()
{
    const std::string_view b = bytes();
    const TextSearch& searcher = *m_search.searcher;
    const std::uint64_t n = searcher.size();
    if (!m_search.backwards) {
        const std::uint64_t end = m_search.wrapped ? m_search.stopAt : b.size();
        const std::uint64_t chunkEnd = std::min<std::uint64_t>(end, m_search.pos + kChunkBytes);
        // Matches may start before chunkEnd and run past it.
        const std::uint64_t windowEnd = std::min<std::uint64_t>(b.size(), chunkEnd + n - 1);
        if (m_search.pos < windowEnd) {
            const auto hit = searcher.findFirst(b.substr(m_search.pos, windowEnd - m_search.pos));
            if (hit && m_search.pos + *hit < chunkEnd) {
                const std::uint64_t at = m_search.pos + *hit;
                finishSearch(m_search.line
                        + LineIndex::countNewlines(b.substr(m_search.pos, at - m_search.pos)),
                    at);
                return true;
            }
        }
        m_search.line += LineIndex::countNewlines(b.substr(m_search.pos, chunkEnd - m_search.pos));
        m_search.pos = chunkEnd;
        if (m_search.pos >= end) {
            if (m_search.wrapped || m_search.stopAt == 0) {
                finishSearch(std::nullopt, 0);
                return true;
            }
            m_search.wrapped = true;
            m_search.pos = 0;
            m_search.line = 0;
        }
        return false;
    }
    // Backwards: scan [lo, pos) from its end.
    if (m_search.wrapped && !m_index.complete()) {
        // The line number of the end of the file needs the full index.
        m_index.indexMore(kChunkBytes);
        if (!m_index.complete())
            return false;
        updateScrollRange();
        m_search.line = knownLines() - ((!b.empty() && b.back() != '\n') ? 1 : 0);
    }
    const std::uint64_t lo = m_search.wrapped ? m_search.stopAt : 0;
    const std::uint64_t chunkStart
        = m_search.pos > lo + kChunkBytes ? m_search.pos - kChunkBytes : lo;
    const std::uint64_t windowEnd = std::min<std::uint64_t>(b.size(), m_search.pos + n - 1);
    if (chunkStart < windowEnd) {
        const auto hit = searcher.findLast(b.substr(chunkStart, windowEnd - chunkStart));
        if (hit && chunkStart + *hit < m_search.pos) {
            const std::uint64_t at = chunkStart + *hit;
            finishSearch(
                m_search.line - LineIndex::countNewlines(b.substr(at, m_search.pos - at)), at);
            return true;
        }
    }
    m_search.line -= LineIndex::countNewlines(b.substr(chunkStart, m_search.pos - chunkStart));
    m_search.pos = chunkStart;
    if (m_search.pos <= lo) {
        if (m_search.wrapped || m_search.stopAt >= b.size()) {
            finishSearch(std::nullopt, 0);
            return true;
        }
        m_search.wrapped = true;
        m_search.pos = b.size();
        if (m_index.complete())
            m_search.line = knownLines() - ((!b.empty() && b.back() != '\n') ? 1 : 0);
    }
    return false;
}

void LogTextView::finishSearch(std::optional<std::uint64_t> matchLine, std::uint64_t matchOffset)
{
    const bool wrapped = m_search.wrapped;
    cancelFind();
    if (matchLine)
        goToLine(*matchLine + 1, matchOffset);
    Q_EMIT searchFinished(matchLine.has_value(), wrapped);
}

} // namespace rankscope::views
