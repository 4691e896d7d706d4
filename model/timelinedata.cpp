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

std::int32_t rankOfDump(const Bundle& b, const FrDump& dump)
{
    // The file name (nccl_trace_rank_<R>) names the global rank of PG 0 ([formats 2.1]).
    return dump.globalRank >= 0 ? dump.globalRank : b.rankOfIdentity(dump.identity);
}

const FrCall* callOf(const Bundle& b, const FrEntry& e)
{
    return e.call < b.frCalls.size() ? &b.frCalls[e.call] : nullptr;
}

bool isStuck(const Diagnosis& d, const Bundle& b, StrId pg, std::int64_t seq)
{
    return d.stuckCollective && seq >= 0 && d.stuckCollective->seq == seq
        && d.stuckCollective->processGroup == (pg == kNoStr ? std::string("0") : std::string(b.text(pg)));
}

// Flight Recorder times are epoch ns with their year; PyTorch's MMDD log lines have none,
// and a bundle without any dated line files them under Bundle::referenceYear. On a shared
// axis the dumps must then move into that year too, or they land decades away from the
// log lines of the same seconds. Without dated lines nothing else orders them anyway.
std::int64_t onLogAxis(const Bundle& b, std::int64_t ns)
{
    if (b.yearKnown)
        return ns;
    const CivilTime c = civilFromNs(ns);
    if (c.year == b.referenceYear)
        return ns;
    const std::int64_t dayNs = 86'400 * kNsPerSecond;
    return ns + (daysFromCivil(b.referenceYear, c.month, c.day) - daysFromCivil(c.year, c.month, c.day)) * dayNs;
}

SeqAxis& axisFor(std::map<StrId, SeqAxis>& axes, StrId pg, std::size_t n)
{
    SeqAxis& axis = axes[pg];
    if (axis.rows.empty()) {
        axis.pg = pg;
        axis.rows.resize(n);
        for (std::size_t r = 0; r < n; ++r)
            axis.rows[r].rank = static_cast<std::int32_t>(r);
        axis.minSeq = std::numeric_limits<std::int64_t>::max();
        axis.maxSeq = std::numeric_limits<std::int64_t>::min();
    }
    return axis;
}

void widen(SeqAxis& axis, std::int64_t seq)
{
    if (seq < 0)
        return;
    axis.minSeq = std::min(axis.minSeq, seq);
    axis.maxSeq = std::max(axis.maxSeq, seq);
}

// Ops by sequence number; a later source for the same seq replaces an earlier one (FR,
// which names its PG, is applied after the COLL lines, which are only assumed to be PG 0).
void mergeRecent(SeqRow& row, const std::vector<std::pair<std::int64_t, OpType>>& ops)
{
    std::map<std::int64_t, OpType> bySeq(row.recent.begin(), row.recent.end());
    for (const auto& [seq, op] : ops)
        bySeq[seq] = op;
    row.recent.assign(bySeq.begin(), bySeq.end());
}

} // namespace

