// Launcher lines ([formats 5], [formats 6]) run through the real LogScanner, so prefixes and
// times reach the parser as in production.
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using rankscope::model::EventKind;
using rankscope::model::Severity;
using rankscope::model::TimeDomain;
using rankscope::testing::eventsOf;
using rankscope::testing::firstOf;
using rankscope::testing::identityOf;
using rankscope::testing::scan;
using rankscope::testing::str;

namespace {

// https://github.com/open-mmlab/mmsegmentation/issues/3106, both records shown in full.
const char* const kMmsegTable = R"(Traceback (most recent call last):
  File "/usr/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
========================================================
tools/train.py FAILED
--------------------------------------------------------
Failures:
[1]:
  time      : 2023-06-14_22:36:10
  host      : neptun.informatik.uni-kl.de
  rank      : 1 (local_rank: 1)
  exitcode  : -6 (pid: 2385923)
  error_file: <N/A>
  traceback : Signal 6 (SIGABRT) received by PID 2385923
--------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2023-06-14_22:36:10
  host      : neptun.informatik.uni-kl.de
  rank      : 0 (local_rank: 0)
  exitcode  : -6 (pid: 2385922)
  error_file: <N/A>
  traceback : Signal 6 (SIGABRT) received by PID 2385922
========================================================
)";

std::string prefixed(const std::string& prefix, const std::string& text)
{
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t nl = text.find('\n', start);
        const std::size_t end = nl == std::string::npos ? text.size() : nl;
        out += prefix + text.substr(start, end - start) + "\n";
        start = end + 1;
    }
    return out;
}

} // namespace

TEST_CASE("torchrun 2.0 agent line yields worker failure with exit code, local rank and pid",
    "[parsers][launcher]")
{
    const auto p = scan("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) "
                        "local_rank: 0 (pid: 218624) of binary: /home/user/miniconda3/bin/python\n"
                        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process "
                        "153929 closing signal SIGTERM\n");
    const auto* failed = firstOf(p, EventKind::LauncherWorkerFailed);
    REQUIRE(failed);
    CHECK(failed->code == -6);
    CHECK(failed->peerRank == 0);
    CHECK(failed->pid == 218624);
    CHECK(failed->severity == Severity::Error);
    CHECK(str(p, failed->text).starts_with("failed (exitcode: -6) local_rank: 0"));
    const auto* sig = firstOf(p, EventKind::LauncherSignalSent);
    REQUIRE(sig);
    CHECK(sig->pid == 153929);
    CHECK(sig->code == 15);
    CHECK(sig->evidence.line == 2);
}

TEST_CASE("torchrun's SIGKILL after an ignored SIGTERM yields a signal event marked sigterm_ignored",
    "[parsers][launcher]")
{
    // torch/distributed/elastic/multiprocessing/api.py _close(): "Unable to shutdown process %s
    // via %s, forcefully exiting via %s"; Python ≥3.11 formats the Signals enum as its number.
    const auto p = scan("W1117 20:08:30.066000 2664606 site-packages/torch/distributed/elastic/"
                        "multiprocessing/api.py:914] Unable to shutdown process 2664619 via "
                        "Signals.SIGTERM, forcefully exiting via Signals.SIGKILL\n"
                        "W1117 20:08:30.066000 2664606 site-packages/torch/distributed/elastic/"
                        "multiprocessing/api.py:914] Unable to shutdown process 2664620 via 15, "
                        "forcefully exiting via 9\n"
                        "W0517 08:24:03.804000 140617718325696 torch/distributed/elastic/"
                        "multiprocessing/api.py:851] Sending process 78 closing signal SIGKILL\n");
    const auto sigs = eventsOf(p, EventKind::LauncherSignalSent);
    REQUIRE(sigs.size() == 3);
    CHECK(sigs[0]->pid == 2664619);
    CHECK(sigs[0]->code == 9);
    CHECK(str(p, sigs[0]->detail) == "sigterm_ignored");
    CHECK(sigs[1]->pid == 2664620);
    CHECK(str(p, sigs[1]->detail) == "sigterm_ignored");
    // A SIGKILL sent straight away says nothing about the worker having ignored a SIGTERM.
    CHECK(sigs[2]->pid == 78);
    CHECK(sigs[2]->code == 9);
    CHECK(str(p, sigs[2]->detail).empty());
}

TEST_CASE("torchrun 2.1-2.2 bracketed-time dialect", "[parsers][launcher]")
{
    const auto p = scan("[2024-07-25 06:36:18,293] torch.distributed.elastic.multiprocessing.api: "
                        "[WARNING] Sending process 179 closing signal SIGTERM\n"
                        "[2024-07-25 06:36:18,508] torch.distributed.elastic.multiprocessing.api: "
                        "[ERROR] failed (exitcode: 1) local_rank: 1 (pid: 178) of binary: "
                        "/usr/bin/python3\n");
    const auto* sig = firstOf(p, EventKind::LauncherSignalSent);
    REQUIRE(sig);
    CHECK(sig->pid == 179);
    CHECK(sig->code == 15);
    CHECK(sig->time.domain == TimeDomain::LocalWall);
    const auto* failed = firstOf(p, EventKind::LauncherWorkerFailed);
    REQUIRE(failed);
    CHECK(failed->code == 1);
    CHECK(failed->peerRank == 1);
    CHECK(failed->pid == 178);
    CHECK(failed->time.valid());
}

