#pragma once
// A bash completion script for a program, from its command-line table (commandline.h): the
// commands, then the options that command takes, the values of --format for that command,
// file names after options that take a file, nothing after numbers, paths otherwise. It uses
// only bash's own compgen/compopt, so it works with or without the bash-completion package.

#include "app/about/commandline.h"

#include <string>

namespace rankscope::about {

// The function is named after the program ("_rankscope_cli") and registered with `complete`.
std::string bashCompletion(const ProgramSpec& program);

} // namespace rankscope::about
