#include "model/timepoint.h"

#include <cstdio>

namespace rankscope::model {

// Howard Hinnant's days_from_civil: proleptic Gregorian calendar, no table, no locale.
std::int64_t daysFromCivil(int year, unsigned month, unsigned day)
{
    year -= month <= 2;
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const auto yoe = static_cast<unsigned>(year - era * 400);
    const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

CivilTime civilFromNs(std::int64_t ns)
{
    std::int64_t secs = ns / kNsPerSecond;
    std::int64_t sub = ns % kNsPerSecond;
    if (sub < 0) {
        sub += kNsPerSecond;
        --secs;
    }
    std::int64_t days = secs / 86400;
    std::int64_t rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    CivilTime c;
    c.day = doy - (153 * mp + 2) / 5 + 1;
    c.month = mp < 10 ? mp + 3 : mp - 9;
    c.year = static_cast<int>(yoe + era * 400 + (c.month <= 2));
    c.hour = static_cast<unsigned>(rem / 3600);
    c.minute = static_cast<unsigned>((rem % 3600) / 60);
    c.second = static_cast<unsigned>(rem % 60);
    c.subsecondNs = sub;
    return c;
}

namespace {

bool isLeap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned daysInMonth(int year, unsigned month)
{
    static constexpr unsigned kDays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    return month == 2 && isLeap(year) ? 29 : kDays[month - 1];
}

} // namespace

std::optional<TimePoint> makeLocalWall(int year, unsigned month, unsigned day, unsigned hour,
    unsigned minute, unsigned second, std::int64_t subsecondNs, TimePrecision precision)
{
    // second == 60 tolerates a leap second.
    if (year < 1970 || year > 2200 || month < 1 || month > 12 || day < 1
        || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 60
        || subsecondNs < 0 || subsecondNs >= kNsPerSecond)
        return std::nullopt;
    const std::int64_t secs = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60
        + second;
    return TimePoint { secs * kNsPerSecond + subsecondNs, TimeDomain::LocalWall, precision };
}

std::optional<TimePoint> makeLocalWallNoYear(unsigned month, unsigned day, unsigned hour,
    unsigned minute, unsigned second, std::int64_t subsecondNs, TimePrecision precision)
{
    auto t = makeLocalWall(kNoYearReference, month, day, hour, minute, second, subsecondNs,
        precision);
    if (t)
        t->domain = TimeDomain::LocalWallNoYear;
    return t;
}

TimePoint withYear(TimePoint t, int year)
{
    if (t.domain != TimeDomain::LocalWallNoYear)
        return t;
    const CivilTime c = civilFromNs(t.ns);
    unsigned day = c.day;
    if (c.month == 2 && day == 29 && !isLeap(year))
        day = 28; // a 29 Feb line in a non-leap year is a torn line; keep it in February.
    auto moved = makeLocalWall(year, c.month, day, c.hour, c.minute, c.second, c.subsecondNs,
        t.precision);
    return moved ? *moved : t;
}

std::string formatTime(const TimePoint& t)
{
    if (!t.valid())
        return {};
    char buf[64];
    if (t.domain == TimeDomain::HostBoot || t.domain == TimeDomain::ProcessRelative) {
        std::snprintf(buf, sizeof buf, "+%lld.%06llds",
            static_cast<long long>(t.ns / kNsPerSecond),
            static_cast<long long>((t.ns % kNsPerSecond) / 1000));
        return buf;
    }
    const CivilTime c = civilFromNs(t.ns);
    int n = 0;
    if (t.domain == TimeDomain::LocalWallNoYear)
        n = std::snprintf(buf, sizeof buf, "%02u-%02u %02u:%02u:%02u", c.month, c.day, c.hour,
            c.minute, c.second);
    else
        n = std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02u:%02u:%02u", c.year, c.month, c.day,
            c.hour, c.minute, c.second);
    switch (t.precision) {
    case TimePrecision::Millisecond:
        std::snprintf(buf + n, sizeof buf - n, ".%03lld",
            static_cast<long long>(c.subsecondNs / 1'000'000));
        break;
    case TimePrecision::Microsecond:
        std::snprintf(buf + n, sizeof buf - n, ".%06lld",
            static_cast<long long>(c.subsecondNs / 1000));
        break;
    case TimePrecision::Nanosecond:
        std::snprintf(buf + n, sizeof buf - n, ".%09lld", static_cast<long long>(c.subsecondNs));
        break;
    default:
        break;
    }
    std::string out(buf);
    if (t.domain == TimeDomain::Utc)
        out += " UTC";
    return out;
}

std::int64_t wholeSeconds(const TimePoint& t)
{
    std::int64_t s = t.ns / kNsPerSecond;
    if (t.ns < 0 && t.ns % kNsPerSecond != 0)
        --s;
    return s;
}

} // namespace rankscope::model
