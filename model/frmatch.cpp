#include "model/frmatch.h"

#include "model/helperthreads.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace rankscope::model {

namespace {

// Mismatches recorded per PG; past this, matching is noise (fr_trace.py caps at 10).
constexpr std::size_t kMaxMismatches = 64;

// Collectives are lined up a window of sequence ids at a time (see SeqWindow): each member's
// entries for the window are read in one sequential stretch of its dump, instead of one
// entry per member and seq id across 4096 dumps (a cache miss each). A window holds
// members × seqs cells; this many keeps it within a few MB (issue 6: ≤ 300 MB in all).
constexpr std::size_t kWindowCells = std::size_t(1) << 17;
constexpr std::int64_t kMaxWindowSeqs = 1024;
// PGs with at least this many members share the walk of their members' dumps among the
// worker threads (a job's default group alone holds a third of all the work or more);
// smaller PGs are matched one per thread.
constexpr std::size_t kSharedWalkMembers = 256;
// A dump's rank is believed up to this, or up to kRanksPerDump per dump given.
constexpr std::int32_t kAlwaysMatchedRanks = 1 << 16;
constexpr std::size_t kRanksPerDump = 4;

// One member's view of one PG. Its collective and p2p entries are not copied: the matcher
// walks the dump's own entries with a cursor, skipping those of the dump's other PGs (the
// owner of each call is known, see Matcher::m_collectiveOfCall), so matching 4096 dumps ×
// 2000 entries costs a few bytes per member and PG instead of an index entry per FR entry
// (issue 6: ≤ 300 MB in all). The cursor reads one dump front to back, so each read is the
// next 32 bytes of the member's own stretch of memory.
struct MemberTrack {
    std::uint32_t dump = kNoFrIndex;
    bool wrapped = false; // the dump's ring buffer lost its oldest records
    std::uint32_t firstEntry = kNoFrIndex; // its first and last collective entries (with a seq)
    std::uint32_t lastEntry = kNoFrIndex;
    std::int64_t firstSeq = -1;
    std::int64_t lastSeq = -1;
    std::uint32_t firstP2p = kNoFrIndex; // its first and last p2p entries, walked the same way
    std::uint32_t lastP2p = kNoFrIndex;
    // Its sends and receives per (sender, receiver), counted while its dump is walked for the
    // PGs (when Matcher::m_p2pCounted), so that pairing them needs no walk of its own.
    struct P2pTally {
        std::int32_t sender = -1, receiver = -1;
        std::size_t sends = 0, recvs = 0;
    };
    std::vector<P2pTally> p2pTallies;
};

// One PG of a dump's own pg_config, as that dump's entries are sorted into tracks.
struct DumpPg {
    StrId name = kNoStr;
    MemberTrack* track = nullptr;
    const std::vector<std::int32_t>* members = nullptr; // the PgKey's ranks
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

// A collective call as the walk needs it: whose it is and what it called. One table read per
// entry tells both whether the entry is the walked member's and, if so, its signature.
struct CollectiveCall {
    const MemberTrack* track = nullptr; // null for p2p calls and calls of dumps not chosen
    std::uint32_t signature = 0;
};

// A member's entry for one seq id as the walk found it: (signature id, state), so that the
// common case at a seq id, every member completed the same call, is one compare per member.
using Fingerprint = std::uint64_t;
constexpr Fingerprint kNoFingerprint = ~Fingerprint(0);

Fingerprint fingerprintOf(std::uint32_t signature, FrState state)
{
    return (Fingerprint(signature) << 8) | static_cast<std::uint8_t>(state);
}
std::uint32_t signatureOf(Fingerprint f)
{
    return static_cast<std::uint32_t>(f >> 8);
}
FrState stateOf(Fingerprint f)
{
    return static_cast<FrState>(f & 0xffu);
}

// Runs work(worker, item) for items 0..count-1 on up to `threads` threads, the caller's
// among them; `worker` (< threads) tells a thread's own scratch apart. Items are handed out
// in turn, so which thread ran an item must not matter to the result.
template <typename Work> void runOnThreads(std::size_t count, unsigned threads, Work&& work)
{
    const std::size_t used = std::min<std::size_t>(std::max(threads, 1u), count);
    if (used <= 1) {
        for (std::size_t i = 0; i < count; ++i)
            work(0u, i);
        return;
    }
    std::atomic<std::size_t> next { 0 };
    auto drain = [&](unsigned worker) {
        for (std::size_t i = next++; i < count; i = next++)
            work(worker, i);
    };
    HelperThreads helpers(static_cast<unsigned>(used - 1), drain);
    drain(0);
    helpers.join();
}

// The members of one PG as the matcher walks them, parallel to FrPgMatch::members.
struct PgMembers {
    std::vector<const MemberTrack*> tracks; // null: no dump
    std::size_t dumped = 0; // members with a track
    // Per member: the highest seq id whose absence from its entries means it never enqueued
    // it. A dump cut short, with unreadable entries or entries without seq ids says nothing
    // by absence (-1); one whose entries end before the last collective its own pg_status
    // says was enqueued says nothing past its last entry. Such a member is then neither a
    // voter nor a suspect, like one whose ring buffer does not reach back.
    std::vector<std::int64_t> absenceCountsUpTo;
};

// A member's cursor over its collectives on the PG: resting on its next collective entry
// (or at `end`). Matching goes seq by seq, from the lowest seq id any member recorded: an
// entry whose seq id is below that, or below the member's last one taken, comes too late
// (the match already moved past it) and is skipped.
struct MemberCursor {
    std::uint32_t next = 0;
    std::uint32_t end = 0;
    std::int64_t floor = 0; // the lowest seq id the member can still take
};

// What one member recorded for one seq id of the window; valid when `window` is the
// current window's number (cells are not cleared between windows).
struct SeqCell {
    std::uint32_t entry = kNoFrIndex; // the last entry of the seq (a coalesced group's terminator)
    std::uint32_t window = 0;
    Fingerprint fingerprint = kNoFingerprint;
};

// Per seq id of the window and per share of the members: the first fingerprint seen and how
// many members had exactly that one.
struct SeqTally {
    Fingerprint fingerprint = kNoFingerprint;
    std::uint32_t agreeing = 0;
};

// Reused buffers of one worker thread, so matching 2000 small PGs allocates nothing per PG.
struct MatchScratch {
    std::vector<MemberCursor> cursors;
    std::vector<SeqCell> cells; // members × window seqs
    std::uint32_t window = 0; // number of the current window, see SeqCell
    std::vector<SeqTally> tallies; // shares × window seqs
    // Per share: the lowest seq id a cursor rests on after the window.
    std::vector<std::int64_t> nextSeq;
    // One seq id as all members recorded it (the slow path).
    std::vector<FrRankPosition> pos;
    std::vector<std::uint32_t> at, atSig;
    std::vector<bool> tainted; // deviated earlier: later absences are consequences
    std::vector<std::pair<std::uint32_t, std::vector<std::size_t>>> camps; // signature id, members
};

// The members' positions at one seq id, gathered from the window (what the rules judge).
struct SeqView {
    std::int64_t seq = -1;
    std::size_t present = 0, reaching = 0, completed = 0;
};

// A window of seq ids [first, end) being walked.
struct SeqWindow {
    std::int64_t first = 0;
    std::int64_t end = 0;
    std::size_t width = 0; // cells per member
    std::size_t shares = 1; // member shares walked by different threads
};

class Matcher {
public:
    Matcher(const FrMatchInput& in, unsigned threads)
        : m_in(in)
        , m_threads(std::max(threads, 1u))
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
    bool collectPgsByDump(const FrMatchResult& r);
    using PgSlot = std::map<PgKey, PgWork>::iterator;
    using LastPgOfName = std::map<StrId, std::pair<FrRankList, PgSlot>>;
    PgSlot pgOfConfig(StrId name, const FrRankList& ranks, LastPgOfName& last);
    MemberTrack& joinPg(PgWork& w, StrId desc, std::uint32_t d, std::int32_t rank);
    bool trackEntries(std::uint32_t d, std::int32_t rank, const std::vector<DumpPg>& local);
    void countP2p(const FrCall& call, const DumpPg& pg, std::int32_t rank);
    void collectPgsInOrder(const FrMatchResult& r);
    void addToTrack(std::uint32_t i, const FrCall& call, MemberTrack& track);
    void describePg(const PgKey& key, const PgWork& w, const FrMatchResult& r, FrPgMatch& out,
        PgMembers& members) const;
    std::int64_t absenceCountsUpTo(const MemberTrack& t, StrId pg) const;
    void matchPg(const PgWork& w, const PgMembers& members, FrPgMatch& out, MatchScratch& scratch,
        unsigned threads) const;

