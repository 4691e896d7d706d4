#pragma once
// The simulated job: who runs where (hosts, IPs, pids, GPUs, NICs, NCCL communicators and
// rings), which software dialect prints the logs (the PyTorch and NCCL version structs
// below), and the training program (the collectives every rank enqueues, step by
// step, with their sequence numbers). Everything is derived from the seed; the scenario
// decides later what goes wrong.

#include "calendar.h"
#include "rng.h"
#include "simulator.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::simulator {

enum class Op : std::uint8_t { Broadcast, AllReduce, AllGatherBase, ReduceScatterBase };

std::string_view torchOpName(Op op); // "ALLREDUCE", "_ALLGATHER_BASE", ...
std::string_view ncclOpName(Op op); // "AllReduce", "AllGather", ...
std::string_view c10dFunction(Op op); // "all_reduce", "_all_gather_base", ...

// PyTorch ProcessGroupNCCL dialect: how each release words its watchdog, status and abort
// lines. The ProcessGroupNCCL.cpp
// line numbers in the envelope follow real pastes of each release.
struct TorchDialect {
    std::string name; // "2.4"
    std::string full; // "2.4.1+cu124"
    int order = 0; // 113, 200, 220, 240, 260, 270: for comparisons
    bool rankPrefix = false; // "[rank3]:" before the envelope (≥2.2)
    bool envelopeTime = false; // "[E1218 20:27:21.426415540 file:line]" (≥2.4)
    int pgStyle = 0; // 0 none, 1 "[PG 0 Rank 3]", 2 "[PG 0 (default_pg) Rank 3]",
                     // 3 "[PG ID 0 PG GUID 0(default_pg) Rank 3]"
    bool numel = false; // WorkNCCL has NumelIn/NumelOut (≥2.1)
    bool dumpSignals = false; // TCPStore dump coordination (≥2.4)
    bool newDumpWording = false; // "Received a dump signal due to a collective timeout" (≥2.5)
    bool failureDetectedLine = false; // ≥2.7 " failure detected by watchdog at work sequence id"
    int heartbeatSec = 0; // heartbeat monitor timeout; 0 = no monitor (≤2.1)
    int defaultTimeoutMs = 600000;
    bool c10dLogger = false; // c10d_logger.py wrapper frame (≥2.1)
    std::string terminateType; // "std::runtime_error" / "c10::DistBackendError"
    std::string loopFrame; // "workCleanupLoop" (≤2.1) / "watchdogHandler"
    int lnCheckTimeout = 0; // (a)
    int lnCheckTimeoutThrow = 0; // "Exception raised from checkTimeout at …:N"
    int lnDetect = 0; // (b) "Exception (either an error or timeout) detected"
    int lnTimeoutAt = 0; // (b) "Timeout at NCCL work"
    int lnStackTrace = 0; // (c) ≥2.7
    int lnTeardown1 = 0; // (d)
    int lnTeardown2 = 0;
    int lnWatchdogExit = 0; // (e) "… watchdog thread terminated with exception"
    int lnWatchdogThrow = 0; // "Exception raised from ncclCommWatchdog at …:N"
    int lnFirstPg = 0;
    int lnObserved = 0;
    int lnDumpSignal = 0;
    int lnPrepareDump = 0;
    int lnHeartbeat = 0;
    int lnHeartbeatFatal = 0;
    int lnAsyncError = 0;
    int lnCheckErrorsThrow = 0; // checkForNCCLErrorsInternal
    int lnInitOptions = 0;
    int lnEnvironments = 0;
    int lnCreatedComm = 0;
    int lnBarrierWarn = 0;
    int lnNotDestroyed = 0;
    int lnStoreError = 0;
    int c10dAllReduceLine = 0; // distributed_c10d.py all_reduce
    int c10dLoggerLine = 0;
    int pythonMinor = 10;
};

