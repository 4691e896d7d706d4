#include "parsers/lineprefix.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>

using rankscope::parsers::LinePrefix;
using rankscope::parsers::stripPrefixes;

TEST_CASE("PyTorch [rankN]: prefix gives the global rank", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("[rank25]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 25] x", p);
    CHECK(p.globalRank == 25);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 25] x");
}

TEST_CASE("torchrun tee prefix gives the local rank and role", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("[default3]:[rank11]:[E1206 18:44:13.275158817 Foo.cpp:1] m", p);
    CHECK(p.localRank == 3);
    CHECK(p.role == "default");
    CHECK(p.globalRank == 11);
    CHECK(body == "[E1206 18:44:13.275158817 Foo.cpp:1] m");
}

TEST_CASE("srun label is zero-padded digits", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("03: [rank3]:[W Foo.cpp:1] hello", p);
    CHECK(p.srunTask == 3);
    CHECK(p.globalRank == 3);
    CHECK(body == "[W Foo.cpp:1] hello");
}

TEST_CASE("Open MPI tag with timestamp gives the MPI rank", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("Fri Aug 11 12:31:45 2023[1,7]<stdout>:node1:1:2 [0] NCCL INFO x", p);
    CHECK(p.mpiRank == 7);
    CHECK(body == "node1:1:2 [0] NCCL INFO x");
    LinePrefix q;
    CHECK(stripPrefixes("[1,3]<stderr>:Traceback (most recent call last):", q)
        == "Traceback (most recent call last):");
    CHECK(q.mpiRank == 3);
    // Copied from a rendered Markdown page, where "<stdout>" was taken for an HTML tag.
    LinePrefix r;
    CHECK(stripPrefixes("[1,12]:node1:1:2 [4] NCCL INFO Init COMPLETE", r) == "node1:1:2 [4] NCCL INFO Init COMPLETE");
    CHECK(r.mpiRank == 12);
    LinePrefix s;
    CHECK(stripPrefixes("[3]: item three", s) == "[3]: item three");
    CHECK(s.mpiRank < 0);
}

TEST_CASE("SageMaker's MPI tag gives the MPI rank and the host", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("[1,mpirank:3,algo-2]<stdout>:algo-2:79:1300 [3] NCCL INFO Launch mode Parallel", p);
    CHECK(p.mpiRank == 3);
    CHECK(p.host == "algo-2");
    CHECK(body == "algo-2:79:1300 [3] NCCL INFO Launch mode Parallel");
    // A name without its host, or text that only starts like the tag, is not one.
    LinePrefix q;
    CHECK(stripPrefixes("[1,mpirank:3]<stdout>:x", q) == "[1,mpirank:3]<stdout>:x");
    CHECK(q.mpiRank < 0);
    LinePrefix r;
    CHECK(stripPrefixes("[1,mpirank:3,algo 2]<stdout>:x", r) == "[1,mpirank:3,algo 2]<stdout>:x");
}

TEST_CASE("kubectl logs --prefix names the pod as the host", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("[pod/trainer-worker-1/pytorch] [rank9]:[E ProcessGroupNCCL.cpp:1316] x", p);
    CHECK(p.host == "trainer-worker-1");
    CHECK(p.globalRank == 9);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1316] x");
    for (const char* notOne : { "[pod/] x", "[pod/name] x", "[pod/a b/c] x", "[pod/name/c]x" }) {
        LinePrefix q;
        CHECK(stripPrefixes(notOne, q) == notOne);
        CHECK(q.host.empty());
    }
}

TEST_CASE("docker compose names the container as the host", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("trainer-1  | [rank9]:[E ProcessGroupNCCL.cpp:1316] x", p);
    CHECK(p.host == "trainer-1");
    CHECK(p.globalRank == 9);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1316] x");
    LinePrefix v1;
    CHECK(stripPrefixes("proj_worker_2 | node1:12:34 [0] NCCL INFO x", v1) == "node1:12:34 [0] NCCL INFO x");
    CHECK(v1.host == "proj_worker_2");
    // A table row, a replica-less name, no blank before the bar: not compose's.
    for (const char* notOne : { "epoch  | loss 0.5", "trainer  | x", "trainer-1| x", "x-1 |y", "| a | b |" }) {
        LinePrefix q;
        CHECK(stripPrefixes(notOne, q) == notOne);
        CHECK(q.host.empty());
    }
}

