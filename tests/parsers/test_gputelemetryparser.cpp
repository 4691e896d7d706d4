// GpuTelemetryParser: nvidia-smi --query-gpu CSV and dcgmi dmon samples summarised per GPU
// ([formats 7.3]), through the real LogScanner.
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using testing::scan;
using testing::str;

namespace {

const model::GpuUtilSummary* gpu(const model::ParsedSource& p, std::int32_t index)
{
    for (const auto& g : p.gpuUtil)
        if (g.gpuIndex == index)
            return &g;
    return nullptr;
}

} // namespace

TEST_CASE("nvidia-smi CSV with header and units is summarised per GPU", "[parsers][gpu]")
{
    const auto p = scan(
        "timestamp, index, pci.bus_id, utilization.gpu [%], memory.used [MiB], power.draw [W]\n"
        "2025/07/05 15:01:02.123, 0, 00000000:7E:00.0, 56 %, 1234 MiB, 70.12 W\n"
        "2025/07/05 15:01:02.125, 1, 00000000:7F:00.0, 100 %, 40000 MiB, 71.00 W\n"
        "2025/07/05 15:01:03.123, 0, 00000000:7E:00.0, 100 %, 1234 MiB, 69.50 W\n"
        "2025/07/05 15:01:03.125, 1, 00000000:7F:00.0, 100 %, 40000 MiB, 70.00 W\n"
        "2025/07/05 15:01:04.123, 0, 00000000:7E:00.0, 0 %, 1234 MiB, 60.25 W\n"
        "2025/07/05 15:01:04.125, 1, 00000000:7F:00.0, 100 %, 40000 MiB, 72.00 W\n",
        "node1/nvidia-smi.csv");
    REQUIRE(p.gpuUtil.size() == 2);
    CHECK(p.events.empty()); // no event per sample
    const auto* g0 = gpu(p, 0);
    REQUIRE(g0);
    CHECK(str(p, g0->busId) == "0000:7e:00.0");
    CHECK(g0->samples == 3);
    CHECK(g0->lastUtilization == 0.f);
    CHECK(g0->minUtilization == 0.f);
    CHECK(g0->maxUtilization == 100.f);
    CHECK(g0->lastPowerWatts == Approx(60.25f));
    CHECK(g0->lastTime.domain == model::TimeDomain::LocalWall);
    CHECK(g0->lastTime.precision == model::TimePrecision::Millisecond);
    CHECK(model::formatTime(g0->lastTime) == "2025-07-05 15:01:04.123");
    CHECK(g0->evidence.line == 6);
    const auto* g1 = gpu(p, 1);
    REQUIRE(g1);
    CHECK(str(p, g1->busId) == "0000:7f:00.0");
    CHECK(g1->samples == 3);
    CHECK(g1->minUtilization == 100.f);
    CHECK(g1->maxUtilization == 100.f);
    CHECK(g1->lastPowerWatts == Approx(72.f));
    CHECK(p.issues.total() == 0);
}

TEST_CASE("nvidia-smi nounits rows and a later noheader run reuse the header", "[parsers][gpu]")
{
    const auto p = scan("timestamp, index, utilization.gpu, power.draw\n"
                        "2025/07/05 15:01:02.123, 0, 56, 70.12\n"
                        "some other output of the job script\n"
                        "2025/07/05 16:00:00.000, 0, 99, 300.5\n"
                        "2025/07/05 16:00:01.000, 0, 98, 301.5\n");
    REQUIRE(p.gpuUtil.size() == 1);
    const auto& g = p.gpuUtil[0];
    CHECK(g.gpuIndex == 0);
    CHECK(g.busId == model::kNoStr);
    CHECK(g.samples == 3);
    CHECK(g.minUtilization == 56.f);
    CHECK(g.maxUtilization == 99.f);
    CHECK(g.lastUtilization == 98.f);
    CHECK(g.lastPowerWatts == Approx(301.5f));
    CHECK(model::formatTime(g.lastTime) == "2025-07-05 16:00:01.000");
}

