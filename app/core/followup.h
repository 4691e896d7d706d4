#pragma once
// The question box of the desktop app: "why not rank 5?", "what was rank 12 doing?", "pair
// 3,4", "which ranks never reached #117?", "host node-3". A typed question is read into one of
// the follow-up questions `rankscope-cli why` answers, and answered with the same text.
// Deterministic: keywords and numbers, no guessing beyond them.

#include "app/core/whyrank.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rankscope::app {

struct Question {
    enum class Kind { Rank, Pair, Collective, Host };
    Kind kind = Kind::Rank;
    std::int32_t rank = -1;  // Rank; Pair's first
    std::int32_t other = -1; // Pair's second
    CollectiveRef collective {};
    std::string host;
};

// nullopt when the text names no rank, pair, collective or host.
std::optional<Question> parseQuestion(std::string_view text);

std::string answerQuestion(const model::Bundle& bundle, const model::Diagnosis& diagnosis, const Question& question);

// The ranks on one host with their part and state, and the findings that name any of them.
std::string whyHostText(const model::Bundle& bundle, const model::Diagnosis& diagnosis, std::string_view host);

// What the question box takes, for its placeholder and its "not understood" answer.
inline constexpr std::string_view kQuestionForms = "rank 5 · pair 3,4 · #117 or 0:117 · host node-3";

} // namespace rankscope::app
