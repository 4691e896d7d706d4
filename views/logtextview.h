#pragma once
// The text area of the log viewer: paints only the visible lines of one source, straight
// from its bytes (a mapping for plain files), so a multi-GB log opens instantly. The line
// index is built in bounded chunks from a zero-interval timer and the vertical scroll range
// grows as it goes; jumps to an evidence reference use its byte offset and never wait for
// the index. Find runs the same way, chunk by chunk, so the window never freezes, and so
// does counting its matches. Long lines wrap (only the visible lines are laid out, in a
// fixed-width font so a line's rows are its length over the columns that fit). Text is
// selected with the mouse or Shift+arrows and copied masked (logdisplaylines.h). A severity
// filter shows only the given lines (the log viewer passes its events' lines).

#include "model/sourceaccess.h"
#include "views/lineexplainer.h"
#include "views/lineindex.h"
#include "views/logfind.h"
#include "views/logmatchcounter.h"
#include "views/logtextselection.h"

#include <QAbstractScrollArea>
#include <QBasicTimer>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QMenu;

namespace rankscope::views {

class LogDisplayLines;

class LogTextView : public QAbstractScrollArea {
    Q_OBJECT
public:
    // Bytes indexed / searched per timer tick: ~5 ms of memchr, so input stays responsive.
    static constexpr std::size_t kChunkBytes = 16u << 20;
    // Characters copied at most (Select All on a 1 GB log copies its first part).
    static constexpr qsizetype kMaxCopyChars = 8 << 20;

    explicit LogTextView(QWidget* parent = nullptr);

    void setSource(std::shared_ptr<const model::SourceBytes> bytes);
    void clear();
    bool hasSource() const { return m_bytes != nullptr; }
    std::string_view bytes() const { return m_index.bytes(); }

    // 1-based lines to tint (the diagnosis' evidence in this source); any order.
    void setMarkedLines(std::vector<std::uint64_t> lines);
    // Scrolls so 1-based `line` is visible with a little context and makes it current.
    // `offset` (the byte offset of the line or of a \r-glued piece in it) makes the jump
    // exact before the index has reached the line.
    void goToLine(std::uint64_t line, std::optional<std::uint64_t> offset = std::nullopt);

    std::uint64_t currentLine() const { return m_currentLine; } // 1-based, 0 = none
    std::uint64_t topLine() const { return m_topLine; } // 0-based
    std::uint64_t knownLines() const { return m_index.knownLines(); }
    bool indexComplete() const { return m_index.complete(); }
    const LineIndex& index() const { return m_index; }
    int lineHeight() const;
    int visibleLineCount() const;
    // Viewport rectangle of 1-based `line`, empty when it is not visible.
    QRect lineRect(std::uint64_t line) const;
    // Text of 1-based `line` as painted (for tests and tooltips).
    QString lineString(std::uint64_t line) const;

    // Case-insensitive search from the current line; emits searchFinished when done.
    void find(const QString& needle, bool backwards);
    void cancelFind();
    bool searching() const { return m_find.has_value(); }
    void setSearchHighlight(const QString& needle);
    // Matches of the last Find's text in the whole source, counted in the background.
    std::uint64_t matchCount() const { return m_counter ? m_counter->count() : 0; }
    bool matchCountComplete() const { return !m_counter || m_counter->complete(); }
    // 1-based ordinal of the match Find last landed on, once counted.
    std::optional<std::uint64_t> currentMatchOrdinal() const;

    // Long lines wrap at the viewport's width (no horizontal scrolling) or run off it.
    void setWrapLines(bool wrap);
    bool wrapLines() const { return m_wrap; }

    // Shows only `lines` (sorted by line); std::nullopt shows every line again. A jump to a
    // line the filter hides (goToLine: evidence, Find, a rank's first error) keeps the filter
    // and shows that one line among the others until the next such jump or filter.
    void setLineFilter(std::optional<std::vector<LogLineRef>> lines);
    bool lineFiltered() const { return m_filter.has_value(); }
    // The line shown although the filter hides it; nullopt when none.
    std::optional<std::uint64_t> lineShownDespiteFilter() const { return m_shownDespiteFilter; }