TEST_CASE("a journal's time, host and program are stripped, the host kept", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("Dec 04 12:00:07 gpu-node-3 python[4242]: [rank5]:[E ProcessGroupNCCL.cpp:1316] x", p);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1316] x");
    CHECK(p.host == "gpu-node-3");
    CHECK(p.globalRank == 5);
    CHECK(p.pid == -1); // journald's pid is the launcher's, shared by every worker
    CHECK(p.collectorTime == "Dec 04 12:00:07");
    LinePrefix precise;
    CHECK(stripPrefixes("Dec  4 12:00:07.123456 node7 torchrun[17]: host:1:2 [0] NCCL INFO x", precise)
        == "host:1:2 [0] NCCL INFO x");
    CHECK(precise.host == "node7");
    LinePrefix iso;
    CHECK(stripPrefixes("2024-12-04T12:00:07+0000 node7 python3[99]: msg", iso) == "msg");
    CHECK(iso.host == "node7");
    // The kernel's own lines keep their header for the kernel log reader.
    LinePrefix k;
    const char* kernel = "Dec 04 12:00:07 gpu-node-3 kernel: NVRM: Xid (PCI:0000:07:00): 79, GPU has fallen off the bus.";
    CHECK(stripPrefixes(kernel, k) == kernel);
}

TEST_CASE("SkyPilot's node tag names the node, not a rank or a process", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("(worker1, rank=1, pid=2090, ip=10.128.0.6) [rank9]:[E ProcessGroupNCCL.cpp:1316] x", p);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1316] x");
    CHECK(p.host == "worker1");
    CHECK(p.ip == "10.128.0.6");
    CHECK(p.globalRank == 9); // the node's rank=1 is not a process rank
    CHECK(p.pid == -1);
    LinePrefix head;
    CHECK(stripPrefixes("(head, rank=0, pid=2338) node1:12:34 [0] NCCL INFO x", head) == "node1:12:34 [0] NCCL INFO x");
    CHECK(head.host == "head");
    LinePrefix task;
    CHECK(stripPrefixes("(task, pid=77) Traceback (most recent call last):", task) == "Traceback (most recent call last):");
    for (const char* notOne : { "(head, rank=0) x", "(see below, pid=1) x", "(head pid=) x" }) {
        LinePrefix q;
        CHECK(stripPrefixes(notOne, q) == notOne);
    }
}

TEST_CASE("a CI runner's bare clock and a collector's local time before NCCL's header are stripped", "[parsers][prefix]")
{
    LinePrefix p;
    CHECK(stripPrefixes("12:00:07 [rank3]:[E ProcessGroupNCCL.cpp:1316] x", p) == "[E ProcessGroupNCCL.cpp:1316] x");
    CHECK(p.globalRank == 3);
    LinePrefix b;
    CHECK(stripPrefixes("[12:00:07.250] node1:12:34 [0] NCCL INFO x", b) == "node1:12:34 [0] NCCL INFO x");
    LinePrefix t;
    CHECK(stripPrefixes("2024-05-01 10:00:07 [15]worker-23:83:2526 [0] misc/socket.cc:503 NCCL WARN x", t)
        == "worker-23:83:2526 [0] misc/socket.cc:503 NCCL WARN x");
    CHECK(t.mpiRank == 15);
    CHECK(t.collectorTime == "2024-05-01 10:00:07");
    LinePrefix n;
    CHECK(stripPrefixes("2024-05-01 10:00:07.5 worker-23:83:2526 [0] NCCL INFO x", n) == "worker-23:83:2526 [0] NCCL INFO x");
    // A program's own logging time before its message stays (the message is the program's).
    for (const char* notOne : { "2024-05-01 10:00:07,123 - INFO - saved", "12:00 not a clock", "[12:00:07]x", "12:00:07" }) {
        LinePrefix q;
        CHECK(stripPrefixes(notOne, q) == notOne);
    }
}

