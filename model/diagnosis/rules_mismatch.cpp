// Collective mismatch rules ([formats 1.4] l, m; [formats 1.5] rules 6–7; [formats 11] C): ranks that
// disagree on what collective #S is. The minority is the initiator; an even split is said
// as such and no side is picked.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

struct Signature {
    OpType family = OpType::Unknown;
    OpType op = OpType::Unknown;
    std::uint64_t numelIn = 0;
    std::uint64_t numelOut = 0;

    bool operator<(const Signature& o) const
    {
        return std::tie(family, numelIn, numelOut) < std::tie(o.family, o.numelIn, o.numelOut);
    }
};

// Coalesced work prints NumelIn=2^64-1 ([formats 1.3]): not a size.
std::uint64_t usableNumel(std::uint64_t n)
{
    return n == ~0ull ? 0 : n;
}

std::string describe(const Signature& s)
{
    std::string out(torchName(s.op));
    if (s.numelIn || s.numelOut)
        out += " (NumelIn=" + std::to_string(s.numelIn) + ", NumelOut=" + std::to_string(s.numelOut) + ")";
    return out;
}

} // namespace

void ruleOpMismatch(const RuleContext& ctx, RuleOutput& out)
{
    const PgFacts* pg = ctx.stuckPg();
    if (!pg || pg->stuckSeq < 0)
        return;
    const Bundle& b = ctx.bundle;
    // Compare only ranks that report the SAME SeqNum: ranks stuck at different numbers are
    // at different places in the program (raced ahead), not voters on one collective.
    std::map<Signature, std::vector<std::int32_t>> camps;
    bool sizesKnown = true;
    for (const auto* p : b.progressOf(pg->pg)) {
        if (p->timeoutSeq != pg->stuckSeq || p->timeoutOp == OpType::Unknown)
            continue;
        Signature s { opFamily(p->timeoutOp), p->timeoutOp, usableNumel(p->timeoutNumelIn), usableNumel(p->timeoutNumelOut) };
        if (!s.numelIn && !s.numelOut)
            sizesKnown = false;
        camps[s].push_back(p->rank);
    }
    if (!sizesKnown) {
        // Without sizes on every line, compare op types only.
        std::map<Signature, std::vector<std::int32_t>> byOp;
        for (auto& [s, ranks] : camps) {
            Signature opOnly { s.family, s.op, 0, 0 };
            auto& v = byOp[opOnly];
            v.insert(v.end(), ranks.begin(), ranks.end());
        }
        camps = std::move(byOp);
    }
    if (camps.size() < 2)
        return;
    std::vector<std::pair<Signature, std::vector<std::int32_t>>> sorted(camps.begin(), camps.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
        return x.second.size() != y.second.size() ? x.second.size() > y.second.size() : x.second < y.second;
    });
    std::vector<std::int32_t> minority;
    for (std::size_t i = 1; i < sorted.size(); ++i)
        minority.insert(minority.end(), sorted[i].second.begin(), sorted[i].second.end());
    std::sort(minority.begin(), minority.end());
    // A side is only "the odd one out" when it stays the minority whatever the ranks that
    // printed nothing would have said, and is small: 27 against 26 is an even split.
    std::size_t observed = 0;
    for (const auto& [sig, ranks] : sorted)
        observed += ranks.size();
    const std::size_t unobserved = pg->members.size() > observed ? pg->members.size() - observed : 0;
    // Without the group's membership the unseen ranks could be any number, all on either side:
    // an excerpt of three ranks out of four does not show the odd one out.
    const bool evenSplit = !pg->membersKnown || sorted[0].second.size() <= minority.size() + unobserved
        || minority.size() * 3 > observed;
    const bool opDiffers = sorted[0].first.family != sorted[1].first.family;

    // The finding's two ids (op type, size) say the same: their words are the entry of the
    // proposal's id, which the finding ids, having no entry, do not fill in by themselves.
    static constexpr const char* kWords = "mismatch.op_or_size";
    Placeholders values = ctx.placeholdersFor(evenSplit ? sorted[0].second.front() : minority.front());
    values["ranks"] = formatRanks(minority);
    Finding& f = out.add(ctx, opDiffers ? "mismatch.op_type" : "mismatch.size", RootCauseClass::CollectiveMismatch, values);
    values["coll_seq"] = std::to_string(pg->stuckSeq);
    values["pg_label"] = ctx.pgLabel(pg->pg);
    std::string campsText;
    for (const auto& [sig, ranks] : sorted) {
        campsText += (campsText.empty() ? "" : "; ")
            + ctx.say(kWords, "camp", { { "camp_ranks", formatRanks(ranks) }, { "call", describe(sig) } });
        const RankProgress* p = b.progressOf(pg->pg, ranks.front());
        if (p && p->timeoutEvent != RankProgress::kNoEvent && f.evidence.size() < 6)
            f.evidence.push_back(evidenceOf(b, p->timeoutEvent));
    }
    values["camps"] = campsText;
    if (evenSplit) {
        f.title = ctx.say(kWords, "even_split_title", values);
        f.confidence = 0.6;
        f.ranks = {};
        f.explanation = ctx.say(kWords, "even_split_summary", values);
        out.propose(RootCauseClass::CollectiveMismatch, {}, 0.6, "mismatch.op_or_size_even_split",
            ctx.say(kWords, "even_split_verdict", values));
        return;
    }
    values["who"] = ctx.ranksSubject(minority);
    values["odd_call"] = describe(sorted[1].first);
    values["usual_call"] = describe(sorted[0].first);
    values["majority_count"] = std::to_string(sorted[0].second.size());
    f.title = ctx.title(kWords, values);
    f.ranks = minority;
    f.confidence = 0.85;
    f.explanation = ctx.explain(kWords, values);
    out.propose(RootCauseClass::CollectiveMismatch, minority, 0.85, kWords, ctx.verdict(kWords, values));
}

