#include "model/rankresolver.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

namespace rankscope::model {

std::string shortHostName(std::string_view host)
{
    bool ipv4 = !host.empty();
    int dots = 0;
    for (char c : host) {
        if (c == '.')
            ++dots;
        else if (c < '0' || c > '9')
            ipv4 = false;
    }
    std::string out(ipv4 && dots == 3 ? host : host.substr(0, host.find('.')));
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

namespace {

struct Claim {
    std::int32_t rank = -1;
    RankEvidence strength = RankEvidence::None;
    EvidenceRef evidence;
    const char* what = "";
};

class UnionFind {
public:
    explicit UnionFind(std::size_t n)
        : m_parent(n)
    {
        std::iota(m_parent.begin(), m_parent.end(), 0u);
    }
    std::uint32_t find(std::uint32_t x)
    {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }
    void unite(std::uint32_t a, std::uint32_t b)
    {
        a = find(a);
        b = find(b);
        if (a != b)
            m_parent[std::max(a, b)] = std::min(a, b);
    }

private:
    std::vector<std::uint32_t> m_parent;
};

bool isDefaultPg(const Bundle& b, StrId pg, StrId desc)
{
    return b.text(pg) == "0" || b.text(desc) == "default_pg";
}

class Resolver {
public:
    explicit Resolver(Bundle& bundle)
        : m_b(bundle)
        , m_claims(bundle.identities.size())
        , m_groups(bundle.identities.size())
    {
    }

    void run()
    {
        decideWorldSize();
        collectClaims();
        formGroups();
        decide();
        fillRanks();
    }

private:
    std::string hostOf(std::uint32_t identity) const
    {
        const RawIdentity& id = m_b.identities[identity];
        if (id.host != kNoStr)
            return shortHostName(m_b.text(id.host));
        const Source& src = m_b.sources[id.source];
        return src.pathIdentity.host.empty() ? std::string() : shortHostName(src.pathIdentity.host);
    }

    std::int32_t localRankOf(std::uint32_t identity) const
    {
        const RawIdentity& id = m_b.identities[identity];
        if (id.localRank >= 0)
            return id.localRank;
        return m_b.sources[id.source].pathIdentity.localRank;
    }

    void claim(std::uint32_t identity, std::int32_t rank, RankEvidence strength, EvidenceRef ev, const char* what)
    {
        if (rank < 0 || identity >= m_claims.size())
            return;
        if (m_worldSize && rank >= *m_worldSize) {
            m_b.issues.add("rank_out_of_range",
                sampleFor(ev) + what + " names rank " + std::to_string(rank) + " but the world size is "
                    + std::to_string(*m_worldSize));
            return;
        }
        m_claims[identity].push_back({ rank, strength, ev, what });
    }

    std::string sampleFor(const EvidenceRef& ev) const
    {
        if (!ev.valid() || ev.source >= m_b.sources.size())
            return {};
        return m_b.sources[ev.source].path + ":" + std::to_string(ev.line) + ": ";
    }

    void decideWorldSize()
    {
        std::map<std::int32_t, int> explicitClaims;
        for (const auto& o : m_b.pgOptions)
            if (o.size > 0 && isDefaultPg(m_b, o.pg, o.pgDesc))
                ++explicitClaims[o.size];
        for (const auto& e : m_b.events)
            if (e.kind == EventKind::FrameworkInfo && e.code > 0)
                ++explicitClaims[e.code];
        for (const auto& g : m_b.workerGroups)
            if (g.worldSize > 0)
                ++explicitClaims[g.worldSize];
        // A Flight Recorder dump lists the default group's members in pg_config: the world.
        for (const auto& d : m_b.frDumps)
            for (const auto& pg : d.pgConfig)
                if (!pg.ranks.empty() && isDefaultPg(m_b, pg.name, pg.desc))
                    ++explicitClaims[static_cast<std::int32_t>(pg.ranks.size())];
        std::int32_t ncclMax = -1;
        for (const auto& c : m_b.commInits)
            ncclMax = std::max(ncclMax, c.nranks);
        if (!explicitClaims.empty()) {
            auto best = std::max_element(explicitClaims.begin(), explicitClaims.end(),
                [](const auto& a, const auto& b) { return a.second < b.second || (a.second == b.second && a.first < b.first); });
            m_worldSize = best->first;
            if (explicitClaims.size() > 1) {
                std::string all;
                for (const auto& [size, n] : explicitClaims)
                    all += (all.empty() ? "" : ", ") + std::to_string(size) + " (" + std::to_string(n) + "×)";
                m_b.issues.add("world_size_conflict", "the logs state different world sizes: " + all
                        + "; using " + std::to_string(*m_worldSize));
            }
            if (ncclMax > *m_worldSize)
                m_b.issues.add("world_size_conflict", "an NCCL communicator has " + std::to_string(ncclMax)
                        + " ranks, more than the stated world size " + std::to_string(*m_worldSize));
        } else if (ncclMax > 0) {
            m_worldSize = ncclMax;
        }
        chooseWorldComm();
    }

    // The communicator whose comm ranks are global ranks: nranks == world size; among
    // several, the one initialised by most processes, then the earliest in the bundle.
    void chooseWorldComm()
    {
        if (!m_worldSize)
            return;
        std::map<StrId, std::pair<int, std::size_t>> candidates; // commId → (processes, first index)
        for (std::size_t i = 0; i < m_b.commInits.size(); ++i) {
            const CommInit& c = m_b.commInits[i];
            if (c.nranks != *m_worldSize || c.commId == kNoStr)
                continue;
            auto [it, inserted] = candidates.try_emplace(c.commId, 0, i);
            if (!c.complete || inserted)
                ++it->second.first;
        }
        int bestCount = -1;
        std::size_t bestFirst = 0;
        for (const auto& [commId, info] : candidates) {
            if (info.first > bestCount || (info.first == bestCount && info.second < bestFirst)) {
                bestCount = info.first;
                bestFirst = info.second;
                m_worldComm = commId;
            }
        }
    }

    void collectClaims()
    {
        // Prefixes.
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const EvidenceRef ev { id.source, 0, 0 };
            if (id.globalRank >= 0)
                claim(i, id.globalRank, RankEvidence::Explicit, ev, "a [rankN] prefix");
            if (id.mpiRank >= 0)
                claim(i, id.mpiRank, RankEvidence::LauncherTable, ev, "an Open MPI rank tag");
            if (id.srunTask >= 0)
                claim(i, id.srunTask, RankEvidence::Inferred, ev, "an srun task label");
        }
        // File names: a claim for the file itself (identity with nothing but the source).
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const Source& src = m_b.sources[id.source];
            if (src.pathIdentity.globalRank >= 0 && isBareIdentity(id))
                claim(i, src.pathIdentity.globalRank, RankEvidence::FileName, { id.source, 0, 0 }, "the file name");
        }
        for (const auto& o : m_b.pgOptions)
            claim(o.identity, o.globalRank, RankEvidence::Explicit, o.evidence, "\"global rank\" in the PG options");
        for (const auto& e : m_b.events) {
            if (e.kind == EventKind::FrameworkInfo)
                claim(e.identity, e.peerRank, RankEvidence::Explicit, e.evidence, "a GLOBAL_RANK line");
            else if (e.kind == EventKind::TorchStoreError && e.pgRank >= 0)
                // "[211] is setting up NCCL communicator …": the default group's rank, said by
                // the process itself while creating the world communicator.
                claim(e.identity, e.pgRank, RankEvidence::NcclInit, e.evidence, "the rank in a store error");
            else if (e.pgRank >= 0 && e.pg != kNoStr && isDefaultPg(m_b, e.pg, kNoStr)
                && isTorchPgEvent(e.kind))
                claim(e.identity, e.pgRank, RankEvidence::NcclInit, e.evidence, "the rank in process group 0");
        }
        // NCCL world communicator: (host, pid) → comm rank.
        if (m_worldComm != kNoStr) {
            for (const auto& c : m_b.commInits) {
                if (c.commId != m_worldComm || c.pid < 0)
                    continue;
                const std::string host = shortHostName(m_b.text(c.host));
                m_processRank[{ host, c.pid }].push_back({ c.commRank, RankEvidence::NcclInit, c.evidence,
                    "NCCL init of the world communicator" });
            }
        }
        // Launcher tables: (host, local rank) → rank and (host, pid) → rank.
        for (const auto& g : m_b.workerGroups) {
            const std::string host = hostOf(g.identity);
            for (std::size_t k = 0; k < g.localRanks.size() && k < g.globalRanks.size(); ++k)
                m_localRank[{ host, g.localRanks[k] }].push_back(
                    { g.globalRanks[k], RankEvidence::LauncherTable, g.evidence, "torchrun's worker layout" });
        }
        for (const auto& f : m_b.launcherFailures) {
            const std::string host = shortHostName(m_b.text(f.host));
            if (f.localRank >= 0)
                m_localRank[{ host, f.localRank }].push_back(
                    { f.globalRank, RankEvidence::LauncherTable, f.evidence, "torchrun's failure table" });
            if (f.pid >= 0)
                m_processRank[{ host, f.pid }].push_back(
                    { f.globalRank, RankEvidence::LauncherTable, f.evidence, "torchrun's failure table" });
        }
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const std::string host = hostOf(i);
            if (id.pid >= 0 && !host.empty())
                if (auto it = m_processRank.find({ host, id.pid }); it != m_processRank.end())
                    for (const Claim& c : it->second)
                        claim(i, c.rank, c.strength, c.evidence, c.what);
            const std::int32_t local = localRankOf(i);
            if (local >= 0 && !host.empty() && id.pid < 0)
                if (auto it = m_localRank.find({ host, local }); it != m_localRank.end())
                    for (const Claim& c : it->second)
                        claim(i, c.rank, c.strength, c.evidence, c.what);
        }
    }

