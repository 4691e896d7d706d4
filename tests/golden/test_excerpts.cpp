// Pasted excerpts: the commonest input of all is one terminal's output, cut short, wrapped or
// prefixed by whatever collected it. Each case below is written from the mechanism that
// prints its lines (the PyTorch, NCCL or launcher source), not from a real thread, and the
// verdict it must get follows from that mechanism alone. Real threads are in tests/data/real.

#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace rankscope;

namespace {

struct Excerpt {
    const char* name;
    std::vector<std::pair<std::string, std::string>> files; // file name, text
    const char* status;
    const char* rootCause;
    std::vector<int> initiating;
};

nlohmann::json diagnoseExcerpt(const Excerpt& e)
{
    const fs::path dir = fs::temp_directory_path() / ("rankscope-excerpt-" + std::to_string(::getpid()) + "-" + e.name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& [name, text] : e.files)
        std::ofstream(dir / name, std::ios::binary) << text;
    app::LoadRequest request;
    request.paths = { dir.string() };
    request.threads = 1;
    auto bundle = app::loadBundle(request);
    fs::remove_all(dir);
    INFO((bundle.ok() ? std::string() : bundle.error().message));
    REQUIRE(bundle.ok());
    auto diagnosis = app::diagnoseBundle(*bundle.value(), 1);
    REQUIRE(diagnosis.ok());
    return app::diagnosisJson(*bundle.value(), diagnosis.value());
}

void checkExcerpt(const Excerpt& e)
{
    const nlohmann::json j = diagnoseExcerpt(e);
    const auto& v = j["verdict"];
    INFO(e.name << ": " << v.dump());
    CHECK(v["status"] == e.status);
    CHECK(v["root_cause_class"] == e.rootCause);
    std::vector<int> ranks;
    for (const auto& r : v["initiating_ranks"])
        ranks.push_back(r.get<int>());
    CHECK(ranks == e.initiating);
}

} // namespace

TEST_CASE("text of a format no parser reads is diagnosed inconclusive, not refused", "[golden][excerpts]")
{
    const Excerpt e { "unknown-format", { { "paste.txt", "hello\nthis is not a log of anything we read\n" } },
        "inconclusive", "unknown", {} };
    checkExcerpt(e);
    const auto j = diagnoseExcerpt(e);
    bool issue = false;
    for (const auto& i : j["import_issues"])
        issue = issue || i["kind"] == "nothing_recognised";
    CHECK(issue);
}

// Each row: the mechanism's own lines, as a user would paste them.
TEST_CASE("pasted excerpts get the verdict their mechanism supports", "[golden][excerpts]")
{
    const std::vector<Excerpt> excerpts = {
        // ≤2.1 ProcessGroupNCCL names the rank only inside the message ("[Rank 1] NCCL watchdog
        // thread terminated with exception"); an unprefixed paste has nothing else.
        { "old-watchdog-ecc",
            { { "paste.log",
                "[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800321 milliseconds before timing out.\n"
                "[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: CUDA error: "
                "uncorrectable ECC error encountered\n" } },
            "hang_diagnosed", "hardware_fault", { 1 } },
        // src/include/shm.h: posix_fallocate on a full /dev/shm is the node's limit, no rank's.
        { "shm-fallocate",
            { { "paste.log",
                "node7:2143:2561 [1] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device\n"
                "node7:2143:2561 [1] NCCL INFO include/shm.h:41 -> 2\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // nccl-tests' own table and data check: a benchmark that finished is a healthy run.
        { "nccl-tests-table",
            { { "paste.log",
                "   131072008      32768002     float     sum      -1   2604.6   50.32   96.45      0   2630.6   49.83   95.50      0\n"
                "   132120584      33030146     float     sum      -1   2644.1   49.97   95.77      0   2619.1   50.45   96.69      0\n"
                "# Out of bounds values : 0 OK\n"
                "# Avg bus bandwidth    : 84.8558\n" } },
            "no_hang_found", "none", {} },
        // A C++ logger warning that says a hang is *possible* is not a hang.
        { "device-unknown-warning",
            { { "paste.log",
                "[rank1]:[W712 17:30:52.153232081 ProcessGroupNCCL.cpp:4715] [PG ID 0 PG GUID 0 Rank 1]  using GPU 1 as "
                "device used by this process is currently unknown. This can potentially cause a hang if this rank to GPU "
                "mapping is incorrect.\n"
                "[rank0]:[W515 07:06:42.829549331 ProcessGroupNCCL.cpp:1117] WARNING: process group has NOT been "
                "destroyed before it is being destructed.\n" } },
            "no_hang_found", "none", {} },
        { "nccl-tests-wrong-results",
            { { "paste.log", "   1048576   262144   float   sum   -1   90.1   11.6   21.8   12   88.2   11.9   22.3   12\n"
                              "# Out of bounds values : 24 FAILED\n" } },
            "inconclusive", "unknown", {} },
    };
    for (const auto& e : excerpts) {
        DYNAMIC_SECTION(e.name)
        {
            checkExcerpt(e);
        }
    }
}
