// `rankscope-cli why`: follow-up questions answered from the model, on the built-in sample
// (16 ranks, rank 7 stalled in its DataLoader and never entering ALLREDUCE #117).

#include "app/core/bundleloader.h"
#include "app/core/diagnosisrunner.h"
#include "app/core/whyrank.h"
#include "resources/embeddedresources.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;

namespace {

struct Sample {
    std::shared_ptr<const model::Bundle> bundle;
    model::Diagnosis diagnosis;
};

const Sample& sample()
{
    static const Sample s = [] {
        app::LoadRequest request;
        request.paths = { resources::samplesDirectory() + "/hung-allreduce" };
        auto loaded = app::loadBundle(request);
        REQUIRE(loaded.ok());
        auto diagnosis = app::diagnoseBundle(*loaded.value());
        REQUIRE(diagnosis.ok());
        return Sample { loaded.value(), diagnosis.value() };
    }();
    return s;
}

} // namespace

TEST_CASE("why --rank tells the initiating rank, a collateral rank and an absent one apart", "[why]")
{
    const Sample& s = sample();
    const std::string culprit = app::whyRankText(*s.bundle, s.diagnosis, 7);
    CHECK_THAT(culprit, Catch::Contains("Named by the verdict as the initiating rank"));
    CHECK_THAT(culprit, Catch::Contains("last enqueued #116, last completed #116"));
    CHECK_THAT(culprit, Catch::Contains("pyspy-rank7.txt"));

    const std::string victim = app::whyRankText(*s.bundle, s.diagnosis, 5);
    CHECK_THAT(victim, Catch::Contains("Collateral"));
    CHECK_THAT(victim, Catch::Contains("because of rank(s) 7"));
    CHECK_THAT(victim, Catch::Contains("timed out in #117"));

    const std::string absent = app::whyRankText(*s.bundle, s.diagnosis, 99);
    CHECK_THAT(absent, Catch::Contains("not in these logs"));
}

TEST_CASE("why --collective sorts the ranks by how far they got", "[why]")
{
    const Sample& s = sample();
    const auto ref = app::parseCollectiveRef("0:117");
    REQUIRE(ref);
    const std::string who = app::whoReachedText(*s.bundle, *ref);
    CHECK_THAT(who, Catch::Contains("never reached it: 1 [7]"));
    CHECK_THAT(who, Catch::Contains("entered it and timed out"));

    CHECK_THAT(app::whoReachedText(*s.bundle, { "no-such-pg", 1 }), Catch::Contains("No rank reported progress"));
}

TEST_CASE("a collective is named PG:SEQ, #SEQ or SEQ", "[why]")
{
    CHECK(app::parseCollectiveRef("3:117")->processGroup == "3");
    CHECK(app::parseCollectiveRef("3:117")->seq == 117);
    CHECK(app::parseCollectiveRef("117")->processGroup == "0");
    CHECK(app::parseCollectiveRef("#117")->seq == 117);
    CHECK(app::parseCollectiveRef("default_pg:#5")->processGroup == "default_pg");
    CHECK_FALSE(app::parseCollectiveRef("0:"));
    CHECK_FALSE(app::parseCollectiveRef(":5"));
    CHECK_FALSE(app::parseCollectiveRef("0:5x"));
    CHECK_FALSE(app::parseCollectiveRef("-3"));
}