    static bool isTorchPgEvent(EventKind k)
    {
        switch (k) {
        case EventKind::TorchWatchdogStatus:
        case EventKind::TorchWatchdogException:
        case EventKind::TorchDumpSignal:
        case EventKind::TorchDumpProgress:
        case EventKind::TorchPgOptions:
        case EventKind::TorchPgEnvironment:
        case EventKind::TorchCommCreated:
        case EventKind::TorchHeartbeatStuck:
        case EventKind::TorchHeartbeatTerminate:
        case EventKind::TorchWatchdogTimeout:
        case EventKind::TorchWorkUpdate:
            return true;
        default:
            return false;
        }
    }

    // Lines about a host, written by the kernel or the launcher agent, have no rank.
    static bool isHostLevel(EventKind k)
    {
        switch (k) {
        case EventKind::GpuXid:
        case EventKind::NicLinkState:
        case EventKind::PcieError:
        case EventKind::HostOutOfMemory:
        case EventKind::LauncherWorkerFailed:
        case EventKind::LauncherSignalSent:
        case EventKind::LauncherFailureRecord:
        case EventKind::LauncherExit:
        case EventKind::LauncherRendezvousError:
            return true;
        default:
            return false;
        }
    }

    // What torchrun's own console repeats about its workers: its ChildFailedError and the
    // "Signal 6 (SIGABRT) received by PID …" line of its failure table.
    bool isLauncherEcho(const Event& e) const
    {
        if (e.kind == EventKind::PythonException)
            return m_b.text(e.detail).ends_with("ChildFailedError");
        return e.kind == EventKind::FatalSignal && e.pid >= 0;
    }

