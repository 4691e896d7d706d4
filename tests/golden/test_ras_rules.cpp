// NCCL RAS reports through the whole load + diagnose path: ranks RAS lists as behind are the
// suspects, ranks it lists as ahead never are, and a process RAS declares dead is tied to
// its rank through the NCCL "host:pid" headers of the logs.

#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace fs = std::filesystem;
using namespace rankscope;

namespace {

// A bundle written to a fresh temporary folder: file name → content.
nlohmann::json diagnoseFiles(const std::string& name, const std::map<std::string, std::string>& files)
{
    const fs::path dir = fs::temp_directory_path() / ("rankscope-ras-" + name);
    fs::remove_all(dir);
    for (const auto& [path, text] : files) {
        fs::create_directories((dir / path).parent_path());
        std::ofstream(dir / path, std::ios::binary) << text;
    }
    app::LoadRequest request;
    request.paths = { dir.string() };
    request.threads = 1;
    auto bundle = app::loadBundle(request);
    REQUIRE(bundle.ok());
    auto diagnosis = app::diagnoseBundle(*bundle.value());
    REQUIRE(diagnosis.ok());
    nlohmann::json out = app::diagnosisJson(*bundle.value(), diagnosis.value());
    fs::remove_all(dir);
    return out;
}

std::vector<std::int32_t> initiating(const nlohmann::json& d)
{
    return d["verdict"]["initiating_ranks"].get<std::vector<std::int32_t>>();
}

bool hasRule(const nlohmann::json& d, const std::string& rule)
{
    for (const auto& f : d["findings"])
        if (f["rule"] == rule)
            return true;
    return false;
}

const char* const kBehindReport = R"(NCCL version 2.24.3+cuda12.2 compiled with CUDA 12.2

Warnings
========

#0-0 (27a079b828ff1a75) MISMATCH
  Communicator ranks have different collective operation counts
  26 ranks have launched up to operation 6650
  2 ranks have launched up to operation 6649
  Rank 5 -- GPU 5 managed by process 483077 on node 172.16.64.210
  Rank 7 -- GPU 7 managed by process 483079 on node 172.16.64.210
)";

const char* const kAheadReport = R"(NCCL version 2.26.2 compiled with CUDA 12.6

Warnings
========

#0-0 (fa93daea854b060b) MISMATCH
  Communicator ranks have different AllGather operation counts
  6 ranks have launched up to operation 640
  2 ranks have launched up to operation 641
  Rank 2 -- GPU 2 managed by process 4202 on node node-01
  Rank 3 -- GPU 3 managed by process 4203 on node node-01
)";

// A rank's log: its NCCL init line (ties host:pid to the rank) and, unless it is the silent
// one, the watchdog timeout every healthy rank prints.
std::string rankLog(int rank, const std::string& host, int pid, bool timesOut)
{
    std::string log = host + ":" + std::to_string(pid) + ":" + std::to_string(pid + 90) + " [" + std::to_string(rank % 4)
        + "] NCCL INFO comm 0x55d0a1b2c3d0 rank " + std::to_string(rank) + " nranks 8 cudaDev " + std::to_string(rank % 4)
        + " busId " + std::to_string(rank % 4 + 1) + "b000 commId 0x7c1e2f3a4b5c6d7e - Init COMPLETE\n";
    if (timesOut)
        log += "[rank" + std::to_string(rank) + "]:[E0108 22:31:18.778696279 ProcessGroupNCCL.cpp:607] [Rank "
            + std::to_string(rank)
            + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=641, OpType=ALLGATHER, NumelIn=4096, "
              "NumelOut=32768, Timeout(ms)=600000) ran for 600021 milliseconds before timing out.\n";
    return log;
}

std::map<std::string, std::string> eightRanks(int silentRank)
{
    std::map<std::string, std::string> files;
    for (int r = 0; r < 8; ++r) {
        const std::string host = r < 4 ? "node-01" : "node-02";
        files["logs/rank" + std::to_string(r) + ".log"] = rankLog(r, host, 4200 + r, r != silentRank);
    }
    return files;
}

} // namespace

TEST_CASE("RAS alone: the ranks listed behind the majority count are the suspects", "[golden][ras]")
{
    const auto d = diagnoseFiles("behind", { { "ncclras.txt", kBehindReport } });
    CHECK(d["verdict"]["status"] == "hang_diagnosed");
    CHECK(d["verdict"]["root_cause_class"] == "straggler_stall");
    CHECK(initiating(d) == std::vector<std::int32_t> { 5, 7 });
    CHECK(hasRule(d, "ras.count_behind"));
}

TEST_CASE("RAS listing ranks ahead of the rest never names them, even with the logs", "[golden][ras]")
{
    auto files = eightRanks(-1);
    // Ranks 2 and 3 launched ALLGATHER 641 and wait in it; they time out like the others.
    files["ncclras.txt"] = kAheadReport;
    const auto d = diagnoseFiles("ahead", files);
    const auto named = initiating(d);
    CHECK(std::find(named.begin(), named.end(), 2) == named.end());
    CHECK(std::find(named.begin(), named.end(), 3) == named.end());
    CHECK(hasRule(d, "ras.count_ahead"));
    CHECK(d["verdict"]["status"] != "no_hang_found");
}

TEST_CASE("a process RAS declares dead is tied to its rank through host and pid", "[golden][ras]")
{
    auto files = eightRanks(6);
    files["ncclras.txt"] = "Errors\n======\n\nDEAD\n  1 job process is considered dead (unreachable via the RAS network)\n"
                           "  Process 4206 on node node-02 managing GPU 2\n";
    const auto d = diagnoseFiles("dead", files);
    CHECK(d["verdict"]["status"] == "hang_diagnosed");
    CHECK(initiating(d) == std::vector<std::int32_t> { 6 });
    CHECK(d["verdict"]["root_cause_class"] == "rank_crashed");
    CHECK(hasRule(d, "ras.dead_process"));
}

TEST_CASE("a dead process the logs cannot tie to a rank is reported, not guessed", "[golden][ras]")
{
    auto files = eightRanks(-1);
    files["ncclras.txt"] = "Errors\n======\n\nDEAD\n  1 job process is considered dead (unreachable via the RAS network)\n"
                           "  Process 999 on node 10.9.9.9 managing GPU 0\n";
    const auto d = diagnoseFiles("dead-unmapped", files);
    CHECK(hasRule(d, "ras.dead_unmapped"));
    CHECK_FALSE(hasRule(d, "ras.dead_process"));
}
