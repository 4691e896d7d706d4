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

// One member's view of one PG. Its collective and p2p entries are not copied: the matcher
// walks the dump's own entries with a cursor, skipping those of the dump's other PGs (the
// owner of each call is known, see Matcher::m_trackOfCall), so matching 4096 dumps × 2000 entries
// costs a few bytes per member and PG instead of an index entry per FR entry (issue 6:
// ≤ 300 MB in all). The cursor reads one dump front to back, so each read is the next
// 32 bytes of the member's own stretch of memory.
struct MemberTrack {
    std::uint32_t dump = kNoFrIndex;
    bool wrapped = false; // the dump's ring buffer lost its oldest records
    std::uint32_t firstEntry = kNoFrIndex; // its first and last collective entries (with a seq)
    std::uint32_t lastEntry = kNoFrIndex;
    std::int64_t firstSeq = -1;
    std::int64_t lastSeq = -1;
    std::uint32_t firstP2p = kNoFrIndex; // its first and last p2p entries, walked the same way
    std::uint32_t lastP2p = kNoFrIndex;
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

    // Does entry i count as a collective of track t (its call belongs to t, it has a seq)?
    bool collectiveOf(std::uint32_t i, const MemberTrack* t) const
    {
        const FrEntry& e = m_in.entries[i];
        return e.call < m_trackOfCall.size() && m_trackOfCall[e.call] == t && e.collectiveSeq >= 0;
    }

