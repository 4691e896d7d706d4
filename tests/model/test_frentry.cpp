// FrEntry's compact fields (model/records.h, issue 6: 32 bytes per entry): exact where
// the diagnosis needs it, bounded rounding where it does not, and every value that does not
// fit clamped *and* flagged, never silently wrong.

#include "model/records.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace rankscope::model;

namespace {
constexpr std::int64_t kT0 = 1'724'779'239'936'775'119; // 2024, a real dump's time_created_ns
constexpr std::int64_t kMinute = 60'000'000'000;
} // namespace

TEST_CASE("an entry is 32 bytes and starts with no times, no duration, unknown state",
    "[model][fr]")
{
    STATIC_REQUIRE(sizeof(FrEntry) == 32);
    const FrEntry e;
    CHECK(e.createdNs() == 0);
    CHECK(e.startedNs() == 0);
    CHECK(e.completedNs() == 0);
    CHECK_FALSE(e.created().valid());
    CHECK(e.durationMs() == -1);
    CHECK(e.state() == FrState::Unknown);
    CHECK_FALSE(e.retired());
    CHECK_FALSE(e.clamped());
}

TEST_CASE("created time is exact; discovered times within 524 us of it are exact to the ns",
    "[model][fr]")
{
    FrEntry e;
    REQUIRE(e.setTimes(kT0, kT0 + 20'000, kT0 + 524'287));
    e.setState(FrState::Completed);
    e.setRetired(true);
    CHECK(e.createdNs() == kT0);
    CHECK(e.startedNs() == kT0 + 20'000);
    CHECK(e.completedNs() == kT0 + 524'287);
    CHECK(e.state() == FrState::Completed);
    CHECK(e.retired());
    CHECK(e.created().domain == TimeDomain::Utc);
    CHECK(e.created().precision == TimePrecision::Nanosecond);
    CHECK_FALSE(e.clamped());
    // State and retired share the created word: changing them leaves the time alone.
    e.setState(FrState::Scheduled);
    e.setRetired(false);
    CHECK(e.createdNs() == kT0);
    CHECK(e.completedNs() == kT0 + 524'287);
}

TEST_CASE("a discovered time long after creation keeps 2 ppm: a 10-minute stuck gap to 1.2 ms",
    "[model][fr]")
{
    FrEntry e;
    const std::int64_t gap = 10 * kMinute + 123'456'789;
    REQUIRE(e.setTimes(kT0, kT0 + gap, 0));
    CHECK_FALSE(e.clamped());
    CHECK(std::llabs(e.startedNs() - (kT0 + gap)) <= gap / 500'000);
    CHECK(e.completedNs() == 0);
    CHECK_FALSE(e.discoveredCompleted().valid());
    // 13 days still fit.
    REQUIRE(e.setTimes(kT0, 0, kT0 + 13 * 24 * 60 * kMinute));
    CHECK(std::llabs(e.completedNs() - (kT0 + 13 * 24 * 60 * kMinute)) <= 13 * 24 * 60 * kMinute / 500'000);
    // Every gap rounds to the nearest representable value, monotonically.
    std::int64_t previous = -1;
    for (std::int64_t g = 500'000; g < 600'000; g += 7) {
        std::uint32_t code = 0;
        REQUIRE(FrEntry::encodeGap(g, code));
        const std::int64_t back = FrEntry::decodeGap(code);
        CHECK(std::llabs(back - g) <= 1);
        CHECK(back >= previous);
        previous = back;
    }
}

TEST_CASE("times that do not fit are clamped and flagged, never silently wrong", "[model][fr]")
{
    SECTION("a discovered time more than 13 days after creation")
    {
        FrEntry e;
        CHECK_FALSE(e.setTimes(kT0, kT0 + 20 * 24 * 60 * kMinute, 0));
        CHECK(e.clamped());
        CHECK(e.startedNs() == kT0 + FrEntry::kMaxGapNs);
    }
    SECTION("a discovered time before creation (the clock stepped back)")
    {
        FrEntry e;
        CHECK_FALSE(e.setTimes(kT0, kT0 - 5'000, kT0 + 1'000));
        CHECK(e.clamped());
        CHECK(e.startedNs() == kT0);
        CHECK(e.completedNs() == kT0 + 1'000);
    }
    SECTION("a discovered time without a creation time")
    {
        FrEntry e;
        CHECK_FALSE(e.setTimes(0, kT0, kT0));
        CHECK(e.clamped());
        CHECK(e.createdNs() == 0);
        CHECK(e.startedNs() == 0);
        CHECK(e.completedNs() == 0);
    }
    SECTION("a creation time beyond 2043 (61 bits)")
    {
        FrEntry e;
        e.setState(FrState::Started);
        CHECK_FALSE(e.setTimes(FrEntry::kMaxCreatedNs + 1, FrEntry::kMaxCreatedNs + 2, 0));
        CHECK(e.clamped());
        CHECK(e.createdNs() == 0);
        CHECK(e.startedNs() == 0);
        CHECK(e.state() == FrState::Started);
    }
}

TEST_CASE("duration_ms: exact to the us below 1 ms, within 0.1 % above, clamped and flagged "
          "beyond 25 days",
    "[model][fr]")
{
    FrEntry e;
    REQUIRE(e.setDurationMs(0.35));
    CHECK(e.durationMs() == Approx(0.35));
    REQUIRE(e.setDurationMs(0.0));
    CHECK(e.durationMs() == 0);
    REQUIRE(e.setDurationMs(1234.567));
    CHECK(e.durationMs() == Approx(1234.567).epsilon(0.001));
    REQUIRE(e.setDurationMs(-1));
    CHECK(e.durationMs() == -1);
    CHECK_FALSE(e.clamped());
    CHECK_FALSE(e.setDurationMs(1e12));
    CHECK(e.clamped());
    CHECK(e.durationMs() == Approx(FrEntry::kMaxDurationMs).epsilon(0.002));
}

TEST_CASE("pg_config rank lists are stored as runs: the default group of any size is one run",
    "[model][fr]")
{
    std::vector<std::int32_t> all(4096);
    for (std::int32_t r = 0; r < 4096; ++r)
        all[static_cast<std::size_t>(r)] = r;
    const FrRankList world(all);
    CHECK(world.size() == 4096);
    CHECK(world.runs() == 1);
    CHECK(world[0] == 0);
    CHECK(world[4095] == 4095);
    CHECK(world[4096] == -1);
    CHECK(world == all);

    // A data-parallel group (stride 8), then ranks in no order at all: read back as given.
    const FrRankList strided { 3, 11, 19, 27 };
    CHECK(strided.runs() == 1);
    CHECK(strided[2] == 19);
    const std::vector<std::int32_t> odd { 5, 1, 1, 9, 2, 3, 4, 100 };
    const FrRankList list(odd);
    CHECK(list.size() == odd.size());
    CHECK(list.toVector() == odd);
    for (std::size_t i = 0; i < odd.size(); ++i)
        CHECK(list[i] == odd[i]);
    CHECK(list == FrRankList(odd));
    CHECK_FALSE(list == FrRankList { 5, 1, 1, 9 });
    CHECK(FrRankList {}.empty());
}
