#pragma once
// What a paste wraps every line of a log in: line numbers from `cat -n` or `nl` ("   12\t"), a
// reply quoted in Markdown or an e-mail ("> ", "> > "), or a block indented as code (four
// blanks or a tab). Found on the head of a source,
// taken off each line that carries it before the line is parsed, so "> [rank3]:[E …]" reads
// like "[rank3]:[E …]". Indentation under four blanks is left alone: tracebacks, failure
// tables and stack dumps indent by two and mean it.
//
// A terminal's copy can also be hard-wrapped: every long line cut at the window's width W and
// the pieces pasted as lines of exactly W bytes (the last piece padded with blanks to W). The
// scanner joins a piece of exactly W with the line after it, unless it ends in padding.
//
// A paste can also hold every line twice in a row: a terminal's output captured by tee and
// by the terminal, or copied twice. Read as it is, each rank seems to announce itself twice
// (two processes claiming one rank) and every count doubles; the scanner reads such a
// source's repeated lines once.
//
// A paste can also be double-spaced: a blank line after every line (a web page or chat client
// that turned each line into a paragraph). The blank lines are the copy's, not the log's: a
// block a blank line would end (a report, a traceback) goes on past them, so the scanner skips
// blank lines in such a source.

#include <cstddef>
#include <string>
#include <string_view>

namespace rankscope::parsers {

struct PasteWrapper {
    bool numbered = false; // "   12\t" before every line
    std::size_t quoteDepth = 0; // leading '>' markers on every line
    std::string_view indent; // whitespace every line starts with (after the quotes); points into a constant
    bool doubled = false; // every line of the head is followed by a copy of itself
    std::size_t wrapWidth = 0; // the width long lines were cut at; 0: not hard-wrapped
    bool flattened = false; // records glued into lines (flattenedpaste.h)
    bool doubleSpaced = false; // a blank line after every line of the head
    // What a forwarding program or a list put before every line, inside the wrappers above:
    char listMarker = 0;       // '-' or '*' and a blank: a Markdown list item per line
    bool timeStamped = false;  // a date and time, no zone: `ts`, a portal's log view
    bool levelTagged = false;  // a logging level: "INFO:root:", "[INFO] ", "ERROR: ", "- INFO - "

    bool empty() const
    {
        return !numbered && quoteDepth == 0 && indent.empty() && listMarker == 0 && !timeStamped && !levelTagged;
    } // nothing to strip
    // The line without the wrapper; a line that lacks part of it loses only what it has. The
    // time stripped from a time-stamped line is left in `stamp` when given.
    std::string_view strip(std::string_view line, std::string_view* stamp = nullptr) const;
};

// The columns a terminal gives `line`: its UTF-8 characters, not its bytes (a progress bar's
// blocks take three bytes and one column). Wide CJK characters count one; a wrap inside them is
// rarely the one that matters.
std::size_t columnsOf(std::string_view line);

// `text` with every digit turned into '0': the shape two lines of one format share
// ("LOG1.0.txt:" and "LOG1.1.txt:", "[rank2]:" and "[rank5]:").
std::string digitsAsZero(std::string_view text);

// The wrapper shared by every non-blank line among the first 64 of `head` (a source's first
// bytes); none when a line lacks it or the head holds no line. `doubled` needs eight lines at
// least, in equal pairs, and three different lines among them (a run of one repeated message
// is not a doubled paste). `listMarker`, `timeStamped` and `levelTagged` need every line with
// text to carry them: a program's own log has lines it did not write (NCCL's, a traceback)
// without them. A paste of one to three such lines is taken as wrapped too: taking the wrapper
// off a program's own short log loses nothing a parser reads (the time stays, as the
// collector's), while leaving it on hides the "[rank3]:" or NCCL header behind it. `doubleSpaced` needs six lines with text at least and no two of them
// next to each other. `wrapWidth` needs half the head's lines at one width of 60 or more,
// and two of them at least followed by a line that does not begin like the cut one: lines of
// one format (NCCL's, a logger's) often share a width, but each begins like the one before.
PasteWrapper detectPasteWrapper(std::string_view head);

} // namespace rankscope::parsers
