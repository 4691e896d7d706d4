#pragma once
// Step 1 of buildBundle(): moves each source's facts into the bundle, remapping string ids,
// identity indices and source ids.

#include "model/bundle.h"
#include "model/parsedsource.h"

namespace rankscope::model {

// What happens to a merged source's Flight Recorder entry buffer, the one big thing it held.
enum class MergedMemory {
    // Every other source is held too (all parsed before the merge): its pages go back to the
    // system at once, or the process would hold every entry twice by the end.
    GiveBack,
    // Sources are merged as they are parsed: the buffer goes back to malloc, where the next
    // dump's parse reuses its pages instead of faulting in fresh ones.
    Reuse,
};

// The caller says which (BundleBuilder::add; buildBundle gives every source back).
void mergeSource(Bundle& bundle, ParsedSource&& parsed, MergedMemory memory);

} // namespace rankscope::model