void ruleFingerprintMismatch(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    // "Rank a is running collective X, but Rank b is running Y" — reported by the checker a
    // about b. The rank named most often is the one that differs.
    // ProcessGroupWrapper's check makes every rank compare its own fingerprint with everyone
    // else's and name the first that differs: with one deviating rank, every other rank names
    // it, and it names someone else. One report only says two ranks differ, not which one is
    // wrong, so a culprit needs two reporters that agree.
    std::map<std::int32_t, std::set<std::int32_t>> namedBy; // named rank -> reporters
    std::vector<std::uint32_t> events;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::TorchFingerprintMismatch)
            continue;
        events.push_back(i);
        if (e.peerRank >= 0)
            namedBy[e.peerRank].insert(e.pgRank);
    }
    std::map<std::int32_t, int> named;
    for (const auto& [rank, reporters] : namedBy)
        named[rank] = reporters.size() >= 2 ? static_cast<int>(reporters.size()) : 0;
    if (events.empty())
        return;
    std::int32_t culprit = -1;
    int best = 0;
    bool tie = false;
    for (const auto& [rank, n] : named) {
        if (n > best) {
            best = n;
            culprit = rank;
            tie = false;
        } else if (n == best && n > 0) {
            tie = true;
        }
    }
    static constexpr const char* kRule = "mismatch.fingerprint";
    const bool singledOut = culprit >= 0 && !tie;
    Placeholders values = ctx.placeholdersFor(culprit >= 0 ? culprit : 0);
    if (singledOut)
        values["who"] = ctx.rankLabel(culprit);
    Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
    for (std::size_t i = 0; i < events.size() && i < 4; ++i)
        f.evidence.push_back(evidenceOf(b, events[i]));
    if (!singledOut) {
        f.title = ctx.say(kRule, "no_culprit_title");
        f.confidence = 0.7;
        f.explanation = ctx.say(kRule, "no_culprit_summary");
        out.propose(RootCauseClass::CollectiveMismatch, {}, 0.7, "mismatch.fingerprint_no_culprit",
            ctx.say(kRule, "no_culprit_verdict"));
        return;
    }
    f.ranks = { culprit };
    f.confidence = 0.9;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::CollectiveMismatch, { culprit }, 0.9, kRule, ctx.verdict(kRule, values));
}

