#pragma once
// Merges the ParsedSources of one load into a Bundle and derives what needs every source
// at once: source ids, one string pool, the year of year-less timestamps, global ranks
// for every identity, the world, process groups and per-rank collective progress.

#include "model/bundle.h"
#include "model/bundlemerge.h"
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
    // About how many Flight Recorder entries the sources not added yet will bring, counting
    // the next add(): a guess from file sizes. When the entry array has to grow, it grows to
    // hold them all, so thousands of dumps added one by one fill one array instead of copying
    // it at every doubling. A guess too high costs address space only (pages never written
    // are never backed); too low, the array grows again by at least half.
    void expectFrEntries(std::size_t entries) { m_expectedFrEntries = entries; }
    // The same for events: thousands of rank logs of a noisy job (a progress bar on every
    // rank) bring millions of them, and their array grown by doubling was copied into fresh
    // pages at every step (15 % of a one-thread load, as much again in page faults).
    void expectEvents(std::size_t events) { m_expectedEvents = events; }
    // `memory`: GiveBack when the caller holds many parsed sources at once, Reuse when it
    // adds each as soon as it is parsed (see MergedMemory).
    void add(ParsedSource&& source, MergedMemory memory = MergedMemory::Reuse);
    std::size_t sourcesAdded() const { return m_bundle.sources.size(); }
    // What is merged so far; derived parts (ranks, progress) are filled in by finish().
    const Bundle& merged() const { return m_bundle; }
    // The import issues of the load itself (paths, archives) come first, then the sources'.
    Bundle finish(ImportIssues loadIssues) &&;

private:
    Bundle m_bundle;
    std::size_t m_expectedFrEntries = 0;
    std::size_t m_expectedEvents = 0;
};

} // namespace rankscope::model
