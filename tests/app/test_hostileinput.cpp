// Hostile and broken input through the whole application path (load, diagnose, the JSON
// outputs): no crash, no allocation sized by what a line claims, no exception out of the
// loader or the diagnosis.

#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"
#include "app/core/jsonexport.h"

#include <catch2/catch.hpp>

#include <malloc.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace rankscope;

namespace {

std::filesystem::path scratchDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() / ("rankscope-hostile-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

void writeFile(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string watchdogLine(const std::string& rank)
{
    return "[rank" + rank + "]:[E ProcessGroupNCCL.cpp:616] [Rank " + rank
        + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, "
          "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600005 milliseconds before "
          "timing out.\n";
}

// The process's address space in bytes (VmSize), 0 when unknown.
std::uint64_t addressSpaceBytes()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("VmSize:")) {
            std::istringstream fields(line.substr(7));
            std::uint64_t kib = 0;
            fields >> kib;
            return kib << 10;
        }
    return 0;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

} // namespace

TEST_CASE("claimed world sizes and ranks far beyond the bundle load and diagnose in kilobytes",
    "[app][hostile]")
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        { "nccl-nranks-1e7",
            "ip-10-0-20-78:45:197 [5] NCCL INFO ncclCommInitRank comm 0x15c430c0 rank 5 nranks "
            "10000000 cudaDev 2 nvmlDev 2 busId 4c000 commId 0x9b63f1ac43bdb30e - Init START\n"
                + watchdogLine("3") },
        { "nccl-nranks-1e9",
            "ip-10-0-20-78:45:197 [5] NCCL INFO ncclCommInitRank comm 0x15c430c0 rank 5 nranks "
            "1000000000 cudaDev 2 nvmlDev 2 busId 4c000 commId 0x9b63f1ac43bdb30e - Init START\n"
                + watchdogLine("3") },
        { "rank-prefix-999999999", watchdogLine("999999999") },
        { "pg-size-999999999",
            "[rank2]:[I0319 05:29:20.544000181 ProcessGroupNCCL.cpp:852] [PG 0 (default_pg) "
            "Rank 2] ProcessGroupNCCL initialization options: size: 999999999, global rank: 2, "
            "TIMEOUT(ms): 1800000, USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, "
            "PG Name: 0\n"
                + watchdogLine("2") },
        { "torchrun-local-rank-999999999",
            "E0205 05:18:46.196000 155 site-packages/torch/distributed/elastic/multiprocessing/"
            "api.py:869] failed (exitcode: -6) local_rank: 999999999 (pid: 173) of binary: "
            "/usr/bin/python\n" },
    };
    for (const auto& [name, text] : cases) {
        INFO(name);
        const auto dir = scratchDir(name);
        writeFile(dir / "train.out", text);
        app::LoadRequest request;
        request.paths = { dir.string() };
        request.threads = 1;
        auto loaded = app::loadBundle(request);
        REQUIRE(loaded);
        const model::Bundle& b = *loaded.value();
        CHECK(b.ranks.size() <= 8);
        CHECK(b.issues.count("world_size_not_believed") + b.issues.count("rank_out_of_range") >= 1);
        auto diagnosis = app::diagnoseBundle(b, 1);
        REQUIRE(diagnosis);
        CHECK(app::dumpJson(app::summaryJson(b)).size() < 16 * 1024);
        CHECK(app::dumpJson(app::diagnosisJson(b, diagnosis.value())).size() < 16 * 1024);
        std::filesystem::remove_all(dir);
    }
}

TEST_CASE("1024 threads asked for where the system gives a few load and diagnose on those",
    "[app][hostile]")
{
    // An address space limit leaves room for a few thread stacks only, so creating the 1024
    // threads fails part way (std::system_error), as under ulimit -u or a container's
    // pids.max; that used to abort the program. ASan reserves terabytes of address space.
    if (kAddressSanitizer) {
        WARN("skipped: the address space limit cannot be set under AddressSanitizer");
        return;
    }
    const std::string scenario
        = std::string(RANKSCOPE_TEST_DATA) + "/scenarios/fr-logs-ib-pair-json";
    const std::uint64_t used = addressSpaceBytes();
    REQUIRE(used > 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // One malloc arena: glibc reserves 64 MB of address space per arena a new thread
        // touches, which would make the outcome depend on how the threads were scheduled.
        mallopt(M_ARENA_MAX, 1);
        const rlimit limit { used + (384u << 20), used + (384u << 20) };
        if (setrlimit(RLIMIT_AS, &limit) != 0)
            _exit(10);
        app::LoadRequest request;
        request.paths = { scenario };
        request.threads = 1024;
        auto loaded = app::loadBundle(request);
        if (!loaded)
            _exit(11);
        if (loaded.value()->frDumps.empty())
            _exit(12); // the diagnosis would not start the matcher's threads
        auto diagnosis = app::diagnoseBundle(*loaded.value(), 1024);
        _exit(diagnosis ? 0 : 13);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    INFO("child status " << status);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