    const FrMatchInput& m_in;
    std::vector<std::uint32_t> m_sigOfCall; // signature id per FrCall
    // The member track a collective call's entries belong to (calls belong to one dump and
    // one PG); null for p2p calls and calls of dumps that were not chosen. The same for p2p.
    std::vector<const MemberTrack*> m_trackOfCall;
    std::vector<const MemberTrack*> m_p2pTrackOfCall;
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
        return d.entryCount ? m_in.entries[d.firstEntry + d.entryCount - 1].createdNs() : 0;
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

std::vector<std::int32_t> sortedRanks(const FrRankList& ranks)
{
    std::vector<std::int32_t> out = ranks.toVector();
    if (!std::is_sorted(out.begin(), out.end())) // pg_config lists them sorted already
        std::sort(out.begin(), out.end());
    return out;
}

// PGs are keyed like fr_trace.py keys them, by name and membership (split_group reuses
// names), with the membership each dump's own pg_config gives for the names its entries use.
void Matcher::collectPgs(const FrMatchResult& r)
{
    m_trackOfCall.assign(m_in.calls.size(), nullptr);
    m_p2pTrackOfCall.assign(m_in.calls.size(), nullptr);
    // name → members, for entries whose own dump lacks the config (only when unambiguous).
    // Every dump lists the default group's thousands of ranks: the lists as given (runs,
    // FrRankList) are compared first, and sorted only when they differ.
    std::map<StrId, std::pair<FrRankList, std::vector<std::int32_t>>> configured;
    std::map<StrId, bool> ambiguous;
    for (const std::int32_t rank : r.dumpedRanks)
        for (const FrPgConfig& c :
            m_in.dumps[r.dumpOfRank[static_cast<std::size_t>(rank)]].pgConfig) {
            auto it = configured.find(c.name);
            if (it == configured.end())
                configured.emplace(c.name, std::make_pair(c.ranks, sortedRanks(c.ranks)));
            else if (!ambiguous.count(c.name) && !(it->second.first == c.ranks)
                && it->second.second != sortedRanks(c.ranks))
                ambiguous[c.name] = true;
        }
    // The PG of a (name, ranks as given): the last one seen per name, so the sorted member
    // list is built and looked up once per distinct list, not once per dump.
    std::map<StrId, std::pair<FrRankList, PgWork*>> lastWork;
    auto workOf = [&](StrId name, const FrRankList& ranks) -> PgWork& {
        auto it = lastWork.find(name);
        if (it != lastWork.end() && it->second.first == ranks)
            return *it->second.second;
        PgWork& w = m_pgs[PgKey { name, sortedRanks(ranks) }];
        lastWork[name] = { ranks, &w };
        return w;
    };

    // Per dump, its few PGs by name: the PG key (a member list of thousands of ranks) is
    // compared once per PG and dump, not once per entry.
    std::vector<std::pair<StrId, MemberTrack*>> local;
    for (const std::int32_t rank : r.dumpedRanks) {
        const std::uint32_t d = r.dumpOfRank[static_cast<std::size_t>(rank)];
        const FrDump& dump = m_in.dumps[d];
        const bool wrapped = dump.entryCount && m_in.entries[dump.firstEntry].recordId > 0;
        local.clear();
        auto join = [&](PgWork& w, StrId desc) {
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
            local.emplace_back(c.name, join(workOf(c.name, c.ranks), c.desc));
        StrId lastPg = kNoStr;
        MemberTrack* track = nullptr;
        for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount; ++i) {
            const FrEntry& e = m_in.entries[i];
            const FrCall* call = callOf(e);
            if (!call || call->pg == kNoStr)
                continue;
            if (!track || call->pg != lastPg) {
                auto known = std::find_if(local.begin(), local.end(),
                    [&](const auto& l) { return l.first == call->pg; });
                if (known != local.end()) {
                    track = known->second;
                } else {
                    PgKey key { call->pg, {} };
                    if (auto c = configured.find(call->pg);
                        c != configured.end() && !ambiguous.count(call->pg))
                        key.ranks = c->second.second;
                    track = join(m_pgs[std::move(key)], call->pgDesc);
                    local.emplace_back(call->pg, track);
                }
                lastPg = call->pg;
            }
            if (call->isP2p) {
                m_p2pTrackOfCall[e.call] = track;
                if (track->firstP2p == kNoFrIndex)
                    track->firstP2p = i;
                track->lastP2p = i;
            } else if (e.collectiveSeq >= 0) { // without a seq id an entry cannot be lined up
                m_trackOfCall[e.call] = track;
                if (track->firstEntry == kNoFrIndex) {
                    track->firstEntry = i;
                    track->firstSeq = e.collectiveSeq;
                }
                track->lastEntry = i;
                track->lastSeq = e.collectiveSeq;
            }
        }
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
    // The cursor is an entry index into the member's dump, resting on its next collective
    // entry on this PG (or at `end`).
    std::vector<const MemberTrack*> tracks(n, nullptr);
    std::vector<std::uint32_t> cursor(n, 0), end(n, 0);
    std::vector<std::int64_t> firstSeq(n, -1), lastSeq(n, -1);
    std::vector<std::uint32_t> lastEntry(n, kNoFrIndex);
    std::int64_t lo = -1, hi = -1;
    for (std::size_t m = 0; m < n; ++m) {
        auto it = w.tracks.find(out.members[m]);
        if (it == w.tracks.end() || it->second.dump == kNoFrIndex)
            continue;
        const MemberTrack& t = it->second;
        tracks[m] = &t;
        if (t.firstEntry == kNoFrIndex)
            continue;
        cursor[m] = t.firstEntry;
        end[m] = t.lastEntry + 1;
        firstSeq[m] = t.firstSeq;
        lastSeq[m] = t.lastSeq;
        lastEntry[m] = t.lastEntry;
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
        std::int64_t next = -1; // the lowest seq any cursor rests on after this one
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
            while (cursor[m] < end[m]) {
                if (!collectiveOf(cursor[m], t)) {
                    ++cursor[m];
                    continue;
                }
                const FrEntry& e = m_in.entries[cursor[m]];
                if (e.collectiveSeq > seq) {
                    next = next < 0 ? e.collectiveSeq : std::min<std::int64_t>(next, e.collectiveSeq);
                    break;
                }
                if (e.collectiveSeq == seq) {
                    at[m] = cursor[m];
                    atSig[m] = m_sigOfCall[e.call];
                    state = e.state();
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
                    const std::int64_t created = m_in.entries[at[m]].createdNs();
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
                    const std::uint32_t dx = frDumpOf(m_in.calls, m_in.entries[x]);
                    const std::uint32_t dy = frDumpOf(m_in.calls, m_in.entries[y]);
                    return dx != dy ? rankOfDump(dx) < rankOfDump(dy) : x < y;
                }));
    }
}

// Send ↔ recv by peer pair and order: the k-th send from a to b pairs with the k-th recv on
// b from a (p2p_seq_id counts per rank, so it cannot pair them across ranks).
void Matcher::matchP2p(PgWork& w, FrPgMatch& out) const
{
    auto globalOf = [&](std::int32_t local) -> std::int32_t {
        if (!out.membersFromConfig)
            return local; // without a config, PG-local ranks are all there is
        return local >= 0 && static_cast<std::size_t>(local) < out.members.size()
            ? out.members[local]
            : -1;
    };
    // The sends and receives a member posted, in order, as (entry, sender, receiver, send?).
    auto forEachOp = [&](std::int32_t rank, const MemberTrack& track, auto&& op) {
        for (std::uint32_t i = track.firstP2p; track.firstP2p != kNoFrIndex && i <= track.lastP2p;
             ++i) {
            const FrEntry& e = m_in.entries[i];
            if (e.call >= m_p2pTrackOfCall.size() || m_p2pTrackOfCall[e.call] != &track)
                continue;
            const FrCall* call = callOf(e);
            if (!call || call->p2pSrc < 0 || call->p2pDst < 0)
                continue;
            const std::int32_t src = globalOf(call->p2pSrc), dst = globalOf(call->p2pDst);
            if (src < 0 || dst < 0)
                continue;
            if (call->op == OpType::Send && src == rank)
                op(i, src, dst, true);
            else if (call->op == OpType::Recv && dst == rank)
                op(i, src, dst, false);
        }
    };
    // Per (sender, receiver): how many sends and receives both buffers cover. Only counts
    // are kept (a list per pair would be an index per p2p entry, issue 6: ≤ 300 MB); the one
    // op left without a partner is found again by walking its rank's entries.
    struct PairOps {
        bool comparable = false; // both ranks dumped
        std::int64_t from = 0; // ops created before this are not covered by both buffers
        std::size_t sends = 0, recvs = 0;
    };
    std::map<std::pair<std::int32_t, std::int32_t>, PairOps> pairs;
    auto firstCreated = [&](const MemberTrack& t) {
        const FrDump& d = m_in.dumps[t.dump];
        return d.entryCount ? m_in.entries[d.firstEntry].createdNs() : 0;
    };
    auto pairOf = [&](std::int32_t src, std::int32_t dst) -> PairOps& {
        auto [it, fresh] = pairs.try_emplace({ src, dst });
        if (fresh) {
            const auto sender = w.tracks.find(src), receiver = w.tracks.find(dst);
            // The other side has no dump: nothing to say about the pair.
            it->second.comparable = sender != w.tracks.end() && receiver != w.tracks.end()
                && sender->second.dump != kNoFrIndex && receiver->second.dump != kNoFrIndex;
            // After a ring-buffer wrap the oldest ops are gone on one side only: compare
            // from the moment both buffers cover.
            if (it->second.comparable && (sender->second.wrapped || receiver->second.wrapped))
                it->second.from
                    = std::max(firstCreated(sender->second), firstCreated(receiver->second));
        }
        return it->second;
    };
    for (const auto& [rank, track] : w.tracks)
        forEachOp(rank, track, [&](std::uint32_t i, std::int32_t src, std::int32_t dst, bool send) {
            PairOps& p = pairOf(src, dst);
            if (p.comparable && m_in.entries[i].createdNs() >= p.from)
                ++(send ? p.sends : p.recvs);
        });
    // Ranks that never posted anything towards their peer still count: a send with no
    // recvs at all on a rank that dumped is exactly the unmatched case.
    for (const auto& [key, p] : pairs) {
        if (!p.comparable || p.sends == p.recvs)
            continue;
        const bool send = p.sends > p.recvs;
        const std::size_t matched = std::min(p.sends, p.recvs);
        const std::int32_t rank = send ? key.first : key.second;
        std::size_t seen = 0;
        std::uint32_t entry = kNoFrIndex;
        forEachOp(rank, w.tracks.at(rank),
            [&](std::uint32_t i, std::int32_t src, std::int32_t dst, bool isSend) {
                if (entry != kNoFrIndex || isSend != send || src != key.first || dst != key.second
                    || m_in.entries[i].createdNs() < p.from)
                    return;
                if (seen++ == matched)
                    entry = i;
            });
        out.unmatchedP2p.push_back({ key.first, key.second, send, entry });
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
