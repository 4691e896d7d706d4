// Rank lists for people: runs of consecutive ranks, and a cut list that says what it left out.

#include "model/ranklist.h"

#include <catch2/catch.hpp>

using rankscope::model::formatRanks;
using rankscope::model::formatRanksAtMost;

TEST_CASE("rank lists join consecutive ranks into runs", "[ranklist]")
{
    CHECK(formatRanks({}) == "none");
    CHECK(formatRanks({ 7 }) == "7");
    CHECK(formatRanks({ 9, 8, 7, 0, 1, 2, 3, 5, 3 }) == "0-3,5,7-9");
    CHECK(formatRanks({ 4, 5 }) == "4,5"); // two ranks read better as a pair than as a range
}

TEST_CASE("a cut rank list keeps its first runs and counts the rest", "[ranklist]")
{
    std::size_t omitted = 99;
    CHECK(formatRanksAtMost({ 0, 1, 2, 3, 5, 7, 8, 9 }, 10, omitted) == "0-3,5,7-9");
    CHECK(omitted == 0);
    CHECK(formatRanksAtMost({ 0, 1, 2, 3, 5, 7, 8, 9 }, 2, omitted) == "0-3,5");
    CHECK(omitted == 1);
    std::vector<std::int32_t> everyOther;
    for (std::int32_t r = 0; r < 4096; r += 2)
        everyOther.push_back(r);
    const std::string cut = formatRanksAtMost(everyOther, 24, omitted);
    CHECK(omitted == 2048 - 24);
    CHECK(cut.rfind("0,2,4,", 0) == 0);
    CHECK(cut.substr(cut.rfind(',') + 1) == "46");
    CHECK(formatRanksAtMost({}, 3, omitted) == "none");
    CHECK(omitted == 0);
}
