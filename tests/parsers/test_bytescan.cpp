// The SSE2 byte scans against plain loops, at every length and position around the 16-byte
// block size, reading only inside the given range (valgrind/ASan would tell).
#include "parsers/bytescan.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using rankscope::parsers::bytesEqual;
using rankscope::parsers::findByte;
using rankscope::parsers::findEitherByte;

TEST_CASE("findEitherByte and findByte find the first match or the end", "[parsers][bytescan]")
{
    for (std::size_t n = 0; n <= 140; ++n) {
        // An exact-size heap copy, so a read past the end is a real out-of-bounds read.
        for (std::size_t at = 0; at <= n; ++at) {
            std::string text(n, 'x');
            if (at < n)
                text[at] = '\r';
            if (at + 5 < n)
                text[at + 5] = '\n';
            auto bytes = std::make_unique<char[]>(n + 1);
            text.copy(bytes.get(), n);
            const char* begin = bytes.get();
            const char* end = begin + n;
            const char* expected = begin + std::min(at, n);
            CHECK(findEitherByte(begin, end, '\n', '\r') == expected);
            CHECK(findEitherByte(begin, end, '\r', '\n') == expected);
            const std::size_t nl = text.find('\n');
            CHECK(findByte(begin, end, '\n') == (nl == std::string::npos ? end : begin + nl));
            CHECK(findByte(begin, end, 'y') == end);
        }
    }
}

TEST_CASE("bytesEqual and bytesEqualShort agree with memcmp at every length and mismatch position",
    "[parsers][bytescan]")
{
    for (std::size_t n = 0; n <= 70; ++n) {
        const std::string a(n, 'a');
        CHECK(bytesEqual(a.data(), a.data(), n));
        if (n <= 16)
            CHECK(rankscope::parsers::bytesEqualShort(a.data(), std::string(a).data(), n));
        for (std::size_t at = 0; at < n; ++at) {
            std::string b = a;
            b[at] = 'b';
            CHECK_FALSE(bytesEqual(a.data(), b.data(), n));
            CHECK_FALSE(bytesEqual(b.data(), a.data(), n));
            if (n <= 16)
                CHECK_FALSE(rankscope::parsers::bytesEqualShort(a.data(), b.data(), n));
        }
    }
}
