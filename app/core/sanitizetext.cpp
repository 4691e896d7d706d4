#include "app/core/sanitizetext.h"

#include "parsers/terminalescape.h"

namespace rankscope::app {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD
constexpr char kEsc = 0x1B;

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

} // namespace

std::string sanitizeText(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == kEsc) {
            i = parsers::escapeSequenceEnd(s, i);
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
