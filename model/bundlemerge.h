#pragma once
// Step 1 of buildBundle(): moves each source's facts into the bundle, remapping string ids,
// identity indices and source ids.

#include "model/bundle.h"
#include "model/parsedsource.h"

namespace rankscope::model {

void mergeSource(Bundle& bundle, ParsedSource&& parsed);

} // namespace rankscope::model
