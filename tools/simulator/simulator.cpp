#include "simulator.h"

#include "bundlewriter.h"
#include "jobmodel.h"
#include "scenarioplan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace rankscope::simulator {

namespace {

struct ScenarioInfo {
    const char* name;
    std::vector<const char*> variants;
    const char* summary;
};

const std::vector<ScenarioInfo>& catalog()
{
    static const std::vector<ScenarioInfo> kCatalog = {
        { "healthy", { "completes", "still_training", "plugin_warn", "benign_noise" },
            "no fault; the job completes (or is still training) → no_hang_found (benign_noise: "
            "application Xids of an earlier job, corrected ECC/AER, \"can potentially cause a "
            "hang\" warnings; forces --dmesg and torch >= 2.4)" },
        { "straggler_stall", { "dataloader", "checkpoint", "sleep", "no_pyspy", "raced_ahead" },
            "one rank stalls in Python and never enqueues collective S → straggler_stall [r]" },
        { "frozen_job", { "cuda_hang", "gil_deadlock" },
            "the NCCL watchdog thread of every process blocks before the first collective (a CUDA "
            "call that never returns, or the GIL held inside one); heartbeat monitor fires (torch "
            "≥2.2 forced), no timeout → inconclusive, no rank" },
        { "rank_crashed",
            { "exception", "cuda_oom", "illegal_memory_access", "host_oom_kill", "segfault",
                "clean_exit" },
            "one rank dies (or exits early); siblings torn down, others time out → rank_crashed "
            "[r]" },
        { "hardware_fault",
            { "xid79", "xid48", "xid_gsp119", "ecc_watchdog_cuda_error", "xid74_nvlink_pair" },
            "Xid on the GPU of one rank (or an NVLink pair) → hardware_fault [r] / pair" },
        { "network_pair",
            { "ib_status12", "ib_error12_old", "socket_closed", "async_error_last_error" },
            "link between two ring neighbours on different hosts fails → network_pair [a, b] "
            "(needs >= 2 hosts; ib_error12_old forces NCCL 2.17; async_error_last_error forces "
            "NCCL_DEBUG off)" },
        { "configuration", { "ib_many_hosts", "socket_ifname", "gid_mismatch" },
            "same transport error on every host at once → configuration, no rank (needs >= 2 "
            "hosts: --ranks-per-node is lowered if needed)" },
        { "collective_mismatch",
            { "op_mismatch", "numel_mismatch", "extra_collective", "even_split", "algo_deadlock",
                "subgroup_skip" },
            "ranks disagree on collective S (or NCCL deadlocks under a forced algo/proto; "
            "algo_deadlock forces --nccl-debug >= info; numel_mismatch on torch < 2.1 forces "
            "--nccl-debug coll; subgroup_skip: one rank waits in a metrics all-reduce on another "
            "process group, forces torch >= 2.2, --nccl-debug <= info, no Flight Recorder) → "
            "collective_mismatch" },
        { "resource_exhaustion", { "nccl_calloc", "cuda_oom_init", "shm_node_wide" },
            "NCCL buffer / shared-memory allocation fails during a communicator's init → "
            "resource_exhaustion" },
        { "init_bootstrap", { "missing_rank", "store_error", "ifname" },
            "no collective ever completes: a rank never reaches init, rank 0 dies before the "
            "unique id, or no socket interface → init_bootstrap" },
        { "silent_rank", { "stops" },
            "one rank's log just stops; everyone else times out → unknown [r]" },
        { "partial_bundle", { "missing_rank_file", "cut_mid_line" },
            "what a bundle loses in collection: one rank's output missing while every rank "
            "entered and timed out (forces --nccl-debug off, no dmesg) → inconclusive; a "
            "straggler whose every own file (per-rank, torchrun-logdir) ends mid-line → "
            "straggler_stall [r] (no Flight Recorder)" },
        { "excerpt_only", { "paste" },
            "a pasted excerpt of 2-3 ranks' timeouts, nothing else (forces NCCL_DEBUG off, no "
            "dmesg/py-spy/tables) → inconclusive" },
        { "no_evidence_all_entered", { "plain" },
            "every rank entered and timed out, NCCL_DEBUG off, nothing else (forces --nccl-debug "
            "off, no dmesg) → inconclusive" },
    };
    return kCatalog;
}

const ScenarioInfo* findScenario(std::string_view name)
{
    for (const ScenarioInfo& s : catalog())
        if (name == s.name)
            return &s;
    return nullptr;
}

struct Resolved {
    ScenarioOptions options;
    std::string variant;
};

Resolved resolve(const ScenarioOptions& in)
{
    Resolved r;
    r.options = in;
    const ScenarioInfo* info = findScenario(in.scenario);
    if (in.variant.empty()) {
        Rng rng = Rng::derived(in.seed, "variant", Rng::hashName(in.scenario));
        r.variant = info->variants[static_cast<std::size_t>(
            rng.uniform(0, static_cast<std::int64_t>(info->variants.size()) - 1))];
    } else {
        r.variant = in.variant;
    }
    ScenarioOptions& o = r.options;
    const std::string& s = in.scenario;
    const std::string& v = r.variant;
    if (s == "frozen_job" && (o.torch == "1.13" || o.torch == "2.0"))
        o.torch = "2.2"; // no heartbeat monitor before 2.2: a frozen job prints nothing
    if (s == "network_pair" && v == "ib_error12_old")
        o.nccl = "2.17";
    if (s == "network_pair" && v == "async_error_last_error")
        o.ncclDebug = NcclDebug::Off;
    if (s == "collective_mismatch" && v == "algo_deadlock"
        && (o.ncclDebug == NcclDebug::Off || o.ncclDebug == NcclDebug::Warn))
        o.ncclDebug = NcclDebug::Info; // the forced NCCL_PROTO/NCCL_ALGO lines are the evidence
    // Before 2.1 WorkNCCL prints no NumelIn/NumelOut: only NCCL's COLL lines can show a size
    // mismatch, so the variant needs them. The same holds when one rank skips a collective and
    // its #S is the next all-reduce of another size: same op name, same SeqNum, and without
    // status lines (≤2.1) not even a higher "last enqueued" tells it apart.
    if (s == "collective_mismatch" && (v == "numel_mismatch" || v == "extra_collective")
        && (o.torch == "1.13" || o.torch == "2.0"))
        o.ncclDebug = NcclDebug::Coll;
    // benign_noise needs the kernel log it puts noise in, and a PyTorch that prints the
    // "process group has NOT been destroyed" warning (≥2.4).
    if (s == "healthy" && v == "benign_noise") {
        o.dmesg = true;
        if (o.torch == "1.13" || o.torch == "2.0" || o.torch == "2.2")
            o.torch = "2.4";
    }
    // subgroup_skip: only the "[PG n Rank r]" prefix (≥2.2) tells which group a timeout is on.
    // The simulator renders COLL lines and Flight Recorder entries for PG 0 and the TP group
    // only, so the metrics group's call would be missing from both: they are turned off
    // rather than shown incomplete.
    if (s == "collective_mismatch" && v == "subgroup_skip") {
        if (o.torch == "1.13" || o.torch == "2.0")
            o.torch = "2.2";
        if (o.ncclDebug == NcclDebug::Coll)
            o.ncclDebug = NcclDebug::Info;
        o.flightRecorder = false;
        o.logs = true;
    }
    // A dump of a rank whose logs were lost would still show it: dumps are another bundle.
    if (s == "partial_bundle") {
        o.flightRecorder = false;
        o.logs = true;
    }
    if (s == "no_evidence_all_entered" || (s == "partial_bundle" && v == "missing_rank_file")) {
        o.ncclDebug = NcclDebug::Off;
        o.dmesg = false;
    }
    if (o.flightRecorder && o.frVersion.empty())
        o.frVersion = defaultFrVersion(o.torch);
    if (s == "excerpt_only") {
        o.ncclDebug = NcclDebug::Off;
        o.dmesg = false;
        o.pyspy = false;
        o.torchrunSummary = false;
    }
    const bool needsTwoNodes
        = s == "network_pair" || (s == "configuration" && v != "socket_ifname");
    if (needsTwoNodes && o.ranksPerNode >= o.ranks)
        o.ranksPerNode = std::max(1, o.ranks / 2);
    if (s == "configuration" && v == "socket_ifname" && o.ranksPerNode >= o.ranks)
        o.ranksPerNode = std::max(1, o.ranks / 2);
    if (s == "hardware_fault" && v == "xid74_nvlink_pair" && o.ranksPerNode < 2)
        o.ranksPerNode = 2;
    return r;
}

// Scenario-specific environment of the job (what the user had set).
void adjustJob(Job& job, const std::string& s, const std::string& v)
{
    auto setEnv = [&job](const std::string& key, const std::string& value) {
        auto& env = job.ncclEnv;
        env.erase(std::remove_if(env.begin(), env.end(),
                      [&](const std::string& e) { return e.rfind(key + "=", 0) == 0; }),
            env.end());
        env.push_back(key + "=" + value);
    };
    Rng rng = Rng::derived(job.seed, "adjust");
    if (s == "configuration" && v == "gid_mismatch") {
        job.roce = true;
        setEnv("NCCL_IB_GID_INDEX", "0");
    }
    if (s == "configuration" && v == "ib_many_hosts")
        setEnv("NCCL_IB_TIMEOUT", "4");
    if (s == "collective_mismatch" && v == "algo_deadlock") {
        const int pick = rng.uniformInt(0, 2);
        if (pick != 1)
            setEnv("NCCL_PROTO", "LL128");
        if (pick != 0)
            setEnv("NCCL_ALGO", pick == 2 ? "Tree" : "NVLS");
    }
    if (s == "no_evidence_all_entered" || s == "excerpt_only"
        || (s == "partial_bundle" && v == "missing_rank_file"))
        job.ncclEnv.clear();
}

std::string ncclDebugEnvName(NcclDebug d)
{
    return std::string(ncclDebugName(d));
}

Expected makeExpected(const ScenarioOptions& effective, const std::string& variant,
    const ScenarioPlan& plan, const Job& job)
{
    Expected e;
    e.scenario = effective.scenario;
    e.variant = variant;
    e.seed = effective.seed;
    e.torch = effective.torch;
    e.nccl = effective.nccl;
    e.layout = std::string(layoutName(effective.layout));
    e.ncclDebug = ncclDebugEnvName(effective.ncclDebug);
    e.ranks = effective.ranks;
    e.ranksPerNode = job.perNode;
    e.worldSize = plan.worldSizeVisible;
    e.logs = effective.logs;
    e.flightRecorder = effective.flightRecorder;
    if (effective.flightRecorder) {
        e.frFormat = std::string(frFormatName(effective.frFormat));
        e.frVersion = effective.frVersion;
        e.frBufferSize = effective.frBufferSize;
    }
    e.verdict = plan.verdict;
    // The stuck collective is part of the answer only when some file names it: a watchdog
    // timeout printed before the process died (every dialect names the work), an async NCCL
    // error of ≥2.2 (its WorkNCCL and status line), or the Flight Recorder dumps. A launcher
    // that kills every rank first (srun --kill-on-bad-exit, torchrun's SIGTERM) leaves none.
    if (e.verdict.stuckCollective && !effective.flightRecorder) {
        bool named = false;
        for (const RankPlan& rp : plan.ranks) {
            const bool timeoutPrinted = rp.timeoutAt >= 0 && rp.timeoutAt <= rp.logEnd;
            const bool asyncPrinted
                = rp.fate == Fate::NetError && job.torch.order > 200 && rp.eventAt >= 0 && rp.eventAt < rp.logEnd;
            named = named || (effective.logs && (timeoutPrinted || asyncPrinted));
        }
        if (!named)
            e.verdict.stuckCollective.reset();
    }
    e.notes = plan.notes;
    return e;
}

struct Prepared {
    Resolved resolved;
    Job job;
    ScenarioPlan plan;
};

Prepared prepare(const ScenarioOptions& options)
{
    Prepared p;
    p.resolved = resolve(options);
    p.job = buildJob(p.resolved.options, p.resolved.options.seed);
    adjustJob(p.job, options.scenario, p.resolved.variant);
    p.plan = planScenario(p.job, options.scenario, p.resolved.variant);
    // Dumps on timeout are what makes every live rank write its trace ([formats 2.1]).
    if (p.resolved.options.flightRecorder)
        p.plan.dumpOnTimeout = true;
    simulateTimeline(p.job, p.plan);
    return p;
}

} // namespace

