// The SSE2 byte scans against plain loops, at every length and position around the 16-byte
// block size, reading only inside the given range (valgrind/ASan would tell).
#include "parsers/bytescan.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using rankscope::parsers::bytesEqual;
using rankscope::parsers::findByte;
using rankscope::parsers::findBytePair;
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

TEST_CASE("findBytePair finds a byte followed by another, in either loop", "[parsers][bytescan]")
{
    // Every position and every length, so both the 16-byte loop and the tail are crossed, and
    // a pair split across two 16-byte blocks is found.
    for (std::size_t size = 0; size < 48; ++size)
        for (std::size_t at = 0; at + 1 < size + 1; ++at) {
            std::string text(size, 'o');
            for (std::size_t i = 0; i < size; ++i)
                text[i] = (i % 2) ? 'x' : 'o'; // "oxox…": 'o' never followed by 'o'
            const char* const begin = text.data();
            const char* const end = begin + size;
            CHECK(findBytePair(begin, end, 'o', 'o') == end);
            if (at + 1 < size) {
                text[at] = 'o';
                text[at + 1] = 'o';
                const char* found = findBytePair(begin, end, 'o', 'o');
                REQUIRE(found != end);
                CHECK(found <= begin + at);
                CHECK(found[0] == 'o');
                CHECK(found[1] == 'o');
            }
        }
    const std::string_view last = "abcdefghijklmnopqrstuvwxyz0123456789oo";
    CHECK(findBytePair(last.data(), last.data() + last.size(), 'o', 'o') == last.data() + last.size() - 2);
    // The last byte alone is no pair.
    const std::string_view single = "abcdefghijklmnopqrstuvwxyz0123456789o";
    CHECK(findBytePair(single.data(), single.data() + single.size(), 'o', 'o') == single.data() + single.size());
}
