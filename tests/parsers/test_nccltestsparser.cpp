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
