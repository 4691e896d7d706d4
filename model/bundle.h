#pragma once
// The whole loaded bundle: every source's facts merged into one string pool, with each
// identity resolved to a global rank and the per-rank, per-process-group collective
// progress lined up. Built once by buildBundle() and then read-only (shared between
// threads as std::shared_ptr<const Bundle>).

#include "model/event.h"
#include "model/identity.h"
#include "model/importissues.h"
#include "model/records.h"
#include "model/source.h"
#include "model/stringpool.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

// How a rank's identity was established, strongest first. Reports say it, because a
// diagnosis built on a guessed rank must say so.
enum class RankEvidence : std::uint8_t {
    None,
    Inferred,       // only from weak hints (srun task id, PG rank of an unknown PG)
    FileName,       // rank3.log
    LauncherTable,  // torchrun layout or failure table
    NcclInit,       // comm rank in the world communicator
    Explicit,       // the process said so: [rankN]:, "global rank: N", GLOBAL_RANK
};

std::string_view rankEvidenceName(RankEvidence evidence);

struct RankInfo {
    std::int32_t rank = -1;
    StrId host = kNoStr;
    std::int32_t localRank = -1;
    std::int32_t pid = -1;
    StrId busId = kNoStr;
    std::int32_t cudaDev = -1;
    std::vector<StrId> ips;
    std::vector<SourceId> sources;
    RankEvidence evidence = RankEvidence::None;
    bool seen = false; // any event or record is attributed to this rank
};

struct WorldInfo {
    std::optional<std::int32_t> worldSize;
    std::vector<std::int32_t> ranksSeen;
    std::vector<std::int32_t> ranksMissing; // only when the world size is known
    std::vector<StrId> hosts;
};

// A PyTorch process group as the logs show it. Membership is known for the default group
// (the world) and for groups whose NCCL communicator init lines were logged.
struct ProcessGroup {
    StrId key = kNoStr; // Event::pg
    StrId desc = kNoStr;
    std::int32_t size = -1;
    std::vector<std::int32_t> members; // global ranks, sorted; empty when unknown
    bool isDefault = false;
    std::int64_t timeoutMs = -1;
};

// One rank's progress on one process group, from watchdog, status and dump-signal lines.
struct RankProgress {
    std::int32_t rank = -1;
    StrId pg = kNoStr;
    std::int64_t lastEnqueued = -1;
    std::int64_t lastStarted = -1;
    std::int64_t lastCompleted = -1;
    bool hasStatus = false;        // a line reported lastEnqueued/lastCompleted
    std::int64_t timeoutSeq = -1;  // lowest timed-out SeqNum reported
    OpType timeoutOp = OpType::Unknown;
    std::uint64_t timeoutNumelIn = 0;
    std::uint64_t timeoutNumelOut = 0;
    std::int64_t ranForMs = -1;
    TimePoint timeoutTime;
    std::uint32_t timeoutEvent = kNoEvent; // index into Bundle::events
    std::uint32_t statusEvent = kNoEvent;

    static constexpr std::uint32_t kNoEvent = 0xffffffffu;
};

class Bundle {
public:
    std::vector<Source> sources;
    StringPool strings;
    std::vector<RawIdentity> identities;
    std::vector<std::int32_t> identityRank; // resolved global rank per identity, -1 unknown
    std::vector<Event> events;              // in source order, then line order
    std::vector<CommInit> commInits;
    std::vector<BootstrapAddress> bootstrapAddresses;
    std::vector<CommLink> commLinks;
    std::vector<CollTrace> collTraces;
    std::vector<EnvSetting> envSettings;
    std::vector<LauncherFailure> launcherFailures;
    std::vector<WorkerGroupLayout> workerGroups;
    std::vector<PythonTraceback> tracebacks;
    std::vector<StackDump> stackDumps;
    std::vector<DesyncReport> desyncReports;
    std::vector<ProcessGroupOptions> pgOptions;
    std::vector<GpuUtilSummary> gpuUtil;
    std::vector<FrDump> frDumps;
    std::vector<FrEntry> frEntries;
    std::vector<FrCall> frCalls; // FrEntry::call
    FrStacks frStacks;           // FrEntry::stack
    ImportIssues issues;

    // Derived by buildBundle().
    WorldInfo world;
    std::vector<RankInfo> ranks; // indexed by global rank
    std::vector<ProcessGroup> processGroups; // sorted by key text
    std::vector<RankProgress> progress; // sorted by (pg key text, rank)
    // Positions in progress ordered by (pg, rank) and by rank (each keeping progress's order
    // among equals), so per-rank lookups stay logarithmic at 16k ranks. Built by
    // indexProgress(); while their size differs from progress's (a bundle assembled by hand),
    // lookups scan progress instead.
    std::vector<std::uint32_t> progressByPgRank;
    std::vector<std::uint32_t> progressByRank;
    // Positions in processGroups ordered by key id, so the diagnosis' lookup of every group
    // stays logarithmic (10^5 groups scanned one by one took seconds). Built by
    // indexProcessGroups(); while its size differs from processGroups's, lookups scan.
    std::vector<std::uint32_t> processGroupsByKey;
    std::int32_t referenceYear = kNoYearReference; // year given to year-less timestamps
    bool yearKnown = false;
    // Nothing but one torchrun agent's console names the workers (a paste of a single-node
    // run): its local ranks are the global ranks.
    bool localRanksAreGlobal = false;

    std::string_view text(StrId id) const { return strings.view(id); }
    std::int32_t rankOfIdentity(std::uint32_t identity) const
    {
        return identity < identityRank.size() ? identityRank[identity] : -1;
    }
    const Source* source(SourceId id) const { return id < sources.size() ? &sources[id] : nullptr; }
    const RankInfo* rankInfo(std::int32_t rank) const
    {
        return rank >= 0 && static_cast<std::size_t>(rank) < ranks.size() ? &ranks[rank] : nullptr;
    }
    const ProcessGroup* processGroup(StrId key) const;
    // Progress of every rank on one process group.
    std::vector<const RankProgress*> progressOf(StrId pg) const;
    const RankProgress* progressOf(StrId pg, std::int32_t rank) const;
    // Progress of one rank on every process group, in progress's order.
    std::vector<const RankProgress*> progressOfRank(std::int32_t rank) const;
    void indexProgress();
    void indexProcessGroups();
    // Events attributed to one rank, in source/line order.
    std::vector<std::uint32_t> eventsOfRank(std::int32_t rank) const;
    std::uint64_t totalBytes() const;
    // Whether any line or dump was understood. A paste of an unknown format still loads (it
    // is diagnosed as inconclusive, saying what was read), so this is asked, not assumed.
    bool recognisedAnything() const;
    // Every host the bundle names: the rank table's, line labels' and file paths'. More than
    // one is a multi-node job.
    std::set<std::string_view> hostNames() const;
    // "rank 3 (node-01, GPU 3)" for explanations.
    std::string describeRank(std::int32_t rank) const;
};

} // namespace rankscope::model
