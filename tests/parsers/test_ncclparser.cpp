// NCCL_DEBUG output ([formats 3]): verbatim lines for every version row, torn, prefixed
// and garbage input, through the real LogScanner pipeline.
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace rankscope;
using model::EventKind;
using model::LinkKind;
using model::Severity;
using testing::eventsOf;
using testing::firstOf;
using testing::identityOf;
using testing::scan;
using testing::str;

namespace {

std::size_t countOf(const model::ParsedSource& p, EventKind kind)
{
    return eventsOf(p, kind).size();
}

std::vector<const model::CommLink*> linksOf(const model::ParsedSource& p, LinkKind kind)
{
    std::vector<const model::CommLink*> found;
    for (const auto& l : p.commLinks)
        if (l.kind == kind)
            found.push_back(&l);
    return found;
}

bool hasLink(const model::ParsedSource& p, LinkKind kind, int channel, int from, int to)
{
    for (const auto& l : p.commLinks)
        if (l.kind == kind && l.channel == channel && l.fromRank == from && l.toRank == to)
            return true;
    return false;
}

std::string collLine(const std::string& header, const std::string& op, unsigned opCount,
    const std::string& comm)
{
    char hex[32];
    std::snprintf(hex, sizeof hex, "%x", opCount);
    return header + " NCCL INFO " + op + ": opCount " + hex
        + " sendbuff 0x7f5dd32b2100 recvbuff 0x7f5dd32b2100 count " + std::to_string(1000 + opCount)
        + " datatype 7 op 0 root 0 comm " + comm + " [nranks=4] stream 0x55bef0208bd0\n";
}

// Lines that break runs of repeated COLL lines (see the lane tests below).
std::vector<std::string> laneBreakers()
{
    return {
        "h2:9:9 [1] NCCL INFO AllReduce: opCount 3 sendbuff 0x7f1 recvbuff 0x7f1 count 8 "
        "datatype 7 op 0 root 0 comm 0x66bb [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO Broadcast: opCount 9 sendbuff 0x7f1 recvbuff 0x7f1 count 8 "
        "datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "[rank3]:h1:7:7 [0] NCCL INFO AllReduce: opCount 4 sendbuff 0x7f1 recvbuff 0x7f1 count 9 "
        "datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 5 sendbuff hf_abcdefghijklmnopqrstuvwxyz0123 "
        "recvbuff 0x7f1 count 9 datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 6 sendbuff 0x7f1 recvbuff 0x7f1 count 9 "
        "datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5 h3:1:1 [0] NCCL INFO x",
        "h1:7:7 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
        "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
        "    main()\nRuntimeError: boom",
        "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>",
        "    main()",
        "RuntimeError: boom",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:609 (most recent call first):",
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f6a839be41a "
        "in /opt/conda/lib/python3.10/site-packages/torch/lib/libc10.so)",
        "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0",
        "               NVRM: (PCI ID: 10de:26b5) installed in this system has",
        "               NVRM: fallen off the bus and is not responding to commands.",
        "[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=8, "
        "NumelOut=8, Timeout(ms)=600000) ran for 600010 milliseconds before timing out.",
        "epoch 1:  10%|#         | 1/10\rh1:7:7 [0] NCCL INFO AllReduce: opCount 7 sendbuff "
        "0x7f1 recvbuff 0x7f1 count 9 datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "2024-07-25 06:36:18,293 h1:7:7 [0] NCCL INFO AllReduce: opCount 8 sendbuff 0x7f1 "
        "recvbuff 0x7f1 count 9 datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 9 sendbuff 0x7f1 recvbuff 0x7f1 count 9 "
        "datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5   ",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 9 sendbuff 0x7f1 recvbuff xoxb-12345-abcdefghij "
        "count 9 datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 9 sendbuff 0x7f1 recvbuff passwd=s3cr3tPw "
        "count 9 datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 9 sendbuff 0xa7f1 recvbuff 0x7f1 count 9 "
        "datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
        "h1:7:7 [0] NCCL INFO AllReduce: opCount 9 sendbuff 0x7f1 recvbuff 0x7f1 count 9 "
        "datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5 TOKEN=hunter2hunter2",
    };
}

// What a scan yields, for comparing the lane with the full path.
std::string laneFingerprint(const model::ParsedSource& p)
{
    std::string s = std::to_string(p.source.lines) + " lines, "
        + std::to_string(p.source.recognisedLines) + " recognised\n";
    for (const auto& t : p.collTraces) {
        s += "trace " + std::to_string(t.identity) + " " + std::to_string(t.pid) + " "
            + str(p, t.host) + " " + str(p, t.commPtr) + " " + std::to_string(t.nranks) + " "
            + std::to_string(t.calls) + "\n";
        std::vector<model::CollCall> calls { t.first };
        calls.insert(calls.end(), t.tail.begin(), t.tail.end());
        for (const auto& c : calls)
            s += "  " + std::to_string(c.evidence.line) + "@"
                + std::to_string(c.evidence.offset) + " "
                + std::to_string(static_cast<int>(c.op)) + " " + std::to_string(c.opCount) + " "
                + std::to_string(c.count) + " " + std::to_string(c.datatype) + " "
                + std::to_string(c.root) + "\n";
    }
    for (const auto& e : p.events)
        s += "event " + std::to_string(static_cast<int>(e.kind)) + " "
            + std::to_string(e.evidence.line) + " " + std::to_string(e.identity) + " "
            + std::to_string(e.time.ns) + " " + str(p, e.text) + "\n";
    for (const auto& id : p.identities)
        s += "identity " + std::to_string(id.globalRank) + " " + std::to_string(id.localRank) + " "
            + std::to_string(id.srunTask) + " " + std::to_string(id.pid) + " "
            + str(p, id.host) + "\n";
    for (const auto& kind : { "secret_masked", "nccl_incomplete_coll_line" })
        s += std::string(kind) + " " + std::to_string(p.issues.count(kind)) + "\n";
    return s;
}

// The same text scanned as one chunk (whole lines, so repeated COLL lines may take the
// scanner's short lane) and in 7-byte chunks (no line is whole in one chunk, so every line
// takes the full path).
void requireLaneMatchesFullPath(const std::string& text)
{
    model::Source src;
    src.path = "rank0.log";
    model::ParsedSource whole { model::Source(src) };
    parsers::scanText(text, whole);
    model::ParsedSource pieces { model::Source(src) };
    parsers::LogScanner scanner(pieces);
    for (std::size_t at = 0; at < text.size(); at += 7)
        scanner.feed(std::string_view(text).substr(at, 7));
    scanner.finish();
    INFO(text);
    REQUIRE(laneFingerprint(whole) == laneFingerprint(pieces));
}

} // namespace

// ----------------------------------------------------------------------------------------
// [formats 3.1] header and [formats 3.2] setup lines

TEST_CASE("bare NCCL version banner yields a version event without process", "[parsers][nccl]")
{
    auto p = scan("NCCL version 2.21.5+cuda12.4\n");
    const auto* e = firstOf(p, EventKind::NcclVersion);
    REQUIRE(e);
    CHECK(str(p, e->detail) == "2.21.5+cuda12.4");
    CHECK(identityOf(p, *e).pid == -1);
}

TEST_CASE("INFO version line yields a version event attributed to its process", "[parsers][nccl]")
{
    auto p = scan("cn76:155:155 [5] NCCL INFO NCCL version 2.28.9+cuda13.0\n");
    const auto* e = firstOf(p, EventKind::NcclVersion);
    REQUIRE(e);
    CHECK(str(p, e->detail) == "2.28.9+cuda13.0");
    CHECK(identityOf(p, *e).pid == 155);
    CHECK(str(p, identityOf(p, *e).host) == "cn76");
}

TEST_CASE("the steps of joining the NVLS multicast group are events; other NVLS lines are not",
    "[parsers][nccl]")
{
    auto p = scan("c2ce1c877ea3:1023:1032 [0] NCCL INFO NVLS Bind mem 0xac0000000 UC handle 0x7f3310ccb240 MC handle "
                  "0x7f3310ccaa20 size 1073741824\n"
                  "c2ce1c877ea3:1024:1033 [1] NCCL INFO NVLS group 7f3310ccaa20 adding dev 1\n"
                  "c2ce1c877ea3:1024:1033 [1] NCCL INFO NVLS multicast support is available on dev 1\n"
                  "c2ce1c877ea3:1024:1033 [1] NCCL INFO NVLS comm 0x55 headRank 1 nHeads 4 buffSize 1048576\n");
    std::vector<const model::Event*> steps;
    for (const auto& e : p.events)
        if (e.kind == EventKind::NcclNvlsSetup)
            steps.push_back(&e);
    REQUIRE(steps.size() == 2);
    CHECK(str(p, steps[0]->text).starts_with("NVLS Bind mem 0xac0000000"));
    CHECK(identityOf(p, *steps[0]).pid == 1023);
    CHECK(identityOf(p, *steps[1]).pid == 1024);
}

TEST_CASE("PyTorch error text quoting the NCCL version is not a banner", "[parsers][nccl]")
{
    auto p = scan("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
                  "ProcessGroupNCCL.cpp:1275, unhandled cuda error (run with NCCL_DEBUG=INFO for "
                  "details), NCCL version 2.21.5\n"
                  "NCCL version is 2.21.5\n");
    CHECK(countOf(p, EventKind::NcclVersion) == 0);
}

TEST_CASE("environment echo lines become EnvSetting records, not events", "[parsers][nccl]")
{
    auto p = scan("gpu1:10:10 [0] NCCL INFO NCCL_IB_TIMEOUT set by environment to 300.\n"
                  "gpu1:10:10 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0\n"
                  "gpu1:10:10 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n");
    REQUIRE(p.envSettings.size() == 3);
    CHECK(str(p, p.envSettings[0].name) == "NCCL_IB_TIMEOUT");
    CHECK(str(p, p.envSettings[0].value) == "300");
    CHECK(str(p, p.envSettings[1].value) == "eth0");
    CHECK(str(p, p.envSettings[2].name) == "NCCL_ALGO");
    CHECK(str(p, p.envSettings[2].value) == "Ring");
    CHECK(p.identities[p.envSettings[0].identity].pid == 10);
    CHECK(p.events.empty());
}

