#pragma once
// "path:line" of an evidence line, as every text output, the report and the log viewer's
// "Copy link to this line" write it, so a link pasted into a report matches the CLI's.

#include "model/bundle.h"

#include <string>

namespace rankscope::model {

std::string evidenceLocation(const Bundle& bundle, const EvidenceRef& ref);

} // namespace rankscope::model
