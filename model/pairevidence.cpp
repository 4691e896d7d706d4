#include "model/pairevidence.h"

#include "model/diagnosis/facts.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

constexpr std::size_t idx(PairMetric m)
{
    return static_cast<std::size_t>(m);
}

// Direct observations weigh more than inferred relations.
constexpr float kWeights[] = { 4.0f, 2.0f, 4.0f, 1.0f, 3.0f };

constexpr std::size_t kMaxEvidencePerCell = 4;

// A PG-local rank of an FR p2p op ("nccl:send 1->2") as a global rank, through the dump's
// pg_config for that PG ([formats 2.3]: profiling names carry PG-local src/dst). The
// default PG's local ranks are global ones even when the dump has no pg_config.
std::int32_t globalRankOf(const Bundle& b, const FrDump& dump, StrId pg, std::int32_t local)
{
    if (local < 0)
        return -1;
    for (const FrPgConfig& config : dump.pgConfig)
        if (config.name == pg)
            return static_cast<std::size_t>(local) < config.ranks.size() ? config.ranks[local] : -1;
    const ProcessGroup* g = b.processGroup(pg);
    return (g && g->isDefault) || b.text(pg) == "0" ? local : -1;
}

} // namespace

std::string_view pairMetricName(PairMetric metric)
{
    switch (metric) {
    case PairMetric::NetworkErrors:
        return "network errors";
    case PairMetric::StalledNeighbour:
        return "stalled neighbour";
    case PairMetric::NvlinkFault:
        return "NVLink fault";
    case PairMetric::WaitsOn:
        return "waits on";
    case PairMetric::P2pUnmatched:
        return "unmatched send/recv";
    case PairMetric::Combined:
        return "combined";
    case PairMetric::Count:
        break;
    }
    return "";
}

std::string_view pairMetricUnit(PairMetric metric)
{
    // Keep in step with the values build() assigns and kWeights.
    switch (metric) {
    case PairMetric::NetworkErrors:
        return "error lines naming the peer (a flush error counts 1/4)";
    case PairMetric::StalledNeighbour:
        return "ring/tree links to a peer that never entered";
    case PairMetric::NvlinkFault:
        return "NVLink Xid events on the pair's GPUs";
    case PairMetric::WaitsOn:
        return "stuck collectives waiting on the peer";
    case PairMetric::P2pUnmatched:
        return "send/recv ops never completed";
    case PairMetric::Combined:
        return "score: network/NVLink x4, send/recv x3, stalled x2, waits x1";
    case PairMetric::Count:
        break;
    }
    return "";
}

PairCell& PairEvidence::at(std::int32_t from, std::int32_t to)
{
    // Cells are appended unsorted while building; finish() sorts and merges duplicates.
    PairCell& c = m_cells.emplace_back();
    c.from = from;
    c.to = to;
    return c;
}

void PairEvidence::finish()
{
    std::sort(m_cells.begin(), m_cells.end(), [](const PairCell& a, const PairCell& b) {
        return a.from != b.from ? a.from < b.from : a.to < b.to;
    });
    std::vector<PairCell> merged;
    for (auto& c : m_cells) {
        if (!merged.empty() && merged.back().from == c.from && merged.back().to == c.to) {
            PairCell& m = merged.back();
            for (std::size_t i = 0; i < m.value.size(); ++i)
                m.value[i] += c.value[i];
            for (const auto& e : c.evidence)
                if (m.evidence.size() < kMaxEvidencePerCell)
                    m.evidence.push_back(e);
        } else {
            merged.push_back(std::move(c));
        }
    }
    for (auto& c : merged) {
        float sum = 0;
        for (std::size_t i = 0; i < idx(PairMetric::Combined); ++i)
            sum += c.value[i] * kWeights[i];
        c.value[idx(PairMetric::Combined)] = sum;
    }
    m_cells = std::move(merged);
}

const PairCell* PairEvidence::cell(std::int32_t from, std::int32_t to) const
{
    auto it = std::lower_bound(m_cells.begin(), m_cells.end(), std::make_pair(from, to),
        [](const PairCell& c, const std::pair<std::int32_t, std::int32_t>& key) {
            return c.from != key.first ? c.from < key.first : c.to < key.second;
        });
    return it != m_cells.end() && it->from == from && it->to == to ? &*it : nullptr;
}

float PairEvidence::maxValue(PairMetric metric) const
{
    float m = 0;
    for (const auto& c : m_cells)
        m = std::max(m, c.value[idx(metric)]);
    return m;
}

