#pragma once
// The diagnosis for people: plain text for the terminal and Markdown for issue trackers.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <string>

namespace rankscope::app {

std::string diagnosisText(const model::Bundle& bundle, const model::Diagnosis& diagnosis);
std::string diagnosisMarkdown(const model::Bundle& bundle, const model::Diagnosis& diagnosis);

} // namespace rankscope::app
