#include "model/frmatch.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace rankscope::model {

namespace {

// Mismatches recorded per PG; past this, matching is noise (fr_trace.py caps at 10).
constexpr std::size_t kMaxMismatches = 64;

// One collective entry as the matcher walks it: 12 bytes read in order per rank, so lining
// up thousands of ranks per sequence number does not pull every 64-byte entry through the
// cache (the entries are only read again for the few that end up in the result). Seq ids
// saturate like FrEntry's 32-bit ids (kMaxFrId).
struct Slot {
    std::int32_t seq = -1;
    std::uint32_t entry = kNoFrIndex;
    std::uint32_t sigState = 0; // signature id << 2 | FrState

    std::uint32_t sig() const { return sigState >> 2; }
    FrState state() const { return static_cast<FrState>(sigState & 3u); }
};

// One member's view of one PG: its collective entries (oldest first) and p2p entries.
struct MemberTrack {
    std::uint32_t dump = kNoFrIndex;
    bool wrapped = false; // the dump's ring buffer lost its oldest records
    std::vector<Slot> collectives;
    std::vector<std::uint32_t> p2p;
};

// What makes two calls the same collective for matching: op, sizes, dtypes. Calls are
// de-duplicated per dump only, so equal calls of different dumps get one id here.
struct SignatureKey {
    OpType op;
    StrId profilingName, inputSizes, outputSizes, inputDtypes, outputDtypes;
    std::uint64_t inputNumel, outputNumel;

    bool operator==(const SignatureKey&) const = default;
};

struct SignatureKeyHash {
    std::size_t operator()(const SignatureKey& k) const
    {
        std::uint64_t h = 1469598103934665603ull;
        for (const std::uint64_t v :
            { std::uint64_t(k.op), std::uint64_t(k.profilingName), std::uint64_t(k.inputSizes),
                std::uint64_t(k.outputSizes), std::uint64_t(k.inputDtypes),
                std::uint64_t(k.outputDtypes), k.inputNumel, k.outputNumel })
            h = (h ^ v) * 1099511628211ull;
        return static_cast<std::size_t>(h);
    }
};

struct PgKey {
    StrId name = kNoStr;
    std::vector<std::int32_t> ranks; // sorted; empty when no pg_config named it

    bool operator<(const PgKey& o) const
    {
        return std::tie(name, ranks) < std::tie(o.name, o.ranks);
    }
};

struct PgWork {
    StrId desc = kNoStr;
    std::map<std::int32_t, MemberTrack> tracks; // by global rank
};

class Matcher {
public:
    explicit Matcher(const FrMatchInput& in)
        : m_in(in)
    {
        std::unordered_map<SignatureKey, std::uint32_t, SignatureKeyHash> ids;
        m_sigOfCall.reserve(in.calls.size());
        for (const FrCall& c : in.calls) {
            const SignatureKey key { c.op, c.profilingName, c.inputSizes, c.outputSizes,
                c.inputDtypes, c.outputDtypes, c.inputNumel, c.outputNumel };
            m_sigOfCall.push_back(
                ids.try_emplace(key, static_cast<std::uint32_t>(ids.size())).first->second);
        }
    }

    FrMatchResult run();

private:
    std::int32_t rankOfDump(std::uint32_t d) const
    {
        if (!m_in.dumpRanks.empty())
            return d < m_in.dumpRanks.size() ? m_in.dumpRanks[d] : -1;
        return m_in.dumps[d].globalRank;
    }
    const FrCall* callOf(const FrEntry& e) const
    {
        return e.call < m_in.calls.size() ? &m_in.calls[e.call] : nullptr;
    }
    bool betterDump(std::uint32_t a, std::uint32_t b) const;
    void chooseDumps(FrMatchResult& r);
    void collectPgs(const FrMatchResult& r);
    void matchCollectives(PgWork& w, FrPgMatch& out) const;
    void matchP2p(PgWork& w, FrPgMatch& out) const;
    std::string_view name(StrId id) const
    {
        return m_in.strings ? m_in.strings->view(id) : std::string_view();
    }