std::vector<std::string> scenarioNames()
{
    std::vector<std::string> out;
    for (const ScenarioInfo& s : catalog())
        out.emplace_back(s.name);
    return out;
}

std::vector<std::string> variantNames(std::string_view scenario)
{
    std::vector<std::string> out;
    if (const ScenarioInfo* s = findScenario(scenario))
        for (const char* v : s->variants)
            out.emplace_back(v);
    return out;
}

std::string describeScenarios()
{
    std::string out;
    for (const ScenarioInfo& s : catalog()) {
        out += s.name;
        out += "\n    ";
        out += s.summary;
        out += "\n    variants:";
        for (const char* v : s.variants) {
            out += ' ';
            out += v;
        }
        out += '\n';
    }
    return out;
}

std::optional<std::string> validate(const ScenarioOptions& o)
{
    const ScenarioInfo* s = findScenario(o.scenario);
    if (!s)
        return "unknown scenario '" + o.scenario + "' (see --list)";
    if (!o.variant.empty()
        && std::none_of(
            s->variants.begin(), s->variants.end(), [&](const char* v) { return o.variant == v; }))
        return "scenario '" + o.scenario + "' has no variant '" + o.variant + "' (see --list)";
    if (o.ranks < 2 || o.ranks > 4096)
        return "--ranks must be between 2 and 4096";
    if (o.ranksPerNode < 1 || o.ranksPerNode > 16)
        return "--ranks-per-node must be between 1 and 16";
    if (!knownTorch(o.torch))
        return "unsupported --torch '" + o.torch + "' (1.13, 2.0, 2.2, 2.4, 2.6, 2.7)";
    if (!knownNccl(o.nccl))
        return "unsupported --nccl '" + o.nccl + "' (2.18, 2.21, 2.26, 2.29)";
    if (o.steps < 0 || o.steps > 1000000)
        return "--steps must be between 1 and 1000000";
    if (o.flightRecorder && (o.torch == "1.13" || o.torch == "2.0"))
        return "--flight-recorder needs --torch 2.2 or later (no Flight Recorder before)";
    if (!o.frVersion.empty() && !knownFrVersion(o.frVersion))
        return "unsupported --fr-version '" + o.frVersion + "' (2.3, 2.4, 2.5, 2.7, 2.10)";
    if (o.frBufferSize < 1 || o.frBufferSize > 1000000)
        return "--fr-buffer must be between 1 and 1000000";
    if (!o.logs && !o.flightRecorder)
        return "--logs none leaves an empty bundle without --flight-recorder";
    return std::nullopt;
}

