#include "model/bundle.h"

#include <catch2/catch.hpp>

#include <random>

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
