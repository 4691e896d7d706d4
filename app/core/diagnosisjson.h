#pragma once
// rankscope.diagnosis/1: the diagnosis as JSON (the output contract other tools and the
// tests depend on; keep field names and shapes exact).

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <nlohmann/json.hpp>

namespace rankscope::app {

nlohmann::json diagnosisJson(const model::Bundle& bundle, const model::Diagnosis& diagnosis);
nlohmann::json verdictJson(const model::Bundle& bundle, const model::Diagnosis& diagnosis);

} // namespace rankscope::app
