#include "parsers/contentsniff.h"

#include "parsers/textscan.h"

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
    if (startsWithBytes(head, { 0xff, 0xfe }) || startsWithBytes(head, { 0xfe, 0xff }))
        return ContentKind::Utf16Text;

    const std::string_view trimmed = skipSpace(head);
    if (contains(head.substr(0, 2048), "\"schema\": \"rankscope.")
        || contains(head.substr(0, 2048), "\"schema\":\"rankscope.")
        || contains(head.substr(0, 2048), "<meta name=\"generator\" content=\"Rankscope"))
        return ContentKind::OwnOutput;
    if (!trimmed.empty() && (trimmed.front() == '{' || trimmed.front() == '['))
        if (trimmed.front() == '{' && trimmed.size() > 1 && skipSpace(trimmed.substr(1)).starts_with("\""))
            return ContentKind::Json;

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