TEST_CASE("bootstrap, IB OOB and socket lines give the process's addresses", "[parsers][nccl]")
{
    auto p = scan(
        "node1:100:100 [0] NCCL INFO Bootstrap : Using enp45s0f0:146.155.155.83<0>\n"
        "node1:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB "
        "[3]mlx5_3:1/IB [RO]; OOB eth0:10.0.0.1<0>\n"
        "node2:200:200 [1] NCCL INFO NET/Socket : Using [0]eth0:11.130.1.53<0> "
        "[1]eth1:11.130.2.53<0>\n"
        "H100-2:19989:19989 [1] NCCL INFO Bootstrap : Using ib0:fe80::966d:ae03:8b:df78%ib0<0>\n");
    REQUIRE(p.bootstrapAddresses.size() == 5);
    const auto& a = p.bootstrapAddresses;
    CHECK(str(p, a[0].interfaceName) == "enp45s0f0");
    CHECK(str(p, a[0].ip) == "146.155.155.83");
    CHECK(str(p, a[0].host) == "node1");
    CHECK(a[0].pid == 100);
    CHECK(str(p, a[1].interfaceName) == "eth0");
    CHECK(str(p, a[1].ip) == "10.0.0.1");
    CHECK(str(p, a[2].ip) == "11.130.1.53");
    CHECK(str(p, a[3].interfaceName) == "eth1");
    CHECK(a[3].pid == 200);
    CHECK(str(p, a[4].interfaceName) == "ib0");
    CHECK(str(p, a[4].ip) == "fe80::966d:ae03:8b:df78%ib0");
    const auto* boot = firstOf(p, EventKind::NcclBootstrap);
    REQUIRE(boot);
    CHECK(str(p, boot->peer) == "146.155.155.83");
    CHECK(countOf(p, EventKind::NcclNetSelect) == 2);
}

TEST_CASE("network selection lines yield NcclNetSelect events", "[parsers][nccl]")
{
    auto p = scan("n:1:1 [0] NCCL INFO Using network IB\n"
                  "n:2:2 [0] NCCL INFO Using network Socket\n"
                  "n:3:3 [0] NCCL INFO NET/IB : No device found.\n"
                  "n:4:4 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)\n"
                  "n:5:5 [0] NCCL INFO NET/IB: IbDev 0 Port 1 qpn 2740 set_ece={supported=1}\n");
    const auto events = eventsOf(p, EventKind::NcclNetSelect);
    REQUIRE(events.size() == 4);
    CHECK(str(p, events[0]->text) == "Using network IB");
    CHECK(str(p, events[2]->text) == "NET/IB : No device found.");
    CHECK(identityOf(p, *events[3]).pid == 4);
}

// ----------------------------------------------------------------------------------------
// [formats 3.3] communicator init, every version row

TEST_CASE("≤2.15 Init COMPLETE line gives a comm record with normalised busId", "[parsers][nccl]")
{
    auto p = scan("PHLRR3088:25515:25600 [2] NCCL INFO comm 0x5614942e7890 rank 10 nranks 16 "
                  "cudaDev 2 busId d000 - Init COMPLETE\n");
    REQUIRE(p.commInits.size() == 1);
    const auto& c = p.commInits[0];
    CHECK(str(p, c.host) == "PHLRR3088");
    CHECK(c.pid == 25515);
    CHECK(str(p, c.commPtr) == "0x5614942e7890");
    CHECK(c.commId == model::kNoStr);
    CHECK(c.commRank == 10);
    CHECK(c.nranks == 16);
    CHECK(c.cudaDev == 2);
    CHECK(c.nvmlDev == -1);
    CHECK(str(p, c.busId) == "0000:0d:00.0");
    CHECK(c.complete);
    const auto* e = firstOf(p, EventKind::NcclInitComplete);
    REQUIRE(e);
    CHECK(e->pgRank == 10);
    CHECK(e->code == 16);
    CHECK(identityOf(p, *e).pid == 25515);
    CHECK(countOf(p, EventKind::NcclInitStart) == 0);
}

TEST_CASE("2.16-2.17 Init COMPLETE line carries the commId", "[parsers][nccl]")
{
    auto p = scan("gpu7:4242:4242 [3] NCCL INFO comm 0x7f00aa001200 rank 3 nranks 8 cudaDev 3 "
                  "busId 41000 commId 0x5a1b2c3d4e5f6071 - Init COMPLETE\n");
    REQUIRE(p.commInits.size() == 1);
    CHECK(str(p, p.commInits[0].commId) == "0x5a1b2c3d4e5f6071");
    CHECK(str(p, p.commInits[0].busId) == "0000:41:00.0");
    const auto* e = firstOf(p, EventKind::NcclInitComplete);
    REQUIRE(e);
    CHECK(str(p, e->detail) == "0x5a1b2c3d4e5f6071");
}

TEST_CASE("2.18-2.21 Init START and COMPLETE lines carry nvmlDev", "[parsers][nccl]")
{
    auto p = scan("gpu7:4242:4242 [3] NCCL INFO comm 0x7f00aa001200 rank 3 nranks 8 cudaDev 3 "
                  "nvmlDev 5 busId 7e000 commId 0x898b6d578585998c - Init START\n"
                  "gpu7:4242:4242 [3] NCCL INFO comm 0x7f00aa001200 rank 3 nranks 8 cudaDev 3 "
                  "nvmlDev 5 busId 7e000 commId 0x898b6d578585998c - Init COMPLETE\n");
    REQUIRE(p.commInits.size() == 2);
    CHECK_FALSE(p.commInits[0].complete);
    CHECK(p.commInits[1].complete);
    CHECK(p.commInits[0].nvmlDev == 5);
    CHECK(p.commInits[0].cudaDev == 3);
    CHECK(str(p, p.commInits[0].busId) == "0000:7e:00.0");
    const auto* start = firstOf(p, EventKind::NcclInitStart);
    REQUIRE(start);
    CHECK(str(p, start->detail) == "0x898b6d578585998c");
    CHECK(start->pgRank == 3);
    CHECK(start->code == 8);
    CHECK(countOf(p, EventKind::NcclInitComplete) == 1);
}

TEST_CASE("2.22 ncclCommInitRank and ncclCommSplit prefixed lines", "[parsers][nccl]")
{
    auto p = scan("a:1:1 [0] NCCL INFO ncclCommInitRank comm 0x1000 rank 0 nranks 4 cudaDev 0 "
                  "nvmlDev 0 busId 1b000 commId 0xabc - Init COMPLETE\n"
                  "a:1:1 [0] NCCL INFO ncclCommSplit comm 0x2000 rank 1 nranks 2 cudaDev 0 "
                  "nvmlDev 0 busId 1b000 parent 0x1000 color 7 key 1 commId 0xdef - Init START\n");
    REQUIRE(p.commInits.size() == 2);
    CHECK(str(p, p.commInits[0].commPtr) == "0x1000");
    CHECK(str(p, p.commInits[0].busId) == "0000:1b:00.0");
    const auto& split = p.commInits[1];
    CHECK(str(p, split.commPtr) == "0x2000");
    CHECK(str(p, split.parentComm) == "0x1000");
    CHECK(split.color == 7);
    CHECK(split.commRank == 1);
    CHECK(split.nranks == 2);
    CHECK(str(p, split.commId) == "0xdef");
}

TEST_CASE("2.24+ real ncclCommInitRank Init START line", "[parsers][nccl]")
{
    auto p = scan("llm-bm-infer-0-4005863815:75205:75205 [1] NCCL INFO ncclCommInitRank comm "
                  "0xb9c26e0 rank 1 nranks 16 cudaDev 1 nvmlDev 1 busId 7e000 commId "
                  "0x898b6d578585998c - Init START\n");
    REQUIRE(p.commInits.size() == 1);
    const auto& c = p.commInits[0];
    CHECK(str(p, c.host) == "llm-bm-infer-0-4005863815");
    CHECK(c.pid == 75205);
    CHECK(str(p, c.commPtr) == "0xb9c26e0");
    CHECK(str(p, c.commId) == "0x898b6d578585998c");
    CHECK(c.nvmlDev == 1);
    CHECK(str(p, c.busId) == "0000:7e:00.0");
    CHECK_FALSE(c.complete);
}

TEST_CASE("2.23 and 2.24 split lines without a space before the dash", "[parsers][nccl]")
{
    auto p = scan("b:9:9 [2] NCCL INFO ncclCommSplit comm 0x3000 rank 0 nranks 2 cudaDev 2 "
                  "nvmlDev 2 busId 9a000 parent 0x1000 color -1 key 0- Init START\n"
                  "b:9:9 [2] NCCL INFO ncclCommSplit comm 0x4000 rank 1 nranks 4 cudaDev 2 "
                  "nvmlDev 2 busId 9a000 parent 0x1000 splitCount 3 color 12345 key 5- Init "
                  "START\n");
    REQUIRE(p.commInits.size() == 2);
    CHECK(p.commInits[0].color == -1);
    CHECK(str(p, p.commInits[0].parentComm) == "0x1000");
    CHECK(p.commInits[0].commId == model::kNoStr);
    CHECK(p.commInits[1].color == 12345);
    CHECK(p.commInits[1].commRank == 1);
    CHECK(str(p, p.commInits[1].busId) == "0000:9a:00.0");
    CHECK(countOf(p, EventKind::NcclInitStart) == 2);
}

TEST_CASE("2.29+ [Rank N] prefixed init and childCount split COMPLETE", "[parsers][nccl]")
{
    auto p = scan("c:5:5 [0] NCCL INFO [Rank 3] ncclCommInitRankConfig comm 0x5000 rank 3 nranks 8 "
                  "cudaDev 0 nvmlDev 0 busId 18000 commId 0x1122334455667788 - Init START\n"
                  "c:5:5 [0] NCCL INFO ncclCommSplit comm 0x6000 rank 0 nranks 4 cudaDev 0 "
                  "nvmlDev 0 busId 18000 parent 0x5000 childCount 2 color 1 key 0 - Init "
                  "COMPLETE\n");
    REQUIRE(p.commInits.size() == 2);
    CHECK(p.commInits[0].commRank == 3);
    CHECK(str(p, p.commInits[0].commId) == "0x1122334455667788");
    CHECK(p.commInits[1].complete);
    CHECK(p.commInits[1].color == 1);
    CHECK(str(p, p.commInits[1].parentComm) == "0x5000");
}