    static bool isBareIdentity(const RawIdentity& id)
    {
        return id.globalRank < 0 && id.localRank < 0 && id.srunTask < 0 && id.mpiRank < 0;
    }

    void formGroups()
    {
        std::map<std::tuple<SourceId, std::string, std::int32_t>, std::uint32_t> byLocal;
        std::map<std::pair<SourceId, std::int32_t>, std::uint32_t> bySrun, byMpi, byGlobal, bySourcePid;
        std::map<std::pair<std::string, std::int32_t>, std::uint32_t> byHostPid;
        auto join = [this](auto& map, const auto& key, std::uint32_t i) {
            auto [it, inserted] = map.try_emplace(key, i);
            if (!inserted)
                m_groups.unite(it->second, i);
        };
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const std::string host = id.host != kNoStr ? shortHostName(m_b.text(id.host)) : std::string();
            if (id.localRank >= 0)
                join(byLocal, std::make_tuple(id.source, host, id.localRank), i);
            if (id.srunTask >= 0)
                join(bySrun, std::make_pair(id.source, id.srunTask), i);
            if (id.mpiRank >= 0)
                join(byMpi, std::make_pair(id.source, id.mpiRank), i);
            if (id.globalRank >= 0)
                join(byGlobal, std::make_pair(id.source, id.globalRank), i);
            if (id.pid >= 0) {
                if (!host.empty())
                    join(byHostPid, std::make_pair(host, id.pid), i);
                else
                    join(bySourcePid, std::make_pair(id.source, id.pid), i);
            }
        }
        // torchrun --log-dir: stdout.log, stderr.log and error.json of one attempt_N/<local_rank>/
        // folder on one node are the same worker.
        std::map<std::tuple<std::string, std::int32_t, std::int32_t>, std::uint32_t> byWorkerFolder;
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const PathIdentity& p = m_b.sources[id.source].pathIdentity;
            if (isBareIdentity(id) && id.pid < 0 && !p.host.empty() && p.localRank >= 0)
                join(byWorkerFolder, std::make_tuple(shortHostName(p.host), p.localRank, p.attempt), i);
        }
        // A file written by one process: all of its identities are that process.
        std::map<SourceId, std::vector<std::uint32_t>> perSource;
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i)
            perSource[m_b.identities[i].source].push_back(i);
        for (const auto& [source, ids] : perSource)
            if (isSingleProcess(source, ids))
                for (std::uint32_t i : ids)
                    m_groups.unite(ids.front(), i);
    }

    bool isSingleProcess(SourceId source, const std::vector<std::uint32_t>& ids) const
    {
        const Source& src = m_b.sources[source];
        if (src.pathIdentity.combined)
            return false;
        std::set<std::int32_t> explicitRanks, locals, srun, mpi, pids;
        for (std::uint32_t i : ids) {
            const RawIdentity& id = m_b.identities[i];
            if (id.globalRank >= 0)
                explicitRanks.insert(id.globalRank);
            if (id.localRank >= 0)
                locals.insert(id.localRank);
            if (id.srunTask >= 0)
                srun.insert(id.srunTask);
            if (id.mpiRank >= 0)
                mpi.insert(id.mpiRank);
            if (id.pid >= 0)
                pids.insert(id.pid);
        }
        if (explicitRanks.size() > 1 || locals.size() > 1 || srun.size() > 1 || mpi.size() > 1)
            return false;
        // Several NCCL pids in one file is a node-level or job-level file, unless its name
        // says which rank wrote it (child processes of one rank log there too).
        return pids.size() <= 1 || src.pathIdentity.globalRank >= 0;
    }

    void decide()
    {
        m_b.identityRank.assign(m_b.identities.size(), -1);
        m_evidence.assign(m_b.identities.size(), RankEvidence::None);
        std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> members;
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i)
            members[m_groups.find(i)].push_back(i);
        for (auto& [root, ids] : members) {
            std::vector<const Claim*> all;
            for (std::uint32_t i : ids)
                for (const Claim& c : m_claims[i])
                    all.push_back(&c);
            const Claim* groupChoice = strongestAgreed(all, ids);
            for (std::uint32_t i : ids) {
                std::vector<const Claim*> own;
                for (const Claim& c : m_claims[i])
                    own.push_back(&c);
                // An identity's own explicit statement wins over its group (a combined file
                // where two nodes both print [default3]:).
                const Claim* chosen = nullptr;
                if (!own.empty()) {
                    const Claim* o = strongestAgreed(own, { i });
                    if (o && o->strength == RankEvidence::Explicit)
                        chosen = o;
                }
                if (!chosen)
                    chosen = groupChoice;
                if (chosen) {
                    m_b.identityRank[i] = chosen->rank;
                    m_evidence[i] = chosen->strength;
                }
            }
        }
    }

    // The rank the strongest claims agree on. Weaker disagreeing claims and disagreement at
    // the strongest level are reported.
    const Claim* strongestAgreed(const std::vector<const Claim*>& claims, const std::vector<std::uint32_t>& ids)
    {
        if (claims.empty())
            return nullptr;
        RankEvidence top = RankEvidence::None;
        for (const Claim* c : claims)
            top = std::max(top, c->strength);
        std::map<std::int32_t, const Claim*> atTop;
        for (const Claim* c : claims)
            if (c->strength == top)
                atTop.emplace(c->rank, c);
        if (atTop.size() > 1) {
            std::string list;
            for (const auto& [rank, c] : atTop)
                list += (list.empty() ? "" : " vs ") + std::string("rank ") + std::to_string(rank) + " from " + c->what;
            reportConflict(ids, "conflicting " + std::string(rankEvidenceName(top)) + " claims: " + list
                    + "; these lines are left without a rank");
            return nullptr;
        }
        const Claim* chosen = atTop.begin()->second;
        for (const Claim* c : claims) {
            if (c->rank != chosen->rank && c->strength >= RankEvidence::FileName) {
                reportConflict(ids, "rank " + std::to_string(chosen->rank) + " from " + chosen->what
                        + " disagrees with rank " + std::to_string(c->rank) + " from " + c->what + "; kept rank "
                        + std::to_string(chosen->rank));
                break;
            }
        }
        return chosen;
    }

    void reportConflict(const std::vector<std::uint32_t>& ids, const std::string& message)
    {
        const Source& src = m_b.sources[m_b.identities[ids.front()].source];
        const std::string sample = src.path + ": " + message;
        if (m_reported.insert(sample).second)
            m_b.issues.add("rank_conflict", sample);
    }

    // A single torchrun agent's lines and no other identity: a one-node job, local rank =
    // global rank (torchrun numbers local ranks from 0 on each node, and there is one node).
    std::int32_t singleAgentMaxLocalRank() const
    {
        for (std::int32_t r : m_b.identityRank)
            if (r >= 0)
                return -1;
        if (!m_b.workerGroups.empty() || m_worldSize)
            return -1;
        std::set<SourceId> agentSources;
        std::int32_t maxLocal = -1;
        for (const auto& e : m_b.events) {
            if (e.kind != EventKind::LauncherWorkerFailed)
                continue;
            agentSources.insert(e.evidence.source);
            if (m_b.identities[e.identity].host != kNoStr || !m_b.sources[e.evidence.source].pathIdentity.host.empty())
                return -1;
            maxLocal = std::max(maxLocal, e.peerRank);
        }
        return agentSources.size() == 1 ? maxLocal : -1;
    }

    void fillRanks()
    {
        std::int32_t maxRank = -1;
        for (std::int32_t r : m_b.identityRank)
            maxRank = std::max(maxRank, r);
        if (maxRank < 0) {
            const std::int32_t local = singleAgentMaxLocalRank();
            if (local >= 0) {
                m_b.localRanksAreGlobal = true;
                maxRank = local;
            }
        }
        const std::int32_t count = std::max(m_worldSize.value_or(0), maxRank + 1);
        m_b.ranks.assign(static_cast<std::size_t>(count), RankInfo {});
        for (std::int32_t r = 0; r < count; ++r)
            m_b.ranks[r].rank = r;
        std::vector<std::set<SourceId>> sources(static_cast<std::size_t>(count));

        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const std::int32_t r = m_b.identityRank[i];
            if (r < 0)
                continue;
            RankInfo& info = m_b.ranks[r];
            info.evidence = std::max(info.evidence, m_evidence[i]);
            const RawIdentity& id = m_b.identities[i];
            const std::string host = hostOf(i);
            if (info.host == kNoStr && !host.empty() && id.host != kNoStr)
                info.host = m_b.strings.intern(host);
            if (info.localRank < 0 && localRankOf(i) >= 0)
                info.localRank = localRankOf(i);
            if (info.pid < 0 && id.pid >= 0)
                info.pid = id.pid;
        }
        // Path hosts only where no process-reported host exists.
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const std::int32_t r = m_b.identityRank[i];
            if (r >= 0 && m_b.ranks[r].host == kNoStr) {
                const std::string host = hostOf(i);
                if (!host.empty())
                    m_b.ranks[r].host = m_b.strings.intern(host);
            }
        }
        auto mark = [&](std::uint32_t identity, SourceId source) {
            const std::int32_t r = m_b.rankOfIdentity(identity);
            if (r >= 0) {
                m_b.ranks[r].seen = true;
                if (source != kNoSource)
                    sources[r].insert(source);
            }
        };
        for (auto& e : m_b.events) {
            e.rank = m_b.rankOfIdentity(e.identity);
            mark(e.identity, e.evidence.source);
        }
        for (const auto& c : m_b.commInits) {
            mark(c.identity, c.evidence.source);
            const std::int32_t r = m_b.rankOfIdentity(c.identity);
            if (r < 0)
                continue;
            RankInfo& info = m_b.ranks[r];
            const bool world = c.commId == m_worldComm;
            if (c.busId != kNoStr && (info.busId == kNoStr || world))
                info.busId = c.busId;
            if (c.cudaDev >= 0 && (info.cudaDev < 0 || world))
                info.cudaDev = c.cudaDev;
            if (info.pid < 0)
                info.pid = c.pid;
            if (info.host == kNoStr && c.host != kNoStr)
                info.host = m_b.strings.intern(shortHostName(m_b.text(c.host)));
        }
        for (const auto& a : m_b.bootstrapAddresses) {
            mark(a.identity, a.evidence.source);
            const std::int32_t r = m_b.rankOfIdentity(a.identity);
            if (r >= 0 && a.ip != kNoStr) {
                auto& ips = m_b.ranks[r].ips;
                if (std::find(ips.begin(), ips.end(), a.ip) == ips.end())
                    ips.push_back(a.ip);
            }
        }
        for (const auto& f : m_b.launcherFailures) {
            if (f.globalRank < 0 || f.globalRank >= count)
                continue;
            RankInfo& info = m_b.ranks[f.globalRank];
            if (info.host == kNoStr && f.host != kNoStr)
                info.host = m_b.strings.intern(shortHostName(m_b.text(f.host)));
            if (info.localRank < 0)
                info.localRank = f.localRank;
            if (info.pid < 0)
                info.pid = f.pid;
        }
        for (const auto& t : m_b.tracebacks)
            mark(t.identity, t.evidence.source);
        for (const auto& s : m_b.stackDumps)
            mark(s.identity, s.evidence.source);
        for (const auto& t : m_b.collTraces)
            mark(t.identity, t.first.evidence.source);

        // A file whose rank is known belongs to that rank even when it logged nothing useful
        // (a silent rank's empty stderr is evidence in itself).
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i)
            if (m_b.identityRank[i] >= 0 && isBareIdentity(m_b.identities[i]))
                sources[m_b.identityRank[i]].insert(m_b.identities[i].source);

        std::set<std::string> hosts;
        for (std::int32_t r = 0; r < count; ++r) {
            RankInfo& info = m_b.ranks[r];
            info.sources.assign(sources[r].begin(), sources[r].end());
            if (info.seen || !info.sources.empty())
                m_b.world.ranksSeen.push_back(r);
            else if (m_worldSize)
                m_b.world.ranksMissing.push_back(r);
            if (info.host != kNoStr)
                hosts.insert(std::string(m_b.text(info.host)));
        }
        m_b.world.worldSize = m_worldSize;
        for (const auto& h : hosts)
            m_b.world.hosts.push_back(m_b.strings.intern(h));

        std::size_t unattributed = 0;
        for (const auto& e : m_b.events)
            if (e.rank < 0 && e.severity >= Severity::Warning && !isHostLevel(e.kind) && !isLauncherEcho(e))
                ++unattributed;
        if (unattributed)
            m_b.issues.add("unattributed_events", std::to_string(unattributed)
                    + " warning/error line(s) could not be tied to a rank (no rank prefix, file name or NCCL process); they are kept without a rank");
    }

    Bundle& m_b;
    std::vector<std::vector<Claim>> m_claims;
    UnionFind m_groups;
    std::vector<RankEvidence> m_evidence;
    std::optional<std::int32_t> m_worldSize;
    StrId m_worldComm = kNoStr;
    std::map<std::pair<std::string, std::int32_t>, std::vector<Claim>> m_processRank;
    std::map<std::pair<std::string, std::int32_t>, std::vector<Claim>> m_localRank;
    std::set<std::string> m_reported;
};

} // namespace

void resolveRanks(Bundle& bundle)
{
    Resolver(bundle).run();
}

} // namespace rankscope::model
