// KernelParser: Xid / SXid / fallen off the bus, mlx5 link state, PCIe AER and the kernel OOM
// killer ([formats 7.1], [formats 7.2], [formats 9]), through the real LogScanner.
#include "parsers/kernelparser.h"
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using model::EventKind;
using model::Severity;
using testing::eventsOf;
using testing::firstOf;
using testing::scan;
using testing::str;

TEST_CASE("dmesg Xid 63 row-remapper line yields a warning with normalised busId and pid",
    "[parsers][kernel]")
{
    const auto p
        = scan("[ 1399.140323] NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New "
               "row marked for remapping, reset gpu to activate.\n",
            "dmesg-node1.txt");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 1);
    const auto& e = *xids[0];
    CHECK(e.code == 63);
    CHECK(str(p, e.detail) == "0000:10:1c.0");
    CHECK(e.pid == 1896);
    CHECK(str(p, e.text) == "Row Remapper: New row marked for remapping, reset gpu to activate.");
    CHECK(e.severity == Severity::Warning);
    CHECK(e.pgRank == -1);
    CHECK(e.time.domain == model::TimeDomain::HostBoot);
    CHECK(e.time.ns == 1399140323000);
    CHECK(e.evidence.line == 1);
}

TEST_CASE("Xid 119 with a process name is an error and the name is not part of the text",
    "[parsers][kernel]")
{
    const auto p = scan("NVRM: Xid (PCI:0000:61:00): 119, pid=123417, name=nv-hostengine, Timeout "
                        "after 6s of waiting for RPC response from GPU0 GSP! Expected function 10 "
                        "(FREE) (0xc0000005 0x0).\n");
    const auto* e = firstOf(p, EventKind::GpuXid);
    REQUIRE(e);
    CHECK(e->code == 119);
    CHECK(e->pid == 123417);
    CHECK(str(p, e->detail) == "0000:61:00.0");
    CHECK(e->severity == Severity::Error);
    CHECK(
        str(p, e->text).starts_with("Timeout after 6s of waiting for RPC response from GPU0 GSP!"));
}

TEST_CASE(
    "Xid 45 follow-on keeps the root Xid in its text and stays a warning", "[parsers][kernel]")
{
    const auto p
        = scan("NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 "
               "caused by previous Xid 149\n"
               "NVRM: Xid (PCI:0000:dc:00): 149, pid=1818990, name=python3, NETIR_LINK_EVT "
               "Fatal XC0 i0 Link 04\n");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 2);
    CHECK(xids[0]->code == 45);
    CHECK(xids[0]->severity == Severity::Warning);
    CHECK(str(p, xids[0]->text) == "Ch 00000001 caused by previous Xid 149");
    CHECK(xids[1]->code == 149);
    CHECK(xids[1]->severity == Severity::Error);
    CHECK(str(p, xids[1]->detail) == "0000:dc:00.0");
}

TEST_CASE("old driver Xid without PCI tag or pid and Xids outside the table", "[parsers][kernel]")
{
    const auto p = scan("NVRM: Xid (0000:01:00): 32, Channel ID 00000009 intr 00800000\n"
                        "NVRM: Xid (PCI:0000:3B:00): 8, pid=77, GPU stopped processing\n");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 2);
    CHECK(xids[0]->code == 32);
    CHECK(xids[0]->pid == -1);
    CHECK(xids[0]->severity == Severity::Error);
    CHECK(str(p, xids[0]->detail) == "0000:01:00.0");
    CHECK(str(p, xids[0]->text) == "Channel ID 00000009 intr 00800000");
    CHECK(xids[1]->code == 8);
    CHECK(xids[1]->severity == Severity::Warning);
    CHECK(str(p, xids[1]->detail) == "0000:3b:00.0"); // lowercase, joins NCCL busIds
}