TEST_CASE("Destroy and Abort COMPLETE lines yield teardown events with the comm pointer",
    "[parsers][nccl]")
{
    auto p = scan("dlciwpwqw7kd1h3y-master-0:301:315 [3] NCCL INFO comm 0x12fd4c240 rank 3 nranks "
                  "4 cudaDev 3 busId 70 - Abort COMPLETE\n"
                  "x:1:1 [0] NCCL INFO comm 0x99 rank 0 nranks 2 cudaDev 0 busId 70 commId 0x5 - "
                  "Destroy COMPLETE\n");
    const auto events = eventsOf(p, EventKind::NcclCommTeardown);
    REQUIRE(events.size() == 2);
    CHECK(str(p, events[0]->detail) == "0x12fd4c240");
    CHECK(events[0]->severity == Severity::Warning);
    CHECK(identityOf(p, *events[0]).pid == 301);
    CHECK(str(p, events[1]->detail) == "0x99");
    CHECK(p.commInits.empty());
}

TEST_CASE("absurd busId and rank values do not produce wrong records", "[parsers][nccl]")
{
    auto p = scan("x:1:1 [0] NCCL INFO comm 0x1 rank 99999999999999 nranks 2 cudaDev 0 busId "
                  "fffffffffffffffffffffff - Init COMPLETE\n");
    REQUIRE(p.commInits.size() == 1);
    CHECK(p.commInits[0].commRank == -1);
    CHECK(p.commInits[0].busId == model::kNoStr);
}

// ----------------------------------------------------------------------------------------
// [formats 3.4] topology

TEST_CASE("ring, tree and channel lines become links of the process's current comm",
    "[parsers][nccl]")
{
    auto p = scan(
        "h1:10:10 [0] NCCL INFO ncclCommInitRank comm 0xaaa rank 0 nranks 4 cudaDev 0 nvmlDev 0 "
        "busId 7e000 commId 0x11 - Init START\n"
        "h1:20:20 [1] NCCL INFO ncclCommInitRank comm 0xbbb rank 1 nranks 4 cudaDev 1 nvmlDev 1 "
        "busId 8e000 commId 0x11 - Init START\n"
        "h1:10:10 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1\n"
        "h1:20:20 [1] NCCL INFO Trees [0] 3/-1/-1->2->1 [1] -1/-1/-1->2->0\n"
        "h1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n"
        "h1:20:20 [1] NCCL INFO Channel 00/0 : 8[0] -> 1[1] [receive] via NET/IB/0/GDRDMA\n"
        "h1:20:20 [1] NCCL INFO Channel 00 : 2[1] -> 0[0] via SHM/direct/direct\n"
        "h1:10:10 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/IPC/read\n");
    const auto ring = linksOf(p, LinkKind::RingNeighbour);
    REQUIRE(ring.size() == 2);
    CHECK(ring[0]->fromRank == 3);
    CHECK(ring[0]->toRank == 0);
    CHECK(ring[1]->fromRank == 0);
    CHECK(ring[1]->toRank == 1);
    CHECK(str(p, ring[0]->commPtr) == "0xaaa");
    CHECK(ring[0]->pid == 10);

    const auto tree = linksOf(p, LinkKind::TreeParent);
    REQUIRE(tree.size() == 3);
    CHECK(hasLink(p, LinkKind::TreeParent, 0, 3, 2));
    CHECK(hasLink(p, LinkKind::TreeParent, 0, 2, 1));
    CHECK(hasLink(p, LinkKind::TreeParent, 1, 2, 0));
    CHECK(str(p, tree[0]->commPtr) == "0xbbb");

    const auto send = linksOf(p, LinkKind::ChannelSend);
    REQUIRE(send.size() == 3);
    CHECK(send[0]->fromRank == 0);
    CHECK(send[0]->toRank == 8);
    CHECK(str(p, send[0]->transport) == "NET/IB/0/GDRDMA");
    CHECK(str(p, send[0]->commPtr) == "0xaaa");
    CHECK(str(p, send[1]->transport) == "SHM/direct/direct");
    CHECK(str(p, send[1]->commPtr) == "0xbbb");
    CHECK(send[2]->channel == 1);
    CHECK(str(p, send[2]->transport) == "P2P/IPC/read");
    const auto recv = linksOf(p, LinkKind::ChannelReceive);
    REQUIRE(recv.size() == 1);
    CHECK(recv[0]->fromRank == 8);
    CHECK(recv[0]->toRank == 1);
    CHECK(str(p, recv[0]->commPtr) == "0xbbb");
    CHECK(p.events.size() == 2); // the two Init START lines only
}

TEST_CASE("the nRanks nNodes line switches the current comm for later channel lines",
    "[parsers][nccl]")
{
    auto p = scan("h:1:1 [0] NCCL INFO comm 0x5558e3c10180 rank 13 nRanks 16 nNodes 2 "
                  "localRanks 8 localRank 5 MNNVL 0\n"
                  "h:1:1 [0] NCCL INFO Ring 02 : 12 -> 13 -> 14\n");
    REQUIRE(p.commLinks.size() == 2);
    CHECK(str(p, p.commLinks[0].commPtr) == "0x5558e3c10180");
    CHECK(p.commLinks[0].channel == 2);
    CHECK(p.events.empty());
}

TEST_CASE("rank 0 ring listing links consecutive ranks and wraps around", "[parsers][nccl]")
{
    auto p = scan("h:1:1 [0] NCCL INFO comm 0xc0 rank 0 nRanks 4 nNodes 1 localRanks 4 "
                  "localRank 0 MNNVL 0\n"
                  "h:1:1 [0] NCCL INFO Channel 00/02 :    0   1   2   3\n");
    REQUIRE(p.commLinks.size() == 4);
    CHECK(hasLink(p, LinkKind::RingNeighbour, 0, 0, 1));
    CHECK(hasLink(p, LinkKind::RingNeighbour, 0, 2, 3));
    CHECK(hasLink(p, LinkKind::RingNeighbour, 0, 3, 0));
    CHECK(str(p, p.commLinks[0].commPtr) == "0xc0");
}

TEST_CASE("≤2.6 Ring connection lines are channel sends", "[parsers][nccl]")
{
    auto p = scan("h:1:1 [0] NCCL INFO Ring 00 : 0 -> 1 [send] via NET/IB/0/GDRDMA\n");
    REQUIRE(p.commLinks.size() == 1);
    CHECK(p.commLinks[0].kind == LinkKind::ChannelSend);
    CHECK(str(p, p.commLinks[0].transport) == "NET/IB/0/GDRDMA");
}

// NCCL 2.0-2.2 printed the level without the word "NCCL" (2.3 added it).
TEST_CASE("≤2.2 lines without the NCCL word are read with their whole header", "[parsers][nccl]")
{
    auto p = scan("node1:54573:54696 [1] include/socket.h:194 WARN Call to recv failed : Connection reset by peer\n"
                  "node1:54573:54696 [1] INFO transport/net_ib.cu:537 -> 2\n"
                  "learngpu060:3728593:3730444 [6] INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC\n");
    const auto* warn = firstOf(p, EventKind::NcclSocketError); // a WARN from socket.h
    REQUIRE(warn);
    CHECK(str(p, warn->text).find("Call to recv failed") != std::string::npos);
    CHECK(identityOf(p, *warn).pid == 54573);
    CHECK(str(p, identityOf(p, *warn).host) == "node1");
    CHECK(hasLink(p, LinkKind::ChannelSend, 0, 6, 10));
}

TEST_CASE("a level word without NCCL's whole header is no NCCL line", "[parsers][nccl]")
{
    // Python logging, a host:port in a message, a header cut short: none is NCCL's.
    auto p = scan("2024-05-01 12:00:01 INFO train.py:12 WARN loss is nan\n"
                  "worker-3:29500 [1] INFO connected\n"
                  "node1:54573:54696 INFO no device field\n"
                  "node1:54573:54696 [1] transport/net_ib.cu:537 ERROR not a level\n"
                  "node1:54573:54696 [1234] INFO device index too long\n");
    CHECK(p.events.empty());
}

TEST_CASE("links per comm and process are capped", "[parsers][nccl]")
{
    std::string text;
    for (int i = 0; i < 300; ++i)
        text += "h:1:1 [0] NCCL INFO Channel " + std::to_string(i % 32)
            + "/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
    text += "h:2:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
    auto p = scan(text);
    CHECK(p.commLinks.size() == parsers::NcclParser::kMaxLinksPerComm + 1);
}

// ----------------------------------------------------------------------------------------
// [formats 3.5] COLL lines

TEST_CASE("RCCL AllReduce COLL line is summarised with hex opCount", "[parsers][nccl]")
{
    auto p = scan("h03r3n06:45006:45006 [0] NCCL INFO AllReduce: opCount 28c sendbuff "
                  "0x7f5dd32b2100 recvbuff 0x7f5dd32b2100 count 9984512 datatype 7 op 0 root 0 "
                  "comm 0x55bef0201370 [nranks=4] stream 0x55bef0208bd0\n");
    REQUIRE(p.collTraces.size() == 1);
    const auto& t = p.collTraces[0];
    CHECK(t.calls == 1);
    CHECK(str(p, t.commPtr) == "0x55bef0201370");
    CHECK(str(p, t.host) == "h03r3n06");
    CHECK(t.pid == 45006);
    CHECK(t.nranks == 4);
    CHECK(t.first.opCount == 652);
    CHECK(t.first.count == 9984512);
    CHECK(t.first.datatype == 7);
    CHECK(t.first.op == model::OpType::AllReduce);
    REQUIRE(t.tail.size() == 1);
    CHECK(t.tail[0].opCount == 652);
    CHECK(p.events.empty());
}

TEST_CASE("Send COLL line keeps the peer as root", "[parsers][nccl]")
{
    auto p = scan("ubuntu:199574:201142 [1] NCCL INFO Send: opCount d60 sendbuff 0x7f50e6f3c000 "
                  "recvbuff (nil) count 2420736 datatype 7 op 0 root 0 comm 0x7f516c002e10 "
                  "[nranks=2] stream 0x55f1de7279a0\n"
                  "ubuntu:199574:201142 [1] NCCL INFO Recv: opCount d62 sendbuff (nil) recvbuff "
                  "0x7f50e6f3c000 count 2420736 datatype 7 op 0 root 1 comm 0x7f516c002e10 "
                  "[nranks=2] stream 0x55f1de7279a0\n");
    REQUIRE(p.collTraces.size() == 1);
    const auto& t = p.collTraces[0];
    CHECK(t.calls == 2);
    CHECK(t.first.op == model::OpType::Send);
    CHECK(t.first.opCount == 0xd60);
    CHECK(t.first.root == 0);
    REQUIRE(t.tail.size() == 2);
    CHECK(t.tail[1].op == model::OpType::Recv);
    CHECK(t.tail[1].root == 1);
}

