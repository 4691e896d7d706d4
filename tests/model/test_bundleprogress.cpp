#include "model/bundle.h"
#include "model/collectiveprogress.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <string>

using namespace rankscope::model;

namespace {

// Two process groups over `ranks` ranks, in the order buildProgress leaves them
// ((pg text, rank)), plus a duplicate record for one rank.
Bundle bundleWithProgress(int ranks)
{
    Bundle b;
    const StrId pg0 = b.strings.intern("0");
    const StrId pg1 = b.strings.intern("1");
    for (StrId pg : { pg0, pg1 })
        for (int r = 0; r < ranks; ++r) {
            RankProgress p;
            p.pg = pg;
            p.rank = r;
            p.lastCompleted = r * 10 + (pg == pg1 ? 1 : 0);
            b.progress.push_back(p);
        }
    RankProgress dup;
    dup.pg = pg1;
    dup.rank = 3;
    dup.lastCompleted = -7;
    b.progress.push_back(dup);
    return b;
}

} // namespace

TEST_CASE(
    "progress lookups by group and rank agree with and without the index", "[model][progress]")
{
    Bundle scanned = bundleWithProgress(50);
    Bundle indexed = bundleWithProgress(50);
    indexed.indexProgress();
    REQUIRE(indexed.progressByPgRank.size() == indexed.progress.size());
    REQUIRE(scanned.progressByPgRank.empty());
    const StrId pg1 = indexed.strings.find("1");
    for (const Bundle* b : { &scanned, &indexed }) {
        const RankProgress* p = b->progressOf(pg1, 3);
        REQUIRE(p);
        CHECK(p->lastCompleted == 31); // the first of the two records for rank 3
        CHECK(b->progressOf(pg1, 50) == nullptr);
        CHECK(b->progressOf(kNoStr, 3) == nullptr);
        const auto group = b->progressOf(pg1);
        REQUIRE(group.size() == 51);
        CHECK(group.front()->rank == 0);
        const auto ofRank = b->progressOfRank(3);
        REQUIRE(ofRank.size() == 3);
        CHECK(ofRank[0]->lastCompleted == 30);
        CHECK(ofRank[1]->lastCompleted == 31);
        CHECK(ofRank[2]->lastCompleted == -7);
        CHECK(b->progressOfRank(-1).empty());
    }
    // Same answers for every rank and group.
    const StrId pg0 = indexed.strings.find("0");
    for (int r = -1; r <= 51; ++r) {
        for (StrId pg : { pg0, pg1 }) {
            const RankProgress* a = scanned.progressOf(pg, r);
            const RankProgress* b = indexed.progressOf(pg, r);
            REQUIRE((a == nullptr) == (b == nullptr));
            if (a)
                CHECK(a->lastCompleted == b->lastCompleted);
        }
        CHECK(scanned.progressOfRank(r).size() == indexed.progressOfRank(r).size());
    }
}

TEST_CASE("fifty thousand process groups are lined up in linear time", "[model][progress]")
{
    // A job that creates a group per layer, micro-batch or expert (a status line and the init
    // options of each). Each group scanned every line and options record again, and the
    // diagnosis scanned every group to find each: 20,000 groups took 0.6 s here, 10^5 20 s.
    constexpr int kGroups = 50'000;
    Bundle b;
    for (int g = 0; g < kGroups; ++g) {
        const StrId pg = b.strings.intern(std::to_string(g + 1));
        ProcessGroupOptions o;
        o.pg = pg;
        o.size = 8;
        o.timeoutMs = 600'000 + g;
        b.pgOptions.push_back(o);
        Event e;
        e.kind = EventKind::TorchWatchdogStatus;
        e.rank = g % 8;
        e.pg = pg;
        e.detail = b.strings.intern("pg" + std::to_string(g + 1));
        e.seq = 50;
        e.lastEnqueued = 50;
        e.lastCompleted = 49;
        b.events.push_back(e);
    }

    const auto start = std::chrono::steady_clock::now();
    buildProgress(b);
    // The diagnosis then looks up every group that has progress.
    std::size_t found = 0;
    for (const RankProgress& p : b.progress)
        found += b.processGroup(p.pg) != nullptr;
    const auto took = std::chrono::steady_clock::now() - start;

    REQUIRE(b.processGroups.size() == kGroups);
    CHECK(found == kGroups);
    const ProcessGroup* g = b.processGroup(b.strings.find("12345"));
    REQUIRE(g);
    CHECK(b.text(g->desc) == "pg12345");
    CHECK(g->size == 8);
    CHECK(g->timeoutMs == 600'000 + 12344);
    CHECK(b.progress.size() == kGroups);
    CHECK(took < std::chrono::milliseconds(1500)); // about 0.3 s, and 5 s when quadratic
}

TEST_CASE("a timeout line naming no group joins the one group another rank names for its SeqNum", "[model][progress]")
{
    // "[Rank 4] Watchdog caught … WorkNCCL(SeqNum=55485 …)" with no group, and rank 5's
    // "[PG ID 1 …] failure detected by watchdog at work sequence id: 55485".
    auto build = [](bool bothGroupsNameIt) {
        Bundle b;
        const StrId pg0 = b.strings.intern("0");
        const StrId pg1 = b.strings.intern("1");
        Event timeout;
        timeout.kind = EventKind::TorchWatchdogTimeout;
        timeout.identity = 4;
        timeout.rank = 4;
        timeout.seq = 55485;
        timeout.timeoutMs = 600'000;
        b.events.push_back(timeout);
        Event status;
        status.kind = EventKind::TorchWatchdogStatus;
        status.identity = 5;
        status.rank = 5;
        status.pg = pg1;
        status.seq = 55485;
        status.lastEnqueued = 55487;
        status.lastCompleted = 55484;
        b.events.push_back(status);
        Event other = status;
        other.pg = pg0;
        other.seq = bothGroupsNameIt ? 55485 : 12;
        b.events.push_back(other);
        buildProgress(b);
        return b;
    };
    const Bundle named = build(false);
    const RankProgress* p = named.progressOf(named.strings.find("1"), 4);
    REQUIRE(p);
    CHECK(p->timeoutSeq == 55485);
    CHECK(named.progressOf(named.strings.find("0"), 4) == nullptr);
    // Both groups at that SeqNum: no guess.
    const Bundle ambiguous = build(true);
    CHECK(ambiguous.progressOf(ambiguous.strings.find("1"), 4) == nullptr);
    CHECK(ambiguous.progressOf(ambiguous.strings.find("0"), 4) == nullptr);
}
