// Cross-rank Flight Recorder matching (model/frmatch.h) on hand-built dumps: the official
// analyzer's blind spots (file order picks the reference, it stops at the first mismatch,
// it blames healthy ranks, it needs every dump) are each pinned by a test here.

#include "model/frmatch.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace rankscope::model;

namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000;

struct Op {
    std::string name = "nccl:all_reduce"; // profiling name
    std::string sizes = "[[1024]]";
    std::string dtype = "Float";
    FrState state = FrState::Completed;
    std::string pg = "0";
    bool p2p = false;
    std::int32_t src = -1, dst = -1; // PG-local, p2p only
};

Op op(FrState state, std::string name = "nccl:all_reduce", std::string sizes = "[[1024]]",
    std::string dtype = "Float")
{
    Op o;
    o.state = state;
    o.name = std::move(name);
    o.sizes = std::move(sizes);
    o.dtype = std::move(dtype);
    return o;
}

Op p2p(FrState state, bool send, std::int32_t src, std::int32_t dst, std::string pg = "0")
{
    Op o;
    o.state = state;
    o.p2p = true;
    o.src = src;
    o.dst = dst;
    o.pg = std::move(pg);
    o.name = send ? "nccl:send " + std::to_string(src) + "->" + std::to_string(dst)
                  : "nccl:recv " + std::to_string(dst) + "<-" + std::to_string(src);
    return o;
}

// One rank's buffer: ops in order, with the counters PyTorch keeps per PG. `dropOldest`
// simulates a wrapped ring buffer (the first records are gone).
struct RankDump {
    std::int32_t rank = -1;
    std::vector<Op> ops;
    std::size_t dropOldest = 0;
    std::map<std::string, std::vector<std::int32_t>> pgs { { "0", {} } }; // pg name → members
};

// Dumps in the given order, in one string pool, the way a merged Bundle holds them.
struct Job {
    StringPool strings;
    std::vector<FrDump> dumps;
    std::vector<FrEntry> entries;
    std::vector<FrCall> calls;
    std::int32_t worldSize = -1;

    FrMatchResult match(unsigned threads = 1) const
    {
        FrMatchInput in;
        in.dumps = dumps;
        in.entries = entries;
        in.calls = calls;
        in.strings = &strings;
        in.worldSize = worldSize;
        return matchFlightRecorder(in, FrMatchOptions { threads });
    }
};

Job build(const std::vector<RankDump>& ranks, const std::vector<std::int32_t>& worldMembers)
{
    Job job;
    for (const RankDump& r : ranks) {
        FrDump d;
        d.globalRank = r.rank;
        d.firstEntry = static_cast<std::uint32_t>(job.entries.size());
        for (const auto& [name, members] : r.pgs) {
            FrPgConfig c;
            c.name = job.strings.intern(name);
            c.ranks = members.empty() ? worldMembers : members;
            d.pgConfig.push_back(c);
        }
        std::map<std::string, std::int64_t> seq;
        std::map<std::string, std::int32_t> p2pSeq;
        for (std::size_t i = 0; i < r.ops.size(); ++i) {
            const Op& o = r.ops[i];
            FrCall c;
            c.pg = job.strings.intern(o.pg);
            c.profilingName = job.strings.intern(o.name);
            c.op = opTypeFromProfilingName(o.name);
            c.isP2p = o.p2p;
            c.p2pSrc = o.src;
            c.p2pDst = o.dst;
            c.inputSizes = c.outputSizes = job.strings.intern(o.sizes);
            c.inputDtypes = c.outputDtypes = job.strings.intern(o.dtype);
            FrEntry e;
            e.recordId = static_cast<std::int32_t>(i);
            e.collectiveSeq = o.p2p ? seq[o.pg] : ++seq[o.pg];
            e.p2pSeq = o.p2p ? ++p2pSeq[o.pg] : p2pSeq[o.pg];
            e.setTimes(kT0 + static_cast<std::int64_t>(i) * 1'000'000 + r.rank * 1000, 0, 0);
            e.setState(o.state);
            c.dump = static_cast<std::uint32_t>(job.dumps.size());
            e.call = static_cast<std::uint32_t>(job.calls.size());
            job.calls.push_back(c);
            if (i >= r.dropOldest)
                job.entries.push_back(e);
        }
        d.entryCount = static_cast<std::uint32_t>(job.entries.size()) - d.firstEntry;
        job.dumps.push_back(d);
    }
    return job;
}

std::vector<std::int32_t> iota(std::int32_t n)
{
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), 0);
    return v;
}

