#pragma once
// Follow-up questions after a verdict, answered from the model alone: "why this rank (or why
// not)?" and "who reached collective PG:SEQ?". `rankscope-cli why` prints them; the desktop
// app can show the same text. Nothing is guessed: every sentence comes from a field of the
// bundle or the diagnosis, and what the logs do not say is said to be unknown.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace rankscope::app {

// The rank's identity, its part in the verdict (initiating, collateral or neither) and the
// rule that decided it, its state in plain words, its progress on every process group, the
// findings that name it with their evidence, and its last lines.
std::string whyRankText(const model::Bundle& bundle, const model::Diagnosis& diagnosis, std::int32_t rank);

// "Why this pair?": whether the verdict names the link between the two ranks, where each one
// is (same host or not), each one's part and state, the rank-pair evidence between them by
// kind (what the heatmap's cell holds) with its lines, and the findings that name both.
std::string whyPairText(const model::Bundle& bundle, const model::Diagnosis& diagnosis, std::int32_t a, std::int32_t b);

// "A,B" (or "A-B", "A B"); nullopt unless both are ranks and differ.
std::optional<std::pair<std::int32_t, std::int32_t>> parseRankPair(std::string_view text);

struct CollectiveRef {
    std::string processGroup; // as the logs print it ("0")
    std::int64_t seq = -1;
};

// "PG:SEQ" or "SEQ" (process group 0); nullopt when it is neither.
std::optional<CollectiveRef> parseCollectiveRef(std::string_view text);

// For every rank with progress on the group: completed, reached but not completed (with its
// timeout), or never reached; ranks of the group with no line about it are listed apart.
std::string whoReachedText(const model::Bundle& bundle, const CollectiveRef& collective);

} // namespace rankscope::app
