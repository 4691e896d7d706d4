#include "model/timelinedata.h"

#include "model/diagnosis/facts.h"

#include <algorithm>
#include <limits>
#include <map>

namespace rankscope::model {

bool onWallClockAxis(const TimePoint& t)
{
    return t.domain == TimeDomain::LocalWall || t.domain == TimeDomain::LocalWallNoYear;
}

namespace {

std::optional<MarkerKind> markerKind(const Event& e)
{
    switch (e.kind) {
    case EventKind::TorchWatchdogTimeout:
    case EventKind::TorchBlockingWaitTimeout:
        return MarkerKind::Timeout;
    case EventKind::PythonException:
    case EventKind::CudaOutOfMemory:
    case EventKind::FatalSignal:
    case EventKind::LauncherWorkerFailed:
    case EventKind::LauncherExit:
        return MarkerKind::Crash;
    case EventKind::CudaError:
    case EventKind::GpuXid:
    case EventKind::PcieError:
        return MarkerKind::Hardware;
    case EventKind::NcclIbCompletionError:
    case EventKind::NcclIbAsyncEvent:
    case EventKind::NcclSocketError:
    case EventKind::NicLinkState:
        return MarkerKind::Network;
    case EventKind::LauncherSignalSent:
        return MarkerKind::LauncherKill;
    case EventKind::TorchHeartbeatStuck:
    case EventKind::TorchHeartbeatTerminate:
        return MarkerKind::Heartbeat;
    default:
        if (e.severity >= Severity::Error)
            return MarkerKind::Error;
        return std::nullopt;
    }
}

} // namespace

TimelineData TimelineData::build(const Bundle& b, const Diagnosis& d)
{
    TimelineData t;
    const std::size_t n = b.ranks.size();
    t.m_markers.resize(n);
    t.m_spans.resize(n);
    const DiagnosisFacts facts = collectFacts(b);

    auto extend = [&t](std::int64_t ns) {
        if (t.m_minNs > t.m_maxNs) {
            t.m_minNs = t.m_maxNs = ns;
        } else {
            t.m_minNs = std::min(t.m_minNs, ns);
            t.m_maxNs = std::max(t.m_maxNs, ns);
        }
    };
    auto place = [&](std::int32_t rank, std::uint32_t index, MarkerKind kind) {
        const Event& e = b.events[index];
        if (rank < 0 || static_cast<std::size_t>(rank) >= n || !onWallClockAxis(e.time))
            return;
        t.m_markers[rank].push_back({ e.time.ns, index, kind, e.time.inferred });
        extend(e.time.ns);
    };
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        const auto kind = markerKind(e);
        if (!kind)
            continue;
        if (e.rank >= 0)
            place(e.rank, i, *kind);
    }
    // Host-level events the facts tied to a rank (Xid by PCI address, launcher records).
    for (const auto& rf : facts.ranks) {
        for (std::uint32_t i : rf.xidEvents)
            place(rf.rank, i, MarkerKind::Hardware);
        if (rf.launcherEvent != kNoIndex && b.events[rf.launcherEvent].rank < 0)
            place(rf.rank, rf.launcherEvent, rf.tornDown ? MarkerKind::LauncherKill : MarkerKind::Crash);
    }
    for (auto& list : t.m_markers) {
        std::stable_sort(list.begin(), list.end(), [](const TimelineMarker& x, const TimelineMarker& y) { return x.timeNs < y.timeNs; });
        list.erase(std::unique(list.begin(), list.end(), [](const TimelineMarker& x, const TimelineMarker& y) { return x.event == y.event; }), list.end());
    }

    // The wait inside the timed-out collective: from enqueue (timeout time − "ran for") to the
    // watchdog line.
    for (const auto& p : b.progress) {
        if (p.timeoutEvent == RankProgress::kNoEvent || p.rank < 0 || static_cast<std::size_t>(p.rank) >= n)
            continue;
        const Event& e = b.events[p.timeoutEvent];
        if (!onWallClockAxis(e.time) || e.durationMs < 0)
            continue;
        TimelineSpan s;
        s.endNs = e.time.ns;
        s.startNs = e.time.ns - e.durationMs * 1'000'000;
        s.seq = p.timeoutSeq;
        s.op = p.timeoutOp;
        s.pg = p.pg;
        s.event = p.timeoutEvent;
        s.stuck = d.stuckCollective && d.stuckCollective->seq == p.timeoutSeq
            && d.stuckCollective->processGroup == (p.pg == kNoStr ? std::string("0") : std::string(b.text(p.pg)));
        t.m_spans[p.rank].push_back(s);
        extend(s.startNs);
        extend(s.endNs);
    }

