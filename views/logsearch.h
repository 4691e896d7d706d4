#pragma once
// Search across every rank's log: plain text (case-insensitive, as Find) or a regular
// expression (QRegularExpression: RE2 is private to the model and not linked to the views),
// over one source's bytes at a time, one hit per line. Synchronous and thread-free: the
// application runs it off the GUI thread and passes a cancel flag, checked between chunks.
// A hit's text is the line as the log viewer shows it, secrets masked; a line that matched
// only inside a masked secret is not a hit, so searching cannot confirm a secret's value.

#include "model/evidence.h"

#include <QRegularExpression>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace rankscope::views {

struct LogSearchQuery {
    QString pattern;
    bool regularExpression = false;
};

struct LogSearchHit {
    model::SourceId source = model::kNoSource;
    int rank = -1; // -1: a file of no single rank
    std::uint64_t line = 0; // 1-based
    std::uint64_t lineStart = 0; // byte offset, for an exact jump before the index is built
    QString text; // masked, as displayed
};

class LogSearch {
public:
    // Bytes scanned between checks of the cancel flag.
    static constexpr std::size_t kChunkBytes = 4u << 20;
    // A hit's text starts at its line's start while the match is within this many characters
    // of it; further in, at a few characters before the match, after an ellipsis.
    static constexpr qsizetype kMatchColumn = 48;

    explicit LogSearch(LogSearchQuery query);
    // Why the pattern cannot be searched for (empty, or a regular expression that does not
    // compile, with the position QRegularExpression names); empty when it can.
    QString error() const { return m_error; }

    // Calls `onHit(line, lineStart, text)` for every matching line of `bytes`, in order (the
    // masked line as displayed, from near the match; see kMatchColumn); stops when it returns
    // false or `cancel` is set.
    using HitSink = std::function<bool(std::uint64_t line, std::uint64_t lineStart, QString text)>;
    void search(
        std::string_view bytes, const HitSink& onHit, const std::atomic<bool>& cancel) const;

private:
    // Where the masked line still matches (the match was not inside a secret), or -1.
    qsizetype displayedMatch(const QString& text) const;
    static QString aroundMatch(QString text, qsizetype at);
    void searchPlain(
        std::string_view bytes, const HitSink& onHit, const std::atomic<bool>& cancel) const;
    void searchRegex(
        std::string_view bytes, const HitSink& onHit, const std::atomic<bool>& cancel) const;

    LogSearchQuery m_query;
    QString m_error;
    QRegularExpression m_regex;
};

} // namespace rankscope::views
