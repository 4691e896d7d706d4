// The editor outputs (SARIF, GNU error lines) and the walk they share with the JSON
// (app/core/findingwalk.h): who wrote each evidence line, the role it has in the verdict
// and the severity an editor shows for it.

#include "reportfixture.h"

#include "app/core/diagnosisgnu.h"
#include "app/core/diagnosissarif.h"
#include "app/core/findingwalk.h"

#include <nlohmann/json.hpp>

#include <sstream>

using namespace rankscope;

namespace {

std::string scenario(const std::string& name)
{
    return std::string(RANKSCOPE_TEST_DATA) + "/scenarios/" + name;
}

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace

TEST_CASE("the walk names the initiating pair's lines errors and collateral timeouts notes",
    "[editor]")
{
    const auto c = testing::loadAndDiagnose({ scenario("ib-pair-status12") });
    REQUIRE(c.diagnosis.stuckPair);
    const auto walked = app::walkFindings(*c.bundle, c.diagnosis);
    REQUIRE(walked.size() == c.diagnosis.findings.size());
    REQUIRE_FALSE(walked.empty());
    CHECK(walked[0].role == app::FindingRole::Initiating);
    CHECK(walked[0].rootCause == model::RootCauseClass::NetworkPair);
    REQUIRE_FALSE(walked[0].evidence.empty());
    for (const auto& e : walked[0].evidence) {
        CHECK((e.rank == 7 || e.rank == 8));
        CHECK(app::severityOf(e.role) == app::Severity::Error);
        REQUIRE(e.source);
        CHECK(app::editorPath(*e.source) == scenario("ib-pair-status12") + "/" + e.source->rootRelative);
    }
    // Rank 0 only timed out waiting: its watchdog line is a note wherever it is quoted.
    bool sawCollateral = false;
    for (const auto& w : walked)
        for (const auto& e : w.evidence)
            if (e.rank == 0) {
                sawCollateral = true;
                CHECK(e.role == app::FindingRole::Collateral);
                CHECK(app::severityOf(e.role) == app::Severity::Note);
            }
    CHECK(sawCollateral);
}

TEST_CASE("GNU output puts the verdict first and one file:line line per evidence line",
    "[editor]")
{
    const auto c = testing::loadAndDiagnose({ scenario("ib-pair-status12") });
    const auto lines = linesOf(app::diagnosisGnu(*c.bundle, c.diagnosis));
    REQUIRE(lines.size() > 2);
    CHECK_THAT(lines[0],
        Catch::StartsWith("rankscope-cli: error: Verdict: hang_diagnosed, network_pair (confidence "));
    CHECK_THAT(lines[1],
        Catch::StartsWith(scenario("ib-pair-status12") + "/train-0007.out:36: error: Link between rank 7")
            && Catch::Contains("[network_pair/network.ib_pair; rank 7]: NET/IB: Got completion"));
    std::size_t fixes = 0;
    for (const auto& line : lines) {
        CHECK(line.find('\t') == std::string::npos);
        if (line.find(": note: fix: ") != std::string::npos)
            ++fixes;
    }
    CHECK(fixes == c.diagnosis.findings[0].fix.size());
}

TEST_CASE("a run without a hang is one note in GNU and a SARIF log without results", "[editor]")
{
    const auto c = testing::loadAndDiagnose({ scenario("healthy-per-rank") });
    REQUIRE(c.diagnosis.status == model::DiagnosisStatus::NoHangFound);
    const auto lines = linesOf(app::diagnosisGnu(*c.bundle, c.diagnosis));
    REQUIRE(lines.size() == 1 + c.diagnosis.findings.size());
    CHECK_THAT(lines[0], Catch::StartsWith("rankscope-cli: note: Verdict: no_hang_found. "));
    const auto sarif = app::diagnosisSarif(*c.bundle, c.diagnosis);
    CHECK(sarif["version"] == "2.1.0");
    CHECK(sarif["runs"][0]["results"].size() == c.diagnosis.findings.size());
    CHECK(sarif["runs"][0]["properties"]["verdict"]["status"] == "no_hang_found");
}

TEST_CASE("SARIF results carry the class and rule, the level, the fix and every evidence line",
    "[editor]")
{
    const auto c = testing::loadAndDiagnose({ scenario("ib-pair-status12") });
    const auto sarif = app::diagnosisSarif(*c.bundle, c.diagnosis);
    const auto& run = sarif["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "rankscope-cli");
    CHECK(run["tool"]["driver"]["rules"][0]["id"] == "network_pair");
    const auto& first = run["results"][0];
    CHECK(first["ruleId"] == "network_pair/network.ib_pair");
    CHECK(first["level"] == "error");
    const std::string text = first["message"]["text"];
    CHECK_THAT(text, Catch::Contains("Verdict: hang_diagnosed, network_pair"));
    CHECK_THAT(text, Catch::Contains("Fix: " + c.diagnosis.findings[0].fix[0]));
    CHECK_THAT(text, Catch::Contains("Verify: " + model::verifyStepLine(c.diagnosis.findings[0].verify[0])));
    REQUIRE(first["locations"].size() == c.diagnosis.findings[0].evidence.size());
    const auto& where = first["locations"][0]["physicalLocation"];
    CHECK(where["artifactLocation"]["uri"] == "train-0007.out");
    CHECK(where["artifactLocation"]["uriBaseId"] == "BUNDLE_ROOT");
    CHECK(where["region"]["startLine"] == 36);
    const std::string base = run["originalUriBaseIds"]["BUNDLE_ROOT"]["uri"];
    CHECK_THAT(base, Catch::StartsWith("file:///") && Catch::EndsWith("/ib-pair-status12/"));
}