TEST_CASE("200 COLL lines keep the call count and the last 64 calls oldest first",
    "[parsers][nccl]")
{
    std::string text;
    for (unsigned i = 0; i < 200; ++i)
        text += collLine("g:7:7 [0]", "AllReduce", i, "0xfeed");
    text += collLine("g:8:8 [1]", "AllGather", 5, "0xfeed"); // other process, same pointer value
    auto p = scan(text);
    REQUIRE(p.collTraces.size() == 2);
    const auto& t = p.collTraces[0];
    CHECK(t.pid == 7);
    CHECK(t.calls == 200);
    CHECK(t.first.opCount == 0);
    REQUIRE(t.tail.size() == model::CollTrace::kTailSize);
    CHECK(t.tail.front().opCount == 200 - model::CollTrace::kTailSize);
    CHECK(t.tail.back().opCount == 199);
    for (std::size_t i = 1; i < t.tail.size(); ++i)
        CHECK(t.tail[i].opCount == t.tail[i - 1].opCount + 1);
    CHECK(t.tail.back().count == 1199);
    CHECK(p.collTraces[1].pid == 8);
    CHECK(p.collTraces[1].calls == 1);
    CHECK(p.collTraces[1].first.op == model::OpType::AllGather);
}

TEST_CASE("interleaved processes each keep their own last 64 calls oldest first", "[parsers][nccl]")
{
    // Two processes in one file (a combined srun log): every line changes the header, so
    // each takes the full path, and each trace's ring must turn on its own.
    std::string text;
    for (unsigned i = 0; i < 150; ++i) {
        text += collLine("g:7:7 [0]", "AllReduce", i, "0xfeed");
        if (i % 3 != 0)
            text += collLine("g:8:8 [1]", "AllReduce", 1000 + i, "0xbeef");
    }
    auto p = scan(text);
    REQUIRE(p.collTraces.size() == 2);
    for (const auto& t : p.collTraces) {
        INFO("pid " << t.pid);
        REQUIRE(t.tail.size() == model::CollTrace::kTailSize);
        CHECK(t.tail.back().opCount == (t.pid == 7 ? 149u : 1149u));
        for (std::size_t i = 1; i < t.tail.size(); ++i)
            CHECK(t.tail[i].opCount > t.tail[i - 1].opCount);
    }
}

