#include "parsers/textscan.h"

#include <catch2/catch.hpp>

#include <charconv>
#include <string>

using rankscope::parsers::findLiteral;

TEST_CASE("literal search finds first occurrences and respects bounds", "[parsers][textscan]")
{
    CHECK(findLiteral("abcabc", "bc") == 1);
    CHECK(findLiteral("abcabc", "bc", 2) == 4);
    CHECK(findLiteral("abcabc", "bd") == std::string_view::npos);
    CHECK(findLiteral("ab", "abc") == std::string_view::npos);
    CHECK(findLiteral("abc", "c", 3) == std::string_view::npos);
    CHECK(findLiteral("abc", "", 1) == 1);
    CHECK(findLiteral("abc", "a", 10) == std::string_view::npos);
    CHECK(findLiteral("aaab", "aab") == 1);
    CHECK(findLiteral("NCCL INFO x NCCL WARN y", "NCCL WARN") == 12);
}

TEST_CASE("readHex reads hex digits like from_chars and refuses overflow", "[parsers][textscan]")
{
    using rankscope::parsers::readHex;
    for (const std::string text : { "0", "28c", "DEADbeef", "ffffffffffffffff", "0000000000000000000001f",
             "7fffffffffffffff", "10000000000000000", "xyz", "", "-1", "0x1f", "Ag" }) {
        std::uint64_t expected = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), expected, 16);
        std::size_t i = 0;
        const auto got = readHex(text, i);
        if (ec != std::errc() || ptr == text.data()) {
            CHECK_FALSE(got);
            CHECK(i == 0);
        } else {
            REQUIRE(got);
            CHECK(*got == expected);
            CHECK(i == static_cast<std::size_t>(ptr - text.data()));
        }
    }
}
