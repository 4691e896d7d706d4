#pragma once
// How far a job got, for a verdict with nothing to blame ("no hang found"): what the diagnosis
// looked for and how many lines showed each, the last collective every process group completed
// (lowest and highest across its ranks, from watchdog counters and Flight Recorder dumps), the training step each rank logged last, and when the
// job was last seen making progress. Read from the bundle alone; nothing here decides a verdict.

#include "model/bundle.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

// The lowest and highest of one counter across ranks, and who is furthest behind.
struct RankSpread {
    std::size_t ranks = 0; // ranks that reported the counter
    std::int64_t lowest = -1;
    std::int64_t highest = -1;
    std::int32_t lowestRank = -1; // a rank at `lowest` (the first by rank)
};

struct GroupReach {
    std::string processGroup; // as the logs print it ("0")
    std::string description; // "default_pg" when known
    RankSpread lastCompleted; // last completed collective sequence number
};

struct CheckedSignal {
    std::string_view what; // "collective timeouts (watchdog)"
    std::size_t lines = 0; // lines that showed it
};

struct JobReach {
    std::vector<CheckedSignal> checked; // in the order of the table in jobreach.cpp
    std::vector<GroupReach> groups; // by process group key text
    RankSpread trainingStep; // from step/iteration lines
    // The latest wall-clock time on a line that shows work getting done (a training step, a
    // collective counter, a communicator finishing), and the rank and line it is on.
    TimePoint lastProgress;
    std::int32_t lastProgressRank = -1;
    EvidenceRef lastProgressLine;
    TimePoint lastLine; // the latest wall-clock time on any line
};

JobReach measureReach(const Bundle& bundle);

} // namespace rankscope::model
