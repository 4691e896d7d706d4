#include "parsers/textscan.h"

#include <catch2/catch.hpp>

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
