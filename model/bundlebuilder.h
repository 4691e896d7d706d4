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

// The same, one source at a time: a loader merges the sources already parsed (in order)
// while its other threads are still parsing, instead of merging everything at the end.
class BundleBuilder {
public:
    // Room for these sources' records on top of what is merged already. Flight Recorder
    // entries above all: a vector of 8 M entries grown by doubling is held twice at once.
    void reserveFor(const std::vector<ParsedSource>& upcoming);
    void add(ParsedSource&& source);
    std::size_t sourcesAdded() const { return m_bundle.sources.size(); }
    // The import issues of the load itself (paths, archives) come first, then the sources'.
    Bundle finish(ImportIssues loadIssues) &&;

private:
    Bundle m_bundle;
};

} // namespace rankscope::model