PairEvidence PairEvidence::build(const Bundle& b, const Diagnosis& d)
{
    PairEvidence p;
    p.m_size = static_cast<std::int32_t>(b.ranks.size());
    const DiagnosisFacts facts = collectFacts(b);

    for (const auto& le : facts.linkErrors) {
        if (le.localRank < 0)
            continue;
        for (std::int32_t peer : le.peerRanks) {
            PairCell& c = p.at(le.localRank, peer);
            // A flush (status 5) is fallout; count it, but less.
            c.value[idx(PairMetric::NetworkErrors)] = le.status == 5 ? 0.25f : 1.0f;
            c.evidence.push_back(b.events[le.event].evidence);
        }
    }
    // NVLink pair.
    if (d.stuckPair && d.rootCause == RootCauseClass::HardwareFault) {
        for (auto [x, y] : { std::make_pair(d.stuckPair->first, d.stuckPair->second), std::make_pair(d.stuckPair->second, d.stuckPair->first) }) {
            PairCell& c = p.at(x, y);
            c.value[idx(PairMetric::NvlinkFault)] = 1.0f;
            if (static_cast<std::size_t>(x) < facts.ranks.size() && !facts.ranks[x].xidEvents.empty())
                c.evidence.push_back(b.events[facts.ranks[x].xidEvents.front()].evidence);
        }
    }
    // Neighbours in the world communicator's rings/trees where progress stops.
    if (facts.stuckPg) {
        const PgFacts& pg = facts.pgs[*facts.stuckPg];
        std::map<std::int32_t, Position> position;
        for (std::size_t i = 0; i < pg.members.size(); ++i)
            position[pg.members[i]] = pg.positions[i];
        // A rank with no line in the stuck collective is a stall only if nothing else explains
        // its silence: a rank its launcher tore down (the verdict's collateral) was killed
        // because of the hang, and its ring neighbours did not wait on it.
        const std::set<std::int32_t> collateral(d.collateralRanks.begin(), d.collateralRanks.end());
        auto stalled = [&](std::int32_t r) {
            auto it = position.find(r);
            if (it == position.end() || (it->second != Position::NeverEntered && collateral.count(r)))
                return false;
            return it->second == Position::NeverEntered || it->second == Position::NoTimeoutLine || it->second == Position::Unknown;
        };
        for (const auto& l : b.commLinks) {
            if (l.fromRank < 0 || l.toRank < 0 || l.fromRank >= p.m_size || l.toRank >= p.m_size)
                continue;
            const bool fromIn = position.count(l.fromRank) && position[l.fromRank] == Position::Entered;
            const bool toIn = position.count(l.toRank) && position[l.toRank] == Position::Entered;
            if (fromIn && stalled(l.toRank)) {
                PairCell& c = p.at(l.fromRank, l.toRank);
                c.value[idx(PairMetric::StalledNeighbour)] = 1.0f;
                c.evidence.push_back(l.evidence);
            } else if (toIn && stalled(l.fromRank)) {
                PairCell& c = p.at(l.toRank, l.fromRank);
                c.value[idx(PairMetric::StalledNeighbour)] = 1.0f;
                c.evidence.push_back(l.evidence);
            }
        }
    }
    // Collateral ranks wait on the initiating ones.
    for (std::int32_t from : d.collateralRanks)
        for (std::int32_t to : d.initiatingRanks) {
            if (from == to)
                continue;
            PairCell& c = p.at(from, to);
            c.value[idx(PairMetric::WaitsOn)] = 1.0f;
            if (facts.stuckPg)
                if (const RankProgress* prog = b.progressOf(facts.pgs[*facts.stuckPg].pg, from);
                    prog && prog->timeoutEvent != RankProgress::kNoEvent)
                    c.evidence.push_back(b.events[prog->timeoutEvent].evidence);
        }
    // Flight Recorder send/recv ops that never completed: the recording rank waited on that
    // peer. One count per op, from the recorder to its peer.
    for (const FrDump& dump : b.frDumps) {
        const std::int32_t rank = dump.globalRank >= 0 ? dump.globalRank : b.rankOfIdentity(dump.identity);
        if (rank < 0 || rank >= p.m_size)
            continue;
        for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount && i < b.frEntries.size(); ++i) {
            const FrEntry& e = b.frEntries[i];
            if (e.state() == FrState::Completed || e.call >= b.frCalls.size())
                continue;
            const FrCall& call = b.frCalls[e.call];
            if (!call.isP2p || (call.op != OpType::Send && call.op != OpType::Recv))
                continue;
            const std::int32_t peerLocal = call.op == OpType::Send ? call.p2pDst : call.p2pSrc;
            const std::int32_t peer = globalRankOf(b, dump, call.pg, peerLocal);
            if (peer < 0 || peer >= p.m_size || peer == rank)
                continue;
            PairCell& c = p.at(rank, peer);
            c.value[idx(PairMetric::P2pUnmatched)] = 1.0f;
            c.evidence.push_back(dump.evidence);
        }
    }
    p.finish();
    return p;
}

PairEvidence PairEvidence::aggregateToHosts(const Bundle& b) const
{
    PairEvidence h;
    h.m_size = static_cast<std::int32_t>(b.world.hosts.size());
    std::vector<std::int32_t> hostOf(b.ranks.size(), -1);
    for (std::size_t r = 0; r < b.ranks.size(); ++r)
        for (std::size_t i = 0; i < b.world.hosts.size(); ++i)
            if (b.ranks[r].host == b.world.hosts[i])
                hostOf[r] = static_cast<std::int32_t>(i);
    for (const auto& c : m_cells) {
        if (c.from < 0 || c.to < 0 || static_cast<std::size_t>(c.from) >= hostOf.size()
            || static_cast<std::size_t>(c.to) >= hostOf.size())
            continue;
        const std::int32_t hf = hostOf[c.from];
        const std::int32_t ht = hostOf[c.to];
        if (hf < 0 || ht < 0)
            continue;
        PairCell& n = h.at(hf, ht);
        n.value = c.value;
        n.evidence = c.evidence;
    }
    h.finish();
    return h;
}

} // namespace rankscope::model