std::string expectedJson(const Expected& e)
{
    nlohmann::ordered_json j;
    j["schema"] = "rankscope.expected/1";
    j["scenario"] = e.scenario;
    j["variant"] = e.variant;
    j["seed"] = e.seed;
    j["generator"] = { { "torch", e.torch }, { "nccl", e.nccl }, { "layout", e.layout },
        { "nccl_debug", e.ncclDebug }, { "ranks", e.ranks }, { "ranks_per_node", e.ranksPerNode } };
    // Only when used, so bundles generated without them keep their expected.json bytes.
    if (!e.logs)
        j["generator"]["logs"] = "none";
    if (e.flightRecorder)
        j["generator"]["flight_recorder"] = { { "format", e.frFormat },
            { "version", e.frVersion }, { "buffer_size", e.frBufferSize } };
    if (e.worldSize)
        j["world_size"] = *e.worldSize;
    else
        j["world_size"] = nullptr;
    nlohmann::ordered_json v;
    v["status"] = e.verdict.status;
    v["root_cause_class"] = e.verdict.rootCauseClass;
    v["initiating_ranks"] = e.verdict.initiatingRanks;
    if (e.verdict.stuckPair)
        v["stuck_pair"] = { e.verdict.stuckPair->first, e.verdict.stuckPair->second };
    else
        v["stuck_pair"] = nullptr;
    v["collateral_ranks"] = e.verdict.collateralRanks;
    if (e.verdict.stuckCollective) {
        nlohmann::ordered_json sc;
        sc["process_group"] = e.verdict.stuckCollective->processGroup;
        sc["op"] = e.verdict.stuckCollective->op;
        sc["seq"] = e.verdict.stuckCollective->seq;
        v["stuck_collective"] = sc;
    } else {
        v["stuck_collective"] = nullptr;
    }
    j["verdict"] = v;
    j["notes"] = e.notes;
    // nlohmann prints one number per line; rank lists of thousands read better inline.
    std::string text = j.dump(2);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '[') {
            std::size_t k = i + 1;
            bool numeric = true;
            while (k < text.size() && text[k] != ']') {
                const char c = text[k];
                if (!(c == ' ' || c == '\n' || c == ',' || c == '-' || (c >= '0' && c <= '9')))
                    numeric = false;
                ++k;
            }
            if (numeric && k < text.size()) {
                out += '[';
                bool first = true;
                std::size_t p = i + 1;
                while (p < k) {
                    while (p < k && (text[p] == ' ' || text[p] == '\n' || text[p] == ','))
                        ++p;
                    const std::size_t b = p;
                    while (p < k && text[p] != ',' && text[p] != '\n' && text[p] != ' ')
                        ++p;
                    if (p > b) {
                        if (!first)
                            out += ", ";
                        out.append(text, b, p - b);
                        first = false;
                    }
                }
                out += ']';
                i = k;
                continue;
            }
        }
        out += text[i];
    }
    return out + "\n";
}

