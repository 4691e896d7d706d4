#pragma once
// Compact rank lists for people: {0,1,2,3,5,7,8,9} → "0-3,5,7-9".

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::model {

std::string formatRanks(std::vector<std::int32_t> ranks);

} // namespace rankscope::model
