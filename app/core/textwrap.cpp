#include "app/core/textwrap.h"

#include <sstream>

namespace rankscope::app {

std::string wrap(const std::string& text, std::size_t width, const std::string& indent)
{
    std::ostringstream out;
    std::size_t col = 0;
    std::istringstream words(text);
    std::string w;
    bool first = true;
    while (words >> w) {
        if (!first && col + 1 + w.size() > width) {
            out << "\n" << indent;
            col = indent.size();
        } else if (!first) {
            out << ' ';
            ++col;
        }
        out << w;
        col += w.size();
        first = false;
    }
    return out.str();
}

} // namespace rankscope::app
