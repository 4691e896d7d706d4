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
    // Needles that begin with blanks are anchored on their first other byte.
    CHECK(findLiteral("Missing ranks: 1, 2", " ranks: ") == 7);
    CHECK(findLiteral("ranks: 1", " ranks: ") == std::string_view::npos);
    CHECK(findLiteral("x  ranks: 1", " ranks: ", 2) == 2);
    CHECK(findLiteral("x  ranks: 1", " ranks: ", 3) == std::string_view::npos);
    CHECK(findLiteral("a   b", "  ") == 1);
    CHECK(findLiteral("a   b", "   ") == 1);
    CHECK(findLiteral("a  b", "   ") == std::string_view::npos);
    CHECK(findLiteral(" x", " x") == 0);
}

TEST_CASE("literal search agrees with std::string_view::find on random text", "[parsers][textscan]")
{
    // A small alphabet with many blanks makes partial matches, near-misses at both ends and
    // needles of blanks only common.
    std::uint32_t state = 12345;
    auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return state >> 16;
    };
    const char alphabet[] = "  ab:";
    for (int round = 0; round < 20000; ++round) {
        std::string hay(next() % 24, ' ');
        for (char& c : hay)
            c = alphabet[next() % 5];
        std::string needle(next() % 5, ' ');
        for (char& c : needle)
            c = alphabet[next() % 5];
        const std::size_t from = next() % 26;
        INFO("hay '" << hay << "' needle '" << needle << "' from " << from);
        const std::size_t expected = from > hay.size() ? std::string_view::npos : std::string_view(hay).find(needle, from);
        REQUIRE(findLiteral(hay, needle, from) == expected);
    }
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