TEST_CASE("journal Xid 79 names the host and unknown pid, the companion line adds nothing",
    "[parsers][kernel]")
{
    // Verbatim journal lines (a forum paste of a GPU falling off the bus).
    const auto p = scan(
        "Nov 07 18:17:15 server kernel: NVRM: Xid (PCI:0000:01:00): 79, pid='<unknown>', "
        "name=<unknown>, GPU has fallen off the bus.\n"
        "Nov 07 18:17:15 server kernel: NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n"
        "Nov 07 18:17:15 server kernel: pcieport 0000:00:01.0: PCIe Bus Error: "
        "severity=Corrected, type=Physical Layer, (Receiver ID)\n"
        "Nov 07 18:17:15 server kernel: pcieport 0000:00:01.0:   device [8086:460d] error "
        "status/mask=00002001/00002000\n",
        "journal.txt");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 1);
    const auto& e = *xids[0];
    CHECK(e.code == 79);
    CHECK(e.pid == -1);
    CHECK(e.severity == Severity::Error);
    CHECK(str(p, e.detail) == "0000:01:00.0");
    CHECK(str(p, e.text) == "GPU has fallen off the bus.");
    CHECK(str(p, testing::identityOf(p, e).host) == "server");
    CHECK(e.time.domain == model::TimeDomain::LocalWallNoYear);
    CHECK(model::formatTime(e.time) == "11-07 18:17:15");

    const auto aer = eventsOf(p, EventKind::PcieError);
    REQUIRE(aer.size() == 1);
    CHECK(str(p, aer[0]->detail) == "0000:00:01.0");
    CHECK(aer[0]->severity == Severity::Warning);
    CHECK(str(p, testing::identityOf(p, *aer[0]).host) == "server");
}

TEST_CASE("Xid 79 with pid=0 gives no process", "[parsers][kernel]")
{
    const auto p = scan(
        "[90211.554310] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n");
    const auto* e = firstOf(p, EventKind::GpuXid);
    REQUIRE(e);
    CHECK(e->code == 79);
    CHECK(e->pid == -1);
}

TEST_CASE("three-line fallen-off-the-bus message yields one Xid 79 at its first line",
    "[parsers][kernel]")
{
    // Verbatim dmesg from NVIDIA/NVSentinel#155: continuation lines carry no time.
    const std::string block
        = "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
          "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
          "               NVRM: fallen off the bus and is not responding to commands.\n";
    const auto p = scan(block
        + "[ 1843.439662] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
          "[ 1843.439669] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01  "
          "Release Build  (dvs-builder@U22-I3-B10-02-5)  Mon Jun  2 13:13:04 UTC 2025\n"
        + block);
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 1); // the driver repeats the message; one GPU, one event
    CHECK(xids[0]->code == 79);
    CHECK(str(p, xids[0]->detail) == "0000:b3:00.0");
    CHECK(xids[0]->severity == Severity::Error);
    CHECK(xids[0]->evidence.line == 1);
    CHECK(xids[0]->time.ns == 1843308145000);
}

TEST_CASE("a 'The NVIDIA GPU' line that never says fallen off yields nothing", "[parsers][kernel]")
{
    const auto p
        = scan("[   5.1] x\n"
               "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
               "               NVRM: (PCI ID: 10de:26b5) installed in this system is\n"
               "               NVRM: not supported by the 570.158.01 NVIDIA driver release.\n"
               "[ 1843.308146] NVRM: The NVIDIA GPU 0000:b4:00.0\n");
    CHECK(eventsOf(p, EventKind::GpuXid).empty());
}

TEST_CASE("single-line fallen-off message and Xid 79 on another GPU are both reported",
    "[parsers][kernel]")
{
    const auto p = scan("[90211.554402] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n"
                        "[90211.554500] NVRM: Xid (PCI:0000:5e:00): 79, pid=48213, name=python3, "
                        "GPU has fallen off the bus.\n");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 2);
    CHECK(str(p, xids[0]->detail) == "0000:3b:00.0");
    CHECK(xids[0]->pid == -1);
    CHECK(str(p, xids[1]->detail) == "0000:5e:00.0");
    CHECK(xids[1]->pid == 48213);
}