std::vector<Op> completed(std::size_t n)
{
    return std::vector<Op>(n, op(FrState::Completed));
}

// Everything the matcher concludes, as text, with entries named by (rank, seq) so that
// results of differently ordered inputs compare.
std::string describe(const Job& job, const FrMatchResult& r)
{
    auto entryText = [&](std::uint32_t i) {
        if (i == kNoFrIndex)
            return std::string("-");
        const FrEntry& e = job.entries[i];
        return std::to_string(job.dumps[frDumpOf(job.calls, e)].globalRank) + "@"
            + std::to_string(e.collectiveSeq);
    };
    auto ranks = [](const std::vector<std::int32_t>& v) {
        std::string s;
        for (auto x : v)
            s += std::to_string(x) + ",";
        return s;
    };
    std::ostringstream s;
    s << "world " << r.worldSize << " dumped " << ranks(r.dumpedRanks) << " missing "
      << ranks(r.ranksWithoutDump) << " first "
      << (r.firstStuck ? static_cast<long>(*r.firstStuck) : -1L) << "\n";
    for (const FrPgMatch& p : r.pgs) {
        s << "pg " << job.strings.view(p.pg) << " members " << ranks(p.members) << " stuck "
          << p.stuckSeq << " " << entryText(p.stuckEntry) << " suppressed "
          << p.consequencesSuppressed << " nodump " << ranks(p.noDump) << "\n";
        for (const FrRankAtSeq& a : p.atStuck)
            s << "  at " << a.rank << " " << frRankPositionName(a.position) << " "
              << entryText(a.entry) << " last " << a.lastSeq << "\n";
        for (const FrMismatch& m : p.mismatches)
            s << "  mismatch " << frMismatchKindName(m.kind) << " #" << m.seq << " agree "
              << ranks(m.agreeing) << " dev " << ranks(m.deviating) << (m.evenSplit ? " even" : "")
              << " " << entryText(m.agreeingEntry) << " " << entryText(m.deviatingEntry) << "\n";
        for (const FrP2pUnmatched& u : p.unmatchedP2p)
            s << "  p2p " << u.sender << "->" << u.receiver
              << (u.recvMissing ? " no recv " : " no send ") << entryText(u.entry) << "\n";
    }
    return s.str();
}

const FrPgMatch& pgNamed(const Job& job, const FrMatchResult& r, std::string_view name)
{
    for (const FrPgMatch& p : r.pgs)
        if (job.strings.view(p.pg) == name)
            return p;
    FAIL("no PG " << name);
    return r.pgs.front();
}

// Five ranks: rank 4 broadcasts at #3 (then its counter is shifted: its #4, #5 differ as a
// consequence); rank 1 all_reduces a different size at #5 on its own; everyone waits at #6
// except rank 2, which stopped after #5.
std::vector<RankDump> fiveRankJob()
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 5; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(2);
        if (r == 4) {
            d.ops.push_back(op(FrState::Completed, "nccl:broadcast"));
            d.ops.push_back(op(FrState::Completed, "nccl:broadcast", "[[8]]"));
            d.ops.push_back(op(FrState::Completed, "nccl:all_gather"));
        } else {
            d.ops.push_back(op(FrState::Completed));
            d.ops.push_back(op(FrState::Completed));
            d.ops.push_back(r == 1 ? op(FrState::Completed, "nccl:all_reduce", "[[2048]]")
                                   : op(FrState::Completed));
        }
        if (r != 2)
            d.ops.push_back(op(FrState::Scheduled));
        ranks.push_back(d);
    }
    return ranks;
}

} // namespace

TEST_CASE("FR matching gives identical results whatever the order of the dumps", "[model][frmatch]")
{
    std::vector<RankDump> ranks = fiveRankJob();
    const Job reference = build(ranks, iota(5));
    const std::string expected = describe(reference, reference.match());
    std::vector<std::size_t> order(ranks.size());
    std::iota(order.begin(), order.end(), 0);
    int permutations = 0;
    do {
        std::vector<RankDump> permuted;
        for (std::size_t i : order)
            permuted.push_back(ranks[i]);
        const Job job = build(permuted, iota(5));
        INFO("order " << order[0] << order[1] << order[2] << order[3] << order[4]);
        CHECK(describe(job, job.match()) == expected);
        ++permutations;
    } while (std::next_permutation(order.begin(), order.end()));
    CHECK(permutations == 120);
}

