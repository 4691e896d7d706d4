#pragma once
// Lines the ranks up collective by collective ([formats 1.5]): for every process group,
// each rank's last enqueued / started / completed sequence number and the SeqNum it timed
// out on, and the group's membership where the logs show it.

#include "model/bundle.h"

namespace rankscope::model {

// Needs resolved ranks (resolveRanks). Fills bundle.processGroups and bundle.progress.
void buildProgress(Bundle& bundle);

} // namespace rankscope::model
