#include "parsers/timesniff.h"

#include <catch2/catch.hpp>

using namespace rankscope;
using parsers::sniffLeadingTime;

TEST_CASE("PyTorch 2.4 envelope keeps seconds only: the fraction is monotonic", "[parsers][time]")
{
    auto s = sniffLeadingTime("[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] x");
    REQUIRE(s.time.valid());
    CHECK(s.time.domain == model::TimeDomain::LocalWallNoYear);
    CHECK(s.time.precision == model::TimePrecision::Second);
    CHECK(model::formatTime(s.time) == "12-18 20:27:21");
}

TEST_CASE("glog and torch._logging envelopes have microseconds", "[parsers][time]")
{
    auto s = sniffLeadingTime("E0325 20:57:27.620000 2606 site-packages/torch/x.py:869] failed");
    REQUIRE(s.time.valid());
    CHECK(s.time.precision == model::TimePrecision::Microsecond);
    CHECK(model::formatTime(s.time) == "03-25 20:57:27.620000");
}

TEST_CASE("Python logging and NCCL WARN timestamps carry a year", "[parsers][time]")
{
    auto py = sniffLeadingTime("[2024-07-25 06:36:18,293] torch.distributed: [WARNING] x");
    REQUIRE(py.time.valid());
    CHECK(py.time.domain == model::TimeDomain::LocalWall);
    CHECK(model::formatTime(py.time) == "2024-07-25 06:36:18.293");
    CHECK(py.length == 25);
    auto nccl = sniffLeadingTime("[2025-03-01 12:00:05] host:1:2 [0] misc/socket.cc:49 NCCL WARN x");
    CHECK(model::formatTime(nccl.time) == "2025-03-01 12:00:05");
}

TEST_CASE("dmesg boot-relative and -T forms", "[parsers][time]")
{
    auto boot = sniffLeadingTime("[ 1399.140323] NVRM: Xid (PCI:0000:10:1c): 63, pid=1896");
    REQUIRE(boot.time.valid());
    CHECK(boot.time.domain == model::TimeDomain::HostBoot);
    CHECK(boot.time.ns == 1399140323000LL);
    auto wall = sniffLeadingTime("[Tue Jun 11 10:00:00 2024] NVRM: Xid (PCI:0000:10:1c): 79");
    REQUIRE(wall.time.valid());
    CHECK(model::formatTime(wall.time) == "2024-06-11 10:00:00");
    auto sys = sniffLeadingTime("Jun  1 10:00:00 node1 kernel: NVRM: Xid");
    CHECK(model::formatTime(sys.time) == "06-01 10:00:00");
}

TEST_CASE("torn or impossible dates are rejected", "[parsers][time]")
{
    CHECK_FALSE(sniffLeadingTime("[E1318 20:27:21.4 x").time.valid());
    CHECK_FALSE(sniffLeadingTime("2024-02-30 10:00:00 x").time.valid());
    CHECK_FALSE(sniffLeadingTime("[80746] [rank0]:").time.valid());
}

TEST_CASE("PyTorch 2.4+ envelopes do not pad the month", "[parsers][time]")
{
    auto s = sniffLeadingTime("[E709 17:05:38.123456789 ProcessGroupNCCL.cpp:607] [Rank 3] x");
    REQUIRE(s.time.valid());
    CHECK(model::formatTime(s.time) == "07-09 17:05:38");
    auto j = sniffLeadingTime("[E129 16:38:47.1 ProcessGroupNCCL.cpp:1] y");
    CHECK(model::formatTime(j.time) == "01-29 16:38:47");
    CHECK_FALSE(sniffLeadingTime("[E12 16:38:47.1 x").time.valid());
}

TEST_CASE("absurd dmesg uptimes are not times", "[parsers][time]")
{
    CHECK_FALSE(sniffLeadingTime("[99999999999999.123456] NVRM: Xid").time.valid());
}
