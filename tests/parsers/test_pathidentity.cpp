#include "parsers/pathidentity.h"

#include <catch2/catch.hpp>

using rankscope::parsers::identityFromPath;

TEST_CASE("rank numbers from per-rank file names", "[parsers][path]")
{
    CHECK(identityFromPath("logs/rank3.log").globalRank == 3);
    CHECK(identityFromPath("logs/rank_3.txt").globalRank == 3);
    CHECK(identityFromPath("logs/rank-0003.out").globalRank == 3);
    CHECK(identityFromPath("logs/train-0003.out").globalRank == 3);
    CHECK(identityFromPath("dump/nccl_trace_rank_12").globalRank == 12);
    CHECK(identityFromPath("ds/20240101120000_rank7.log").globalRank == 7);
    CHECK(identityFromPath("bundle.tgz!x/log_rank11.log.gz").globalRank == 11);
    CHECK(identityFromPath("ckpt/checkpoint-500.log").globalRank == -1);
    CHECK(identityFromPath("slurm-123456.out").globalRank == -1);
    CHECK(identityFromPath("slurm-123456.out").combined);
}

TEST_CASE("torchrun log-dir layout gives node and local rank", "[parsers][path]")
{
    auto id = identityFromPath("run/node-07/abc123/attempt_0/3/stderr.log");
    CHECK(id.host == "node-07");
    CHECK(id.localRank == 3);
    CHECK(id.attempt == 0);
    CHECK(id.globalRank == -1);
    CHECK(id.stream == "stderr");
}

TEST_CASE("node folders and NCCL_DEBUG_FILE names give hosts", "[parsers][path]")
{
    CHECK(identityFromPath("node-07/stderr.log").host == "node-07");
    auto nccl = identityFromPath("nccl/nccl.gpu003.4242");
    CHECK(nccl.host == "gpu003");
    CHECK(nccl.pid == 4242);
    CHECK(identityFromPath("logs/node-12.log").host == "node-12");
}

TEST_CASE("the folder above a torchrun run folder is the node", "[parsers][path]")
{
    auto id = identityFromPath("bundle/ip-10-0-3-17/job_abc123xy/attempt_0/5/stderr.log");
    CHECK(id.host == "ip-10-0-3-17");
    CHECK(id.localRank == 5);
    CHECK(identityFromPath("dgx12/stderr.log").host == "dgx12");
    CHECK(identityFromPath("logs-2024.tgz!run_1/attempt_0/1/stderr.log").host.empty());
}

TEST_CASE("per-node captures named after the node give the host", "[parsers][path]")
{
    CHECK(identityFromPath("logs/dmesg-dgx33.log").host == "dgx33");
    CHECK(identityFromPath("logs/node07.dmesg").host == "node07");
    CHECK(identityFromPath("logs/nvidia-smi_gpu-a100-003.csv").host == "gpu-a100-003");
    CHECK(identityFromPath("logs/dmesg.log").host.empty());
    // A capture cut into pieces names the piece, not a host.
    CHECK(identityFromPath("console.part1.log").host.empty());
    CHECK(identityFromPath("dmesg-chunk-2.log").host.empty());
    CHECK(identityFromPath("console-gpu12.log").host == "gpu12");
}