TEST_CASE("Determined AI's tag after its time gives the worker's rank", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("[2024-02-27T21:35:28.726901Z] fa88a9df [rank=2] ||   File \"train.py\", line 126", p);
    CHECK(p.globalRank == 2);
    CHECK(p.collectorTime == "2024-02-27T21:35:28.726901Z");
    CHECK(body == "  File \"train.py\", line 126");
    LinePrefix master;
    CHECK(stripPrefixes("[2024-02-27T21:05:03.626766Z]          || INFO: Scheduling Trial 139", master)
        == "INFO: Scheduling Trial 139");
    CHECK(master.globalRank < 0);
    // Without the time in front, or without the "|| ", the words are the line's own.
    LinePrefix q;
    CHECK(stripPrefixes("fa88a9df [rank=2] || x", q) == "fa88a9df [rank=2] || x");
    LinePrefix r;
    CHECK(stripPrefixes("[2024-02-27T21:35:28.726901Z] deadbeef [rank=2] x", r) == "deadbeef [rank=2] x");
    CHECK(r.globalRank < 0);
}

TEST_CASE("pdsh host prefix is a host, not an exception", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("node12: [default0]:hello", p);
    CHECK(p.host == "node12");
    CHECK(p.localRank == 0);
    CHECK(body == "hello");

    LinePrefix ip;
    CHECK(stripPrefixes("202.197.0.170: [rank1]:x", ip) == "x");
    CHECK(ip.host == "202.197.0.170");

    for (const char* notHost : { "RuntimeError: CUDA error: an illegal memory access",
             "torch.distributed.DistBackendError: NCCL error in: x",
             "ValueError: bad", "rank0: loss 1.2", "step100: loss 3" }) {
        LinePrefix q;
        CHECK(stripPrefixes(notHost, q) == notHost);
        CHECK(q.host.empty());
    }
}

TEST_CASE("NCCL header is not mistaken for a prefix", "[parsers][prefix]")
{
    LinePrefix p;
    const char* line = "PHLRR3088:25515:25600 [2] NCCL INFO comm 0x5614942e7890 rank 10";
    CHECK(stripPrefixes(line, p) == line);
    CHECK(p.empty());
}

TEST_CASE("Ray actor prefix gives pid and ip", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("(RayWorkerWrapper pid=270291, ip=10.175.94.190) INFO x", p);
    CHECK(p.pid == 270291);
    CHECK(p.ip == "10.175.94.190");
    CHECK(body == "INFO x");
}

TEST_CASE("vLLM's worker prefix gives the rank and its logger header is stripped", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes(
        "(VllmWorker rank=1 pid=97) ERROR 03-20 23:26:06 [multiproc_executor.py:375] Last error:", p);
    CHECK(p.globalRank == 1);
    CHECK(p.pid == 97);
    CHECK(body == "Last error:");
    // Before 0.7 the file and line were not bracketed; a path may lead them.
    LinePrefix q;
    body = stripPrefixes("(RayWorkerWrapper pid=11305) ERROR 08-27 05:12:18 worker_base.py:382] RuntimeError: NCCL error", q);
    CHECK(q.pid == 11305);
    CHECK(q.globalRank == -1);
    CHECK(body == "RuntimeError: NCCL error");
    LinePrefix r;
    body = stripPrefixes("ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] WorkerProc failed to start.", r);
    CHECK(body == "WorkerProc failed to start.");
    CHECK(r.empty());
    // Text that only looks a little like it stays.
    LinePrefix s1;
    CHECK(stripPrefixes("ERROR 03-20 something [x.py:1] y", s1) == "ERROR 03-20 something [x.py:1] y");
    CHECK(stripPrefixes("INFO 03-20 23:26:06 [not a file] y", s1) == "INFO 03-20 23:26:06 [not a file] y");
    CHECK(stripPrefixes("WARNING 03-20 23:26:06 [x.cc:12] y", s1) == "WARNING 03-20 23:26:06 [x.cc:12] y");
}

