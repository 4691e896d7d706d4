// Simulated hung jobs the accuracy bench once got wrong, regenerated in memory by the
// simulator and diagnosed through the whole load path. Only the verdict (status, class,
// initiating ranks, pair) is checked: in these jobs the launcher killed every rank before
// any watchdog printed the stuck SeqNum, so no bundle file could show it (unlike the checked-
// in golden scenarios, which also check the stuck collective).

#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"
#include "simulator.h"
#include "tools/evaluation/verdictcheck.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace rankscope;

namespace {

evaluation::VerdictScore diagnoseSimulated(const simulator::ScenarioOptions& o, const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("rankscope-simreg-" + name);
    fs::remove_all(dir);
    const simulator::Result generated = simulator::generate(o, dir);
    INFO(generated.error);
    REQUIRE(generated.ok);
    app::LoadRequest request;
    for (const auto& f : generated.files)
        if (f != "expected.json")
            request.paths.push_back((dir / f).string());
    request.threads = 1;
    auto bundle = app::loadBundle(request);
    REQUIRE(bundle.ok());
    auto diagnosis = app::diagnoseBundle(*bundle.value());
    REQUIRE(diagnosis.ok());
    std::ifstream in(dir / "expected.json");
    const auto expected = evaluation::parseExpected(nlohmann::json::parse(in, nullptr, false), name);
    REQUIRE(expected);
    const auto score = evaluation::scoreDiagnosis(*expected, app::diagnosisJson(*bundle.value(), diagnosis.value()));
    fs::remove_all(dir);
    return score;
}

std::string problems(const evaluation::VerdictScore& s)
{
    std::string out;
    for (const auto& p : s.problems)
        out += p + "; ";
    return out;
}

} // namespace

TEST_CASE("IB errors on both hosts from more ranks than one link has ends are configuration, even "
          "without a SeqNum (PyTorch 1.13)",
    "[golden][simulated][network]")
{
    // A wrong NCCL_IB_GID_INDEX: every cross-node ring edge fails at once on the first
    // collective; the ≤2.0 watchdog dies of the async error without naming a SeqNum and the
    // agents kill everyone, so only the spread of the errors says "configuration".
    simulator::ScenarioOptions o;
    o.scenario = "configuration";
    o.variant = "gid_mismatch";
    o.torch = "1.13";
    o.nccl = "2.18";
    o.layout = simulator::Layout::PerNode;
    o.ranks = 8;
    o.ranksPerNode = 4;
    for (std::uint64_t seed : { 1136u, 1139u }) {
        o.seed = seed;
        o.ncclDebug = seed == 1139u ? simulator::NcclDebug::Coll : simulator::NcclDebug::Info;
        o.torchrunSummary = seed == 1139u;
        o.dmesg = seed == 1136u;
        o.pyspy = true;
        const auto score = diagnoseSimulated(o, "gid-" + std::to_string(seed));
        INFO("seed " << seed << ": " << problems(score));
        CHECK(score.allOk());
        CHECK_FALSE(score.falseClaim);
    }
}

TEST_CASE("an IB link failing mid-run under PyTorch 2.0 is the pair, not configuration",
    "[golden][simulated][network]")
{
    // Only the two ends report; no status line says where the job was. Two failing ranks are
    // one link, however little the logs say about progress.
    simulator::ScenarioOptions o;
    o.scenario = "network_pair";
    o.variant = "async_error_last_error";
    o.torch = "2.0";
    o.ranks = 8;
    o.ranksPerNode = 4;
    o.steps = 12;
    o.layout = simulator::Layout::PerNode;
    o.seed = 61;
    const auto score = diagnoseSimulated(o, "pair-torch20");
    INFO(problems(score));
    CHECK(score.allOk());
}

TEST_CASE("IB errors on the first collective are configuration even when another group's "
          "collectives completed",
    "[golden][simulated][network]")
{
    // The world group times out in SeqNum 1 (last completed -1) while an intra-node group
    // keeps completing over NVLink: only the inter-node transport never worked.
    simulator::ScenarioOptions o;
    o.scenario = "configuration";
    o.variant = "gid_mismatch";
    o.torch = "2.7";
    o.nccl = "2.29";
    o.layout = simulator::Layout::PerNode;
    o.ranks = 8;
    o.ranksPerNode = 4;
    o.seed = 9135;
    o.ncclDebug = simulator::NcclDebug::Coll;
    o.torchrunSummary = true;
    const auto score = diagnoseSimulated(o, "gid-9135");
    INFO(problems(score));
    CHECK(score.allOk());
    CHECK_FALSE(score.falseClaim);
}

TEST_CASE("a rank that crashed and never timed out went first, whatever the borrowed clocks of "
          "clock-less timeout lines say",
    "[golden][simulated][crash]")
{
    // PyTorch ≤2.1 prints its watchdog lines without a time: they carry the time of an
    // earlier line of their stream, a lower bound that cannot order them after the crash.
    simulator::ScenarioOptions o;
    o.scenario = "rank_crashed";
    SECTION("Python exception, torch 2.0 under srun")
    {
        o.variant = "exception";
        o.torch = "2.0";
        o.nccl = "2.29";
        o.layout = simulator::Layout::SrunCombined;
        o.ranks = 24;
        o.ranksPerNode = 4;
        o.seed = 5054;
        o.dmesg = true;
    }
    SECTION("CUDA OOM, torch 1.13 per node with torchrun tables")
    {
        o.variant = "cuda_oom";
        o.torch = "1.13";
        o.nccl = "2.26";
        o.layout = simulator::Layout::PerNode;
        o.ranks = 8;
        o.ranksPerNode = 4;
        o.seed = 5057;
        o.torchrunSummary = true;
        o.tee = true;
    }
    const auto score = diagnoseSimulated(o, "crash-" + std::to_string(o.seed));
    INFO(problems(score));
    CHECK(score.allOk());
}
