#include "model/optype.h"

#include <array>
#include <utility>

namespace rankscope::model {

namespace {

struct OpNames {
    OpType op;
    std::string_view torch;
};

constexpr std::array kTorchNames = {
    OpNames { OpType::Unknown, "UNKNOWN" },
    OpNames { OpType::Broadcast, "BROADCAST" },
    OpNames { OpType::AllReduce, "ALLREDUCE" },
    OpNames { OpType::AllReduceCoalesced, "ALLREDUCE_COALESCED" },
    OpNames { OpType::Reduce, "REDUCE" },
    OpNames { OpType::AllGather, "ALLGATHER" },
    OpNames { OpType::AllGatherBase, "_ALLGATHER_BASE" },
    OpNames { OpType::AllGatherCoalesced, "ALLGATHER_COALESCED" },
    OpNames { OpType::AllGatherIntoTensorCoalesced, "ALLGATHER_INTO_TENSOR_COALESCED" },
    OpNames { OpType::Gather, "GATHER" },
    OpNames { OpType::Scatter, "SCATTER" },
    OpNames { OpType::ReduceScatter, "REDUCE_SCATTER" },
    OpNames { OpType::ReduceScatterBase, "_REDUCE_SCATTER_BASE" },
    OpNames { OpType::ReduceScatterTensorCoalesced, "REDUCE_SCATTER_TENSOR_COALESCED" },
    OpNames { OpType::AllToAllBase, "ALLTOALL_BASE" },
    OpNames { OpType::AllToAll, "ALLTOALL" },
    OpNames { OpType::Send, "SEND" },
    OpNames { OpType::Recv, "RECV" },
    OpNames { OpType::RecvAnySource, "RECVANYSOURCE" },
    OpNames { OpType::Barrier, "BARRIER" },
    OpNames { OpType::Coalesced, "COALESCED" },
    OpNames { OpType::AllReduceSparse, "_ALLREDUCE_SPARSE" },
};

} // namespace

OpType opTypeFromTorchName(std::string_view name)
{
    for (const auto& entry : kTorchNames)
        if (entry.torch == name)
            return entry.op;
    return OpType::Unknown;
}

std::string_view torchName(OpType op)
{
    for (const auto& entry : kTorchNames)
        if (entry.op == op)
            return entry.torch;
    return "UNKNOWN";
}

OpType opTypeFromNcclName(std::string_view name)
{
    static constexpr std::pair<std::string_view, OpType> kNccl[] = {
        { "AllReduce", OpType::AllReduce },
        { "AllGather", OpType::AllGather },
        { "ReduceScatter", OpType::ReduceScatter },
        { "Broadcast", OpType::Broadcast },
        { "Reduce", OpType::Reduce },
        { "Send", OpType::Send },
        { "Recv", OpType::Recv },
        { "AllToAll", OpType::AllToAll },
        { "AlltoAll", OpType::AllToAll },
        { "Gather", OpType::Gather },
        { "Scatter", OpType::Scatter },
    };
    for (const auto& [text, op] : kNccl)
        if (text == name)
            return op;
    return OpType::Unknown;
}

OpType opTypeFromProfilingName(std::string_view name)
{
    if (name.starts_with("nccl:"))
        name.remove_prefix(5);
    // P2P names carry the peers: "send 1->2", "recv 3<-0".
    if (auto space = name.find(' '); space != std::string_view::npos)
        name = name.substr(0, space);
    static constexpr std::pair<std::string_view, OpType> kFr[] = {
        { "all_reduce", OpType::AllReduce },
        { "all_reduce_barrier", OpType::Barrier },
        { "allreduce_coalesced", OpType::AllReduceCoalesced },
        { "all_reduce_coalesced", OpType::AllReduceCoalesced },
        { "broadcast", OpType::Broadcast },
        { "reduce", OpType::Reduce },
        { "all_gather", OpType::AllGather },
        { "_allgather_base", OpType::AllGatherBase },
        { "all_gather_into_tensor", OpType::AllGatherBase },
        { "allgather_coalesced", OpType::AllGatherCoalesced },
        { "all_gather_into_tensor_coalesced", OpType::AllGatherIntoTensorCoalesced },
        { "gather", OpType::Gather },
        { "scatter", OpType::Scatter },
        { "reduce_scatter", OpType::ReduceScatter },
        { "_reduce_scatter_base", OpType::ReduceScatterBase },
        { "reduce_scatter_tensor", OpType::ReduceScatterBase },
        { "reduce_scatter_tensor_coalesced", OpType::ReduceScatterTensorCoalesced },
        { "all_to_all", OpType::AllToAll },
        { "all_to_allv", OpType::AllToAll },
        { "alltoall_base", OpType::AllToAllBase },
        { "all_to_all_single", OpType::AllToAllBase },
        { "send", OpType::Send },
        { "recv", OpType::Recv },
        { "recv_any_source", OpType::RecvAnySource },
        { "barrier", OpType::Barrier },
        { "coalesced", OpType::Coalesced },
    };
    for (const auto& [text, op] : kFr)
        if (text == name)
            return op;
    return OpType::Unknown;
}

OpType opFamily(OpType op)
{
    switch (op) {
    case OpType::AllGatherBase:
    case OpType::AllGatherCoalesced:
    case OpType::AllGatherIntoTensorCoalesced:
        return OpType::AllGather;
    case OpType::ReduceScatterBase:
    case OpType::ReduceScatterTensorCoalesced:
        return OpType::ReduceScatter;
    case OpType::AllReduceCoalesced:
    case OpType::AllReduceSparse:
        return OpType::AllReduce;
    case OpType::AllToAllBase:
        return OpType::AllToAll;
    case OpType::RecvAnySource:
        return OpType::Recv;
    default:
        return op;
    }
}

bool isPointToPoint(OpType op)
{
    return op == OpType::Send || op == OpType::Recv || op == OpType::RecvAnySource;
}

} // namespace rankscope::model