TEST_CASE("torchrun 2.3+ glog dialect, with and without the thread id", "[parsers][launcher]")
{
    // https://github.com/lmzpai/roboMamba/issues/10 and pytorch/pytorch#126544
    const auto p = scan(
        "E0325 20:57:27.620000 2606 site-packages/torch/distributed/elastic/multiprocessing/"
        "api.py:869] failed (exitcode: -9) local_rank: 5 (pid: 2630) of binary: "
        "/root/miniconda3/bin/python\n"
        "E0517 08:24:03.805000 140617718325696 torch/distributed/elastic/multiprocessing/"
        "api.py:826] failed (exitcode: -6) local_rank: 0 (pid: 77) of fn: main (start_method: "
        "spawn)\n"
        "W0517 08:24:03.804000 140617718325696 torch/distributed/elastic/multiprocessing/"
        "api.py:851] Sending process 78 closing signal SIGKILL\n");
    const auto failed = eventsOf(p, EventKind::LauncherWorkerFailed);
    REQUIRE(failed.size() == 2);
    CHECK(failed[0]->code == -9);
    CHECK(failed[0]->peerRank == 5);
    CHECK(failed[0]->pid == 2630);
    CHECK(failed[0]->time.domain == TimeDomain::LocalWallNoYear);
    CHECK(failed[1]->code == -6);
    CHECK(failed[1]->peerRank == 0);
    CHECK(failed[1]->pid == 77);
    const auto* sig = firstOf(p, EventKind::LauncherSignalSent);
    REQUIRE(sig);
    CHECK(sig->pid == 78);
    CHECK(sig->code == 9);
}

TEST_CASE("ChildFailedError table yields one record per failure with the root cause marked",
    "[parsers][launcher]")
{
    const auto p = scan(kMmsegTable);
    REQUIRE(p.launcherFailures.size() == 2);
    const auto& other = p.launcherFailures[0];
    CHECK_FALSE(other.reportedAsRootCause);
    CHECK(other.globalRank == 1);
    CHECK(other.localRank == 1);
    CHECK(other.exitCode == -6);
    CHECK(other.pid == 2385923);
    CHECK(other.errorFile == model::kNoStr);
    CHECK(str(p, other.host) == "neptun.informatik.uni-kl.de");
    CHECK(str(p, other.traceback) == "Signal 6 (SIGABRT) received by PID 2385923");
    CHECK(other.time.domain == TimeDomain::LocalWall);
    CHECK(model::formatTime(other.time) == "2023-06-14 22:36:10");
    CHECK(other.evidence.line == 9);
    const auto& root = p.launcherFailures[1];
    CHECK(root.reportedAsRootCause);
    CHECK(root.globalRank == 0);
    CHECK(root.pid == 2385922);

    const auto records = eventsOf(p, EventKind::LauncherFailureRecord);
    REQUIRE(records.size() == 2);
    CHECK(records[0]->code == -6);
    CHECK(records[0]->peerRank == 1);
    CHECK(records[0]->pid == 2385923);
    CHECK(str(p, records[0]->peer) == "neptun.informatik.uni-kl.de");
    CHECK(str(p, records[0]->text) == "Signal 6 (SIGABRT) received by PID 2385923");
    CHECK(records[0]->severity == Severity::Error);
    CHECK(model::formatTime(records[0]->time) == "2023-06-14 22:36:10");
    CHECK(records[1]->peerRank == 0);
}

TEST_CASE("a single-failure table with <NO_OTHER_FAILURES> and a multi-line traceback",
    "[parsers][launcher]")
{
    const auto p = scan(R"(torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2024-03-01_10:00:00
  host      : gpu-node-07.cluster
  rank      : 12 (local_rank: 4)
  exitcode  : 1 (pid: 4242)
  error_file: /tmp/torchelastic_ab/1_x/attempt_0/4/error.json
  traceback : Traceback (most recent call last):
    File "/w/train.py", line 30, in main
      loss.backward()
  RuntimeError: CUDA error: unknown error
  
============================================================
after the table
)");
    REQUIRE(p.launcherFailures.size() == 1);
    const auto& f = p.launcherFailures[0];
    CHECK(f.reportedAsRootCause);
    CHECK(f.globalRank == 12);
    CHECK(f.localRank == 4);
    CHECK(f.exitCode == 1);
    CHECK(str(p, f.errorFile) == "/tmp/torchelastic_ab/1_x/attempt_0/4/error.json");
    CHECK(str(p, f.traceback)
        == "Traceback (most recent call last):\n  File \"/w/train.py\", line 30, in main\n"
           "    loss.backward()\nRuntimeError: CUDA error: unknown error\n");
    const auto* e = firstOf(p, EventKind::LauncherFailureRecord);
    REQUIRE(e);
    CHECK(str(p, e->text) == "RuntimeError: CUDA error: unknown error");
    CHECK(e->peerRank == 12);
}

