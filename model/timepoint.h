#pragma once
// One time type for every clock the logs use ([formats 10]). Each value keeps the
// domain it was read in and how precise it is, because a PyTorch line's 9-digit fraction
// is CLOCK_MONOTONIC, not wall clock: ordering across processes may only use seconds.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rankscope::model {

enum class TimeDomain : std::uint8_t {
    None,
    LocalWall,       // naive local wall clock with a year (torchrun ISO, DeepSpeed, NCCL 2.26+ WARN)
    LocalWallNoYear, // naive local wall clock without a year (PyTorch MMDD, glog); year filled in later
    Utc,             // CLOCK_REALTIME epoch (Flight Recorder time_*_ns)
    HostBoot,        // seconds since boot of one host (dmesg)
    ProcessRelative, // ms since NCCL init of one process (NCCL TRACE)
};

enum class TimePrecision : std::uint8_t { None, Second, Millisecond, Microsecond, Nanosecond };

struct TimePoint {
    std::int64_t ns = 0; // nanoseconds in the domain's own epoch
    TimeDomain domain = TimeDomain::None;
    TimePrecision precision = TimePrecision::None;
    // Copied from the nearest earlier timestamped line of the same process stream
    // (Python tracebacks and NCCL INFO lines carry no time of their own).
    bool inferred = false;

    bool valid() const { return domain != TimeDomain::None; }
    // Naive wall-clock domains share one axis once the year is known.
    bool isWallClock() const
    {
        return domain == TimeDomain::LocalWall || domain == TimeDomain::Utc;
    }
};

inline constexpr std::int64_t kNsPerSecond = 1'000'000'000;
// Year assumed for LocalWallNoYear values until the bundle supplies one. A leap year,
// so 29 February always has a place.
inline constexpr int kNoYearReference = 2000;

std::int64_t daysFromCivil(int year, unsigned month, unsigned day);
struct CivilTime {
    int year = 1970;
    unsigned month = 1, day = 1, hour = 0, minute = 0, second = 0;
    std::int64_t subsecondNs = 0;
};
CivilTime civilFromNs(std::int64_t ns);

// Validates the fields; nullopt when out of range (torn lines produce nonsense digits).
std::optional<TimePoint> makeLocalWall(int year, unsigned month, unsigned day, unsigned hour,
    unsigned minute, unsigned second, std::int64_t subsecondNs, TimePrecision precision);
std::optional<TimePoint> makeLocalWallNoYear(unsigned month, unsigned day, unsigned hour,
    unsigned minute, unsigned second, std::int64_t subsecondNs, TimePrecision precision);

// Moves a LocalWallNoYear value into `year`; other domains are returned unchanged.
TimePoint withYear(TimePoint t, int year);

// ISO-like text for reports: "2024-12-18 20:27:21" (+ fraction as precise as known).
// Year-less values print as "12-18 20:27:21".
std::string formatTime(const TimePoint& t);

// Seconds, rounded down to what the precision allows. Used for cross-rank ordering.
std::int64_t wholeSeconds(const TimePoint& t);

} // namespace rankscope::model