TEST_CASE(
    "FR matching reports a mismatch beyond the first and not its consequences", "[model][frmatch]")
{
    const Job job = build(fiveRankJob(), iota(5));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    REQUIRE(pg.mismatches.size() == 3);
    // #3: rank 4 broadcasts while four ranks all_reduce.
    CHECK(pg.mismatches[0].kind == FrMismatchKind::OpType);
    CHECK(pg.mismatches[0].seq == 3);
    CHECK(pg.mismatches[0].deviating == std::vector<std::int32_t> { 4 });
    CHECK(pg.mismatches[0].agreeing == std::vector<std::int32_t> { 0, 1, 2, 3 });
    CHECK_FALSE(pg.mismatches[0].evenSplit);
    // #5: rank 1's own size mismatch is new; rank 4's all_gather at #5 is a consequence.
    CHECK(pg.mismatches[1].kind == FrMismatchKind::Size);
    CHECK(pg.mismatches[1].seq == 5);
    CHECK(pg.mismatches[1].deviating == std::vector<std::int32_t> { 1 });
    // #6: rank 2 never enqueued it.
    CHECK(pg.mismatches[2].kind == FrMismatchKind::MissingRanks);
    CHECK(pg.mismatches[2].seq == 6);
    CHECK(pg.mismatches[2].deviating == std::vector<std::int32_t> { 2 });
    // Rank 4's #4 and #5 only follow from its #3.
    CHECK(pg.consequencesSuppressed == 2);
}

TEST_CASE(
    "a rank that stopped early is missing once, not at every later collective", "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 4; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(r == 3 ? 2 : 6);
        if (r != 3)
            d.ops.push_back(op(FrState::Scheduled));
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(4));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    // Ranks 0-2 completed #3-#6 without rank 3: impossible for a real collective, but the
    // matcher must still name rank 3 once, at #3, and stop there.
    REQUIRE(pg.mismatches.size() == 1);
    CHECK(pg.mismatches[0].kind == FrMismatchKind::MissingRanks);
    CHECK(pg.mismatches[0].seq == 3);
    CHECK(pg.mismatches[0].deviating == std::vector<std::int32_t> { 3 });
    CHECK(pg.consequencesSuppressed == 4);
    CHECK(pg.stuckSeq == 3);
    CHECK(pg.at(3)->position == FrRankPosition::StoppedBefore);
    CHECK(pg.at(3)->lastSeq == 2);
}

TEST_CASE(
    "the straggler is blamed and the healthy ranks that wait for it are not", "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 8; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(9);
        if (r != 5)
            d.ops.push_back(op(FrState::Scheduled));
        ranks.push_back(d);
    }
    // The official analyzer trusts the first file it lists: put the straggler first.
    std::rotate(ranks.begin(), ranks.begin() + 5, ranks.end());
    const Job job = build(ranks, iota(8));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    CHECK(pg.stuckSeq == 10);
    for (const FrRankAtSeq& a : pg.atStuck)
        CHECK(a.position
            == (a.rank == 5 ? FrRankPosition::StoppedBefore : FrRankPosition::Scheduled));
    for (const FrMismatch& m : pg.mismatches)
        for (std::int32_t blamed : m.deviating)
            CHECK(blamed == 5);
    REQUIRE(pg.mismatches.size() == 1);
    CHECK(pg.mismatches[0].kind == FrMismatchKind::MissingRanks);
}

TEST_CASE("an even split names no side", "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 4; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(2);
        d.ops.push_back(op(FrState::Scheduled, r < 2 ? "nccl:all_reduce" : "nccl:broadcast"));
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(4));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    REQUIRE(pg.mismatches.size() == 1);
    CHECK(pg.mismatches[0].kind == FrMismatchKind::OpType);
    CHECK(pg.mismatches[0].evenSplit);
}

TEST_CASE("a dtype mismatch is told apart from op and size", "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 3; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(1);
        d.ops.push_back(
            op(FrState::Scheduled, "nccl:all_reduce", "[[1024]]", r == 0 ? "BFloat16" : "Float"));
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(3));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    REQUIRE(pg.mismatches.size() == 1);
    CHECK(pg.mismatches[0].kind == FrMismatchKind::Dtype);
    CHECK(pg.mismatches[0].deviating == std::vector<std::int32_t> { 0 });
}

TEST_CASE("a wrapped ring buffer says nothing about collectives before its first record",
    "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 3; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(10);
        d.ops.push_back(op(FrState::Scheduled));
        if (r == 1)
            d.dropOldest = 7; // its buffer starts at #8
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(3));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    CHECK(pg.mismatches.empty()); // fr_trace.py without alignment: "missing ranks {1}" at #1
    CHECK(pg.stuckSeq == 11);
    for (const FrRankAtSeq& a : pg.atStuck)
        CHECK(a.position == FrRankPosition::Scheduled);
}

