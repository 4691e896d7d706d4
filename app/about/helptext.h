#pragma once
// --help as plain text from the command-line tables (commandline.h): rankscope-cli prints
// cliHelpText(); the desktop app gives helpSectionsText() to QCommandLineParser, which lays
// out its options itself from the same table.

#include "app/about/commandline.h"

#include <string>

namespace rankscope::about {

// Words of `text` filled to `width` columns, every line after the first indented by
// `indent` spaces; literal paragraphs (commandline.h) are kept line for line.
std::string fillText(std::string_view text, std::size_t width, std::size_t indent);

// The sections marked inHelp, each as "Title:" and its text.
std::string helpSectionsText(const ProgramSpec& program);

// "Usage:", the commands, the options and the help sections of a program with commands.
std::string cliHelpText(const ProgramSpec& program);

} // namespace rankscope::about
