#include "calendar.h"

#include "textout.h"

namespace rankscope::simulator {

namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

// Howard Hinnant's civil_from_days.
void civilFromDays(std::int64_t z, int& y, int& m, int& d)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t yy = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y = static_cast<int>(yy + (m <= 2 ? 1 : 0));
}

} // namespace

std::int64_t Calendar::daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * static_cast<unsigned>(m + (m > 2 ? -3 : 9)) + 2) / 5
        + static_cast<unsigned>(d) - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t Calendar::epochSeconds(Micros t) const
{
    return m_start + floorDiv(t, kSecond);
}

CivilTime Calendar::at(Micros t) const
{
    CivilTime c;
    const std::int64_t secs = epochSeconds(t);
    const std::int64_t days = floorDiv(secs, 86400);
    const std::int64_t rem = secs - days * 86400;
    civilFromDays(days, c.year, c.month, c.day);
    c.hour = static_cast<int>(rem / 3600);
    c.minute = static_cast<int>((rem % 3600) / 60);
    c.second = static_cast<int>(rem % 60);
    c.micros = static_cast<int>(t - floorDiv(t, kSecond) * kSecond);
    return c;
}

void Calendar::appendMonthDayTime(std::string& out, Micros t) const
{
    const CivilTime c = at(t);
    Text(out) << Pad { c.month, 2, '0' } << Pad { c.day, 2, '0' } << ' ' << Pad { c.hour, 2, '0' }
              << ':' << Pad { c.minute, 2, '0' } << ':' << Pad { c.second, 2, '0' };
}

void Calendar::appendDateTime(std::string& out, Micros t, char sep) const
{
    const CivilTime c = at(t);
    Text(out) << c.year << '-' << Pad { c.month, 2, '0' } << '-' << Pad { c.day, 2, '0' } << sep
              << Pad { c.hour, 2, '0' } << ':' << Pad { c.minute, 2, '0' } << ':'
              << Pad { c.second, 2, '0' };
}

void Calendar::appendTime(std::string& out, Micros t) const
{
    const CivilTime c = at(t);
    Text(out) << Pad { c.hour, 2, '0' } << ':' << Pad { c.minute, 2, '0' } << ':'
              << Pad { c.second, 2, '0' };
}

} // namespace rankscope::simulator