TEST_CASE(
    "a buffer that another PG's traffic filled cannot be blamed on this PG", "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 3; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(4);
        d.ops.push_back(op(FrState::Scheduled));
        if (r == 1) {
            // Rank 1's buffer holds only traffic of its PG 7: its PG 0 records were evicted.
            d.pgs["7"] = { 1 };
            d.ops.clear();
            for (int i = 0; i < 6; ++i) {
                Op o = op(FrState::Completed);
                o.pg = "7";
                d.ops.push_back(o);
            }
            d.dropOldest = 2;
        }
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(3));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    CHECK(pg.stuckSeq == 5);
    CHECK(pg.at(1)->position == FrRankPosition::BufferDoesNotReach);
    CHECK(pg.mismatches.empty());
}

TEST_CASE("p2p sends and receives pair by peer and order, in global ranks", "[model][frmatch]")
{
    // PG "pp" holds global ranks 4-7; profiling names use PG-local ranks.
    std::vector<RankDump> ranks;
    const std::vector<std::int32_t> pp { 4, 5, 6, 7 };
    for (std::int32_t r = 4; r < 8; ++r) {
        RankDump d;
        d.rank = r;
        d.pgs = { { "pp", pp } };
        const std::int32_t local = r - 4;
        if (local == 0) {
            d.ops.push_back(p2p(FrState::Completed, true, 0, 1, "pp"));
            d.ops.push_back(p2p(FrState::Completed, true, 0, 1, "pp"));
        } else if (local == 1) {
            d.ops.push_back(p2p(FrState::Completed, false, 0, 1, "pp"));
            d.ops.push_back(p2p(FrState::Completed, false, 0, 1, "pp"));
            d.ops.push_back(p2p(FrState::Scheduled, false, 0, 1, "pp")); // a third recv: no send
        } else if (local == 2) {
            d.ops.push_back(p2p(FrState::Started, true, 2, 3, "pp")); // never received
        }
        ranks.push_back(d);
    }
    const Job job = build(ranks, { 0, 1, 2, 3, 4, 5, 6, 7 });
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "pp");
    INFO(describe(job, r));
    REQUIRE(pg.unmatchedP2p.size() == 2);
    CHECK(pg.unmatchedP2p[0].sender == 4);
    CHECK(pg.unmatchedP2p[0].receiver == 5);
    CHECK_FALSE(pg.unmatchedP2p[0].recvMissing);
    CHECK(job.entries[pg.unmatchedP2p[0].entry].state() == FrState::Scheduled);
    CHECK(pg.unmatchedP2p[1].sender == 6);
    CHECK(pg.unmatchedP2p[1].receiver == 7);
    CHECK(pg.unmatchedP2p[1].recvMissing);
}

TEST_CASE("a dead rank without a dump is reported among the ranks that dumped", "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r : { 0, 1, 3 }) {
        RankDump d;
        d.rank = r;
        d.ops = completed(5);
        d.ops.push_back(op(FrState::Scheduled));
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(4));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    CHECK(r.worldSize == 4); // from the peers' pg_config
    CHECK(r.ranksWithoutDump == std::vector<std::int32_t> { 2 });
    CHECK(pg.noDump == std::vector<std::int32_t> { 2 });
    CHECK(pg.stuckSeq == 6);
    CHECK(pg.at(2)->position == FrRankPosition::NoDump);
    CHECK(pg.mismatches.empty()); // fr_trace.py: "Missing dump files" and no analysis at all
}

TEST_CASE(
    "a rank stuck inside a collective its peers completed is told from one that never started",
    "[model][frmatch]")
{
    std::vector<RankDump> ranks;
    for (std::int32_t r = 0; r < 4; ++r) {
        RankDump d;
        d.rank = r;
        d.ops = completed(3);
        d.ops.push_back(op(r == 2 ? FrState::Started : FrState::Completed));
        if (r != 2)
            d.ops.push_back(op(FrState::Started));
        ranks.push_back(d);
    }
    const Job job = build(ranks, iota(4));
    const FrMatchResult r = job.match();
    const FrPgMatch& pg = pgNamed(job, r, "0");
    INFO(describe(job, r));
    CHECK(pg.stuckSeq == 4);
    CHECK(pg.at(2)->position == FrRankPosition::Started);
    CHECK(pg.at(0)->position == FrRankPosition::Completed);
    REQUIRE(r.firstStuck);
    CHECK(&r.pgs[*r.firstStuck] == &pg);
}

