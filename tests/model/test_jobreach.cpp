#include "model/jobreach.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace rankscope::model;

namespace {

Event eventAt(EventKind kind, std::int32_t rank, std::int64_t seconds, std::uint64_t line)
{
    Event e;
    e.kind = kind;
    e.rank = rank;
    e.time.ns = seconds * kNsPerSecond;
    e.time.domain = TimeDomain::LocalWall;
    e.time.precision = TimePrecision::Second;
    e.evidence.line = line;
    return e;
}

} // namespace

TEST_CASE("job reach gives the lowest and highest completed collective per process group",
    "[model][jobreach]")
{
    Bundle b;
    ProcessGroup pg;
    pg.key = b.strings.intern("0");
    pg.desc = b.strings.intern("default_pg");
    b.processGroups.push_back(pg);
    for (std::int32_t r = 0; r < 4; ++r) {
        RankProgress p;
        p.pg = pg.key;
        p.rank = r;
        p.lastCompleted = r == 2 ? 117 : 120;
        b.progress.push_back(p);
    }
    RankProgress silent; // enqueued but never reported a completion: not counted
    silent.pg = pg.key;
    silent.rank = 4;
    b.progress.push_back(silent);

    // Rank 5 only has a Flight Recorder dump: its pg_status counts too, and its entries'
    // completion times say when work was last done.
    FrDump dump;
    dump.globalRank = 5;
    dump.pgStatus.push_back({ pg.key, 119, 119, 118 });
    dump.firstEntry = 0;
    dump.entryCount = 1;
    FrEntry entry;
    entry.setTimes(1'700'000'000 * kNsPerSecond, 0, 1'700'000'001 * kNsPerSecond);
    b.frEntries.push_back(entry);
    b.frDumps.push_back(dump);

    const JobReach reach = measureReach(b);
    REQUIRE(reach.groups.size() == 1);
    CHECK(reach.groups[0].processGroup == "0");
    CHECK(reach.groups[0].description == "default_pg");
    CHECK(reach.groups[0].lastCompleted.ranks == 5);
    CHECK(reach.groups[0].lastCompleted.lowest == 117);
    CHECK(reach.groups[0].lastCompleted.lowestRank == 2);
    CHECK(reach.groups[0].lastCompleted.highest == 120);
    CHECK(reach.lastProgress.domain == TimeDomain::Utc);
    // Completion times are stored as gaps after creation, exact to a few parts per million.
    CHECK(std::abs(reach.lastProgress.ns - 1'700'000'001 * kNsPerSecond) < 1'000'000);
    CHECK(reach.lastProgressRank == 5);
}

TEST_CASE("job reach counts the signs of a hang and finds when progress was last seen",
    "[model][jobreach]")
{
    Bundle b;
    Event step0 = eventAt(EventKind::TrainingProgress, 0, 100, 1);
    step0.seq = 12;
    Event step1 = eventAt(EventKind::TrainingProgress, 1, 130, 2);
    step1.seq = 11;
    Event warn = eventAt(EventKind::NcclWarn, 1, 140, 3);
    warn.severity = Severity::Warning;
    Event inferred = eventAt(EventKind::TrainingProgress, 0, 500, 4); // time copied, not its own
    inferred.time.inferred = true;
    inferred.seq = 13;
    Event boot = eventAt(EventKind::GpuXid, -1, 900, 5); // seconds since boot: not comparable
    boot.time.domain = TimeDomain::HostBoot;
    b.events = { step0, step1, warn, inferred, boot };

    const JobReach reach = measureReach(b);
    CHECK(reach.trainingStep.ranks == 2);
    CHECK(reach.trainingStep.lowest == 11);
    CHECK(reach.trainingStep.lowestRank == 1);
    CHECK(reach.trainingStep.highest == 13);
    CHECK(reach.lastProgress.ns == 130 * kNsPerSecond);
    CHECK(reach.lastProgressRank == 1);
    CHECK(reach.lastProgressLine.line == 2);
    CHECK(reach.lastLine.ns == 140 * kNsPerSecond);

    REQUIRE_FALSE(reach.checked.empty());
    std::size_t timeouts = 99, nccl = 99, hardware = 99;
    for (const CheckedSignal& s : reach.checked) {
        if (s.what.find("timeout") != std::string_view::npos)
            timeouts = s.lines;
        if (s.what.find("NCCL") != std::string_view::npos)
            nccl = s.lines;
        if (s.what.find("Xid") != std::string_view::npos)
            hardware = s.lines;
    }
    CHECK(timeouts == 0);
    CHECK(nccl == 1);
    CHECK(hardware == 1);
}
