#pragma once
// A verdict a rule proposes: the cause, the ranks it blames, how sure the rule is, and the
// precedence id that places the cause against the others (precedence.h). The engine keeps
// one of them (arbitration.h).

#include "model/diagnosis/diagnosis.h"
#include "model/diagnosis/precedence.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::model {

struct Proposal {
    // A proposal always has a place in the table; the rest has defaults.
    explicit Proposal(Precedence precedence)
        : precedence(precedence)
    {
    }

    Precedence precedence;
    DiagnosisStatus status = DiagnosisStatus::HangDiagnosed;
    RootCauseClass rootCause = RootCauseClass::Unknown;
    std::vector<std::int32_t> initiating;
    std::optional<std::pair<std::int32_t, std::int32_t>> pair;
    double confidence = 0.0;
    std::size_t finding = 0; // index into RuleOutput::findings
    std::string summary;     // the verdict sentence when this proposal wins
    // For a fault that names a host rather than a rank: the ranks that waited on it.
    std::optional<std::vector<std::int32_t>> collateral;
    // The stuck collective when the rule found it itself (Flight Recorder) rather than in
    // the watchdog lines the engine reads it from.
    std::optional<StuckCollective> stuckCollective;
};

} // namespace rankscope::model
