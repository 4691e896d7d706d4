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

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
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

// A watchdog timeout of `rank` at `seq` on PG 0, in PyTorch 2.x's form, of `numel` elements.
std::string seqTimeout(int rank, int seq, const char* op, int numel = 6)
{
    const std::string r = std::to_string(rank);
    const std::string n = std::to_string(numel);
    return "[rank" + r + "]:[E1207 10:30:00.1 ProcessGroupNCCL.cpp:632] [PG ID 0 PG GUID 0 Rank " + r
        + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(seq) + ", OpType=" + op
        + ", NumelIn=" + n + ", NumelOut=" + n + ", Timeout(ms)=600000) ran for 600086 milliseconds before timing out.\n";
}

// One NCCL COLL line per device of `host` at opCount 0x7 ("[nranks=N]" with N = `nranks`, the
// host's device count when 0); the device `odd` calls a different count.
std::string collLines(const std::string& host, int devices, int odd, int nranks = 0)
{
    std::string text;
    for (int d = 0; d < devices; ++d)
        text += host + ":" + std::to_string(4100 + d) + ":" + std::to_string(4100 + d) + " [" + std::to_string(d)
            + "] NCCL INFO AllReduce: opCount 7 sendbuff 0x7f0000000000 recvbuff 0x7f0000000000 count "
            + (d == odd ? "999" : "1024") + " datatype 7 op 0 root 0 comm 0x55000000000" + std::to_string(d)
            + " [nranks=" + std::to_string(nranks ? nranks : devices) + "] stream 0x5600000000\n";
    return text;
}

