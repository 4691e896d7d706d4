#pragma once
// How long each rank had waited inside a collective, from Flight Recorder dumps alone.
// A dump records when each entry was created and seen starting, not when the dump was
// written. Every rank dumps when the first watchdog fires (the dump signal goes out through
// the store), and that watchdog fires its timeout after the earliest rank entered. So a rank
// still inside the collective when it dumped waited from its own entry until
//   earliest entry among those ranks + that entry's timeout_ms.
// An estimate: the first rank's wait is its timeout, later ranks waited less.

#include "model/bundle.h"
#include "model/timelinedata.h"

#include <cstdint>
#include <vector>

namespace rankscope::model {

// Seconds per rank (index = global rank), -1 where the dumps say nothing: the rank has no
// still-running entry of that collective (it completed it, never entered it, or left no dump)
// or no entry carries a timeout. The collective is (pg, seq); seq < 0 takes the entries the
// timeline marked as the diagnosis's stuck collective.
std::vector<double> estimatedFrWaitSeconds(const Bundle& bundle, const TimelineData& timeline,
    StrId pg, std::int64_t seq);

} // namespace rankscope::model
