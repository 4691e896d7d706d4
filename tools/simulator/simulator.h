#pragma once
// rankscope::simulator — writes the log bundle of a simulated multi-rank PyTorch/NCCL job
// with a KNOWN ANSWER, for golden tests and benchmarks of the diagnosis engine.
//
// A scenario injects one fault (a stalled rank, a crashed rank, an Xid on one GPU, a broken
// IB link between two ranks, ...) into a coherent job: hosts, pids, GPUs, NCCL
// communicators, rings and a training loop of collectives. Every rank's files are then
// written in the dialect of the chosen PyTorch and NCCL versions (jobmodel.h), laid out
// as a real job leaves them (per-rank files, torchrun --log-dir, one srun file, per-node
// tee'd consoles), plus dmesg, py-spy dumps, torchrun failure tables and PyTorch Flight
// Recorder dumps (flight_recorder/nccl_trace_rank_<R>, from the same ground truth) on request.
// expected.json (schema "rankscope.expected/1") states what was injected: the verdict the
// engine should reach, the initiating ranks and the collateral ranks.
//
// Same options (incl. seed) ⇒ byte-identical output: all randomness comes from one seed,
// time starts at a seed-derived local date, nothing iterates an unordered container.
//
// Answer conventions (expected.json "verdict"):
//   - initiating_ranks: the rank(s) the injected fault names; [] when it names none
//     (frozen_job, configuration, even_split, algo_deadlock, shm_node_wide, ifname,
//     excerpt_only, no_evidence_all_entered, missing_rank_file: a rank whose output is not
//     in the bundle is not named for its absence).
//   - collateral_ranks: every other rank that only waited, timed out or was torn down
//     because of the initiator; [] when there is no initiator (nobody is "collateral" to a
//     job-wide cause), except shm_node_wide where the other hosts' ranks waited on the
//     faulty host. configuration: [] (every host hits the same error itself).
//   - stuck_collective: the PG 0 collective the waiting ranks timed out in; null for init
//     hangs (communicator setup never finished) and healthy runs.
//   - world_size: null for excerpt_only (nothing in the paste shows it).
// Some variants force options they cannot be told without; the forced values are what
// expected.json "generator" records (see describeScenarios()).
//
// Usage from a test:
//     rankscope::simulator::ScenarioOptions o;
//     o.scenario = "straggler_stall";
//     o.seed = 7;
//     rankscope::simulator::Bundle files;
//     auto r = rankscope::simulator::generateInMemory(o, files);
//     // files["expected.json"], files["rank3.log"], ...; r.expected.verdict.initiatingRanks

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::simulator {

enum class Layout { PerRank, TorchrunLogdir, SrunCombined, PerNode };
enum class NcclDebug { Off, Warn, Info, Coll };
enum class Noise { Low, Normal, High };
enum class ArchiveKind { None, Tgz, Zip };
enum class FrFormat { Pickle, Json };

struct ScenarioOptions {
    std::string scenario = "healthy";
    std::string variant; // empty: chosen from the seed
    int ranks = 16; // 2 .. 4096
    int ranksPerNode = 8; // 1 .. 16
    std::string torch = "2.4"; // 1.13 2.0 2.2 2.4 2.6 2.7
    std::string nccl = "2.21"; // 2.18 2.21 2.26 2.29
    Layout layout = Layout::PerRank;
    std::uint64_t seed = 1;
    int steps = 0; // training steps; 0: default (40)
    NcclDebug ncclDebug = NcclDebug::Info;
    bool dmesg = false; // per-node kernel logs
    bool pyspy = false; // py-spy dumps taken while the job hung
    bool torchrunSummary = false; // torchrun launcher with ChildFailedError tables
    bool tee = false; // torchrun --tee 3: worker lines also in the agent console
    Noise noise = Noise::Normal;
    ArchiveKind archive = ArchiveKind::None;
    // Flight Recorder dumps (what parsers/flightrecorderparser reads back): every rank that
    // is alive and has a watchdog when the dump is triggered writes nccl_trace_rank_<R>
    // (torch's protocol-2 pickle, or the control plane's JSON). Needs PyTorch >= 2.2.
    bool flightRecorder = false;
    FrFormat frFormat = FrFormat::Pickle;
    std::string frVersion; // "2.3" | "2.4" | "2.5" | "2.7" | "2.10"; "": what --torch writes
    int frBufferSize = 2000; // TORCH_NCCL_TRACE_BUFFER_SIZE: the ring keeps the last K entries
    bool logs = true; // false (--logs none): no text logs, so only the dumps can decide
};

// The answer the diagnosis engine should give (expected.json "verdict").
struct Verdict {
    std::string status = "no_hang_found"; // hang_diagnosed | no_hang_found | inconclusive
    std::string rootCauseClass = "none"; // hardware_fault | network_pair | ... | none
    std::vector<int> initiatingRanks; // sorted
    std::optional<std::pair<int, int>> stuckPair;
    std::vector<int> collateralRanks; // sorted
    struct StuckCollective {
        std::string processGroup; // PG key as the logs print it: "0" = default PG
        std::string op; // WorkNCCL OpType, e.g. "ALLREDUCE"
        std::int64_t seq = 0;
    };
    std::optional<StuckCollective> stuckCollective;
};

struct Expected {
    std::string scenario;
    std::string variant;
    std::uint64_t seed = 0;
    // What was actually generated (a scenario may force a version or debug level; the
    // forced values are recorded here, not the requested ones).
    std::string torch;
    std::string nccl;
    std::string layout;
    std::string ncclDebug;
    int ranks = 0;
    int ranksPerNode = 0;
    std::optional<int> worldSize; // nullopt when the bundle cannot show it
    bool logs = true;
    bool flightRecorder = false;
    std::string frFormat; // "pickle" | "json"
    std::string frVersion;
    int frBufferSize = 0;
    Verdict verdict;
    std::string notes; // one sentence: what was injected
};

struct Result {
    bool ok = false;
    std::string error; // set when !ok (bad options, I/O failure)
    Expected expected;
    std::vector<std::string> files; // relative paths written, sorted
    std::uint64_t bytes = 0; // total bytes of log files (excl. expected.json)
};

// Relative path ('/'-separated) → content. std::map keeps the listing sorted.
using Bundle = std::map<std::string, std::string>;

std::vector<std::string> scenarioNames();
// Variants of a scenario; empty for an unknown scenario.
std::vector<std::string> variantNames(std::string_view scenario);
// Human-readable listing of scenarios, variants and what each forces (for --list).
std::string describeScenarios();

// nullopt when the options are usable, else a one-line reason.
std::optional<std::string> validate(const ScenarioOptions& options);

// Writes the bundle into `outDir` (created if needed) plus outDir/expected.json. With an
// archive, the logs go into outDir/bundle.tgz|bundle.zip and only expected.json sits next
// to it. Files are written with large buffers, one pass each.
Result generate(const ScenarioOptions& options, const std::filesystem::path& outDir);

// Same content, into memory: every log file plus "expected.json" (archives are ignored).
Result generateInMemory(const ScenarioOptions& options, Bundle& files);

// expected.json text for an Expected (stable field order, 2-space indent, trailing newline).
std::string expectedJson(const Expected& expected);

// Option spellings common to the CLI and the tests.
std::optional<Layout> layoutFromName(std::string_view name);
std::string_view layoutName(Layout layout);
std::optional<NcclDebug> ncclDebugFromName(std::string_view name);
std::string_view ncclDebugName(NcclDebug level);
std::optional<Noise> noiseFromName(std::string_view name);
std::optional<ArchiveKind> archiveFromName(std::string_view name);
std::optional<FrFormat> frFormatFromName(std::string_view name);
std::string_view frFormatName(FrFormat format);
// The FR schema version a PyTorch release writes ("2.4" → "2.3", "2.7" → "2.7").
std::string defaultFrVersion(std::string_view torch);
bool knownFrVersion(std::string_view version);

} // namespace rankscope::simulator
