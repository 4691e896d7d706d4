#include "views/timelineaxisrule.h"

#include <algorithm>
#include <utility>

namespace rankscope::views {

TimeSpread::TimeSpread(std::int64_t lo, std::int64_t hi)
    : m_lo(lo)
    , m_hi(std::max(lo, hi))
{
}

int TimeSpread::bin(std::int64_t t) const
{
    const std::int64_t span = m_hi - m_lo;
    if (span <= 0 || t <= m_lo)
        return 0;
    // (t - lo) / span * kBins without overflowing: spans reach days of ns (1e14+).
    const double share = static_cast<double>(t - m_lo) / static_cast<double>(span);
    return std::min(kBins - 1, static_cast<int>(share * kBins));
}

void TimeSpread::addRow(std::int64_t first, std::int64_t last)
{
    ++m_rows;
    const int b0 = bin(std::min(first, last));
    const int b1 = bin(std::max(first, last));
    // Windows [s, s + kWindowBins) with s <= b0 and b1 < s + kWindowBins hold the row.
    constexpr int kLastStart = kBins - kWindowBins;
    const int from = std::max(0, b1 - kWindowBins + 1);
    const int to = std::min(b0, kLastStart);
    if (from > to)
        return; // wider than any window
    ++m_fitDelta[static_cast<std::size_t>(from)];
    --m_fitDelta[static_cast<std::size_t>(to + 1)];
}

std::pair<int, std::uint32_t> TimeSpread::bestWindow() const
{
    std::int32_t fitting = 0;
    std::int32_t best = 0;
    int bestStart = 0;
    for (int s = 0; s <= kBins - kWindowBins; ++s) {
        fitting += m_fitDelta[static_cast<std::size_t>(s)];
        if (fitting > best) {
            best = fitting;
            bestStart = s;
        }
    }
    return { bestStart, static_cast<std::uint32_t>(best) };
}

double TimeSpread::squeezedShare() const
{
    if (m_rows == 0)
        return 0.0;
    return static_cast<double>(bestWindow().second) / static_cast<double>(m_rows);
}

std::int64_t TimeSpread::windowStart() const
{
    const double span = static_cast<double>(m_hi - m_lo);
    return m_lo + static_cast<std::int64_t>(span * bestWindow().first / kBins);
}

std::int64_t TimeSpread::windowEnd() const
{
    const double span = static_cast<double>(m_hi - m_lo);
    return m_lo + static_cast<std::int64_t>(span * (bestWindow().first + kWindowBins) / kBins);
}

bool wallClockSqueezed(const TimeSpread& spread)
{
    return spread.rows() >= kMinSqueezedRows && spread.squeezedShare() >= kSqueezedShare;
}

TimelineAxisChoice defaultTimelineAxis(const TimelineAxisFacts& facts)
{
    if (!facts.hasTime)
        return TimelineAxisChoice::Sequence;
    if (!facts.hasSequence)
        return TimelineAxisChoice::Time;
    const bool fewRanksTimed = 2 * facts.ranksWithTime < facts.rankCount;
    return fewRanksTimed || wallClockSqueezed(facts.spread) ? TimelineAxisChoice::Sequence
                                                            : TimelineAxisChoice::Time;
}

} // namespace rankscope::views
