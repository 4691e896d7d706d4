#include "app/core/sanitizetext.h"

namespace rankscope::app {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD
constexpr char kEsc = 0x1B;
constexpr char kBel = 0x07;

std::size_t utf8SequenceLength(std::string_view s, std::size_t i, unsigned& codePoint)
{
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > s.size())
        return 0;
    unsigned cp = c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    codePoint = cp;
    return n;
}

bool inRange(char c, unsigned char lo, unsigned char hi)
{
    const auto u = static_cast<unsigned char>(c);
    return u >= lo && u <= hi;
}

// Where the escape sequence starting at s[i] == ESC ends (one past its last byte). A string
// command without its terminator ends at the line's end, the newline kept: a terminal would
// swallow everything up to a BEL or ST that may come lines later.
std::size_t escapeEnd(std::string_view s, std::size_t i)
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

} // namespace

std::string sanitizeText(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == kEsc) {
            i = escapeEnd(s, i);
            continue;
        }
        if (c < 0x80) {
            if (c == '\t' || c == '\n' || (c >= 0x20 && c != 0x7F))
                out += static_cast<char>(c);
            else if (c != '\r' && c != 0x7F)
                out += kReplacement;
            ++i;
            continue;
        }
        unsigned codePoint = 0;
        const std::size_t n = utf8SequenceLength(s, i, codePoint);
        // C1 controls (U+0080–U+009F): U+009B is a CSI of its own to some terminals.
        if (n == 0 || codePoint <= 0x9F) {
            out += kReplacement;
            i += n == 0 ? 1 : n;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
    }
    return out;
}

} // namespace rankscope::app