namespace {

// PyTorch itself names the ranks that never reached the collective (or barrier) the others
// wait in: those ranks are behind. Proposed unless most of the ranks seen are named — then
// nobody but the reporter arrived, and "behind" says nothing.
void nameRanksBehind(const RuleContext& ctx, RuleOutput& out, Precedence precedence,
    const std::vector<std::int32_t>& ranks, double confidence, EvidenceLine evidence)
{
    const std::string rule(precedence.id());
    Placeholders values = ctx.placeholdersFor(ranks.front());
    values["ranks"] = formatRanks(ranks);
    values["who"] = ctx.ranksObject(ranks);
    Finding& f = out.add(ctx, rule, RootCauseClass::StragglerStall, values);
    f.ranks = ranks;
    f.confidence = confidence;
    f.evidence.push_back(std::move(evidence));
    f.explanation = ctx.explain(rule, values);
    if (ranks.size() <= 2 || ranks.size() * 2 < std::max<std::size_t>(2, ctx.bundle.world.ranksSeen.size()))
        out.propose(RootCauseClass::StragglerStall, ranks, confidence, precedence, ctx.verdict(rule, values));
}

} // namespace

void ruleDesyncReport(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::map<std::int32_t, int> lagging;
    const DesyncReport* sample = nullptr;
    for (const auto& d : b.desyncReports) {
        for (std::int32_t r : d.laggingRanks)
            ++lagging[r];
        for (std::int32_t r : d.finishedNotJoined)
            ++lagging[r];
        if (!d.laggingRanks.empty() || !d.finishedNotJoined.empty())
            sample = &d;
    }
    if (!sample)
        return;
    // PG ranks of the default group are global ranks; for other groups the report's ranks
    // are only meaningful with the membership, which the report itself does not carry.
    std::vector<std::int32_t> ranks;
    for (const auto& [r, n] : lagging)
        ranks.push_back(r);
    // The report is a direct observation through the store; it names the lagging ranks out of
    // the whole group, not only the ranks whose logs are in the bundle.
    static constexpr const char* kRule = "straggler.desync_report";
    nameRanksBehind(ctx, out, kRule, ranks, 0.85,
        evidenceOf(b, sample->evidence,
            ctx.say(kRule, "report_evidence",
                { { "lagging", formatRanks(sample->laggingRanks) }, { "not_joined", formatRanks(sample->finishedNotJoined) } })));
}

namespace {

// Collectives every member must feed before any member can finish them: a member that
// finished one needed every other member inside it.
bool needsEveryMember(OpType op)
{
    switch (op) {
    case OpType::AllReduce:
    case OpType::AllReduceCoalesced:
    case OpType::AllGather:
    case OpType::AllGatherBase:
    case OpType::AllGatherCoalesced:
    case OpType::AllGatherIntoTensorCoalesced:
    case OpType::ReduceScatter:
    case OpType::ReduceScatterBase:
    case OpType::ReduceScatterTensorCoalesced:
    case OpType::AllToAll:
    case OpType::AllToAllBase:
    case OpType::Barrier:
        return true;
    default:
        return false;
    }
}

} // namespace

