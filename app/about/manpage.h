#pragma once
// A program's manual page (man(7) macros, section 1) from its command-line table
// (commandline.h): the same commands, options and texts as its --help. Only the plain
// macros every man implementation knows (.TH .SH .PP .TP .RS .RE .nf .fi) are used, so
// `man --warnings` has nothing to say about it.

#include "app/about/commandline.h"

#include <string>

namespace rankscope::about {

// `date` (YYYY-MM-DD) and `version` go into the .TH line; both are passed in so that the
// page is the same for every build of a release.
std::string manPage(const ProgramSpec& program, std::string_view date, std::string_view version);

// Text escaped for roff: backslashes, minus signs, and a leading '.' or '\''.
std::string roffEscape(std::string_view text);

} // namespace rankscope::about
