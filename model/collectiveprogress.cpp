#include "model/collectiveprogress.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace rankscope::model {

namespace {

bool carriesProgress(EventKind k)
{
    switch (k) {
    case EventKind::TorchWatchdogTimeout:
    case EventKind::TorchWatchdogStatus:
    case EventKind::TorchDumpSignal:
    case EventKind::TorchWorkUpdate:
    case EventKind::TorchAsyncNcclError:
    case EventKind::TorchBlockingWaitTimeout:
    case EventKind::TorchWatchdogException:
        return true;
    default:
        return false;
    }
}


} // namespace

void buildProgress(Bundle& b)
{
    // A watchdog timeout line (a) has only "[Rank r]"; the PG comes from the status line
    // (b) the same process prints for the same SeqNum right after it.
    std::map<std::pair<std::uint32_t, std::int64_t>, StrId> pgOfSeq;
    // Failing that, another process's line for the same SeqNum: a paste may keep one rank's
    // timeout and another rank's status line ("[PG ID 1 …] failure detected by watchdog at
    // work sequence id: 55485"). Only a SeqNum one group alone names.
    std::map<std::int64_t, std::set<StrId>> pgsOfSeq;
    std::set<StrId> pgKeys;
    for (const Event& e : b.events) {
        if (e.pg != kNoStr && e.seq >= 0 && carriesProgress(e.kind)) {
            pgOfSeq.emplace(std::make_pair(e.identity, e.seq), e.pg);
            pgsOfSeq[e.seq].insert(e.pg);
        }
        if (e.pg != kNoStr && e.rank >= 0)
            pgKeys.insert(e.pg);
    }
    for (const auto& o : b.pgOptions)
        if (o.pg != kNoStr)
            pgKeys.insert(o.pg);
    // ≤2.1 logs name no PG at all: with a single PG in sight, that is the one; with none,
    // the timeouts are on the default group "0" (the only group most jobs have).
    if (pgKeys.empty()) {
        bool anyProgress = false;
        for (const Event& e : b.events)
            anyProgress = anyProgress || (e.rank >= 0 && carriesProgress(e.kind));
        if (anyProgress)
            pgKeys.insert(b.strings.intern("0"));
    }
    const StrId onlyPg = pgKeys.size() == 1 ? *pgKeys.begin() : kNoStr;

    std::map<std::pair<StrId, std::int32_t>, RankProgress> progress;
    for (std::uint32_t index = 0; index < b.events.size(); ++index) {
        const Event& e = b.events[index];
        if (e.rank < 0 || !carriesProgress(e.kind))
            continue;
        StrId pg = e.pg;
        if (pg == kNoStr && e.seq >= 0) {
            if (auto it = pgOfSeq.find({ e.identity, e.seq }); it != pgOfSeq.end())
                pg = it->second;
            else if (auto named = pgsOfSeq.find(e.seq); named != pgsOfSeq.end() && named->second.size() == 1)
                pg = *named->second.begin();
        }
        if (pg == kNoStr)
            pg = onlyPg;
        RankProgress& p = progress[{ pg, e.rank }];
        p.rank = e.rank;
        p.pg = pg;
        const bool countersCut = e.kind == EventKind::TorchWatchdogStatus && e.code == 1;
        if ((e.kind == EventKind::TorchWatchdogStatus || e.kind == EventKind::TorchDumpSignal
                || e.kind == EventKind::TorchWorkUpdate)
            && !countersCut) {
            // Counters only grow; the latest report of a process is its best picture.
            if (!p.hasStatus || e.lastEnqueued >= p.lastEnqueued) {
                p.lastEnqueued = std::max(p.lastEnqueued, e.lastEnqueued);
                p.lastCompleted = std::max(p.lastCompleted, e.lastCompleted);
                p.lastStarted = std::max(p.lastStarted, e.lastStarted);
                p.statusEvent = index;
            }
            p.hasStatus = true;
        }
        const bool failedSeq = isCollectiveTimeout(e) || e.kind == EventKind::TorchWatchdogStatus
            || e.kind == EventKind::TorchAsyncNcclError;
        if (failedSeq && e.seq >= 0 && (p.timeoutSeq < 0 || e.seq < p.timeoutSeq)) {
            p.timeoutSeq = e.seq;
            if (e.op != OpType::Unknown) {
                p.timeoutOp = e.op;
                p.timeoutNumelIn = e.numelIn;
                p.timeoutNumelOut = e.numelOut;
            }
            if (isCollectiveTimeout(e) || p.timeoutEvent == RankProgress::kNoEvent) {
                p.timeoutEvent = index;
                p.timeoutTime = e.time;
                p.ranForMs = e.durationMs;
            }
        } else if (failedSeq && e.seq >= 0 && e.seq == p.timeoutSeq && e.op != OpType::Unknown
            && p.timeoutOp == OpType::Unknown) {
            p.timeoutOp = e.op;
            p.timeoutNumelIn = e.numelIn;
            p.timeoutNumelOut = e.numelOut;
            if (isCollectiveTimeout(e)) {
                p.timeoutEvent = index;
                p.timeoutTime = e.time;
                p.ranForMs = e.durationMs;
            }
        }
    }
    b.progress.clear();
    for (auto& [key, p] : progress)
        b.progress.push_back(p);
    std::sort(b.progress.begin(), b.progress.end(), [&b](const RankProgress& x, const RankProgress& y) {
        const auto xs = b.text(x.pg);
        const auto ys = b.text(y.pg);
        return xs != ys ? xs < ys : x.rank < y.rank;
    });
    b.indexProgress();

    // Process groups: keys seen, default group membership = the world, others from the
    // NCCL communicator each rank created for the group.
    std::map<std::pair<std::int32_t, StrId>, StrId> commIdOf; // (rank, comm ptr) → commId
    std::map<StrId, std::set<std::int32_t>> commMembers;
    for (const CommInit& c : b.commInits) {
        const std::int32_t r = b.rankOfIdentity(c.identity);
        if (r < 0 || c.commPtr == kNoStr)
            continue;
        const StrId id = c.commId != kNoStr ? c.commId : c.commPtr;
        commIdOf[{ r, c.commPtr }] = id;
        commMembers[id].insert(r);
    }
    std::map<StrId, std::set<std::int32_t>> pgMembers;
    for (const Event& e : b.events) {
        if (e.kind != EventKind::TorchCommCreated || e.rank < 0 || e.pg == kNoStr)
            continue;
        if (auto it = commIdOf.find({ e.rank, e.detail }); it != commIdOf.end())
            pgMembers[e.pg].insert(commMembers[it->second].begin(), commMembers[it->second].end());
    }
    // What the options records and the lines say about each group, gathered in one pass over
    // each: looking them up group by group was quadratic (10^5 groups took 20 s).
    struct GroupFacts {
        StrId optionsDesc = kNoStr; // the last options record's
        std::int32_t size = -1;
        std::int64_t optionsTimeoutMs = -1; // the last options record's
        StrId statusDesc = kNoStr; // the first watchdog status line's
        std::int64_t lineTimeoutMs = -1; // the first line's that states one
    };
    std::unordered_map<StrId, GroupFacts> factsOf;
    for (StrId key : pgKeys)
        factsOf.try_emplace(key);
    for (const auto& o : b.pgOptions) {
        auto it = factsOf.find(o.pg);
        if (it == factsOf.end())
            continue;
        if (o.pgDesc != kNoStr)
            it->second.optionsDesc = o.pgDesc;
        if (o.size > 0)
            it->second.size = o.size;
        if (o.timeoutMs > 0)
            it->second.optionsTimeoutMs = o.timeoutMs;
    }
    for (const Event& e : b.events) {
        auto it = e.pg == kNoStr ? factsOf.end() : factsOf.find(e.pg);
        if (it == factsOf.end())
            continue;
        GroupFacts& f = it->second;
        if (f.statusDesc == kNoStr && e.kind == EventKind::TorchWatchdogStatus
            && e.detail != kNoStr)
            f.statusDesc = e.detail;
        if (f.lineTimeoutMs < 0 && e.timeoutMs > 0)
            f.lineTimeoutMs = e.timeoutMs;
    }
    b.processGroups.clear();
    b.processGroups.reserve(pgKeys.size());
    for (StrId key : pgKeys) {
        const GroupFacts& f = factsOf[key];
        ProcessGroup g;
        g.key = key;
        g.desc = f.optionsDesc != kNoStr ? f.optionsDesc : f.statusDesc;
        g.size = f.size;
        g.timeoutMs = f.optionsTimeoutMs > 0 ? f.optionsTimeoutMs : f.lineTimeoutMs;
        g.isDefault = b.text(key) == "0" || b.text(g.desc) == "default_pg";
        if (g.isDefault && b.world.worldSize) {
            g.size = *b.world.worldSize;
            for (std::int32_t r = 0; r < g.size; ++r)
                g.members.push_back(r);
        } else if (auto it = pgMembers.find(key); it != pgMembers.end()) {
            g.members.assign(it->second.begin(), it->second.end());
            if (g.size < 0)
                g.size = static_cast<std::int32_t>(g.members.size());
        }
        b.processGroups.push_back(std::move(g));
    }
    std::sort(b.processGroups.begin(), b.processGroups.end(),
        [&b](const ProcessGroup& x, const ProcessGroup& y) { return b.text(x.key) < b.text(y.key); });
    b.indexProcessGroups();
}

} // namespace rankscope::model