TEST_CASE("Lightning rank prefix and viewer line numbers", "[parsers][prefix]")
{
    LinePrefix p;
    CHECK(stripPrefixes("[rank: 1] Epoch 3", p) == "Epoch 3");
    CHECK(p.globalRank == 1);
    LinePrefix q;
    CHECK(stripPrefixes("[80746] [rank0]:[E321 x", q) == "[E321 x");
    CHECK(q.globalRank == 0);
    LinePrefix dmesg;
    CHECK(stripPrefixes("[ 1399.140323] NVRM: Xid", dmesg) == "[ 1399.140323] NVRM: Xid");
}

TEST_CASE("hostile prefix repetition terminates", "[parsers][prefix]")
{
    std::string line;
    for (int i = 0; i < 10000; ++i)
        line += "[rank1]:";
    LinePrefix p;
    auto body = stripPrefixes(line, p);
    CHECK(body.size() == line.size() - 8 * 8);
}

TEST_CASE("a line starting with an NCCL header has no prefix to strip", "[parsers][prefix]")
{
    // The scanner skips stripPrefixes for lines that start with the NCCL header cached from
    // an earlier line ("host:pid:tid [dev] NCCL INFO "): hosts are [A-Za-z0-9._-]+ (not all
    // digits), so no launcher prefix can match. Checked on random headers and messages.
    std::mt19937 rng(11);
    const std::string hostChars
        = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
    const std::string tailChars = "[]():, 0123456789abcdefABCDEF<>-_.=\r";
    for (int round = 0; round < 20000; ++round) {
        std::string host;
        const std::size_t hostLength = 1 + rng() % 24;
        for (std::size_t i = 0; i < hostLength; ++i)
            host += hostChars[rng() % hostChars.size()];
        if (host.find_first_not_of("0123456789") == std::string::npos)
            host += "x";
        std::string line = host + ":" + std::to_string(rng() % 100000) + ":"
            + std::to_string(rng() % 100000) + " [" + std::to_string(rng() % 8) + "] NCCL INFO ";
        const std::size_t tailLength = rng() % 40;
        for (std::size_t i = 0; i < tailLength; ++i)
            line += tailChars[rng() % tailChars.size()];
        INFO(line);
        LinePrefix p;
        REQUIRE(stripPrefixes(line, p) == line);
        REQUIRE(p.empty());
    }
}

#include "scanhelpers.h"

TEST_CASE("pieces of a line after a carriage return keep the line's launcher label", "[parsers][prefix]")
{
    auto p = rankscope::testing::scan("07: Epoch 0:  50%|##   | 20/40\r[E ProcessGroupNCCL.cpp:737] [Rank 7] Watchdog caught "
                                      "collective operation timeout: WorkNCCL(SeqNum=172, OpType=ALLREDUCE, Timeout(ms)=1800000) "
                                      "ran for 1800050 milliseconds before timing out.\n",
        "slurm-1.out");
    const auto* e = rankscope::testing::firstOf(p, rankscope::model::EventKind::TorchWatchdogTimeout);
    REQUIRE(e);
    CHECK(p.identities[e->identity].srunTask == 7);
}

TEST_CASE("grep -H file names are stripped, and a rank in the name is kept", "[lineprefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("LOG1.0.txt:learnfair062:32615:32615 [0] NCCL INFO Broadcast: opCount 0", p);
    CHECK(body == "learnfair062:32615:32615 [0] NCCL INFO Broadcast: opCount 0");
    CHECK(p.globalRank == -1);

    LinePrefix q;
    body = stripPrefixes("logs/rank3.log:1207:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog", q);
    CHECK(body == "[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog");
    CHECK(q.globalRank == 3);

    // Not file names: NCCL's header, an exception, a host label.
    LinePrefix r;
    CHECK(stripPrefixes("node1:83:2526 [0] NCCL INFO x", r) == "node1:83:2526 [0] NCCL INFO x");
    CHECK(stripPrefixes("ValueError: bad.txt: missing", r) == "ValueError: bad.txt: missing");
    CHECK(stripPrefixes("config.yaml: loaded", r) == "config.yaml: loaded");
}