TEST_CASE("NVSwitch SXid is an error marked with pgRank 1 and an SXid text", "[parsers][kernel]")
{
    const auto p
        = scan("[ 2222.000001] nvidia-nvswitch1: SXid (PCI:0000:aa:00.0): 24007, Severity 1 "
               "Engine instance 12 Sub-engine instance 00\n");
    const auto* e = firstOf(p, EventKind::GpuXid);
    REQUIRE(e);
    CHECK(e->code == 24007);
    CHECK(e->pgRank == 1);
    CHECK(e->pid == -1);
    CHECK(e->severity == Severity::Error);
    CHECK(str(p, e->detail) == "0000:aa:00.0");
    CHECK(str(p, e->text) == "SXid: Severity 1 Engine instance 12 Sub-engine instance 00");
}

TEST_CASE("mlx5 IB port states: ACTIVE is info, INIT and DOWN are warnings", "[parsers][kernel]")
{
    const auto p = scan("[ 4441.769587] mlx5_core 0000:53:00.0 mlx5_3: Port: 1 Link ACTIVE\n"
                        "[ 4443.974372] mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link DOWN\n"
                        "[ 4444.100000] mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link INIT\n"
                        "[ 4450.320122] mlx5_core 0000:AB:00.0 mlx5_5: Port: 1 Link ACTIVE\n");
    const auto links = eventsOf(p, EventKind::NicLinkState);
    REQUIRE(links.size() == 4);
    CHECK(str(p, links[0]->text) == "ACTIVE");
    CHECK(links[0]->severity == Severity::Info);
    CHECK(str(p, links[0]->detail) == "mlx5_3");
    CHECK(str(p, links[0]->peer) == "0000:53:00.0");
    CHECK(str(p, links[1]->text) == "DOWN");
    CHECK(links[1]->severity == Severity::Warning);
    CHECK(str(p, links[1]->detail) == "mlx5_5");
    CHECK(str(p, links[1]->peer) == "0000:ab:00.0");
    CHECK(str(p, links[2]->text) == "INIT");
    CHECK(links[2]->severity == Severity::Warning);
    CHECK(str(p, links[3]->peer) == "0000:ab:00.0");
}

TEST_CASE("mlx5 netdev link up and down lines name the netdev", "[parsers][kernel]")
{
    const auto p = scan("[ 4443.968257] mlx5_core 0000:53:00.0 enp83s0f0np0: Link down\n"
                        "[ 4450.318539] mlx5_core 0000:53:00.0 enp83s0f0np0: Link up\n"
                        "[ 4450.381185] bond0: (slave enp83s0f0np0): link status definitely up, "
                        "100000 Mbps full duplex\n"
                        "e1000e 0000:00:1f.6 eno1: NIC Link is Up 1000 Mbps Full Duplex\n");
    const auto links = eventsOf(p, EventKind::NicLinkState);
    REQUIRE(links.size() == 2);
    CHECK(str(p, links[0]->text) == "DOWN");
    CHECK(links[0]->severity == Severity::Warning);
    CHECK(str(p, links[0]->detail) == "enp83s0f0np0");
    CHECK(str(p, links[0]->peer) == "0000:53:00.0");
    CHECK(str(p, links[1]->text) == "UP");
    CHECK(links[1]->severity == Severity::Info);
}

TEST_CASE("AER received line and its Bus Error line make one PCIe error", "[parsers][kernel]")
{
    // Verbatim shapes from rwth-i6/returnn#1486.
    const auto p
        = scan("[ 100.000001] pcieport 0000:00:03.0: AER: Corrected error received: 0000:00:03.0\n"
               "[ 100.000002] pcieport 0000:00:03.0: PCIe Bus Error: severity=Corrected, "
               "type=Data Link Layer, (Transmitter ID)\n"
               "[ 100.000003] pcieport 0000:00:03.0:   device [8086:2f08] error "
               "status/mask=00001000/00002000\n"
               "[ 100.000004] pcieport 0000:00:03.0:    [12] Timeout\n");
    const auto aer = eventsOf(p, EventKind::PcieError);
    REQUIRE(aer.size() == 1);
    CHECK(aer[0]->severity == Severity::Warning);
    CHECK(str(p, aer[0]->detail) == "0000:00:03.0");
    CHECK(aer[0]->evidence.line == 1);
    CHECK(str(p, aer[0]->text)
        == "AER: Corrected error received: 0000:00:03.0; PCIe Bus Error: severity=Corrected, "
           "type=Data Link Layer, (Transmitter ID)");
}

