#include "model/bundlemerge.h"

#include <unordered_map>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif
#include <cstdint>

namespace rankscope::model {

namespace {

class Remapper {
public:
    Remapper(Bundle& bundle, const ParsedSource& parsed, SourceId source, std::uint32_t identityBase)
        : m_bundle(bundle)
        , m_parsed(parsed)
        , m_source(source)
        , m_identityBase(identityBase)
    {
        m_strings.assign(parsed.strings.size(), kNoStr);
        m_mapped.assign(parsed.strings.size(), false);
    }

    StrId str(StrId id)
    {
        if (id == kNoStr || id >= m_strings.size())
            return kNoStr;
        if (!m_mapped[id]) {
            m_strings[id] = m_bundle.strings.internFrom(m_parsed.strings, id);
            m_mapped[id] = true;
        }
        return m_strings[id];
    }

    std::uint32_t identity(std::uint32_t local) const { return m_identityBase + local; }
    void evidence(EvidenceRef& e) const
    {
        if (e.source != kNoSource)
            e.source = m_source;
    }
    void frames(std::vector<StackFrame>& frames)
    {
        for (auto& f : frames) {
            f.function = str(f.function);
            f.file = str(f.file);
        }
    }

private:
    Bundle& m_bundle;
    const ParsedSource& m_parsed;
    SourceId m_source;
    std::uint32_t m_identityBase;
    std::vector<StrId> m_strings;
    std::vector<bool> m_mapped;
};

template <class T>
void append(std::vector<T>& to, std::vector<T>& from)
{
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

// Flight Recorder entries are merged from thousands of small per-source vectors into one
// reserved vector. The small ones sit in malloc's heap, where free() keeps their pages, so
// without this the process would hold every entry twice at the end of the merge (issue 6:
// 4096 dumps × 2000 entries, 262 MB each time). Each source's entry buffer gives its pages
// back as soon as it is copied (MADV_DONTNEED on the whole pages inside it, what glibc's own
// malloc_trim does to free chunks; malloc keeps its bookkeeping only at a chunk's two ends,
// which are left alone), and every kReleaseEvery entries merged, malloc_trim hands back what
// the rest of the merged sources freed (elsewhere both are no-ops).
constexpr std::size_t kReleaseEvery = std::size_t(1) << 20; // entries, 32 MB

template <class T>
void freeNow(std::vector<T>& v)
{
#if defined(__linux__)
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pageSize > 0 && v.capacity() > 0) {
        const auto page = static_cast<std::uintptr_t>(pageSize);
        const auto begin = reinterpret_cast<std::uintptr_t>(v.data()) + 64;
        const auto end = reinterpret_cast<std::uintptr_t>(v.data()) + v.capacity() * sizeof(T) - 64;
        const std::uintptr_t from = (begin + page - 1) & ~(page - 1);
        const std::uintptr_t to = end & ~(page - 1);
        if (end > begin && to > from)
            madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    }
#endif
    std::vector<T>().swap(v);
}

void releaseFreedPages()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace

void mergeSource(Bundle& bundle, ParsedSource&& parsed, MergedMemory memory)
{
    const auto sourceId = static_cast<SourceId>(bundle.sources.size());
    const auto identityBase = static_cast<std::uint32_t>(bundle.identities.size());
    Remapper m(bundle, parsed, sourceId, identityBase);

    Source src = parsed.source;
    src.id = sourceId;
    bundle.sources.push_back(std::move(src));

    for (RawIdentity id : parsed.identities) {
        id.source = sourceId;
        id.host = m.str(id.host);
        id.ip = m.str(id.ip);
        bundle.identities.push_back(id);
    }
    for (Event& e : parsed.events) {
        m.evidence(e.evidence);
        e.identity = m.identity(e.identity);
        e.pg = m.str(e.pg);
        e.text = m.str(e.text);
        e.detail = m.str(e.detail);
        e.peer = m.str(e.peer);
    }
    for (CommInit& r : parsed.commInits) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.host = m.str(r.host);
        r.commPtr = m.str(r.commPtr);
        r.commId = m.str(r.commId);
        r.parentComm = m.str(r.parentComm);
        r.busId = m.str(r.busId);
    }
    for (BootstrapAddress& r : parsed.bootstrapAddresses) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.host = m.str(r.host);
        r.interfaceName = m.str(r.interfaceName);
        r.ip = m.str(r.ip);
    }
    for (CommLink& r : parsed.commLinks) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.host = m.str(r.host);
        r.commPtr = m.str(r.commPtr);
        r.transport = m.str(r.transport);
    }
    for (CollTrace& r : parsed.collTraces) {
        r.identity = m.identity(r.identity);
        r.host = m.str(r.host);
        r.commPtr = m.str(r.commPtr);
        m.evidence(r.first.evidence);
        for (auto& c : r.tail)
            m.evidence(c.evidence);
    }
    for (EnvSetting& r : parsed.envSettings) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.name = m.str(r.name);
        r.value = m.str(r.value);
    }
    for (LauncherFailure& r : parsed.launcherFailures) {
        m.evidence(r.evidence);
        r.host = m.str(r.host);
        r.errorFile = m.str(r.errorFile);
        r.traceback = m.str(r.traceback);
    }
    for (WorkerGroupLayout& r : parsed.workerGroups) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.host = m.str(r.host);
    }
    for (PythonTraceback& r : parsed.tracebacks) {
        m.evidence(r.evidence);
        m.evidence(r.exceptionLine);
        r.identity = m.identity(r.identity);
        r.exceptionType = m.str(r.exceptionType);
        r.message = m.str(r.message);
        m.frames(r.frames);
    }
    for (StackDump& r : parsed.stackDumps) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.threadName = m.str(r.threadName);
        m.frames(r.mainThread);
    }
    for (DesyncReport& r : parsed.desyncReports) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
    }
    for (ProcessGroupOptions& r : parsed.pgOptions) {
        m.evidence(r.evidence);
        r.identity = m.identity(r.identity);
        r.pg = m.str(r.pg);
        r.pgDesc = m.str(r.pgDesc);
    }
    for (GpuUtilSummary& r : parsed.gpuUtil) {
        m.evidence(r.evidence);
        r.host = m.str(r.host);
        r.busId = m.str(r.busId);
    }
    const auto dumpBase = static_cast<std::uint32_t>(bundle.frDumps.size());
    const auto entryBase = static_cast<std::uint32_t>(bundle.frEntries.size());
    for (FrDump& d : parsed.frDumps) {
        m.evidence(d.evidence);
        d.identity = m.identity(d.identity);
        d.version = m.str(d.version);
        d.firstEntry += entryBase;
        for (auto& c : d.pgConfig) {
            c.name = m.str(c.name);
            c.desc = m.str(c.desc);
        }
        for (auto& st : d.pgStatus)
            st.pg = m.str(st.pg);
    }
    // Calls and stacks are de-duplicated per source; appending keeps their indexes valid with
    // one offset.
    const auto callBase = static_cast<std::uint32_t>(bundle.frCalls.size());
    const auto stackBase = static_cast<std::uint32_t>(bundle.frStacks.size());
    const auto frameBase = static_cast<std::uint32_t>(bundle.frStacks.frames.size());
    for (FrEntry& e : parsed.frEntries)
        if (e.call != kNoFrIndex)
            e.call += callBase;
    for (FrCall& c : parsed.frCalls) {
        c.dump += dumpBase;
        if (c.stack != kNoFrIndex)
            c.stack += stackBase;
        c.pg = m.str(c.pg);
        c.pgDesc = m.str(c.pgDesc);
        c.profilingName = m.str(c.profilingName);
        c.inputSizes = m.str(c.inputSizes);
        c.outputSizes = m.str(c.outputSizes);
        c.inputDtypes = m.str(c.inputDtypes);
        c.outputDtypes = m.str(c.outputDtypes);
    }
    m.frames(parsed.frStacks.frames);
    for (std::uint32_t& b : parsed.frStacks.begin)
        b += frameBase;
    append(bundle.frCalls, parsed.frCalls);
    append(bundle.frStacks.frames, parsed.frStacks.frames);
    append(bundle.frStacks.begin, parsed.frStacks.begin);
    append(bundle.frDumps, parsed.frDumps);
    const std::size_t entriesBefore = bundle.frEntries.size();
    append(bundle.frEntries, parsed.frEntries);
    if (memory == MergedMemory::GiveBack)
        freeNow(parsed.frEntries); // now, not when the caller drops the source
    append(bundle.events, parsed.events);
    append(bundle.commInits, parsed.commInits);
    append(bundle.bootstrapAddresses, parsed.bootstrapAddresses);
    append(bundle.commLinks, parsed.commLinks);
    append(bundle.collTraces, parsed.collTraces);
    append(bundle.envSettings, parsed.envSettings);
    append(bundle.launcherFailures, parsed.launcherFailures);
    append(bundle.workerGroups, parsed.workerGroups);
    append(bundle.tracebacks, parsed.tracebacks);
    append(bundle.stackDumps, parsed.stackDumps);
    append(bundle.desyncReports, parsed.desyncReports);
    append(bundle.pgOptions, parsed.pgOptions);
    append(bundle.gpuUtil, parsed.gpuUtil);
    bundle.issues.merge(parsed.issues);
    if (memory == MergedMemory::GiveBack
        && entriesBefore / kReleaseEvery != bundle.frEntries.size() / kReleaseEvery)
        releaseFreedPages();
}

} // namespace rankscope::model
