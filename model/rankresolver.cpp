#include "model/rankresolver.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <tuple>
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

// Short host names as small dense numbers, each worked out once per distinct text: the
// resolver keys processes by (host, pid) for thousands of identities, and comparing or
// copying host strings for each was most of its time at 4096 ranks.
class HostKeys {
public:
    static constexpr std::uint32_t kNone = 0; // no host, or one whose short name is empty

    explicit HostKeys(const Bundle& b)
        : m_b(b)
        , m_ofSource(b.sources.size(), kUnset)
    {
        m_names.emplace_back();
    }

    std::uint32_t ofText(StrId text)
    {
        if (text == kNoStr)
            return kNone;
        auto [it, inserted] = m_ofText.try_emplace(text, kNone);
        if (inserted)
            it->second = key(shortHostName(m_b.text(text)));
        return it->second;
    }

    std::uint32_t ofSourcePath(SourceId source)
    {
        std::uint32_t& k = m_ofSource[source];
        if (k == kUnset) {
            const std::string& host = m_b.sources[source].pathIdentity.host;
            k = host.empty() ? kNone : key(shortHostName(host));
        }
        return k;
    }

    std::string_view name(std::uint32_t key) const { return m_names[key]; }

private:
    static constexpr std::uint32_t kUnset = ~0u;

    std::uint32_t key(std::string&& shortName)
    {
        if (shortName.empty())
            return kNone;
        auto [it, inserted]
            = m_ofName.try_emplace(shortName, static_cast<std::uint32_t>(m_names.size()));
        if (inserted)
            m_names.push_back(std::move(shortName));
        return it->second;
    }

    const Bundle& m_b;
    std::vector<std::string> m_names; // by key; [0] is the empty name
    std::unordered_map<std::string, std::uint32_t> m_ofName;
    std::unordered_map<StrId, std::uint32_t> m_ofText;
    std::vector<std::uint32_t> m_ofSource;
};

// (host key, number) in one integer, for process (pid) and worker (local rank) lookups.
std::uint64_t hostNumberKey(std::uint32_t host, std::int32_t number)
{
    return (std::uint64_t(host) << 32) | static_cast<std::uint32_t>(number);
}

// Claims gathered in one flat list, then grouped by a key in the order they were made: one
// allocation for all of them instead of a vector per identity or per process.
template <class Key> class ClaimTable {
public:
    struct Entry {
        Key key;
        Claim claim;
    };

    void add(Key key, const Claim& c) { m_entries.push_back({ key, c }); }

    // Groups the claims by key, keeping each key's claims in the order they were added.
    void seal()
    {
        std::stable_sort(m_entries.begin(), m_entries.end(),
            [](const Entry& a, const Entry& b) { return a.key < b.key; });
    }

    // The claims made for key, in the order they were made (after seal()).
    std::span<const Entry> of(Key key) const
    {
        auto lo = std::lower_bound(m_entries.begin(), m_entries.end(), key,
            [](const Entry& e, Key k) { return e.key < k; });
        auto hi = lo;
        while (hi != m_entries.end() && hi->key == key)
            ++hi;
        return { lo, hi };
    }

private:
    std::vector<Entry> m_entries;
};

// Claims about identities, gathered in the order they are made and then laid out identity
// by identity (a counting sort that keeps that order): one allocation for all of them.
class IdentityClaims {
public:
    explicit IdentityClaims(std::size_t identities)
        : m_begin(identities + 1, 0)
    {
    }

    void add(std::uint32_t identity, const Claim& c) { m_pending.push_back({ identity, c }); }

    void seal()
    {
        for (const auto& [identity, c] : m_pending)
            ++m_begin[identity + 1];
        for (std::size_t i = 1; i < m_begin.size(); ++i)
            m_begin[i] += m_begin[i - 1];
        m_claims.resize(m_pending.size());
        std::vector<std::uint32_t> next(m_begin.begin(), m_begin.end() - 1);
        for (const auto& [identity, c] : m_pending)
            m_claims[next[identity]++] = c;
        std::vector<std::pair<std::uint32_t, Claim>>().swap(m_pending);
    }

    // After seal(): the identity's claims in the order they were made.
    std::span<const Claim> of(std::uint32_t identity) const
    {
        return { m_claims.data() + m_begin[identity], m_begin[identity + 1] - m_begin[identity] };
    }

private:
    std::vector<std::pair<std::uint32_t, Claim>> m_pending;
    std::vector<std::uint32_t> m_begin; // by identity, and one past the last
    std::vector<Claim> m_claims;
};