// The ≤2.3 watchdog line of a rank that timed out in barrier() (a one-element ALLREDUCE,
// SeqNum 2) after `ranForMs`, behind whatever prefix collected it.
std::string barrierTimeout(const std::string& prefix, int rank, int ranForMs)
{
    return prefix + "[E ProcessGroupNCCL.cpp:475] [Rank " + std::to_string(rank)
        + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, "
          "NumelOut=1, Timeout(ms)=1800000) ran for "
        + std::to_string(ranForMs) + " milliseconds before timing out.\n";
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
    // Every finding and every verdict says something in words, whichever rule made it: its
    // words come from the knowledge base, and a rule missing there would say nothing.
    if (v["status"] != "no_hang_found")
        CHECK_FALSE(v["summary"].get<std::string>().empty());
    for (const auto& f : j["findings"]) {
        INFO(f["rule"].get<std::string>());
        CHECK_FALSE(f["title"].get<std::string>().empty());
        CHECK(f["title"].get<std::string>() != f["rule"].get<std::string>());
        CHECK_FALSE(f["explanation"].get<std::string>().empty());
        static const std::regex kUnfilled("\\{(missing phrase [^}]*|[a-z_]+)\\}"); // left unfilled
        CHECK_FALSE(std::regex_search(f["title"].get<std::string>(), kUnfilled));
        CHECK_FALSE(std::regex_search(f["explanation"].get<std::string>(), kUnfilled));
        // Sentences a reader trips on: a message's own full stop doubled, a count of nobody.
        static const std::regex kClumsy("[^.]\\.\\. | 0 other rank");
        CHECK_FALSE(std::regex_search(f["explanation"].get<std::string>(), kClumsy));
    }
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
        // src/include/alloc.h's WARN as PyTorch quotes it after "Last error:" (the exception
        // carries NCCL's text): the allocation failed; a pdsh prefix names a host, no rank.
        { "nccl-calloc-quoted",
            { { "paste.log",
                "10.1.2.3: RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, "
                "internal error, NCCL version 2.14.3\n"
                "10.1.2.3: ncclInternalError: Internal check failed.\n"
                "10.1.2.3: Last error:\n"
                "10.1.2.3: Failed to CUDA calloc async 1920 bytes\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // init.cc's WARN text alone at the top of a traceback pasted innermost line first: the
        // message PyTorch quotes after "Last error:", before the "Last error:" it belongs to.
        { "duplicate-gpu-reversed",
            { { "paste.log",
                "Duplicate GPU detected : rank 3 and rank 1 both on CUDA device 1a000\n"
                " Last error:\n"
                "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:268, "
                "invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5\n" } },
            "hang_diagnosed", "configuration", {} },
        // A kernel's assert() failing on the device (ATen's index checks) with no rank in the
        // paste: that process died of its own bug; the class is known, the rank is not.
        { "kernel-assert-unranked",
            { { "paste.log",
                "../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block: [9,0,0], thread: [62,0,0] "
                "Assertion `srcIndex < srcSelectDimSize` failed.\n"
                "Traceback (most recent call last):\n"
                "  File \"train.py\", line 218, in <module>\n"
                "    run()\n" } },
            "hang_diagnosed", "rank_crashed", {} },
        // The same fault with a rank prefix names the rank.
        { "kernel-assert-ranked",
            { { "paste.log",
                "[rank5]: ../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block: [9,0,0], "
                "thread: [62,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
                "[rank2]:[E1206 18:44:13.275158817 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective "
                "operation timeout: WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
                "ran for 600021 milliseconds before timing out.\n" } },
            "hang_diagnosed", "rank_crashed", { 5 } },
        // ibvwrap's WARN when a queue pair cannot go INIT -> RTR, behind a header the paste
        // redacted (no pid, no tid): the NIC/GID selection, stated by the verbs call.
        { "ib-modify-qp-redacted-header",
            { { "paste.log",
                "[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp "
                "failed with 110 Connection timed out, on dev mlx5_4:1, curr state INIT, next state RTR\n" } },
            "hang_diagnosed", "configuration", {} },
        // Lib/argparse.py: every worker refuses the --local-rank the launcher passes and exits 2;
        // torchrun's record names the first it saw, not a culprit.
        { "argparse-local-rank",
            { { "paste.log",
                "usage: train.py [-h] [--local_rank LOCAL_RANK]\n"
                "train.py: error: unrecognized arguments: --local-rank=1\n"
                "usage: train.py [-h] [--local_rank LOCAL_RANK]\n"
                "train.py: error: unrecognized arguments: --local-rank=0\n"
                "[2024-05-05 12:13:17,382] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 2) "
                "local_rank: 0 (pid: 25314) of binary: /usr/bin/python\n" } },
            "hang_diagnosed", "configuration", {} },
        // A NCCL allocation failure logged after the process saw a peer of its host exit: the
        // class stands, the first to fail is not that rank.
        { "allocation-after-peer-exit",
            { { "paste.log",
                "[1,0]<stdout>:node1:402:458 [0] NCCL INFO [Service thread] Connection closed by localRank 6\n"
                "[1,0]<stdout>:node1:402:402 [0] enqueue.cc:1451 NCCL WARN Cuda failure 2 'out of memory'\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // mm/oom_kill.c: the kernel killed a python process whose pid no rank printed; Ray's
        // memory monitor (node_manager.cc) does the same by the node's memory threshold.
        { "kernel-oom-python",
            { { "dmesg.txt",
                "[Mon Dec  4 10:00:00 2026] Out of memory: Killed process 4242 (python3) total-vm:123456kB, "
                "anon-rss:99999kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:1000kB oom_score_adj:0\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        { "kernel-oom-daemon",
            { { "dmesg.txt",
                "[Mon Dec  4 10:00:00 2026] Out of memory: Killed process 4242 (node_exporter) total-vm:123456kB, "
                "anon-rss:99999kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1000kB oom_score_adj:0\n" } },
            "inconclusive", "unknown", {} },
        { "ray-memory-monitor",
            { { "paste.log",
                "(raylet) [2024-08-25 19:21:02,241 E 1111013 1111013] (raylet) node_manager.cc:3064: 12 Workers "
                "(tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node "
                "(ID: b8aad7, IP: 172.31.105.218) over the last time period.\n" } },
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
        // main_process_first(): rank 0 maps the dataset while the others wait in barrier()
        // (a 1-element ALLREDUCE) until their watchdog fires; rank 0's bar is unprefixed.
        { "busy-main-process-barrier",
            { { "paste.log",
                "Running tokenizer on dataset:  61%|######    | 61000/100000 [29:41<19:02, 34.2 examples/s]"
                + barrierTimeout("", 2, 1800410)
                + barrierTimeout("", 1, 1800397) } },
            "hang_diagnosed", "straggler_stall", { 0 } },
        // The same wait after a step that finished (100 %) in 33 s of a 30-minute timeout: that
        // step ended long before the others gave up, so it is not what held them.
        { "finished-bar-short-of-the-timeout",
            { { "paste.log",
                "Loading checkpoint shards: 100%|##########| 38/38 [00:33<00:00,  1.15it/s]\n"
                + barrierTimeout("", 2, 1800410)
                + barrierTimeout("", 1, 1800397) } },
            "inconclusive", "straggler_stall", {} },
        // PyTorch's NCCL error quotes NCCL's last WARN after "Last error:": a /dev/shm segment it
        // could not create is the node's shared memory, whichever line the paste kept a rank on.
        { "shm-quoted-after-last-error",
            { { "paste.log",
                "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
                "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
                "[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
                "[rank0]: Last error:\n"
                "[rank0]: Error while creating shared memory segment /dev/shm/nccl-AbC123 (size 9637888)\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // torch/csrc/DataLoader.cpp: a worker's SIGBUS handler, then the main process's error.
        // Workers hand batches over through /dev/shm; a full tmpfs kills them: the node's limit.
        { "dataloader-sigbus",
            { { "paste.log",
                "[rank3]:ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
                "[rank3]:RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. It is possible that "
                "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.\n"
                "[rank0]:[E1203 10:10:07.123456 140 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=2070, OpType=ALLREDUCE, NumelIn=1000, NumelOut=1000, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // ATen's MapAllocator could not fill one of torch's own /dev/shm files ("/torch_<pid>_<n>"):
        // /dev/shm is full, as for NCCL's segments.
        { "torch-shm-file-full",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"/usr/lib/python3.10/multiprocessing/queues.py\", line 244, in _feed\n"
                "    obj = _ForkingPickler.dumps(obj)\n"
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/reductions.py\", line 618, in reduce_storage\n"
                "    fd, size = storage._share_fd_cpu_()\n"
                "RuntimeError: unable to write to file </torch_739_144252761_4>: No space left on device (28)\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // multiprocessing.synchronize.SemLock -> sem_open, a file in /dev/shm: ENOSPC there is
        // /dev/shm full. The same errno from saving a checkpoint is a disk, not /dev/shm.
        { "semaphore-on-full-shm",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"/usr/lib/python3.10/multiprocessing/context.py\", line 68, in Lock\n"
                "    return Lock(ctx=self.get_context())\n"
                "  File \"/usr/lib/python3.10/multiprocessing/synchronize.py\", line 162, in __init__\n"
                "    SemLock.__init__(self, SEMAPHORE, 1, 1, ctx=ctx)\n"
                "  File \"/usr/lib/python3.10/multiprocessing/synchronize.py\", line 57, in __init__\n"
                "    sl = self._semlock = _multiprocessing.SemLock(\n"
                "OSError: [Errno 28] No space left on device\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        { "checkpoint-on-full-disk",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"train.py\", line 20, in save\n"
                "    torch.save(model.state_dict(), path)\n"
                "OSError: [Errno 28] No space left on device\n" } },
            "inconclusive", "unknown", {} },
        // torch/utils/data/dataloader.py: the DataLoader's own words for EMFILE. The open-files
        // limit is the job's setting, the same on every rank: configuration, no rank named.
        { "dataloader-open-files",
            { { "paste.log",
                "[rank2]:Traceback (most recent call last):\n"
                "[rank2]:  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py\", line 1146, in _try_get_data\n"
                "[rank2]:    raise RuntimeError(\n"
                "[rank2]:RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase "
                "the limit using `ulimit -n` in the shell or change the sharing strategy by calling "
                "`torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code\n"
                "[rank0]:[E1203 10:10:07.123456 140 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=2070, OpType=ALLREDUCE, NumelIn=1000, NumelOut=1000, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n" } },
            "hang_diagnosed", "configuration", {} },
        // multiprocessing.reduction.recvfds: a batch's descriptors could not be passed.
        { "dataloader-ancdata",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"/opt/conda/lib/python3.10/multiprocessing/reduction.py\", line 164, in recvfds\n"
                "    raise RuntimeError(\"received %d items of ancdata\" %\n"
                "RuntimeError: received 0 items of ancdata\n" } },
            "hang_diagnosed", "configuration", {} },
        // Gloo connects to the address each peer published. Refused by a hostname's loopback
        // address (127.0.1.1) from another host: the hostname resolves to loopback.
        { "gloo-hostname-loopback",
            { { "paste.log",
                "terminate called after throwing an instance of 'gloo::IoException'\n"
                "  what():  [../third_party/gloo/gloo/transport/tcp/pair.cc:724] connect [127.0.1.1]:29500: "
                "Connection refused\n" } },
            "hang_diagnosed", "configuration", {} },
        // ... but 127.0.0.1 refused on a one-host job with no fallback warning is a peer not
        // listening (yet, or any more): no configuration claim.
        { "gloo-one-host-peer-not-listening",
            { { "paste.log",
                "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [127.0.0.1]:41733: "
                "Connection refused\n" } },
            "inconclusive", "unknown", {} },
        // pdsh labels every line with its node. A label names a machine, not a process: on a
        // one-node job the unprefixed bar is still rank 0's.
        { "busy-pdsh-one-host",
            { { "paste.log",
                "gpu-node-7: Running tokenizer on dataset:  61%|######    | 61000/100000 [29:41<19:02, 34.2 examples/s]\n"
                + barrierTimeout("gpu-node-7: ", 2, 1800410)
                + barrierTimeout("gpu-node-7: ", 1, 1800397) } },
            "hang_diagnosed", "straggler_stall", { 0 } },
        // Two nodes, rank 0 placed on gpu-node-1 by its own prefixed line: the bar on gpu-node-1 can be
        // rank 0's, ...
        { "busy-pdsh-rank0-host",
            { { "paste.log",
                "gpu-node-1: [rank0]:[I ProcessGroupNCCL.cpp:686] [Rank 0] ProcessGroupNCCL initialization options: size: 4\n"
                "gpu-node-1: Running tokenizer on dataset:  61%|######    | 61000/100000 [29:41<19:02, 34.2 examples/s]\n"
                + barrierTimeout("gpu-node-1: [rank1]:", 1, 1800397)
                + barrierTimeout("gpu-node-2: [rank2]:", 2, 1800410)
                + barrierTimeout("gpu-node-2: [rank3]:", 3, 1800402) } },
            "hang_diagnosed", "straggler_stall", { 0 } },
        // ... the same bar on gpu-node-2 cannot: a process of gpu-node-2 drew it, and every rank of
        // gpu-node-2 is accounted for as a waiter.
        { "busy-pdsh-other-host",
            { { "paste.log",
                "gpu-node-1: [rank0]:[I ProcessGroupNCCL.cpp:686] [Rank 0] ProcessGroupNCCL initialization options: size: 4\n"
                "gpu-node-2: Running tokenizer on dataset:  61%|######    | 61000/100000 [29:41<19:02, 34.2 examples/s]\n"
                + barrierTimeout("gpu-node-1: [rank1]:", 1, 1800397)
                + barrierTimeout("gpu-node-2: [rank2]:", 2, 1800410)
                + barrierTimeout("gpu-node-2: [rank3]:", 3, 1800402) } },
            "inconclusive", "straggler_stall", {} },
        // An all-gather's output is its input times the group: four ranks, three of them seen
        // waiting in the same collective. The fourth, silent, is the one they wait for.
        { "silent-rank-all-others-wait",
            { { "paste.log",
                "[rank0]:[E513 13:25:57.7147 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=10, OpType=_ALLGATHER_BASE, NumelIn=513, NumelOut=2052, Timeout(ms)=1800000) ran for 1800042 "
                "milliseconds before timing out.\n"
                "[rank1]:[E513 13:25:57.7147 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=10, OpType=_ALLGATHER_BASE, NumelIn=513, NumelOut=2052, Timeout(ms)=1800000) ran for 1800042 "
                "milliseconds before timing out.\n"
                "[rank2]:[E513 13:25:57.7147 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=10, OpType=_ALLGATHER_BASE, NumelIn=513, NumelOut=2052, Timeout(ms)=1800000) ran for 1800042 "
                "milliseconds before timing out.\n" } },
            "hang_diagnosed", "unknown", { 3 } },
        // The same paste where rank 0 got past the broadcast the others wait in: the collective
        // completed for someone, so silence no longer says who holds the others.
        { "silent-rank-one-rank-ahead",
            { { "paste.log",
                "[rank1]:[E513 13:25:57.7147 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=10, OpType=BROADCAST, NumelIn=5164000, NumelOut=5164000, Timeout(ms)=1800000) ran for 1800042 "
                "milliseconds before timing out.\n"
                "[rank2]:[E513 13:25:57.7147 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=10, OpType=BROADCAST, NumelIn=5164000, NumelOut=5164000, Timeout(ms)=1800000) ran for 1800042 "
                "milliseconds before timing out.\n"
                "[rank0]:[E513 13:25:57.7147 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=12, OpType=_ALLGATHER_BASE, NumelIn=513, NumelOut=2052, Timeout(ms)=1800000) ran for 1800042 "
                "milliseconds before timing out.\n" } },
            "inconclusive", "unknown", {} },
        // The same wait seen through the c10d store: rank 1 asks for rank 0's unique id.
        { "busy-main-process-store-wait",
            { { "paste.log",
                "Map (num_proc=16):  80%|########  | 800/1000 [31:02<07:45, 0.43 examples/s]\n"
                "RuntimeError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d "
                "key-value store by key '0', but store->get('0') got error: Socket Timeout\n" } },
            "hang_diagnosed", "straggler_stall", { 0 } },
        // Bars from two ranks: nothing singles one out. The one-element ALLREDUCE still says a
        // rank had not reached it: a straggler, unnamed, inconclusive.
        { "busy-two-ranks",
            { { "paste.log",
                "[rank0]:Evaluating:  50%|#####     | 5/10 [25:00<25:00, 300.0s/it]\n"
                "[rank3]:Evaluating:  40%|####      | 4/10 [25:00<37:30, 375.0s/it]\n"
                "[rank1]:[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800397 milliseconds "
                "before timing out.\n" } },
            "inconclusive", "straggler_stall", {} },
        // The training loop's own bar, long as the timeout, and one rank timing out: the bar
        // counts the whole epoch, not the wait, so rank 0 is not named.
        { "busy-training-bar-is-not-elsewhere",
            { { "paste.log",
                "Epoch 3:  45%|####5     | 450/1000 [31:10<38:05, 4.16s/it, loss=2.31]\n"
                "[rank1]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=9001, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=1800000) ran for 1800039 "
                "milliseconds before timing out.\n" } },
            "inconclusive", "unknown", {} },
        // A bar and no one waiting: a job that is running.
        { "busy-nobody-waits",
            { { "paste.log", "Running tokenizer on dataset:  47%|####7     | 47/100 [30:11<38:27, 1578.58 examples/s]\n" } },
            "no_hang_found", "none", {} },
        // _store_based_barrier names each waiting rank; 3 of 4 joined and ranks 0, 1, 3 say so.
        { "store-barrier-one-missing",
            { { "paste.log",
                "INFO:root:Waiting in store based barrier to initialize process group for rank: 0, key: "
                "store_based_barrier_key:1 (world_size=4, worker_count=3, timeout=0:30:00)\n"
                "INFO:root:Waiting in store based barrier to initialize process group for rank: 3, key: "
                "store_based_barrier_key:1 (world_size=4, worker_count=3, timeout=0:30:00)\n"
                "INFO:root:Waiting in store based barrier to initialize process group for rank: 1, key: "
                "store_based_barrier_key:1 (world_size=4, worker_count=3, timeout=0:30:00)\n" } },
            "hang_diagnosed", "init_bootstrap", { 2 } },
        // One waiter of 2048 seen: the 256 missing ranks cannot be named.
        { "store-barrier-many-missing",
            { { "paste.log",
                "RuntimeError: Timed out initializing process group in store based barrier on rank: 17, for key: "
                "store_based_barrier_key:1 (world_size=2048, worker_count=1792, timeout=0:30:00)\n" } },
            "hang_diagnosed", "init_bootstrap", {} },
        // One fingerprint report only says two ranks differ, not which one is wrong.
        { "fingerprint-single-report",
            { { "paste.log",
                "RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
                "CollectiveFingerPrint(SequenceNumber=0, OpType=_ALLGATHER_BASE, TensorShape=[359, 1, 1435, 16], "
                "TensorDtypes=BFloat16), but Rank 2 is running collective: CollectiveFingerPrint(SequenceNumber=0, "
                "OpType=_ALLGATHER_BASE, TensorShape=[359, 1, 1436, 16], TensorDtypes=BFloat16).\n" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // Two ops at one SeqNum, three ranks of an unknown world seen: the odd one is unproven.
        { "op-mismatch-partial-group",
            { { "paste.log",
                "[rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=84, OpType=ALLREDUCE, NumelIn=48, NumelOut=48, Timeout(ms)=600000) ran for 600077 milliseconds before timing out.\n"
                "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=84, OpType=ALLREDUCE, NumelIn=48, NumelOut=48, Timeout(ms)=600000) ran for 600095 milliseconds before timing out.\n"
                "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=84, OpType=BROADCAST, NumelIn=5662, NumelOut=5662, Timeout(ms)=600000) ran for 600059 milliseconds before timing out.\n" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // stall_inspector.cc ≤0.19: ranks 0, 1, 3 submitted; rank 2 (below the highest named,
        // so it exists) submitted nothing.
        { "horovod-ready-ranks-straggler",
            { { "paste.log",
                "Stalled ops: HorovodBroadcast_conv1_weights_0 [ready ranks: 3, 1, 0], HorovodBroadcast_conv1_bias_0 "
                "[ready ranks: 3, 1, 0]\n" } },
            "hang_diagnosed", "straggler_stall", { 2 } },
        // Two camps: rank 3 alone submitted the loss allreduce, ranks 0-2 the gradients.
        { "horovod-two-camps",
            { { "paste.log",
                "HorovodAllreduce_loss_0 [ready ranks: 3], HorovodAllreduce_grad_w_0 [ready ranks: 2, 0, 1], "
                "HorovodAllreduce_grad_b_0 [ready ranks: 0, 2, 1]\n" } },
            "hang_diagnosed", "collective_mismatch", { 3 } },
        // ≥0.20 block; the last entry was cut before its "]" and must not make rank 3 look odd.
        { "horovod-missing-block-cut",
            { { "paste.log",
                "[0]<stderr>:Missing ranks:\n[0]<stderr>:0: [allreduce.noname.7]\n[0]<stderr>:1: [allreduce.noname.7]\n"
                "[0]<stderr>:2: [allreduce.noname.7]\n[0]<stderr>:3: [allreduce.no" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // NCCL's own lines name a process and a GPU index, not a rank: the class still holds.
        { "nccl-calloc-unmapped",
            { { "paste.log",
                "gpu-n7:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'\n"
                "gpu-n7:3063028:3066152 [3] include/alloc.h:185 NCCL WARN Failed to CUDA calloc 6291456 bytes\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        { "ib-error-several-hosts",
            { { "paste.log",
                "h1:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::96<53249> with error 4, opcode 32564, len 32564, vendor err 81 (Send)\n"
                "h2:9821:9920 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::97<44413> with error 4, opcode 32613, len 32613, vendor err 81 (Send)\n" } },
            "hang_diagnosed", "configuration", {} },
        { "ib-error-one-host-headerless",
            { { "paste.log", "NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129\n" } },
            "hang_diagnosed", "network_pair", {} },
        { "nvidia-smi-unknown-error",
            { { "paste.log", "$ nvidia-smi\nUnable to determine the device handle for GPU0000:03:00.0: Unknown Error\n" } },
            "hang_diagnosed", "hardware_fault", {} },
        { "nvls-cuda-failure",
            { { "paste.log", "node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'\n"
                              "node23:12098:12141 [2] NCCL INFO transport/nvls.cc:394 -> 1\n" } },
            "hang_diagnosed", "configuration", {} },
        // NCCL ≥2.27 words the NVLS bind failure itself (transport/nvls.cc), here with the
        // function NCCL 2.29's WARN header names after the source line, and quoted by PyTorch.
        { "nvls-bind-failure",
            { { "paste.log", "[2026-06-23 15:45:07] gpu-07:420:437 [5] transport/nvls.cc:379 (nvlsAllocateMem) NCCL WARN "
                              "Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 401 "
                              "'the operation cannot be performed in the present state'.\n" } },
            "hang_diagnosed", "configuration", {} },
        { "nvls-bind-failure-quoted",
            { { "paste.log", "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:93, unhandled cuda error "
                              "(run with NCCL_DEBUG=INFO for details), NCCL version 2.29.3\n"
                              "ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\n"
                              "Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 401 "
                              "'the operation cannot be performed in the present state'.\n" } },
            "hang_diagnosed", "configuration", {} },
        // Gloo's monitored barrier (TORCH_DISTRIBUTED_DEBUG=DETAIL's check before a collective):
        // rank 0 names the rank that never checked in; the ones that did wait and fail after it.
        { "monitored-barrier",
            { { "paste.log", "[rank0]:[E1207 10:00:00.123 ProcessGroupGloo.cpp:2810] [Rank 0]: Rank 2 failed to pass "
                              "monitoredBarrier in 1800000 ms\n"
                              "[rank1]: RuntimeError: Rank 1 successfully reached monitoredBarrier, but received errors "
                              "while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
                              "[rank3]: RuntimeError: Rank 3 successfully reached monitoredBarrier, but received errors "
                              "while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n" } },
            "hang_diagnosed", "straggler_stall", { 2 } },
        // Watchdogs name each rank's oldest unfinished collective: rank 3 at #12 finished #10
        // and #11, all-reduces that needed ranks 0-2, which never got past #10. Rank 3 made
        // calls the others did not.
        { "timeout-seq-offset",
            { { "paste.log", seqTimeout(0, 10, "ALLREDUCE") + seqTimeout(1, 10, "ALLREDUCE") + seqTimeout(2, 10, "ALLREDUCE")
                              + seqTimeout(3, 12, "ALLREDUCE") } },
            "hang_diagnosed", "collective_mismatch", { 3 } },
        // One apart: rank 3 may be stuck inside #10 that the others got through (a GPU or a
        // link hung mid-call), so no mismatch is read.
        { "timeout-seq-one-apart",
            { { "paste.log", seqTimeout(0, 11, "ALLREDUCE") + seqTimeout(1, 11, "ALLREDUCE") + seqTimeout(2, 11, "ALLREDUCE")
                              + seqTimeout(3, 10, "ALLREDUCE") } },
            "inconclusive", "unknown", {} },
        // A broadcast's root can finish into buffers its peers have not read: no reading.
        { "timeout-seq-broadcast",
            { { "paste.log", seqTimeout(0, 12, "BROADCAST") + seqTimeout(1, 10, "BROADCAST") + seqTimeout(2, 10, "BROADCAST")
                              + seqTimeout(3, 10, "BROADCAST") } },
            "inconclusive", "unknown", {} },
        // NCCL refusing the topology or graph file it was given (graph/search.cc, graph/xml.h).
        { "topology-graph-file",
            { { "paste.log", "vm1:73025:73112 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/vendor/graph.xml\n"
                              "vm1:73025:73112 [0] graph/search.cc:719 NCCL WARN XML Import Channel : dev 1 not found.\n"
                              "vm1:73025:73112 [0] NCCL INFO graph/search.cc:749 -> 2\n" } },
            "hang_diagnosed", "configuration", {} },
        { "topology-file-attribute",
            { { "paste.log", "p5a:2196:2275 [1] graph/xml.h:101 NCCL WARN Attribute arch of node cpu not found\n"
                              "p5a:2196:2275 [1] NCCL INFO graph/topo.cc:493 -> 3\n" } },
            "hang_diagnosed", "configuration", {} },
        // The same words as an INFO are NCCL probing an optional attribute: nothing wrong.
        { "topology-attribute-info",
            { { "paste.log", "u1:199574:201479 [1] NCCL INFO Attribute coll of node net not found\n"
                              "u1:199574:201479 [1] NCCL INFO comm 0x5581 rank 1 nranks 2 cudaDev 1 busId b1000 - Init COMPLETE\n" } },
            "no_hang_found", "none", {} },
        // Only the other side of the barrier: rank 1 reached it and lost rank 0, the one rank
        // that enforces it. Where rank 0's own log is missing, rank 0 is the lead.
        { "monitored-barrier-coordinator-gone",
            { { "paste.log", "[rank1]: RuntimeError: Rank 1 successfully reached monitoredBarrier, but received errors "
                              "while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
                              "[rank1]:  Original exception: \n"
                              "[rank1]: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
                              "[192.168.1.2]:35230\n" } },
            "inconclusive", "rank_crashed", {} },
        // The same with rank 0's own traceback in the paste, naming nobody behind: rank 0 failed.
        { "monitored-barrier-coordinator-failed",
            { { "paste.log", "[rank0]: Traceback (most recent call last):\n"
                              "[rank0]:   File \"train.py\", line 360, in <module>\n"
                              "[rank0]:     main()\n"
                              "[rank1]: RuntimeError: Rank 1 successfully reached monitoredBarrier, but received errors "
                              "while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n" } },
            "hang_diagnosed", "rank_crashed", { 0 } },
        // The CUDACHECK idiom (printf "Failed: Cuda error file:line 'msg'", exit): a custom
        // all-reduce mapping the other GPU's memory where the platform has no peer-to-peer path.
        { "cudacheck-peer-access",
            { { "paste.log", "Failed: Cuda error /build/csrc/custom_all_reduce.cuh:307 'peer access is not supported "
                              "between these two devices'\n" } },
            "hang_diagnosed", "configuration", {} },
        // NCCL's own WARN with the same words: NCCL falls back to another transport, no cause.
        { "nccl-peer-access-warn",
            { { "paste.log", "ws1:301:301 [0] transport/p2p.cc:274 NCCL WARN Cuda failure 'peer access is not supported "
                              "between these two devices'\n"
                              "ws1:301:301 [0] NCCL INFO comm 0x55 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n" } },
            "inconclusive", "unknown", {} },
        // Ranks reached the end of the script with live process groups (ProcessGroupNCCL's
        // exit warning), then another rank's watchdog got stuck: the teardown hung.
        { "exit-without-destroy-then-watchdog-stuck",
            { { "paste.log",
                "[rank0]:[W205 18:00:34.9 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was "
                "not called before program exit, which can leak resources. (function operator())\n"
                "[rank1]:[W205 18:00:35.2 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was "
                "not called before program exit, which can leak resources. (function operator())\n"
                "[rank3]:[E205 18:11:06.3 ProcessGroupNCCL.cpp:1870] [PG ID 12 PG GUID 99(EXPERT_MODEL_PARALLEL_GROUP) "
                "Rank 3] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in "
                "monitoring enqueued collectives.\n" } },
            "hang_diagnosed", "configuration", {} },
        // The watchdog stuck before anyone exited: a hang during the run, the exit says nothing.
        { "watchdog-stuck-before-exit-warning",
            { { "paste.log",
                "[rank3]:[E205 17:11:06.3 ProcessGroupNCCL.cpp:1870] [PG ID 0 PG GUID 0(default_pg) Rank 3] "
                "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring "
                "enqueued collectives.\n"
                "[rank0]:[W205 18:00:34.9 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was "
                "not called before program exit, which can leak resources. (function operator())\n" } },
            "inconclusive", "unknown", {} },
        // A healthy run's exit warnings alone: no hang.
        { "exit-without-destroy-only",
            { { "paste.log",
                "[rank0]:[W205 18:00:34.9 ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was "
                "not called before program exit, which can leak resources. (function operator())\n" } },
            "no_hang_found", "none", {} },
        // Every process's NCCL output ends binding memory to the NVLS multicast group, which
        // waits for the whole node: where set-up stopped, a lead (NCCL_NVLS_ENABLE=0 confirms).
        { "nvls-bind-last-line",
            { { "paste.log",
                "c2ce:1023:1032 [0] NCCL INFO NVLS Bind mem 0xac0000000 UC handle 0x7f33 MC handle 0x7f34 size 1073741824\n"
                "c2ce:1024:1034 [1] NCCL INFO NVLS Bind mem 0xac0000000 UC handle 0x7f35 MC handle 0x7f34 size 1073741824\n" } },
            "inconclusive", "configuration", {} },
        // The same steps with the communicators up afterwards: nothing stopped there.
        { "nvls-bind-then-init-complete",
            { { "paste.log",
                "c2ce:1023:1032 [0] NCCL INFO NVLS Bind mem 0xac0000000 UC handle 0x7f33 MC handle 0x7f34 size 1073741824\n"
                "c2ce:1024:1034 [1] NCCL INFO NVLS Bind mem 0xac0000000 UC handle 0x7f35 MC handle 0x7f34 size 1073741824\n"
                "c2ce:1023:1032 [0] NCCL INFO comm 0x55 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0x1 - Init COMPLETE\n"
                "c2ce:1024:1034 [1] NCCL INFO comm 0x56 rank 1 nranks 2 cudaDev 1 busId 2000 commId 0x1 - Init COMPLETE\n" } },
            "no_hang_found", "none", {} },
        // TensorRT-LLM's start-up warning that two GPUs have no peer access, then a worker's
        // exit with nothing else said: its custom all-reduce's IPC set-up, most likely.
        { "trtllm-peer-access-then-exit",
            { { "paste.log", "[TensorRT-LLM][WARNING] Device 0 peer access Device 1 is not available.\n"
                              "[TensorRT-LLM][WARNING] Device 1 peer access Device 0 is not available.\n"
                              "[TensorRT-LLM][INFO] Loaded engine size: 3568 MiB\n"
                              "-------------------------------------------------------\n"
                              "Primary job  terminated normally, but 1 process returned\n"
                              "a non-zero exit code. Per user-direction, the job has been aborted.\n"
                              "-------------------------------------------------------\n" } },
            "hang_diagnosed", "configuration", {} },
        // The same warnings in a run that goes on: harmless, no cause.
        { "turbomind-peer-access-warnings-only",
            { { "paste.log", "[TM][WARNING] Device 0 peer access Device 1 is not available.\n"
                              "[TM][WARNING] Device 1 peer access Device 0 is not available.\n" } },
            "no_hang_found", "none", {} },
        // One process's py-spy dump pasted alone, inside an NCCL all-reduce, nothing timed out:
        // a lead on where it stood, never "no hang".
        { "pyspy-unranked-in-collective",
            { { "paste.log", "Thread 1302975 (active): \"MainThread\"\n"
                              "    sched_yield (libc.so.6)\n"
                              "    ncclLaunchKernelBefore_NoUncapturedCuda (enqueue.cc:968)\n"
                              "    groupLaunch (group.cc:339)\n"
                              "    ncclEnqueueCheck (enqueue.cc:1981)\n"
                              "    ncclAllReduce (collectives.cc:49)\n"
                              "    all_reduce (torch/distributed/distributed_c10d.py:2288)\n"
                              "    forward (model.py:120)\n" } },
            "inconclusive", "unknown", {} },
        // An Open MPI tag names the rank whose socket could not be created.
        { "socket-family",
            { { "paste.log", "[1,4]<stdout>:gpu7:4105:4372 [0] include/socket.h:318 NCCL WARN Net : Socket creation failed : "
                              "Address family not supported by protocol\n" } },
            "hang_diagnosed", "configuration", { 4 } },
        // The same failure quoted by PyTorch after "Last error:", one rank's.
        { "socket-interface-quoted",
            { { "paste.log", "[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:2588, internal "
                              "error - please report this issue to the NCCL developers, NCCL version 2.21.5\n"
                              "[rank0]: ncclInternalError: Internal check failed.\n[rank0]: Last error:\n"
                              "[rank0]: Bootstrap : no socket interface found\n" } },
            "hang_diagnosed", "configuration", { 0 } },
        // A terminal hard-wrapped the watchdog lines: the WorkNCCL(…) of each timeout is on
        // the next line, and rank 3's status lost its counters to the wrap. Ranks 1, 2 run
        // REDUCE, rank 6 ALLREDUCE at #70: a mismatch, and no side can be picked.
        { "hard-wrapped-watchdog",
            { { "paste.log",
                "node-a [stderr] [rank1]:[E909 09:55:29.307629539 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: \n"
                "WorkNCCL(SeqNum=70, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600034 milliseconds before timing out.\n"
                "node-a [stderr] [rank2]:[E909 09:55:29.308889145 ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective operation timeout: \n"
                "WorkNCCL(SeqNum=70, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600036 milliseconds before timing out.\n"
                "node-b [stderr] [rank6]:[E909 09:55:35.239719860 ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank 6] Process group watchdog "
                "thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=70, "
                "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600022 milliseconds before timing out.\n"
                "node-b [stderr] [rank3]:[E909 09:55:46.996672294 ProcessGroupNCCL.cpp:1709] [PG 0 (default_pg) Rank 3] Timeout at "
                "NCCL work: 70, last enqueued \nNCCL work: 82, last completed NCCL work: 69.\n" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // A launcher's "[15]" glued to NCCL's header gives the rank; ETIMEDOUT on its socket is
        // the path to the peer, not a peer crash (that would reset the connection).
        { "socket-timed-out-rank-glued",
            { { "paste.log",
                "[15]worker-23:83:2526 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from 100.96.188.199<41468> failed : "
                "Connection timed out\n[15]worker-23:83:2526 [0] NCCL INFO misc/socket.cc:520 -> 2\n" } },
            "hang_diagnosed", "network_pair", { 15 } },
        // xla/tsl coordination service: the tasks listed never reached the barrier.
        { "jax-barrier-tasks",
            { { "paste.log",
                "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. "
                "Timed out task names:\n/job:jax_worker/replica:0/task:3\n/job:jax_worker/replica:0/task:1\n" } },
            "hang_diagnosed", "init_bootstrap", { 1, 3 } },
        { "ecc-no-rank",
            { { "paste.log", "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
                              "CUDA kernel errors might be asynchronously reported at some other API call\n" } },
            "hang_diagnosed", "hardware_fault", {} },
        { "duplicate-global-rank",
            { { "paste.log", "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8\ninitializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8\n"
                              "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/8\ninitializing ddp: GLOBAL_RANK: 2, MEMBER: 3/8\n" } },
            "hang_diagnosed", "configuration", {} },
        { "port-in-use",
            { { "paste.log", "RuntimeError: The server socket has failed to listen on any local network address. port: 29500, "
                              "useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use\n" } },
            "hang_diagnosed", "configuration", {} },
        { "memlock",
            { { "paste.log", "misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory\n" } },
            "hang_diagnosed", "configuration", {} },
        // NVIDIA's Xid catalogue: 13 is the application's own kernel faulting, not the GPU. With
        // nothing else, an error was logged and nothing says a hang: inconclusive, not hardware.
        { "application-xid",
            { { "dmesg-node3.log", "[Tue Jun 11 10:00:00 2024] NVRM: Xid (PCI:0000:10:1c): 13, pid=1896, name=python3, "
                                   "Graphics Exception: ESR 0x404600=0x80000001\n" } },
            "inconclusive", "unknown", {} },
        // The same Xid next to the job's own logs, which finished without a CUDA error or a
        // timeout: the faulting kernel was another process's (the kernel's pid is the host's,
        // not the container's, so only the job's silence about it tells).
        { "application-xid-healthy-job",
            { { "dmesg-node3.log", "[Tue Jun 11 10:00:00 2024] NVRM: Xid (PCI:0000:10:1c): 13, pid=1896, name=python3, "
                                   "Graphics Exception: ESR 0x404600=0x80000001\n" },
              { "rank0.log", "[rank0]:[I611 10:20:00.000000000 ProcessGroupNCCL.cpp:2100] [PG 0 (default_pg) Rank 0] "
                             "ProcessGroupNCCL created ncclComm_ 0x55d0 on CUDA device: 0\n"
                             "step 100 loss 1.234\nTraining finished\n" } },
            "no_hang_found", "none", {} },
        // The libfabric plugin refusing a memory registration: the network stack's setup,
        // whatever the provider (EFA's libfabric older than NCCL; Slingshot without GPU
        // registration rights).
        { "ofi-registration-efa",
            { { "paste.log", "register_mr_buffers:544 NCCL WARN NET/OFI Unable to register memory (type = 2) for device 0. "
                             "RC: -22, Error: Invalid argument\n" } },
            "hang_diagnosed", "configuration", {} },
        { "ofi-registration-cxi",
            { { "paste.log", "nid001264:1291155:1293014 [1] register_mr_buffers:647 NCCL WARN NET/OFI Unable to register "
                             "memory (type = 1) for device 0. RC: -13, Error: Permission denied\n"
                             "nid001264:1291155:1293014 [1] NCCL INFO transport/net.cc:829 -> 2\n" } },
            "hang_diagnosed", "configuration", {} },
        // torchrun's failure table as a rendered page leaves it: no indentation, no
        // underscores, fields run together. The only failure is a SIGKILL of rank 2.
        { "failure-table-rendered-sigkill",
            { { "paste.log", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
                             "train.py FAILED\nFailures:\n<NO OTHER FAILURES>\n"
                             "Root Cause (first observed failure) :\n[0]:\ntime\nhost\n"
                             "2023-09-14 01:45:50\nnode-a\n"
                             "rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>\n"
                             "traceback : signal 9 (SIGKILL) received by PID 36071\n" } },
            "hang_diagnosed", "rank_crashed", { 2 } },
        // The signal message alone: a worker was killed, no line says which rank.
        { "signal-message-alone",
            { { "paste.log", "exitcode: -9 (pid: 3617904)\ntraceback: Signal 9 (SIGKILL) received by PID 3617904\n" } },
            "hang_diagnosed", "rank_crashed", {} },
        // A follow-on Xid 45 names its cause, an NVLink Xid: the hardware broke.
        { "xid45-caused-by-nvlink",
            { { "dmesg.log", "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by "
                             "previous Xid 149\n" } },
            "hang_diagnosed", "hardware_fault", {} },
        // Another rank's exception came out of barrier() inside main_process_first() (its
        // message cut off, the traceback's indentation lost in the paste) while rank 0 tokenized.
        { "busy-traceback-out-of-barrier",
            { { "paste.log",
                "Running tokenizer on dataset: 47%|#####     | 3169000/6811963 [30:11<38:27, 1578.58 examples/s]Traceback (most recent call last):\n"
                "File \"/src/train_sft.py\", line 25, in main\n"
                "with training_args.main_process_first(desc=\"dataset map pre-processing\"):\n"
                "File \"/site-packages/transformers/training_args.py\", line 1891, in main_process_first\n"
                "torch.distributed.barrier()\n"
                "File \"/site-packages/torch/distributed/distributed_c10d.py\", line 3328, in barrier\n" } },
            "hang_diagnosed", "straggler_stall", { 0 } },
        // Ranks 0-2 wait in ALLREDUCE #40 of the default group; rank 3's watchdog fired in
        // ALLGATHER #5 of group 1, a call the others never make: both sides wait on each
        // other, a collective-order mismatch, not a straggler.
        { "waits-in-another-collective",
            { { "paste.log",
"[rank0]:node1:100:100 [0] NCCL INFO ncclCommInitRank comm 0x50 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init COMPLETE\n"
"[rank1]:node1:101:101 [1] NCCL INFO ncclCommInitRank comm 0x51 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2000 commId 0xabc - Init COMPLETE\n"
"[rank2]:node1:102:102 [2] NCCL INFO ncclCommInitRank comm 0x52 rank 2 nranks 4 cudaDev 2 nvmlDev 2 busId 3000 commId 0xabc - Init COMPLETE\n"
"[rank3]:node1:103:103 [3] NCCL INFO ncclCommInitRank comm 0x53 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 4000 commId 0xabc - Init COMPLETE\n"
"[rank0]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600039 milliseconds before timing out.\n"
"[rank0]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:1664] [PG ID 0 PG GUID 0 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 40, last enqueued NCCL work: 40, last completed NCCL work: 39.\n"
"[rank1]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600039 milliseconds before timing out.\n"
"[rank1]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:1664] [PG ID 0 PG GUID 0 Rank 1] Exception (either an error or timeout) detected by watchdog at work: 40, last enqueued NCCL work: 40, last completed NCCL work: 39.\n"
"[rank2]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600039 milliseconds before timing out.\n"
"[rank2]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:1664] [PG ID 0 PG GUID 0 Rank 2] Exception (either an error or timeout) detected by watchdog at work: 40, last enqueued NCCL work: 40, last completed NCCL work: 39.\n"
"[rank3]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLGATHER, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600039 milliseconds before timing out.\n"
"[rank3]:[E1108 19:03:44.3 ProcessGroupNCCL.cpp:1664] [PG ID 1 PG GUID 1 Rank 3] Exception (either an error or timeout) detected by watchdog at work: 5, last enqueued NCCL work: 5, last completed NCCL work: 4.\n"
                } },
            "hang_diagnosed", "collective_mismatch", { 3 } },
        // grep -H over per-process files, NCCL COLL lines: at opCount 0 of an 8-rank
        // communicator two processes pass the same op and count with different datatypes
        // (src/enqueue.cc does not check across ranks). No init line: no rank named.
        { "grep-prefixed-coll-datatype-mismatch",
            { { "paste.log",
                "out.0.txt:hostA:100:100 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f0 recvbuff 0x7f0 count 64 datatype 7 op 0 root 0 comm 0x10 [nranks=8] stream 0x20\n"
                "out.1.txt:hostA:101:101 [1] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f1 recvbuff 0x7f1 count 64 datatype 9 op 0 root 0 comm 0x11 [nranks=8] stream 0x21\n" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // Send-side connection setup prints "<own rank>[dev] -> <peer>[dev] via SHM"
        // (src/transport/shm.cc): with no init line, that ties each process to its rank, and
        // the OOM in enqueue.cc is that rank's.
        { "channel-lines-name-the-oom-rank",
            { { "paste.log",
                "hostB:500:600 [1] NCCL INFO Channel 00 : 1[2000] -> 0[1000] via SHM/direct/direct\n"
                "hostB:501:601 [0] NCCL INFO Channel 00 : 0[1000] -> 1[2000] via SHM/direct/direct\n"
                "hostB:501:501 [0] enqueue.cc:1085 NCCL WARN Cuda failure 'out of memory'\n" } },
            "hang_diagnosed", "resource_exhaustion", { 0 } },
        // The same lines from two communicators (each process shows two own ranks): they do
        // not say which rank of the job a process is, so nobody is named.
        { "channel-lines-of-two-communicators",
            { { "paste.log",
                "hostB:500:600 [1] NCCL INFO Channel 00 : 1[2000] -> 0[1000] via SHM/direct/direct\n"
                "hostB:500:600 [1] NCCL INFO Channel 00 : 0[2000] -> 1[1000] via SHM/direct/direct\n"
                "hostB:501:601 [0] NCCL INFO Channel 00 : 0[1000] -> 1[2000] via SHM/direct/direct\n"
                "hostB:501:601 [0] NCCL INFO Channel 00 : 1[1000] -> 0[2000] via SHM/direct/direct\n"
                "hostB:501:501 [0] enqueue.cc:1085 NCCL WARN Cuda failure 'out of memory'\n" } },
            "hang_diagnosed", "resource_exhaustion", {} },
        // gdb attached to a hung process: its main thread waits in ncclCommInitRank's
        // bootstrap (src/bootstrap.cc) for a peer that never joined. Nothing names that peer.
        { "gdb-stuck-in-nccl-init",
            { { "gdb.txt",
                "#0  0x00007f0000000001 in accept () from /lib64/libpthread.so.0\n"
                "#1  0x00007f0000000002 in ncclSocketAccept (listenComm=0x1, recvComm=0x2) at misc/socket.cc:153\n"
                "#2  bootstrapRecv (commState=0x3, peer=<optimized out>, data=0x4, size=<optimized out>) at bootstrap.cc:332\n"
                "#3  0x00007f0000000004 in initTransportsRank (commId=0x5, comm=0x6) at init.cc:814\n"
                "#4  ncclCommInitRankSync (newcomm=0x7, nranks=2, commId=..., myrank=0) at init.cc:950\n" } },
            "hang_diagnosed", "init_bootstrap", {} },
        // src/proxy.cc: each survivor's proxy service sees local rank 2's connection close and
        // no other: that process left first. No line ties local rank 2 to a rank.
        { "one-local-rank-closed-for-everyone",
            { { "paste.log",
                "nodeA:10:20 [0] NCCL INFO [Service thread] Connection closed by localRank 2\n"
                "nodeA:11:21 [1] NCCL INFO [Service thread] Connection closed by localRank 2\n"
                "nodeA:13:23 [3] NCCL INFO [Service thread] Connection closed by localRank 2\n" } },
            "hang_diagnosed", "rank_crashed", {} },
        // A normal end of run: every process sees several peers go.
        { "local-ranks-closing-at-teardown",
            { { "paste.log",
                "nodeA:10:20 [0] NCCL INFO [Service thread] Connection closed by localRank 1\n"
                "nodeA:10:20 [0] NCCL INFO [Service thread] Connection closed by localRank 2\n"
                "nodeA:11:21 [1] NCCL INFO [Service thread] Connection closed by localRank 0\n"
                "nodeA:11:21 [1] NCCL INFO [Service thread] Connection closed by localRank 2\n" } },
            "no_hang_found", "none", {} },
        // NCCL's WARN with its host:pid:tid header cut off, the source location kept
        // (src/misc/socket.cc / include/socket.h): socket() refused the interface's family.
        { "headerless-socket-warn",
            { { "paste.log", "include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol\n" } },
            "hang_diagnosed", "configuration", {} },
        // PyTorch quotes NCCL's last WARN after "Last error:"; pasted without the exception's
        // first line. ncclSocketInit was given an address never filled in: no interface matched
        // NCCL_SOCKET_IFNAME. The "[trainer0|0]:" prefix is a custom torchrun line template.
        { "last-error-without-exception-head",
            { { "paste.log", "[trainer0|0]:ncclInternalError: Internal check failed.\n"
                              "[trainer0|0]:Last error:\n"
                              "[trainer0|0]:ncclSocketInit: connecting to address  with family 59936 is neither "
                              "AF_INET(2) nor AF_INET6(10)\n" } },
            "hang_diagnosed", "configuration", {} },
        // XLA quotes NCCL's last WARN inside its own error.
        { "xla-quoted-nccl-warning",
            { { "paste.log", "Failed to create NCCL communicator: INTERNAL: ncclCommInitRankConfig(...) failed:\n"
                              "invalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'\n" } },
            "hang_diagnosed", "configuration", {} },
        // The dynamic loader, not a rank: no NCCL to run any collective with.
        { "nccl-library-not-loadable",
            { { "paste.log", "Traceback (most recent call last):\n"
                              "  File \"train.py\", line 3, in <module>\n"
                              "    import torch\n"
                              "ImportError: /usr/lib/python3/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
                              "ncclCommRegister\n" } },
            "hang_diagnosed", "configuration", {} },
        { "nccl-tests-wrong-results",
            { { "paste.log", "   1048576   262144   float   sum   -1   90.1   11.6   21.8   12   88.2   11.9   22.3   12\n"
                              "# Out of bounds values : 24 FAILED\n" } },
            "inconclusive", "unknown", {} },
        // DeepSpeed's launch.py: a worker's non-zero exit makes sigkill_handler kill the others
        // and print the exit code with the argv of the last worker it spawned (the loop's
        // leftover `cmd`), so '--local_rank=3' names nobody: a crash, no rank.
        { "deepspeed-launcher-worker-sigkill",
            { { "paste.log", "[2024-03-01 10:00:01,100] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4101\n"
                              "[2024-03-01 10:00:01,120] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4102\n"
                              "[2024-03-01 10:00:02,400] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', "
                              "'train.py', '--local_rank=3'] exits with return code = -9\n" } },
            "hang_diagnosed", "rank_crashed", {} },
        // The same exit after a watchdog timeout is the watchdog's consequence, not a cause.
        { "deepspeed-launcher-exit-after-timeout",
            { { "paste.log", "[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout: "
                              "WorkNCCL(SeqNum=40, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800321 milliseconds "
                              "before timing out.\n"
                              "[2024-03-01 10:30:02,400] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', "
                              "'train.py', '--local_rank=3'] exits with return code = 1\n" } },
            "inconclusive", "unknown", {} },
        // torchrun's agent names one failed worker and no other worker is in the paste.
        { "torchrun-single-worker-exit",
            { { "paste.log", "[2024-02-09 09:09:15,164] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
                              "(exitcode: 1) local_rank: 0 (pid: 170581) of binary: /usr/bin/python3.10\n" } },
            "hang_diagnosed", "rank_crashed", { 0 } },
        // COLL lines only (no init line): one host, one device per process, a device index at
        // N/2 or more of [nranks=N]: the communicator is that host, device d is rank d, and the
        // one process of eight whose call differs is named.
        { "coll-lines-single-host-odd-device", { { "paste.log", collLines("gpu-node", 8, 3) } }, "hang_diagnosed",
            "collective_mismatch", { 3 } },
        // The same lines from two hosts of four: devices 0-3 are not ranks, nobody is named.
        { "coll-lines-two-hosts", { { "paste.log", collLines("gpu-a", 4, 3) + collLines("gpu-b", 4, -1, 8) } },
            "hang_diagnosed", "collective_mismatch", {} },
        // PyTorch ≤1.12's wrapper: each rank prints only its own fingerprint.
        { "fingerprint-old-wording",
            { { "paste.log", "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running inconsistent "
                              "collective: CollectiveFingerPrint(OpType=ALLGATHER, TensorShape=[41, 256], TensorDtypes=Float)\n"
                              "RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running inconsistent "
                              "collective: CollectiveFingerPrint(OpType=ALLGATHER, TensorShape=[40, 256], TensorDtypes=Float)\n" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // c10d socket.cpp warns for each address it cannot bind; errno 98 is EADDRINUSE.
        { "c10d-bind-address-in-use",
            { { "paste.log", "[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:50002 (errno: 98 - "
                              "Address already in use).\n"
                              "[W socket.cpp:436] [c10d] The server socket has failed to bind to 0.0.0.0:50002 (errno: 98 - "
                              "Address already in use).\n" } },
            "hang_diagnosed", "configuration", {} },
        // errno 97 on [::] is the try before 0.0.0.0 on a host without IPv6: nothing failed.
        { "c10d-bind-ipv6-unsupported",
            { { "paste.log", "[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 97 - "
                              "Address family not supported by protocol).\n" } },
            "no_hang_found", "none", {} },
        // shm.h: shm_open's strerror(EACCES) is a permission, not a full /dev/shm.
        { "shm-open-permission-denied",
            { { "paste.log", "node3:2106:2302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied\n"
                              "node3:2106:2302 [0] NCCL INFO include/shm.h:41 -> 2\n" } },
            "hang_diagnosed", "configuration", {} },
        // A one-element all_gather (all_gather_object's size exchange) in a group of four, two
        // ranks seen timing out: two members had not called it.
        { "sync-point-two-of-four",
            { { "paste.log",
                "[rank2]:[E ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=493, OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=60000) ran for 60012 milliseconds "
                "before timing out.\n"
                "[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=493, OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=60000) ran for 60010 milliseconds "
                "before timing out.\n" } },
            "inconclusive", "straggler_stall", {} },
        // The same call with all four members inside it: nobody is missing, no straggler lead.
        { "sync-point-all-four-inside",
            { { "paste.log",
                "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=493, OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=60000) ran for 60012 milliseconds "
                "before timing out.\n"
                "[rank1]:[E ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=493, OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=60000) ran for 60012 milliseconds "
                "before timing out.\n"
                "[rank2]:[E ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=493, OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=60000) ran for 60012 milliseconds "
                "before timing out.\n"
                "[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=493, OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=60000) ran for 60010 milliseconds "
                "before timing out.\n" } },
            "inconclusive", "unknown", {} },
        // The watchdog's message quoted alone, indented, with the location of its throw: a
        // timeout with no rank, not text of an unknown format.
        { "bare-watchdog-message-quoted",
            { { "paste.log", "    Watchdog caught collective operation timeout\n"
                              "    checkTimeout at ProcessGroupNCCL.cpp:733\n" } },
            "inconclusive", "unknown", {} },
        // An all_gather's NumelOut is NumelIn × the group's size: four members, three seen
        // timing out, the fourth (rank 0) said nothing.
        { "gather-shape-states-world",
            { { "paste.log",
                "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=15037, OpType=_ALLGATHER_BASE, NumelIn=1000, NumelOut=4000, Timeout(ms)=600000) ran for 600055 "
                "milliseconds before timing out.\n"
                "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=15037, OpType=_ALLGATHER_BASE, NumelIn=1000, NumelOut=4000, Timeout(ms)=600000) ran for 600059 "
                "milliseconds before timing out.\n"
                "[rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL("
                "SeqNum=15037, OpType=_ALLGATHER_BASE, NumelIn=1000, NumelOut=4000, Timeout(ms)=600000) ran for 600086 "
                "milliseconds before timing out.\n" } },
            "hang_diagnosed", "unknown", { 0 } },
        // ProcessGroupNCCL's exception quotes NCCL's last WARN (ncclGetLastError) after
        // "Last error:": two ranks given one GPU, said inside the exception.
        { "duplicate-gpu-quoted-in-exception",
            { { "paste.log",
                "[rank3]: Traceback (most recent call last):\n"
                "[rank3]:   File \"train.py\", line 12, in <module>\n"
                "[rank3]:     dist.barrier()\n"
                "[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
                "ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\n"
                "[rank3]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                "[rank3]: Last error:\n"
                "[rank3]: Duplicate GPU detected : rank 3 and rank 2 both on CUDA device 1000\n" } },
            "hang_diagnosed", "configuration", {} },
        // Ray Train's driver names the world rank of the worker whose actor process died
        // (utils.check_for_failure): that rank failed, whatever the rest of the job did.
        { "ray-train-worker-failed",
            { { "paste.log",
                "(TorchTrainer pid=89392) Worker 2 has failed.\n"
                "(TorchTrainer pid=89392) Training errored after 0 iterations\n" } },
            "hang_diagnosed", "rank_crashed", { 2 } },
        // Open MPI's abort summary names the first process to exit non-zero, which may be a
        // symptom of the job's setup: a crash, with no rank the bundle cannot back.
        { "mpirun-abort-summary",
            { { "paste.log",
                "--------------------------------------------------------------------------\n"
                "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
                "the job to be terminated. The first process to do so was:\n"
                "\n"
                "  Process name: [[11192,1],8]\n"
                "  Exit code:    3\n"
                "--------------------------------------------------------------------------\n" } },
            "hang_diagnosed", "rank_crashed", {} },
        // torch ≤1.x rendezvous.py let TCPStore's exception through: the master port is taken
        // (a second job on the node), so the store cannot bind.
        { "tcpstore-address-in-use-traceback",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"tools/train.py\", line 142, in <module>\n"
                "    init_dist(args.launcher, **cfg.dist_params)\n"
                "  File \"/usr/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py\", line 400, in init_process_group\n"
                "    store, rank, world_size = next(rendezvous(url))\n"
                "  File \"/usr/lib/python3.7/site-packages/torch/distributed/rendezvous.py\", line 143, in _env_rendezvous_handler\n"
                "    store = TCPStore(master_addr, master_port, world_size, start_daemon)\n"
                "RuntimeError: Address already in use\n" } },
            "hang_diagnosed", "configuration", {} },
        // SGLang's barrier after loading the weights timed out (model_runner.py): the rank it
        // names arrived, another did not. A straggler, none named.
        { "sglang-loading-barrier",
            { { "paste.log",
                "[2025-06-01 10:08:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
                "ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish "
                "loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.\n" } },
            "hang_diagnosed", "straggler_stall", {} },
        // py-spy dumps taken while the job looked stuck, before any watchdog fired: rank 0's
        // main thread waits for its DataLoader, rank 1's sits in all_reduce. A collective
        // completes only when every member calls it: rank 1 waits for rank 0.
        { "pyspy-dumps-before-timeout",
            { { "rank0.log",
                  "Thread 0x7FA6E7C01740 (idle): \"MainThread\"\n"
                  "    wait (threading.py:302)\n"
                  "    get (queue.py:170)\n"
                  "    _get_data (torch/utils/data/dataloader.py:1295)\n"
                  "    __next__ (torch/utils/data/dataloader.py:633)\n"
                  "    train (train.py:274)\n" },
                { "rank1.log",
                    "Thread 0x7F11E7C01740 (active): \"MainThread\"\n"
                    "    all_reduce (torch/distributed/distributed_c10d.py:2050)\n"
                    "    wrapper (torch/distributed/c10d_logger.py:72)\n"
                    "    train (train.py:281)\n" } },
            "hang_diagnosed", "straggler_stall", { 0 } },
        // One dump alone, nothing timed out: where to look, not a verdict, and not "no hang".
        { "pyspy-dump-alone-before-timeout",
            { { "rank0.log",
                "Thread 0x7FA6E7C01740 (idle): \"MainThread\"\n"
                "    wait (threading.py:302)\n"
                "    get (queue.py:170)\n"
                "    _get_data (torch/utils/data/dataloader.py:1295)\n"
                "    train (train.py:274)\n" } },
            "inconclusive", "unknown", {} },
        // ProcessGroupNCCL's unique-id fetch from the store rank 0 serves: the connection reset
        // under the waiting ranks says the serving process went away; a timeout says only
        // that rank 0 never published the id.
        { "unique-id-store-reset",
            { { "paste.log",
                "[rank3]: RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via "
                "c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer. This may "
                "indicate a possible application crash on rank 0 or a network set up issue.\n"
                "[rank2]: RuntimeError: [2] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via "
                "c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer. This may "
                "indicate a possible application crash on rank 0 or a network set up issue.\n" } },
            "hang_diagnosed", "rank_crashed", { 0 } },
        { "unique-id-store-timeout",
            { { "paste.log",
                "[rank3]: RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via "
                "c10d key-value store by key '0', but store->get('0') got error: Socket Timeout\n" } },
            "hang_diagnosed", "init_bootstrap", { 0 } },
        // nccl-tests' own CUDA check: one process asked for a GPU its host does not have; Open
        // MPI then names it as the first to exit. The setup is the cause, not that process.
        { "nccl-tests-invalid-device-ordinal",
            { { "paste.log",
                "# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
                "node2: Test CUDA failure common.cu:892 'invalid device ordinal'\n"
                " .. node2 pid 9972: Test failure common.cu:842\n"
                "--------------------------------------------------------------------------\n"
                "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
                "the job to be terminated. The first process to do so was:\n"
                "\n"
                "  Process name: [[51207,1],1]\n"
                "  Exit code:    2\n"
                "--------------------------------------------------------------------------\n" } },
            "hang_diagnosed", "configuration", {} },
        // nccl-tests without MPI under mpirun (common.h PRINT: rank 0 of a world prints the
        // banner): two processes each print theirs, then each its own table of one host's GPUs.
        { "nccl-tests-separate-worlds",
            { { "paste.log",
                "# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                "# nThread 1 nGpus 4 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                "#\n"
                "# Using devices\n"
                "#  Rank  0 Group  0 Pid  41210 on      node1 device  0 [0x07] NVIDIA A100-SXM4-40GB\n"
                "#  Rank  0 Group  0 Pid  52817 on      node2 device  0 [0x07] NVIDIA A100-SXM4-40GB\n"
                "   134217728      33554432     float     sum      -1   1702.3   78.84  118.27      0   1699.8   78.96  118.44      0\n"
                "   134217728      33554432     float     sum      -1   1701.9   78.86  118.29      0   1700.2   78.94  118.41      0\n"
                "# Out of bounds values : 0 OK\n"
                "# Avg bus bandwidth    : 52.1187 \n"
                "# Out of bounds values : 0 OK\n"
                "# Avg bus bandwidth    : 52.1202 \n" } },
            "hang_diagnosed", "configuration", {} },
        // nccl-tests on one host stops inside its first collective, no error (the PCIe peer
        // path: ACS or an IOMMU); on two hosts the same stop says nothing of the cause.
        { "nccl-tests-single-host-stall",
            { { "paste.log",
                "# nThread 1 nGpus 4 minBytes 8 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                "#\n"
                "# Using devices\n"
                "#  Rank  0 Group  0 Pid   7311 on  workstation device  0 [0x01] NVIDIA GeForce RTX 4090\n"
                "#  Rank  1 Group  0 Pid   7311 on  workstation device  1 [0x21] NVIDIA GeForce RTX 4090\n"
                "#  Rank  2 Group  0 Pid   7311 on  workstation device  2 [0x41] NVIDIA GeForce RTX 4090\n"
                "#  Rank  3 Group  0 Pid   7311 on  workstation device  3 [0x61] NVIDIA GeForce RTX 4090\n"
                "#\n"
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n" } },
            "hang_diagnosed", "configuration", {} },
        { "nccl-tests-two-host-stall",
            { { "paste.log",
                "# nThread 1 nGpus 1 minBytes 8 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                "#  Rank  0 Group  0 Pid   7311 on        node1 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
                "#  Rank  1 Group  0 Pid   8120 on        node2 device  0 [0x07] NVIDIA A100-SXM4-80GB\n"
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n" } },
            "inconclusive", "unknown", {} },
        // ncclSystemError before anything ran: a system call of NCCL's setup failed (a
        // container's /dev/shm, its interfaces); which one the message does not say.
        { "nccl-system-error-at-setup",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"train.py\", line 41, in <module>\n"
                "    model = DDP(model, device_ids=[args.local_rank])\n"
                "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled system error, "
                "NCCL version 2.14.3\n" } },
            "inconclusive", "configuration", {} },
        // The same error after a collective had timed out: a consequence, not the setup (the
        // one-element call's timeout says a rank had not reached it).
        { "nccl-system-error-after-timeout",
            { { "paste.log",
                "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600042 milliseconds "
                "before timing out.\n"
                "[rank1]: RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n" } },
            "inconclusive", "straggler_stall", {} },
        // DeepSpeed ZeRO-3's own check (runtime/zero/utils.py): the ranks gather different
        // parameters, so they run different collectives. Which side is wrong it does not say.
        { "zero3-rank-disagreement",
            { { "paste.log",
                "[rank7]: RuntimeError: Detected a disagreement on list length between rank0 and rank7: rank0: 30815 "
                "rank7: 30833\n" } },
            "hang_diagnosed", "collective_mismatch", {} },
        // mpirun's summary that a process exited with an error, and nothing else: a crash of a
        // rank no line names.
        { "mpirun-nonzero-exit-help",
            { { "paste.log",
                "--------------------------------------------------------------------------\n"
                "Primary job  terminated normally, but 1 process returned\n"
                "a non-zero exit code. Per user-direction, the job has been aborted.\n"
                "--------------------------------------------------------------------------\n" } },
            "hang_diagnosed", "rank_crashed", {} },
        // torch.distributed's own Python warning, printed at every barrier: a notice.
        { "torch-distributed-userwarning-alone",
            { { "paste.log",
                "/usr/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py:4807: UserWarning: No device "
                "id is provided via `init_process_group` or `barrier `. Using the current device set by the user.\n" } },
            "no_hang_found", "none", {} },
        // A traceback cut before its exception line: the error is not in the paste.
        { "traceback-cut-before-exception",
            { { "paste.log",
                "Traceback (most recent call last):\n"
                "  File \"train.py\", line 88, in <module>\n"
                "    trainer.fit(model)\n"
                "  File \"/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 3696, in barrier\n"
                "    work = default_pg.barrier(opts=opts)\n" } },
            "inconclusive", "unknown", {} },
        // The same three timeouts in per-rank files, and no file for rank 0: its file was not
        // collected, which says nothing about what it did.
        { "gather-shape-per-rank-files-one-missing",
            { { "rank1.log",
                  "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: "
                  "WorkNCCL(SeqNum=15037, OpType=_ALLGATHER_BASE, NumelIn=1000, NumelOut=4000, Timeout(ms)=600000) "
                  "ran for 600059 milliseconds before timing out.\n" },
                { "rank2.log",
                    "[rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation timeout: "
                    "WorkNCCL(SeqNum=15037, OpType=_ALLGATHER_BASE, NumelIn=1000, NumelOut=4000, Timeout(ms)=600000) "
                    "ran for 600086 milliseconds before timing out.\n" },
                { "rank3.log",
                    "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: "
                    "WorkNCCL(SeqNum=15037, OpType=_ALLGATHER_BASE, NumelIn=1000, NumelOut=4000, Timeout(ms)=600000) "
                    "ran for 600055 milliseconds before timing out.\n" } },
            "inconclusive", "unknown", {} },
    };
    for (const auto& e : excerpts) {
        DYNAMIC_SECTION(e.name)
        {
            checkExcerpt(e);
        }
    }
}

TEST_CASE("a stall-inspector rank far past the ranks named does not size the world", "[golden][excerpts]")
{
    // fuzz_rankresolver's first finding: a "[ready ranks: …]" list holding one huge rank made
    // the Horovod rule fill every rank up to it for every tensor (a set insertion per tensor
    // and rank: seconds at 10^6 ranks, minutes with a few hundred tensors). The world it fills
    // is bounded by the ranks the lines name; the stall is still read.
    std::string stall = "Stalled ops:";
    for (int t = 0; t < 300; ++t)
        stall += " HorovodAllreduce_grad_" + std::to_string(t) + "_0 [ready ranks: 3, 1, 0, 999999],";
    // Every rank of the bounded world past 0, 1 and 3 misses every tensor: too many to name.
    const Excerpt e { "horovod-huge-rank", { { "paste.log", stall + "\n" } }, "hang_diagnosed", "collective_mismatch", {} };
    checkExcerpt(e);
    CHECK(diagnoseExcerpt(e)["ranks"].size() < 1000);
}

TEST_CASE("ranks below the highest seen that left no line were not seen entering the default group",
    "[golden][excerpts]")
{
    auto rules = [](const nlohmann::json& j) {
        std::vector<std::string> out;
        for (const auto& f : j["findings"])
            out.push_back(f["rule"].get<std::string>());
        return out;
    };
    auto has = [](const std::vector<std::string>& v, const char* rule) {
        return std::find(v.begin(), v.end(), rule) != v.end();
    };
    // Ranks 4 and 5 of the world timed out inside the same call; ranks 0 to 3 exist (a rank 5
    // needs them) and left nothing: "every rank entered" would speak for them.
    std::string two;
    for (int r : { 4, 5 })
        two += seqTimeout(r, 316, "ALLREDUCE");
    const Excerpt partial { "two-of-six", { { "paste.log", two } }, "inconclusive", "unknown", {} };
    checkExcerpt(partial);
    CHECK_FALSE(has(rules(diagnoseExcerpt(partial)), "hang.all_entered"));
    // Every rank up to the highest seen inside the call: nobody missing.
    std::string all;
    for (int r = 0; r < 6; ++r)
        all += seqTimeout(r, 316, "ALLREDUCE");
    const Excerpt whole { "six-of-six", { { "paste.log", all } }, "inconclusive", "unknown", {} };
    checkExcerpt(whole);
    CHECK(has(rules(diagnoseExcerpt(whole)), "hang.all_entered"));
}

TEST_CASE("a rank whose line gave only the SeqNum neither makes nor breaks the one-element lead",
    "[golden][excerpts]")
{
    // Rank 5's watchdog line says the call was one element; rank 4 left only its status line
    // ("detected by watchdog at work: N", no op or size). The call still moved no data.
    const std::string paste = seqTimeout(5, 28956, "ALLREDUCE", 1)
        + "[rank4]:[E1129 11:56:57.2 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 4] Exception "
          "(either an error or timeout) detected by watchdog at work: 28956, last enqueued NCCL work: 28956, last "
          "completed NCCL work: 28955.\n";
    checkExcerpt({ "status-line-beside-one-element", { { "paste.log", paste } }, "inconclusive", "straggler_stall", {} });
}