// NCCL dialect: the lines each NCCL version prints (its src/ debug and WARN calls).
struct NcclDialect {
    std::string name; // "2.21"
    std::string version; // "2.21.5"
    std::string full; // "2.21.5+cuda12.4"
    int minor = 21;
    bool bannerPerProcess = false; // ≥2.22: INFO "NCCL version" once per process
    bool warnTimestamp = false; // ≥2.26: "[2025-03-01 12:00:05] " before WARN
    int initStyle = 1; // 0: COMPLETE only (≤2.17), 1: START/COMPLETE (2.18–2.21),
                       // 2: "ncclCommInitRank " prefix (2.23+), 3: "[Rank r] " + 2
    // How NCCL words an IB completion error, which changed with its version
    // (net_ib's completion WARN): 0 ≤2.17, 1 2.18–2.19, 2 2.20–2.21, 3 2.22–2.28, 4 2.29+.
    int ibErrorStyle = 2;
    bool connByNvmlDev = true; // "0[0] -> 1[1]" (≥2.19) vs "0[18000] -> 1[2a000]"
    bool mnnvl = true; // "… localRank L MNNVL 0" (≥2.20)
    bool initTimings = false; // "Init timings - ncclCommInitRank: …" (≥2.23)
    bool bootstrapTimings = false; // subsys BOOTSTRAP default (≥2.23)
    std::string ibFile; // "transport/net_ib.cc"
    int ibLine = 0;
    std::string socketFile; // "misc/socket.cc"
    int socketLine = 0;
    bool sizeUnsigned = true;
};

struct Host {
    std::string name; // NCCL short hostname, dmesg, file names
    std::string fqdn; // torchrun table, rendezvous
    std::string ip;
    int index = 0;
    Micros bootAt = 0; // boot time relative to job start (negative)
    std::uint64_t monoNsAtStart = 0; // CLOCK_MONOTONIC at job start (PyTorch ns field)
    int agentPid = 0;
    std::uint64_t agentTid = 0; // torchrun 2.3-style thread id
    Micros agentStart = 0;
};

struct RankInfo {
    int rank = 0;
    int node = 0;
    int local = 0;
    int pid = 0;
    int initTid = 0; // NCCL init / async thread
    int proxyTid = 0; // NCCL proxy progress thread
    int netPort = 0; // OOB/listen port peers print as "<port>"
    std::uint32_t busId = 0; // 0x5d000
    int nic = 0; // NET/IB device index
    std::uint64_t commPtr = 0; // world communicator
    std::uint64_t tpCommPtr = 0; // tensor-parallel communicator
    std::uint64_t streamPtr = 0;
    std::uint64_t bufBase = 0;
    Micros procStart = 0;
};

struct Collective {
    int pg = 0;
    std::int64_t seq = 0; // per-PG sequence number, from 1
    Op op = Op::AllReduce;
    std::uint64_t numelIn = 0;
    std::uint64_t numelOut = 0;
    int dtype = 7; // NCCL datatype enum (7 float32, 9 bfloat16)
    int step = 0; // 0 = setup before training
    Micros offset = 0; // enqueue time relative to the step's start
    bool cpuSync = false; // the CPU blocks on its result right after (.item())
    int bucket = 0;
};

enum class Framework { Plain, Megatron, DeepSpeed };
enum class Launcher { Torchrun, Srun };

struct Job {
    ScenarioOptions options;
    TorchDialect torch;
    NcclDialect nccl;
    Calendar calendar { 0 };
    std::uint64_t seed = 0;

    int world = 0;
    int perNode = 0;
    int nodes = 0;
    std::vector<Host> hosts;
    std::vector<RankInfo> ranks;