TEST_CASE("tables of two nodes behind pdsh prefixes keep their own records", "[parsers][launcher]")
{
    const std::string text = prefixed("node1: ", kMmsegTable) + prefixed("node2: ", kMmsegTable);
    const auto p = scan(text, "deepspeed.log");
    REQUIRE(p.launcherFailures.size() == 4);
    int roots = 0;
    for (const auto& f : p.launcherFailures)
        roots += f.reportedAsRootCause ? 1 : 0;
    CHECK(roots == 2);
    const auto records = eventsOf(p, EventKind::LauncherFailureRecord);
    REQUIRE(records.size() == 4);
    CHECK(str(p, identityOf(p, *records[0]).host) == "node1");
    CHECK(str(p, identityOf(p, *records[3]).host) == "node2");
}

TEST_CASE("srun-labelled table interleaved with another task's output", "[parsers][launcher]")
{
    std::string text;
    const std::string table = prefixed("0: ", kMmsegTable);
    std::size_t start = 0;
    int n = 0;
    while (start < table.size()) {
        const std::size_t nl = table.find('\n', start);
        text += table.substr(start, nl - start + 1);
        if (++n % 3 == 0)
            text += "1: [default0]:step 100 loss 0.25\n";
        start = nl + 1;
    }
    const auto p = scan(text, "slurm-99.out");
    REQUIRE(p.launcherFailures.size() == 2);
    CHECK(p.launcherFailures[0].pid == 2385923);
    CHECK(p.launcherFailures[1].pid == 2385922);
    CHECK(p.launcherFailures[1].reportedAsRootCause);
}

TEST_CASE("a table cut off at the end of the file still yields its records", "[parsers][launcher]")
{
    const auto p = scan("Failures:\n[3]:\n  time      : 2023-06-14_22:36:10\n"
                        "  host      : n1\n  rank      : 3 (local_rank: 3)\n"
                        "  exitcode  : -9 (pid: 11)");
    REQUIRE(p.launcherFailures.size() == 1);
    CHECK(p.launcherFailures[0].exitCode == -9);
    CHECK(p.launcherFailures[0].pid == 11);
    CHECK(p.launcherFailures[0].globalRank == 3);
}

TEST_CASE(
    "rendezvous result gives the worker-group layout in the 2.0 dialect", "[parsers][launcher]")
{
    const auto p = scan(
        R"(INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:
  restart_count=0
  master_addr=ip-10-4-198-29.ec2.internal
  master_port=58353
  group_rank=1
  group_world_size=2
  local_ranks=[0, 1, 2, 3]
  role_ranks=[4, 5, 6, 7]
  global_ranks=[4, 5, 6, 7]
  role_world_sizes=[8, 8, 8, 8]
  global_world_sizes=[8, 8, 8, 8]

INFO:torch.distributed.elastic.agent.server.api:[default] Starting worker group
)",
        "node-07/agent.log");
    REQUIRE(p.workerGroups.size() == 1);
    const auto& g = p.workerGroups[0];
    CHECK(g.groupRank == 1);
    CHECK(g.groupWorldSize == 2);
    CHECK(g.localRanks == std::vector<std::int32_t> { 0, 1, 2, 3 });
    CHECK(g.globalRanks == std::vector<std::int32_t> { 4, 5, 6, 7 });
    CHECK(g.worldSize == 8);
    CHECK(g.evidence.line == 1);
}

TEST_CASE("rendezvous result in the 2.1-2.2 and 2.3+ dialects repeats the envelope per line",
    "[parsers][launcher]")
{
    const auto p = scan(
        R"([2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO] [default] Rendezvous complete for workers. Result:
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   restart_count=0
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   master_addr=n0
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   master_port=29500
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   group_rank=0
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   group_world_size=2
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   local_ranks=[0, 1]
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   role_ranks=[0, 1]
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   global_ranks=[0, 1]
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   role_world_sizes=[4, 4]
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO]   global_world_sizes=[4, 4]
[2024-07-25 06:36:10,001] torch.distributed.elastic.agent.server.api: [INFO] 
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous complete for workers. Result:
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   restart_count=0
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   master_addr=maindumbmachine
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   master_port=29400
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   group_rank=1
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   group_world_size=2
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   local_ranks=[0]
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   role_ranks=[1]
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   global_ranks=[1]
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   role_world_sizes=[2]
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525]   global_world_sizes=[2]
I0618 15:59:02.634000 139633870123008 torch/distributed/elastic/agent/server/api.py:525] 
)");
    REQUIRE(p.workerGroups.size() == 2);
    CHECK(p.workerGroups[0].groupRank == 0);
    CHECK(p.workerGroups[0].globalRanks == std::vector<std::int32_t> { 0, 1 });
    CHECK(p.workerGroups[0].worldSize == 4);
    CHECK(p.workerGroups[1].groupRank == 1);
    CHECK(p.workerGroups[1].localRanks == std::vector<std::int32_t> { 0 });
    CHECK(p.workerGroups[1].globalRanks == std::vector<std::int32_t> { 1 });
    CHECK(p.workerGroups[1].worldSize == 2);
    CHECK(p.workerGroups[1].evidence.line == 13);
}

TEST_CASE("rendezvous result behind a pdsh prefix takes the host from it", "[parsers][launcher]")
{
    const auto p = scan("node3: INFO:torch.distributed.elastic.agent.server.api:[default] "
                        "Rendezvous complete for workers. Result:\n"
                        "node3:   group_rank=3\n"
                        "node3:   global_ranks=[6, 7]\n"
                        "node3:   global_world_sizes=[8, 8]\n");
    REQUIRE(p.workerGroups.size() == 1);
    CHECK(str(p, p.workerGroups[0].host) == "node3");
    CHECK(p.workerGroups[0].groupRank == 3);
    CHECK(p.workerGroups[0].globalRanks == std::vector<std::int32_t> { 6, 7 });
}