// Members of one group whose watchdogs time out at SeqNums two or more apart. A watchdog names
// the rank's oldest unfinished collective, so the rank at S + 2 finished S and S + 1, and
// S + 1 needed every member inside it — but the rank at S never got past S: its calls were
// not the others' calls (a rank-conditional collective, one more or one fewer per step).
// Read from the timeout lines alone, by each line's group and rank in it, so a paste with no
// rank prefix still counts. Only where every timed-out call needs every member (an
// all-reduce, all-gather, reduce-scatter, all-to-all or barrier): a broadcast's root, or a
// send, can finish into buffers its peer has not read. One apart may be a rank stuck inside
// S that the others got through (a GPU or link that hung mid-call), and lines from two runs
// (times more than a timeout apart) do not compare.
void ruleTimeoutSeqOffset(const RuleContext& ctx, RuleOutput& out)
{
    // Lines without a group: offsets larger than this are more likely two groups' counters.
    static constexpr std::int64_t kUnnamedGroupMaxOffset = 16;
    const Bundle& b = ctx.bundle;
    struct Oldest {
        std::int64_t seq = -1;
        std::uint32_t event = kNoIndex;
    };
    std::map<StrId, std::map<std::int32_t, Oldest>> byPg; // pg → pg rank → oldest timeout
    std::map<std::pair<StrId, std::int32_t>, std::set<std::int64_t>> seqsOf;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (!isCollectiveTimeout(e) || e.seq < 0 || e.pgRank < 0)
            continue;
        if (!needsEveryMember(e.op))
            return; // a rooted call or a send among them: the offset proves nothing
        Oldest& o = byPg[e.pg][e.pgRank];
        if (o.seq < 0 || e.seq < o.seq)
            o = { e.seq, i };
        seqsOf[{ e.pg, e.pgRank }].insert(e.seq);
    }
    for (const auto& [pg, ranks] : byPg) {
        if (ranks.size() < 2)
            continue;
        if (pg == kNoStr) {
            // Lines that name no group (PyTorch ≤2.1) may mix groups, whose counters and
            // group-local ranks have nothing in common. Compared only when no rank reports
            // two separate runs of SeqNums (its own groups) and the offset is small.
            bool oneGroup = true;
            for (const auto& [key, seqs] : seqsOf)
                if (key.first == pg && *seqs.rbegin() - *seqs.begin() + 1 != static_cast<std::int64_t>(seqs.size()))
                    oneGroup = false;
            std::int64_t lowest = -1, highest = -1;
            for (const auto& [rank, o] : ranks) {
                lowest = lowest < 0 ? o.seq : std::min(lowest, o.seq);
                highest = std::max(highest, o.seq);
            }
            if (!oneGroup || highest - lowest > kUnnamedGroupMaxOffset)
                continue;
        }
        std::map<std::int64_t, std::vector<std::int32_t>> atSeq;
        for (const auto& [rank, o] : ranks)
            atSeq[o.seq].push_back(rank);
        const std::int64_t low = atSeq.begin()->first;
        const std::int64_t high = atSeq.rbegin()->first;
        if (high - low < 2)
            continue;
        const Event& lowEvent = b.events[ranks.at(atSeq.begin()->second.front()).event];
        const Event& highEvent = b.events[ranks.at(atSeq.rbegin()->second.front()).event];
        if (lowEvent.time.valid() && highEvent.time.domain == lowEvent.time.domain && lowEvent.timeoutMs > 0) {
            const auto apart = std::llabs(lowEvent.time.ns - highEvent.time.ns) / 1'000'000;
            if (apart > lowEvent.timeoutMs)
                continue; // two runs' lines, not one hang
        }
        // The odd one out: a single rank away from a seq three or more members share. Its
        // rank in the group is its global rank only in the default group.
        std::vector<std::int32_t> named;
        const bool globalRanks = pg == kNoStr || b.text(pg) == "0";
        if (globalRanks && atSeq.size() == 2) {
            const auto& [seqA, ranksA] = *atSeq.begin();
            const auto& [seqB, ranksB] = *atSeq.rbegin();
            if (ranksA.size() == 1 && ranksB.size() >= 3)
                named = ranksA;
            else if (ranksB.size() == 1 && ranksA.size() >= 3)
                named = ranksB;
        }
        static constexpr const char* kRule = "mismatch.timeout_seq_offset";
        Placeholders values = named.empty() ? Placeholders {} : ctx.placeholdersFor(named.front());
        values["low_seq"] = std::to_string(low);
        values["high_seq"] = std::to_string(high);
        values["low_ranks"] = ctx.ranksObject(atSeq.begin()->second);
        values["high_ranks"] = ctx.ranksObject(atSeq.rbegin()->second);
        values["low_who"] = ctx.ranksSubject(atSeq.begin()->second);
        values["high_who"] = ctx.ranksSubject(atSeq.rbegin()->second);
        values["who"] = named.empty() ? std::string() : ctx.rankLabel(named.front());
        Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
        f.ranks = named;
        f.confidence = named.empty() ? 0.6 : 0.65;
        f.evidence.push_back(evidenceOf(b, ranks.at(atSeq.begin()->second.front()).event));
        f.evidence.push_back(evidenceOf(b, ranks.at(atSeq.rbegin()->second.front()).event));
        if (!named.empty())
            f.title = ctx.say(kRule, "named_title", values);
        f.explanation = ctx.explain(kRule, values);
        out.propose(RootCauseClass::CollectiveMismatch, named, f.confidence, kRule,
            named.empty() ? ctx.verdict(kRule, values) : ctx.say(kRule, "named_verdict", values));
        return;
    }
}