TEST_CASE("100k COLL and channel lines summarise without one event per line", "[parsers][nccl]")
{
    std::string text;
    text.reserve(100'000 * 200);
    text += "w:1:1 [0] NCCL INFO comm 0xa1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 7e000 "
            "commId 0x77 - Init COMPLETE\n";
    for (unsigned i = 0; i < 100'000; ++i) {
        if (i % 10 == 0)
            text += "w:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n";
        else
            text += collLine("w:1:1 [0]", "ReduceScatter", i, "0xa1");
    }
    auto p = scan(text);
    REQUIRE(p.collTraces.size() == 1);
    CHECK(p.collTraces[0].calls == 90'000);
    CHECK(p.collTraces[0].tail.back().opCount == 99'999);
    CHECK(p.collTraces[0].first.op == model::OpType::ReduceScatter);
    CHECK(p.events.size() == 1);
    CHECK(p.commLinks.size() == 256);
    CHECK(p.source.recognisedLines == 100'001);
}

// ----------------------------------------------------------------------------------------
// [formats 3.7] InfiniBand

TEST_CASE("IB completion errors of every version row give status, peer and hca",
    "[parsers][nccl]")
{
    auto p = scan(
        // 2.10-2.17
        "H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from "
        "peer fe80::966d:ae03:8b:df78%ib0<53249> with error 4, opcode 32564, len 32564, vendor err "
        "81 (Send)\n"
        // 2.18-2.19
        "n1:5:6 [0] transport/net_ib.cc:1326 NCCL WARN NET/IB : Got completion from peer "
        "10.0.0.2<4001> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid "
        "::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2\n"
        // 2.20-2.21 (plugin)
        "kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from "
        "peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid "
        "fd00::ff22 remoteGidsfd00::ff1f\n"
        // 2.22-2.28.3
        "n2:7:8 [3] transport/net_ib.cc:2215 NCCL WARN NET/IB: Got completion from peer "
        "10.0.0.9<33333> with status=5 opcode=129 len=0 vendor err 249 (Recv) hca mlx5_3\n"
        // 2.28.7-2.28.9
        "n3:9:10 [2] transport/net_ib.cc:2300 NCCL WARN NET/IB: Got completion from peer "
        "10.0.0.7<40000> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) reqSize=65536 "
        "vendor_err=129 req_type=Send hca mlx5_1\n"
        // 2.29+
        "n4:11:12 [5] net_ib/p2p.cc:512 (ncclIbCompletionEventProcess) NCCL WARN NET/IB: Got "
        "completion from peer 10.0.0.8<40001> with status=IBV_WC_REM_ACCESS_ERR(10) "
        "opcode=IBV_WC_RDMA_WRITE(1) vendor_err=136  hca mlx5_2\n"
        // third-party plugin
        "n5:13:14 [0] p2p_plugin.c:900 NCCL WARN NET/IBP:Got completion from peer 7.6.13.83<36315> "
        "with status=12 opcode=32698 len=32696 vendor err 129 (Send)\n"
        // GIN path
        "n6:15:16 [1] gin/gin_ib.cc:77 NCCL WARN NET/IB/GIN: Got completion from peer "
        "10.0.0.5<1234> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129  "
        "hca mlx5_4\n");
    const auto e = eventsOf(p, EventKind::NcclIbCompletionError);
    REQUIRE(e.size() == 8);
    CHECK(e[0]->code == 4);
    CHECK(str(p, e[0]->peer) == "fe80::966d:ae03:8b:df78%ib0<53249>");
    CHECK(e[0]->detail == model::kNoStr);
    CHECK(identityOf(p, *e[0]).pid == 19989);
    CHECK(str(p, identityOf(p, *e[0]).host) == "H100-2");
    CHECK(e[1]->code == 12);
    CHECK(str(p, e[1]->peer) == "10.0.0.2<4001>");
    CHECK(e[2]->code == 12);
    CHECK(str(p, e[2]->peer) == "10.216.210.236<54862>");
    CHECK(e[3]->code == 5);
    CHECK(str(p, e[3]->detail) == "mlx5_3");
    CHECK(e[4]->code == 12);
    CHECK(str(p, e[4]->peer) == "10.0.0.7<40000>");
    CHECK(str(p, e[4]->detail) == "mlx5_1");
    CHECK(e[5]->code == 10);
    CHECK(str(p, e[5]->detail) == "mlx5_2");
    CHECK(identityOf(p, *e[5]).pid == 11);
    CHECK(e[6]->code == 12);
    CHECK(str(p, e[6]->peer) == "7.6.13.83<36315>");
    CHECK(e[7]->code == 12);
    CHECK(str(p, e[7]->detail) == "mlx5_4");
    for (const auto* ev : e)
        CHECK(ev->severity == Severity::Error);
    CHECK(str(p, e[2]->text).starts_with("NET/IB : Got completion from peer 10.216.210.236"));
}

TEST_CASE("issue 1814 block: IB error then a collapsed error chain", "[parsers][nccl]")
{
    auto p = scan(
        "\n"
        "hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer "
        "172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) localGid "
        "::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221\n"
        "hostname-test:984:1357 [4] NCCL INFO transport/net.cc:1298 -> 6\n"
        "hostname-test:984:1357 [4] NCCL INFO proxy.cc:694 -> 6\n"
        "hostname-test:984:1357 [4] NCCL INFO proxy.cc:874 -> 6 [Progress Thread]\n"
        "hostname-test:984:1357 [4] NCCL INFO HINT: In many cases this error occurs when the "
        "NCCL_IB_TIMEOUT is set too short.\n");
    const auto* ib = firstOf(p, EventKind::NcclIbCompletionError);
    REQUIRE(ib);
    CHECK(str(p, ib->peer) == "172.36.143.59<44206>");
    CHECK(ib->code == 12);
    const auto chain = eventsOf(p, EventKind::NcclErrorChain);
    REQUIRE(chain.size() == 1);
    CHECK(chain[0]->code == 6);
    CHECK(str(p, chain[0]->text) == "transport/net.cc:1298 -> 6");
    CHECK(identityOf(p, *chain[0]).pid == 984);
    CHECK(p.events.size() == 2);
}

TEST_CASE("error chain runs collapse per process and restart on a new rc or line",
    "[parsers][nccl]")
{
    auto p = scan("a:1:1 [0] NCCL INFO transport/net.cc:1298 -> 6\n"
                  "b:2:2 [0] NCCL INFO init.cc:100 -> 2\n" // other process: own run
                  "a:1:1 [0] NCCL INFO proxy.cc:694 -> 6\n"   // same run as line 1
                  "a:1:1 [0] NCCL INFO group.cc:50 -> 3\n"    // new rc
                  "a:1:1 [0] NCCL INFO Using network IB\n"   // breaks the run
                  "a:1:1 [0] NCCL INFO group.cc:50 -> 3 [Async thread]\n");
    const auto chain = eventsOf(p, EventKind::NcclErrorChain);
    REQUIRE(chain.size() == 4);
    CHECK(chain[0]->code == 6);
    CHECK(chain[1]->code == 2);
    CHECK(identityOf(p, *chain[1]).pid == 2);
    CHECK(chain[2]->code == 3);
    CHECK(chain[3]->code == 3);
}

TEST_CASE("IB async events of every form give event text and device", "[parsers][nccl]")
{
    auto p = scan(
        "a:1:2 [0] transport/net_ib.cc:83 NCCL WARN NET/IB : Got async event : port error\n"
        "a:1:2 [0] transport/net_ib.cc:90 NCCL WARN NET/IB : mlx5_0:1 Got async event : "
        "port error\n"
        "a:1:2 [0] transport/net_ib.cc:95 NCCL WARN NET/IB : mlx5_1:1 Got async error event: "
        "local catastrophic error\n"
        "node-0:5911:5971 [0] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 async fatal "
        "event on QP (0x732d78661238): invalid request local work queue error\n"
        "a:1:2 [0] transport/net_ib.cc:150 NCCL WARN NET/IB : mlx5_2:1 async fatal event: "
        "local catastrophic error\n");
    const auto e = eventsOf(p, EventKind::NcclIbAsyncEvent);
    REQUIRE(e.size() == 5);
    CHECK(str(p, e[0]->text) == "port error");
    CHECK(e[0]->detail == model::kNoStr);
    CHECK(e[0]->severity == Severity::Warning);
    CHECK(str(p, e[1]->detail) == "mlx5_0:1");
    CHECK(str(p, e[1]->text) == "port error");
    CHECK(str(p, e[2]->text) == "local catastrophic error");
    CHECK(str(p, e[3]->text) == "invalid request local work queue error");
    CHECK(str(p, e[3]->detail) == "mlx5_3:1");
    CHECK(e[3]->severity == Severity::Error);
    CHECK(identityOf(p, *e[3]).pid == 5911);
    CHECK(str(p, e[4]->detail) == "mlx5_2:1");
}

// ----------------------------------------------------------------------------------------
// [formats 3.8] sockets and bootstrap

TEST_CASE("socket errors of every era give the remote peer as printed", "[parsers][nccl]")
{
    auto p = scan(
        "a:1:1 [0] include/socket.h:423 NCCL WARN Net : Connection closed by remote peer "
        "10.0.0.2<4567>\n"
        "a:1:1 [0] misc/socket.cc:521 NCCL WARN Net : Call to recv from 10.0.0.3<4568> failed : "
        "Connection reset by peer\n"
        "gpu003:1234:1290 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by "
        "remote peer gpu004.ds-a4-r02.abc.com<55693>\n"
        "a:1:1 [0] misc/socket.cc:540 NCCL WARN socketProgressOpt: Call to recv from "
        "10.0.0.4<4569> failed : Connection reset by peer\n"
        "a:1:1 [0] misc/socket.cc:600 NCCL WARN socketStartConnect: Connect to 10.0.0.5<38239> "
        "failed : Software caused connection abort\n"
        "a:1:1 [0] misc/socket.cc:610 NCCL WARN socketStartConnect: exceeded retries (20000)\n"
        "a:1:1 [0] misc/socket.cc:620 NCCL WARN socketPollConnect: Connect to 10.0.0.6<1> "
        "returned 110(Connection timed out) errno 115(Operation now in progress)\n"
        "a:1:1 [0] misc/socket.cc:630 NCCL WARN socketProgressOpt: Call to send to "
        "10.0.0.7<2> failed : Broken pipe\n"
        "a:1:1 [0] misc/socket.cc:640 NCCL WARN socketPollConnect: connect to 10.0.0.8<3> "
        "returned Connection refused, exceeded error retry count after 35 attempts\n"
        "a:1:1 [0] misc/socket.cc:650 NCCL WARN socketTryAccept: exceeded error retry count "
        "after 35 attempts, Too many open files\n");
    const auto e = eventsOf(p, EventKind::NcclSocketError);
    REQUIRE(e.size() == 10);
    CHECK(str(p, e[0]->peer) == "10.0.0.2<4567>");
    CHECK(str(p, e[1]->peer) == "10.0.0.3<4568>");
    CHECK(str(p, e[2]->peer) == "gpu004.ds-a4-r02.abc.com<55693>");
    CHECK(identityOf(p, *e[2]).pid == 1234);
    CHECK(str(p, e[3]->peer) == "10.0.0.4<4569>");
    CHECK(str(p, e[4]->peer) == "10.0.0.5<38239>");
    CHECK(e[5]->peer == model::kNoStr);
    CHECK(str(p, e[6]->peer) == "10.0.0.6<1>");
    CHECK(str(p, e[7]->peer) == "10.0.0.7<2>");
    CHECK(str(p, e[8]->peer) == "10.0.0.8<3>");
    CHECK(e[9]->peer == model::kNoStr);
    CHECK(str(p, e[2]->text)
        == "socketProgress: Connection closed by remote peer gpu004.ds-a4-r02.abc.com<55693>");
}

TEST_CASE("bootstrap failures yield NcclBootstrapError", "[parsers][nccl]")
{
    auto p = scan(
        "a:1:1 [0] bootstrap.cc:40 NCCL WARN Bootstrap : no socket interface found\n"
        "a:1:1 [0] bootstrap.cc:80 NCCL WARN Bootstrap Root : mismatch in rank count from procs "
        "8 : 7\n"
        "a:1:1 [0] bootstrap.cc:81 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks "
        "8 vs 16, nroots 1 vs 1\n"
        "a:1:1 [0] bootstrap.cc:90 NCCL WARN Bootstrap Root : rank 3 of 8 ranks has already "
        "checked in\n"
        "a:1:1 [0] init.cc:700 NCCL WARN Mismatched NCCL version detected : rank 0 version 22105 "
        "rank 1 version 22304\n"
        "a:1:1 [0] misc/socket.cc:70 NCCL WARN Message truncated : received 1024 bytes instead "
        "of 256\n");
    CHECK(countOf(p, EventKind::NcclBootstrapError) == 6);
    CHECK(countOf(p, EventKind::NcclSocketError) == 0);
}

// ----------------------------------------------------------------------------------------
// [formats 3.9] proxy, [formats 3.10] CUDA and shm, other WARNs

TEST_CASE("proxy errors and localRank closures", "[parsers][nccl]")
{
    auto p = scan(
        "a:1:5 [0] proxy.cc:1519 NCCL WARN [Service thread] Error encountered progressing "
        "operation=Connect, res=3, closing connection\n"
        "a:1:5 [0] proxy.cc:1400 NCCL WARN [Service thread] Could not receive type from "
        "localRank 2, res=3, closed=1\n"
        "a:1:5 [0] proxy.cc:1300 NCCL WARN [Proxy Service 4] Failed to execute operation Connect "
        "from rank 4, retcode 3\n"
        "a:1:5 [0] proxy.cc:1000 NCCL WARN Socket recv failed while polling for opId=0x7f00\n"
        "a:1:5 [0] proxy.cc:1100 NCCL WARN Proxy Call to rank 3 failed (Connect)\n"
        "a:1:5 [0] proxy.cc:1200 NCCL WARN Comm 0x55d0 is in abort state\n"
        "gpu7:77:90 [0] NCCL INFO [Service thread] Connection closed by localRank 3\n");
    CHECK(countOf(p, EventKind::NcclProxyError) == 6);
    const auto* closed = firstOf(p, EventKind::NcclLocalRankClosed);
    REQUIRE(closed);
    CHECK(closed->peerRank == 3);
    CHECK(identityOf(p, *closed).pid == 77);
}

TEST_CASE("CUDA failures and allocation failures yield NcclCudaFailure", "[parsers][nccl]")
{
    auto p = scan("a:1:1 [0] transport.cc:154 NCCL WARN Cuda failure 'invalid argument'\n"
                  "a:1:1 [0] enqueue.cc:10 NCCL WARN Cuda failure 'out of memory'\n"
                  "a:1:1 [0] init.cc:10 NCCL WARN Cuda failure 999 'unknown error'\n"
                  "a:1:1 [0] include/alloc.h:100 NCCL WARN Failed to CUDA calloc 1234 bytes\n"
                  "a:1:1 [0] include/alloc.h:110 NCCL WARN Failed to CUDA malloc 5678 bytes\n"
                  "a:1:1 [0] NCCL INFO include/alloc.h:250 Cuda failure 'driver shutting down'\n");
    const auto e = eventsOf(p, EventKind::NcclCudaFailure);
    REQUIRE(e.size() == 6);
    CHECK(str(p, e[1]->text) == "Cuda failure 'out of memory'");
    CHECK(e[1]->severity == Severity::Error);
    CHECK(str(p, e[3]->text) == "Failed to CUDA calloc 1234 bytes");
    CHECK(e[5]->severity == Severity::Warning);
}

TEST_CASE("garbage [dev] values after the CUDA context died still parse", "[parsers][nccl]")
{
    auto p = scan("a:1:1 [909195890] include/alloc.h:250 NCCL WARN Cuda failure 'driver shutting "
                  "down'\n"
                  "a:1:1 [1936613746] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 70 - "
                  "Destroy COMPLETE\n");
    CHECK(countOf(p, EventKind::NcclCudaFailure) == 1);
    CHECK(countOf(p, EventKind::NcclCommTeardown) == 1);
}

TEST_CASE("/dev/shm failures yield NcclShmError", "[parsers][nccl]")
{
    auto p = scan(
        "a:1:1 [0] misc/shmutils.cc:60 NCCL WARN Error: failed to extend "
        "/dev/shm/nccl-Hk4ZTS to 9637892 bytes\n"
        "a:1:1 [0] misc/shmutils.cc:90 NCCL WARN Error while creating shared memory segment "
        "/dev/shm/nccl-abc (size 9637888)\n"
        "a:1:1 [0] transport/shm.cc:50 NCCL WARN unable to allocate shared memory\n"
        "a:1:1 [0] misc/shmutils.cc:70 NCCL WARN Could not map nccl-x size 1024, error: "
        "Bad address\n");
    CHECK(countOf(p, EventKind::NcclShmError) == 4);
}

TEST_CASE("an unrecognised WARN yields NcclWarn with the message", "[parsers][nccl]")
{
    auto p = scan("a:1:1 [0] misc/ibvwrap.cc:120 NCCL WARN Call to ibv_modify_qp failed with error "
                  "Connection timed out errno 110\n");
    const auto* e = firstOf(p, EventKind::NcclWarn);
    REQUIRE(e);
    CHECK(e->severity == Severity::Error); // "failed with error": the call failed
    CHECK(str(p, e->text)
        == "Call to ibv_modify_qp failed with error Connection timed out errno 110");
}

TEST_CASE("2.26+ timestamped WARN and 2.30.7 (func) WARN headers", "[parsers][nccl]")
{
    auto p = scan("[2025-03-01 12:00:05] gpu1:10:20 [0] misc/socket.cc:49 NCCL WARN "
                  "socketProgress: Connection closed by remote peer node2<42830>\n"
                  "gpu1:10:20 [0] misc/socket.cc:49 (socketProgress) NCCL WARN socketProgress: "
                  "Connection closed by remote peer node3<42831>\n");
    const auto e = eventsOf(p, EventKind::NcclSocketError);
    REQUIRE(e.size() == 2);
    CHECK(e[0]->time.domain == model::TimeDomain::LocalWall);
    CHECK(model::formatTime(e[0]->time).starts_with("2025-03-01 12:00:05"));
    CHECK(str(p, e[0]->peer) == "node2<42830>");
    CHECK(str(p, e[1]->peer) == "node3<42831>");
    CHECK(identityOf(p, *e[1]).pid == 10);
}

TEST_CASE("TRACE line events carry process-relative milliseconds", "[parsers][nccl]")
{
    auto p = scan("a:1:3 [0] 1234.567890 ncclProxyProgress:120 NCCL TRACE "
                  "transport/net.cc:1298 -> 6\n"
                  "a:1:1 NCCL CALL ncclCommInitRank(0x1, 8, 0x5, 0, 0)\n");
    const auto* e = firstOf(p, EventKind::NcclErrorChain);
    REQUIRE(e);
    CHECK(e->time.domain == model::TimeDomain::ProcessRelative);
    CHECK(e->time.ns == 1'234'567'890);
    CHECK(p.events.size() == 1);
}

// ----------------------------------------------------------------------------------------
// torn, prefixed and broken input

TEST_CASE("torn line with a second header is attributed to the inner header's process",
    "[parsers][nccl]")
{
    auto p = scan("learnfair062:32619:32711 [2] NCCL INFO learnfair062:32629:32629 [7] NCCL INFO "
                  "Broadcast: opCount 0 sendbuff 0x7f1 recvbuff 0x7f1 count 1 datatype 0 op 0 "
                  "root 0 comm 0x7fabc [nranks=8] stream 0x5\n");
    REQUIRE(p.collTraces.size() == 1);
    CHECK(p.collTraces[0].pid == 32629);
    CHECK(str(p, p.collTraces[0].host) == "learnfair062");
    CHECK(p.collTraces[0].first.op == model::OpType::Broadcast);
}

TEST_CASE("a torn header behind or inside a cached COLL line still wins", "[parsers][nccl]")
{
    // Line 1 caches the header. Line 2 is a whole COLL line in NCCL's layout with another
    // process's line glued after "[nranks=8]"; line 3 has one glued inside its sendbuff
    // pointer. In both the last header names the process, as on an uncached line.
    const std::string head = "learnfair062:32619:32711 [2] NCCL INFO ";
    const std::string coll
        = "Broadcast: opCount 0 sendbuff 0x7f1 recvbuff 0x7f1 count 1 datatype 0 "
          "op 0 root 0 comm 0x7fabc [nranks=8]";
    auto p = scan(head + coll + " stream 0x5\n" + head + coll + " stream 0x5 "
        + "learnfair063:40000:40000 [3] NCCL INFO " + coll + " stream 0x6\n" + head
        + "Broadcast: opCount 1 sendbuff 0x7 learnfair063:40000:40000 [3] NCCL INFO " + coll
        + " stream 0x6\n");
    REQUIRE(p.collTraces.size() >= 2);
    std::uint64_t inner = 0;
    for (const auto& t : p.collTraces) {
        if (t.pid == 32619) {
            CHECK(t.calls == 1); // line 1 only
        } else {
            CHECK(t.pid == 40000);
            CHECK(str(p, t.host) == "learnfair063");
            inner += t.calls;
        }
    }
    CHECK(inner == 2);
}

TEST_CASE("a repeated header is reused only while the line matches it byte for byte",
    "[parsers][nccl]")
{
    // Line 1 caches "learnfair062:32619:32711 [2] NCCL INFO "; line 2 starts with the same
    // bytes but carries a second header (the last one wins); line 3 is a WARN with file:line of
    // the same thread; line 4 has a pid that only differs in its last digit.
    const std::string coll = "Broadcast: opCount 0 sendbuff 0x7f1 recvbuff 0x7f1 count 1 datatype 0 "
                             "op 0 root 0 comm 0x7fabc [nranks=8] stream 0x5\n";
    auto p = scan("learnfair062:32619:32711 [2] NCCL INFO " + coll
        + "learnfair062:32619:32711 [2] NCCL INFO learnfair062:32629:32629 [7] NCCL INFO " + coll
        + "learnfair062:32619:32711 [2] misc/socket.cc:49 NCCL WARN socketProgress: Connection "
          "closed by remote peer node2<42830>\n"
        + "learnfair062:32619:32712 [2] NCCL INFO " + coll
        + "learnfair062:32619:32711 [2] NCCL INFO   \n");
    REQUIRE(p.collTraces.size() == 2);
    CHECK(p.collTraces[0].pid == 32619);
    CHECK(p.collTraces[0].calls == 2); // lines 1 and 4: same process, other thread
    CHECK(p.collTraces[1].pid == 32629);
    CHECK(p.collTraces[1].calls == 1);
    const auto* e = firstOf(p, EventKind::NcclSocketError);
    REQUIRE(e);
    CHECK(identityOf(p, *e).pid == 32619);
    CHECK(p.source.recognisedLines == 5);
}

TEST_CASE("COLL lines in other layouts are read key by key", "[parsers][nccl]")
{
    // NCCL's own layout, RCCL's extra fields, keys in another order, a cut line, and a count
    // that does not parse; only the first three place a call.
    auto p = scan(
        "g:7:7 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count 10 datatype 7 "
        "op 0 root 0 comm 0xfeed [nranks=4] stream 0x5\n"
        "g:7:7 [0] NCCL INFO AllReduce: opCount 2 sendbuff 0x1 recvbuff 0x1 count 20 datatype 7 "
        "op 0 root 0 comm 0xfeed [nranks=4] stream 0x5 task 3 globalrank 1\n"
        "g:7:7 [0] NCCL INFO AllGather: opCount 3 count 30 comm 0xfeed datatype 4 root 2 "
        "sendbuff 0x1 [nranks=4]\n"
        "g:7:7 [0] NCCL INFO AllReduce: opCount 4 sendbuff 0x1 recvbuff 0x1 count 40 datat\n"
        "g:7:7 [0] NCCL INFO AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x1 count -1 datatype 7 "
        "op 0 root 0 comm 0xfeed [nranks=4] stream 0x5\n");
    REQUIRE(p.collTraces.size() == 1);
    const auto& t = p.collTraces[0];
    CHECK(t.calls == 3);
    CHECK(t.nranks == 4);
    REQUIRE(t.tail.size() == 3);
    CHECK(t.tail[0].count == 10);
    CHECK(t.tail[1].count == 20);
    CHECK(t.tail[2].op == model::OpType::AllGather);
    CHECK(t.tail[2].count == 30);
    CHECK(t.tail[2].datatype == 4);
    CHECK(t.tail[2].root == 2);
    CHECK(p.issues.count("nccl_incomplete_coll_line") == 2);
}

TEST_CASE("COLL values the layout walk refuses still come out of the key walk", "[parsers][nccl]")
{
    // A 20-digit count (fits in 64 bits, longer than the fast walk reads), zero-padded and
    // negative int fields, and an int32 that overflows (read as unknown, as before).
    auto p = scan(
        "g:7:7 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count "
        "18446744073709551615 datatype 7 op 0 root 0 comm 0xfeed [nranks=4] stream 0x5\n"
        "g:7:7 [0] NCCL INFO Send: opCount 2 sendbuff (nil) recvbuff (nil) count 9 datatype "
        "00000000007 op 0 root -1 comm 0xfeed [nranks=0004] stream 0x5\n"
        "g:7:7 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x1 count 9 datatype "
        "99999999999 op 0 root 2147483647 comm 0xfeed [nranks=4] stream 0x5\n");
    REQUIRE(p.collTraces.size() == 1);
    const auto& t = p.collTraces[0];
    REQUIRE(t.tail.size() == 3);
    CHECK(t.tail[0].count == 18446744073709551615ull);
    CHECK(t.tail[1].datatype == 7);
    CHECK(t.tail[1].root == -1);
    CHECK(t.tail[2].datatype == -1);
    CHECK(t.tail[2].root == 2147483647);
    CHECK(t.nranks == 4);
    CHECK(p.issues.count("nccl_incomplete_coll_line") == 0);
}

TEST_CASE("COLL numbers of every length read right", "[parsers][nccl]")
{
    // Counts of 1-19 digits and int fields of 1-10 digits, with and without text after them
    // (short numbers are read 8 bytes at a time when 8 bytes are there).
    std::mt19937_64 rng(5);
    auto digits = [&](unsigned n) {
        std::uint64_t v = rng() % 9 + 1;
        for (unsigned i = 1; i < n; ++i)
            v = v * 10 + rng() % 10;
        return v;
    };
    for (int round = 0; round < 3000; ++round) {
        const std::uint64_t count = digits(1 + static_cast<unsigned>(rng() % 19));
        const auto datatype
            = static_cast<std::int32_t>(digits(1 + static_cast<unsigned>(rng() % 9)));
        const auto root = -static_cast<std::int32_t>(digits(1 + static_cast<unsigned>(rng() % 9)));
        const auto nranks = static_cast<std::int32_t>(digits(1 + static_cast<unsigned>(rng() % 9)));
        const std::string msg = "AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x1 count "
            + std::to_string(count) + " datatype " + std::to_string(datatype) + " op 0 root "
            + std::to_string(root) + " comm 0xfeed [nranks=" + std::to_string(nranks) + "]"
            + (round % 2 ? " stream 0x5" : "");
        // Twice: the second line goes through the cached header path.
        auto p = scan("g:7:7 [0] NCCL INFO " + msg + "\ng:7:7 [0] NCCL INFO " + msg + "\n");
        INFO(msg);
        REQUIRE(p.collTraces.size() == 1);
        const auto& t = p.collTraces[0];
        REQUIRE(t.tail.size() == 2);
        for (const auto& c : t.tail) {
            CHECK(c.count == count);
            CHECK(c.datatype == datatype);
            CHECK(c.root == root);
        }
        CHECK(t.nranks == nranks);
    }
}

TEST_CASE("a COLL line under a cached header reads the same as the first time", "[parsers][nccl]")
{
    // The first line with a header goes through the full header search; the same message
    // again under the now cached header is read before the torn-line search, which then
    // covers only what the COLL walk did not see. Random lines in NCCL's layout and
    // mutations of it (odd tokens, extra spaces, cut lines, 'N' in a pointer, long values, a
    // second header glued on) must come out the same both times, or be refused both times.
    std::mt19937 rng(23);
    const std::vector<std::string> ops = { "AllReduce", "Broadcast", "Send", "Recv", "AllGather",
        "ReduceScatter", "Foo", "AllToAllN", std::string(33, 'A') };
    // Mostly the first (ordinary) value, so that most lines are whole and take the fast path.
    auto pick = [&](const std::vector<std::string>& v) {
        return v[rng() % 8 != 0 ? 0 : rng() % v.size()];
    };
    const std::vector<std::string> hex
        = { "2d0", "0", "ffffffffffffffff", "1ffffffffffffffff", "", "xyz", "A0" };
    const std::vector<std::string> ptr = { "0x7fdcc5d2a000", "(nil)", "0x1", "0xN1", "" };
    const std::vector<std::string> num
        = { "7", "0", "6553600", "18446744073709551615", "99999999999999999999", "-1", "", "12a",
              "2147483647", "2147483648", "-2147483648", "0000000007", "00000000007" };
    std::size_t whole = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string msg = pick(ops) + ": opCount " + pick(hex) + " sendbuff " + pick(ptr)
            + " recvbuff " + pick(ptr) + " count " + pick(num) + " datatype " + pick(num) + " op "
            + pick(num) + " root " + pick(num) + " comm "
            + pick({ "0x55025d47c7b0", "0xfeed", "(nil)", "0xNN" }) + " [nranks=" + pick(num) + "]"
            + pick({ " stream 0x55", "", "x", " stream 0x5 g:1:1 [0] NCCL INFO y" });
        switch (rng() % 12) {
        case 0: // an extra space somewhere
            msg.insert(rng() % (msg.size() + 1), " ");
            break;
        case 1: // cut
            msg.resize(rng() % (msg.size() + 1));
            break;
        case 2: // one byte changed
            if (!msg.empty())
                msg[rng() % msg.size()] = "N] x:"[rng() % 5];
            break;
        default:
            break;
        }
        const std::string header = "host" + std::to_string(round) + ":7:7 [0] NCCL INFO ";
        auto p = scan(header + msg + "\n" + header + msg + "\n");
        INFO(msg);
        std::vector<model::CollCall> calls;
        for (const auto& t : p.collTraces)
            for (const auto& c : t.tail)
                calls.push_back(c);
        REQUIRE(calls.size() % 2 == 0);
        if (calls.size() == 2) {
            ++whole;
            CHECK(calls[0].op == calls[1].op);
            CHECK(calls[0].opCount == calls[1].opCount);
            CHECK(calls[0].count == calls[1].count);
            CHECK(calls[0].datatype == calls[1].datatype);
            CHECK(calls[0].root == calls[1].root);
        }
        if (!p.collTraces.empty())
            CHECK(p.collTraces.front().calls == calls.size());
        CHECK(p.issues.count("nccl_incomplete_coll_line") % 2 == 0);
    }
    CHECK(whole > 1000); // most lines were whole
}

TEST_CASE("torn WARN glued behind a progress bar is still found", "[parsers][nccl]")
{
    auto p = scan("Epoch 0:   6%|██  | 12/200 [00:10<02:30]node9:31:32 [1] misc/socket.cc:49 NCCL "
                  "WARN socketProgress: Connection closed by remote peer node2<42830>\n");
    const auto* e = firstOf(p, EventKind::NcclSocketError);
    REQUIRE(e);
    CHECK(identityOf(p, *e).pid == 31);
    CHECK(str(p, identityOf(p, *e).host) == "node9");
}

TEST_CASE("parseLine claims clean NCCL lines and leaves glued ones to other parsers",
    "[parsers][nccl]")
{
    model::ParsedSource out;
    parsers::NcclParser parser;
    auto parse = [&](std::string_view line) {
        parsers::LineContext ctx;
        ctx.source = 0;
        ctx.lineNo = 1;
        ctx.line = line;
        return parser.parseLine(ctx, line, out);
    };
    CHECK(parse("gpu1:10:10 [0] NCCL INFO Connected all rings"));
    CHECK(parse("[2025-03-01 12:00:05] gpu1:10:20 [0] init.cc:49 NCCL WARN boom"));
    CHECK(parse("NCCL version 2.21.5+cuda12.4"));
    CHECK_FALSE(parse("[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] x gpu1:1:1 [0] NCCL "
                      "WARN glued"));
    CHECK_FALSE(parse("Epoch 0: 6%|██ gpu1:1:1 [0] NCCL WARN glued"));
    CHECK_FALSE(parse("[rank0]:[E ProcessGroupNCCL.cpp:1] NCCL error: unhandled system error"));
    CHECK_FALSE(parse("a plain line without the word"));
    // The glued WARNs were still read.
    CHECK(countOf(out, EventKind::NcclWarn) == 3);
}

TEST_CASE("launcher prefixes stay in the identity next to the NCCL process", "[parsers][nccl]")
{
    auto p = scan("[default3]:node7:1:2 [3] NCCL INFO ncclCommInitRank comm 0x1 rank 3 nranks 8 "
                  "cudaDev 3 nvmlDev 3 busId 7e000 commId 0x2 - Init START\n"
                  "03: node8:5:6 [0] include/alloc.h:100 NCCL WARN Failed to CUDA calloc 4 "
                  "bytes\n");
    const auto* init = firstOf(p, EventKind::NcclInitStart);
    REQUIRE(init);
    CHECK(identityOf(p, *init).localRank == 3);
    CHECK(identityOf(p, *init).pid == 1);
    CHECK(str(p, identityOf(p, *init).host) == "node7");
    const auto* cuda = firstOf(p, EventKind::NcclCudaFailure);
    REQUIRE(cuda);
    CHECK(identityOf(p, *cuda).srunTask == 3);
    CHECK(identityOf(p, *cuda).pid == 5);
}

TEST_CASE("a line cut at 1024 bytes does not crash or invent calls", "[parsers][nccl]")
{
    std::string socketList = "n:1:1 [0] NCCL INFO NET/Socket : Using";
    for (int i = 0; socketList.size() < 1023; ++i)
        socketList += " [" + std::to_string(i) + "]eth" + std::to_string(i) + ":10.0.0."
            + std::to_string(i % 250) + "<0>";
    socketList.resize(1023);
    std::string coll = "n:1:1 [0] NCCL INFO AllReduce: opCount 1f sendbuff 0x7f recvbuff 0x7f "
                       "count 12 datatype 7 op 0 ro";
    std::string warn
        = "n:1:1 [0] transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer";
    auto p = scan(socketList + "\n" + coll + "\n" + warn + "\n");
    CHECK(p.collTraces.empty());
    CHECK(p.issues.count("nccl_incomplete_coll_line") == 1);
    CHECK_FALSE(p.bootstrapAddresses.empty());
    for (const auto& a : p.bootstrapAddresses)
        CHECK(str(p, a.ip).starts_with("10.0.0."));
    const auto* e = firstOf(p, EventKind::NcclIbCompletionError);
    REQUIRE(e);
    CHECK(e->peer == model::kNoStr);
}

TEST_CASE("garbage and look-alike lines produce nothing", "[parsers][nccl]")
{
    std::string binary("\x00\xff\xfeNCCL \x01\x02 NCCL INFO\x7f NCCL ", 24);
    auto p = scan(binary + "\n"
        + "NCCL INFO without a header\n"
          "12:00:05: NCCL WARN not a host\n" // (with a blank after the clock, it is a CI runner's stamp)
          "host:99999999999:1 [0] NCCL WARN pid overflow\n"
          "host:1:1 [0] NCCL INFOX glued level\n"
          "host:1:1 [0]  NCCL WARN double space\n"
          "NCCL \n"
          "NCCL\n"
          "h:1:1 [0] NCCL INFO Channel 99999999999/0 : x\n"
          "h:1:1 [0] NCCL INFO Trees [0] a/b/c->d->e [\n"
          "h:1:1 [0] NCCL INFO Ring 00 : 1 -> \n"
          "h:1:1 [0] NCCL INFO comm 0x\n"
          "h:1:1 [0] NCCL INFO AllReduce: opCount zz\n"
          "h:1:1 [0] NCCL WARN\n"
          "h:1:1 [0] NCCL INFO\n");
    CHECK(p.events.empty());
    CHECK(p.commLinks.empty());
    CHECK(p.commInits.empty());
    CHECK(p.collTraces.empty());
}

TEST_CASE("a second NCCL header in a torn srun line is not given the line's label", "[parsers][nccl]")
{
    auto p = rankscope::testing::scan("07: gpu-a100-012:273138:273341 [3] NCCL INFO gpu-a100-017:2900060:2900100 [0] NCCL INFO "
                                      "comm 0x550d38af7e90 rank 24 nranks 32 cudaDev 0 nvmlDev 0 busId 47000 commId 0x6bab6eb74658676f - Init COMPLETE\n",
        "slurm-1.out");
    REQUIRE(p.commInits.size() == 1);
    const auto& id = p.identities[p.commInits[0].identity];
    CHECK(id.pid == 2900060);
    CHECK(id.srunTask == -1);
}

TEST_CASE("COLL lines repeating an earlier line's head or tail read the same as on their own",
    "[parsers][nccl]")
{
    // Under a cached header, a COLL line whose op name or whole tail (from " datatype " on)
    // repeats the last clean COLL line takes the values read from those bytes before. Each
    // line of a random run must give the same call (or the same refusal) as it gives
    // scanned on its own, also when the repeated tail follows a torn or cut line, another
    // process's header, or a line the layout walk refused.
    std::mt19937 rng(41);
    auto oneOf = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    const std::vector<std::string> heads = { "h1:7:7 [0] NCCL INFO ", "h1:7:7 [0] NCCL INFO ",
        "h1:7:7 [0] NCCL INFO ", "h2:9:9 [1] NCCL INFO ", "[rank3]:h1:7:7 [0] NCCL INFO " };
    const std::vector<std::string> names
        = { "AllReduce", "AllReduce", "Broadcast", "Foo", "AllReduceX" };
    const std::vector<std::string> tails
        = { " datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
              " datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5",
              " datatype 7 op 0 root 3 comm 0x55aa [nranks=8] stream 0x5",
              " datatype 7 op 0 root 0 comm 0x66bb [nranks=16] stream 0x5",
              " datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5 h3:1:1 [0] NCCL INFO y",
              " datatype 7 op 0 root 0 comm 0xN5aa [nranks=8] stream 0x5", " datatype 7 op 0",
              " datatype 7 op 0 root 0 comm 0x55aa [nranks=8]" };
    for (int round = 0; round < 300; ++round) {
        std::vector<std::string> lines;
        std::string all;
        for (int i = 0; i < 24; ++i) {
            std::string line = oneOf(heads) + oneOf(names) + ": opCount " + std::to_string(i)
                + " sendbuff 0x7f" + std::to_string(rng() % 50) + " recvbuff 0x7f1 count "
                + std::to_string(rng() % 3 == 0 ? rng() : rng() % 9) + oneOf(tails);
            if (rng() % 10 == 0)
                line.resize(rng() % (line.size() + 1));
            lines.push_back(line);
            all += line + "\n";
        }
        // Every call of a scan in line order, with its trace's process and comm.
        auto callsOf = [](const model::ParsedSource& p) {
            std::vector<std::tuple<std::uint64_t, std::string>> out;
            for (const auto& t : p.collTraces)
                for (const auto& c : t.tail)
                    out.emplace_back(c.evidence.line,
                        std::to_string(t.pid) + " " + std::string(str(p, t.commPtr)) + " "
                            + std::to_string(static_cast<int>(c.op)) + " "
                            + std::to_string(c.opCount) + " " + std::to_string(c.count) + " "
                            + std::to_string(c.datatype) + " " + std::to_string(c.root));
            std::sort(out.begin(), out.end());
            return out;
        };
        const auto together = scan(all);
        std::vector<std::string> expected;
        std::size_t expectedIssues = 0;
        for (const auto& line : lines) {
            // Twice, so the second copy is read under its cached header as in the run.
            const auto alone = scan(line + "\n" + line + "\n");
            const auto calls = callsOf(alone);
            for (const auto& [lineNo, text] : calls)
                if (lineNo == 2)
                    expected.push_back(text);
            expectedIssues += alone.issues.count("nccl_incomplete_coll_line") / 2;
        }
        std::vector<std::string> got;
        for (const auto& [lineNo, text] : callsOf(together))
            got.push_back(text);
        INFO(all);
        CHECK(got == expected);
        CHECK(together.issues.count("nccl_incomplete_coll_line") == expectedIssues);
    }
}

TEST_CASE("COLL lines that repeat the line before take the scanner's short lane and read the same",
    "[parsers][nccl]")
{
    // The same text scanned as one chunk (most COLL lines go through the short lane, line
    // ends found in batches) and in 7-byte chunks (no line is whole in one chunk, so every
    // line takes the full path) must give the same calls, events, issues and line counts:
    // runs of repeated COLL lines broken by other processes, torn lines, secrets, progress
    // bars, timestamps, a launcher prefix and a Python traceback (a block the other parsers
    // keep open).
    std::mt19937 rng(73);
    auto oneOf = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    const std::vector<std::string> others = laneBreakers();
    std::size_t repeated = 0;
    for (int round = 0; round < 200; ++round) {
        std::string text;
        for (int i = 0; i < 60; ++i) {
            if (rng() % 4 == 0) {
                text += oneOf(others) + "\n";
                continue;
            }
            const bool big = rng() % 5 == 0;
            text += "h1:7:7 [0] NCCL INFO AllReduce: opCount " + std::to_string(i + 10)
                + " sendbuff 0x7f" + std::to_string(rng() % 99) + " recvbuff 0x7f1 count "
                + std::to_string(big ? rng() : rng() % 9)
                + " datatype 7 op 0 root 0 comm 0x55aa [nranks=8] stream 0x5\n";
            ++repeated;
        }
        requireLaneMatchesFullPath(text);
    }
    CHECK(repeated > 5000);
}

TEST_CASE("COLL lines of processes interleaved line by line take one lane per writer and read "
          "the same",
    "[parsers][nccl]")
{
    // A node's torchrun --tee console, an srun --label console, pdsh output and a file of
    // unlabelled processes: each writer's lane (its launcher prefix and NCCL header) must
    // give what the full path gives, with error chains, "Last error:", progress bars glued
    // to a line, secrets in labels and messages, and more writers than the table's first
    // size (so it grows while lanes are in use).
    std::mt19937 rng(91);
    std::vector<std::string> others = laneBreakers();
    for (const char* extra : {
             "[default2]:h1:9:9 [2] NCCL INFO transport/net.cc:1298 -> 6",
             "[default2]:h1:9:9 [2] NCCL INFO include/net.h:35 -> 6",
             "[default2]:Last error:",
             "[default2]:NET/IB : Got completion from peer 10.0.0.2<5> with status=12 opcode=0",
             "0003: Last error:",
             "0003: h2:33:33 [3] NCCL INFO transport/net.cc:1298 -> 2",
             "[default1]:epoch 1:  10%|#         | 1/10\r[default1]:h1:8:8 [1] NCCL INFO "
             "AllReduce: opCount 2 sendbuff 0x7f1 recvbuff 0x7f1 count 4 datatype 7 op 0 root 0 "
             "comm 0x77cc [nranks=8] stream 0x5",
             "[default1]:epoch 1:  20%|##        | 2/10\r",
             "hf_abcdefghijklmnopqrstuvwxyz0123: h1:7:7 [0] NCCL INFO AllReduce: opCount 1 "
             "sendbuff 0x7f1 recvbuff 0x7f1 count 4 datatype 7 op 0 root 0 comm 0x55aa "
             "[nranks=8] stream 0x5",
             "[default3]:h1:10:10 [3] NCCL INFO AllReduce: opCount 1 sendbuff 0x7f1 recvbuff "
             "0x7f1 count 4 datatype 7 op 0 root 0 comm 0x99ee [nranks=8] stream 0x5 "
             "AWS_SECRET_KEY=abcdefghij",
             "[default0]:[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:607] [Rank 0] "
             "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, "
             "OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600010 "
             "milliseconds before timing out.",
         })
        others.emplace_back(extra);
    struct Writer {
        std::string label;
        std::string header;
        std::string comm;
    };
    std::vector<Writer> writers;
    for (int local = 0; local < 4; ++local)
        writers.push_back({ "[default" + std::to_string(local) + "]:",
            "h1:" + std::to_string(7 + local) + ":" + std::to_string(7 + local) + " ["
                + std::to_string(local) + "] NCCL INFO ",
            "0x" + std::to_string(55 + 11 * local) + "aa" });
    for (int task = 0; task < 24; ++task) {
        char label[8];
        std::snprintf(label, sizeof label, "%04d: ", task);
        writers.push_back({ label,
            "h2:" + std::to_string(30 + task) + ":" + std::to_string(30 + task) + " ["
                + std::to_string(task % 8) + "] NCCL INFO ",
            "0x" + std::to_string(700 + task) + "bb" });
    }
    writers.push_back({ "node12: ", "node12:5:5 [0] NCCL INFO ", "0x61cc" });
    writers.push_back({ "", "h3:41:41 [0] NCCL INFO ", "0x62dd" });
    writers.push_back({ "", "h3:42:42 [1] NCCL INFO ", "0x63dd" });
    writers.push_back({ "[default1]:", "TOKEN=hunter2hunter2 h1:8:8 [1] NCCL INFO ", "0x64aa" });
    std::size_t taken = 0;
    for (int round = 0; round < 120; ++round) {
        std::string text;
        const std::size_t active = 2 + rng() % (writers.size() - 1);
        for (int i = 0; i < 120; ++i) {
            if (rng() % 6 == 0) {
                text += others[rng() % others.size()] + "\n";
                continue;
            }
            const Writer& w = writers[rng() % active];
            const bool big = rng() % 5 == 0;
            text += w.label + w.header + (rng() % 7 == 0 ? "Broadcast" : "AllReduce")
                + ": opCount " + std::to_string(i + 10) + " sendbuff 0x7f"
                + std::to_string(rng() % 99) + " recvbuff 0x7f1 count "
                + std::to_string(big ? rng() : rng() % 9) + " datatype 7 op 0 root 0 comm "
                + w.comm + " [nranks=8] stream 0x5\n";
            ++taken;
        }
        requireLaneMatchesFullPath(text);
    }
    CHECK(taken > 10000);
}

TEST_CASE("IB completion errors: the <=2.7 form without a peer, and a line without its header", "[parsers][nccl]")
{
    const auto old = testing::scan(
        "node3:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129\n");
    const auto oldEvents = testing::eventsOf(old, model::EventKind::NcclIbCompletionError);
    REQUIRE(oldEvents.size() == 1);
    CHECK(oldEvents.front()->code == 12);

    const auto bare = testing::scan(
        "NET/IBP:Got completion from peer 7.6.13.83<36315> with status=12 opcode=32698 len=32696 vendor err 129 (Send)\n"
        "NET/IB is the transport this job uses\n");
    const auto bareEvents = testing::eventsOf(bare, model::EventKind::NcclIbCompletionError);
    REQUIRE(bareEvents.size() == 1);
    CHECK(bareEvents.front()->code == 12);
    CHECK(testing::str(bare, bareEvents.front()->peer) == "7.6.13.83<36315>");
}

TEST_CASE("a WARN behind a redacted header is read from its source location on", "[parsers][nccl]")
{
    const auto p = rankscope::testing::scan(
        "[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed "
        "with 110 Connection timed out\n"
        "someone said NCCL WARN without a source location\n");
    std::size_t warns = 0;
    for (const auto& e : p.events)
        if (e.kind == rankscope::model::EventKind::NcclWarn) {
            ++warns;
            CHECK(rankscope::testing::str(p, e.text) == "Call to ibv_modify_qp failed with 110 Connection timed out");
        }
    CHECK(warns == 1);
}

TEST_CASE("a WARN that a request completed with an error is a failure, a missing library is not", "[parsers][nccl]")
{
    const auto p = rankscope::testing::scan(
        "[1,2]<stdout>:test-nccl-worker-0:199:263 [2] process_err_completion:1562 NCCL WARN NET/OFI Request "
        "0x7f08c0001d30 completed with error. RC: 5. Error: Invalid receiver queue pair number (QPN)\n"
        "node1:199:263 [2] NCCL WARN Failed to open libibverbs.so[.1]\n");
    std::vector<rankscope::model::Severity> severities;
    for (const auto& e : p.events)
        if (e.kind == rankscope::model::EventKind::NcclWarn)
            severities.push_back(e.severity);
    CHECK(severities == std::vector<rankscope::model::Severity> { rankscope::model::Severity::Error,
        rankscope::model::Severity::Warning });
}