TEST_CASE("DeepSpeed launcher exit, kill and success lines", "[parsers][launcher]")
{
    const auto p = scan(
        "[2025-12-18 20:27:22,100] [INFO] [launch.py:319:sigkill_handler] Killing subprocess "
        "748089\n"
        "[2025-12-18 20:27:23,533] [ERROR] [launch.py:325:sigkill_handler] "
        "['/home/u/miniconda3/envs/uie/bin/python3.9', '-u', 'src/run_uie_lora.py', "
        "'--local_rank=1', '--model_name_or_path', 'x'] exits with return code = -6\n"
        "[2025-12-18 20:27:24,000] [INFO] [launch.py:351:main] Process 748090 exits "
        "successfully.\n"
        "[2025-12-18 20:27:25,000] [ERROR] [launch.py:325:sigkill_handler] ['python', 'x.py'] "
        "exits with return code = 1\n");
    const auto exits = eventsOf(p, EventKind::LauncherExit);
    REQUIRE(exits.size() == 3);
    CHECK(exits[0]->code == -6);
    // sigkill_handler prints the last-spawned worker's argv, whoever failed: no rank.
    CHECK(exits[0]->peerRank == -1);
    CHECK(str(p, exits[0]->detail) == "deepspeed");
    CHECK(exits[0]->severity == Severity::Error);
    CHECK(exits[0]->time.domain == TimeDomain::LocalWall);
    CHECK(exits[1]->code == 0);
    CHECK(exits[1]->pid == 748090);
    CHECK(exits[1]->severity == Severity::Info);
    CHECK(exits[2]->code == 1);
    CHECK(exits[2]->peerRank == -1);
    const auto* kill = firstOf(p, EventKind::LauncherSignalSent);
    REQUIRE(kill);
    CHECK(kill->pid == 748089);
    CHECK(kill->code == 15);
}

TEST_CASE("Open MPI 5 / PRRTE and mpirun signal lines", "[parsers][launcher]")
{
    const auto p = scan("prterun noticed that process rank 7 with PID 0 on node gpu0304 exited on "
                        "signal 6 (Aborted).\n"
                        "mpirun noticed that process rank 3 with PID 1234 on node n1 exited on "
                        "signal 9 (Killed).\n");
    const auto exits = eventsOf(p, EventKind::LauncherExit);
    REQUIRE(exits.size() == 2);
    CHECK(exits[0]->code == -6);
    CHECK(exits[0]->peerRank == 7);
    CHECK(exits[0]->pid == -1);
    CHECK(str(p, exits[0]->peer) == "gpu0304");
    CHECK(str(p, exits[0]->detail) == "mpi");
    CHECK(exits[1]->code == -9);
    CHECK(exits[1]->peerRank == 3);
    CHECK(exits[1]->pid == 1234);
    CHECK(str(p, exits[1]->peer) == "n1");
}

TEST_CASE(
    "Open MPI 4 abort summary pairs the process name with its exit code", "[parsers][launcher]")
{
    const auto p
        = scan(R"(--------------------------------------------------------------------------
mpirun detected that one or more processes exited with non-zero status, thus causing
the job to be terminated. The first process to do so was:

  Process name: [[11192,1],8]
  Exit code:    3
--------------------------------------------------------------------------
  Exit code:    5
)");
    const auto exits = eventsOf(p, EventKind::LauncherExit);
    REQUIRE(exits.size() == 1);
    CHECK(exits[0]->peerRank == 8);
    CHECK(exits[0]->code == 3);
    CHECK(str(p, exits[0]->detail) == "mpi");
    CHECK(exits[0]->evidence.line == 6);
}

TEST_CASE("Ray Train names the world rank of a worker whose process died", "[parsers][launcher][ray]")
{
    // Train v1 (check_for_failure): the worker's index in its group, which is its world rank.
    // Train v2: the worker's description, then Ray's error for its actor a few lines on.
    const auto p = scan(R"((TorchTrainer pid=89392) Worker 3 has failed.
(TrainController pid=79312)   distributed_context=DistributedContext(world_rank=1, world_size=2, local_rank=1, local_world_size=2, node_rank=0),
(TrainController pid=79312) )
(TrainController pid=79312) The actor died unexpectedly before finishing this task.
(TrainController pid=79312) 	class_name: RayTrainWorker
(TrainController pid=79312) The actor died unexpectedly before finishing this task.
The upload has failed.
Worker 2 has failed. Retrying
)");
    const auto exits = eventsOf(p, EventKind::LauncherExit);
    REQUIRE(exits.size() == 2);
    CHECK(exits[0]->peerRank == 3);
    CHECK(exits[0]->code == model::kExitCodeUnknown);
    CHECK(str(p, exits[0]->detail) == "ray");
    CHECK(exits[1]->peerRank == 1);
    CHECK(exits[1]->evidence.line == 4);
    // A second actor error has no worker description of its own before it.
}

