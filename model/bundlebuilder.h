#pragma once
// Merges the ParsedSources of one load into a Bundle and derives what needs every source
// at once: source ids, one string pool, the year of year-less timestamps, global ranks
// for every identity, the world, process groups and per-rank collective progress.

#include "model/bundle.h"
#include "model/importissues.h"
#include "model/parsedsource.h"

#include <vector>

namespace rankscope::model {

// Sources keep the order given (the loader sorts them by path), so ids and every output
// are the same whatever order threads finished in.
Bundle buildBundle(std::vector<ParsedSource>&& parsed, ImportIssues loadIssues);

} // namespace rankscope::model