TimelineData TimelineData::build(const Bundle& b, const Diagnosis& d)
{
    TimelineData t;
    const std::size_t n = b.ranks.size();
    t.m_markers.resize(n);
    t.m_spans.resize(n);
    t.m_collectives.resize(n);
    t.m_collectiveEndMax.resize(n);
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
        s.inferredTime = e.time.inferred;
        s.stuck = d.stuckCollective && d.stuckCollective->seq == p.timeoutSeq
            && d.stuckCollective->processGroup == (p.pg == kNoStr ? std::string("0") : std::string(b.text(p.pg)));
        t.m_spans[p.rank].push_back(s);
        extend(s.startNs);
        extend(s.endNs);
    }

    // Flight Recorder entries: each collective from when the watchdog saw it start (else its
    // creation) to when it saw it complete. Their CLOCK_REALTIME epoch shares the axis with
    // the logs' naive local wall clock, as TimePoint::isWallClock treats them; a job whose
    // hosts log in a time zone other than UTC shows the bars shifted by that offset.
    for (const FrDump& dump : b.frDumps) {
        const std::int32_t rank = rankOfDump(b, dump);
        if (rank < 0 || static_cast<std::size_t>(rank) >= n)
            continue;
        for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount && i < b.frEntries.size(); ++i) {
            const FrEntry& e = b.frEntries[i];
            const std::int64_t recorded = e.startedNs() > 0 ? e.startedNs() : e.createdNs();
            if (recorded <= 0)
                continue;
            const std::int64_t start = onLogAxis(b, recorded);
            const FrCall* call = callOf(b, e);
            TimelineCollective c;
            c.startNs = start;
            c.seq = call && call->isP2p ? -1 : e.collectiveSeq;
            c.op = call ? call->op : OpType::Unknown;
            c.pg = call ? call->pg : kNoStr;
            c.state = e.state();
            c.entry = i;
            c.stuck = isStuck(d, b, c.pg, c.seq);
            if (e.state() == FrState::Completed && e.completedNs() > 0) {
                c.endNs = std::max(start, onLogAxis(b, e.completedNs()));
                extend(c.endNs);
            } else {
                c.endNs = start;
                c.stillRunning = true;
            }
            extend(start);
            t.m_collectives[rank].push_back(c);
        }
    }
    // "Still running" lasts as far as the rank's own data goes (its watchdog timeout, its
    // death): after that nothing is running there. A rank whose logs say nothing later (a
    // bundle of dumps only) runs to the end of the whole bundle's data.
    for (std::size_t r = 0; r < n; ++r) {
        auto& list = t.m_collectives[r];
        std::int64_t rankEnd = t.m_markers[r].empty() ? std::numeric_limits<std::int64_t>::min() : t.m_markers[r].back().timeNs;
        for (const auto& s : t.m_spans[r])
            rankEnd = std::max(rankEnd, s.endNs);
        for (auto& c : list)
            if (c.stillRunning)
                c.endNs = rankEnd > c.startNs ? rankEnd : std::max(c.startNs, t.m_maxNs);
        std::stable_sort(list.begin(), list.end(),
            [](const TimelineCollective& x, const TimelineCollective& y) { return x.startNs < y.startNs; });
        auto& endMax = t.m_collectiveEndMax[r];
        endMax.resize(list.size());
        std::int64_t running = std::numeric_limits<std::int64_t>::min();
        for (std::size_t i = 0; i < list.size(); ++i)
            endMax[i] = running = std::max(running, list[i].endNs);
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
    std::vector<bool> hasProgressRow(n, false); // rank printed a PyTorch line on the default PG
    for (const auto& p : b.progress) {
        SeqAxis& axis = axisFor(axes, p.pg, n);
        if (p.rank < 0 || static_cast<std::size_t>(p.rank) >= n)
            continue;
        SeqRow& row = axis.rows[p.rank];
        row.lastCompleted = p.lastCompleted;
        row.lastEnqueued = p.lastEnqueued;
        row.timeoutSeq = p.timeoutSeq;
        row.timeoutOp = p.timeoutOp;
        row.hasStatus = p.hasStatus;
        for (std::int64_t v : { p.lastCompleted, p.lastEnqueued, p.timeoutSeq })
            widen(axis, v);
        const ProcessGroup* g = b.processGroup(p.pg);
        if (g && g->isDefault) {
            hasProgressRow[p.rank] = true;
            if (auto it = recentByRank.find(p.rank); it != recentByRank.end())
                mergeRecent(row, it->second);
        }
    }
    // Ranks without any PyTorch progress line (a straggler that never timed out, NCCL_DEBUG
    // logs without watchdog lines): their COLL lines on the world communicator are the only
    // sign of how far they got, since NCCL prints one as each collective is enqueued.
    StrId defaultPg = kNoStr;
    for (const auto& g : b.processGroups)
        if (g.isDefault)
            defaultPg = g.key;
    for (const auto& [rank, ops] : recentByRank) {
        if (rank < 0 || static_cast<std::size_t>(rank) >= n || hasProgressRow[rank] || ops.empty())
            continue;
        SeqAxis& axis = axisFor(axes, defaultPg, n);
        SeqRow& row = axis.rows[rank];
        mergeRecent(row, ops);
        row.lastEnqueued = std::max(row.lastEnqueued, row.recent.back().first);
        widen(axis, row.lastEnqueued);
    }
    // Flight Recorder: each entry's op on its PG's axis; the dump's pg_status (or, without
    // one, its entries) is the progress of a rank the logs say nothing about.
    for (const FrDump& dump : b.frDumps) {
        const std::int32_t rank = rankOfDump(b, dump);
        if (rank < 0 || static_cast<std::size_t>(rank) >= n)
            continue;
        std::map<StrId, std::vector<std::pair<std::int64_t, OpType>>> opsByPg;
        std::map<StrId, std::pair<std::int64_t, std::int64_t>> doneEnqueued;
        for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount && i < b.frEntries.size(); ++i) {
            const FrEntry& e = b.frEntries[i];
            const FrCall* call = callOf(b, e);
            if (!call || call->isP2p || e.collectiveSeq < 0)
                continue;
            opsByPg[call->pg].emplace_back(e.collectiveSeq, call->op);
            auto [it, fresh] = doneEnqueued.try_emplace(call->pg, -1, -1);
            it->second.second = std::max<std::int64_t>(it->second.second, e.collectiveSeq);
            if (e.state() == FrState::Completed)
                it->second.first = std::max<std::int64_t>(it->second.first, e.collectiveSeq);
        }
        for (const FrPgStatus& st : dump.pgStatus) {
            auto [it, fresh] = doneEnqueued.try_emplace(st.pg, -1, -1);
            it->second.first = std::max(it->second.first, st.lastCompleted);
            it->second.second = std::max(it->second.second, st.lastEnqueued);
        }
        for (const auto& [pg, progress] : doneEnqueued) {
            SeqAxis& axis = axisFor(axes, pg, n);
            SeqRow& row = axis.rows[rank];
            if (auto it = opsByPg.find(pg); it != opsByPg.end())
                mergeRecent(row, it->second);
            if (!row.hasStatus) {
                row.lastCompleted = std::max(row.lastCompleted, progress.first);
                row.lastEnqueued = std::max(row.lastEnqueued, progress.second);
            }
            widen(axis, row.lastCompleted);
            widen(axis, row.lastEnqueued);
        }
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

std::size_t TimelineData::firstCollectiveEndingAtOrAfter(std::int32_t rank, std::int64_t ns) const
{
    const auto& endMax = m_collectiveEndMax[rank];
    return static_cast<std::size_t>(std::lower_bound(endMax.begin(), endMax.end(), ns) - endMax.begin());
}

std::size_t TimelineData::endMarkerAtOrBefore(std::int32_t rank, std::int64_t ns) const
{
    const auto& list = m_markers[rank];
    return static_cast<std::size_t>(std::upper_bound(list.begin(), list.end(), ns,
                                        [](std::int64_t v, const TimelineMarker& m) { return v < m.timeNs; })
        - list.begin());
}

} // namespace rankscope::model