TEST_CASE("a worker description far from the actor's error names no rank", "[parsers][launcher][ray]")
{
    std::string text = "(TrainController pid=1)   distributed_context=DistributedContext(world_rank=5, world_size=8),\n";
    for (int i = 0; i < 20; ++i)
        text += "(TrainController pid=1) progress " + std::to_string(i) + "\n";
    text += "(TrainController pid=1) The actor died unexpectedly before finishing this task.\n";
    CHECK(eventsOf(scan(text), EventKind::LauncherExit).empty());
}

TEST_CASE("SGLang's model-loading barrier names a rank that arrived", "[parsers][launcher]")
{
    const auto p = scan(
        "[2025-06-01 10:00:00 TP0] Load weight end. type=LlamaForCausalLM, avail mem=60.1 GB\n"
        "ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish "
        "loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.\n"
        "load_model raise ValueError(ValueError: TP rank 12 could finish the model loading, but there are other ranks that\n");
    const auto timeouts = eventsOf(p, EventKind::FrameworkCheck);
    REQUIRE(timeouts.size() == 2);
    CHECK(timeouts[0]->peerRank == 1);
    CHECK(str(p, timeouts[0]->text).starts_with("TP rank 1 could finish the model loading"));
    CHECK(timeouts[1]->peerRank == 12);
    CHECK(eventsOf(p, EventKind::FrameworkInfo).empty());
}

TEST_CASE("DeepSpeed ZeRO-3's cross-rank disagreement names the rank it compared", "[parsers][launcher]")
{
    const auto p = scan(
        "[rank7]:     raise RuntimeError(f\"Detected a disagreement on list length between rank0 and rank{dist.get_rank()}: \"\n"
        "[rank7]: RuntimeError: Detected a disagreement on list length between rank0 and rank7: rank0: 30815 rank7: 30833\n"
        "RuntimeError: disagreement between rank0 and rank6: rank0: [-48290, 43940], rank6: [-48290, 12]\n"
        "a friendly chat between rank0 and rank3: nothing to see\n");
    const auto checks = eventsOf(p, EventKind::FrameworkCheck);
    REQUIRE(checks.size() == 2);
    CHECK(str(p, checks[0]->detail) == "rank_disagreement");
    CHECK(checks[0]->peerRank == 7);
    CHECK(str(p, checks[0]->text).starts_with("Detected a disagreement on list length"));
    CHECK(checks[1]->peerRank == 6);
}

TEST_CASE("Gloo's monitored barrier names the ranks that never checked in with rank 0", "[parsers][launcher]")
{
    const auto p = scan(
        "[rank0]:[E1207 10:00:00.123 ProcessGroupGloo.cpp:2810] [Rank 0]: Rank 3 failed to pass monitoredBarrier in 30000 ms\n"
        "RuntimeError: [Rank 0]: Ranks 1, 14 failed to pass monitoredBarrier in 1800000 ms\n"
        // The other side's message names the rank that arrived: not a rank behind.
        "[rank1]: RuntimeError: Rank 1 successfully reached monitoredBarrier, but received errors while waiting for "
        "send/recv from rank 0. Please check rank 0 logs for faulty rank.\n"
        "docs: ranks that failed to pass monitoredBarrier are named by rank 0\n"
        "[Rank 0]: Ranks 1, x failed to pass monitoredBarrier in 5 ms\n"
        // An earlier "Ranks " in the message is not the list.
        "Ranks were slow. [Rank 0]: Rank 6 failed to pass monitoredBarrier in 5 ms\n");
    const auto checks = eventsOf(p, EventKind::FrameworkCheck);
    REQUIRE(checks.size() == 5);
    CHECK(checks[4]->peerRank == 6);
    CHECK(str(p, checks[0]->detail) == "monitored_barrier");
    CHECK(checks[0]->peerRank == 3);
    CHECK(str(p, checks[0]->text).starts_with("[Rank 0]: Rank 3 failed to pass"));
    CHECK(checks[1]->peerRank == 1);
    CHECK(checks[2]->peerRank == 14);
    // The other side names the rank that arrived, under a detail of its own.
    CHECK(str(p, checks[3]->detail) == "monitored_barrier_reached");
    CHECK(checks[3]->peerRank == 1);
    CHECK(str(p, checks[3]->text).starts_with("Rank 1 successfully reached monitoredBarrier"));
}

TEST_CASE("TensorRT-LLM's and TurboMind's peer-access warnings are a check per GPU pair", "[parsers][launcher]")
{
    const auto p = scan(
        "[TensorRT-LLM][WARNING] Device 2 peer access Device 5 is not available.\n"
        "[TM][WARNING] Device 0 peer access Device 1 is not available.\n"
        // Prose quoting the words, and other devices' messages, are not the check.
        "the line `Device 2 peer access Device 5 is not available.` plus an mpirun banner\n"
        "[TensorRT-LLM][WARNING] Device x peer access Device 5 is not available.\n"
        "Device 3 peer access Device 4 is available.\n");
    const auto checks = eventsOf(p, EventKind::FrameworkCheck);
    REQUIRE(checks.size() == 2);
    CHECK(str(p, checks[0]->detail) == "peer_access_unavailable");
    CHECK(checks[0]->severity == model::Severity::Warning);
    CHECK(checks[0]->code == 2);
    CHECK(checks[0]->peerRank == -1); // devices, not ranks
    CHECK(str(p, checks[0]->text) == "Device 2 peer access Device 5 is not available.");
    CHECK(checks[1]->code == 0);
}