TEST_CASE("nvidia-smi [N/A] values are missing and a trailing N/A shows as -1", "[parsers][gpu]")
{
    const auto p = scan("timestamp, index, utilization.gpu [%], power.draw [W]\n"
                        "2025/07/05 15:01:02.123, 0, 100 %, 70.00 W\n"
                        "2025/07/05 15:01:03.123, 0, 40 %, [N/A]\n"
                        "2025/07/05 15:01:04.123, 0, [N/A], [Not Supported]\n");
    REQUIRE(p.gpuUtil.size() == 1);
    const auto& g = p.gpuUtil[0];
    CHECK(g.samples == 3);
    CHECK(g.minUtilization == 40.f);
    CHECK(g.maxUtilization == 100.f);
    CHECK(g.lastUtilization == -1.f);
    CHECK(g.lastPowerWatts == -1.f);
    CHECK(p.issues.count("bad_gpu_sample") == 0);
}

TEST_CASE("nvidia-smi columns in any order, keyed by bus id without an index", "[parsers][gpu]")
{
    const auto p = scan("pci.bus_id, name, utilization.gpu [%], timestamp\n"
                        "00000000:3B:00.0, NVIDIA H100 80GB HBM3, 12 %, 2025/07/05 15:01:02.123\n"
                        "00000000:3B:00.0, NVIDIA H100 80GB HBM3, 14 %, 2025/07/05 15:01:03.123\n"
                        "00000000:5E:00.0, NVIDIA H100 80GB HBM3, 0 %, 2025/07/05 15:01:03.124\n");
    REQUIRE(p.gpuUtil.size() == 2);
    CHECK(str(p, p.gpuUtil[0].busId) == "0000:3b:00.0");
    CHECK(p.gpuUtil[0].gpuIndex == -1);
    CHECK(p.gpuUtil[0].samples == 2);
    CHECK(p.gpuUtil[0].lastUtilization == 14.f);
    CHECK(p.gpuUtil[0].lastPowerWatts == -1.f); // no power column
    CHECK(str(p, p.gpuUtil[1].busId) == "0000:5e:00.0");
    CHECK(p.gpuUtil[1].maxUtilization == 0.f);
}

TEST_CASE("nvidia-smi rows before any header are bad samples, not summaries", "[parsers][gpu]")
{
    const auto p = scan("2025/07/05 15:01:02.123, 0, 56 %, 1234 MiB, 70.12 W\n"
                        "2025/07/05 15:01:03.123, 0, 57 %, 1234 MiB, 70.12 W\n");
    CHECK(p.gpuUtil.empty());
    CHECK(p.issues.count("bad_gpu_sample") == 2);
}

TEST_CASE(
    "malformed nvidia-smi rows are counted and the good ones still summarised", "[parsers][gpu]")
{
    const auto p = scan("timestamp, index, utilization.gpu [%], power.draw [W]\n"
                        "2025/07/05 15:01:02.123, 0, 50 %, 70.00 W\n"
                        "2025/07/05 15:01:03.123, 0, abc %, 70.00 W\n" // bad value
                        "2025/07/05 15:01:04.123, 0, 50 %\n" // torn row
                        "2025/07/05 15:01:05.123, 0, 250 %, 70.00 W\n" // impossible
                        "2025/13/45 99:01:05.123, 0, 20 %, 70.00 W\n" // bad time
                        "loss 1.0, step 2, lr 3, epoch 4\n" // not a row at all
                        "2025/07/05 15:01:06.123, 0, 60 %, 71.00 W\n");
    REQUIRE(p.gpuUtil.size() == 1);
    CHECK(p.gpuUtil[0].samples == 2);
    CHECK(p.gpuUtil[0].maxUtilization == 60.f);
    CHECK(p.issues.count("bad_gpu_sample") == 4);
}

TEST_CASE("dcgmi dmon with re-printed headers, unit lines and N/A", "[parsers][gpu]")
{
    const auto p = scan("#Entity   GPUTL   FBUSD   SMACT   SMOCC   TENSO   TMPTR   POWER\n"
                        "ID                                                        W\n"
                        "GPU 0     100     500     0.005   0.003   0.000   32      70.3\n"
                        "GPU 1     0       500     0.000   0.000   0.000   31      51.3\n"
                        "GPU-I 0   N/A     N/A     N/A     N/A     N/A     N/A     N/A\n"
                        "#Entity   GPUTL   FBUSD   SMACT   SMOCC   TENSO   TMPTR   POWER\n"
                        "ID\n"
                        "GPU 0     100     500     0.006   0.003   0.000   33      71.5\n"
                        "GPU 1     N/A     N/A     N/A     N/A     N/A     N/A     N/A\n",
        "node2/dcgmi.log");
    REQUIRE(p.gpuUtil.size() == 2);
    const auto* g0 = gpu(p, 0);
    REQUIRE(g0);
    CHECK(g0->samples == 2);
    CHECK(g0->minUtilization == 100.f);
    CHECK(g0->lastPowerWatts == Approx(71.5f));
    CHECK(g0->evidence.line == 8);
    const auto* g1 = gpu(p, 1);
    REQUIRE(g1);
    CHECK(g1->samples == 2);
    CHECK(g1->maxUtilization == 0.f);
    CHECK(g1->lastUtilization == -1.f);
    CHECK(g1->lastPowerWatts == -1.f);
    CHECK(p.issues.total() == 0);
}

