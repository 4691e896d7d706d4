// Flight Recorder bundles with no log lines at all (tests/data/fr, written by
// tools/frgen/frgen.py), through the real loader and diagnosis: the dumps alone must name
// the initiating rank, the stuck collective and the code location of the diverging call,
// whatever order the files are given in.

#include "app/core/diagnosisjson.h"
#include "app/core/bundlesourceaccess.h"
#include "app/core/diagnosistext.h"
#include "app/core/jsonexport.h"
#include "reportfixture.h"

#include <nlohmann/json.hpp>

#include "model/frdumptext.h"
#include "model/timepoint.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace rankscope;
using rankscope::testing::loadAndDiagnose;

namespace {

std::vector<std::string> dumpsOf(const std::string& dir, const std::vector<int>& ranks)
{
    std::vector<std::string> paths;
    for (const int r : ranks)
        paths.push_back(std::string(RANKSCOPE_TEST_DATA) + "/fr/" + dir + "/nccl_trace_rank_"
            + std::to_string(r));
    return paths;
}

nlohmann::json diagnosisOf(const std::vector<std::string>& paths)
{
    const auto c = loadAndDiagnose(paths);
    return app::diagnosisJson(*c.bundle, c.diagnosis);
}

const nlohmann::json& primaryFinding(const nlohmann::json& d)
{
    REQUIRE_FALSE(d["findings"].empty());
    return d["findings"][0];
}

} // namespace

TEST_CASE(
    "FR only: the rank that broadcast while the others all_reduce is the initiator, with its stack",
    "[app][fr]")
{
    const auto d = diagnosisOf(dumpsOf("scenarios/op_mismatch", { 0, 1, 2, 3 }));
    const auto& v = d["verdict"];
    CHECK(v["status"] == "hang_diagnosed");
    CHECK(v["root_cause_class"] == "collective_mismatch");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 2 }));
    REQUIRE(v["stuck_collective"].is_object());
    CHECK(v["stuck_collective"]["seq"] == 6);
    const auto& f = primaryFinding(d);
    CHECK(f["rule"] == "fr.mismatch");
    REQUIRE(f["code_location"].size() >= 3);
    CHECK(f["code_location"][0] == "torch/distributed/distributed_c10d.py:2380 in broadcast");
    CHECK(f["code_location"][2] == "/home/user/train.py:177 in eval_step");
    REQUIRE_FALSE(f["evidence"].empty());
    CHECK(
        f["evidence"][0]["text"].get<std::string>().find("nccl_trace_rank_2") != std::string::npos);
}

TEST_CASE("FR only: the verdict does not change with the order of the dump files", "[app][fr]")
{
    std::vector<int> order { 0, 1, 2, 3 };
    const auto reference = diagnosisOf(dumpsOf("scenarios/op_mismatch", order))["verdict"];
    for (const auto& permuted :
        { std::vector<int> { 2, 0, 1, 3 }, std::vector<int> { 3, 2, 1, 0 } }) {
        auto v = diagnosisOf(dumpsOf("scenarios/op_mismatch", permuted))["verdict"];
        CHECK(v["initiating_ranks"] == reference["initiating_ranks"]);
        CHECK(v["root_cause_class"] == reference["root_cause_class"]);
        CHECK(v["stuck_collective"] == reference["stuck_collective"]);
    }
}

TEST_CASE(
    "FR only: a rank that started a collective its peers completed is stuck inside it", "[app][fr]")
{
    const auto d = diagnosisOf(dumpsOf("scenarios/stuck_inside", { 0, 1, 2, 3 }));
    const auto& v = d["verdict"];
    CHECK(v["status"] == "hang_diagnosed");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 1 }));
    CHECK(v["stuck_collective"]["seq"] == 6);
    CHECK(primaryFinding(d)["rule"] == "fr.stuck_inside");
    for (const auto& r : d["ranks"])
        if (r["rank"] == 1)
            CHECK(r["state"] == "stuck_in_collective");
}

TEST_CASE(
    "FR only: the rank without a dump is the suspect while every other rank waits", "[app][fr]")
{
    // The C++ watchdog thread writes the dump even while Python is busy, so with nothing
    // showing the rank alive its missing dump says the process was gone ([formats 11] E).
    const auto d = diagnosisOf(dumpsOf("scenarios/no_dump", { 0, 1, 3 }));
    const auto& v = d["verdict"];
    CHECK(v["status"] == "hang_diagnosed");
    CHECK(v["root_cause_class"] == "rank_crashed");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 2 }));
    CHECK(v["stuck_collective"]["seq"] == 6);
    CHECK(primaryFinding(d)["rule"] == "fr.missing_dump");
}

