#pragma once
// Writing rankscope-cli's output file: whole or not at all. The text goes to a temporary file
// beside the destination and is renamed over it, so an interrupted or failed run (disk full,
// Ctrl-C) never leaves a half-written report, nor destroys the file that was there.

#include <string>
#include <string_view>

namespace rankscope::app {

// Empty on success, else one line saying what failed.
std::string writeFileAtomically(const std::string& path, std::string_view bytes);

} // namespace rankscope::app