TEST_CASE("a log collector's RFC 3339 time in front of the line is stripped and kept", "[parsers][prefix]")
{
    LinePrefix p;
    // kubectl logs --timestamps / docker logs -t, then the PyTorch prefix.
    auto body = stripPrefixes("2024-05-01T10:00:00.123456789Z [rank11]:[E ProcessGroupNCCL.cpp:1] m", p);
    CHECK(p.collectorTime == "2024-05-01T10:00:00.123456789Z");
    CHECK(p.globalRank == 11);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1] m");

    // A CRI log file line: stream and full/partial tag after the time.
    LinePrefix cri;
    body = stripPrefixes("2024-05-01T10:00:00.5+02:00 stderr F [default3]:hello", cri);
    CHECK(cri.collectorTime == "2024-05-01T10:00:00.5+02:00");
    CHECK(cri.localRank == 3);
    CHECK(body == "hello");

    // A cloud export separated by a tab.
    LinePrefix tab;
    body = stripPrefixes("2024-05-01T10:00:00Z\tnode1:12:12 [0] NCCL INFO x", tab);
    CHECK(tab.collectorTime == "2024-05-01T10:00:00Z");
    CHECK(body == "node1:12:12 [0] NCCL INFO x");

    // A program's own ISO time has no zone: it stays in the message.
    LinePrefix own;
    body = stripPrefixes("2024-05-01T10:00:00.123 INFO started", own);
    CHECK(own.collectorTime.empty());
    CHECK(body == "2024-05-01T10:00:00.123 INFO started");
}

TEST_CASE("a bracketed date and time in front of the line is stripped and kept", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("[2024-05-01 10:00:00] [rank11]:[E ProcessGroupNCCL.cpp:1] m", p);
    CHECK(p.collectorTime == "2024-05-01 10:00:00");
    CHECK(p.globalRank == 11);
    CHECK(body == "[E ProcessGroupNCCL.cpp:1] m");

    LinePrefix nccl;
    body = stripPrefixes("[2025-03-01T12:00:05.123+0200] node1:12:34 [0] NCCL WARN x", nccl);
    CHECK(nccl.collectorTime == "2025-03-01T12:00:05.123+0200");
    CHECK(body == "node1:12:34 [0] NCCL WARN x");

    // A PyTorch envelope and a dmesg time are not dates: left to their parsers.
    LinePrefix torch;
    body = stripPrefixes("[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] m", torch);
    CHECK(torch.collectorTime.empty());
    CHECK(body == "[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] m");
    LinePrefix dmesg;
    body = stripPrefixes("[ 1399.140323] NVRM: Xid", dmesg);
    CHECK(dmesg.collectorTime.empty());
}

TEST_CASE("a local time before PyTorch's rank prefix is the collector's, not the message's", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("2024-11-20 14:37:16 [rank3]: torch.OutOfMemoryError: CUDA out of memory.", p);
    CHECK(p.globalRank == 3);
    CHECK(p.collectorTime == "2024-11-20 14:37:16");
    CHECK(body == " torch.OutOfMemoryError: CUDA out of memory."); // the space after the prefix is kept, as for any "[rankN]: "

    LinePrefix tee;
    body = stripPrefixes("2024-11-20 14:37:16.123 [default2]:hello", tee);
    CHECK(tee.localRank == 2);
    CHECK(body == "hello");

    // Python logging's own time stays the message's: no rank prefix follows it.
    LinePrefix logging;
    body = stripPrefixes("2024-11-20 14:37:16,123 - INFO - [rank3] starting", logging);
    CHECK(logging.globalRank == -1);
    CHECK(logging.collectorTime.empty());
    LinePrefix bracket;
    body = stripPrefixes("2024-11-20 14:37:16 [INFO] [rank3]: x", bracket);
    CHECK(bracket.collectorTime.empty());
    CHECK(bracket.globalRank == -1);
}

TEST_CASE("a line set in Markdown emphasis loses its markers with the prefixes", "[parsers][prefix]")
{
    LinePrefix p;
    auto body = stripPrefixes("2024-05-01T10:00:00Z **[rank1]: RuntimeError: boom**", p);
    CHECK(p.globalRank == 1);
    CHECK(body == " RuntimeError: boom");
}