TEST_CASE("FR only: with timing on, the rank that never started the collective its peers started "
          "is the initiator",
    "[app][fr]")
{
    const auto d = diagnosisOf(dumpsOf("scenarios/not_started", { 0, 1, 2, 3 }));
    const auto& v = d["verdict"];
    CHECK(v["status"] == "hang_diagnosed");
    CHECK(v["root_cause_class"] == "straggler_stall");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 2 }));
    CHECK(v["stuck_collective"]["seq"] == 6);
    CHECK(primaryFinding(d)["rule"] == "fr.not_started");
}

TEST_CASE("FR only: the one rank that issued a collective nobody else issued is the initiator",
    "[app][fr]")
{
    const auto d = diagnosisOf(dumpsOf("scenarios/extra_collective", { 0, 1, 2, 3 }));
    const auto& v = d["verdict"];
    CHECK(v["root_cause_class"] == "collective_mismatch");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 0 }));
    CHECK(v["stuck_collective"]["seq"] == 6);
    const auto& f = primaryFinding(d);
    CHECK(f["rule"] == "fr.mismatch");
    REQUIRE_FALSE(f["code_location"].empty());
    CHECK(f["code_location"][2] == "/home/user/train.py:177 in eval_step");
}

TEST_CASE("FR only: a send whose recv was never posted names the pair", "[app][fr]")
{
    const auto d = diagnosisOf(dumpsOf("scenarios/p2p_unmatched", { 0, 1, 2, 3 }));
    const auto& v = d["verdict"];
    CHECK(v["status"] == "hang_diagnosed");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 1 }));
    REQUIRE(v["stuck_pair"].is_array());
    CHECK(v["stuck_pair"] == nlohmann::json::array({ 0, 1 }));
    const auto& f = primaryFinding(d);
    CHECK(f["rule"] == "fr.p2p_unmatched");
    REQUIRE_FALSE(f["code_location"].empty());
    CHECK(f["code_location"][0] == "torch/distributed/distributed_c10d.py:1990 in send");
}

TEST_CASE(
    "FR only: the rank that took the eval path never entered the world all_reduce", "[app][fr]")
{
    const auto paths = dumpsOf("job4", { 0, 1, 2, 3 });
    const auto c = loadAndDiagnose(paths);
    const auto d = app::diagnosisJson(*c.bundle, c.diagnosis);
    const auto& v = d["verdict"];
    CHECK(v["root_cause_class"] == "straggler_stall");
    CHECK(v["initiating_ranks"] == nlohmann::json::array({ 3 }));
    CHECK(v["stuck_collective"]["seq"] == 4);
    CHECK(v["stuck_collective"]["process_group"] == "0");
    const auto& f = primaryFinding(d);
    CHECK(f["rule"] == "fr.never_entered");
    // Its last call is where it went instead: the eval step.
    REQUIRE(f["code_location"].size() >= 3);
    CHECK(f["code_location"][2] == "/home/user/train.py:177 in eval_step");
    // The text and Markdown renderings show the code location too.
    CHECK(app::diagnosisText(*c.bundle, c.diagnosis).find("Code location") != std::string::npos);
    CHECK(
        app::diagnosisMarkdown(*c.bundle, c.diagnosis).find("/home/user/train.py:177 in eval_step")
        != std::string::npos);
    const auto rendered = testing::renderAll(c, paths, false);
    CHECK(rendered.html.find("Code location") != std::string::npos);
    CHECK(rendered.markdown.find("/home/user/train.py:177 in eval_step") != std::string::npos);
}