    // Sequence axes per process group.
    std::map<std::pair<std::int32_t, StrId>, StrId> commIdOf;
    for (const auto& c : b.commInits) {
        const std::int32_t r = b.rankOfIdentity(c.identity);
        if (r >= 0)
            commIdOf[{ r, c.commPtr }] = c.commId;
    }
    std::map<StrId, int> worldVotes;
    for (const auto& c : b.commInits)
        if (b.world.worldSize && c.nranks == *b.world.worldSize && c.commId != kNoStr)
            ++worldVotes[c.commId];
    StrId worldComm = kNoStr;
    int best = 0;
    for (const auto& [id, v] : worldVotes)
        if (v > best) {
            best = v;
            worldComm = id;
        }
    std::map<std::int32_t, std::vector<std::pair<std::int64_t, OpType>>> recentByRank;
    for (const auto& tr : b.collTraces) {
        const std::int32_t r = b.rankOfIdentity(tr.identity);
        if (r < 0)
            continue;
        auto it = commIdOf.find({ r, tr.commPtr });
        if (it == commIdOf.end() || it->second != worldComm)
            continue;
        for (const auto& c : tr.tail)
            recentByRank[r].emplace_back(static_cast<std::int64_t>(c.opCount) + 1, c.op);
    }
    std::map<StrId, SeqAxis> axes;
    for (const auto& p : b.progress) {
        SeqAxis& axis = axes[p.pg];
        axis.pg = p.pg;
        if (axis.rows.empty()) {
            axis.rows.resize(n);
            for (std::size_t r = 0; r < n; ++r)
                axis.rows[r].rank = static_cast<std::int32_t>(r);
            axis.minSeq = std::numeric_limits<std::int64_t>::max();
            axis.maxSeq = std::numeric_limits<std::int64_t>::min();
        }
        if (p.rank < 0 || static_cast<std::size_t>(p.rank) >= n)
            continue;
        SeqRow& row = axis.rows[p.rank];
        row.lastCompleted = p.lastCompleted;
        row.lastEnqueued = p.lastEnqueued;
        row.timeoutSeq = p.timeoutSeq;
        row.timeoutOp = p.timeoutOp;
        row.hasStatus = p.hasStatus;
        for (std::int64_t v : { p.lastCompleted, p.lastEnqueued, p.timeoutSeq })
            if (v >= 0) {
                axis.minSeq = std::min(axis.minSeq, v);
                axis.maxSeq = std::max(axis.maxSeq, v);
            }
        const ProcessGroup* g = b.processGroup(p.pg);
        if (g && g->isDefault)
            if (auto it = recentByRank.find(p.rank); it != recentByRank.end())
                row.recent = it->second;
    }
    for (auto& [pg, axis] : axes) {
        if (axis.minSeq > axis.maxSeq) {
            axis.minSeq = 0;
            axis.maxSeq = 0;
        }
        // Show some completed history before the lowest position.
        axis.minSeq = std::max<std::int64_t>(0, axis.minSeq - 8);
        t.m_seqAxes.push_back(std::move(axis));
    }
    return t;
}

const SeqAxis* TimelineData::seqAxis(StrId pg) const
{
    for (const auto& a : m_seqAxes)
        if (a.pg == pg)
            return &a;
    return nullptr;
}

std::size_t TimelineData::firstMarkerAtOrAfter(std::int32_t rank, std::int64_t ns) const
{
    const auto& list = m_markers[rank];
    return static_cast<std::size_t>(std::lower_bound(list.begin(), list.end(), ns,
                                        [](const TimelineMarker& m, std::int64_t v) { return m.timeNs < v; })
        - list.begin());
}

std::size_t TimelineData::endMarkerAtOrBefore(std::int32_t rank, std::int64_t ns) const
{
    const auto& list = m_markers[rank];
    return static_cast<std::size_t>(std::upper_bound(list.begin(), list.end(), ns,
                                        [](std::int64_t v, const TimelineMarker& m) { return v < m.timeNs; })
        - list.begin());
}

} // namespace rankscope::model
