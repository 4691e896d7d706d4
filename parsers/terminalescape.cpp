#include "parsers/terminalescape.h"

#include <cstring>

namespace rankscope::parsers {

namespace {

constexpr char kEsc = 0x1B;
constexpr char kBel = 0x07;

bool inRange(char c, unsigned char lo, unsigned char hi)
{
    const auto u = static_cast<unsigned char>(c);
    return u >= lo && u <= hi;
}

} // namespace

std::size_t escapeSequenceEnd(std::string_view s, std::size_t i)
{
    std::size_t j = i + 1;
    if (j >= s.size())
        return j;
    const char kind = s[j];
    if (kind == '[') { // CSI: parameters, intermediates, one final byte
        ++j;
        while (j < s.size() && inRange(s[j], 0x20, 0x3F))
            ++j;
        if (j < s.size() && inRange(s[j], 0x40, 0x7E))
            ++j;
        return j;
    }
    if (kind == ']' || kind == 'P' || kind == 'X' || kind == '^' || kind == '_') {
        // A string command runs to its terminator; without one, to the end of the line: a
        // terminal would swallow everything up to a BEL or ST that may come lines later.
        for (++j; j < s.size() && s[j] != '\n'; ++j) {
            if (s[j] == kBel)
                return j + 1;
            if (s[j] == kEsc && j + 1 < s.size() && s[j + 1] == '\\')
                return j + 2;
        }
        return j;
    }
    // nF and Fp/Fe/Fs escapes: intermediates, then one final byte.
    while (j < s.size() && inRange(s[j], 0x20, 0x2F))
        ++j;
    if (j < s.size() && inRange(s[j], 0x30, 0x7E))
        ++j;
    return j;
}

bool stripTerminalEscapes(std::string_view line, std::string& out)
{
    const void* first = line.empty() ? nullptr : std::memchr(line.data(), kEsc, line.size());
    if (!first)
        return false;
    out.clear();
    std::size_t i = static_cast<std::size_t>(static_cast<const char*>(first) - line.data());
    out.append(line.substr(0, i));
    while (i < line.size()) {
        if (line[i] == kEsc) {
            i = escapeSequenceEnd(line, i);
            continue;
        }
        const void* next = std::memchr(line.data() + i, kEsc, line.size() - i);
        const std::size_t stop = next ? static_cast<std::size_t>(static_cast<const char*>(next) - line.data()) : line.size();
        out.append(line.substr(i, stop - i));
        i = stop;
    }
    return true;
}

} // namespace rankscope::parsers
