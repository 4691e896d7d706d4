#include "parsers/timesniff.h"

#include "parsers/textscan.h"

#include <array>

namespace rankscope::parsers {

using model::TimePoint;
using model::TimePrecision;

namespace {

bool digitsAt(std::string_view s, std::size_t pos, std::size_t count)
{
    if (pos + count > s.size())
        return false;
    for (std::size_t i = pos; i < pos + count; ++i)
        if (!isDigit(s[i]))
            return false;
    return true;
}

unsigned num(std::string_view s, std::size_t pos, std::size_t count)
{
    unsigned v = 0;
    for (std::size_t i = pos; i < pos + count; ++i)
        v = v * 10 + static_cast<unsigned>(s[i] - '0');
    return v;
}

// Reads ".123456" style fractions at s[pos]; returns ns and digit count.
std::int64_t readFraction(std::string_view s, std::size_t pos, std::size_t& digits)
{
    digits = 0;
    std::int64_t ns = 0;
    while (pos + digits < s.size() && isDigit(s[pos + digits]) && digits < 9) {
        ns = ns * 10 + (s[pos + digits] - '0');
        ++digits;
    }
    for (std::size_t k = digits; k < 9; ++k)
        ns *= 10;
    return ns;
}

TimePrecision precisionFor(std::size_t digits)
{
    if (digits == 0)
        return TimePrecision::Second;
    if (digits <= 3)
        return TimePrecision::Millisecond;
    if (digits <= 6)
        return TimePrecision::Microsecond;
    return TimePrecision::Nanosecond;
}

int monthFromName(std::string_view m)
{
    static constexpr std::array<std::string_view, 12> kMonths = { "Jan", "Feb", "Mar", "Apr",
        "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    for (std::size_t i = 0; i < kMonths.size(); ++i)
        if (kMonths[i] == m)
            return static_cast<int>(i + 1);
    return 0;
}

bool isSeverityLetter(char c)
{
    return c == 'F' || c == 'E' || c == 'W' || c == 'I' || c == 'V' || c == 'D';
}

// "HH:MM:SS" at pos
bool clockAt(std::string_view s, std::size_t pos)
{
    return digitsAt(s, pos, 2) && pos + 8 <= s.size() && s[pos + 2] == ':' && digitsAt(s, pos + 3, 2)
        && s[pos + 5] == ':' && digitsAt(s, pos + 6, 2);
}

// "Jun 11 10:00:00" / "Jun  1 10:00:00" at pos; returns consumed bytes or 0.
std::size_t syslogAt(std::string_view s, std::size_t pos, int& month, unsigned& day)
{
    if (pos + 15 > s.size())
        return 0;
    month = monthFromName(s.substr(pos, 3));
    if (month == 0 || s[pos + 3] != ' ')
        return 0;
    std::size_t p = pos + 4;
    if (s[p] == ' ')
        ++p;
    if (!isDigit(s[p]))
        return 0;
    day = static_cast<unsigned>(s[p] - '0');
    ++p;
    if (isDigit(s[p])) {
        day = day * 10 + static_cast<unsigned>(s[p] - '0');
        ++p;
    }
    if (p >= s.size() || s[p] != ' ' || !clockAt(s, p + 1))
        return 0;
    return p + 9 - pos;
}

} // namespace

TimePoint parseTorchEnvelopeTime(std::string_view s)
{
    std::size_t pos = 0;
    bool bracket = false;
    if (!s.empty() && s[0] == '[') {
        bracket = true;
        pos = 1;
    }
    // SMMDD HH:MM:SS.frac. PyTorch ≥2.4 does not pad the month ("[E709 17:05:38.…" is 9 July),
    // glog does ("I0527 …"): accept three or four digits before the space.
    if (pos + 14 > s.size() || !isSeverityLetter(s[pos]))
        return {};
    std::size_t dateDigits = 0;
    while (dateDigits < 5 && pos + 1 + dateDigits < s.size() && isDigit(s[pos + 1 + dateDigits]))
        ++dateDigits;
    if ((dateDigits != 3 && dateDigits != 4) || s[pos + 1 + dateDigits] != ' ' || !clockAt(s, pos + 2 + dateDigits))
        return {};
    const std::size_t monthDigits = dateDigits - 2;
    const unsigned month = num(s, pos + 1, monthDigits);
    const unsigned day = num(s, pos + 1 + monthDigits, 2);
    const std::size_t clock = pos + 2 + dateDigits;
    std::size_t digits = 0;
    std::int64_t frac = 0;
    if (clock + 8 < s.size() && s[clock + 8] == '.')
        frac = readFraction(s, clock + 9, digits);
    // PyTorch ≥2.4 (bracketed) prints CLOCK_MONOTONIC nanoseconds as the fraction, which is
    // not wall clock: keep seconds only. glog's microseconds are wall clock.
    TimePrecision precision = TimePrecision::Second;
    if (!bracket && digits > 0 && digits <= 6)
        precision = precisionFor(digits);
    else
        frac = 0;
    auto t = model::makeLocalWallNoYear(month, day, num(s, clock, 2), num(s, clock + 3, 2),
        num(s, clock + 6, 2), frac, precision);
    return t ? *t : TimePoint {};
}

TimePoint parseIsoTime(std::string_view s, std::size_t* consumed)
{
    // YYYY-MM-DD[ T_]HH:MM:SS[.,]frac
    if (s.size() < 19 || !digitsAt(s, 0, 4) || s[4] != '-' || !digitsAt(s, 5, 2) || s[7] != '-'
        || !digitsAt(s, 8, 2) || (s[10] != ' ' && s[10] != 'T' && s[10] != '_') || !clockAt(s, 11))
        return {};
    std::size_t end = 19;
    std::size_t digits = 0;
    std::int64_t frac = 0;
    if (s.size() > 20 && (s[19] == '.' || s[19] == ',') && isDigit(s[20])) {
        frac = readFraction(s, 20, digits);
        end = 20;
        while (end < s.size() && isDigit(s[end]))
            ++end;
    }
    auto t = model::makeLocalWall(static_cast<int>(num(s, 0, 4)), num(s, 5, 2), num(s, 8, 2),
        num(s, 11, 2), num(s, 14, 2), num(s, 17, 2), frac, precisionFor(digits));
    if (!t)
        return {};
    if (consumed)
        *consumed = end;
    return *t;
}

SniffedTime sniffTimeAtStart(std::string_view line)
{
    if (line.size() < 10)
        return {};
    const char c = line[0];
    if (c == '[') {
        // PyTorch envelope: keep the bracket, the envelope belongs to the message grammar.
        if (line.size() > 2 && isSeverityLetter(line[1]) && isDigit(line[2])) {
            TimePoint t = parseTorchEnvelopeTime(line);
            if (t.valid())
                return { t, 0 };
        }
        if (isDigit(line[1])) {
            std::size_t consumed = 0;
            TimePoint t = parseIsoTime(line.substr(1), &consumed);
            if (t.valid() && 1 + consumed < line.size() && line[1 + consumed] == ']')
                return { t, consumed + 2 };
        }
        // dmesg "[ 1399.140323]" / "[12345.678901]"
        std::size_t p = 1;
        while (p < line.size() && line[p] == ' ')
            ++p;
        std::size_t q = p;
        const auto secs = readUnsigned(line, q);
        // Beyond ~285 years of uptime the nanoseconds overflow: not a dmesg time.
        if (secs && *secs < 9'000'000'000ull && q < line.size() && line[q] == '.') {
            std::size_t digits = 0;
            const std::int64_t frac = readFraction(line, q + 1, digits);
            std::size_t r = q + 1 + digits;
            if (digits == 6 && r < line.size() && line[r] == ']') {
                TimePoint t { static_cast<std::int64_t>(*secs) * model::kNsPerSecond + frac,
                    model::TimeDomain::HostBoot, TimePrecision::Microsecond };
                return { t, r + 1 };
            }
        }
        // dmesg -T "[Tue Jun 11 10:00:00 2024]"
        if (line.size() > 26 && isUpper(line[1]) && line[4] == ' ') {
            int month = 0;
            unsigned day = 0;
            const std::size_t n = syslogAt(line, 5, month, day);
            if (n && 5 + n + 5 < line.size() && line[5 + n] == ' ' && digitsAt(line, 6 + n, 4)
                && line[10 + n] == ']') {
                const std::size_t clock = 5 + n - 8;
                auto t = model::makeLocalWall(static_cast<int>(num(line, 6 + n, 4)),
                    static_cast<unsigned>(month), day, num(line, clock, 2),
                    num(line, clock + 3, 2), num(line, clock + 6, 2), 0, TimePrecision::Second);
                if (t)
                    return { *t, 11 + n };
            }
        }
        return {};
    }
    if (isDigit(c)) {
        std::size_t consumed = 0;
        TimePoint t = parseIsoTime(line, &consumed);
        if (t.valid())
            return { t, consumed };
        return {};
    }
    if (isSeverityLetter(c) && isDigit(line[1])) {
        TimePoint t = parseTorchEnvelopeTime(line);
        if (t.valid())
            return { t, 0 };
    }
    if (isUpper(c)) {
        int month = 0;
        unsigned day = 0;
        if (const std::size_t n = syslogAt(line, 0, month, day)) {
            const std::size_t clock = n - 8;
            auto t = model::makeLocalWallNoYear(static_cast<unsigned>(month), day,
                num(line, clock, 2), num(line, clock + 3, 2), num(line, clock + 6, 2), 0,
                TimePrecision::Second);
            if (t)
                return { *t, n };
        }
    }
    return {};
}

} // namespace rankscope::parsers
