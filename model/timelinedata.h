#pragma once
// What the per-rank collective timeline draws, as flat per-rank arrays sorted by time so a
// view can find the visible range with two binary searches (firstIndex/lastIndex):
//   - markers: timeouts, errors, crashes, hardware and network faults, launcher kills;
//   - spans:   the wait inside the stuck collective (enqueue → watchdog timeout) per rank;
//   - collectives: each Flight Recorder entry as a bar with its real times ([formats 2.3]);
//   - per process group, each rank's sequence-number progress for the sequence-number axis,
//     with the op of recent collectives where Flight Recorder entries or NCCL COLL lines
//     give it (and the progress itself for ranks that printed no PyTorch status line).

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <cstdint>
#include <vector>

namespace rankscope::model {

enum class MarkerKind : std::uint8_t {
    Timeout,
    Error,
    Crash,
    Hardware,
    Network,
    LauncherKill,
    Heartbeat,
    Info,
};

struct TimelineMarker {
    std::int64_t timeNs = 0;
    std::uint32_t event = 0; // index into Bundle::events
    MarkerKind kind = MarkerKind::Info;
    bool inferredTime = false;
};

struct TimelineSpan {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t seq = -1;
    OpType op = OpType::Unknown;
    StrId pg = kNoStr;
    std::uint32_t event = 0; // the timeout event that closes the span
    bool stuck = false;      // the diagnosis's stuck collective
    // The timeout line had no time of its own (TimePoint::inferred): both ends are placed
    // by a time copied from an earlier line, so the bar may sit far from the real wait.
    bool inferredTime = false;
};

// One collective as a rank's Flight Recorder recorded it: real start and end times, where
// the logs only show when the stuck one timed out.
struct TimelineCollective {
    std::int64_t startNs = 0; // time_discovered_started, else time_created
    std::int64_t endNs = 0;   // time_discovered_completed; still running: the end of the data
    std::int64_t seq = -1;    // collective_seq_id; -1 for p2p ops
    OpType op = OpType::Unknown;
    StrId pg = kNoStr;
    FrState state = FrState::Unknown;
    std::uint32_t entry = 0;   // index into Bundle::frEntries
    bool stillRunning = false; // not completed when the rank dumped
    bool stuck = false;        // the diagnosis's stuck collective
};

// One rank's position on one process group's sequence axis.
struct SeqRow {
    std::int32_t rank = -1;
    std::int64_t lastCompleted = -1;
    std::int64_t lastEnqueued = -1;
    std::int64_t timeoutSeq = -1;
    OpType timeoutOp = OpType::Unknown;
    bool hasStatus = false;
    // Ops of recent collectives by sequence number, sorted: Flight Recorder entries of this
    // PG, and NCCL COLL lines on the world communicator (seq = opCount + 1) for the default
    // PG; empty when neither was recorded.
    std::vector<std::pair<std::int64_t, OpType>> recent;
};

struct SeqAxis {
    StrId pg = kNoStr;
    std::int64_t minSeq = 0;
    std::int64_t maxSeq = 0;
    std::vector<SeqRow> rows; // indexed by rank
};

class TimelineData {
public:
    static TimelineData build(const Bundle& bundle, const Diagnosis& diagnosis);

    std::int32_t rankCount() const { return static_cast<std::int32_t>(m_markers.size()); }
    const std::vector<TimelineMarker>& markers(std::int32_t rank) const { return m_markers[rank]; }
    const std::vector<TimelineSpan>& spans(std::int32_t rank) const { return m_spans[rank]; }
    // Sorted by start time.
    const std::vector<TimelineCollective>& collectives(std::int32_t rank) const { return m_collectives[rank]; }
    const std::vector<SeqAxis>& seqAxes() const { return m_seqAxes; }
    const SeqAxis* seqAxis(StrId pg) const;

    bool hasWallClock() const { return m_minNs <= m_maxNs; }
    std::int64_t minTimeNs() const { return m_minNs; }
    std::int64_t maxTimeNs() const { return m_maxNs; }

    // Index of the first marker of `rank` with time >= t, and one past the last with time <= t.
    std::size_t firstMarkerAtOrAfter(std::int32_t rank, std::int64_t t) const;
    std::size_t endMarkerAtOrBefore(std::int32_t rank, std::int64_t t) const;
    // Index of the first collective of `rank` that may still be running at t: every one
    // before it ended before t (O(log n), also when bars overlap).
    std::size_t firstCollectiveEndingAtOrAfter(std::int32_t rank, std::int64_t t) const;

private:
    std::vector<std::vector<TimelineMarker>> m_markers;
    std::vector<std::vector<TimelineSpan>> m_spans;
    std::vector<std::vector<TimelineCollective>> m_collectives;
    std::vector<std::vector<std::int64_t>> m_collectiveEndMax; // running max of endNs per rank
    std::vector<SeqAxis> m_seqAxes;
    std::int64_t m_minNs = 1;
    std::int64_t m_maxNs = 0;
};

// Whether a time can be placed on the shared wall-clock axis.
bool onWallClockAxis(const TimePoint& t);

} // namespace rankscope::model