namespace {

// A job of `ranks` ranks with every kind of trouble at random: the world PG "0" and groups of
// four ("1", "2", …) run collectives and p2p pairs (2k ↔ 2k + 1); here and there a rank calls
// another op, size or dtype, skips a collective, stops early, is still running its last ops,
// lost its oldest records, posts a send nobody receives, or left no dump at all.
std::vector<RankDump> troubledJob(std::uint32_t seed, std::int32_t ranks, std::size_t opsPerRank)
{
    std::mt19937 rng(seed);
    auto chance = [&](unsigned perMille) { return rng() % 1000 < perMille; };
    std::vector<RankDump> out;
    for (std::int32_t r = 0; r < ranks; ++r) {
        if (chance(20))
            continue; // no dump
        RankDump d;
        d.rank = r;
        const std::int32_t group = r / 4;
        const std::string groupName = std::to_string(group + 1);
        std::vector<std::int32_t> groupMembers;
        for (std::int32_t m = group * 4; m < std::min(ranks, group * 4 + 4); ++m)
            groupMembers.push_back(m);
        d.pgs[groupName] = groupMembers;
        const std::int32_t peer = r ^ 1;
        const std::size_t count = chance(30) ? opsPerRank - rng() % 5 : opsPerRank;
        for (std::size_t i = 0; i < count; ++i) {
            const bool tail = i + 3 >= count;
            const FrState state = tail && chance(500) ? FrState(rng() % 4) : FrState::Completed;
            if (i % 7 == 3) {
                if (peer < ranks)
                    d.ops.push_back(
                        p2p(state, r % 2 == 0, r % 2 == 0 ? r : peer, r % 2 == 0 ? peer : r));
                continue;
            }
            if (chance(3))
                continue; // skips a collective
            Op o = op(state);
            if (i % 4 == 1)
                o.pg = groupName;
            if (chance(2))
                o.name = "nccl:broadcast";
            else if (chance(2))
                o.sizes = "[[2048]]";
            else if (chance(2))
                o.dtype = "BFloat16";
            d.ops.push_back(o);
        }
        if (chance(20) && peer < ranks && r % 2 == 0)
            d.ops.push_back(p2p(FrState::Scheduled, true, r, peer)); // nobody receives it
        if (chance(20))
            d.dropOldest = rng() % 20;
        out.push_back(d);
    }
    return out;
}

} // namespace

TEST_CASE("FR matching on 1, 2 or 7 threads gives the same result, mismatches of every kind "
          "included",
    "[model][frmatch]")
{
    // Small jobs (every PG matched by one thread) and large ones (the world PG's members
    // walked in shares, over several windows of seq ids).
    struct Case {
        std::int32_t ranks;
        std::size_t ops;
    };
    std::set<FrMismatchKind> kinds;
    std::size_t unmatchedP2p = 0;
    for (const Case c : { Case { 6, 40 }, Case { 13, 60 }, Case { 300, 900 } }) {
        for (std::uint32_t seed = 1; seed <= (c.ranks > 100 ? 2u : 12u); ++seed) {
            const Job job = build(troubledJob(seed, c.ranks, c.ops), iota(c.ranks));
            const FrMatchResult serial = job.match(1);
            const std::string expected = describe(job, serial);
            INFO("ranks " << c.ranks << " seed " << seed);
            CHECK(describe(job, job.match(2)) == expected);
            CHECK(describe(job, job.match(7)) == expected);
            for (const FrPgMatch& pg : serial.pgs) {
                for (const FrMismatch& m : pg.mismatches)
                    kinds.insert(m.kind);
                unmatchedP2p += pg.unmatchedP2p.size();
            }
        }
    }
    // The jobs do exercise every rule.
    CHECK(kinds.size() == 5);
    CHECK(unmatchedP2p > 0);
}

TEST_CASE(
    "FR matching on several threads does not depend on the order of the dumps", "[model][frmatch]")
{
    std::mt19937 rng(7);
    for (const std::int32_t ranks : { 9, 280 }) {
        std::vector<RankDump> dumps = troubledJob(3, ranks, ranks > 100 ? 500 : 50);
        const Job reference = build(dumps, iota(ranks));
        const std::string expected = describe(reference, reference.match(1));
        for (int shuffle = 0; shuffle < 3; ++shuffle) {
            std::shuffle(dumps.begin(), dumps.end(), rng);
            const Job job = build(dumps, iota(ranks));
            INFO("ranks " << ranks << " shuffle " << shuffle);
            CHECK(describe(job, job.match(2)) == expected);
        }
    }
}
