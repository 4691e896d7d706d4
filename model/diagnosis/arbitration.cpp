#include "model/diagnosis/arbitration.h"

#include <algorithm>

namespace rankscope::model {

namespace {

bool intersects(const std::vector<std::int32_t>& ranks, std::span<const std::int32_t> others)
{
    return std::any_of(ranks.begin(), ranks.end(),
        [&](std::int32_t r) { return std::find(others.begin(), others.end(), r) != others.end(); });
}

} // namespace

int effectiveBand(const Proposal& proposal, std::span<const std::int32_t> oddRanks)
{
    const int band = proposal.precedence.band();
    const bool offOddRanks = !oddRanks.empty() && !proposal.initiating.empty()
        && !intersects(proposal.initiating, oddRanks) && proposal.rootCause != RootCauseClass::StragglerStall;
    return offOddRanks ? band - kOffOddRanksDemotion : band;
}

const Proposal* arbitrate(std::span<const Proposal> proposals, std::span<const std::int32_t> oddRanks)
{
    const Proposal* best = nullptr;
    int bestBand = 0;
    for (const Proposal& p : proposals) {
        const int band = effectiveBand(p, oddRanks);
        if (!best || band > bestBand || (band == bestBand && p.confidence > best->confidence)) {
            best = &p;
            bestBand = band;
        }
    }
    return best;
}

} // namespace rankscope::model
