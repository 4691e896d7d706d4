#include "views/timelinecoords.h"

#include "model/timepoint.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace rankscope::views {

AxisMap AxisMap::zoomedAbout(double x, double factor) const
{
    if (factor <= 0.0)
        return *this;
    const double anchor = toValue(x);
    AxisMap m = *this;
    m.start = anchor - (anchor - start) / factor;
    m.end = anchor + (end - anchor) / factor;
    return m;
}

AxisMap AxisMap::panned(double dx) const
{
    AxisMap m = *this;
    const double delta = dx * unitsPerPixel();
    m.start -= delta;
    m.end -= delta;
    return m;
}

AxisMap AxisMap::zoomedTo(double x0, double x1) const
{
    if (x1 < x0)
        std::swap(x0, x1);
    AxisMap m = *this;
    m.start = toValue(x0);
    m.end = toValue(x1);
    return m;
}

AxisMap AxisMap::clamped(double lo, double hi, double minSpan) const
{
    AxisMap m = *this;
    const double full = std::max(hi - lo, minSpan);
    double s = std::clamp(span(), minSpan, full);
    if (s != span()) {
        // Keep the centre while growing or shrinking.
        const double centre = (start + end) / 2.0;
        m.start = centre - s / 2.0;
        m.end = centre + s / 2.0;
    }
    if (m.start < lo) {
        m.end += lo - m.start;
        m.start = lo;
    }
    if (m.end > lo + full) {
        m.start -= m.end - (lo + full);
        m.end = lo + full;
    }
    return m;
}

RowLayout RowLayout::build(const std::vector<std::vector<std::int32_t>>& ranksByGroup,
    const std::vector<bool>& collapsed, const std::vector<std::int32_t>& rankFilter,
    std::int32_t rankCount, Params params)
{
    RowLayout l;
    const std::size_t n = rankCount > 0 ? static_cast<std::size_t>(rankCount) : 0;
    l.m_rowOfRank.assign(n, -1);
    l.m_rowOfGroup.assign(ranksByGroup.size(), -1);
    std::vector<char> shown(n, rankFilter.empty() ? 1 : 0);
    for (std::int32_t r : rankFilter)
        if (r >= 0 && static_cast<std::size_t>(r) < n)
            shown[static_cast<std::size_t>(r)] = 1;

    auto add = [&l](TimelineRow row, int height) {
        l.m_rows.push_back(row);
        l.m_tops.push_back(l.m_tops.back() + height);
    };
    for (std::size_t g = 0; g < ranksByGroup.size(); ++g) {
        const auto& ranks = ranksByGroup[g];
        const bool any = std::any_of(ranks.begin(), ranks.end(), [&](std::int32_t r) {
            return r >= 0 && static_cast<std::size_t>(r) < n && shown[static_cast<std::size_t>(r)];
        });
        if (!any)
            continue;
        l.m_rowOfGroup[g] = l.count();
        add({ TimelineRow::Kind::Host, static_cast<std::int32_t>(g), -1 }, params.hostRowHeight);
        if (g < collapsed.size() && collapsed[g])
            continue;
        for (std::int32_t r : ranks) {
            if (r < 0 || static_cast<std::size_t>(r) >= n || !shown[static_cast<std::size_t>(r)])
                continue;
            l.m_rowOfRank[static_cast<std::size_t>(r)] = l.count();
            add({ TimelineRow::Kind::Rank, static_cast<std::int32_t>(g), r }, params.rankRowHeight);
        }
    }
    return l;
}

int RowLayout::rowAt(int y) const
{
    if (y < 0 || y >= totalHeight())
        return -1;
    // The last top <= y.
    const auto it = std::upper_bound(m_tops.begin(), m_tops.end(), y);
    return static_cast<int>(it - m_tops.begin()) - 1;
}

std::pair<int, int> RowLayout::visibleRows(int y0, int y1) const
{
    if (y1 <= y0 || count() == 0 || y1 <= 0 || y0 >= totalHeight())
        return { 0, 0 };
    const int first = rowAt(std::max(y0, 0));
    const int last = rowAt(std::min(y1, totalHeight()) - 1);
    return { first, last + 1 };
}

int RowLayout::rowOfRank(std::int32_t rank) const
{
    return rank >= 0 && static_cast<std::size_t>(rank) < m_rowOfRank.size()
        ? m_rowOfRank[static_cast<std::size_t>(rank)]
        : -1;
}

int RowLayout::rowOfGroup(std::int32_t group) const
{
    return group >= 0 && static_cast<std::size_t>(group) < m_rowOfGroup.size()
        ? m_rowOfGroup[static_cast<std::size_t>(group)]
        : -1;
}

namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kS = model::kNsPerSecond;
constexpr std::int64_t kMin = 60 * kS;
constexpr std::int64_t kHour = 60 * kMin;
constexpr std::int64_t kDay = 24 * kHour;

