#pragma once
// The diagnosis in the GNU error format, one line per evidence line, for editors' problem
// matchers and Vim/Emacs quickfix lists (docs/editor-setup.md):
//
//   rankscope-cli: error: Verdict: hang_diagnosed, straggler_stall (confidence 0.90). <summary>
//   logs/run1/rank7.log:36: error: <finding title> [straggler_stall/<rule>; rank 7]: <the line>
//   logs/run1/rank7.log:36: note: fix: <what to change>
//   logs/run1/rank7.log:36: note: verify: <command>
//
// The severity is the evidence line's role (findingwalk.h): initiating error, supporting
// warning, collateral and context note. A line whose number is not known has none
// ("file: note: ..."), and lines that name no file start with "rankscope-cli:" (the verdict,
// and findings without evidence), so a file:line pattern skips them. The fix and the
// verification commands follow the first evidence line of the findings that are errors or
// warnings.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <string>

namespace rankscope::app {

std::string diagnosisGnu(const model::Bundle& bundle, const model::Diagnosis& diagnosis);

} // namespace rankscope::app
