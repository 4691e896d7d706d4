#include "model/timepoint.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

TEST_CASE("civil conversions round-trip", "[model][time]")
{
    auto t = makeLocalWall(2024, 2, 29, 23, 59, 58, 5, TimePrecision::Nanosecond);
    REQUIRE(t);
    auto c = civilFromNs(t->ns);
    CHECK(c.year == 2024);
    CHECK(c.month == 2);
    CHECK(c.day == 29);
    CHECK(c.second == 58);
    CHECK(c.subsecondNs == 5);
    CHECK(daysFromCivil(1970, 1, 1) == 0);
}

TEST_CASE("year-less times move into the bundle's year", "[model][time]")
{
    auto t = makeLocalWallNoYear(12, 18, 20, 27, 21, 0, TimePrecision::Second);
    REQUIRE(t);
    auto moved = withYear(*t, 2025);
    CHECK(moved.domain == TimeDomain::LocalWall);
    CHECK(formatTime(moved) == "2025-12-18 20:27:21");
    CHECK_FALSE(makeLocalWall(2023, 2, 29, 0, 0, 0, 0, TimePrecision::Second));
}