// Steps people read on a clock: below a second the 1-2-5 series, above it the units of a
// clock face (15 s, 30 s, 15 min, 6 h), never 50 s or 20 h.
constexpr std::array kTimeSteps { std::int64_t { 1 }, std::int64_t { 2 }, std::int64_t { 5 },
    std::int64_t { 10 }, std::int64_t { 20 }, std::int64_t { 50 }, std::int64_t { 100 },
    std::int64_t { 200 }, std::int64_t { 500 }, kUs, 2 * kUs, 5 * kUs, 10 * kUs, 20 * kUs, 50 * kUs,
    100 * kUs, 200 * kUs, 500 * kUs, kMs, 2 * kMs, 5 * kMs, 10 * kMs, 20 * kMs, 50 * kMs, 100 * kMs,
    200 * kMs, 500 * kMs, kS, 2 * kS, 5 * kS, 10 * kS, 15 * kS, 30 * kS, kMin, 2 * kMin, 5 * kMin,
    10 * kMin, 15 * kMin, 30 * kMin, kHour, 2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay,
    2 * kDay, 7 * kDay, 14 * kDay, 28 * kDay };

} // namespace

std::int64_t niceTimeStepNs(double minStepNs)
{
    for (std::int64_t s : kTimeSteps)
        if (static_cast<double>(s) >= minStepNs)
            return s;
    // Beyond four weeks: whole multiples of four weeks.
    const double weeks4 = static_cast<double>(kTimeSteps.back());
    return kTimeSteps.back() * static_cast<std::int64_t>(std::ceil(minStepNs / weeks4));
}

std::int64_t niceSeqStep(double minStep)
{
    std::int64_t base = 1;
    while (true) {
        for (std::int64_t m : { 1, 2, 5 })
            if (static_cast<double>(base * m) >= minStep)
                return base * m;
        if (base > (std::int64_t { 1 } << 60) / 10)
            return base;
        base *= 10;
    }
}

std::vector<std::int64_t> ticksBetween(
    std::int64_t first, std::int64_t last, std::int64_t step, std::size_t maxTicks)
{
    std::vector<std::int64_t> ticks;
    if (step <= 0 || last < first)
        return ticks;
    // First multiple of step at or after `first` (floor division for negatives).
    std::int64_t q = first / step;
    if (q * step < first)
        ++q;
    for (std::int64_t v = q * step; v <= last && ticks.size() < maxTicks; v += step)
        ticks.push_back(v);
    return ticks;
}

std::string formatTimeTick(std::int64_t ns, std::int64_t stepNs, bool withDate)
{
    const model::CivilTime c = model::civilFromNs(ns);
    char buf[48];
    if (stepNs >= kDay && stepNs % kDay == 0) {
        std::snprintf(buf, sizeof buf, "%02u-%02u", c.month, c.day);
    } else if (stepNs >= kDay || (withDate && stepNs >= kMin)) {
        std::snprintf(buf, sizeof buf, "%02u-%02u %02u:%02u", c.month, c.day, c.hour, c.minute);
    } else if (stepNs >= kS) {
        std::snprintf(buf, sizeof buf, "%02u:%02u:%02u", c.hour, c.minute, c.second);
    } else if (stepNs >= kMs) {
        std::snprintf(buf, sizeof buf, "%02u:%02u:%02u.%03lld", c.hour, c.minute, c.second,
            static_cast<long long>(c.subsecondNs / kMs));
    } else if (stepNs >= kUs) {
        std::snprintf(buf, sizeof buf, "%02u:%02u.%06lld", c.minute, c.second,
            static_cast<long long>(c.subsecondNs / kUs));
    } else {
        std::snprintf(
            buf, sizeof buf, "%02u.%09lld", c.second, static_cast<long long>(c.subsecondNs));
    }
    std::string text = buf;
    if (withDate && stepNs < kMin) {
        std::snprintf(buf, sizeof buf, "%02u-%02u ", c.month, c.day);
        text.insert(0, buf);
    }
    return text;
}

std::string formatDuration(std::int64_t ns)
{
    char buf[48];
    const std::int64_t s = ns / kS;
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%lldh %lldm", static_cast<long long>(s / 3600),
            static_cast<long long>((s % 3600) / 60));
    else if (s >= 60)
        std::snprintf(buf, sizeof buf, "%lldm %llds", static_cast<long long>(s / 60),
            static_cast<long long>(s % 60));
    else if (s >= 1)
        std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ns) / 1e9);
    else if (ns >= kMs)
        std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(ns) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%lld \u00b5s", static_cast<long long>(ns / kUs));
    return buf;
}

SeqProgress effectiveSeqProgress(
    std::int64_t lastCompleted, std::int64_t lastEnqueued, std::int64_t timeoutSeq)
{
    SeqProgress p;
    p.completed = lastCompleted;
    if (p.completed < 0 && timeoutSeq > 0)
        p.completed = timeoutSeq - 1;
    p.enqueued = std::max({ lastEnqueued, timeoutSeq, p.completed });
    return p;
}

StepState stepState(const SeqProgress& progress, std::int64_t seq)
{
    if (!progress.known())
        return StepState::Unknown;
    if (seq <= progress.completed)
        return StepState::Completed;
    if (seq <= progress.enqueued)
        return StepState::Waiting;
    return StepState::NeverEntered;
}

} // namespace rankscope::views
