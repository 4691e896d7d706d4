#pragma once
// What goes wrong, rank by rank. A scenario builder gives every rank a fate (waits in the
// stuck collective, never enters it, crashes, hangs in a wedged GPU, ...) with the times
// it acts; simulateTimeline() then plays the job forward: watchdog timeouts, the TCPStore
// dump signal of the first rank to time out, process deaths, the launcher's reaction
// (torchrun SIGTERMs a node's siblings after its first failure; srun may kill the step),
// and when the bundle was collected. The renderer prints exactly this history.

#include "jobmodel.h"
#include "simulator.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rankscope::simulator {

enum class Fate : std::uint8_t {
    Completes, // trains to the end, exits 0
    Running, // healthy; the bundle is a snapshot taken while it still trains
    Waits, // enqueued the stuck collective, waits for its watchdog
    NeverEnters, // straggler: alive, stalled before the stuck collective
    Silent, // output stops; hung hard (no reaction to anything)
    Crashes, // the process dies at eventAt (kind says how)
    CleanExit, // leaves the training loop early and exits 0 at eventAt
    GpuHung, // enqueued the stuck collective; its watchdog is blocked by a dead GPU
    GpuError, // enqueued; its watchdog hits a sticky CUDA error at eventAt
    NetError, // enqueued; NCCL reports a transport error at eventAt
    InitMissing, // never reaches NCCL init of the communicator
    InitWait, // NCCL Init START without COMPLETE, waits forever
    InitError, // fails during communicator/store setup at eventAt (exit 1)
    Frozen, // the whole process froze before its first collective
};

struct RankPlan {
    Fate fate = Fate::Completes;
    std::string kind; // crash kind, error kind, stall kind
    int stopOp = -1; // program ops [0, stopOp) were enqueued (-1: all)
    int skipOp = -1; // extra_collective: this op is skipped, later ones shift
    Collective work; // its WorkNCCL at the stuck sequence number
    bool hasWork = false;
    std::int64_t lastEnqueued = -1; // PG status of the stuck PG
    std::int64_t lastCompleted = -1;
    Micros enqueueAt = -1; // when it enqueued `work`
    Micros stallAt = -1; // straggler / silent / frozen: when normal output stops
    Micros eventAt = -1; // crash / error time
    int peer = -1; // network error: the rank named as peer
    int errorStatus = 12; // IB completion status it reports
    bool heartbeatVariant = false; // GpuHung: heartbeat monitor reports the stuck watchdog

    // Outcome, filled by simulateTimeline().
    Micros timeoutAt = -1; // own watchdog fired (process alive)
    Micros dumpSignalAt = -1; // dump-signal line time
    int dumpFrom = -2; // -1: this local rank, >= 0: remote rank F, -2: none
    Micros heartbeatAt = -1; // heartbeat monitor reported a stuck watchdog
    Micros fatalAt = -1; // heartbeat monitor's LOG(FATAL) (terminate)
    Micros deathAt = -1; // -1: alive at collection time
    int exitCode = 0;
    bool killedByLauncher = false; // SIGTERM/SIGKILL from torchrun or srun
    bool sigkillAfterTerm = false; // did not react to SIGTERM (D state)
    Micros logEnd = 0; // nothing of this rank after this time
};

// What the launcher of one node saw and did.
struct NodeOutcome {
    Micros pollAt = -1; // torchrun: poll that noticed the first failure
    std::vector<int> failed; // ranks with nonzero exit at that poll (sorted)
    std::vector<int> terminated; // ranks the agent sent SIGTERM to
    std::vector<int> sigkilled; // ranks that needed SIGKILL after 30 s
    bool succeeded = false; // all local workers exited 0
    Micros finishedAt = -1;
};

struct ScenarioPlan {
    std::string scenario;
    std::string variant;
    std::string notes;
    Verdict verdict;
    std::optional<int> worldSizeVisible;

    std::vector<RankPlan> ranks;
    bool hasHang = false;
    int stuckOp = -1; // index into job.program
    std::int64_t stuckSeq = -1;
    int hangStep = 0;
    Micros hangAt = -1; // onset (fault time)

    // Scenario details the renderer needs.
    int xid = 0; // 79, 48, 119, 94, 95, 74
    std::vector<int> xidRanks;
    Micros xidAt = -1;
    std::vector<int> linkDownNodes; // mlx5 link flap in dmesg
    Micros linkDownAt = -1;
    int oomKilledRank = -1;
    bool socketTransport = false; // NET/IB : No device found → NET/Socket
    bool dockerIfname = false;
    std::string badIfname; // init_bootstrap/ifname
    bool detailFingerprint = false; // TORCH_DISTRIBUTED_DEBUG=DETAIL mismatch error
    bool dumpOnTimeout = true; // TORCH_NCCL_DUMP_ON_TIMEOUT
    int newPgId = -1; // resource_exhaustion: the sub-group being created
    Micros newPgAt = -1;
    int shmNode = -1;
    bool earlyStopNote = false;
    bool harmlessWarn = false; // healthy: benign NCCL WARN
    // healthy/benign_noise: kernel and PyTorch lines that look alarming and are not a hang
    // (application Xids of an earlier job, corrected ECC and AER notices, "can potentially
    // cause a hang" warnings, a script that never calls destroy_process_group()).
    bool benignNoise = false;
    // collective_mismatch/subgroup_skip: the process group of the script's metrics group
    // (a second NCCL group over all ranks); -1 when the job has none.
    int metricsPgId = -1;
    // partial_bundle: ranks whose output the collector never picked up, and whether every
    // rank's output ends in the middle of its last line (a copy cut short by size or time).
    std::vector<int> lostRanks;
    bool cutMidLine = false;
    bool outputLost(int rank) const
    {
        return std::find(lostRanks.begin(), lostRanks.end(), rank) != lostRanks.end();
    }
    bool excerpt = false;
    std::vector<int> excerptRanks;
    bool forcedPyspyOff = false;

    // Timeline results.
    int firstSignalRank = -1; // F: first rank to write exception_dump
    Micros firstSignalAt = -1;
    std::vector<NodeOutcome> nodes;
    Micros collectAt = 0; // bundle collected; logs end here
    Micros pyspyAt = -1;
    bool timeLimit = false; // srun job cancelled due to time limit at collectAt
    Micros stepKilledAt = -1; // srun --kill-on-bad-exit killed the step
    Micros trainingEndAt = -1; // healthy completion
};

// Builds the plan for options.scenario / variant (variant already resolved).
ScenarioPlan planScenario(const Job& job, const std::string& scenario, const std::string& variant);
// Plays the job forward (see header comment).
void simulateTimeline(const Job& job, ScenarioPlan& plan);

} // namespace rankscope::simulator
