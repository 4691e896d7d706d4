#pragma once
// Text from log lines made safe to print: every output for people (the terminal's summary
// and diagnosis, Markdown, the report) goes through sanitizeText, so a line that carries a
// terminal escape cannot set the window title, move the cursor over the verdict or print a
// fake one when the output is shown in a terminal.

#include <string>
#include <string_view>

namespace rankscope::app {

// Valid UTF-8 with no control characters but tab and newline. Invalid sequences, C0 and C1
// controls become U+FFFD; carriage returns and DEL are dropped; escape sequences are dropped
// whole: CSI (ESC [ … final, the colour codes of tqdm, rich and loguru), the string commands
// OSC, DCS, SOS, PM and APC (ESC ] 0;title BEL sets the window title) up to their terminator
// or the end of the line, and two-character escapes (ESC c resets the terminal).
std::string sanitizeText(std::string_view text);

} // namespace rankscope::app
