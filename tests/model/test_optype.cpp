#include "model/optype.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

TEST_CASE("op names from PyTorch, NCCL and Flight Recorder agree", "[model][optype]")
{
    CHECK(opTypeFromTorchName("_REDUCE_SCATTER_BASE") == OpType::ReduceScatterBase);
    CHECK(opTypeFromNcclName("ReduceScatter") == OpType::ReduceScatter);
    CHECK(opTypeFromProfilingName("nccl:send 1->2") == OpType::Send);
    CHECK(opTypeFromProfilingName("nccl:all_reduce_barrier") == OpType::Barrier);
    CHECK(opFamily(OpType::ReduceScatterBase) == opFamily(OpType::ReduceScatter));
    CHECK(opFamily(OpType::AllGatherBase) == OpType::AllGather);
    CHECK(torchName(OpType::AllReduce) == "ALLREDUCE");
    CHECK(opTypeFromTorchName("NOPE") == OpType::Unknown);
}
