// Repeated findings of one rule fold into one finding with the ranks as a range.
#include "model/diagnosis/findinggroups.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

namespace {

Finding perRank(const std::string& rule, std::int32_t rank, double confidence = 0.8)
{
    Finding f;
    f.rule = rule;
    f.title = "torchrun names rank " + std::to_string(rank);
    f.ranks = { rank };
    f.confidence = confidence;
    f.explanation = "Rank " + std::to_string(rank) + " only went down with the job.";
    f.evidence.push_back({ EvidenceRef {}, "Root Cause: rank " + std::to_string(rank) });
    f.evidence.push_back({ EvidenceRef {}, "second line of rank " + std::to_string(rank) });
    return f;
}

} // namespace

TEST_CASE("many findings of one rule fold into one, in the first one's place", "[findinggroups]")
{
    std::vector<Finding> findings;
    findings.push_back(perRank("verdict.rule", 7, 0.9));
    findings.push_back(perRank("other.rule", 1));
    for (std::int32_t r = 8; r < 520; ++r)
        findings.push_back(perRank("launcher.collateral", r, r == 300 ? 0.95 : 0.8));
    findings.push_back(perRank("other.rule", 2));

    Knowledge k;
    k.rules["launcher.collateral"].groupTitle = "torchrun names {count} collateral ranks: {ranks}";
    foldRepeatedFindings(findings, k, true);

    REQUIRE(findings.size() == 4);
    CHECK(findings[0].rule == "verdict.rule");
    CHECK(findings[1].rule == "other.rule");
    const Finding& fold = findings[2];
    CHECK(fold.rule == "launcher.collateral");
    CHECK(fold.title == "torchrun names 512 collateral ranks: 8-519");
    CHECK(fold.ranks.size() == 512);
    CHECK(fold.confidence == Approx(0.95));
    REQUIRE(fold.evidence.size() == kFoldedEvidenceLines);
    CHECK(fold.evidence[0].text == "Root Cause: rank 8");
    CHECK(fold.evidence[1].text == "Root Cause: rank 9");
    CHECK_THAT(fold.explanation, Catch::Contains("512 ranks in all: 8-519"));
    CHECK(findings[3].rule == "other.rule");
}

TEST_CASE("the verdict's finding and small groups stay as they are", "[findinggroups]")
{
    std::vector<Finding> findings { perRank("a", 0), perRank("a", 1), perRank("a", 2), perRank("b", 3), perRank("b", 4) };
    foldRepeatedFindings(findings, Knowledge {}, true);
    // "a" has three findings but the first is the verdict's: two remain, under the threshold.
    CHECK(findings.size() == 5);

    foldRepeatedFindings(findings, Knowledge {}, false);
    REQUIRE(findings.size() == 3);
    CHECK(findings[0].title == "torchrun names rank 0 (and 2 more like it)");
    CHECK(findings[0].ranks == std::vector<std::int32_t> { 0, 1, 2 });
    CHECK(findings[0].evidence.size() == 6);
}
