#pragma once
// Judges a diagnosis (rankscope.diagnosis/1 JSON) against a real case's truth.json, the way a
// user reading the verdict would: a healthy run must get "no hang found" and no rank; a case
// whose thread names no culprit must get no rank (and the right class when the class is
// known); otherwise the first rank named must be one of the culprits and the class right.
// A rank named where the thread names none, or only ranks outside the thread's, is a false
// claim: the worst answer, counted on its own. truth.json fields: initiating_ranks (list,
// null when nobody can name one, [] for a healthy run), root_cause_class (descriptive names,
// mapped below), stuck_pair.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rankscope::evaluation {

struct Truth {
    std::optional<std::vector<int>> initiating; // nullopt: the thread cannot name one
    std::string rootCause;                      // a rankscope.diagnosis/1 class, or "unknown"
    bool healthy = false;
};

// nullopt when the document is not a truth.json.
std::optional<Truth> parseTruth(const nlohmann::json& truth);

struct TruthScore {
    bool right = false;
    bool rankOk = false;
    bool classOk = false;
    bool falseClaim = false;
    std::string got; // "status/class ranks=[…]" for a report line
};

TruthScore judgeAgainstTruth(const Truth& truth, const nlohmann::json& diagnosis);

} // namespace rankscope::evaluation
