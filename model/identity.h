#pragma once
// What one log line says about the process that wrote it, before any cross-source
// reasoning: the stacked prefixes of [formats 0] and the NCCL host:pid header.
// The rank resolver turns these into global ranks once every source has been read.

#include "model/evidence.h"
#include "model/stringpool.h"

#include <cstddef>
#include <cstdint>

namespace rankscope::model {

struct RawIdentity {
    SourceId source = kNoSource;
    std::int32_t globalRank = -1; // [rankN]:, Lightning [rank: N]
    std::int32_t localRank = -1;  // torchrun [defaultN]:
    std::int32_t srunTask = -1;   // srun --label "03: "
    std::int32_t mpiRank = -1;    // Open MPI [1,3]<stdout>:
    std::int32_t pid = -1;        // NCCL host:pid:tid, Ray pid=
    StrId host = kNoStr;          // pdsh "node12: " or NCCL header host
    StrId ip = kNoStr;            // Ray ip=

    // A prefix or tag said which rank wrote the line (as opposed to only its process or host).
    bool statesRank() const { return globalRank >= 0 || localRank >= 0 || srunTask >= 0 || mpiRank >= 0; }

    friend bool operator==(const RawIdentity&, const RawIdentity&) = default;
};

} // namespace rankscope::model
