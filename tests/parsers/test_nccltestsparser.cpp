// nccl-tests' own checks of CUDA and NCCL calls (src/common.h CUDACHECK / NCCLCHECK).

#include "scanhelpers.h"

#include <catch2/catch.hpp>

using namespace rankscope;
using testing::eventsOf;
using testing::str;

TEST_CASE("nccl-tests' failed CUDA and NCCL checks are read with their words", "[parsers][nccltests]")
{
    const auto p = testing::scan("g0010: Test CUDA failure common.cu:941 'invalid device ordinal'\n"
                                 " .. g0010 pid 888386: Test failure common.cu:891\n"
                                 "Cuda failure common.cu:891 'CUDA driver version is insufficient for CUDA runtime version'\n"
                                 "node3: Test NCCL failure common.cu:1005 'unhandled system error'\n");
    const auto failures = eventsOf(p, model::EventKind::NcclTestsFailure);
    REQUIRE(failures.size() == 3);
    CHECK(str(p, failures[0]->text) == "invalid device ordinal");
    CHECK(str(p, failures[0]->detail) == "cuda");
    CHECK(failures[1]->severity == model::Severity::Error);
    CHECK(str(p, failures[1]->text) == "CUDA driver version is insufficient for CUDA runtime version");
    CHECK(str(p, failures[2]->detail) == "nccl");
}

TEST_CASE("lines that only look like nccl-tests' checks are not its failures", "[parsers][nccltests]")
{
    // NCCL's own allocation WARN names no tests source file; a Python file is not the tests'.
    const auto p = testing::scan("host:1:2 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'\n"
                                 "Cuda failure train.py:12 'something'\n"
                                 "Test CUDA failure common.cu 'no line number'\n");
    CHECK(eventsOf(p, model::EventKind::NcclTestsFailure).empty());
}

TEST_CASE("nccl-tests' banner or summary printed twice at once is read as separate worlds", "[parsers][nccltests]")
{
    // Two processes, each rank 0 of its own world, print their banners back to back.
    const auto banners = testing::scan(
        "# nThread 1 nGpus 8 minBytes 1073741824 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
        "#\n"
        "# Using devices\n"
        "# nThread 1 nGpus 8 minBytes 1073741824 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n");
    const auto again = eventsOf(banners, model::EventKind::NcclTestsSeparateRuns);
    REQUIRE(again.size() == 1);
    CHECK(again[0]->code == 2);
    CHECK(str(banners, again[0]->text).starts_with("# nThread 1 nGpus 8"));

    const auto summaries = testing::scan("# Out of bounds values : 0 OK\n"
                                         "# Avg bus bandwidth    : 3.94145 \n"
                                         "#\n"
                                         "# Out of bounds values : 0 OK\n"
                                         "# Avg bus bandwidth    : 3.94156 \n");
    CHECK(eventsOf(summaries, model::EventKind::NcclTestsSeparateRuns).size() == 1);
}

TEST_CASE("nccl-tests runs one after another are not separate worlds", "[parsers][nccltests]")
{
    // Each run's table lies between its banner and the next one's.
    const std::string run = "# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                            "#\n"
                            "# Using devices\n"
                            "#  Rank  0 Group  0 Pid   9822 on      node1 device  0 [0x2c] NVIDIA A100-SXM4-80GB\n"
                            "#\n"
                            "#                                                              out-of-place                       in-place          \n"
                            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                            "           8             2     float     sum      -1    10.31    0.00    0.00      0    10.02    0.00    0.00      0\n"
                            "   134217728      33554432     float     sum      -1   1523.4   88.10  165.20      0   1520.1   88.30  165.50      0\n"
                            "# Out of bounds values : 0 OK\n"
                            "# Avg bus bandwidth    : 84.8558 \n"
                            "#\n";
    const auto p = testing::scan(run + run + run);
    CHECK(eventsOf(p, model::EventKind::NcclTestsSeparateRuns).empty());
}

TEST_CASE("nccl-tests ending at its table's header is read as stalled in the first collective", "[parsers][nccltests]")
{
    const std::string head = "# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                             "#\n"
                             "# Using devices\n"
                             "#  Rank  0 Group  0 Pid  21284 on      gpuhost device  0 [0x2f] NVIDIA RTX A6000\n"
                             "#  Rank  1 Group  0 Pid  21284 on      gpuhost device  1 [0x03] NVIDIA RTX A6000\n"
                             "#\n"
                             "#                                                              out-of-place                       in-place          \n"
                             "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                             "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n";
    const auto stalled = testing::scan(head);
    const auto events = eventsOf(stalled, model::EventKind::NcclTestsStalled);
    REQUIRE(events.size() == 1);
    CHECK(str(stalled, events[0]->detail) == "gpuhost");
    CHECK(events[0]->code == 2);
    CHECK(events[0]->evidence.line == 8);

    // A first row, or the test's own failure, ends the wait.
    CHECK(eventsOf(testing::scan(head + "           8             2     float     sum      -1    10.31    0.00    0.00      0    10.02    0.00    0.00      0\n"),
        model::EventKind::NcclTestsStalled)
              .empty());
    CHECK(eventsOf(testing::scan(head + "gpuhost: Test NCCL failure common.cu:1005 'unhandled system error'\n"), model::EventKind::NcclTestsStalled).empty());
    // So does a row whose leading blanks a chat or a form trimmed.
    CHECK(eventsOf(testing::scan(head + "8             2     float     sum      -1    10.31    0.00    0.00      0    10.02    0.00    0.00      0\n"),
        model::EventKind::NcclTestsStalled)
              .empty());
    // A line of numbers is not a row without nccl-tests' type in third place.
    CHECK_FALSE(eventsOf(testing::scan(head + "8 2 3 4 5 6 7 8 9\n"), model::EventKind::NcclTestsStalled).empty());

    // Ranks on two hosts: no single host is named.
    const auto twoHosts = testing::scan("#  Rank  0 Group  0 Pid  100 on      node1 device  0 [0x07] A100\n"
                                        "#  Rank  1 Group  0 Pid  200 on      node2 device  0 [0x07] A100\n"
                                        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
    const auto two = eventsOf(twoHosts, model::EventKind::NcclTestsStalled);
    REQUIRE(two.size() == 1);
    CHECK(two[0]->detail == model::kNoStr);
}
