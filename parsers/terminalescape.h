#pragma once
// Terminal escape sequences in log lines: colour codes from tqdm, rich, loguru, Lightning and
// Ray's worker prefixes ("\x1b[36m(RayWorkerWrapper pid=4009)\x1b[0m"), window titles, cursor
// moves. The scanner removes them before a line is parsed, so a coloured "[rank3]:" prefix
// or a red "ERROR" is read like a plain one; outputs drop them too (app's sanitizeText).

#include <cstddef>
#include <string>
#include <string_view>

namespace rankscope::parsers {

// Where the escape sequence that starts at s[i] == ESC ends (one past its last byte): CSI
// (ESC [ parameters, intermediates, one final byte); the string commands OSC, DCS, SOS, PM
// and APC up to BEL or ST (ESC \), or the end of the line without one, its newline kept;
// other escapes with their intermediates and final byte.
std::size_t escapeSequenceEnd(std::string_view s, std::size_t i);

// `line` without its escape sequences, in `out`. False (and `out` untouched) when the line
// holds no ESC byte, which is almost every line and costs one memchr.
bool stripTerminalEscapes(std::string_view line, std::string& out);

} // namespace rankscope::parsers
