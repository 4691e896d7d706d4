#pragma once
// The JSON objects shared by `rankscope-cli summary --format json` (rankscope.summary/1) and
// the diagnosis output (rankscope.diagnosis/1). Other tools parse these: keep them exact.

#include "model/bundle.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rankscope::app {

nlohmann::json inputsJson(const model::Bundle& bundle);
nlohmann::json worldJson(const model::Bundle& bundle);
nlohmann::json importIssuesJson(const model::Bundle& bundle);
// Per rank: identity and, per process group, last enqueued / completed / timed-out seq.
nlohmann::json ranksSummaryJson(const model::Bundle& bundle);

nlohmann::json summaryJson(const model::Bundle& bundle);

// Serialises with invalid UTF-8 (logs are full of it) replaced, never throwing.
std::string dumpJson(const nlohmann::json& value, int indent = 2);

} // namespace rankscope::app
