#include "model/bundlebuilder.h"

#include "model/bundlemerge.h"
#include "model/collectiveprogress.h"
#include "model/rankresolver.h"

#include <algorithm>
#include <map>
#include <new>

#if defined(__unix__)
#include <unistd.h>
#endif

namespace rankscope::model {

namespace {

// PyTorch and glog timestamps have no year ([formats 1.1]). Give them the year of the
// bundle's dated lines (torchrun, DeepSpeed, NCCL 2.26+), choosing per value the year that
// puts it closest to those lines, so a run crossing New Year stays in order.
void assignYears(Bundle& b)
{
    std::map<int, std::size_t> years;
    std::int64_t sum = 0;
    std::size_t count = 0;
    for (const Event& e : b.events) {
        if (e.time.domain == TimeDomain::LocalWall) {
            ++years[civilFromNs(e.time.ns).year];
            sum += wholeSeconds(e.time) / 60; // minutes: avoids overflow for millions of lines
            ++count;
        }
    }
    for (const auto& f : b.launcherFailures)
        if (f.time.domain == TimeDomain::LocalWall)
            ++years[civilFromNs(f.time.ns).year];
    // Flight Recorder times are epoch ns, so they carry the year even when no log line does
    // (an FR-plus-glog bundle). Sample at most ~4096 entries: a 4096-rank bundle holds
    // millions and one vote per dump-sized stride is plenty.
    const std::size_t frStride = std::max<std::size_t>(1, b.frEntries.size() / 4096);
    for (std::size_t i = 0; i < b.frEntries.size(); i += frStride) {
        const TimePoint t = b.frEntries[i].created();
        if (t.ns <= 0)
            continue;
        ++years[civilFromNs(t.ns).year];
        sum += wholeSeconds(t) / 60;
        ++count;
    }
    if (years.empty())
        return;
    int year = years.begin()->first;
    std::size_t best = 0;
    for (const auto& [y, n] : years)
        if (n > best) {
            best = n;
            year = y;
        }
    b.referenceYear = year;
    b.yearKnown = true;
    const std::int64_t referenceNs = count ? (sum / static_cast<std::int64_t>(count)) * 60 * kNsPerSecond : 0;
    auto place = [&](TimePoint& t) {
        if (t.domain != TimeDomain::LocalWallNoYear)
            return;
        TimePoint bestT = withYear(t, year);
        if (count) {
            for (int y : { year - 1, year + 1 }) {
                const TimePoint alt = withYear(t, y);
                if (std::llabs(alt.ns - referenceNs) < std::llabs(bestT.ns - referenceNs))
                    bestT = alt;
            }
        }
        bestT.inferred = t.inferred;
        t = bestT;
    };
    for (Event& e : b.events)
        place(e.time);
    for (auto& r : b.commInits)
        place(r.time);
    for (auto& r : b.tracebacks)
        place(r.time);
    for (auto& r : b.stackDumps)
        place(r.time);
    for (auto& r : b.desyncReports)
        place(r.time);
    for (auto& r : b.launcherFailures)
        place(r.time);
}

// A guess is never allowed more than a quarter of the machine's memory: an absurd one (a
// corrupt archive size) must not ask for more than could ever be held, and sanitizer
// allocators abort on such a request instead of throwing bad_alloc.
template <class T> std::size_t maxGuessed()
{
#if defined(__unix__) && defined(_SC_PHYS_PAGES)
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return static_cast<std::size_t>(pages) / 4 * static_cast<std::size_t>(pageSize) / sizeof(T);
#endif
    return (std::size_t(1) << 31) / sizeof(T); // 2 GB
}

// Room for `incoming` more records in `records`, given that about `expected` (counting
// these) are still to come: when the array must grow, it grows to hold them all, or by at
// least half. `expected` is then lowered by what arrives now.
template <class T>
void makeRoom(std::vector<T>& records, std::size_t incoming, std::size_t& expected)
{
    const std::size_t needed = records.size() + incoming;
    if (needed > records.capacity()) {
        const std::size_t grown = std::max(needed, records.capacity() + records.capacity() / 2);
        const std::size_t guessed = records.size() + std::min(expected, maxGuessed<T>());
        try {
            records.reserve(std::max(grown, guessed));
        } catch (const std::bad_alloc&) {
            records.reserve(grown); // the guess asked for more address space than there is
        }
    }
    expected -= std::min(expected, incoming);
}

} // namespace

void BundleBuilder::reserveFor(const std::vector<ParsedSource>& upcoming)
{
    // Growing these by doubling copies them several times into fresh pages the kernel must
    // zero first; Flight Recorder entries (4096 dumps × 2000) would be held twice.
    std::size_t frEntries = 0, events = 0, links = 0, traces = 0, inits = 0;
    for (const ParsedSource& p : upcoming) {
        frEntries += p.frEntries.size();
        events += p.events.size();
        links += p.commLinks.size();
        traces += p.collTraces.size();
        inits += p.commInits.size();
    }
    Bundle& b = m_bundle;
    b.frEntries.reserve(b.frEntries.size() + frEntries);
    b.events.reserve(b.events.size() + events);
    b.commLinks.reserve(b.commLinks.size() + links);
    b.collTraces.reserve(b.collTraces.size() + traces);
    b.commInits.reserve(b.commInits.size() + inits);
}

void BundleBuilder::add(ParsedSource&& source, MergedMemory memory)
{
    makeRoom(m_bundle.frEntries, source.frEntries.size(), m_expectedFrEntries);
    makeRoom(m_bundle.events, source.events.size(), m_expectedEvents);
    mergeSource(m_bundle, std::move(source), memory);
    // Its memory goes now, not when the caller drops it (and without allocating the empty
    // pool and tables a fresh ParsedSource would).
    ParsedSource done = std::move(source);
}

Bundle BundleBuilder::finish(ImportIssues loadIssues) &&
{
    loadIssues.merge(m_bundle.issues);
    m_bundle.issues = std::move(loadIssues);
    assignYears(m_bundle);
    resolveRanks(m_bundle);
    buildProgress(m_bundle);
    return std::move(m_bundle);
}

Bundle buildBundle(std::vector<ParsedSource>&& parsed, ImportIssues loadIssues)
{
    BundleBuilder builder;
    builder.reserveFor(parsed);
    for (ParsedSource& p : parsed)
        builder.add(std::move(p), MergedMemory::GiveBack); // all of them are held until merged
    parsed.clear();
    return std::move(builder).finish(std::move(loadIssues));
}

} // namespace rankscope::model