    bool hasSelection() const { return !m_selection.empty(); }
    const LogTextSelection& selection() const { return m_selection; }
    void selectAll();
    void clearSelection();
    // The selected text as displayed (masked); *truncated when longer than kMaxCopyChars.
    QString selectedText(bool* truncated = nullptr) const;
    // Copies the selection to the clipboard; returns false when nothing is selected.
    bool copySelection();
    // Selects from `from` to `to` (viewport coordinates), as a mouse drag does.
    void selectBetween(const QPoint& from, const QPoint& to);
    // The menu a right click at `pos` (viewport coordinates) opens; the caller owns it.
    QMenu* createContextMenu(const QPoint& pos);
    // Offers "What Does This Line Mean?" in the menu for lines it says yes to.
    void setLineExplainer(LineExplainer explainer) { m_explainer = std::move(explainer); }

Q_SIGNALS:
    void indexProgress(quint64 indexedBytes, quint64 totalBytes);
    void currentLineChanged(quint64 line);
    void lineActivated(quint64 line); // clicked by the user
    void searchFinished(bool found, bool wrapped);
    void matchCountChanged();
    void wrapLinesChanged(bool wrap);
    // A jump to a line the filter hides showed it among the filtered lines.
    void lineShownDespiteFilterChanged(quint64 line);
    void linkToLineRequested(quint64 line); // "Copy link to this line"
    void explainLineRequested(const QString& line); // "What does this line mean?" (masked text)
    void selectionCopied(qsizetype characters, bool truncated);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void timerEvent(QTimerEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // One painted row: a whole line, or a piece of a wrapped one.
    struct Row {
        std::uint64_t line = 0; // 1-based
        std::uint64_t lineStart = 0;
        int text = 0; // index into Layout::texts
        int start = 0; // first column of the line on this row
        int length = 0;
    };
    // The visible rows, laid out from the top line; rebuilt on every paint and hit test
    // (a screenful of lines, masked and measured, costs well under a millisecond).
    struct Layout {
        std::vector<QString> texts;
        std::vector<bool> cut;
        std::vector<Row> rows;
    };
    Layout layoutRows() const;
    qreal columnWidth() const; // of one character of the fixed-width font
    int wrapColumns() const;
    int textX0() const;
    std::optional<LogTextPosition> positionAt(const QPoint& pos) const;
    int columnAtX(const QString& rowText, int x) const;
    void moveCursorTo(const LogTextPosition& pos, bool extend);
    int displayLength(std::uint64_t lineStart) const;
    void moveCursorByLines(int delta, bool extend);
    void ensureLineVisible(std::uint64_t line);
    std::optional<std::uint64_t> filterIndexOf(std::uint64_t line) const;
    int matchColumn(const QString& text) const;
    void scrollToMatch();
    void updateScrollRange();
    void setTop(std::uint64_t line, std::uint64_t offset);
    void moveTopTo(std::uint64_t line);
    void setCurrent(std::uint64_t line, std::uint64_t offset);
    void tick();
    bool searchStep();
    void finishSearch(std::optional<std::uint64_t> matchLine, std::uint64_t matchOffset);
    std::optional<std::uint64_t> offsetOfVisibleOrIndexed(std::uint64_t line) const;
    int gutterWidth() const;

    std::shared_ptr<const model::SourceBytes> m_bytes;
    LineIndex m_index;
    QBasicTimer m_timer; // drives indexing and search chunks
    std::uint64_t m_topLine = 0; // 0-based; an index into m_filter while filtering
    std::uint64_t m_topOffset = 0; // byte offset of m_topLine's start
    std::uint64_t m_currentLine = 0;
    std::uint64_t m_currentOffset = 0; // byte offset of the current line's start
    std::uint64_t m_minScrollLines = 0; // keeps a jump target beyond the index scrollable
    std::optional<std::uint64_t> m_pendingLine; // 1-based jump waiting for the index
    std::vector<std::uint64_t> m_markedLines; // sorted, 1-based
    bool m_settingTop = false;
    int m_maxTextWidth = 0; // widest painted line so far (horizontal scroll range)
    std::optional<LogFind> m_find; // the Find in progress
    QString m_highlight;
    QString m_matchText; // what Find last looked for
    std::uint64_t m_matchOffset = 0; // where Find last landed
    std::uint64_t m_matchLineStart = 0; // start of that match's line
    std::uint64_t m_matchLength = 0; // 0 = no match
    std::optional<LogMatchCounter> m_counter;
    bool m_wrap = true;
    std::optional<std::vector<LogLineRef>> m_filter;
    std::optional<std::uint64_t> m_shownDespiteFilter; // in m_filter, though it does not match
    LogTextSelection m_selection;
    bool m_dragging = false;
    LineExplainer m_explainer;
};

} // namespace rankscope::views
