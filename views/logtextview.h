#pragma once
// The text area of the log viewer: paints only the visible lines of one source, straight
// from its bytes (a mapping for plain files), so a multi-GB log opens instantly. The line
// index is built in bounded chunks from a zero-interval timer and the vertical scroll range
// grows as it goes; jumps to an evidence reference use its byte offset and never wait for
// the index. Find runs the same way, chunk by chunk, so the window never freezes.

#include "model/sourceaccess.h"
#include "views/lineindex.h"
#include "views/textsearch.h"

#include <QAbstractScrollArea>
#include <QBasicTimer>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rankscope::views {

class LogTextView : public QAbstractScrollArea {
    Q_OBJECT
public:
    // Bytes indexed / searched per timer tick: ~5 ms of memchr, so input stays responsive.
    static constexpr std::size_t kChunkBytes = 16u << 20;
    // Characters of a line that are laid out; the rest is marked as cut.
    static constexpr int kMaxLineChars = 4000;

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
    bool searching() const { return m_search.active; }
    void setSearchHighlight(const QString& needle);

Q_SIGNALS:
    void indexProgress(quint64 indexedBytes, quint64 totalBytes);
    void currentLineChanged(quint64 line);
    void lineActivated(quint64 line); // clicked by the user
    void searchFinished(bool found, bool wrapped);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void timerEvent(QTimerEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct SearchState {
        bool active = false;
        bool backwards = false;
        bool wrapped = false;
        std::uint64_t pos = 0; // next byte to scan (forward) / end of the unscanned part (backward)
        std::uint64_t line = 0; // 0-based line of `pos` (a line start)
        std::uint64_t stopAt
            = 0; // where the search began; reaching it again after wrapping = not found
        std::optional<TextSearch> searcher;
    };

    void updateScrollRange();
    void setTop(std::uint64_t line, std::uint64_t offset);
    void moveTopTo(std::uint64_t line);
    void setCurrent(std::uint64_t line, std::uint64_t offset);
    void tick();
    bool searchStep();
    void finishSearch(std::optional<std::uint64_t> matchLine, std::uint64_t matchOffset);
    std::optional<std::uint64_t> offsetOfVisibleOrIndexed(std::uint64_t line) const;
    int gutterWidth() const;
    QString displayText(std::string_view raw, bool* cut) const;

    std::shared_ptr<const model::SourceBytes> m_bytes;
    LineIndex m_index;
    QBasicTimer m_timer; // drives indexing and search chunks
    std::uint64_t m_topLine = 0; // 0-based
    std::uint64_t m_topOffset = 0; // byte offset of m_topLine's start
    std::uint64_t m_currentLine = 0;
    std::uint64_t m_currentOffset = 0; // byte offset of the current line's start
    std::uint64_t m_minScrollLines = 0; // keeps a jump target beyond the index scrollable
    std::optional<std::uint64_t> m_pendingLine; // 1-based jump waiting for the index
    std::vector<std::uint64_t> m_markedLines; // sorted, 1-based
    bool m_settingTop = false;
    int m_maxTextWidth = 0; // widest painted line so far (horizontal scroll range)
    SearchState m_search;
    QString m_highlight;
};

} // namespace rankscope::views
