#pragma once
// Collective operation types as PyTorch's OpType names them ([formats 1.3]), with the
// spellings NCCL COLL lines ([formats 3.5]) and Flight Recorder profiling names ([formats 2.3]) use.

#include <cstdint>
#include <string_view>

namespace rankscope::model {

enum class OpType : std::uint8_t {
    Unknown,
    Broadcast,
    AllReduce,
    AllReduceCoalesced,
    Reduce,
    AllGather,
    AllGatherBase,
    AllGatherCoalesced,
    AllGatherIntoTensorCoalesced,
    Gather,
    Scatter,
    ReduceScatter,
    ReduceScatterBase,
    ReduceScatterTensorCoalesced,
    AllToAllBase,
    AllToAll,
    Send,
    Recv,
    RecvAnySource,
    Barrier,
    Coalesced,
    AllReduceSparse,
};

// "ALLREDUCE", "_ALLGATHER_BASE", ... (WorkNCCL OpType=...)
OpType opTypeFromTorchName(std::string_view name);
// "AllReduce", "ReduceScatter", "Send", ... (NCCL COLL lines)
OpType opTypeFromNcclName(std::string_view name);
// "nccl:all_reduce", "nccl:send 1->2", "nccl:_allgather_base" (Flight Recorder)
OpType opTypeFromProfilingName(std::string_view name);

std::string_view torchName(OpType op);

// Kinds that move the same data pattern compare equal: _ALLGATHER_BASE and ALLGATHER are
// the same collective seen through different PyTorch APIs, so a mismatch check must not
// call them different.
OpType opFamily(OpType op);
bool isPointToPoint(OpType op);

} // namespace rankscope::model
