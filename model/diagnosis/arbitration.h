#pragma once
// Picks the verdict among the rules' proposals: the highest band of the precedence table
// (precedence.h) wins, ties go to the higher confidence, and an equal tie to the proposal made
// first (rules run in a fixed order, so the choice is deterministic). A pure function of the
// proposals and the odd ranks, so it can be tested with synthetic proposals.

#include "model/diagnosis/proposal.h"

#include <cstdint>
#include <span>

namespace rankscope::model {

// A cause on ranks that behave like everyone else, while another rank is the odd one out,
// explains the hang less well than a cause on the odd rank: its band counts this much lower.
inline constexpr int kOffOddRanksDemotion = 30;

// The band a proposal competes with: its table band, demoted when it blames ranks none of
// which is odd. A straggler claim is exempt (the straggler rules find the odd ranks
// themselves), and so is a proposal that names no rank.
int effectiveBand(const Proposal& proposal, std::span<const std::int32_t> oddRanks);

// The winning proposal, or nullptr when there is none. `oddRanks`: the odd ones out on the
// stuck collective (never entered, or kept logging without a timeout); empty when there is
// no clear minority.
const Proposal* arbitrate(std::span<const Proposal> proposals, std::span<const std::int32_t> oddRanks);

} // namespace rankscope::model