    const FrMatchInput& m_in;
    std::vector<std::uint32_t> m_sigOfCall; // signature id per FrCall
    std::map<PgKey, PgWork> m_pgs;
};

// Two dumps of one rank (a later on-demand dump overwrote nothing because the files were
// collected twice): keep the one that saw more, decided by content so input order does not
// matter.
bool Matcher::betterDump(std::uint32_t a, std::uint32_t b) const
{
    const FrDump& x = m_in.dumps[a];
    const FrDump& y = m_in.dumps[b];
    auto lastRecord = [&](const FrDump& d) {
        return d.entryCount ? m_in.entries[d.firstEntry + d.entryCount - 1].recordId : -1;
    };
    auto lastCreated = [&](const FrDump& d) {
        return d.entryCount ? m_in.entries[d.firstEntry + d.entryCount - 1].createdNs : 0;
    };
    return std::make_tuple(lastRecord(x), lastCreated(x), x.entryCount)
        > std::make_tuple(lastRecord(y), lastCreated(y), y.entryCount);
}

void Matcher::chooseDumps(FrMatchResult& r)
{
    for (std::uint32_t d = 0; d < m_in.dumps.size(); ++d) {
        const std::int32_t rank = rankOfDump(d);
        if (rank < 0)
            continue; // a dump that no rank claims cannot vote on a rank's behalf
        if (static_cast<std::size_t>(rank) >= r.dumpOfRank.size())
            r.dumpOfRank.resize(static_cast<std::size_t>(rank) + 1, kNoFrIndex);
        std::uint32_t& slot = r.dumpOfRank[static_cast<std::size_t>(rank)];
        if (slot == kNoFrIndex || betterDump(d, slot))
            slot = d;
    }
    for (std::size_t rank = 0; rank < r.dumpOfRank.size(); ++rank)
        if (r.dumpOfRank[rank] != kNoFrIndex)
            r.dumpedRanks.push_back(static_cast<std::int32_t>(rank));
}

std::vector<std::int32_t> sortedRanks(const std::vector<std::int32_t>& ranks)
{
    std::vector<std::int32_t> out = ranks;
    if (!std::is_sorted(out.begin(), out.end())) // pg_config lists them sorted already
        std::sort(out.begin(), out.end());
    return out;
}

// PGs are keyed like fr_trace.py keys them, by name and membership (split_group reuses
// names), with the membership each dump's own pg_config gives for the names its entries use.
void Matcher::collectPgs(const FrMatchResult& r)
{
    // name → members, for entries whose own dump lacks the config (only when unambiguous).
    std::map<StrId, std::vector<std::int32_t>> configured;
    std::map<StrId, bool> ambiguous;
    for (const std::int32_t rank : r.dumpedRanks)
        for (const FrPgConfig& c :
            m_in.dumps[r.dumpOfRank[static_cast<std::size_t>(rank)]].pgConfig) {
            auto it = configured.find(c.name);
            if (it == configured.end())
                configured.emplace(c.name, sortedRanks(c.ranks));
            else if (!ambiguous.count(c.name) && it->second != sortedRanks(c.ranks))
                ambiguous[c.name] = true;
        }

    // Per dump, its few PGs by name: the PG key (a member list of thousands of ranks) is
    // compared once per PG and dump, not once per entry.
    std::vector<std::pair<StrId, MemberTrack*>> local;
    for (const std::int32_t rank : r.dumpedRanks) {
        const std::uint32_t d = r.dumpOfRank[static_cast<std::size_t>(rank)];
        const FrDump& dump = m_in.dumps[d];
        const bool wrapped = dump.entryCount && m_in.entries[dump.firstEntry].recordId > 0;
        local.clear();
        auto join = [&](PgKey&& key, StrId desc) {
            PgWork& w = m_pgs[std::move(key)];
            if (w.desc == kNoStr)
                w.desc = desc;
            MemberTrack& t = w.tracks[rank];
            t.dump = d;
            t.wrapped = wrapped;
            return &t;
        };
        // A member that records nothing on a PG it belongs to still has a say there: it
        // never enqueued anything on it (or its buffer lost everything).
        for (const FrPgConfig& c : dump.pgConfig)
            local.emplace_back(c.name, join(PgKey { c.name, sortedRanks(c.ranks) }, c.desc));
        // Two passes over the dump: count per PG, then fill exactly reserved tracks (4096
        // dumps × 2000 entries must not pay for vector growth slack).
        std::vector<std::size_t> counts;
        auto walk = [&](bool counting) {
            StrId lastPg = kNoStr;
            MemberTrack* track = nullptr;
            std::size_t slot = 0;
            for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount; ++i) {
                const FrCall* call = callOf(m_in.entries[i]);
                if (!call || call->pg == kNoStr)
                    continue;
                if (!track || call->pg != lastPg) {
                    auto known = std::find_if(local.begin(), local.end(),
                        [&](const auto& l) { return l.first == call->pg; });
                    if (known != local.end()) {
                        track = known->second;
                        slot = static_cast<std::size_t>(known - local.begin());
                    } else {
                        PgKey key { call->pg, {} };
                        if (auto c = configured.find(call->pg);
                            c != configured.end() && !ambiguous.count(call->pg))
                            key.ranks = c->second;
                        track = join(std::move(key), call->pgDesc);
                        slot = local.size();
                        local.emplace_back(call->pg, track);
                    }
                    lastPg = call->pg;
                }
                const FrEntry& e = m_in.entries[i];
                if (counting) {
                    if (counts.size() <= slot)
                        counts.resize(slot + 1, 0);
                    counts[slot] += !call->isP2p;
                } else if (call->isP2p) {
                    track->p2p.push_back(i);
                } else if (e.collectiveSeq >= 0) { // without a seq id an entry cannot be lined up
                    const auto seq = static_cast<std::int32_t>(
                        std::min<std::int64_t>(e.collectiveSeq, kMaxFrId));
                    track->collectives.push_back(
                        { seq, i, m_sigOfCall[e.call] << 2 | static_cast<std::uint32_t>(e.state) });
                }
            }
        };
        walk(true);
        for (std::size_t k = 0; k < local.size() && k < counts.size(); ++k)
            local[k].second->collectives.reserve(local[k].second->collectives.size() + counts[k]);
        walk(false);
    }
}