TEST_CASE("dcgmi rows take the line's own time, else the stream's latest", "[parsers][gpu]")
{
    const auto p = scan("[2025-07-05 15:00:00] #Entity   GPUTL   POWER\n"
                        "[2025-07-05 15:00:01] GPU 0     7       60.0\n"
                        "GPU 0     9       61.0\n");
    REQUIRE(p.gpuUtil.size() == 1);
    const auto& g = p.gpuUtil[0];
    CHECK(g.samples == 2);
    CHECK(g.lastUtilization == 9.f);
    CHECK(model::formatTime(g.lastTime) == "2025-07-05 15:00:01");
    CHECK(g.lastTime.inferred);
}

TEST_CASE("dcgmi without GPUTL uses the graphics-active ratio as a percentage", "[parsers][gpu]")
{
    const auto p = scan("#Entity   GRACT   SMACT\n"
                        "ID\n"
                        "GPU 3     0.950   0.900\n"
                        "GPU 3     0.250   0.200\n");
    REQUIRE(p.gpuUtil.size() == 1);
    CHECK(p.gpuUtil[0].gpuIndex == 3);
    CHECK(p.gpuUtil[0].maxUtilization == Approx(95.f));
    CHECK(p.gpuUtil[0].lastUtilization == Approx(25.f));
}

TEST_CASE("malformed dcgmi GPU rows are bad samples", "[parsers][gpu]")
{
    const auto p = scan("#Entity   GPUTL   POWER\n"
                        "ID\n"
                        "GPU 0     10      60.0\n"
                        "GPU 0     10\n"
                        "GPU 0     x1      60.0\n"
                        "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1234)\n");
    REQUIRE(p.gpuUtil.size() == 1);
    CHECK(p.gpuUtil[0].samples == 1);
    CHECK(p.issues.count("bad_gpu_sample") == 2);
}

TEST_CASE(
    "pdsh-prefixed telemetry from two hosts gives one summary per host and GPU", "[parsers][gpu]")
{
    const auto p = scan("node1: timestamp, index, utilization.gpu [%]\n"
                        "node2: timestamp, index, utilization.gpu [%]\n"
                        "node1: 2025/07/05 15:01:02.123, 0, 100 %\n"
                        "node2: 2025/07/05 15:01:02.124, 0, 0 %\n"
                        "node1: 2025/07/05 15:01:03.123, 0, 100 %\n");
    REQUIRE(p.gpuUtil.size() == 2);
    CHECK(str(p, p.gpuUtil[0].host) == "node1");
    CHECK(p.gpuUtil[0].samples == 2);
    CHECK(p.gpuUtil[0].lastUtilization == 100.f);
    CHECK(str(p, p.gpuUtil[1].host) == "node2");
    CHECK(p.gpuUtil[1].samples == 1);
    CHECK(p.gpuUtil[1].lastUtilization == 0.f);
}

TEST_CASE("ordinary logs with commas, hashes and GPU words are not telemetry", "[parsers][gpu]")
{
    std::string text = "# this is a comment about utilization.gpu, power.draw and more\n"
                       "#0 all_reduce from pytorch/torch/distributed/distributed_c10d.py:2696\n"
                       "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1234)\n"
                       "[2024-07-25 06:36:18,293] torch.distributed: [WARNING] a, b, c\n"
                       "Epoch 1/10, loss 0.5, acc 0.9\n";
    text += std::string("\xff\xfe,\x00,#Entity\n", 13);
    text += "2025/07/05 15:01:02.123\n";
    const auto p = scan(text);
    CHECK(p.gpuUtil.empty());
    CHECK(p.issues.count("bad_gpu_sample") == 0);
}
