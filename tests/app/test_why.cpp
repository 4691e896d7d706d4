// `rankscope-cli why`: follow-up questions answered from the model, on the built-in sample
// (16 ranks, rank 7 stalled in its DataLoader and never entering ALLREDUCE #117).

#include "app/core/bundleloader.h"
#include "app/core/diagnosisrunner.h"
#include "app/core/diagnosistext.h"
#include "app/core/explainline.h"
#include "app/core/followup.h"
#include "app/core/whyrank.h"
#include "resources/embeddedresources.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
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

TEST_CASE("why --pair says whether the verdict names the link and what lies between the two", "[why]")
{
    app::LoadRequest request;
    request.paths = { RANKSCOPE_TEST_DATA "/scenarios/ib-pair-status12" };
    auto loaded = app::loadBundle(request);
    REQUIRE(loaded.ok());
    auto diagnosis = app::diagnoseBundle(*loaded.value());
    REQUIRE(diagnosis.ok());
    REQUIRE(diagnosis.value().stuckPair);
    const auto [a, b] = *diagnosis.value().stuckPair;

    const std::string named = app::whyPairText(*loaded.value(), diagnosis.value(), b, a); // either order
    CHECK_THAT(named, Catch::Contains("The verdict names the link between them, by rule network.ib_pair"));
    CHECK_THAT(named, Catch::Contains("Different hosts"));
    CHECK_THAT(named, Catch::Contains("network errors one logged naming the other's address"));
    CHECK_THAT(named, Catch::Contains("train-0007.out:36"));
    CHECK_THAT(named, Catch::Contains("Findings that name both"));

    const std::string other = app::whyPairText(*loaded.value(), diagnosis.value(), 1, 2);
    CHECK_THAT(other, Catch::Contains("Not the pair the verdict names: that is"));
    CHECK_THAT(other, Catch::Contains("Same host"));
    CHECK_THAT(other, Catch::Contains("No line links these two ranks"));
    CHECK_THAT(other, !Catch::Contains("Findings that name both"));
}

TEST_CASE("a rank pair is two different ranks", "[why]")
{
    CHECK(app::parseRankPair("3,4") == std::pair<std::int32_t, std::int32_t> { 3, 4 });
    CHECK(app::parseRankPair("12-7") == std::pair<std::int32_t, std::int32_t> { 12, 7 });
    CHECK(app::parseRankPair("3, 4") == std::pair<std::int32_t, std::int32_t> { 3, 4 });
    CHECK_FALSE(app::parseRankPair("3"));
    CHECK_FALSE(app::parseRankPair("3,3"));
    CHECK_FALSE(app::parseRankPair("a,4"));
    CHECK_FALSE(app::parseRankPair("-1,4"));
}

TEST_CASE("a typed question becomes one of the follow-up questions", "[why]")
{
    using Kind = app::Question::Kind;
    struct Case {
        const char* text;
        Kind kind;
        std::int32_t rank;
        std::int32_t other;
    };
    for (const Case& c : { Case { "why not rank 5?", Kind::Rank, 5, -1 }, Case { "What was rank 12 doing?", Kind::Rank, 12, -1 },
             Case { "7", Kind::Rank, 7, -1 }, Case { "pair 3,4", Kind::Pair, 3, 4 }, Case { "ranks 3 and 4", Kind::Pair, 3, 4 },
             Case { "12-7", Kind::Pair, 12, 7 } }) {
        INFO(c.text);
        const auto q = app::parseQuestion(c.text);
        REQUIRE(q);
        CHECK(q->kind == c.kind);
        CHECK(q->rank == c.rank);
        CHECK(q->other == c.other);
    }
    const auto never = app::parseQuestion("which ranks never reached #117?");
    REQUIRE(never);
    CHECK(never->kind == Kind::Collective);
    CHECK(never->collective.processGroup == "0");
    CHECK(never->collective.seq == 117);
    const auto onPg = app::parseQuestion("collective 3:42");
    REQUIRE(onPg);
    CHECK(onPg->collective.processGroup == "3");
    CHECK(onPg->collective.seq == 42);
    const auto host = app::parseQuestion("host Node-3.cluster");
    REQUIRE(host);
    CHECK(host->kind == Kind::Host);
    CHECK(host->host == "Node-3.cluster");
    CHECK_FALSE(app::parseQuestion("why did it hang?"));
    CHECK_FALSE(app::parseQuestion(""));
}

