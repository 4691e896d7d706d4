#pragma once
// Compact rank lists for people: {0,1,2,3,5,7,8,9} → "0-3,5,7-9".

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::model {

std::string formatRanks(std::vector<std::int32_t> ranks);
// The same list cut after `maxRuns` runs ("0-3", "5" and "7-9" are three), for a line that must
// stay short however scattered the ranks are; `omittedRuns` gets how many runs were left out.
std::string formatRanksAtMost(std::vector<std::int32_t> ranks, std::size_t maxRuns, std::size_t& omittedRuns);

} // namespace rankscope::model