TEST_CASE("uncorrected fatal AER is an error on the device it names", "[parsers][kernel]")
{
    const auto p = scan(
        "[ 200.1] pcieport 0000:00:02.0: AER: Uncorrected (Fatal) error received: 0000:3b:00.0\n"
        "[ 200.2] nvidia 0000:3b:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), "
        "type=Transaction Layer, (Receiver ID)\n"
        "PCIe Bus Error: severity=Corrected, type=Data Link Layer\n"
        "[ 300.5] pcieport 0000:00:01.0: AER: Correctable error message received from "
        "0000:01:00.0\n");
    const auto aer = eventsOf(p, EventKind::PcieError);
    REQUIRE(aer.size() == 3);
    CHECK(aer[0]->severity == Severity::Error);
    CHECK(str(p, aer[0]->detail) == "0000:3b:00.0");
    CHECK(str(p, aer[0]->text).find("Transaction Layer") != std::string::npos);
    CHECK(aer[1]->severity == Severity::Warning);
    CHECK(aer[1]->detail == model::kNoStr);
    CHECK(str(p, aer[2]->detail) == "0000:01:00.0");
    CHECK(aer[2]->severity == Severity::Warning);
}

TEST_CASE("kernel OOM kill in all three shapes yields one event per kill", "[parsers][kernel]")
{
    const auto p = scan(
        "[ 5000.000001] python invoked oom-killer: "
        "gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), "
        "order=0, oom_score_adj=0\n"
        "[ 5000.000002] "
        "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-1,"
        "global_oom,task_memcg=/user.slice,task=python,pid=1234,uid=0\n"
        "[ 5000.000003] Out of memory: Killed process 1234 (python) total-vm:123456kB, "
        "anon-rss:120000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:400kB oom_score_adj:0\n"
        "[ 6000.000001] Memory cgroup out of memory: Killed process 4321 (pt_main_thread) "
        "total-vm:9000kB, anon-rss:8000kB, file-rss:0kB, shmem-rss:0kB, UID:1000\n"
        "[ 7000.000001] Out of memory: Kill process 777 (python3) score 900 or sacrifice child\n"
        "[ 7000.000002] Killed process 777 (python3) total-vm:1kB, anon-rss:1kB, file-rss:0kB\n");
    const auto ooms = eventsOf(p, EventKind::HostOutOfMemory);
    REQUIRE(ooms.size() == 3);
    CHECK(ooms[0]->pid == 1234);
    CHECK(str(p, ooms[0]->detail) == "python");
    CHECK(ooms[0]->severity == Severity::Error);
    CHECK(str(p, ooms[0]->text).starts_with("oom-kill:constraint=CONSTRAINT_NONE"));
    CHECK(ooms[1]->pid == 4321);
    CHECK(str(p, ooms[1]->detail) == "pt_main_thread");
    CHECK(str(p, ooms[1]->text).starts_with("Memory cgroup out of memory: Killed process 4321"));
    CHECK(ooms[2]->pid == 777);
    CHECK(str(p, ooms[2]->text).starts_with("Out of memory: Kill process 777 (python3)"));
}

TEST_CASE("dmesg -T and pdsh-prefixed kernel lines keep their time and host", "[parsers][kernel]")
{
    const auto p
        = scan("[Tue Jun 11 10:00:00 2024] NVRM: Xid (PCI:0000:10:1c): 48, pid=11, DBE\n"
               "node7: [ 1399.140323] NVRM: Xid (PCI:0000:10:1c): 94, pid=12, Contained\n");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 2);
    CHECK(model::formatTime(xids[0]->time) == "2024-06-11 10:00:00");
    CHECK(xids[0]->severity == Severity::Error);
    CHECK(str(p, testing::identityOf(p, *xids[1]).host) == "node7");
    CHECK(xids[1]->time.domain == model::TimeDomain::HostBoot);
}

