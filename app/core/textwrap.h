#pragma once
// Word-wrapping for the terminal outputs (diagnose text, explain).

#include <cstddef>
#include <string>

namespace rankscope::app {

// Word-wraps at `width` columns, starting continuation lines with `indent`. Runs of
// whitespace become one space.
std::string wrap(const std::string& text, std::size_t width, const std::string& indent);

} // namespace rankscope::app
