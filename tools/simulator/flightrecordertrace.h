#pragma once
// What one rank's Flight Recorder holds when it dumps ([formats 2.3]), derived from the
// job model and the scenario's ground truth, never from the rendered logs:
//   - every PG 0 collective the rank enqueued (same enqueue times as its COLL lines), with
//     the op and sizes it really issued (a mismatching rank records its own op at S);
//   - a collective completes once every rank has enqueued it and the one before it has
//     completed (one stream per communicator); the stuck one completes nowhere and the ops
//     queued behind it stay "scheduled";
//   - "discovered" times are when the watchdog, which polls every 100 ms, noticed; a rank
//     whose watchdog is blocked by a dead GPU notices the start only when it dumps;
//   - only the last TORCH_NCCL_TRACE_BUFFER_SIZE entries survive (one ring per process).
// Who dumps: a rank whose watchdog is alive when a dump is triggered (its own timeout, the
// TCPStore dump signal of the first rank to time out, the heartbeat monitor), or a healthy
// rank dumped on request when the bundle is collected. A crashed, exited or hard-hung rank
// writes no file, exactly the blind spot of the official analyzer ([formats 2.4] pitfalls).

#include "jobmodel.h"
#include "scenarioplan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::simulator {

enum class FrEntryState : std::uint8_t { Scheduled, Started, Completed };

struct FrFrame {
    std::string name;
    std::string file;
    int line = 0;

    bool operator==(const FrFrame&) const = default;
};

struct FrTraceEntry {
    std::int64_t recordId = 0; // per process, across PGs
    std::int64_t collectiveSeq = 0;
    std::int64_t p2pSeq = 0;
    std::int64_t opId = 0;
    Op op = Op::AllReduce;
    std::uint64_t numelIn = 0;
    std::uint64_t numelOut = 0;
    int dtype = 7; // NCCL datatype enum, as in Collective
    FrEntryState state = FrEntryState::Scheduled;
    std::int64_t createdNs = 0; // epoch ns (c10::getTime, CLOCK_REALTIME)
    std::int64_t discoveredStartedNs = -1; // -1: null
    std::int64_t discoveredCompletedNs = -1;
    double durationMs = -1; // CUDA-event time; only when completed
    bool retired = false;
    std::size_t stack = 0; // index into FrTraceDump::stacks
};

struct FrTraceDump {
    int rank = 0;
    int worldSize = 0;
    std::int64_t timeoutMs = 0;
    std::string ncclVersion; // "2.21.5"
    Micros dumpedAt = 0;
    std::int64_t lastEnqueued = -1; // pg_status of PG 0
    std::int64_t lastStarted = -1;
    std::int64_t lastCompleted = -1;
    std::vector<std::vector<FrFrame>> stacks; // distinct Python stacks, innermost first
    std::vector<FrTraceEntry> entries; // oldest first
};

class FlightRecorderTrace {
public:
    FlightRecorderTrace(const Job& job, const ScenarioPlan& plan);

    // The rank's dump, or nullopt when it writes none.
    std::optional<FrTraceDump> dump(int rank) const;

private:
    static constexpr Micros kNever = -1;
    // When rank q enqueued program[i]; kNever when it did not (same rules as its COLL lines).
    Micros enqueueAt(int q, int i) const;
    Micros dumpTime(int rank) const;
    Micros watchdogDelay(int rank, int i, int which) const;
    std::int64_t epochNs(Micros t) const;
    std::size_t stackOf(FrTraceDump& dump, const Collective& c) const;

    const Job& m_job;
    const ScenarioPlan& m_plan;
    std::vector<Micros> m_completedAt; // program op → when the collective completed, or kNever
};

} // namespace rankscope::simulator
