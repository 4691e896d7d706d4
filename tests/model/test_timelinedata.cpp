// TimelineData from Flight Recorder dumps and NCCL COLL lines (issue 4 timeline, issue 6
// "FR entries give real per-collective times"): bundles built by hand, a few records each.

#include "model/timelinedata.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

namespace {

// A bundle of `n` ranks with one all_reduce call on PG "0" and one FR dump per listed rank.
struct FrBundle {
    Bundle b;
    std::uint32_t allReduce = 0;

    explicit FrBundle(std::int32_t n)
    {
        b.ranks.resize(static_cast<std::size_t>(n));
        for (std::int32_t r = 0; r < n; ++r)
            b.ranks[static_cast<std::size_t>(r)].rank = r;
        b.world.worldSize = n;
        b.yearKnown = true; // dated log lines: FR epoch times stay as they are
        FrCall call;
        call.pg = b.strings.intern("0");
        call.pgDesc = b.strings.intern("default_pg");
        call.profilingName = b.strings.intern("nccl:all_reduce");
        call.op = OpType::AllReduce;
        b.frCalls.push_back(call);
        ProcessGroup world;
        world.key = call.pg;
        world.isDefault = true;
        world.size = n;
        b.processGroups.push_back(world);
    }

    // Entries are (seq, state, created, started, completed) in ns; 0 = null in the dump.
    struct Op {
        std::int64_t seq;
        FrState state;
        std::int64_t created, started, completed;
    };
    void dump(std::int32_t rank, std::vector<Op> ops, std::int64_t lastEnqueued = -1)
    {
        FrDump d;
        d.globalRank = rank;
        d.firstEntry = static_cast<std::uint32_t>(b.frEntries.size());
        d.entryCount = static_cast<std::uint32_t>(ops.size());
        if (lastEnqueued >= 0)
            d.pgStatus.push_back({ b.strings.find("0"), lastEnqueued, -1, -1 });
        // Calls belong to one dump: each dump gets its own copy of the all-reduce.
        FrCall call = b.frCalls[allReduce];
        call.dump = static_cast<std::uint32_t>(b.frDumps.size());
        const auto callIndex = static_cast<std::uint32_t>(b.frCalls.size());
        b.frCalls.push_back(call);
        for (const Op& o : ops) {
            FrEntry e;
            e.call = callIndex;
            e.collectiveSeq = static_cast<std::int32_t>(o.seq);
            e.setState(o.state);
            e.setTimes(o.created, o.started, o.completed);
            b.frEntries.push_back(e);
        }
        b.frDumps.push_back(d);
    }
};

constexpr std::int64_t kT = 1'732'644'745'000'000'000; // an epoch in 2024, ns

} // namespace

TEST_CASE("Flight Recorder entries become bars from discovered start to discovered completion",
    "[model][timeline][fr]")
{
    FrBundle f(2);
    f.dump(0,
        { { 1, FrState::Completed, kT, kT + 1000, kT + 9000 },
            { 2, FrState::Started, kT + 20000, kT + 21000, 0 } });
    // Without timing there is no discovered start: the bar starts at creation.
    f.dump(1,
        { { 1, FrState::Completed, kT + 500, 0, kT + 9500 },
            { 2, FrState::Completed, kT + 22000, 0, kT + 40000 } });
    Diagnosis d;
    d.stuckCollective = StuckCollective { "0", OpType::AllReduce, 2 };
    const TimelineData t = TimelineData::build(f.b, d);

    REQUIRE(t.collectives(0).size() == 2);
    REQUIRE(t.collectives(1).size() == 2);
    const TimelineCollective& done = t.collectives(0)[0];
    CHECK(done.startNs == kT + 1000);
    CHECK(done.endNs == kT + 9000);
    CHECK(done.op == OpType::AllReduce);
    CHECK_FALSE(done.stillRunning);
    CHECK(t.collectives(1)[0].startNs == kT + 500);

    // Started and never completed: it runs to the end of what the bundle shows.
    const TimelineCollective& running = t.collectives(0)[1];
    CHECK(running.stillRunning);
    CHECK(running.startNs == kT + 21000);
    CHECK(running.endNs == kT + 40000);
    CHECK(running.stuck);
    CHECK_FALSE(done.stuck);

    CHECK(t.hasWallClock());
    CHECK(t.minTimeNs() == kT + 500);
    CHECK(t.maxTimeNs() == kT + 40000);

    // Visible-range search: bars ending before t are skipped.
    CHECK(t.firstCollectiveEndingAtOrAfter(0, kT) == 0);
    CHECK(t.firstCollectiveEndingAtOrAfter(0, kT + 9001) == 1);
    CHECK(t.firstCollectiveEndingAtOrAfter(1, kT + 40001) == 2);
}

TEST_CASE("FR entries put ops and progress on the sequence axis of ranks that logged nothing",
    "[model][timeline][fr]")
{
    FrBundle f(2);
    f.dump(0,
        { { 5, FrState::Completed, kT, kT, kT + 10 },
            { 6, FrState::Started, kT + 20, kT + 30, 0 } },
        7);
    f.dump(1, { { 5, FrState::Completed, kT, kT, kT + 10 } });
    const TimelineData t = TimelineData::build(f.b, Diagnosis {});

    const SeqAxis* axis = t.seqAxis(f.b.strings.find("0"));
    REQUIRE(axis);
    const SeqRow& r0 = axis->rows[0];
    CHECK(r0.lastCompleted == 5);
    CHECK(r0.lastEnqueued == 7); // pg_status knows more than the ring kept
    REQUIRE(r0.recent.size() == 2);
    CHECK(r0.recent[0] == std::make_pair(std::int64_t { 5 }, OpType::AllReduce));
    CHECK(r0.recent[1].first == 6);
    const SeqRow& r1 = axis->rows[1];
    CHECK(r1.lastCompleted == 5);
    CHECK(r1.lastEnqueued == 5);
    CHECK(axis->maxSeq == 7);
}

