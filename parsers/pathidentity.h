#pragma once
// What a file's path says about its writer ([formats 5.4], [formats 6]):
//   rank3.log, rank_3.txt, rank-0003.out, log_rank3.log, 20240101_rank7.log  → global rank
//   train-0003.out (Slurm %4t), task-3.log                                   → global rank (task id)
//   nccl_trace_rank_3                                                         → global rank
//   node-07/stderr.log, node-07/…/attempt_0/3/stderr.log (torchrun --log-dir) → host, local rank
//   nccl.node12.4242 (NCCL_DEBUG_FILE=%h.%p)                                  → host, pid
//   slurm-1234.out                                                            → a combined job file

#include "model/source.h"

#include <string_view>

namespace rankscope::parsers {

// `path` is the display path (archive members: "a.tgz!dir/file"), '/'-separated.
model::PathIdentity identityFromPath(std::string_view path);

} // namespace rankscope::parsers