TEST_CASE("Open MPI's help messages for a failed process are launcher exits with no rank", "[parsers][launcher]")
{
    const auto p = scan(R"(An MPI communication peer process has unexpectedly disconnected.  This
usually indicates a failure in the peer process (e.g., a crash or
otherwise exiting without calling MPI_FINALIZE first).
  Local host: node313
  Local PID:  7720
  Peer host:  node316
--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
The run terminated normally, but nothing else happened.
)");
    const auto exits = eventsOf(p, EventKind::LauncherExit);
    REQUIRE(exits.size() == 2);
    CHECK(exits[0]->code == model::kExitCodeUnknown);
    CHECK(exits[0]->peerRank == -1);
    CHECK(str(p, exits[0]->peer) == "node316");
    CHECK(str(p, exits[0]->detail) == "mpi");
    CHECK(exits[1]->evidence.line == 8);
    CHECK(exits[1]->peer == model::kNoStr);
}

TEST_CASE(
    "Lightning and DeepSpeed initialisation lines state who the rank is", "[parsers][launcher]")
{
    const auto p = scan("[rank: 3] Initializing distributed: GLOBAL_RANK: 3, MEMBER: 4/8\n"
                        "[2024-01-01 00:00:00,000] [INFO] [comm.py:633:init_distributed] "
                        "Initializing TorchBackend in DeepSpeed with backend nccl\n");
    const auto infos = eventsOf(p, EventKind::FrameworkInfo);
    REQUIRE(infos.size() == 2);
    CHECK(infos[0]->peerRank == 3);
    CHECK(infos[0]->code == 8);
    CHECK(identityOf(p, *infos[0]).globalRank == 3);
    CHECK(infos[0]->severity == Severity::Info);
    CHECK(infos[1]->peerRank == -1);
    CHECK(infos[1]->code == -1);
    CHECK(str(p, infos[1]->text) == "Initializing TorchBackend in DeepSpeed with backend nccl");
}

TEST_CASE(
    "store timeout waiting for clients gives joined and expected counts", "[parsers][launcher]")
{
    const auto p = scan("torch.distributed.DistStoreError: Timed out after 1201 seconds waiting "
                        "for clients. 511/512 clients joined.\n");
    const auto* e = firstOf(p, EventKind::LauncherRendezvousError);
    REQUIRE(e);
    CHECK(e->code == 511);
    CHECK(e->seq == 512);
    CHECK(e->durationMs == 1201000);
    CHECK(str(p, e->detail) == "DistStoreError");
    CHECK(str(p, e->text).starts_with("torch.distributed.DistStoreError: Timed out after 1201"));
    CHECK(e->severity == Severity::Error);
}

TEST_CASE("rendezvous and store failures of every wording", "[parsers][launcher]")
{
    const auto p = scan(
        "torch.distributed.DistStoreError: Socket Timeout\n"
        "torch.distributed.DistStoreError: wait timeout after 600000ms, keys: "
        "/default_pg/0//cuda//0\n"
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n"
        "torch.distributed.elastic.rendezvous.api.RendezvousClosedError\n"
        "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to "
        "the C10d store has failed. See inner exception for details.\n"
        "[E socket.cpp:462] [c10d] The server socket has failed to listen on any local network "
        "address.\n"
        "[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to "
        "connect to 192.0.0.1:1234\n"
        "torch.distributed.DistNetworkError: The client socket has timed out after 10000ms while "
        "trying to connect to (localhost, 44557).\n"
        "[W socket.cpp:601] [c10d] The client socket has failed to connect to [n0]:29500 (errno: "
        "111 - Connection refused).\n"
        "RuntimeError: connect() timed out. Original timeout was 60000 ms.\n"
        "RuntimeError: Connection refused while talking to the TCPStore\n");
    const auto errors = eventsOf(p, EventKind::LauncherRendezvousError);
    REQUIRE(errors.size() == 11);
    CHECK(str(p, errors[0]->text) == "torch.distributed.DistStoreError: Socket Timeout");
    CHECK(str(p, errors[1]->detail) == "DistStoreError");
    CHECK(str(p, errors[2]->detail) == "RendezvousTimeoutError");
    CHECK(str(p, errors[3]->detail) == "RendezvousClosedError");
    CHECK(str(p, errors[4]->detail) == "RendezvousConnectionError");
    CHECK(str(p, errors[5]->text)
        == "The server socket has failed to listen on any local network address.");
    CHECK(str(p, errors[6]->peer) == "192.0.0.1:1234");
    CHECK(str(p, errors[7]->detail) == "DistNetworkError");
    CHECK(str(p, errors[7]->peer) == "(localhost, 44557)");
    CHECK(str(p, errors[8]->peer) == "[n0]:29500");
    CHECK(str(p, errors[9]->text) == "connect() timed out. Original timeout was 60000 ms.");
    CHECK(str(p, errors[10]->text)
        == "RuntimeError: Connection refused while talking to the TCPStore");
}