    // Collectives (matchCollectives and the functions it walks the window with).
    void matchCollectives(
        const PgMembers& members, FrPgMatch& out, MatchScratch& scratch, unsigned threads) const;
    std::int64_t startCursors(const PgMembers& members, MatchScratch& scratch) const;
    SeqWindow openWindow(std::int64_t first, std::int64_t hi, std::size_t memberCount,
        unsigned threads, MatchScratch& scratch) const;
    void walkShare(const PgMembers& members, const SeqWindow& window, std::size_t share,
        MatchScratch& scratch) const;
    bool everyoneCompletedAlike(
        const SeqWindow& window, std::size_t slot, std::size_t dumped, const MatchScratch& s) const;
    SeqView gather(const PgMembers& members, const SeqWindow& window, std::size_t slot,
        MatchScratch& scratch) const;
    void judgeSeq(
        const SeqView& view, const PgMembers& members, FrPgMatch& out, MatchScratch& scratch) const;
    void judgeMissing(
        const SeqView& view, const PgMembers& members, FrPgMatch& out, MatchScratch& scratch) const;
    void judgeCalls(const SeqView& view, FrPgMatch& out, MatchScratch& scratch) const;
    void chooseStuckEntry(FrPgMatch& out) const;

    // P2p.
    void matchP2p(const PgWork& w, FrPgMatch& out, unsigned threads) const;

    std::string_view name(StrId id) const
    {
        return m_in.strings ? m_in.strings->view(id) : std::string_view();
    }
    // The track entry i's call belongs to as a collective (with a seq id), or null.
    const CollectiveCall* collectiveCallOf(const FrEntry& e) const
    {
        return e.call < m_collectiveOfCall.size() ? &m_collectiveOfCall[e.call] : nullptr;
    }