TEST_CASE("Xid glued behind a progress bar is still found", "[parsers][kernel]")
{
    const auto p
        = scan("Epoch 0:   6%|██ | 3/50 [00:01<00:20]NVRM: Xid (PCI:0000:10:1c): 74, pid=9, "
               "NVLink: fatal error detected on link 3\n");
    const auto* e = firstOf(p, EventKind::GpuXid);
    REQUIRE(e);
    CHECK(e->code == 74);
    CHECK(e->severity == Severity::Error);
    CHECK(str(p, e->text) == "NVLink: fatal error detected on link 3");
}

TEST_CASE(
    "torn, absurd and unrelated kernel-looking lines yield no wrong events", "[parsers][kernel]")
{
    std::string text
        = "[ 1399.140323] NVRM: Xid (PCI:0000:10:1\n" // torn
          "NVRM: Xid (PCI:0000:10:1c): 99999999999999999999, pid=1, x\n" // overflow
          "NVRM: Xid (PCI:0000:10:1c): 13, pid=99999999999999999999999, name=a, Graphics\n"
          "The user said Xid (PCI:0000:10:1c): 13 in chat\n" // no NVRM
          "Killed process group of the launcher\n"
          "Killed process 12a (python)\n"
          "oom-kill: nothing here\n"
          "Link up with the team\n"
          "Port: 1 Link DOWN\n"
          "AER: nothing received\n"
          "pcieport 0000:00:03.0: AER: something received: 0000:00:03.0\n";
    text += std::string("\x00\xff\xfe NVRM: Xid (\x01\x02", 17);
    text += "\nNVRM: Xid (PCI:zzzz:10:1c): 13, pid=1, x\n";
    const auto p = scan(text);
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 1);
    CHECK(xids[0]->code == 13);
    CHECK(xids[0]->pid == -1); // the absurd pid is dropped, the Xid kept
    CHECK(eventsOf(p, EventKind::HostOutOfMemory).empty());
    CHECK(eventsOf(p, EventKind::NicLinkState).empty());
    CHECK(eventsOf(p, EventKind::PcieError).empty());
    CHECK(p.issues.count("malformed_xid_line") == 4);
}

TEST_CASE("PCI addresses normalise to the NCCL busId form", "[parsers][kernel]")
{
    using parsers::normalisePciAddress;
    CHECK(normalisePciAddress("0000:10:1c") == "0000:10:1c.0");
    CHECK(normalisePciAddress("00000000:7E:00.0") == "0000:7e:00.0");
    CHECK(normalisePciAddress("0000:AA:00.0") == "0000:aa:00.0");
    CHECK(normalisePciAddress("00010000:E1:00.1") == "10000:e1:00.1");
    std::size_t used = 0;
    CHECK(normalisePciAddress("0000:61:00): 119", &used) == "0000:61:00.0");
    CHECK(used == 10);
    CHECK_FALSE(normalisePciAddress("10:00:00"));
    CHECK_FALSE(normalisePciAddress("0000:1:00.0"));
    CHECK_FALSE(normalisePciAddress("000000000:10:1c"));
    CHECK_FALSE(normalisePciAddress("0000:10:1cz"));
    CHECK_FALSE(normalisePciAddress(""));
}

TEST_CASE("an Xid whose PCI address the paste blanked is kept, with no GPU", "[parsers][kernel]")
{
    const auto p = scan("kernel: NVRM: Xid (PCI:...): 145, RLW_RXPIPE Nonfatal XC0 i0 Link 11 (0x0)\n"
                        "kernel: NVRM: Xid (PCI:xxxx:xx:xx): 79, pid=12, GPU has fallen off the bus.\n"
                        "NVRM: Xid (PCI:0000:3B:00 but then some long unrelated words): 8, x\n");
    const auto xids = eventsOf(p, EventKind::GpuXid);
    REQUIRE(xids.size() == 2);
    CHECK(xids[0]->code == 145);
    CHECK(xids[0]->detail == rankscope::model::kNoStr);
    CHECK(xids[1]->code == 79);
    CHECK(xids[1]->detail == rankscope::model::kNoStr);
    CHECK(p.issues.count("malformed_xid_line") == 1);
}