TEST_CASE("year-less log lines take the year of the Flight Recorder dumps beside them", "[app][fr]")
{
    // fr-logs-straggler-torch26: PyTorch "[E0919 14:49:39…]" lines carry no year; the dumps
    // carry epoch times. Both must land on one time axis, not the logs in year 2000.
    const auto c = loadAndDiagnose(
        { std::string(RANKSCOPE_TEST_DATA) + "/scenarios/fr-logs-straggler-torch26" });
    const auto& b = *c.bundle;
    REQUIRE_FALSE(b.frEntries.empty());
    std::int64_t frNs = 0;
    for (const auto& e : b.frEntries)
        if (e.createdNs() > 0) {
            frNs = e.createdNs();
            break;
        }
    REQUIRE(frNs > 0);
    const int frYear = model::civilFromNs(frNs).year;
    CHECK(b.yearKnown);
    CHECK(b.referenceYear == frYear);
    std::size_t placed = 0;
    for (const auto& e : b.events) {
        if (e.time.domain != model::TimeDomain::LocalWall)
            continue;
        ++placed;
        // Same run: within two days of the dumps (local time zone offsets included).
        CHECK(std::llabs(e.time.ns - frNs) < 2LL * 86400 * 1'000'000'000LL);
    }
    CHECK(placed > 0);
}

TEST_CASE("a Flight Recorder dump opens as decoded entries and evidence points at the entry's line",
    "[app][fr]")
{
    const auto c = loadAndDiagnose(dumpsOf("scenarios/op_mismatch", { 0, 1, 2, 3 }));
    const model::Finding* mismatch = nullptr;
    for (const auto& f : c.diagnosis.findings)
        if (f.rule == "fr.mismatch")
            mismatch = &f;
    REQUIRE(mismatch);
    REQUIRE_FALSE(mismatch->evidence.empty());
    const model::EvidenceLine& ev = mismatch->evidence.front();
    REQUIRE(ev.ref.valid());
    CHECK(ev.ref.line >= model::kFrFirstEntryLine);

    app::BundleSourceAccess access(c.bundle);
    auto opened = access.open(ev.ref.source);
    REQUIRE(opened);
    const std::string text(opened.value()->bytes());
    CHECK(text.rfind("# Flight Recorder dump nccl_trace_rank_2", 0) == 0);
    // No raw pickle bytes: every byte is printable text or a newline.
    CHECK(std::none_of(text.begin(), text.end(), [](char ch) {
        return static_cast<unsigned char>(ch) < 0x20 && ch != '\n';
    }));
    // The evidence line is the diverging entry itself.
    std::size_t at = 0;
    for (std::uint64_t line = 1; line < ev.ref.line; ++line)
        at = text.find('\n', at) + 1;
    const std::string line = text.substr(at, text.find('\n', at) - at);
    CHECK(line.find("nccl:broadcast #6") != std::string::npos);
    CHECK(line.find("train.py:177 in eval_step") != std::string::npos);
    CHECK(ev.text.find("record_id") != std::string::npos);
}

TEST_CASE("FR only: the default group's pg_config gives the world size, so a missing dump shows",
    "[app][fr]")
{
    const auto all = loadAndDiagnose(dumpsOf("scenarios/op_mismatch", { 0, 1, 2, 3 }));
    REQUIRE(all.bundle->world.worldSize);
    CHECK(*all.bundle->world.worldSize == 4);
    const auto some = loadAndDiagnose(dumpsOf("scenarios/op_mismatch", { 0, 1, 3 }));
    REQUIRE(some.bundle->world.worldSize);
    CHECK(*some.bundle->world.worldSize == 4);
    CHECK(some.bundle->world.ranksMissing == std::vector<std::int32_t> { 2 });
}

TEST_CASE("FR only: each rank's last enqueued and completed come from its dump's pg_status",
    "[app][fr]")
{
    const auto d = diagnosisOf(dumpsOf("scenarios/op_mismatch", { 0, 1, 2, 3 }));
    REQUIRE(d["ranks"].size() == 4);
    const auto& stuck = d["verdict"]["stuck_collective"];
    REQUIRE(stuck.is_object());
    for (const auto& r : d["ranks"]) {
        INFO("rank " << r["rank"]);
        REQUIRE(r["last_enqueued"].is_number());
        REQUIRE(r["last_completed"].is_number());
        // Everyone enqueued the stuck collective (#6) and completed the one before it.
        CHECK(r["last_enqueued"] == stuck["seq"]);
        CHECK(r["last_completed"].get<int>() == stuck["seq"].get<int>() - 1);
    }
}

TEST_CASE("FR only: a job dumped while every rank was inside the same collective is no hang, and "
          "no rank is called stuck",
    "[app][fr]")
{
    // Four dumps written by `rankscope_bench_fr --write tests/data/fr/snapshot --ranks 4
    // --entries 20`: every rank completed #1–#19 and had started #20 when it dumped, no
    // timeout anywhere. That is a snapshot of a running job.
    const auto d = diagnosisOf(dumpsOf("snapshot", { 0, 1, 2, 3 }));
    CHECK(d["verdict"]["status"] == "no_hang_found");
    REQUIRE(d["ranks"].size() == 4);
    for (const auto& r : d["ranks"]) {
        CHECK(r["state"] == "healthy");
        CHECK(r["last_enqueued"] == 20);
        CHECK(r["last_completed"] == 19);
    }
}

namespace {

// scenarios/stuck_inside ranks 0-2 (rank 1 stuck inside #6) with collateral rank 3's dump
// broken one way (tests/data/fr/collateral/<name>, written by tools/frgen/frgen.py).
std::vector<std::string> withBrokenCollateral(const std::string& name)
{
    auto paths = dumpsOf("scenarios/stuck_inside", { 0, 1, 2 });
    paths.push_back(std::string(RANKSCOPE_TEST_DATA) + "/fr/collateral/" + name + "/nccl_trace_rank_3");
    return paths;
}

const std::vector<std::string> kBrokenDumps = { "entries_empty", "entries_none", "entries_dict",
    "entries_missing", "negative_seq", "cut_short" };

} // namespace

TEST_CASE("FR only: a collateral rank's broken dump is an import issue and rank 1 stays stuck",
    "[app][fr][hostile]")
{
    for (const std::string& name : kBrokenDumps) {
        INFO(name);
        const auto c = loadAndDiagnose(withBrokenCollateral(name));
        CHECK(c.bundle->issues.count("bad_flight_recorder_dump") >= 1);
        const auto d = app::diagnosisJson(*c.bundle, c.diagnosis);
        const auto& v = d["verdict"];
        CHECK(v["status"] == "hang_diagnosed");
        CHECK(v["initiating_ranks"] == nlohmann::json::array({ 1 }));
        CHECK(v["stuck_collective"]["seq"] == 6);
        CHECK(primaryFinding(d)["rule"] == "fr.stuck_inside");
        for (const auto& r : d["ranks"])
            if (r["rank"] == 3)
                CHECK(r["state"] != "never_entered");
    }
}

TEST_CASE("FR only: a broken dump alone is inconclusive, never no hang found", "[app][fr][hostile]")
{
    for (const std::string& name : kBrokenDumps) {
        INFO(name);
        const auto c = loadAndDiagnose({ std::string(RANKSCOPE_TEST_DATA) + "/fr/collateral/"
            + name + "/nccl_trace_rank_3" });
        CHECK(c.bundle->issues.count("bad_flight_recorder_dump") >= 1);
        CHECK(app::diagnosisJson(*c.bundle, c.diagnosis)["verdict"]["status"] == "inconclusive");
    }
}

TEST_CASE("FR only: dumps in pickle protocols 0 and 1 are read as dumps, not as text",
    "[app][fr]")
{
    for (const std::string dir : { "scenarios/stuck_inside_p0", "scenarios/stuck_inside_p1" }) {
        INFO(dir);
        const auto c = loadAndDiagnose(dumpsOf(dir, { 0, 1, 2, 3 }));
        CHECK(c.bundle->frDumps.size() == 4);
        CHECK(c.bundle->issues.count("bad_flight_recorder_dump") == 0);
        const auto d = app::diagnosisJson(*c.bundle, c.diagnosis);
        CHECK(d["verdict"]["status"] == "hang_diagnosed");
        CHECK(d["verdict"]["initiating_ranks"] == nlohmann::json::array({ 1 }));
        CHECK(primaryFinding(d)["rule"] == "fr.stuck_inside");
    }
}

TEST_CASE("FR only: a dump named for rank 999999999 is not believed and sizes nothing",
    "[app][fr][hostile]")
{
    const auto dir = std::filesystem::temp_directory_path() / "rankscope-fr-rank-999999999";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const int r : { 0, 1, 2 })
        std::filesystem::copy_file(dumpsOf("scenarios/stuck_inside", { r })[0],
            dir / ("nccl_trace_rank_" + std::to_string(r)));
    std::filesystem::copy_file(
        dumpsOf("scenarios/stuck_inside", { 3 })[0], dir / "nccl_trace_rank_999999999");
    const auto c = loadAndDiagnose({ dir.string() });
    // Not believed (the file name's number is out of any credible range): no rank table or
    // match table is sized by it, and no dump is matched as that rank.
    CHECK(c.bundle->ranks.size() <= 8);
    for (const auto& dump : c.bundle->frDumps)
        CHECK(dump.globalRank < 8);
    const auto d = app::diagnosisJson(*c.bundle, c.diagnosis);
    CHECK(app::dumpJson(d).size() < 64 * 1024);
    CHECK(d["verdict"]["initiating_ranks"] == nlohmann::json::array({ 1 }));
    std::filesystem::remove_all(dir);
}