// The comparable part of a collective call: op, sizes, dtypes.
struct Signature {
    const FrCall* call = nullptr;

    FrMismatchKind differenceFrom(const Signature& o) const
    {
        if (call->op != o.call->op || call->profilingName != o.call->profilingName)
            return FrMismatchKind::OpType;
        if (call->inputSizes != o.call->inputSizes || call->outputSizes != o.call->outputSizes
            || call->inputNumel != o.call->inputNumel || call->outputNumel != o.call->outputNumel)
            return FrMismatchKind::Size;
        if (call->inputDtypes != o.call->inputDtypes || call->outputDtypes != o.call->outputDtypes)
            return FrMismatchKind::Dtype;
        return FrMismatchKind::State; // no difference in what was called
    }
    bool same(const Signature& o) const
    {
        return call == o.call || differenceFrom(o) == FrMismatchKind::State;
    }
};

FrRankPosition positionOf(FrState state)
{
    switch (state) {
    case FrState::Completed:
        return FrRankPosition::Completed;
    case FrState::Started:
        return FrRankPosition::Started;
    case FrState::Scheduled:
    case FrState::Unknown:
        return FrRankPosition::Scheduled;
    }
    return FrRankPosition::Scheduled;
}

void Matcher::matchCollectives(PgWork& w, FrPgMatch& out) const
{
    const std::size_t n = out.members.size();
    // Per member: cursor into its collectives, first/last seq, whether it has a dump.
    std::vector<const MemberTrack*> tracks(n, nullptr);
    std::vector<std::size_t> cursor(n, 0);
    std::vector<std::int64_t> firstSeq(n, -1), lastSeq(n, -1);
    std::vector<std::uint32_t> lastEntry(n, kNoFrIndex);
    std::int64_t lo = -1, hi = -1;
    for (std::size_t m = 0; m < n; ++m) {
        auto it = w.tracks.find(out.members[m]);
        if (it == w.tracks.end() || it->second.dump == kNoFrIndex)
            continue;
        const MemberTrack& t = it->second;
        tracks[m] = &t;
        if (t.collectives.empty())
            continue;
        firstSeq[m] = t.collectives.front().seq;
        lastSeq[m] = t.collectives.back().seq;
        lastEntry[m] = t.collectives.back().entry;
        lo = lo < 0 ? firstSeq[m] : std::min(lo, firstSeq[m]);
        hi = std::max(hi, lastSeq[m]);
    }
    if (lo < 0)
        return;

    std::vector<bool> tainted(n, false); // deviated earlier: later absences are consequences
    std::vector<FrRankPosition> pos(n);
    std::vector<std::uint32_t> at(n), atSig(n);
    std::vector<std::pair<std::uint32_t, std::vector<std::size_t>>> camps; // signature id, members
    auto record = [&](FrMismatch&& mm) {
        if (out.mismatches.size() < kMaxMismatches)
            out.mismatches.push_back(std::move(mm));
        else
            ++out.consequencesSuppressed;
    };

    // Only seq ids some rank recorded are visited: a gap in every buffer says nothing, and
    // a far-off id (a rank whose counter raced ahead) must not cost a loop over the gap.
    for (std::int64_t seq = lo; seq >= 0 && seq <= hi;) {
        std::size_t present = 0, reaching = 0, completed = 0;
        for (std::size_t m = 0; m < n; ++m) {
            at[m] = kNoFrIndex;
            const MemberTrack* t = tracks[m];
            if (!t) {
                pos[m] = FrRankPosition::NoDump;
                continue;
            }
            // Coalesced groups record several entries under one seq id: the last one (the
            // terminator) carries the group's state.
            FrState state = FrState::Unknown;
            while (cursor[m] < t->collectives.size() && t->collectives[cursor[m]].seq <= seq) {
                const Slot& slot = t->collectives[cursor[m]];
                if (slot.seq == seq) {
                    at[m] = slot.entry;
                    atSig[m] = slot.sig();
                    state = slot.state();
                }
                ++cursor[m];
            }
            if (at[m] != kNoFrIndex) {
                pos[m] = positionOf(state);
                ++present;
                ++reaching;
                completed += pos[m] == FrRankPosition::Completed;
            } else if (firstSeq[m] > seq || (firstSeq[m] < 0 && t->wrapped)) {
                pos[m] = FrRankPosition::BufferDoesNotReach;
            } else if (lastSeq[m] < seq) {
                pos[m] = FrRankPosition::StoppedBefore;
                ++reaching;
            } else {
                pos[m] = FrRankPosition::SkippedSeq;
                ++reaching;
            }
        }
        std::int64_t next = -1;
        for (std::size_t m = 0; m < n; ++m)
            if (tracks[m] && cursor[m] < tracks[m]->collectives.size()) {
                const std::int64_t s = tracks[m]->collectives[cursor[m]].seq;
                next = next < 0 ? s : std::min(next, s);
            }
        const std::int64_t seqHere = seq;
        seq = next;
        if (reaching == 0)
            continue;

        if (out.stuckSeq < 0 && completed < reaching) {
            out.stuckSeq = seqHere;
            out.atStuck.resize(n);
            for (std::size_t m = 0; m < n; ++m) {
                FrRankAtSeq& a = out.atStuck[m];
                a.rank = out.members[m];
                a.position = pos[m];
                a.entry = at[m];
                a.dump = tracks[m] ? tracks[m]->dump : kNoFrIndex;
                a.lastSeq = lastSeq[m];
                a.lastEntry = lastEntry[m];
                if (at[m] != kNoFrIndex) {
                    const std::int64_t created = m_in.entries[at[m]].createdNs;
                    if (created > 0 && (out.stuckCreatedNs == 0 || created < out.stuckCreatedNs))
                        out.stuckCreatedNs = created;
                }
            }
        }

        // Missing ranks: members whose buffer covers #S but that have no entry for it. When
        // they are not a strict minority the others may instead have raced ahead (§1.5
        // rule 4): said only for the stuck #S, and nobody is marked as deviating.
        if (present > 0 && present < reaching) {
            FrMismatch mm;
            mm.kind = FrMismatchKind::MissingRanks;
            mm.seq = seqHere;
            std::vector<std::size_t> fresh;
            for (std::size_t m = 0; m < n; ++m) {
                if (at[m] != kNoFrIndex) {
                    mm.agreeing.push_back(out.members[m]);
                    if (mm.agreeingEntry == kNoFrIndex)
                        mm.agreeingEntry = at[m];
                } else if ((pos[m] == FrRankPosition::StoppedBefore
                               || pos[m] == FrRankPosition::SkippedSeq)
                    && !tainted[m]) {
                    fresh.push_back(m);
                }
            }
            for (const std::size_t m : fresh) {
                mm.deviating.push_back(out.members[m]);
                if (mm.deviatingEntry == kNoFrIndex)
                    mm.deviatingEntry = lastEntry[m];
            }
            mm.evenSplit = reaching - present >= present;
            if (mm.deviating.empty()) {
                ++out.consequencesSuppressed;
            } else if (!mm.evenSplit) {
                for (const std::size_t m : fresh)
                    tainted[m] = true;
                record(std::move(mm));
            } else if (seqHere == out.stuckSeq) {
                record(std::move(mm));
            }
        }

        // What was called: split the present ranks into camps of identical calls (the
        // common case, everyone agreeing, is told by one pass over signature ids).
        if (present < 2)
            continue;
        std::uint32_t firstSig = kNoFrIndex;
        bool agree = true;
        for (std::size_t m = 0; m < n && agree; ++m)
            if (at[m] != kNoFrIndex) {
                if (firstSig == kNoFrIndex)
                    firstSig = atSig[m];
                agree = atSig[m] == firstSig;
            }
        camps.clear();
        for (std::size_t m = 0; m < n && !agree; ++m) {
            if (at[m] == kNoFrIndex)
                continue;
            auto camp = std::find_if(
                camps.begin(), camps.end(), [&](const auto& c) { return c.first == atSig[m]; });
            if (camp == camps.end())
                camps.push_back({ atSig[m], { m } });
            else
                camp->second.push_back(m);
        }
        if (camps.size() > 1) {
            // Largest camp first; ties by lowest rank, which the input order cannot change.
            std::sort(camps.begin(), camps.end(), [](const auto& a, const auto& b) {
                return a.second.size() != b.second.size() ? a.second.size() > b.second.size()
                                                          : a.second.front() < b.second.front();
            });
            std::size_t others = 0;
            for (std::size_t c = 1; c < camps.size(); ++c)
                others += camps[c].second.size();
            const bool evenSplit = camps[0].second.size() <= others;
            for (std::size_t c = 1; c < camps.size(); ++c) {
                FrMismatch mm;
                const Signature majority { callOf(m_in.entries[at[camps[0].second.front()]]) };
                const Signature minority { callOf(m_in.entries[at[camps[c].second.front()]]) };
                mm.kind = majority.call && minority.call ? minority.differenceFrom(majority)
                                                         : FrMismatchKind::OpType;
                mm.seq = seqHere;
                mm.evenSplit = evenSplit;
                for (const std::size_t m : camps[0].second)
                    mm.agreeing.push_back(out.members[m]);
                mm.agreeingEntry = at[camps[0].second.front()];
                for (const std::size_t m : camps[c].second)
                    if (!tainted[m] || evenSplit)
                        mm.deviating.push_back(out.members[m]);
                mm.deviatingEntry = at[camps[c].second.front()];
                // Ranks already off the consensus path disagree as a consequence.
                bool fresh = false;
                for (const std::size_t m : camps[c].second)
                    fresh = fresh || !tainted[m];
                if (!fresh || mm.deviating.empty()) {
                    ++out.consequencesSuppressed;
                    continue;
                }
                record(std::move(mm));
            }
            for (std::size_t c = 1; c < camps.size(); ++c)
                for (const std::size_t m : camps[c].second)
                    tainted[m] = true;
            if (evenSplit) // no consensus: every side is off the common path from here on
                for (const std::size_t m : camps[0].second)
                    tainted[m] = true;
        } else if (seqHere == out.stuckSeq && completed > 0 && completed < present) {
            // Same call, different states: some ranks finished #S, others did not.
            FrMismatch mm;
            mm.kind = FrMismatchKind::State;
            mm.seq = seqHere;
            for (std::size_t m = 0; m < n; ++m) {
                if (at[m] == kNoFrIndex)
                    continue;
                const bool done = pos[m] == FrRankPosition::Completed;
                (done ? mm.agreeing : mm.deviating).push_back(out.members[m]);
                (done ? mm.agreeingEntry : mm.deviatingEntry) = at[m];
            }
            record(std::move(mm));
        }
    }
    if (out.stuckSeq >= 0) {
        // The stuck collective as the consensus recorded it: an entry of the largest camp.
        std::vector<std::pair<Signature, std::vector<std::int32_t>>> byCall;
        for (const FrRankAtSeq& a : out.atStuck) {
            if (a.entry == kNoFrIndex || !callOf(m_in.entries[a.entry]))
                continue;
            const Signature s { callOf(m_in.entries[a.entry]) };
            auto it = std::find_if(
                byCall.begin(), byCall.end(), [&](const auto& c) { return c.first.same(s); });
            if (it == byCall.end())
                byCall.push_back({ s, { static_cast<std::int32_t>(a.entry) } });
            else
                it->second.push_back(static_cast<std::int32_t>(a.entry));
        }
        std::stable_sort(byCall.begin(), byCall.end(),
            [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
        if (!byCall.empty())
            out.stuckEntry = static_cast<std::uint32_t>(*std::min_element(byCall[0].second.begin(),
                byCall[0].second.end(), [&](std::int32_t x, std::int32_t y) {
                    return m_in.entries[x].dump != m_in.entries[y].dump
                        ? rankOfDump(m_in.entries[x].dump) < rankOfDump(m_in.entries[y].dump)
                        : x < y;
                }));
    }
}

// Send ↔ recv by peer pair and order: the k-th send from a to b pairs with the k-th recv on
// b from a (p2p_seq_id counts per rank, so it cannot pair them across ranks).
void Matcher::matchP2p(PgWork& w, FrPgMatch& out) const
{
    struct PairOps {
        std::vector<std::uint32_t> sends, recvs;
    };
    std::map<std::pair<std::int32_t, std::int32_t>, PairOps> pairs; // (sender, receiver)
    auto globalOf = [&](std::int32_t local) -> std::int32_t {
        if (!out.membersFromConfig)
            return local; // without a config, PG-local ranks are all there is
        return local >= 0 && static_cast<std::size_t>(local) < out.members.size()
            ? out.members[local]
            : -1;
    };
    for (const auto& [rank, track] : w.tracks)
        for (const std::uint32_t i : track.p2p) {
            const FrCall* call = callOf(m_in.entries[i]);
            if (!call || call->p2pSrc < 0 || call->p2pDst < 0)
                continue;
            const std::int32_t src = globalOf(call->p2pSrc), dst = globalOf(call->p2pDst);
            if (src < 0 || dst < 0)
                continue;
            if (call->op == OpType::Send && src == rank)
                pairs[{ src, dst }].sends.push_back(i);
            else if (call->op == OpType::Recv && dst == rank)
                pairs[{ src, dst }].recvs.push_back(i);
        }
    // Ranks that never posted anything towards their peer still count: a send with no
    // recvs at all on a rank that dumped is exactly the unmatched case.
    for (auto& [key, ops] : pairs) {
        const auto sender = w.tracks.find(key.first), receiver = w.tracks.find(key.second);
        if (sender == w.tracks.end() || receiver == w.tracks.end()
            || sender->second.dump == kNoFrIndex || receiver->second.dump == kNoFrIndex)
            continue; // the other side has no dump: nothing to say about the pair
        // After a ring-buffer wrap the oldest ops are gone on one side only: compare from
        // the moment both buffers cover.
        auto firstCreated = [&](const MemberTrack& t) {
            const FrDump& d = m_in.dumps[t.dump];
            return d.entryCount ? m_in.entries[d.firstEntry].createdNs : 0;
        };
        std::int64_t from = 0;
        if (sender->second.wrapped || receiver->second.wrapped)
            from = std::max(firstCreated(sender->second), firstCreated(receiver->second));
        auto covered = [&](std::vector<std::uint32_t>& v) {
            std::erase_if(v, [&](std::uint32_t i) { return m_in.entries[i].createdNs < from; });
        };
        covered(ops.sends);
        covered(ops.recvs);
        const std::size_t matched = std::min(ops.sends.size(), ops.recvs.size());
        if (ops.sends.size() > matched)
            out.unmatchedP2p.push_back({ key.first, key.second, true, ops.sends[matched] });
        else if (ops.recvs.size() > matched)
            out.unmatchedP2p.push_back({ key.first, key.second, false, ops.recvs[matched] });
    }
}

FrMatchResult Matcher::run()
{
    FrMatchResult r;
    chooseDumps(r);
    collectPgs(r);

    std::int32_t largest = -1;
    for (auto& [key, w] : m_pgs) {
        FrPgMatch& out = r.pgs.emplace_back();
        out.pg = key.name;
        out.desc = w.desc;
        out.membersFromConfig = !key.ranks.empty();
        if (out.membersFromConfig) {
            out.members = key.ranks;
        } else {
            for (const auto& [rank, t] : w.tracks)
                out.members.push_back(rank);
        }
        largest = std::max(largest, static_cast<std::int32_t>(out.members.size()));
        bool anyDump = false;
        for (const std::int32_t rank : out.members)
            anyDump = anyDump || w.tracks.count(rank);
        for (const std::int32_t rank : out.members)
            if (anyDump && !w.tracks.count(rank)
                && (static_cast<std::size_t>(rank) >= r.dumpOfRank.size()
                    || r.dumpOfRank[static_cast<std::size_t>(rank)] == kNoFrIndex))
                out.noDump.push_back(rank);
        matchCollectives(w, out);
        matchP2p(w, out);
    }
    // By name text, so the order (and the first stuck PG on equal times) does not depend on
    // which dump interned a name first.
    std::sort(r.pgs.begin(), r.pgs.end(), [&](const FrPgMatch& a, const FrPgMatch& b) {
        const auto na = name(a.pg), nb = name(b.pg);
        if (m_in.strings && na != nb)
            return na < nb;
        if (!m_in.strings && a.pg != b.pg)
            return a.pg < b.pg;
        return a.members < b.members;
    });
    for (std::size_t i = 0; i < r.pgs.size(); ++i) {
        const FrPgMatch& p = r.pgs[i];
        if (p.stuckSeq < 0)
            continue;
        if (!r.firstStuck)
            r.firstStuck = i;
        else {
            const FrPgMatch& best = r.pgs[*r.firstStuck];
            const bool earlier = p.stuckCreatedNs > 0
                && (best.stuckCreatedNs == 0 || p.stuckCreatedNs < best.stuckCreatedNs);
            if (earlier)
                r.firstStuck = i;
        }
    }
    // The logs' world size (when known) and the largest group a dump declares: a rank that
    // dumped nothing still appears in its peers' pg_config.
    r.worldSize = std::max(m_in.worldSize, largest);
    for (std::int32_t rank = 0; rank < r.worldSize; ++rank)
        if (static_cast<std::size_t>(rank) >= r.dumpOfRank.size()
            || r.dumpOfRank[static_cast<std::size_t>(rank)] == kNoFrIndex)
            r.ranksWithoutDump.push_back(rank);
    if (r.dumpedRanks.empty())
        r.ranksWithoutDump.clear(); // no dumps at all: FR was off, nobody is "missing"
    return r;
}

} // namespace

std::string_view frRankPositionName(FrRankPosition position)
{
    switch (position) {
    case FrRankPosition::Unknown:
        return "unknown";
    case FrRankPosition::Completed:
        return "completed";
    case FrRankPosition::Started:
        return "started, not completed";
    case FrRankPosition::Scheduled:
        return "scheduled, not started";
    case FrRankPosition::StoppedBefore:
        return "never enqueued (its entries stop before it)";
    case FrRankPosition::SkippedSeq:
        return "absent, with later entries";
    case FrRankPosition::NoDump:
        return "no dump";
    case FrRankPosition::BufferDoesNotReach:
        return "ring buffer does not reach back to it";
    }
    return "unknown";
}

std::string_view frMismatchKindName(FrMismatchKind kind)
{
    switch (kind) {
    case FrMismatchKind::MissingRanks:
        return "missing ranks";
    case FrMismatchKind::OpType:
        return "collective type mismatch";
    case FrMismatchKind::Size:
        return "size mismatch";
    case FrMismatchKind::Dtype:
        return "dtype mismatch";
    case FrMismatchKind::State:
        return "state mismatch";
    }
    return "?";
}

const FrRankAtSeq* FrPgMatch::at(std::int32_t rank) const
{
    for (const FrRankAtSeq& a : atStuck)
        if (a.rank == rank)
            return &a;
    return nullptr;
}

FrMatchResult matchFlightRecorder(const FrMatchInput& input)
{
    return Matcher(input).run();
}

FrMatchResult matchFlightRecorder(const Bundle& bundle)
{
    std::vector<std::int32_t> ranks(bundle.frDumps.size(), -1);
    for (std::size_t d = 0; d < ranks.size(); ++d) {
        const FrDump& dump = bundle.frDumps[d];
        ranks[d] = dump.globalRank >= 0 ? dump.globalRank : bundle.rankOfIdentity(dump.identity);
    }
    FrMatchInput in;
    in.dumps = bundle.frDumps;
    in.entries = bundle.frEntries;
    in.calls = bundle.frCalls;
    in.strings = &bundle.strings;
    in.dumpRanks = ranks;
    in.worldSize = bundle.world.worldSize.value_or(-1);
    return matchFlightRecorder(in);
}

} // namespace rankscope::model
