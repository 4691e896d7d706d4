#pragma once
// The text of NCCL's IB completion warning ([formats 3.7], every version row), shared by
// the NCCL parser (the WARN line) and the PyTorch parser (the same text after "Last error:"
// in an async NCCL error, when NCCL_DEBUG is off):
//   "NET/IB : Got completion from peer 10.0.0.2<47534> with error 5, opcode 48, len 32764, vendor err 244"
//   "NET/IB: Got completion from peer 10.0.0.2<5> with status=IBV_WC_RETRY_EXC_ERR(12) … hca mlx5_0"
//   "NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129"   (≤2.7: no peer)

#include <optional>
#include <string_view>

namespace rankscope::parsers {

struct IbCompletion {
    std::string_view peer; // "10.0.0.2<47534>" as printed; empty when the line was cut
    int status = -1;       // ibv_wc_status
    std::string_view hca;  // local device (2.23+), empty when not printed
};

std::optional<IbCompletion> parseIbCompletion(std::string_view text);

// A line that is nothing but the warning's text, its NCCL header lost in the paste
// ("NET/IBP:Got completion from peer …"): true when `line` starts like NCCL's IB message.
bool isBareIbCompletion(std::string_view line);

// "Connection closed by remote peer node2<42830>" / "Call to recv from 10.0.0.2<5> failed":
// the remote address of a socket error, empty when there is none.
std::string_view socketErrorPeer(std::string_view text);

} // namespace rankscope::parsers