    const FrMatchInput& m_in;
    const unsigned m_threads;
    std::vector<std::uint32_t> m_sigOfCall; // signature id per FrCall
    // The member track a collective call's entries belong to (calls belong to one dump and
    // one PG), with the call's signature id; no track for p2p calls and calls of dumps that
    // were not chosen. The same for p2p.
    std::vector<CollectiveCall> m_collectiveOfCall;
    std::vector<const MemberTrack*> m_p2pTrackOfCall;
    bool m_p2pCounted = false; // the tracks' p2pTallies are filled (collectPgsByDump)
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
        // dumpOfRank is indexed by rank: a claimed rank far beyond the dumps there are
        // (a hand-made FrMatchInput; the bundle's ranks are bounded by the resolver) would
        // size it. Bounded as the resolver bounds claims.
        if (rank >= kAlwaysMatchedRanks
            && static_cast<std::size_t>(rank) >= m_in.dumps.size() * kRanksPerDump)
            continue;
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
// Dumps whose entries all use PGs of their own pg_config (PyTorch ≥ 2.3 writes it) are walked
// on several threads; otherwise PGs are made up as the entries name them, in dump order.
void Matcher::collectPgs(const FrMatchResult& r)
{
    m_p2pCounted = collectPgsByDump(r);
    if (m_p2pCounted)
        return;
    m_pgs.clear();
    collectPgsInOrder(r);
}

// Joins every dump to the PGs of its own pg_config, then walks the dumps' entries, a share of
// the dumps per thread; false (and nothing usable) when an entry names a PG outside its
// dump's config or another dump's call: joining PGs as entries name them, and which dump
// claims a call, depend on the order the dumps are walked in.
bool Matcher::collectPgsByDump(const FrMatchResult& r)
{
    m_collectiveOfCall.assign(m_in.calls.size(), CollectiveCall {});
    m_p2pTrackOfCall.assign(m_in.calls.size(), nullptr);
    LastPgOfName lastPg;
    std::vector<std::vector<DumpPg>> local(r.dumpedRanks.size());
    for (std::size_t k = 0; k < r.dumpedRanks.size(); ++k) {
        const std::int32_t rank = r.dumpedRanks[k];
        const std::uint32_t d = r.dumpOfRank[static_cast<std::size_t>(rank)];
        for (const FrPgConfig& c : m_in.dumps[d].pgConfig) {
            const PgSlot pg = pgOfConfig(c.name, c.ranks, lastPg);
            local[k].push_back({ c.name, &joinPg(pg->second, c.desc, d, rank), &pg->first.ranks });
        }
    }
    constexpr std::size_t kDumpsPerShare = 64;
    const std::size_t shares = (r.dumpedRanks.size() + kDumpsPerShare - 1) / kDumpsPerShare;
    std::atomic<bool> inOrder { false };
    runOnThreads(shares, m_threads, [&](unsigned, std::size_t share) {
        const std::size_t end = std::min(r.dumpedRanks.size(), (share + 1) * kDumpsPerShare);
        for (std::size_t k = share * kDumpsPerShare; k < end && !inOrder; ++k)
            if (!trackEntries(r.dumpOfRank[static_cast<std::size_t>(r.dumpedRanks[k])],
                    r.dumpedRanks[k], local[k]))
                inOrder = true;
    });
    return !inOrder;
}

// The PG of (name, ranks as given). `last` remembers the PG found last for each name, so the
// sorted member list is built and looked up once per distinct list, not once per dump.
Matcher::PgSlot Matcher::pgOfConfig(StrId name, const FrRankList& ranks, LastPgOfName& last)
{
    auto it = last.find(name);
    if (it != last.end() && it->second.first == ranks)
        return it->second.second;
    const PgSlot pg = m_pgs.try_emplace(PgKey { name, sortedRanks(ranks) }).first;
    last.insert_or_assign(name, std::make_pair(ranks, pg));
    return pg;
}

// Dump d of `rank` as a member of PG w (whose description, if it has none yet, is `desc`).
MemberTrack& Matcher::joinPg(PgWork& w, StrId desc, std::uint32_t d, std::int32_t rank)
{
    const FrDump& dump = m_in.dumps[d];
    if (w.desc == kNoStr)
        w.desc = desc;
    MemberTrack& t = w.tracks[rank];
    t.dump = d;
    t.wrapped = dump.entryCount && m_in.entries[dump.firstEntry].recordId > 0;
    return t;
}

// One dump's entries into its tracks (see collectPgsByDump); false at the first entry that
// needs the in-order walk.
bool Matcher::trackEntries(std::uint32_t d, std::int32_t rank, const std::vector<DumpPg>& local)
{
    const FrDump& dump = m_in.dumps[d];
    StrId lastPg = kNoStr;
    const DumpPg* pg = nullptr;
    for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount; ++i) {
        const FrEntry& e = m_in.entries[i];
        const FrCall* call = callOf(e);
        if (!call || call->pg == kNoStr)
            continue;
        if (call->dump != d)
            return false;
        if (!pg || call->pg != lastPg) {
            auto known = std::find_if(
                local.begin(), local.end(), [&](const DumpPg& l) { return l.name == call->pg; });
            if (known == local.end())
                return false;
            pg = &*known;
            lastPg = call->pg;
        }
        addToTrack(i, *call, *pg->track);
        if (call->isP2p)
            countP2p(*call, *pg, rank);
    }
    return true;
}

// A p2p op of `rank` counted towards its (sender, receiver), read the way matchP2p reads it.
void Matcher::countP2p(const FrCall& call, const DumpPg& pg, std::int32_t rank)
{
    auto globalOf = [&](std::int32_t local) -> std::int32_t {
        if (pg.members->empty())
            return local; // without a config, PG-local ranks are all there is
        return local >= 0 && static_cast<std::size_t>(local) < pg.members->size()
            ? (*pg.members)[static_cast<std::size_t>(local)]
            : -1;
    };
    if (call.p2pSrc < 0 || call.p2pDst < 0)
        return;
    const std::int32_t src = globalOf(call.p2pSrc), dst = globalOf(call.p2pDst);
    if (src < 0 || dst < 0)
        return;
    const bool send = call.op == OpType::Send && src == rank;
    if (!send && !(call.op == OpType::Recv && dst == rank))
        return;
    std::vector<MemberTrack::P2pTally>& tallies = pg.track->p2pTallies;
    auto tally = std::find_if(tallies.begin(), tallies.end(),
        [&](const MemberTrack::P2pTally& t) { return t.sender == src && t.receiver == dst; });
    if (tally == tallies.end())
        tally = tallies.insert(tallies.end(), { src, dst, 0, 0 });
    ++(send ? tally->sends : tally->recvs);
}

// Entry i (of `call`) is the member's next entry on the track's PG.
void Matcher::addToTrack(std::uint32_t i, const FrCall& call, MemberTrack& track)
{
    const FrEntry& e = m_in.entries[i];
    if (call.isP2p) {
        m_p2pTrackOfCall[e.call] = &track;
        if (track.firstP2p == kNoFrIndex)
            track.firstP2p = i;
        track.lastP2p = i;
    } else if (e.collectiveSeq >= 0) { // without a seq id an entry cannot be lined up
        m_collectiveOfCall[e.call] = { &track, m_sigOfCall[e.call] };
        if (track.firstEntry == kNoFrIndex) {
            track.firstEntry = i;
            track.firstSeq = e.collectiveSeq;
        }
        track.lastEntry = i;
        track.lastSeq = e.collectiveSeq;
    }
}

// The walk of every dump in order, PGs joined as the entries name them.
void Matcher::collectPgsInOrder(const FrMatchResult& r)
{
    m_collectiveOfCall.assign(m_in.calls.size(), CollectiveCall {});
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
    LastPgOfName lastPgOfName;

    // Per dump, its few PGs by name: the PG key (a member list of thousands of ranks) is
    // compared once per PG and dump, not once per entry.
    std::vector<std::pair<StrId, MemberTrack*>> local;
    for (const std::int32_t rank : r.dumpedRanks) {
        const std::uint32_t d = r.dumpOfRank[static_cast<std::size_t>(rank)];
        const FrDump& dump = m_in.dumps[d];
        local.clear();
        // A member that records nothing on a PG it belongs to still has a say there: it
        // never enqueued anything on it (or its buffer lost everything).
        for (const FrPgConfig& c : dump.pgConfig)
            local.emplace_back(c.name,
                &joinPg(pgOfConfig(c.name, c.ranks, lastPgOfName)->second, c.desc, d, rank));
        StrId lastPg = kNoStr;
        MemberTrack* track = nullptr;
        for (std::uint32_t i = dump.firstEntry; i < dump.firstEntry + dump.entryCount; ++i) {
            const FrEntry& e = m_in.entries[i];
            const FrCall* call = callOf(e);
            if (!call || call->pg == kNoStr)
                continue;
            if (!track || call->pg != lastPg) {
                auto known = std::find_if(
                    local.begin(), local.end(), [&](const auto& l) { return l.first == call->pg; });
                if (known != local.end()) {
                    track = known->second;
                } else {
                    PgKey key { call->pg, {} };
                    if (auto c = configured.find(call->pg);
                        c != configured.end() && !ambiguous.count(call->pg))
                        key.ranks = c->second.second;
                    track = &joinPg(m_pgs[std::move(key)], call->pgDesc, d, rank);
                    local.emplace_back(call->pg, track);
                }
                lastPg = call->pg;
            }
            addToTrack(i, *call, *track);
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

// Places every member's cursor on its first collective; returns the lowest seq id any member
// recorded (-1: nobody recorded a collective on the PG).
std::int64_t Matcher::startCursors(const PgMembers& members, MatchScratch& scratch) const
{
    const std::size_t n = members.tracks.size();
    std::int64_t lo = -1;
    for (const MemberTrack* t : members.tracks)
        if (t && t->firstEntry != kNoFrIndex)
            lo = lo < 0 ? t->firstSeq : std::min(lo, t->firstSeq);
    scratch.cursors.assign(n, MemberCursor {});
    for (std::size_t m = 0; m < n; ++m) {
        const MemberTrack* t = members.tracks[m];
        if (t && t->firstEntry != kNoFrIndex)
            scratch.cursors[m] = { t->firstEntry, t->lastEntry + 1, lo };
    }
    return lo;
}

// The window starting at `first`: as many seq ids as fit the cell budget, never past `hi`
// (the highest last seq id of any member; nothing beyond it is matched).
SeqWindow Matcher::openWindow(std::int64_t first, std::int64_t hi, std::size_t memberCount,
    unsigned threads, MatchScratch& scratch) const
{
    SeqWindow window;
    window.first = first;
    const auto budget
        = static_cast<std::int64_t>(kWindowCells / std::max<std::size_t>(memberCount, 1));
    const std::int64_t width = std::clamp<std::int64_t>(budget, 1, kMaxWindowSeqs);
    window.end = std::min(first + width, hi + 1);
    window.width = static_cast<std::size_t>(width);
    window.shares = memberCount >= kSharedWalkMembers ? threads : 1;
    if (scratch.cells.size() < memberCount * window.width)
        scratch.cells.resize(memberCount * window.width);
    if (++scratch.window == 0) { // the numbers wrapped: old cells could pass for current ones
        std::fill(scratch.cells.begin(), scratch.cells.end(), SeqCell {});
        scratch.window = 1;
    }
    scratch.tallies.assign(window.shares * window.width, SeqTally {});
    scratch.nextSeq.assign(window.shares, -1);
    return window;
}

// Walks the members of one share (a contiguous part of the members) through the window:
// each takes its entries with seq ids in the window, in its dump's order, into its cells and
// counts them in the share's tallies. Shares write disjoint cells and their own tallies.
void Matcher::walkShare(const PgMembers& members, const SeqWindow& window, std::size_t share,
    MatchScratch& scratch) const
{
    const std::size_t n = members.tracks.size();
    const std::size_t begin = n * share / window.shares, end = n * (share + 1) / window.shares;
    SeqTally* tallies = &scratch.tallies[share * window.width];
    auto count = [&](std::size_t slot, Fingerprint f) {
        SeqTally& t = tallies[slot];
        if (t.fingerprint == kNoFingerprint)
            t.fingerprint = f;
        t.agreeing += t.fingerprint == f;
    };
    std::int64_t nextSeq = -1;
    for (std::size_t m = begin; m < end; ++m) {
        const MemberTrack* track = members.tracks[m];
        MemberCursor& c = scratch.cursors[m];
        SeqCell* cells = &scratch.cells[m * window.width];
        std::size_t pending = window.width; // the slot taken last, counted once it is final
        for (; c.next < c.end; ++c.next) {
            const FrEntry& e = m_in.entries[c.next];
            const CollectiveCall* call = collectiveCallOf(e);
            if (!call || call->track != track || e.collectiveSeq < c.floor)
                continue;
            if (e.collectiveSeq >= window.end) {
                nextSeq = nextSeq < 0 ? e.collectiveSeq
                                      : std::min<std::int64_t>(nextSeq, e.collectiveSeq);
                break;
            }
            // Coalesced groups record several entries under one seq id: the last one (the
            // terminator) carries the group's state.
            const auto slot = static_cast<std::size_t>(e.collectiveSeq - window.first);
            if (pending != slot && pending != window.width)
                count(pending, cells[pending].fingerprint);
            cells[slot] = { c.next, scratch.window, fingerprintOf(call->signature, e.state()) };
            pending = slot;
            c.floor = e.collectiveSeq;
        }
        if (pending != window.width)
            count(pending, cells[pending].fingerprint);
    }
    scratch.nextSeq[share] = nextSeq;
}

// The common case: every member with a dump completed the same call at this seq id. Then
// nobody is missing, nothing differs and nothing is stuck, so the rules have nothing to say.
bool Matcher::everyoneCompletedAlike(
    const SeqWindow& window, std::size_t slot, std::size_t dumped, const MatchScratch& s) const
{
    Fingerprint common = kNoFingerprint;
    std::size_t agreeing = 0;
    for (std::size_t share = 0; share < window.shares; ++share) {
        const SeqTally& t = s.tallies[share * window.width + slot];
        if (t.fingerprint == kNoFingerprint)
            continue;
        if (common != kNoFingerprint && t.fingerprint != common)
            return false;
        common = t.fingerprint;
        agreeing += t.agreeing;
    }
    return common != kNoFingerprint && agreeing == dumped && stateOf(common) == FrState::Completed;
}

// Every member's position at one seq id of the window, into scratch.pos / at / atSig.
SeqView Matcher::gather(const PgMembers& members, const SeqWindow& window, std::size_t slot,
    MatchScratch& scratch) const
{
    SeqView view;
    view.seq = window.first + static_cast<std::int64_t>(slot);
    const std::size_t n = members.tracks.size();
    for (std::size_t m = 0; m < n; ++m) {
        scratch.at[m] = kNoFrIndex;
        const MemberTrack* t = members.tracks[m];
        if (!t) {
            scratch.pos[m] = FrRankPosition::NoDump;
            continue;
        }
        const SeqCell& cell = scratch.cells[m * window.width + slot];
        if (cell.window == scratch.window) {
            scratch.at[m] = cell.entry;
            scratch.atSig[m] = signatureOf(cell.fingerprint);
            scratch.pos[m] = positionOf(stateOf(cell.fingerprint));
            ++view.present;
            ++view.reaching;
            view.completed += scratch.pos[m] == FrRankPosition::Completed;
        } else if (t->firstSeq > view.seq || (t->firstSeq < 0 && t->wrapped)) {
            scratch.pos[m] = FrRankPosition::BufferDoesNotReach;
        } else if (view.seq > members.absenceCountsUpTo[m]) {
            scratch.pos[m] = FrRankPosition::Unknown;
        } else if (t->lastSeq < view.seq) {
            scratch.pos[m] = FrRankPosition::StoppedBefore;
            ++view.reaching;
        } else {
            scratch.pos[m] = FrRankPosition::SkippedSeq;
            ++view.reaching;
        }
    }
    return view;
}

void recordMismatch(FrPgMatch& out, FrMismatch&& mm)
{
    if (out.mismatches.size() < kMaxMismatches)
        out.mismatches.push_back(std::move(mm));
    else
        ++out.consequencesSuppressed;
}

// Missing ranks: members whose buffer covers #S but that have no entry for it. When they
// are not a strict minority the others may instead have raced ahead ([formats 1.5] rule 4): said only
// for the stuck #S, and nobody is marked as deviating.
void Matcher::judgeMissing(
    const SeqView& view, const PgMembers& members, FrPgMatch& out, MatchScratch& scratch) const
{
    FrMismatch mm;
    mm.kind = FrMismatchKind::MissingRanks;
    mm.seq = view.seq;
    std::vector<std::size_t> fresh;
    for (std::size_t m = 0; m < members.tracks.size(); ++m) {
        if (scratch.at[m] != kNoFrIndex) {
            mm.agreeing.push_back(out.members[m]);
            if (mm.agreeingEntry == kNoFrIndex)
                mm.agreeingEntry = scratch.at[m];
        } else if ((scratch.pos[m] == FrRankPosition::StoppedBefore
                       || scratch.pos[m] == FrRankPosition::SkippedSeq)
            && !scratch.tainted[m]) {
            fresh.push_back(m);
        }
    }
    for (const std::size_t m : fresh) {
        mm.deviating.push_back(out.members[m]);
        if (mm.deviatingEntry == kNoFrIndex)
            mm.deviatingEntry = members.tracks[m]->lastEntry;
    }
    mm.evenSplit = view.reaching - view.present >= view.present;
    if (mm.deviating.empty()) {
        ++out.consequencesSuppressed;
    } else if (!mm.evenSplit) {
        for (const std::size_t m : fresh)
            scratch.tainted[m] = true;
        recordMismatch(out, std::move(mm));
    } else if (view.seq == out.stuckSeq) {
        recordMismatch(out, std::move(mm));
    }
}

// What was called: split the present ranks into camps of identical calls (the common case,
// everyone agreeing, is told by one pass over signature ids).
void Matcher::judgeCalls(const SeqView& view, FrPgMatch& out, MatchScratch& scratch) const
{
    const std::size_t n = out.members.size();
    const std::vector<std::uint32_t>& at = scratch.at;
    const std::vector<std::uint32_t>& atSig = scratch.atSig;
    std::vector<bool>& tainted = scratch.tainted;
    auto& camps = scratch.camps;
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
            mm.seq = view.seq;
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
            recordMismatch(out, std::move(mm));
        }
        for (std::size_t c = 1; c < camps.size(); ++c)
            for (const std::size_t m : camps[c].second)
                tainted[m] = true;
        if (evenSplit) // no consensus: every side is off the common path from here on
            for (const std::size_t m : camps[0].second)
                tainted[m] = true;
    } else if (view.seq == out.stuckSeq && view.completed > 0 && view.completed < view.present) {
        // Same call, different states: some ranks finished #S, others did not.
        FrMismatch mm;
        mm.kind = FrMismatchKind::State;
        mm.seq = view.seq;
        for (std::size_t m = 0; m < n; ++m) {
            if (at[m] == kNoFrIndex)
                continue;
            const bool done = scratch.pos[m] == FrRankPosition::Completed;
            (done ? mm.agreeing : mm.deviating).push_back(out.members[m]);
            (done ? mm.agreeingEntry : mm.deviatingEntry) = at[m];
        }
        recordMismatch(out, std::move(mm));
    }
}

// The rules for one seq id some member recorded: the stuck collective (the first one not
// completed by every member that can say), missing ranks, differing calls.
void Matcher::judgeSeq(
    const SeqView& view, const PgMembers& members, FrPgMatch& out, MatchScratch& scratch) const
{
    if (view.reaching == 0)
        return;
    const std::size_t n = members.tracks.size();
    if (out.stuckSeq < 0 && view.completed < view.reaching) {
        out.stuckSeq = view.seq;
        out.atStuck.resize(n);
        for (std::size_t m = 0; m < n; ++m) {
            const MemberTrack* t = members.tracks[m];
            FrRankAtSeq& a = out.atStuck[m];
            a.rank = out.members[m];
            a.position = scratch.pos[m];
            a.entry = scratch.at[m];
            a.dump = t ? t->dump : kNoFrIndex;
            a.lastSeq = t ? t->lastSeq : -1;
            a.lastEntry = t ? t->lastEntry : kNoFrIndex;
            if (scratch.at[m] != kNoFrIndex) {
                const std::int64_t created = m_in.entries[scratch.at[m]].createdNs();
                if (created > 0 && (out.stuckCreatedNs == 0 || created < out.stuckCreatedNs))
                    out.stuckCreatedNs = created;
            }
        }
    }
    if (view.present > 0 && view.present < view.reaching)
        judgeMissing(view, members, out, scratch);
    if (view.present >= 2)
        judgeCalls(view, out, scratch);
}

// Lines up the members' collectives by seq id. Only seq ids some member recorded are
// judged: a gap in every buffer says nothing, and a far-off id (a rank whose counter raced
// ahead) must not cost a loop over the gap.
void Matcher::matchCollectives(
    const PgMembers& members, FrPgMatch& out, MatchScratch& scratch, unsigned threads) const
{
    const std::size_t n = members.tracks.size();
    const std::int64_t lo = startCursors(members, scratch);
    if (lo < 0)
        return;
    std::int64_t hi = -1;
    for (const MemberTrack* t : members.tracks)
        if (t && t->firstEntry != kNoFrIndex)
            hi = std::max(hi, t->lastSeq);
    scratch.tainted.assign(n, false);
    scratch.pos.resize(n);
    scratch.at.resize(n);
    scratch.atSig.resize(n);
    for (std::int64_t seq = lo; seq >= 0 && seq <= hi;) {
        const SeqWindow window = openWindow(seq, hi, n, threads, scratch);
        runOnThreads(window.shares, threads,
            [&](unsigned, std::size_t share) { walkShare(members, window, share, scratch); });
        for (std::size_t slot = 0; slot < static_cast<std::size_t>(window.end - window.first);
             ++slot) {
            // The lowest first seq id is judged even when nobody took it (its entry's call
            // was claimed by another dump's member: malformed input, matched as always).
            bool recorded = window.first == lo && slot == 0;
            for (std::size_t share = 0; share < window.shares && !recorded; ++share)
                recorded
                    = scratch.tallies[share * window.width + slot].fingerprint != kNoFingerprint;
            if (!recorded || everyoneCompletedAlike(window, slot, members.dumped, scratch))
                continue;
            judgeSeq(gather(members, window, slot, scratch), members, out, scratch);
        }
        seq = -1;
        for (const std::int64_t next : scratch.nextSeq)
            if (next >= 0)
                seq = seq < 0 ? next : std::min(seq, next);
    }
    chooseStuckEntry(out);
}

// The stuck collective as the consensus recorded it: an entry of the largest camp.
void Matcher::chooseStuckEntry(FrPgMatch& out) const
{
    if (out.stuckSeq < 0)
        return;
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
        out.stuckEntry = static_cast<std::uint32_t>(*std::min_element(
            byCall[0].second.begin(), byCall[0].second.end(), [&](std::int32_t x, std::int32_t y) {
                const std::uint32_t dx = frDumpOf(m_in.calls, m_in.entries[x]);
                const std::uint32_t dy = frDumpOf(m_in.calls, m_in.entries[y]);
                return dx != dy ? rankOfDump(dx) < rankOfDump(dy) : x < y;
            }));
}

// Per (sender, receiver): how many sends and receives both buffers cover. Only counts are
// kept (a list per pair would be an index per p2p entry, issue 6: ≤ 300 MB); the one op
// left without a partner is found again by walking its rank's entries.
struct PairOps {
    std::int32_t sender = -1, receiver = -1;
    bool comparable = false; // both ranks dumped
    std::int64_t from = 0; // ops created before this are not covered by both buffers
    std::size_t sends = 0, recvs = 0;

    auto key() const { return std::make_pair(sender, receiver); }
};

// Send ↔ recv by peer pair and order: the k-th send from a to b pairs with the k-th recv on
// b from a (p2p_seq_id counts per rank, so it cannot pair them across ranks).
void Matcher::matchP2p(const PgWork& w, FrPgMatch& out, unsigned threads) const
{
    auto globalOf = [&](std::int32_t local) -> std::int32_t {
        if (!out.membersFromConfig)
            return local; // without a config, PG-local ranks are all there is
        return local >= 0 && static_cast<std::size_t>(local) < out.members.size()
            ? out.members[local]
            : -1;
    };
    // The sends and receives a member posted, in order, as (entry, sender, receiver, send?).
    // A dump repeats a few calls thousands of times: the last call's reading is kept.
    auto forEachOp = [&](std::int32_t rank, const MemberTrack& track, auto&& op) {
        std::uint32_t lastCall = kNoFrIndex;
        std::int32_t src = -1, dst = -1;
        int kind = 0; // 1 send, 2 recv, 0 neither
        for (std::uint32_t i = track.firstP2p; track.firstP2p != kNoFrIndex && i <= track.lastP2p;
             ++i) {
            const FrEntry& e = m_in.entries[i];
            if (e.call >= m_p2pTrackOfCall.size() || m_p2pTrackOfCall[e.call] != &track)
                continue;
            if (e.call != lastCall) {
                lastCall = e.call;
                const FrCall& call = m_in.calls[e.call];
                kind = 0;
                if (call.p2pSrc < 0 || call.p2pDst < 0)
                    continue;
                src = globalOf(call.p2pSrc);
                dst = globalOf(call.p2pDst);
                if (src < 0 || dst < 0)
                    continue;
                if (call.op == OpType::Send && src == rank)
                    kind = 1;
                else if (call.op == OpType::Recv && dst == rank)
                    kind = 2;
            }
            if (kind)
                op(i, src, dst, kind == 1);
        }
    };
    auto firstCreated = [&](const MemberTrack& t) {
        const FrDump& d = m_in.dumps[t.dump];
        return d.entryCount ? m_in.entries[d.firstEntry].createdNs() : 0;
    };
    auto newPair = [&](std::int32_t src, std::int32_t dst) {
        PairOps p;
        p.sender = src;
        p.receiver = dst;
        const auto sender = w.tracks.find(src), receiver = w.tracks.find(dst);
        // The other side has no dump: nothing to say about the pair.
        p.comparable = sender != w.tracks.end() && receiver != w.tracks.end()
            && sender->second.dump != kNoFrIndex && receiver->second.dump != kNoFrIndex;
        // After a ring-buffer wrap the oldest ops are gone on one side only: compare from
        // the moment both buffers cover.
        if (p.comparable && (sender->second.wrapped || receiver->second.wrapped))
            p.from = std::max(firstCreated(sender->second), firstCreated(receiver->second));
        return p;
    };

    // Most groups carry no p2p at all (tensor-parallel groups of a 4096-rank job: 2048 of them).
    if (std::none_of(w.tracks.begin(), w.tracks.end(),
            [](const auto& t) { return t.second.firstP2p != kNoFrIndex; }))
        return;
    // The members' ops counted per pair, the tracks split into shares walked by different
    // threads; each share counts into its own pairs, summed afterwards.
    std::vector<std::pair<std::int32_t, const MemberTrack*>> tracks;
    tracks.reserve(w.tracks.size());
    for (const auto& [rank, track] : w.tracks)
        tracks.emplace_back(rank, &track);
    const std::size_t shares = m_p2pCounted ? 0 : tracks.size() >= kSharedWalkMembers ? threads : 1;
    std::vector<std::vector<PairOps>> counted(shares);
    runOnThreads(shares, threads, [&](unsigned, std::size_t share) {
        std::unordered_map<std::uint64_t, std::size_t> indexOf; // (sender, receiver) → pair
        std::vector<PairOps>& pairs = counted[share];
        for (std::size_t k = tracks.size() * share / shares;
             k < tracks.size() * (share + 1) / shares; ++k) {
            std::uint64_t lastKey = ~std::uint64_t(0);
            std::size_t last = 0;
            forEachOp(tracks[k].first, *tracks[k].second,
                [&](std::uint32_t i, std::int32_t src, std::int32_t dst, bool send) {
                    const std::uint64_t key
                        = (std::uint64_t(std::uint32_t(src)) << 32) | std::uint32_t(dst);
                    if (key != lastKey) {
                        auto [it, fresh] = indexOf.try_emplace(key, pairs.size());
                        if (fresh)
                            pairs.push_back(newPair(src, dst));
                        lastKey = key;
                        last = it->second;
                    }
                    PairOps& p = pairs[last];
                    if (p.comparable && m_in.entries[i].createdNs() >= p.from)
                        ++(send ? p.sends : p.recvs);
                });
        }
    });
    std::vector<PairOps> pairs;
    for (std::vector<PairOps>& share : counted)
        pairs.insert(pairs.end(), share.begin(), share.end());
    if (m_p2pCounted) {
        for (const auto& [rank, track] : tracks)
            for (const MemberTrack::P2pTally& t : track->p2pTallies) {
                PairOps& p = pairs.emplace_back(newPair(t.sender, t.receiver));
                if (!p.comparable)
                    continue;
                if (p.from == 0) { // every op is covered by both buffers
                    p.sends = t.sends;
                    p.recvs = t.recvs;
                    continue;
                }
                forEachOp(rank, *track,
                    [&](std::uint32_t i, std::int32_t src, std::int32_t dst, bool send) {
                        if (src == p.sender && dst == p.receiver
                            && m_in.entries[i].createdNs() >= p.from)
                            ++(send ? p.sends : p.recvs);
                    });
            }
    }
    std::sort(pairs.begin(), pairs.end(),
        [](const PairOps& a, const PairOps& b) { return a.key() < b.key(); });
    // Ranks that never posted anything towards their peer still count: a send with no
    // recvs at all on a rank that dumped is exactly the unmatched case.
    for (std::size_t k = 0; k < pairs.size();) {
        PairOps p = pairs[k];
        for (++k; k < pairs.size() && pairs[k].key() == p.key(); ++k) {
            p.sends += pairs[k].sends;
            p.recvs += pairs[k].recvs;
        }
        if (!p.comparable || p.sends == p.recvs)
            continue;
        const bool send = p.sends > p.recvs;
        const std::size_t matched = std::min(p.sends, p.recvs);
        const std::int32_t rank = send ? p.sender : p.receiver;
        std::size_t seen = 0;
        std::uint32_t entry = kNoFrIndex;
        forEachOp(rank, w.tracks.at(rank),
            [&](std::uint32_t i, std::int32_t src, std::int32_t dst, bool isSend) {
                if (entry != kNoFrIndex || isSend != send || src != p.sender || dst != p.receiver
                    || m_in.entries[i].createdNs() < p.from)
                    return;
                if (seen++ == matched)
                    entry = i;
            });
        out.unmatchedP2p.push_back({ p.sender, p.receiver, send, entry });
    }
}

// See PgMembers::absenceCountsUpTo. pg_status is keyed by the PG's id, which is its name
// unless the program named the group; a status that names no PG of the dump is not used.
std::int64_t Matcher::absenceCountsUpTo(const MemberTrack& t, StrId pg) const
{
    const FrDump& dump = m_in.dumps[t.dump];
    if (dump.stopUnknown || dump.truncated)
        return -1;
    for (const FrPgStatus& status : dump.pgStatus)
        if (status.pg == pg && status.lastEnqueued > t.lastSeq)
            return t.lastSeq;
    return std::numeric_limits<std::int64_t>::max();
}

// The PG's identity and membership, and which members have a dump (no matching yet).
void Matcher::describePg(const PgKey& key, const PgWork& w, const FrMatchResult& r, FrPgMatch& out,
    PgMembers& members) const
{
    out.pg = key.name;
    out.desc = w.desc;
    out.membersFromConfig = !key.ranks.empty();
    if (out.membersFromConfig) {
        out.members = key.ranks;
    } else {
        for (const auto& [rank, t] : w.tracks)
            out.members.push_back(rank);
    }
    // Both sorted: one merge walk instead of a lookup per member (a listed rank may repeat).
    members.tracks.assign(out.members.size(), nullptr);
    members.absenceCountsUpTo.assign(out.members.size(), -1);
    auto track = w.tracks.begin();
    for (std::size_t m = 0; m < out.members.size(); ++m) {
        while (track != w.tracks.end() && track->first < out.members[m])
            ++track;
        if (track != w.tracks.end() && track->first == out.members[m]
            && track->second.dump != kNoFrIndex) {
            members.tracks[m] = &track->second;
            members.absenceCountsUpTo[m] = absenceCountsUpTo(track->second, key.name);
            ++members.dumped;
        }
    }
    const bool anyDump = members.dumped > 0;
    for (std::size_t m = 0; m < out.members.size(); ++m) {
        const auto rank = static_cast<std::size_t>(out.members[m]);
        if (anyDump && !members.tracks[m]
            && (rank >= r.dumpOfRank.size() || r.dumpOfRank[rank] == kNoFrIndex))
            out.noDump.push_back(out.members[m]);
    }
}

void Matcher::matchPg(const PgWork& w, const PgMembers& members, FrPgMatch& out,
    MatchScratch& scratch, unsigned threads) const
{
    matchCollectives(members, out, scratch, threads);
    matchP2p(w, out, threads);
}

FrMatchResult Matcher::run()
{
    FrMatchResult r;
    chooseDumps(r);
    collectPgs(r);

    std::int32_t largest = -1;
    std::vector<const PgWork*> works;
    std::vector<PgMembers> members(m_pgs.size());
    r.pgs.resize(m_pgs.size());
    for (const auto& [key, w] : m_pgs) {
        const std::size_t i = works.size();
        works.push_back(&w);
        describePg(key, w, r, r.pgs[i], members[i]);
        largest = std::max(largest, static_cast<std::int32_t>(r.pgs[i].members.size()));
    }
    // PGs are independent: the large ones one after the other with their members' walk
    // shared among the threads, then the small ones one per thread. Each writes only its
    // own FrPgMatch, so neither the thread count nor the schedule shows in the result.
    std::vector<MatchScratch> scratch(m_threads);
    std::vector<std::size_t> small;
    for (std::size_t i = 0; i < works.size(); ++i) {
        if (m_threads > 1 && r.pgs[i].members.size() < kSharedWalkMembers)
            small.push_back(i);
        else
            matchPg(*works[i], members[i], r.pgs[i], scratch[0], m_threads);
    }
    runOnThreads(small.size(), m_threads, [&](unsigned worker, std::size_t k) {
        matchPg(*works[small[k]], members[small[k]], r.pgs[small[k]], scratch[worker], 1);
    });
    members = {}; // the scratch and the member lists go before the result is sorted
    scratch = {};

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
    return matchFlightRecorder(input, FrMatchOptions {});
}

FrMatchResult matchFlightRecorder(const FrMatchInput& input, const FrMatchOptions& options)
{
    return Matcher(input, options.threads).run();
}

FrMatchResult matchFlightRecorder(const Bundle& bundle)
{
    return matchFlightRecorder(bundle, FrMatchOptions {});
}

FrMatchResult matchFlightRecorder(const Bundle& bundle, const FrMatchOptions& options)
{
    std::vector<std::int32_t> ranks(bundle.frDumps.size(), -1);
    for (std::size_t d = 0; d < ranks.size(); ++d) {
        const FrDump& dump = bundle.frDumps[d];
        // The file name's rank when the resolver's rank table holds it; one it did not believe
        // (nccl_trace_rank_999999999) falls back to what the resolver decided, usually none.
        const bool believed = dump.globalRank >= 0
            && (bundle.ranks.empty() || static_cast<std::size_t>(dump.globalRank) < bundle.ranks.size());
        ranks[d] = believed ? dump.globalRank : bundle.rankOfIdentity(dump.identity);
    }
    FrMatchInput in;
    in.dumps = bundle.frDumps;
    in.entries = bundle.frEntries;
    in.calls = bundle.frCalls;
    in.strings = &bundle.strings;
    in.dumpRanks = ranks;
    in.worldSize = bundle.world.worldSize.value_or(-1);
    return matchFlightRecorder(in, options);
}

} // namespace rankscope::model