TEST_CASE("source lines naming rendezvous errors are not errors", "[parsers][launcher]")
{
    const auto p = scan("    raise RendezvousTimeoutError()\n"
                        "    except RendezvousClosedError:\n"
                        "    from torch.distributed import DistStoreError\n"
                        "Connection refused by the web proxy\n");
    CHECK(eventsOf(p, EventKind::LauncherRendezvousError).empty());
}

TEST_CASE(
    "connect retries repeating the same text give one event per writer", "[parsers][launcher]")
{
    std::string text;
    for (int i = 0; i < 50; ++i)
        text += "[W socket.cpp:601] [c10d] The client socket has failed to connect to [n0]:29500 "
                "(errno: 111 - Connection refused).\n";
    text += "[rank1]:[W socket.cpp:601] [c10d] The client socket has failed to connect to "
            "[n0]:29500 (errno: 111 - Connection refused).\n";
    const auto p = scan(text);
    CHECK(eventsOf(p, EventKind::LauncherRendezvousError).size() == 2);
}

TEST_CASE("torn, garbage and absurd launcher lines neither crash nor invent events",
    "[parsers][launcher]")
{
    std::string text;
    text += "failed (exitcode: 99999999999999999999) local_rank: 0 (pid: 1) of binary: x\n";
    text += "failed (exitcode: -6) local_rank: 99999999999999999999 (pid: 99999999999999999999)\n";
    text += "Sending process abc closing signal SIGTERM\n";
    text += "prterun noticed that process rank x with PID 0 on node n exited on signal 6\n";
    text += "  Exit code:    3\n"; // no "Process name:" before it
    text += "Initializing distributed: GLOBAL_RANK: 3, MEMBER: 4\n";
    text += std::string("\x01\x02\xff failed (exit", 16) + "\n";
    text += "Process name: [[1,2],99999999999999999999]\n";
    text += "[0]:\n  time      : not-a-time\n";
    text += "Rendezvous complete for workers. Result:\n  local_ranks=[0, x]\n  group_rank=-3\n";
    text += std::string(3000, '[') + "\n";
    const auto p = scan(text);
    const auto failed = eventsOf(p, EventKind::LauncherWorkerFailed);
    REQUIRE(failed.size() == 1); // the second line: exit code known, the rest not
    CHECK(failed[0]->code == -6);
    CHECK(failed[0]->peerRank == -1);
    CHECK(failed[0]->pid == -1);
    CHECK(eventsOf(p, EventKind::LauncherSignalSent).empty());
    CHECK(eventsOf(p, EventKind::LauncherExit).empty());
    CHECK(eventsOf(p, EventKind::FrameworkInfo).empty());
    CHECK(p.launcherFailures.empty());
    CHECK(p.workerGroups.empty());
}

TEST_CASE("srun task exit lines name the task, the node and the exit", "[parsers][launcher][slurm]")
{
    auto p = rankscope::testing::scan("srun: error: node-39: task 17: Killed\n"
                                      "srun: error: node-3: tasks 0-2,6: Exited with exit code 1\n"
                                      "slurmstepd: error: *** STEP 6059952.0 ON node-39 CANCELLED AT 2024-05-05T10:11:12 ***\n",
        "slurm-6059952.out");
    auto exits = rankscope::testing::eventsOf(p, rankscope::model::EventKind::LauncherExit);
    REQUIRE(exits.size() == 6);
    CHECK(exits[0]->peerRank == 17);
    CHECK(exits[0]->code == -9);
    CHECK(rankscope::testing::str(p, exits[0]->peer) == "node-39");
    CHECK(exits[1]->peerRank == 0);
    CHECK(exits[4]->peerRank == 6);
    CHECK(exits[4]->code == 1);
    CHECK(exits[5]->code == -15);
    CHECK(exits[5]->peerRank == -1);
}

// Pastes of the table lose its layout: a terminal copy without the leading blanks, a page
// rendered from Markdown without underscores and with the fields run together
// (https://github.com/ZhehengJiangLancaster/AMVUR/issues/2), or the traceback field alone.
TEST_CASE("a failure table pasted without indentation still yields its record", "[parsers][launcher]")
{
    const auto p = scan("Root Cause (first observed failure):\n"
                        "[0]:\n"
                        "time      : 2023-09-14_01:45:50\n"
                        "host      : ding\n"
                        "rank      : 2 (local_rank: 2)\n"
                        "exitcode  : -9 (pid: 36071)\n"
                        "error_file: <N/A>\n"
                        "traceback : Signal 9 (SIGKILL) received by PID 36071\n"
                        "============================================================\n");
    REQUIRE(p.launcherFailures.size() == 1);
    const auto& f = p.launcherFailures[0];
    CHECK(f.reportedAsRootCause);
    CHECK(f.globalRank == 2);
    CHECK(f.localRank == 2);
    CHECK(f.exitCode == -9);
    CHECK(f.pid == 36071);
    CHECK(str(p, f.host) == "ding");
}