Result generate(const ScenarioOptions& options, const std::filesystem::path& outDir)
{
    Result result;
    if (auto err = validate(options)) {
        result.error = *err;
        return result;
    }
    try {
        std::error_code ec;
        std::filesystem::create_directories(outDir, ec);
        if (ec) {
            result.error = "cannot create " + outDir.string() + ": " + ec.message();
            return result;
        }
        Prepared p = prepare(options);
        result.expected = makeExpected(p.resolved.options, p.resolved.variant, p.plan, p.job);
        if (options.archive == ArchiveKind::None) {
            auto sink = makeFileSink(outDir);
            writeBundle(p.job, p.plan, *sink);
            if (!sink->ok()) {
                result.error = sink->error();
                return result;
            }
            result.files = sink->files();
            result.bytes = sink->bytes();
        } else {
            Bundle files;
            auto sink = makeMemorySink(files);
            writeBundle(p.job, p.plan, *sink);
            result.bytes = sink->bytes();
            const bool zip = options.archive == ArchiveKind::Zip;
            const std::string name = zip ? "bundle.zip" : "bundle.tgz";
            const std::string top = "job-" + std::to_string(p.job.slurmJobId);
            const std::string err = writeArchive(
                files, outDir / name, zip, top, p.job.calendar.epochSeconds(p.plan.collectAt));
            if (!err.empty()) {
                result.error = err;
                return result;
            }
            result.files.push_back(name);
        }
        std::ofstream ej(outDir / "expected.json", std::ios::binary | std::ios::trunc);
        ej << expectedJson(result.expected);
        if (!ej) {
            result.error = "cannot write " + (outDir / "expected.json").string();
            return result;
        }
        result.files.push_back("expected.json");
        std::sort(result.files.begin(), result.files.end());
        result.ok = true;
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

Result generateInMemory(const ScenarioOptions& options, Bundle& files)
{
    Result result;
    if (auto err = validate(options)) {
        result.error = *err;
        return result;
    }
    try {
        Prepared p = prepare(options);
        result.expected = makeExpected(p.resolved.options, p.resolved.variant, p.plan, p.job);
        auto sink = makeMemorySink(files);
        writeBundle(p.job, p.plan, *sink);
        result.bytes = sink->bytes();
        files["expected.json"] = expectedJson(result.expected);
        for (const auto& [path, content] : files)
            result.files.push_back(path);
        result.ok = true;
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

std::optional<Layout> layoutFromName(std::string_view n)
{
    if (n == "per-rank")
        return Layout::PerRank;
    if (n == "torchrun-logdir")
        return Layout::TorchrunLogdir;
    if (n == "srun-combined")
        return Layout::SrunCombined;
    if (n == "per-node")
        return Layout::PerNode;
    return std::nullopt;
}

std::string_view layoutName(Layout l)
{
    switch (l) {
    case Layout::PerRank:
        return "per-rank";
    case Layout::TorchrunLogdir:
        return "torchrun-logdir";
    case Layout::SrunCombined:
        return "srun-combined";
    case Layout::PerNode:
        return "per-node";
    }
    return "per-rank";
}

std::optional<NcclDebug> ncclDebugFromName(std::string_view n)
{
    if (n == "off")
        return NcclDebug::Off;
    if (n == "warn")
        return NcclDebug::Warn;
    if (n == "info")
        return NcclDebug::Info;
    if (n == "coll")
        return NcclDebug::Coll;
    return std::nullopt;
}

std::string_view ncclDebugName(NcclDebug d)
{
    switch (d) {
    case NcclDebug::Off:
        return "off";
    case NcclDebug::Warn:
        return "warn";
    case NcclDebug::Info:
        return "info";
    case NcclDebug::Coll:
        return "coll";
    }
    return "info";
}

std::optional<Noise> noiseFromName(std::string_view n)
{
    if (n == "low")
        return Noise::Low;
    if (n == "normal")
        return Noise::Normal;
    if (n == "high")
        return Noise::High;
    return std::nullopt;
}

std::optional<FrFormat> frFormatFromName(std::string_view n)
{
    if (n == "pickle")
        return FrFormat::Pickle;
    if (n == "json")
        return FrFormat::Json;
    return std::nullopt;
}

std::string_view frFormatName(FrFormat f)
{
    return f == FrFormat::Json ? "json" : "pickle";
}

// FR's own version constant moved with PyTorch releases (pt:FlightRecorder.hpp
// version_val): "2.3" up to 2.4, "2.5" in 2.6, "2.7" in 2.7; "2.4" and "2.10" on request.
std::string defaultFrVersion(std::string_view torch)
{
    if (torch == "2.7")
        return "2.7";
    if (torch == "2.6")
        return "2.5";
    return "2.3";
}

bool knownFrVersion(std::string_view v)
{
    return v == "2.3" || v == "2.4" || v == "2.5" || v == "2.7" || v == "2.10";
}

std::optional<ArchiveKind> archiveFromName(std::string_view n)
{
    if (n == "none")
        return ArchiveKind::None;
    if (n == "tgz")
        return ArchiveKind::Tgz;
    if (n == "zip")
        return ArchiveKind::Zip;
    return std::nullopt;
}

} // namespace rankscope::simulator