// A world size or a rank sizes tables: a row per rank in the rank table, in the diagnosis'
// facts, the timeline and every per-rank output (10^7 ranks claimed by one NCCL init line took
// 9.7 GB). A claim is believed up to kAlwaysCredibleRanks, so the logs of a few nodes of a 16k-
// or 64k-rank job still show its whole world; beyond that only while the bundle shows a
// writer (an identity: a process's lines) for every kRanksPerWriter ranks. What is believed
// stays below 2^31 - 1, so the highest rank plus one is still a rank count.
constexpr std::int64_t kAlwaysCredibleRanks = std::int64_t(1) << 16;
constexpr std::int64_t kRanksPerWriter = 4;

std::int32_t credibleRanks(std::size_t writers)
{
    const std::int64_t shown = static_cast<std::int64_t>(
        std::min<std::size_t>(writers, std::numeric_limits<std::int32_t>::max()));
    return static_cast<std::int32_t>(
        std::min<std::int64_t>(std::max(kAlwaysCredibleRanks, shown * kRanksPerWriter),
            std::numeric_limits<std::int32_t>::max()));
}

class Resolver {
public:
    explicit Resolver(Bundle& bundle)
        : m_b(bundle)
        , m_hosts(bundle)
        , m_claims(bundle.identities.size())
        , m_lastClaim(bundle.identities.size())
        , m_groups(bundle.identities.size())
        , m_credibleRanks(credibleRanks(bundle.identities.size()))
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
    // The process's own host name where a line states one, else the node folder's.
    std::uint32_t hostOf(std::uint32_t identity)
    {
        const RawIdentity& id = m_b.identities[identity];
        if (id.host != kNoStr)
            return m_hosts.ofText(id.host);
        return m_hosts.ofSourcePath(id.source);
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
        if (rank < 0 || identity >= m_b.identities.size())
            return;
        if (m_worldSize && rank >= *m_worldSize) {
            m_b.issues.add("rank_out_of_range",
                sampleFor(ev) + what + " names rank " + std::to_string(rank) + " but the world size is "
                    + std::to_string(*m_worldSize));
            return;
        }
        if (rank >= m_credibleRanks) {
            m_b.issues.add("rank_out_of_range",
                sampleFor(ev) + what + " names rank " + std::to_string(rank)
                    + ", not believed: " + credibilityReason());
            return;
        }
        // Every line of a process repeats its rank ("[PG 0 Rank 3]"): one claim per run of
        // equal statements is enough, the decision only weighs rank, strength and origin.
        Claim& last = m_lastClaim[identity];
        if (last.rank == rank && last.strength == strength && last.what == what)
            return;
        last = { rank, strength, ev, what };
        m_claims.add(identity, last);
    }

    std::string sampleFor(const EvidenceRef& ev) const
    {
        if (!ev.valid() || ev.source >= m_b.sources.size())
            return {};
        return m_b.sources[ev.source].path + ":" + std::to_string(ev.line) + ": ";
    }

    // Why a claim above m_credibleRanks is not believed, for the import issue.
    std::string credibilityReason() const
    {
        return "the bundle shows " + std::to_string(m_b.identities.size())
            + " writer(s), and more than " + std::to_string(kAlwaysCredibleRanks)
            + " ranks are believed only with a writer per " + std::to_string(kRanksPerWriter)
            + " ranks (at most " + std::to_string(m_credibleRanks) + " ranks here)";
    }

    // A world size claim sizes tables: one the bundle cannot back is reported and left out.
    bool credibleWorldSize(std::int64_t size, const EvidenceRef& ev, const char* what)
    {
        if (size <= m_credibleRanks)
            return true;
        m_b.issues.add("world_size_not_believed",
            sampleFor(ev) + what + " gives a world size of " + std::to_string(size)
                + ", not believed: " + credibilityReason());
        return false;
    }