TEST_CASE("a failure table rendered from Markdown, fields run together, keeps rank, exit code and pid",
    "[parsers][launcher]")
{
    const auto p = scan("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
                        "experiments/supervised HO3D V2.py FAILED\n"
                        "Failures:\n"
                        "<NO OTHER FAILURES>\n"
                        "Root Cause (first observed failure) :\n"
                        "[0]:\n"
                        "time\n"
                        "host\n"
                        "2023-09-14 01:45:50\n"
                        "ding-X10DRG\n"
                        "rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>\n"
                        "traceback : signal 9 (SIGKILL) received by PID 36071\n"
                        "Watchdog line that follows is not part of the table\n");
    REQUIRE(p.launcherFailures.size() == 1);
    const auto& f = p.launcherFailures[0];
    CHECK(f.reportedAsRootCause);
    CHECK(f.globalRank == 2);
    CHECK(f.localRank == 2);
    CHECK(f.exitCode == -9);
    CHECK(f.pid == 36071);
    CHECK(f.errorFile == model::kNoStr);
    CHECK(str(p, f.traceback) == "signal 9 (SIGKILL) received by PID 36071");
}

TEST_CASE("the loose lines of a rendered table do not keep it open for long", "[parsers][launcher]")
{
    // Five lines in a row that are no field end the record; the table yields what it had.
    const auto p = scan("Root Cause (first observed failure):\n"
                        "[0]:\n"
                        "rank      : 3 (local_rank: 3)\n"
                        "one\ntwo\nthree\nfour\nfive\n"
                        "exitcode  : -9 (pid: 77)\n");
    REQUIRE(p.launcherFailures.size() == 1);
    CHECK(p.launcherFailures[0].globalRank == 3);
    CHECK(p.launcherFailures[0].exitCode == 0);
}

TEST_CASE("torchrun's signal message alone is a failure record with no rank", "[parsers][launcher]")
{
    const auto p = scan("exitcode: -9 (pid: 3617904)\n"
                        "traceback: Signal 9 (SIGKILL) received by PID 3617904\n"
                        "the word Signal 9 received by PID without a name is not it\n");
    REQUIRE(p.launcherFailures.size() == 1);
    const auto& f = p.launcherFailures[0];
    CHECK(f.globalRank == -1);
    CHECK(f.exitCode == -9);
    CHECK(f.pid == 3617904);
    CHECK(str(p, f.traceback) == "Signal 9 (SIGKILL) received by PID 3617904");
    const auto* e = firstOf(p, EventKind::LauncherFailureRecord);
    REQUIRE(e);
    CHECK(e->code == -9);
    CHECK(e->peerRank == -1);
}

// Ray's memory monitor (raylet node_manager.cc) kills workers when the node's host memory
// passes RAY_memory_usage_threshold; it names the node, never a worker's rank or pid.
TEST_CASE("Ray's memory monitor killing workers is a host memory kill with no rank", "[parsers][launcher][ray]")
{
    const auto p = scan("(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers "
                        "(tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons "
                        "at node (ID: 351e40, IP: 10.95.143.76) over the last time period.\n"
                        "(raylet) Refer to the documentation on how to address the out of memory issue\n");
    const auto* e = firstOf(p, EventKind::HostOutOfMemory);
    REQUIRE(e);
    CHECK(e->rank == -1);
    CHECK(e->pid == -1);
    CHECK(str(p, e->detail) == "ray_memory_monitor");
    // The documentation line after it is not a second kill.
    std::size_t kills = 0;
    for (const auto& ev : p.events)
        kills += ev.kind == EventKind::HostOutOfMemory;
    CHECK(kills == 1);
}

// Slurm ≥21 names the host in slurmstepd's prefix; its task/cgroup plugin reports the step's
// memory limit being reached, and srun reports the task as "Out Of Memory".
TEST_CASE("Slurm's cgroup OOM kill and slurmstepd with its host are read", "[parsers][launcher][slurm]")
{
    const auto p = scan("slurmstepd-gpu20-15: error: Detected 1 oom-kill event(s) in StepId=9411285.0. Some of your "
                        "processes may have been killed by the cgroup out-of-memory handler.\n"
                        "srun: error: gpu20-15: task 0: Out Of Memory\n"
                        "slurmstepd-gpu20-15: error: *** STEP 9411285.0 ON gpu20-15 CANCELLED AT 2022-05-17T17:58:10 ***\n"
                        "make: error: *** no rule, not Slurm CANCELLED AT all\n");
    const auto* oom = firstOf(p, EventKind::HostOutOfMemory);
    REQUIRE(oom);
    CHECK(str(p, oom->detail) == "slurm_cgroup");
    std::vector<std::int32_t> codes;
    for (const auto& e : p.events)
        if (e.kind == EventKind::LauncherExit)
            codes.push_back(e.code);
    CHECK(codes == std::vector<std::int32_t> { -9, -15 });
}

// Ray core's error for an actor whose process went away names no worker; after Ray Train's
// worker description it is that worker's world rank.
TEST_CASE("Ray's dead-actor error is a worker death, ranked only after Ray Train's description", "[parsers][launcher][ray]")
{
    const auto alone = scan("The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR "
                            "Worker exit detail: Worker unexpectedly exits with a connection error code 2.\n");
    const auto* e = firstOf(alone, EventKind::LauncherExit);
    REQUIRE(e);
    CHECK(e->peerRank == -1);
    CHECK(e->code == rankscope::model::kExitCodeUnknown);

    const auto described = scan("  distributed_context=DistributedContext(world_rank=3, world_size=8, local_rank=3),\n"
                                "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR\n");
    const auto* d = firstOf(described, EventKind::LauncherExit);
    REQUIRE(d);
    CHECK(d->peerRank == 3);
}