// Gloo's monitored barrier ("[Rank 0]: Ranks 1, 4 failed to pass monitoredBarrier in 30000 ms",
// ProcessGroupGloo::monitoredBarrier): rank 0 coordinates, every other rank checks in with it,
// and rank 0 names those that did not within the timeout. TORCH_DISTRIBUTED_DEBUG=DETAIL runs
// one before every collective, so the ranks named never reached the collective the others
// wait in: stated by PyTorch, as the desync report is. A rank named that failed on its own is
// the crash rules' (higher band); here the others are behind.
void ruleMonitoredBarrier(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::set<std::int32_t> named;
    std::uint32_t sample = kNoIndex;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::FrameworkCheck || b.text(e.detail) != "monitored_barrier" || e.peerRank < 0)
            continue;
        if (b.world.worldSize && e.peerRank >= *b.world.worldSize)
            continue; // past the stated world: not one of its ranks
        named.insert(e.peerRank);
        if (sample == kNoIndex)
            sample = i;
    }
    if (named.empty()) {
        // Only the other side's word: ranks that reached the barrier lost rank 0, which
        // coordinates it and alone enforces its timeout. Rank 0's side ended — it raised (its
        // log names why, perhaps a rank that never arrived) or its process went away. Where
        // rank 0's log is not here to say which, rank 0 is where to look: a lead.
        std::uint32_t reached = kNoIndex;
        for (std::uint32_t i = 0; i < b.events.size() && reached == kNoIndex; ++i)
            if (b.events[i].kind == EventKind::FrameworkCheck && b.text(b.events[i].detail) == "monitored_barrier_reached")
                reached = i;
        if (reached == kNoIndex)
            return;
        // With rank 0's own lines here and none of them naming a rank that never arrived, rank
        // 0's side ended on its own: it failed.
        const RankInfo* coordinator = b.rankInfo(0);
        const bool coordinatorSeen = coordinator && coordinator->seen;
        static constexpr const char* kLead = "crash.monitored_barrier_coordinator";
        Placeholders values = ctx.placeholdersFor(0);
        values["who"] = ctx.rankLabel(b.events[reached].peerRank);
        Finding& f = out.add(ctx, kLead, RootCauseClass::RankCrashed, values);
        f.ranks = { 0 };
        f.confidence = coordinatorSeen ? 0.55 : 0.45;
        f.evidence.push_back(evidenceOf(b, reached));
        f.explanation = ctx.explain(kLead, values);
        Proposal& p = out.propose(RootCauseClass::RankCrashed, { 0 }, f.confidence, kLead,
            coordinatorSeen ? ctx.say(kLead, "seen_verdict", values) : ctx.verdict(kLead, values));
        if (!coordinatorSeen)
            p.status = DiagnosisStatus::Inconclusive;
        return;
    }
    nameRanksBehind(ctx, out, "straggler.monitored_barrier", std::vector<std::int32_t>(named.begin(), named.end()), 0.8,
        evidenceOf(b, sample));
}

} // namespace rankscope::model

