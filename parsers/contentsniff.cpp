#include "parsers/contentsniff.h"

#include "parsers/jsonloglines.h"

#include "parsers/textscan.h"

#include <algorithm>
#include <array>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rankscope::parsers {

namespace {

bool startsWithBytes(std::string_view s, std::initializer_list<unsigned char> bytes)
{
    if (s.size() < bytes.size())
        return false;
    std::size_t i = 0;
    for (unsigned char b : bytes)
        if (static_cast<unsigned char>(s[i++]) != b)
            return false;
    return true;
}

std::string_view skipSpace(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\r'
               || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

bool isDigitByte(char c)
{
    return c >= '0' && c <= '9';
}

// Protocols 0 and 1 have no PROTO opcode. A dump (a dict, or before format 2.0 a list) then
// starts by building its outermost container:
//   protocol 0: MARK DICT/LIST, then PUT "p0\n" or a first item: "(dp0\nVversion\n…"
//   protocol 1: EMPTY_DICT/EMPTY_LIST, then BINPUT/LONG_BINPUT or MARK: "}q\x00(X…"
// No log or JSON document starts that way ("(d" / "(l" followed by a memo slot or an
// opcode; "}" / "]" followed by a binary memo index or a MARK and a binary opcode).
bool looksLikeOldPickle(std::string_view head)
{
    if (head.size() < 4)
        return false;
    if (head[0] == '(' && (head[1] == 'd' || head[1] == 'l')) {
        if (head[2] == 'p') {
            std::size_t i = 3;
            while (i < head.size() && i < 16 && isDigitByte(head[i]))
                ++i;
            return i > 3 && i < head.size() && head[i] == '\n';
        }
        return head[2] == '(' || head[2] == 'V' || (head[2] == 'S' && head[3] == '\'');
    }
    if (head[0] == '}' || head[0] == ']') {
        const auto next = static_cast<unsigned char>(head[2]);
        if (head[1] == 'q' || head[1] == 'r')
            return next < 0x20; // the first memo index, little-endian binary
        if (head[1] == '(') // MARK, then a binary string or int opcode with its length byte
            return (head[2] == 'X' || head[2] == 'U' || head[2] == 'K' || head[2] == 'J')
                && static_cast<unsigned char>(head[3]) < 0x20;
    }
    return false;
}

// UTF-16 without a BOM (Windows tools, some redirections): ASCII text puts a NUL in every
// other byte, on the odd side for little-endian and the even side for big-endian. Binary
// formats have NULs on both sides. Binary when it is not UTF-16.
ContentKind bomlessUtf16(std::string_view head)
{
    const std::size_t pairs = std::min<std::size_t>(head.size(), 4096) / 2;
    if (pairs < 8)
        return ContentKind::Binary;
    std::size_t evenNul = 0, oddNul = 0, oddAscii = 0, evenAscii = 0;
    for (std::size_t i = 0; i < pairs; ++i) {
        const auto a = static_cast<unsigned char>(head[2 * i]);
        const auto b = static_cast<unsigned char>(head[2 * i + 1]);
        evenNul += a == 0;
        oddNul += b == 0;
        evenAscii += a >= 0x09 && a < 0x7f;
        oddAscii += b >= 0x09 && b < 0x7f;
    }
    // Seven in ten units are ASCII (logs are; a progress bar's blocks and box drawing are not,
    // and can fill a quarter of a head), and the other side is rarely NUL (box drawing, U+2500,
    // is the common exception: Rich's tables and rules). Binary data has NULs on both sides.
    if (oddNul * 10 >= pairs * 7 && evenAscii * 10 >= pairs * 7 && evenNul * 10 <= pairs)
        return ContentKind::Utf16LeText;
    if (evenNul * 10 >= pairs * 7 && oddAscii * 10 >= pairs * 7 && oddNul * 10 <= pairs)
        return ContentKind::Utf16BeText;
    return ContentKind::Binary;
}

} // namespace

ContentKind sniffContent(std::string_view head)
{
    if (head.empty())
        return ContentKind::Empty;
    if (startsWithBytes(head, { 0x1f, 0x8b }))
        return ContentKind::Gzip;
    if (startsWithBytes(head, { 0x28, 0xb5, 0x2f, 0xfd }))
        return ContentKind::Zstd;
    if (startsWithBytes(head, { 'B', 'Z', 'h' }))
        return ContentKind::Bzip2;
    if (startsWithBytes(head, { 0xfd, '7', 'z', 'X', 'Z', 0x00 }))
        return ContentKind::Xz;
    if (startsWithBytes(head, { 'P', 'K', 0x03, 0x04 }) || startsWithBytes(head, { 'P', 'K', 0x05, 0x06 }))
        return ContentKind::Zip;
    if (head.size() >= 262 && head.substr(257, 5) == "ustar")
        return ContentKind::Tar;
    // Pickle protocol 2+ starts with PROTO (0x80) and the protocol number.
    if (head.size() >= 3 && static_cast<unsigned char>(head[0]) == 0x80
        && head[1] >= 2 && head[1] <= 5)
        return ContentKind::Pickle;
    if (looksLikeOldPickle(head))
        return ContentKind::Pickle;
    if (startsWithBytes(head, { 0xff, 0xfe }) || startsWithBytes(head, { 0xfe, 0xff }))
        return ContentKind::Utf16Text;

    if (const ContentKind utf16 = bomlessUtf16(head); utf16 != ContentKind::Binary)
        return utf16;

    const std::string_view trimmed = skipSpace(head);
    if (contains(head.substr(0, 2048), "\"schema\": \"rankscope.")
        || contains(head.substr(0, 2048), "\"schema\":\"rankscope.")
        || contains(head.substr(0, 2048), "<meta name=\"generator\" content=\"Rankscope"))
        return ContentKind::OwnOutput;
    if (!trimmed.empty() && (trimmed.front() == '{' || trimmed.front() == '['))
        if (trimmed.front() == '{' && trimmed.size() > 1 && skipSpace(trimmed.substr(1)).starts_with("\""))
            return looksLikeJsonLogLines(trimmed) ? ContentKind::JsonLines : ContentKind::Json;

    // Text test: at most a few percent control bytes and almost no NULs. High bytes are fine
    // (UTF-8, Latin-1 hostnames, tqdm bars), and so is a stray NUL: PyTorch 2.4 prints the
    // CUDA device of "created ncclComm_ … on CUDA device: " as a raw byte, \0 for device 0.
    // Branch-free counting (a table lookup per byte): this runs over the head of every file.
    static constexpr auto kControl = [] {
        std::array<std::uint8_t, 256> t {};
        for (unsigned u = 1; u < 0x20; ++u)
            t[u] = u != '\n' && u != '\r' && u != '\t' && u != 0x1b && u != '\f' && u != '\b';
        return t;
    }();
    std::size_t control = 0;
    std::size_t nul = 0;
    auto count = [&](std::string_view bytes) {
        for (char c : bytes) {
            const auto u = static_cast<unsigned char>(c);
            nul += u == 0;
            control += kControl[u];
        }
    };
    std::size_t i = 0;
#if defined(__SSE2__)
    // Text has a byte below 0x20 (a newline) in about one block of 16 in ten: only those
    // blocks are counted byte by byte.
    const __m128i limit = _mm_set1_epi8(0x1f);
    for (; i + 16 <= head.size(); i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(head.data() + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, limit), v)) != 0)
            count(head.substr(i, 16));
    }
#endif
    count(head.substr(i));
    if (nul * 200 > head.size() || nul > 16 || (control + nul) * 20 > head.size())
        return ContentKind::Binary;
    return ContentKind::Text;
}

bool isArchiveOrCompressed(ContentKind kind)
{
    switch (kind) {
    case ContentKind::Gzip:
    case ContentKind::Zstd:
    case ContentKind::Bzip2:
    case ContentKind::Xz:
    case ContentKind::Tar:
    case ContentKind::Zip:
        return true;
    default:
        return false;
    }
}

} // namespace rankscope::parsers
