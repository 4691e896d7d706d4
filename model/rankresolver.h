#pragma once
// Turns every identity (what a line's prefixes and NCCL header say about its writer) into
// a global rank, using all sources at once ([formats 0], [formats 1.2], [formats 3.3], [formats 5.4], [formats 6]):
//   - explicit statements: "[rank3]:", "global rank: 3", Lightning GLOBAL_RANK, PG-0 rank;
//   - NCCL init lines: the comm rank in the world communicator of process host:pid;
//   - launcher tables: torchrun's worker layout and failure table ((host, local rank) → rank);
//   - file names: rank3.log, and torchrun's attempt_0/<local_rank>/ folders with the node;
//   - weak hints: srun task ids.
// Identities that belong to one process (same file and local rank, same host and pid, one
// single-process file) are grouped, and the strongest claims decide. Disagreeing claims are
// kept as an import issue; nothing is guessed silently.

#include "model/bundle.h"

namespace rankscope::model {

// Fills bundle.identityRank, bundle.world, bundle.ranks and adds conflicts to bundle.issues.
void resolveRanks(Bundle& bundle);

// "node-07.cluster.local" → "node-07"; IPv4 addresses stay whole.
std::string shortHostName(std::string_view host);

} // namespace rankscope::model
