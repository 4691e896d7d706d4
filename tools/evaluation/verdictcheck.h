#pragma once
// Scores a diagnosis (rankscope.diagnosis/1 JSON) against an expected answer
// (rankscope.expected/1, written by the simulator or by hand for real cases). Used by the
// golden tests and by bench/accuracy, so both judge the same way.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rankscope::evaluation {

struct ExpectedVerdict {
    std::string name; // case name for messages
    std::string status;
    std::string rootCause;
    std::vector<int> initiating;
    std::optional<std::pair<int, int>> stuckPair;
    std::optional<std::vector<int>> collateral; // nullopt: not checked
    std::optional<nlohmann::json> stuckCollective; // nullopt: not checked; null json: must be null
    // Real cases may accept several answers (an honest "inconclusive" for a case whose
    // thread does not name a rank).
    std::vector<std::string> acceptStatus;
    std::vector<std::string> acceptClass;
    bool initiatingExact = true;
};

std::optional<ExpectedVerdict> parseExpected(const nlohmann::json& expected, std::string name);

struct VerdictScore {
    bool statusOk = false;
    bool classOk = false;
    bool initiatingOk = false;     // exact set (or empty when expected empty)
    bool pairOk = true;            // only meaningful when a pair is expected
    bool pairExpected = false;
    bool falseClaim = false;       // named a rank where the truth names none
    bool stuckCollectiveOk = true;
    std::size_t collateralTruePositives = 0;
    std::size_t collateralPredicted = 0;
    std::size_t collateralExpected = 0;
    std::vector<std::string> problems; // human-readable mismatches

    // The verdict: status, class, initiating ranks and pair. The stuck collective is scored
    // on its own (a bundle whose ranks were all killed before printing may not show it).
    bool allOk() const { return statusOk && classOk && initiatingOk && pairOk; }
};

VerdictScore scoreDiagnosis(const ExpectedVerdict& expected, const nlohmann::json& diagnosis);

} // namespace rankscope::evaluation
