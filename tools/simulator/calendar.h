#pragma once
// The job's wall clock. Simulated time is microseconds since the job started; the start is a
// seed-derived local date and time (no time zone, like every log this imitates). Formatting
// is done here so that all sources agree to the second.

#include <cstdint>
#include <string>

namespace rankscope::simulator {

using Micros = std::int64_t;
constexpr Micros kSecond = 1'000'000;
constexpr Micros kMilli = 1'000;
constexpr Micros kMinute = 60 * kSecond;

struct CivilTime {
    int year = 1970;
    int month = 1;
    int day = 1;
    int hour = 0;
    int minute = 0;
    int second = 0;
    int micros = 0;
};

class Calendar {
public:
    explicit Calendar(std::int64_t startEpochSeconds)
        : m_start(startEpochSeconds)
    {
    }

    std::int64_t epochSeconds(Micros t) const;
    CivilTime at(Micros t) const;

    // "1105 03:12:44" — PyTorch c10 and glog (MMDD HH:MM:SS).
    void appendMonthDayTime(std::string& out, Micros t) const;
    // "2024-11-05" + sep + "03:12:44" (sep ' ' ISO/NCCL, '_' torchrun table, 'T' Slurm).
    void appendDateTime(std::string& out, Micros t, char sep) const;
    // "03:12:44"
    void appendTime(std::string& out, Micros t) const;

    static std::int64_t daysFromCivil(int y, int m, int d);

private:
    std::int64_t m_start;
};

} // namespace rankscope::simulator
