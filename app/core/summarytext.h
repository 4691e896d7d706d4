#pragma once
// The human-readable `rankscope-cli summary`: what Rankscope understood of the bundle.

#include "model/bundle.h"

#include <string>

namespace rankscope::app {

std::string summaryText(const model::Bundle& bundle);

// "0-3,5,7-9": compact rank lists for people.
std::string formatRankList(const std::vector<std::int32_t>& ranks);

} // namespace rankscope::app