    Launcher launcher = Launcher::Torchrun;
    Framework framework = Framework::Plain;
    bool fsdp = false;
    int tpSize = 0; // 0: no second process group
    bool roce = false;
    std::string ifname; // "eth0"
    int nicsPerNode = 8;
    int channels = 2;
    std::uint64_t worldCommId = 0;
    std::uint64_t tpCommIdBase = 0;
    std::string clusterDomain;
    std::string pythonExe;
    std::string pythonVersion;
    std::string sitePackages; // ".../site-packages" (or dist-packages)
    std::string torchrunPath;
    std::string script; // "train.py"
    std::string scriptDir; // "/workspace"
    std::string scriptArgs;
    std::string runId; // rendezvous run id ("none", "1234567")
    std::string logDirTag; // torchelastic_xxxxxxxx
    int slurmJobId = 0;
    int masterPort = 29500;
    bool recordDecorator = true; // entrypoint decorated with @record (error.json)
    bool torchInfoLogs = false; // TORCH_CPP_LOG_LEVEL=INFO
    bool elasticInfoLogs = false; // torchrun LOGLEVEL=INFO (rendezvous block)
    bool flightRecorder = false; // TORCH_NCCL_TRACE_BUFFER_SIZE set
    int frBufferSize = 2000; // TORCH_NCCL_TRACE_BUFFER_SIZE: entries each process keeps
    bool ncclTiming = false; // TORCH_NCCL_ENABLE_TIMING: FR entries reach "started"
    bool tqdmAllRanks = false;
    bool killOnBadExit = false; // srun --kill-on-bad-exit
    int timeoutMs = 600000;
    int heartbeatSec = 0;
    int monitorIntervalMs = 5000; // torchrun agent poll interval
    std::string perRankNameStyle; // "rank{R}.log", ...
    std::string dmesgNameStyle; // "{node}/dmesg.txt" | "dmesg-{node}.log"
    std::vector<std::string> ncclEnv; // "NCCL_IB_TIMEOUT=22" (echoed with INIT,ENV)

    // Training program.
    int steps = 40;
    Micros stepDuration = kSecond;
    Micros setupAt = 0; // first collective (world comm init)
    Micros trainStart = 0;
    std::vector<Micros> stepStart; // index: step (1..steps), [0] = setup
    std::vector<Collective> program; // PG 0, in enqueue order
    std::vector<int> stepFirstOp; // index into program of each step's first op
    std::vector<Collective> tpProgram; // PG 1 (one group's view; all groups alike)

    const Host& hostOf(int rank) const
    {
        return hosts[static_cast<std::size_t>(ranks[static_cast<std::size_t>(rank)].node)];
    }
    const RankInfo& rankInfo(int rank) const { return ranks[static_cast<std::size_t>(rank)]; }
    int firstRankOf(int node) const { return node * perNode; }
    int ranksOn(int node) const;
    // Ring order of channel c (NCCL rings: node-major, alternate channels reverse the
    // intra-node order) and neighbours.
    int ringPrev(int rank, int channel) const;
    int ringNext(int rank, int channel) const;
    std::vector<int> ring(int channel) const;
    // Index of `seq` (PG 0) in program, -1 if absent.
    int opIndex(std::int64_t seq) const;
    // Per-rank enqueue time of program[i] in a healthy step.
    Micros enqueueTime(int rank, int opIdx) const;
    Micros rankJitter(int rank, int step) const;
    // torchrun's per-agent run directory: mkdtemp(prefix="<run_id>_") → "none_k3x9q2ab".
    std::string runDirName(int node) const;
    // Its absolute path as the agent prints it (under --log-dir /logs or a temp dir).
    std::string elasticRunDir(int node) const;
};

TorchDialect torchDialect(std::string_view name);
NcclDialect ncclDialect(std::string_view name);
bool knownTorch(std::string_view name);
bool knownNccl(std::string_view name);

Job buildJob(const ScenarioOptions& options, std::uint64_t seed);

// "0000:5d:00" (Xid) and "0000:5d:00.0" (lspci/mlx5) from an NCCL busId.
std::string pciShort(std::uint32_t busId);
std::string pciFull(std::uint32_t busId);

} // namespace rankscope::simulator
