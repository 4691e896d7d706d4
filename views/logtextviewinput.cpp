// LogTextView's selection, mouse, keyboard and context menu: where a click lands in the
// wrapped rows, moving the cursor, Select All, Copy (masked text, capped) and the menu with
// "Copy link to this line". Kept apart from logtextview.cpp, which paints, scrolls and runs
// Find, so each file reads as one concern.
#include "views/logtextview.h"

#include "views/logdisplaylines.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>

#include <algorithm>

namespace rankscope::views {

std::optional<LogTextPosition> LogTextView::positionAt(const QPoint& pos) const
{
    const Layout layout = layoutRows();
    if (layout.rows.empty())
        return std::nullopt;
    const int lh = std::max(1, lineHeight());
    const int index = std::clamp(pos.y() / lh, 0, static_cast<int>(layout.rows.size()) - 1);
    const Row& row = layout.rows[static_cast<std::size_t>(index)];
    if (pos.y() >= static_cast<int>(layout.rows.size()) * lh)
        return LogTextPosition { row.line, row.lineStart, row.start + row.length };
    const QString& text = layout.texts[static_cast<std::size_t>(row.text)];
    return LogTextPosition { row.line, row.lineStart,
        row.start + columnAtX(text.mid(row.start, row.length), pos.x()) };
}

int LogTextView::columnAtX(const QString& rowText, int x) const
{
    // Fixed-width font: a column is one advance of 'm'; a click lands on the nearer edge.
    const qreal within = x - textX0();
    return std::clamp(
        static_cast<int>(within / columnWidth() + 0.5), 0, static_cast<int>(rowText.size()));
}

int LogTextView::displayLength(std::uint64_t lineStart) const
{
    return static_cast<int>(LogDisplayLines::displayLineAt(bytes(), lineStart).size());
}

void LogTextView::moveCursorTo(const LogTextPosition& pos, bool extend)
{
    m_selection.moveCursor(pos, extend);
    if (pos.line > 0)
        setCurrent(pos.line, pos.lineStart);
    viewport()->update();
}

void LogTextView::moveCursorByLines(int delta, bool extend)
{
    if (!m_bytes)
        return;
    const std::string_view b = bytes();
    LogTextPosition from = m_selection.cursor();
    if (from.line == 0 && m_currentLine > 0)
        from = { m_currentLine, m_currentOffset, 0 };
    if (from.line == 0)
        return;
    LogTextPosition to = from;
    if (m_filter) {
        const auto index = filterIndexOf(from.line);
        if (!index || (delta < 0 && *index == 0) || (delta > 0 && *index + 1 >= m_filter->size()))
            return;
        const LogLineRef& ref = (*m_filter)[delta < 0 ? *index - 1 : *index + 1];
        to.line = ref.line;
        to.lineStart = ref.lineStart;
    } else if (delta > 0) {
        const std::uint64_t next = LineIndex::nextLineStart(b, from.lineStart);
        if (next >= b.size())
            return;
        to = { from.line + 1, next, from.column };
    } else {
        if (from.lineStart == 0)
            return;
        to = { from.line - 1, LineIndex::previousLineStart(b, from.lineStart), from.column };
    }
    to.column = std::min(to.column, displayLength(to.lineStart));
    moveCursorTo(to, extend);
    ensureLineVisible(to.line);
}

void LogTextView::ensureLineVisible(std::uint64_t line)
{
    QScrollBar* v = verticalScrollBar();
    // One line at a time: wrapped lines make the distance in rows unknown up front.
    for (int guard = 0; guard < 4 * visibleLineCount() + 4; ++guard) {
        const QRect rect = lineRect(line);
        if (!rect.isEmpty() && rect.top() + lineHeight() <= viewport()->height())
            return;
        const std::uint64_t position = m_filter ? filterIndexOf(line).value_or(0) : line - 1;
        const int next = v->value() + (position < m_topLine ? -1 : 1);
        if (next < v->minimum() || next > v->maximum())
            return;
        v->setValue(next);
    }
}

void LogTextView::selectAll()
{
    if (!m_bytes || bytes().empty())
        return;
    const std::string_view b = bytes();
    if (m_filter) {
        if (m_filter->empty())
            return;
        const LogLineRef& first = m_filter->front();
        const LogLineRef& last = m_filter->back();
        m_selection.set({ first.line, first.lineStart, 0 },
            { last.line, last.lineStart, LogTextPosition::kLineEnd });
    } else {
        const std::uint64_t lastStart
            = LineIndex::lineStartAtOrBefore(b, b.back() == '\n' ? b.size() - 1 : b.size());
        m_selection.set({ 1, 0, 0 },
            { m_index.complete() ? knownLines() : 0, lastStart, LogTextPosition::kLineEnd });
    }
    viewport()->update();
}

void LogTextView::clearSelection()
{
    m_selection.clear();
    viewport()->update();
}

QString LogTextView::selectedText(bool* truncated) const
{
    if (!m_bytes)
        return {};
    return m_selection.text(bytes(), m_filter ? &*m_filter : nullptr, kMaxCopyChars, truncated);
}

bool LogTextView::copySelection()
{
    bool truncated = false;
    const QString text = selectedText(&truncated);
    if (text.isEmpty())
        return false;
    QGuiApplication::clipboard()->setText(text);
    Q_EMIT selectionCopied(text.size(), truncated);
    return true;
}

void LogTextView::selectBetween(const QPoint& from, const QPoint& to)
{
    const auto anchor = positionAt(from);
    const auto cursor = positionAt(to);
    if (!anchor || !cursor)
        return;
    moveCursorTo(*anchor, false);
    moveCursorTo(*cursor, true);
}

QMenu* LogTextView::createContextMenu(const QPoint& pos)
{
    auto* menu = new QMenu(this);
    const auto at = positionAt(pos);
    // The line right-clicked becomes current, so the reader sees which line a link names.
    if (at && at->line > 0)
        setCurrent(at->line, at->lineStart);
    const std::uint64_t line = at && at->line > 0 ? at->line : m_currentLine;
    QAction* copy = menu->addAction(tr("&Copy"), this, [this] { copySelection(); });
    copy->setObjectName(QStringLiteral("copyAction"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setEnabled(hasSelection());
    QAction* all = menu->addAction(tr("Select &All"), this, &LogTextView::selectAll);
    all->setObjectName(QStringLiteral("selectAllAction"));
    all->setShortcut(QKeySequence::SelectAll);
    menu->addSeparator();
    QAction* link = menu->addAction(tr("Copy &Link to Line %1").arg(line), this,
        [this, line] { Q_EMIT linkToLineRequested(line); });
    link->setObjectName(QStringLiteral("copyLinkAction"));
    link->setToolTip(tr("Copies path:line, the form the report and rankscope-cli use"));
    link->setEnabled(line > 0);
    if (m_explainer && line > 0) {
        const QString text = lineString(line);
        QAction* explain = menu->addAction(tr("What Does This Line &Mean?"), this,
            [this, text] { Q_EMIT explainLineRequested(text); });
        explain->setObjectName(QStringLiteral("explainLineAction"));
        explain->setEnabled(m_explainer(text));
    }
    menu->addSeparator();
    QAction* wrap = menu->addAction(tr("&Wrap Long Lines"));
    wrap->setObjectName(QStringLiteral("wrapAction"));
    wrap->setCheckable(true);
    wrap->setChecked(m_wrap);
    connect(wrap, &QAction::toggled, this, &LogTextView::setWrapLines);
    return menu;
}

void LogTextView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu* menu = createContextMenu(event->pos());
    menu->exec(event->globalPos());
    delete menu;
}

void LogTextView::mousePressEvent(QMouseEvent* event)
{
    if (!m_bytes || event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    const auto pos = positionAt(event->position().toPoint());
    if (!pos)
        return;
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    moveCursorTo(*pos, extend);
    m_dragging = true;
    if (!extend)
        Q_EMIT lineActivated(pos->line);
}

void LogTextView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging || !(event->buttons() & Qt::LeftButton))
        return QAbstractScrollArea::mouseMoveEvent(event);
    QPoint point = event->position().toPoint();
    // Dragging above or below the text scrolls it a line per move.
    QScrollBar* v = verticalScrollBar();
    if (point.y() < 0)
        v->setValue(v->value() - 1);
    else if (point.y() >= viewport()->height())
        v->setValue(v->value() + 1);
    point.setY(std::clamp(point.y(), 0, viewport()->height() - 1));
    if (const auto pos = positionAt(point))
        moveCursorTo(*pos, true);
}

void LogTextView::mouseReleaseEvent(QMouseEvent* event)
{
    m_dragging = false;
    QAbstractScrollArea::mouseReleaseEvent(event);
}

void LogTextView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        return;
    }
    if (event->matches(QKeySequence::SelectAll)) {
        selectAll();
        return;
    }
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    if (event->modifiers() & Qt::ControlModifier) {
        if (event->key() == Qt::Key_Home) {
            verticalScrollBar()->setValue(0);
            return;
        }
        if (event->key() == Qt::Key_End) {
            verticalScrollBar()->setValue(verticalScrollBar()->maximum());
            return;
        }
    } else if (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down) {
        moveCursorByLines(event->key() == Qt::Key_Up ? -1 : 1, shift);
        return;
    } else if (shift && m_selection.cursor().line > 0) {
        // Shift+Left/Right/Home/End extend the selection along the cursor's line.
        LogTextPosition to = m_selection.cursor();
        const int length = displayLength(to.lineStart);
        to.column = std::min(to.column, length);
        switch (event->key()) {
        case Qt::Key_Left:
            to.column = std::max(0, to.column - 1);
            break;
        case Qt::Key_Right:
            to.column = std::min(length, to.column + 1);
            break;
        case Qt::Key_Home:
            to.column = 0;
            break;
        case Qt::Key_End:
            to.column = length;
            break;
        default:
            return QAbstractScrollArea::keyPressEvent(event);
        }
        moveCursorTo(to, true);
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

} // namespace rankscope::views
