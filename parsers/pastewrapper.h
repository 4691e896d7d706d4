#pragma once
// What a paste wraps every line of a log in: line numbers from `cat -n` or `nl` ("   12\t"), a
// reply quoted in Markdown or an e-mail ("> ", "> > "), or a block indented as code (four
// blanks or a tab). Found on the head of a source,
// taken off each line that carries it before the line is parsed, so "> [rank3]:[E …]" reads
// like "[rank3]:[E …]". Indentation under four blanks is left alone: tracebacks, failure
// tables and stack dumps indent by two and mean it.

#include <cstddef>
#include <string_view>

namespace rankscope::parsers {

struct PasteWrapper {
    bool numbered = false; // "   12\t" before every line
    std::size_t quoteDepth = 0; // leading '>' markers on every line
    std::string_view indent; // whitespace every line starts with (after the quotes); points into a constant

    bool empty() const { return !numbered && quoteDepth == 0 && indent.empty(); }
    // The line without the wrapper; a line that lacks part of it loses only what it has.
    std::string_view strip(std::string_view line) const;
};

// The wrapper shared by every non-blank line among the first 64 of `head` (a source's first
// bytes); none when a line lacks it or the head holds no line.
PasteWrapper detectPasteWrapper(std::string_view head);

} // namespace rankscope::parsers