TEST_CASE("COLL lines give a rank without a PyTorch progress line its recent ops and last enqueued",
    "[model][timeline][coll]")
{
    FrBundle f(2); // no dumps: only logs
    Bundle& b = f.b;
    const StrId pg = b.strings.find("0");
    b.identityRank = { 0, 1 };
    const StrId commId = b.strings.intern("0x898b6d578585998c");
    for (std::uint32_t r = 0; r < 2; ++r) {
        CommInit c;
        c.identity = r;
        c.commPtr = b.strings.intern(r == 0 ? "0x5614942e7890" : "0x55d0c3a1f000");
        c.commId = commId;
        c.commRank = static_cast<std::int32_t>(r);
        c.nranks = 2;
        c.complete = true;
        b.commInits.push_back(c);
    }
    // Rank 0 timed out in #197 and said so; rank 1 (the straggler) printed nothing but its
    // COLL lines, the last with opCount 195 (seq 196).
    RankProgress p0;
    p0.rank = 0;
    p0.pg = pg;
    p0.lastEnqueued = 197;
    p0.lastCompleted = 196;
    p0.hasStatus = true;
    b.progress.push_back(p0);
    CollTrace tr;
    tr.identity = 1;
    tr.commPtr = b.commInits[1].commPtr;
    tr.nranks = 2;
    for (std::uint64_t op = 190; op <= 195; ++op) {
        CollCall c;
        c.opCount = op;
        c.op = op == 195 ? OpType::Broadcast : OpType::AllReduce;
        tr.tail.push_back(c);
    }
    tr.calls = tr.tail.size();
    b.collTraces.push_back(tr);

    const TimelineData t = TimelineData::build(b, Diagnosis {});
    const SeqAxis* axis = t.seqAxis(pg);
    REQUIRE(axis);
    const SeqRow& straggler = axis->rows[1];
    CHECK(straggler.lastEnqueued == 196);
    CHECK_FALSE(straggler.hasStatus);
    REQUIRE(straggler.recent.size() == 6);
    CHECK(straggler.recent.back() == std::make_pair(std::int64_t { 196 }, OpType::Broadcast));
    // The rank that logged its status keeps it.
    CHECK(axis->rows[0].lastEnqueued == 197);
    CHECK(axis->rows[0].recent.empty());
}

TEST_CASE("without dated log lines FR bars move into the year the year-less log lines were given",
    "[model][timeline][fr]")
{
    FrBundle f(1);
    f.b.yearKnown = false; // only "[E0919 14:19:39 …]"-style lines: filed under referenceYear
    f.b.referenceYear = 2000;
    f.dump(0, { { 1, FrState::Completed, kT, kT + 1000, kT + 9000 } });
    const TimelineData t = TimelineData::build(f.b, Diagnosis {});
    REQUIRE(t.collectives(0).size() == 1);
    const CivilTime dumped = civilFromNs(kT + 1000);
    const CivilTime shown = civilFromNs(t.collectives(0)[0].startNs);
    CHECK(shown.year == 2000);
    CHECK(shown.month == dumped.month);
    CHECK(shown.day == dumped.day);
    CHECK(shown.hour == dumped.hour);
    CHECK(shown.second == dumped.second);
    CHECK(shown.subsecondNs == dumped.subsecondNs);
    CHECK(t.collectives(0)[0].endNs - t.collectives(0)[0].startNs == 8000);
}

TEST_CASE("a still-running FR bar ends where its rank's own data ends, not at the bundle's end",
    "[model][timeline][fr]")
{
    FrBundle f(2);
    f.dump(0, { { 2, FrState::Started, kT, kT + 10, 0 } });
    f.dump(1, { { 2, FrState::Started, kT, kT + 20, 0 } });
    // Rank 0's watchdog timed out (and the process went down) long before rank 1's last line.
    Event timeout;
    timeout.kind = EventKind::TorchWatchdogTimeout;
    timeout.severity = Severity::Error;
    timeout.rank = 0;
    timeout.time.ns = kT + 600'000;
    timeout.time.domain = TimeDomain::LocalWall;
    timeout.time.precision = TimePrecision::Microsecond;
    f.b.events.push_back(timeout);
    Event late = timeout;
    late.rank = 1;
    late.time.ns = kT + 900'000;
    f.b.events.push_back(late);
    Event last = late;
    last.rank = -1; // a host-level line, on no rank's row
    last.kind = EventKind::Unknown;
    last.severity = Severity::Info;
    last.time.ns = kT + 5'000'000;
    f.b.events.push_back(last);
    const TimelineData t = TimelineData::build(f.b, Diagnosis {});
    REQUIRE(t.collectives(0).size() == 1);
    CHECK(t.collectives(0)[0].endNs == kT + 600'000);
    CHECK(t.collectives(1)[0].endNs == kT + 900'000);
}