TEST_CASE("the question box's answers are the why answers; a host lists its ranks", "[why]")
{
    const Sample& s = sample();
    const auto rank = app::parseQuestion("why rank 7?");
    REQUIRE(rank);
    CHECK(app::answerQuestion(*s.bundle, s.diagnosis, *rank) == app::whyRankText(*s.bundle, s.diagnosis, 7));
    const model::RankInfo* info = s.bundle->rankInfo(7);
    REQUIRE(info);
    const std::string host(s.bundle->text(info->host));
    const auto onHost = app::parseQuestion("host " + host);
    REQUIRE(onHost);
    const std::string text = app::answerQuestion(*s.bundle, s.diagnosis, *onHost);
    CHECK_THAT(text, Catch::Contains("Host " + host + ": 8 ranks"));
    CHECK_THAT(text, Catch::Contains("rank 7: named by the verdict"));
    CHECK_THAT(text, Catch::Contains("Findings that name its ranks"));
    CHECK_THAT(app::whyHostText(*s.bundle, s.diagnosis, "no-such-host"), Catch::Contains("Hosts seen:"));
}

TEST_CASE("the verdict says what its quoted messages do not mean, in the catalogue's words", "[why][explain]")
{
    const Sample& s = sample();
    const std::string text = app::diagnosisText(*s.bundle, s.diagnosis);
    const parsers::CatalogueEntry* watchdog = app::builtInErrorCatalogue()->find("c10d.watchdog_timeout");
    REQUIRE(watchdog);
    CHECK_THAT(text, Catch::Contains("What the quoted messages do not mean"));
    CHECK_THAT(text, Catch::Contains("(c10d.watchdog_timeout)"));
    // The first words of the catalogue's own "not_means", as the hub shows them.
    CHECK_THAT(text, Catch::Contains(watchdog->notMeans.substr(0, 40)));
    const std::string markdown = app::diagnosisMarkdown(*s.bundle, s.diagnosis);
    CHECK_THAT(markdown, Catch::Contains("### What the quoted messages do not mean"));
    CHECK_THAT(markdown, Catch::Contains(watchdog->notMeans));
}

TEST_CASE("why --rank agrees with the verdict on every test bundle", "[why]")
{
    namespace fs = std::filesystem;
    std::vector<fs::path> bundles;
    for (const char* root : { RANKSCOPE_TEST_DATA "/real", RANKSCOPE_TEST_DATA "/scenarios" })
        for (const auto& dir : fs::directory_iterator(root))
            if (dir.is_directory())
                bundles.push_back(dir.path());
    std::sort(bundles.begin(), bundles.end());
    REQUIRE(bundles.size() > 100);
    std::size_t asked = 0;
    for (const fs::path& bundle : bundles) {
        INFO(bundle.string());
        app::LoadRequest request;
        request.paths = { bundle.string() };
        request.hashInputs = false;
        auto loaded = app::loadBundle(request);
        if (!loaded)
            continue; // a bundle of nothing recognisable has no verdict to agree with
        auto diagnosis = app::diagnoseBundle(*loaded.value());
        REQUIRE(diagnosis.ok());
        const model::Diagnosis& d = diagnosis.value();
        for (std::int32_t r : d.initiatingRanks) {
            const std::string text = app::whyRankText(*loaded.value(), d, r);
            CHECK_THAT(text, Catch::Contains(d.stuckPair ? "one end of the stuck pair" : "the initiating rank")
                    || Catch::Contains("is not in these logs"));
            ++asked;
        }
        for (std::size_t i = 0; i < d.collateralRanks.size() && i < 3; ++i) {
            const std::int32_t r = d.collateralRanks[i];
            if (std::find(d.initiatingRanks.begin(), d.initiatingRanks.end(), r) != d.initiatingRanks.end())
                continue;
            CHECK_THAT(app::whyRankText(*loaded.value(), d, r), Catch::Contains("Collateral") || Catch::Contains("is not in these logs"));
            ++asked;
        }
        if (d.stuckPair)
            CHECK_THAT(app::whyPairText(*loaded.value(), d, d.stuckPair->first, d.stuckPair->second),
                Catch::Contains("The verdict names the link between them"));
    }
    CHECK(asked > 50);
}