namespace rankscope::model {

namespace {

// What NCCL requires every rank of a communicator to pass at one opCount (src/enqueue.cc
// checks none of it across ranks): the same collective, count and datatype, and for rooted
// collectives the same root. Any difference is a call that can never complete.
struct CallSignature {
    OpType op = OpType::Unknown;
    std::uint64_t count = 0;
    std::int32_t datatype = -1;
    std::int32_t root = -1;

    explicit CallSignature(const CollCall& c)
        : op(c.op)
        , count(c.count)
        , datatype(c.datatype)
        , root(c.op == OpType::Broadcast || c.op == OpType::Reduce ? c.root : -1)
    {
    }
    auto operator<=>(const CallSignature&) const = default;

    std::string describe() const
    {
        std::string text = std::string(torchName(op)) + " count " + std::to_string(count);
        if (datatype >= 0)
            text += " datatype " + std::to_string(datatype);
        if (root >= 0)
            text += " root " + std::to_string(root);
        return text;
    }
};

// The finding of every COLL-line form (ranked, even split, processes only): its words are here.
constexpr const char* kCollRule = "mismatch.coll_lines";

// Without init lines the COLL lines cannot be tied to ranks, but processes whose calls on
// same-sized communicators disagree at one opCount still show a mismatch (names nobody).
void collLineMismatchWithoutRanks(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    struct Call {
        std::size_t trace;
        CallSignature sig;
        EvidenceRef evidence;
    };
    std::map<std::pair<std::int32_t, std::uint64_t>, std::vector<Call>> byKey; // (nranks, opCount)
    for (std::size_t t = 0; t < b.collTraces.size(); ++t)
        for (const CollCall& c : b.collTraces[t].tail)
            if (!isPointToPoint(c.op) && b.collTraces[t].nranks > 1)
                byKey[{ b.collTraces[t].nranks, c.opCount }].push_back({ t, CallSignature(c), c.evidence });
    for (const auto& [key, calls] : byKey) {
        std::set<std::size_t> traces;
        std::set<CallSignature> sigs;
        for (const Call& c : calls) {
            traces.insert(c.trace);
            sigs.insert(c.sig);
        }
        if (traces.size() < 2 || sigs.size() < 2)
            continue;
        Finding& f = out.add(ctx, kCollRule, RootCauseClass::CollectiveMismatch, {});
        Placeholders values { { "op_count", std::to_string(key.second) }, { "nranks", std::to_string(key.first) } };
        f.title = ctx.say(kCollRule, "processes_title", values);
        std::string camps;
        std::set<CallSignature> shown;
        for (const Call& c : calls) {
            if (!shown.insert(c.sig).second)
                continue;
            const CollTrace& tr = b.collTraces[c.trace];
            const Placeholders call { { "process", std::string(b.text(tr.host)) + ":" + std::to_string(tr.pid) },
                { "call", c.sig.describe() }, { "op_count", values["op_count"] } };
            camps += (camps.empty() ? "" : "; ") + ctx.say(kCollRule, "process_camp", call);
            if (f.evidence.size() < 4)
                f.evidence.push_back({ c.evidence, ctx.say(kCollRule, "process_call_evidence", call) });
        }
        values["camps"] = camps;
        f.confidence = 0.6;
        f.explanation = ctx.say(kCollRule, "processes_summary", values);
        out.propose(RootCauseClass::CollectiveMismatch, {}, 0.6, "mismatch.coll_lines_processes",
            ctx.say(kCollRule, "processes_verdict", values));
        return;
    }
}

} // namespace

// NCCL COLL lines ([formats 3.5], [formats 11] C, the RCCL #429 pattern): at the same opCount on one
// communicator every rank must call the same op with the same count, datatype and root. The
// first opCount where a minority disagrees names the rank that took a different code path —
// even when that rank was killed before its own watchdog could print its WorkNCCL. The
// minority is named only when it would stay the smaller side even if every rank missing
// from the bundle had called what it called.
void ruleCollLineMismatch(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const auto& tails = ctx.facts.worldCollTail;
    if (tails.empty()) {
        collLineMismatchWithoutRanks(ctx, out);
        return;
    }
    struct Call {
        std::int32_t rank;
        CallSignature sig;
        EvidenceRef evidence;
    };
    // One vote per rank and opCount: the same COLL line can reach the bundle twice (the
    // rank's own file and the launcher's --tee copy), and a rank counted twice would both
    // tip the majority and be named twice.
    std::map<std::uint64_t, std::vector<Call>> byOpCount;
    for (std::size_t r = 0; r < tails.size(); ++r) {
        std::set<std::uint64_t> seen;
        for (const CollCall& c : tails[r])
            if (!isPointToPoint(c.op) && seen.insert(c.opCount).second)
                byOpCount[c.opCount].push_back({ static_cast<std::int32_t>(r), CallSignature(c), c.evidence });
    }
    const auto world = static_cast<std::size_t>(std::max(0, b.world.worldSize.value_or(0)));
    for (const auto& [opCount, calls] : byOpCount) {
        if (calls.size() < 2)
            continue;
        std::map<CallSignature, std::vector<std::int32_t>> camps;
        std::map<CallSignature, EvidenceRef> example;
        for (const Call& c : calls) {
            camps[c.sig].push_back(c.rank);
            example.try_emplace(c.sig, c.evidence);
        }
        if (camps.size() < 2)
            continue;
        std::vector<std::pair<CallSignature, std::vector<std::int32_t>>> sorted(camps.begin(), camps.end());
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.second.size() > y.second.size(); });
        std::vector<std::int32_t> minority;
        for (std::size_t i = 1; i < sorted.size(); ++i)
            minority.insert(minority.end(), sorted[i].second.begin(), sorted[i].second.end());
        std::sort(minority.begin(), minority.end());
        const std::size_t unseen = world > calls.size() ? world - calls.size() : 0;
        if (minority.size() + unseen >= sorted[0].second.size() || minority.size() * 3 > calls.size()) {
            // The calls disagree, but no side is clearly the odd one out (an even split, only
            // a couple of ranks in the bundle, or enough ranks missing to turn the count):
            // say it is a mismatch, name nobody.
            Finding& f = out.add(ctx, kCollRule, RootCauseClass::CollectiveMismatch, {});
            Placeholders values { { "op_count", std::to_string(opCount) } };
            f.title = ctx.say(kCollRule, "even_split_title", values);
            std::string campText;
            for (const auto& [sig, ranks] : sorted) {
                campText += (campText.empty() ? "" : "; ")
                    + ctx.say(kCollRule, ranks.size() == 1 ? "camp_one" : "camp_many",
                        { { "camp_ranks", formatRanks(ranks) }, { "call", sig.describe() } });
                if (f.evidence.size() < 4)
                    f.evidence.push_back({ example.at(sig),
                        ctx.say(kCollRule, "call_evidence", { { "op_count", values["op_count"] }, { "call", sig.describe() } }) });
            }
            values["camps"] = campText;
            f.confidence = 0.6;
            f.explanation = ctx.say(kCollRule, "even_split_summary", values);
            out.propose(RootCauseClass::CollectiveMismatch, {}, 0.6, "mismatch.coll_lines_even_split",
                ctx.say(kCollRule, "even_split_verdict", values));
            return;
        }
        const CallSignature& usual = sorted[0].first;
        const CallSignature& odd = sorted[1].first;
        Placeholders values = ctx.placeholdersFor(minority.front());
        values["ranks"] = formatRanks(minority);
        values["who"] = ctx.ranksSubject(minority);
        values["op_count"] = std::to_string(opCount);
        values["odd_call"] = odd.describe();
        values["usual_call"] = usual.describe();
        values["majority_count"] = std::to_string(sorted[0].second.size());
        Finding& f = out.add(ctx, kCollRule, RootCauseClass::CollectiveMismatch, values);
        f.ranks = minority;
        f.evidence.push_back({ example.at(odd),
            ctx.say(kCollRule, "call_evidence", { { "op_count", values["op_count"] }, { "call", odd.describe() } }) });
        f.evidence.push_back({ example.at(usual),
            ctx.say(kCollRule, "call_evidence", { { "op_count", values["op_count"] }, { "call", usual.describe() } }) });
        f.confidence = 0.85;
        f.explanation = ctx.explain(kCollRule, values);
        out.propose(RootCauseClass::CollectiveMismatch, minority, 0.85, kCollRule, ctx.verdict(kCollRule, values));
        return;
    }
}

} // namespace rankscope::model

