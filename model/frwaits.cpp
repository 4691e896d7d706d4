#include "model/frwaits.h"

#include <algorithm>
#include <limits>

namespace rankscope::model {

std::vector<double> estimatedFrWaitSeconds(const Bundle& bundle, const TimelineData& timeline,
    StrId pg, std::int64_t seq)
{
    const auto ranks = static_cast<std::size_t>(std::max(0, timeline.rankCount()));
    std::vector<double> seconds(ranks, -1.0);
    std::vector<std::int64_t> entered(ranks, std::numeric_limits<std::int64_t>::min());
    std::int64_t fires = std::numeric_limits<std::int64_t>::max();
    for (std::size_t r = 0; r < ranks; ++r) {
        for (const TimelineCollective& c : timeline.collectives(static_cast<std::int32_t>(r))) {
            const bool same = (c.pg == pg && c.seq == seq) || (c.stuck && (seq < 0 || c.seq == seq));
            if (!same || !c.stillRunning || c.entry >= bundle.frEntries.size())
                continue;
            const std::uint32_t call = bundle.frEntries[c.entry].call;
            const std::int64_t timeoutMs = call < bundle.frCalls.size() ? bundle.frCalls[call].timeoutMs : -1;
            // A rank may hold the same collective twice (a wrapped ring buffer dumps an old
            // copy): its earliest entry is when it started waiting.
            entered[r] = entered[r] == std::numeric_limits<std::int64_t>::min() ? c.startNs
                                                                                 : std::min(entered[r], c.startNs);
            if (timeoutMs > 0)
                fires = std::min(fires, c.startNs + timeoutMs * 1'000'000);
        }
    }
    if (fires == std::numeric_limits<std::int64_t>::max())
        return seconds;
    for (std::size_t r = 0; r < ranks; ++r)
        if (entered[r] != std::numeric_limits<std::int64_t>::min())
            seconds[r] = static_cast<double>(std::max<std::int64_t>(0, fires - entered[r])) / 1e9;
    return seconds;
}

} // namespace rankscope::model
