#pragma once
// "path:line" of an evidence line, as every text output and the report show it.

#include "model/bundle.h"

#include <string>

namespace rankscope::app {

std::string evidenceLocation(const model::Bundle& bundle, const model::EvidenceRef& ref);

} // namespace rankscope::app