namespace rankscope::model {

// One rank past the point where all the others stopped ([formats 1.5], [formats 11] C "some members'
// last enqueued differs … odd rank out"): every rank runs the same program, so the ranks block
// at the same place after the stuck collective S (the next sync on its result) and print the
// same last enqueued. When all of them agree on exactly S and a few ranks enqueued further, those
// did not block there: their collective #S was not the call the others wait in (a skipped or
// extra collective on a rank-local branch), so #S pairs up different calls. Only when nobody
// is missing from S: a rank that never entered explains the hang better, and ranks racing ahead
// of a straggler are normal (async enqueue).
void ruleEnqueuedAhead(const RuleContext& ctx, RuleOutput& out)
{
    const PgFacts* pg = ctx.stuckPg();
    if (!pg || pg->stuckSeq < 0 || !pg->neverEntered.empty() || !oddRanksOf(ctx.facts, *pg).empty())
        return;
    const Bundle& b = ctx.bundle;
    std::vector<std::int32_t> atStuck, ahead;
    for (const auto* p : b.progressOf(pg->pg)) {
        if (!p->hasStatus || p->lastCompleted >= pg->stuckSeq)
            continue;
        if (p->lastEnqueued == pg->stuckSeq)
            atStuck.push_back(p->rank);
        else if (p->lastEnqueued > pg->stuckSeq)
            ahead.push_back(p->rank);
    }
    std::sort(ahead.begin(), ahead.end());
    ahead.erase(std::unique(ahead.begin(), ahead.end()), ahead.end());
    // A clear odd one out: a handful of ranks against a large agreeing majority.
    if (ahead.empty() || atStuck.size() < 4 || ahead.size() > 2 || atStuck.size() < 4 * ahead.size())
        return;
    static constexpr const char* kRule = "mismatch.enqueued_ahead";
    Placeholders values = ctx.placeholdersFor(ahead.front());
    values["ranks"] = formatRanks(ahead);
    values["who"] = ctx.ranksSubject(ahead);
    values["coll_seq"] = std::to_string(pg->stuckSeq);
    values["prev_seq"] = std::to_string(pg->stuckSeq - 1);
    values["pg_label"] = ctx.pgLabel(pg->pg);
    values["stopped_count"] = std::to_string(atStuck.size());
    Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
    f.ranks = ahead;
    std::string detail;
    for (std::int32_t r : ahead) {
        const RankProgress* p = b.progressOf(pg->pg, r);
        detail += (detail.empty() ? "" : ", ")
            + ctx.say(kRule, "rank_enqueued",
                { { "label", ctx.rankLabel(r) }, { "enqueued", std::to_string(p->lastEnqueued) } });
        if (p->statusEvent != RankProgress::kNoEvent && f.evidence.size() < 4)
            f.evidence.push_back(evidenceOf(b, p->statusEvent));
    }
    values["detail"] = detail;
    if (const RankProgress* p = b.progressOf(pg->pg, atStuck.front()); p && p->statusEvent != RankProgress::kNoEvent)
        f.evidence.push_back(evidenceOf(b, p->statusEvent));
    f.confidence = 0.6;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::CollectiveMismatch, ahead, 0.6, kRule, ctx.verdict(kRule, values));
}

} // namespace rankscope::model