    void decideWorldSize()
    {
        std::map<std::int32_t, int> explicitClaims;
        for (const auto& o : m_b.pgOptions)
            if (o.size > 0 && isDefaultPg(m_b, o.pg, o.pgDesc)
                && credibleWorldSize(o.size, o.evidence, "the default group's options line"))
                ++explicitClaims[o.size];
        for (const auto& e : m_b.events)
            if (e.kind == EventKind::FrameworkInfo && e.code > 0
                && credibleWorldSize(e.code, e.evidence, "a GLOBAL_RANK line"))
                ++explicitClaims[e.code];
        for (const auto& g : m_b.workerGroups)
            if (g.worldSize > 0
                && credibleWorldSize(g.worldSize, g.evidence, "torchrun's worker layout"))
                ++explicitClaims[g.worldSize];
        // A Flight Recorder dump lists the default group's members in pg_config: the world.
        for (const auto& d : m_b.frDumps)
            for (const auto& pg : d.pgConfig)
                if (!pg.ranks.empty() && isDefaultPg(m_b, pg.name, pg.desc)
                    && credibleWorldSize(static_cast<std::int64_t>(pg.ranks.size()), d.evidence,
                        "a Flight Recorder dump's pg_config"))
                    ++explicitClaims[static_cast<std::int32_t>(pg.ranks.size())];
        std::int32_t ncclMax = -1;
        for (const auto& c : m_b.commInits)
            if (c.nranks > ncclMax
                && credibleWorldSize(c.nranks, c.evidence, "an NCCL communicator"))
                ncclMax = c.nranks;
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
        } else if (const std::int32_t shown = worldSizeFromGatherShapes(); shown > 0) {
            m_worldSize = shown;
        } else if (findSingleHostDevices()) {
            m_worldSize = m_b.collTraces.front().nranks;
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
                m_processRank.add(hostNumberKey(m_hosts.ofText(c.host), c.pid),
                    { c.commRank, RankEvidence::NcclInit, c.evidence,
                        "NCCL init of the world communicator" });
            }
        }
        else
            claimFromChannelLines();
        for (const auto& [key, device] : m_singleHostDevices)
            m_processRank.add(key, device);
        // Launcher tables: (host, local rank) → rank and (host, pid) → rank.
        for (const auto& g : m_b.workerGroups) {
            const std::uint32_t host = hostOf(g.identity);
            for (std::size_t k = 0; k < g.localRanks.size() && k < g.globalRanks.size(); ++k)
                m_localRank.add(hostNumberKey(host, g.localRanks[k]),
                    { g.globalRanks[k], RankEvidence::LauncherTable, g.evidence,
                        "torchrun's worker layout" });
        }
        for (const auto& f : m_b.launcherFailures) {
            const std::uint32_t host = m_hosts.ofText(f.host);
            if (f.localRank >= 0)
                m_localRank.add(hostNumberKey(host, f.localRank),
                    { f.globalRank, RankEvidence::LauncherTable, f.evidence,
                        "torchrun's failure table" });
            if (f.pid >= 0)
                m_processRank.add(hostNumberKey(host, f.pid),
                    { f.globalRank, RankEvidence::LauncherTable, f.evidence,
                        "torchrun's failure table" });
        }
        m_processRank.seal();
        m_localRank.seal();
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const std::uint32_t host = hostOf(i);
            if (id.pid >= 0 && host != HostKeys::kNone)
                for (const auto& [key, c] : m_processRank.of(hostNumberKey(host, id.pid)))
                    claim(i, c.rank, c.strength, c.evidence, c.what);
            const std::int32_t local = localRankOf(i);
            if (local >= 0 && host != HostKeys::kNone && id.pid < 0)
                for (const auto& [key, c] : m_localRank.of(hostNumberKey(host, local)))
                    claim(i, c.rank, c.strength, c.evidence, c.what);
        }
        m_claims.seal();
    }

    // Without a world communicator's init line, NCCL's connection lines still say who printed
    // them: a send-side setup prints "Channel NN : <own rank>[dev] -> <peer>[dev] via SHM|P2P|
    // NET … [send]", a NET receive "<peer> -> <own rank> [receive]" (src/transport/*.cc). A
    // process whose lines all name one own rank, in a bundle where every such process names a
    // different one, is that rank of the communicator being set up; with one communicator in
    // sight that is the job's. Weak (Inferred): a [rankN] prefix or a launcher table wins.
    void claimFromChannelLines()
    {
        std::map<std::uint64_t, std::pair<std::set<std::int32_t>, EvidenceRef>> own; // (host, pid) → own ranks
        for (const CommLink& l : m_b.commLinks) {
            if (l.pid < 0 || l.host == kNoStr
                || (l.kind != LinkKind::ChannelSend && l.kind != LinkKind::ChannelReceive))
                continue;
            auto& entry = own[hostNumberKey(m_hosts.ofText(l.host), l.pid)];
            entry.first.insert(l.kind == LinkKind::ChannelSend ? l.fromRank : l.toRank);
            entry.second = l.evidence;
        }
        if (own.size() < 2)
            return;
        std::set<std::int32_t> taken;
        for (const auto& [key, entry] : own)
            if (entry.first.size() != 1 || *entry.first.begin() < 0 || !taken.insert(*entry.first.begin()).second)
                return; // several communicators in these lines: their ranks are not the job's
        if (m_worldSize && *taken.rbegin() >= *m_worldSize)
            return;
        // Init lines of communicators of another size: the connection lines may be theirs.
        for (const CommInit& c : m_b.commInits)
            if (c.nranks != static_cast<std::int32_t>(*taken.rbegin()) + 1 && c.nranks >= 0)
                return;
        for (const auto& [key, entry] : own)
            m_processRank.add(key, { *entry.first.begin(), RankEvidence::Inferred, entry.second,
                                       "the NCCL connection lines it printed" });
    }

    // An all_gather's output holds one input per member (NumelOut = NumelIn × size) and a
    // reduce_scatter's input one output per member: a WorkNCCL line of either on the default
    // group states the world size, though no line says it in words. ≤2.1 lines name no group
    // and almost always come from the default one. Used only when nothing states the size, and
    // only when every such line agrees; 0 otherwise.
    std::int32_t worldSizeFromGatherShapes()
    {
        std::int64_t size = 0;
        for (const Event& e : m_b.events) {
            if (e.numelIn == 0 || e.numelOut == 0 || (e.pg != kNoStr && !isDefaultPg(m_b, e.pg, kNoStr)))
                continue;
            std::uint64_t whole = 0, part = 0;
            if (e.op == OpType::AllGather || e.op == OpType::AllGatherBase) {
                whole = e.numelOut;
                part = e.numelIn;
            } else if (e.op == OpType::ReduceScatter || e.op == OpType::ReduceScatterBase) {
                whole = e.numelIn;
                part = e.numelOut;
            } else {
                continue;
            }
            if (whole % part != 0 || whole / part < 2)
                return 0;
            const std::uint64_t n = whole / part;
            if (n > static_cast<std::uint64_t>(m_credibleRanks) || (size != 0 && static_cast<std::uint64_t>(size) != n))
                return 0;
            size = static_cast<std::int64_t>(n);
        }
        return static_cast<std::int32_t>(size);
    }

    // COLL lines with no init line at all: NCCL heads each with "host:pid:tid [d]", d the
    // process's CUDA device, and ends it with "[nranks=N]". When every process whose COLL
    // lines are here runs on one host on a device of its own, every communicator in sight has
    // N ranks, and a device index reaches N/2 or more, that communicator is this host alone:
    // launchers start the same number of processes on every node, so a communicator spread
    // over k hosts has N/k processes, and devices, per host. It is then the job's world, whose
    // ranks are the host's local ranks in order, and launchers give local rank d device d
    // (torch.cuda.set_device(LOCAL_RANK)): device d is rank d. The weakest claim (Inferred):
    // any prefix, table or init line wins, and a bundle where any line states a rank is left
    // to those statements.
    bool findSingleHostDevices()
    {
        if (!m_b.commInits.empty() || m_b.collTraces.empty())
            return false;
        for (const RawIdentity& id : m_b.identities)
            if (id.statesRank() || m_b.sources[id.source].pathIdentity.globalRank >= 0)
                return false;
        std::map<std::uint64_t, std::pair<std::int32_t, EvidenceRef>> devices; // (host, pid) → device
        std::set<std::int32_t> taken;
        const std::int32_t nranks = m_b.collTraces.front().nranks;
        const std::uint32_t host = m_hosts.ofText(m_b.collTraces.front().host);
        for (const CollTrace& t : m_b.collTraces) {
            if (t.nranks != nranks || t.pid < 0 || t.device < 0 || t.host == kNoStr || m_hosts.ofText(t.host) != host
                || host == HostKeys::kNone)
                return false;
            const auto [it, inserted] = devices.try_emplace(hostNumberKey(host, t.pid), t.device, t.first.evidence);
            if (it->second.first != t.device)
                return false; // one process on two devices: not one GPU per process
            if (inserted && !taken.insert(t.device).second)
                return false; // two processes on one device
        }
        if (nranks < 2 || devices.size() < 2 || *taken.rbegin() >= nranks || *taken.rbegin() * 2 < nranks)
            return false;
        for (const auto& [key, entry] : devices)
            m_singleHostDevices.emplace_back(key,
                Claim { entry.first, RankEvidence::Inferred, entry.second,
                    "its GPU, on the only host of a communicator that holds every process" });
        return true;
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
        case EventKind::GpuInaccessible:
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

    static bool isBareIdentity(const RawIdentity& id) { return !id.statesRank(); }

    // Identities with equal keys are one process: sorted by key, each run is united.
    template <class Key> void uniteEqual(std::vector<std::pair<Key, std::uint32_t>>& keyed)
    {
        std::sort(keyed.begin(), keyed.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
        for (std::size_t k = 1; k < keyed.size(); ++k)
            if (keyed[k].first == keyed[k - 1].first)
                m_groups.unite(keyed[k - 1].second, keyed[k].second);
    }

    void formGroups()
    {
        using SourceNumber = std::pair<SourceId, std::int32_t>;
        std::vector<std::pair<std::tuple<SourceId, std::uint32_t, std::int32_t>, std::uint32_t>>
            byLocal;
        std::vector<std::pair<SourceNumber, std::uint32_t>> bySrun, byMpi, byGlobal, bySourcePid;
        std::vector<std::pair<std::uint64_t, std::uint32_t>> byHostPid;
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const std::uint32_t host = m_hosts.ofText(id.host); // the line's own host only
            if (id.localRank >= 0)
                byLocal.push_back({ { id.source, host, id.localRank }, i });
            if (id.srunTask >= 0)
                bySrun.push_back({ { id.source, id.srunTask }, i });
            if (id.mpiRank >= 0)
                byMpi.push_back({ { id.source, id.mpiRank }, i });
            if (id.globalRank >= 0)
                byGlobal.push_back({ { id.source, id.globalRank }, i });
            if (id.pid >= 0) {
                if (host != HostKeys::kNone)
                    byHostPid.push_back({ hostNumberKey(host, id.pid), i });
                else
                    bySourcePid.push_back({ { id.source, id.pid }, i });
            }
        }
        uniteEqual(byLocal);
        uniteEqual(bySrun);
        uniteEqual(byMpi);
        uniteEqual(byGlobal);
        uniteEqual(bySourcePid);
        uniteEqual(byHostPid);
        // torchrun --log-dir: stdout.log, stderr.log and error.json of one attempt_N/<local_rank>/
        // folder on one node are the same worker.
        std::vector<std::pair<std::tuple<std::uint32_t, std::int32_t, std::int32_t>, std::uint32_t>>
            byWorkerFolder;
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const RawIdentity& id = m_b.identities[i];
            const PathIdentity& p = m_b.sources[id.source].pathIdentity;
            if (isBareIdentity(id) && id.pid < 0 && !p.host.empty() && p.localRank >= 0)
                byWorkerFolder.push_back(
                    { { m_hosts.ofSourcePath(id.source), p.localRank, p.attempt }, i });
        }
        uniteEqual(byWorkerFolder);
        // A file written by one process: all of its identities are that process.
        const std::vector<std::uint32_t> bySource = identitiesBySource();
        for (std::size_t from = 0; from < bySource.size();) {
            const SourceId source = m_b.identities[bySource[from]].source;
            std::size_t to = from;
            while (to < bySource.size() && m_b.identities[bySource[to]].source == source)
                ++to;
            const std::span<const std::uint32_t> ids(bySource.data() + from, to - from);
            if (isSingleProcess(source, ids))
                for (std::uint32_t i : ids)
                    m_groups.unite(ids.front(), i);
            from = to;
        }
    }

    // Identity indices grouped by source, in source order and ascending within a source.
    std::vector<std::uint32_t> identitiesBySource() const
    {
        std::vector<std::uint32_t> order(m_b.identities.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [this](std::uint32_t x, std::uint32_t y) {
            return m_b.identities[x].source < m_b.identities[y].source;
        });
        return order;
    }

    // Whether a set of numbers holds more than one distinct value, without keeping the set.
    struct DistinctValues {
        std::int32_t first = 0;
        bool any = false;
        bool several = false;
        void see(std::int32_t v)
        {
            if (!any) {
                first = v;
                any = true;
            } else if (v != first) {
                several = true;
            }
        }
    };

    bool isSingleProcess(SourceId source, std::span<const std::uint32_t> ids) const
    {
        const Source& src = m_b.sources[source];
        if (src.pathIdentity.combined)
            return false;
        DistinctValues explicitRanks, locals, srun, mpi, pids;
        for (std::uint32_t i : ids) {
            const RawIdentity& id = m_b.identities[i];
            if (id.globalRank >= 0)
                explicitRanks.see(id.globalRank);
            if (id.localRank >= 0)
                locals.see(id.localRank);
            if (id.srunTask >= 0)
                srun.see(id.srunTask);
            if (id.mpiRank >= 0)
                mpi.see(id.mpiRank);
            if (id.pid >= 0)
                pids.see(id.pid);
        }
        if (explicitRanks.several || locals.several || srun.several || mpi.several)
            return false;
        // Several NCCL pids in one file is a node-level or job-level file, unless its name
        // says which rank wrote it (child processes of one rank log there too).
        return !pids.several || src.pathIdentity.globalRank >= 0;
    }

    void decide()
    {
        m_b.identityRank.assign(m_b.identities.size(), -1);
        m_evidence.assign(m_b.identities.size(), RankEvidence::None);
        // Groups in order of their root (the group's lowest identity), members ascending.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> byRoot(
            m_b.identities.size()); // (root, identity)
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i)
            byRoot[i] = { m_groups.find(i), i };
        std::sort(byRoot.begin(), byRoot.end());
        std::vector<std::uint32_t> ids;
        std::vector<const Claim*> all, own;
        for (std::size_t from = 0; from < byRoot.size();) {
            ids.clear();
            std::size_t to = from;
            for (; to < byRoot.size() && byRoot[to].first == byRoot[from].first; ++to)
                ids.push_back(byRoot[to].second);
            from = to;
            all.clear();
            for (std::uint32_t i : ids)
                for (const Claim& c : m_claims.of(i))
                    all.push_back(&c);
            const Claim* groupChoice = strongestAgreed(all, ids.front());
            for (std::uint32_t i : ids) {
                own.clear();
                for (const Claim& c : m_claims.of(i))
                    own.push_back(&c);
                // An identity's own explicit statement wins over its group (a combined file
                // where two nodes both print [default3]:).
                const Claim* chosen = nullptr;
                if (!own.empty()) {
                    const Claim* o = strongestAgreed(own, i);
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
    // the strongest level are reported (under the source of `firstIdentity`).
    const Claim* strongestAgreed(
        const std::vector<const Claim*>& claims, std::uint32_t firstIdentity)
    {
        if (claims.empty())
            return nullptr;
        RankEvidence top = RankEvidence::None;
        for (const Claim* c : claims)
            top = std::max(top, c->strength);
        // The first claim for each rank at the top strength; almost always a single one.
        m_atTop.clear();
        for (const Claim* c : claims)
            if (c->strength == top
                && std::none_of(m_atTop.begin(), m_atTop.end(),
                    [c](const Claim* t) { return t->rank == c->rank; }))
                m_atTop.push_back(c);
        if (m_atTop.size() > 1) {
            std::sort(m_atTop.begin(), m_atTop.end(),
                [](const Claim* x, const Claim* y) { return x->rank < y->rank; });
            std::string list;
            for (const Claim* c : m_atTop)
                list += (list.empty() ? "" : " vs ") + std::string("rank ")
                    + std::to_string(c->rank) + " from " + c->what;
            reportConflict(firstIdentity,
                "conflicting " + std::string(rankEvidenceName(top)) + " claims: " + list
                    + "; these lines are left without a rank");
            return nullptr;
        }
        const Claim* chosen = m_atTop.front();
        for (const Claim* c : claims) {
            if (c->rank != chosen->rank && c->strength >= RankEvidence::FileName) {
                reportConflict(firstIdentity,
                    "rank " + std::to_string(chosen->rank) + " from " + chosen->what
                        + " disagrees with rank " + std::to_string(c->rank) + " from " + c->what
                        + "; kept rank " + std::to_string(chosen->rank));
                break;
            }
        }
        return chosen;
    }

    void reportConflict(std::uint32_t identity, const std::string& message)
    {
        const Source& src = m_b.sources[m_b.identities[identity].source];
        const std::string sample = src.path + ": " + message;
        if (m_reported.insert(sample).second)
            m_b.issues.add("rank_conflict", sample);
    }

    // A single torchrun agent's lines and no other identity: a one-node job, local rank =
    // global rank (torchrun numbers local ranks from 0 on each node, and there is one node).
    // A host label on every line (pdsh, a collector) does not change that; a second host does.
    std::int32_t singleAgentMaxLocalRank() const
    {
        for (std::int32_t r : m_b.identityRank)
            if (r >= 0)
                return -1;
        if (!m_b.workerGroups.empty() || m_worldSize || m_b.hostNames().size() > 1)
            return -1;
        std::set<SourceId> agentSources;
        std::int32_t maxLocal = -1;
        for (const auto& e : m_b.events) {
            if (e.kind != EventKind::LauncherWorkerFailed)
                continue;
            agentSources.insert(e.evidence.source);
            maxLocal = std::max(maxLocal, e.peerRank);
        }
        return agentSources.size() == 1 ? maxLocal : -1;
    }

    // The rank a PyTorch line states about its own writer ("[Rank 3] Watchdog caught …",
    // "[PG 0 Rank 3] …"), for a line whose writer nothing else identifies: a pasted excerpt
    // of several ranks' ≤2.1 output shares one unprefixed stream. ProcessGroupNCCL prints the
    // rank within the line's process group; ≤2.1 lines name no group and almost always come
    // from the default one, where that is the global rank. Lines of another group stay
    // without a rank.
    std::int32_t statedRankOf(const Event& e) const
    {
        if (e.pgRank < 0 || e.kind < EventKind::TorchWatchdogTimeout || e.kind > EventKind::TorchWorkUpdate)
            return -1;
        if (e.pg != kNoStr && !isDefaultPg(m_b, e.pg, kNoStr))
            return -1;
        // The same bound as any other claim: beyond the stated world or what the bundle
        // makes credible, the rank is not believed (and sizes nothing).
        if (e.pgRank >= m_credibleRanks || (m_worldSize && e.pgRank >= *m_worldSize))
            return -1;
        return e.pgRank;
    }

    // Ray Train names the world rank of a worker whose actor process died: that rank existed,
    // within the same bounds as any other claim. Open MPI's abort summary names only "the
    // first process to exit non-zero", often a symptom (an nccl-tests process that failed on a
    // host with fewer GPUs): it names a rank the bundle shows, never one by itself.
    std::int32_t exitedWorldRank(const Event& e) const
    {
        if (e.kind != EventKind::LauncherExit || e.peerRank < 0 || e.peerRank >= m_credibleRanks
            || (m_worldSize && e.peerRank >= *m_worldSize))
            return -1;
        return m_b.text(e.detail) == "ray" ? e.peerRank : -1;
    }

    void fillRanks()
    {
        std::int32_t maxRank = -1;
        for (std::int32_t r : m_b.identityRank)
            maxRank = std::max(maxRank, r);
        for (const auto& e : m_b.events) {
            if (m_b.rankOfIdentity(e.identity) < 0)
                maxRank = std::max(maxRank, statedRankOf(e));
            maxRank = std::max(maxRank, exitedWorldRank(e));
        }
        // torchrun's failure table names the failed worker's global rank: that rank existed
        // even when none of its own lines reached the bundle (a paste of the table alone).
        for (const auto& f : m_b.launcherFailures)
            if (f.globalRank >= 0 && f.globalRank < m_credibleRanks && (!m_worldSize || f.globalRank < *m_worldSize))
                maxRank = std::max(maxRank, f.globalRank);
        if (maxRank < 0) {
            const std::int32_t local = singleAgentMaxLocalRank();
            if (local >= m_credibleRanks) {
                m_b.issues.add("rank_out_of_range",
                    "torchrun names local rank " + std::to_string(local)
                        + " on a single node, not believed as a global rank: "
                        + credibilityReason());
            } else if (local >= 0) {
                m_b.localRanksAreGlobal = true;
                maxRank = local;
            }
        }
        const std::int32_t count = std::max(m_worldSize.value_or(0), maxRank + 1);
        m_b.ranks.assign(static_cast<std::size_t>(count), RankInfo {});
        for (std::int32_t r = 0; r < count; ++r)
            m_b.ranks[r].rank = r;
        std::vector<std::pair<std::int32_t, SourceId>> sources; // (rank, source), sorted below
        // A rank's lines come in runs from one source: one entry per run, not per line.
        std::vector<SourceId> lastSource(static_cast<std::size_t>(count), kNoSource);

        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const std::int32_t r = m_b.identityRank[i];
            if (r < 0)
                continue;
            RankInfo& info = m_b.ranks[r];
            info.evidence = std::max(info.evidence, m_evidence[i]);
            const RawIdentity& id = m_b.identities[i];
            const std::uint32_t host = hostOf(i);
            if (info.host == kNoStr && host != HostKeys::kNone && id.host != kNoStr)
                info.host = m_b.strings.intern(m_hosts.name(host));
            if (info.localRank < 0 && localRankOf(i) >= 0)
                info.localRank = localRankOf(i);
            if (info.pid < 0 && id.pid >= 0)
                info.pid = id.pid;
        }
        // Path hosts only where no process-reported host exists.
        for (std::uint32_t i = 0; i < m_b.identities.size(); ++i) {
            const std::int32_t r = m_b.identityRank[i];
            if (r >= 0 && m_b.ranks[r].host == kNoStr) {
                const std::uint32_t host = hostOf(i);
                if (host != HostKeys::kNone)
                    m_b.ranks[r].host = m_b.strings.intern(m_hosts.name(host));
            }
        }
        auto mark = [&](std::uint32_t identity, SourceId source) {
            const std::int32_t r = m_b.rankOfIdentity(identity);
            if (r >= 0) {
                m_b.ranks[r].seen = true;
                if (source != kNoSource && lastSource[r] != source) {
                    lastSource[r] = source;
                    sources.emplace_back(r, source);
                }
            }
        };
        for (auto& e : m_b.events) {
            e.rank = m_b.rankOfIdentity(e.identity);
            mark(e.identity, e.evidence.source);
            if (e.rank < 0 && (e.rank = statedRankOf(e)) >= 0) {
                m_b.ranks[e.rank].seen = true;
                if (lastSource[e.rank] != e.evidence.source) {
                    lastSource[e.rank] = e.evidence.source;
                    sources.emplace_back(e.rank, e.evidence.source);
                }
            }
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
                info.host = m_b.strings.intern(m_hosts.name(m_hosts.ofText(c.host)));
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
                info.host = m_b.strings.intern(m_hosts.name(m_hosts.ofText(f.host)));
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
                sources.emplace_back(m_b.identityRank[i], m_b.identities[i].source);
        std::sort(sources.begin(), sources.end());
        sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
        for (const auto& [r, source] : sources)
            m_b.ranks[r].sources.push_back(source);

        std::vector<StrId> hosts;
        for (std::int32_t r = 0; r < count; ++r) {
            const RankInfo& info = m_b.ranks[r];
            if (info.seen || !info.sources.empty())
                m_b.world.ranksSeen.push_back(r);
            else if (m_worldSize)
                m_b.world.ranksMissing.push_back(r);
            if (info.host != kNoStr)
                hosts.push_back(info.host);
        }
        m_b.world.worldSize = m_worldSize;
        // By name; one id per text, so equal ids are equal names.
        std::sort(hosts.begin(), hosts.end());
        hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
        std::sort(hosts.begin(), hosts.end(),
            [this](StrId x, StrId y) { return m_b.text(x) < m_b.text(y); });
        m_b.world.hosts = std::move(hosts);

        std::size_t unattributed = 0;
        for (const auto& e : m_b.events)
            if (e.rank < 0 && e.severity >= Severity::Warning && !isHostLevel(e.kind) && !isLauncherEcho(e))
                ++unattributed;
        if (unattributed)
            m_b.issues.add("unattributed_events", std::to_string(unattributed)
                    + " warning/error line(s) could not be tied to a rank (no rank prefix, file name or NCCL process); they are kept without a rank",
                unattributed);
    }

    Bundle& m_b;
    HostKeys m_hosts;
    IdentityClaims m_claims;
    std::vector<Claim> m_lastClaim; // by identity: the claim added last
    UnionFind m_groups;
    std::vector<RankEvidence> m_evidence;
    std::optional<std::int32_t> m_worldSize;
    const std::int32_t m_credibleRanks; // claims of more ranks are not believed
    StrId m_worldComm = kNoStr;
    std::vector<std::pair<std::uint64_t, Claim>> m_singleHostDevices; // findSingleHostDevices()
    ClaimTable<std::uint64_t> m_processRank; // by (host, pid)
    ClaimTable<std::uint64_t> m_localRank; // by (host, local rank)
    std::vector<const Claim*> m_atTop; // strongestAgreed's scratch
    std::set<std::string> m_reported;
};

} // namespace

void resolveRanks(Bundle& bundle)
{
    Resolver(bundle).run();
}

} // namespace rankscope::model
