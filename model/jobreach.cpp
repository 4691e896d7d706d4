#include "model/jobreach.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace rankscope::model {

namespace {

// What a hang or a failure leaves in the logs, in the order a reader checks them. Each row is
// a sign the diagnosis rules act on (docs/diagnosis-rules.md); a healthy bundle shows zero for
// each.
struct Signal {
    std::string_view what;
    bool (*shows)(const Event&);
};
constexpr Signal kSignals[] = {
    { "collective timeouts (watchdog)", [](const Event& e) { return isCollectiveTimeout(e); } },
    { "NCCL errors and warnings",
        [](const Event& e) {
            switch (e.kind) {
            case EventKind::NcclWarn:
            case EventKind::NcclIbCompletionError:
            case EventKind::NcclIbAsyncEvent:
            case EventKind::NcclSocketError:
            case EventKind::NcclBootstrapError:
            case EventKind::NcclProxyError:
            case EventKind::NcclCudaFailure:
            case EventKind::NcclShmError:
            case EventKind::NcclErrorChain:
            case EventKind::TorchAsyncNcclError:
            case EventKind::TorchNcclApiError:
                return true;
            default:
                return false;
            }
        } },
    { "crashes (exceptions, fatal signals, failed workers)",
        [](const Event& e) {
            return e.kind == EventKind::PythonException || e.kind == EventKind::FatalSignal
                || e.kind == EventKind::LauncherWorkerFailed
                || e.kind == EventKind::LauncherFailureRecord;
        } },
    { "GPU and host faults (Xid, CUDA errors, out of memory)",
        [](const Event& e) {
            return e.kind == EventKind::GpuXid || e.kind == EventKind::CudaError
                || e.kind == EventKind::CudaOutOfMemory || e.kind == EventKind::HostOutOfMemory
                || e.kind == EventKind::GpuInaccessible || e.kind == EventKind::PcieError;
        } },
    { "stalled processes (heartbeat monitor, desync reports)",
        [](const Event& e) {
            return e.kind == EventKind::TorchHeartbeatStuck
                || e.kind == EventKind::TorchHeartbeatTerminate
                || e.kind == EventKind::TorchDesyncReport
                || e.kind == EventKind::HorovodStalledTensor;
        } },
};

// Lines that show work getting done, not just a process being alive.
bool showsProgress(const Event& e)
{
    return e.kind == EventKind::TrainingProgress || e.kind == EventKind::TorchWatchdogStatus
        || e.kind == EventKind::TorchWorkUpdate || e.kind == EventKind::NcclCommTeardown;
}

// Wall-clock times only: a process-relative or boot-relative time cannot be compared across
// ranks, and a time copied from an earlier line says nothing about this one.
bool comparableTime(const TimePoint& t)
{
    return !t.inferred
        && (t.domain == TimeDomain::LocalWall || t.domain == TimeDomain::LocalWallNoYear
            || t.domain == TimeDomain::Utc);
}

bool later(const TimePoint& a, const TimePoint& than)
{
    return !than.valid() || a.ns > than.ns;
}

void include(RankSpread& spread, std::int32_t rank, std::int64_t value)
{
    ++spread.ranks;
    if (spread.lowest < 0 || value < spread.lowest
        || (value == spread.lowest && rank < spread.lowestRank)) {
        spread.lowest = value;
        spread.lowestRank = rank;
    }
    spread.highest = std::max(spread.highest, value);
}

} // namespace

JobReach measureReach(const Bundle& b)
{
    JobReach reach;
    for (const Signal& s : kSignals)
        reach.checked.push_back({ s.what, 0 });

    std::map<std::int32_t, std::int64_t> stepOfRank;
    for (const Event& e : b.events) {
        for (std::size_t i = 0; i < std::size(kSignals); ++i)
            if (kSignals[i].shows(e))
                ++reach.checked[i].lines;
        if (e.kind == EventKind::TrainingProgress && e.seq >= 0 && e.rank >= 0) {
            auto [it, added] = stepOfRank.emplace(e.rank, e.seq);
            if (!added)
                it->second = std::max(it->second, e.seq);
        }
        if (!comparableTime(e.time))
            continue;
        // Mixed domains (a UTC dump beside local log lines) are compared within the first
        // domain seen rather than against each other.
        if (later(e.time, reach.lastLine)
            && (!reach.lastLine.valid() || e.time.domain == reach.lastLine.domain))
            reach.lastLine = e.time;
        if (showsProgress(e) && later(e.time, reach.lastProgress)
            && (!reach.lastProgress.valid() || e.time.domain == reach.lastProgress.domain)) {
            reach.lastProgress = e.time;
            reach.lastProgressRank = e.rank;
            reach.lastProgressLine = e.evidence;
        }
    }
    for (const auto& [rank, step] : stepOfRank)
        include(reach.trainingStep, rank, step);

    // Last completed collective per (process group, rank): the watchdog's counters and each
    // Flight Recorder dump's pg_status, the higher of the two where both speak.
    std::map<std::string_view, std::map<std::int32_t, std::int64_t>> completedOf;
    const auto note = [&](StrId pg, std::int32_t rank, std::int64_t lastCompleted) {
        if (pg == kNoStr || rank < 0 || lastCompleted < 0)
            return;
        auto [it, added] = completedOf[b.text(pg)].emplace(rank, lastCompleted);
        if (!added)
            it->second = std::max(it->second, lastCompleted);
    };
    for (const RankProgress& p : b.progress)
        note(p.pg, p.rank, p.lastCompleted);
    for (const FrDump& dump : b.frDumps) {
        const std::int32_t rank
            = dump.globalRank >= 0 ? dump.globalRank : b.rankOfIdentity(dump.identity);
        for (const FrPgStatus& status : dump.pgStatus)
            note(status.pg, rank, status.lastCompleted);
        // Its entries' completion times (UTC), unless the logs already gave a local time:
        // the two clocks are not compared.
        if (reach.lastProgress.valid() && reach.lastProgress.domain != TimeDomain::Utc)
            continue;
        for (std::uint32_t i = dump.firstEntry;
             i < dump.firstEntry + dump.entryCount && i < b.frEntries.size(); ++i) {
            const TimePoint done = b.frEntries[i].discoveredCompleted();
            if (done.valid() && later(done, reach.lastProgress)) {
                reach.lastProgress = done;
                reach.lastProgressRank = rank;
                reach.lastProgressLine = dump.evidence;
            }
        }
    }
    for (const auto& [pg, ranks] : completedOf) {
        GroupReach group;
        group.processGroup = std::string(pg);
        const StrId key = b.strings.find(pg);
        if (const ProcessGroup* known = key == kNoStr ? nullptr : b.processGroup(key);
            known && known->desc != kNoStr)
            group.description = std::string(b.text(known->desc));
        for (const auto& [rank, lastCompleted] : ranks)
            include(group.lastCompleted, rank, lastCompleted);
        reach.groups.push_back(std::move(group));
    }
    if (reach.lastProgress.valid() && reach.lastProgress.domain == TimeDomain::Utc
        && reach.lastLine.valid() && reach.lastLine.domain != TimeDomain::Utc)
        reach.lastLine = {}; // a local log time beside a UTC dump time would mislead
    return reach;
}

} // namespace rankscope::model
