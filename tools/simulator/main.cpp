// rankscope-simulate: command-line front end of rankscope::simulator.
#include "simulator.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

namespace {

using namespace rankscope::simulator;

constexpr const char* kUsage = R"(usage: rankscope-simulate --scenario NAME --out DIR [options]
       rankscope-simulate --list | --help

Writes the log bundle of a simulated hung (or healthy) PyTorch/NCCL job into DIR, plus
DIR/expected.json with the injected fault and the verdict a diagnosis should reach.

options:
  --scenario NAME        scenario (see --list)
  --variant V            variant of the scenario (default: chosen from the seed)
  --out DIR              output directory (created)
  --ranks N              world size, 2..4096 (default 16)
  --ranks-per-node K     ranks per host, 1..16 (default 8)
  --torch V              1.13 | 2.0 | 2.2 | 2.4 | 2.6 | 2.7 (default 2.4)
  --nccl V               2.18 | 2.21 | 2.26 | 2.29 (default 2.21)
  --layout L             per-rank | torchrun-logdir | srun-combined | per-node (default per-rank)
  --seed S               seed; same options + seed give identical bytes (default 1)
  --steps N              training steps (default 40)
  --nccl-debug L         off | warn | info | coll (default info)
  --dmesg                per-host kernel logs
  --pyspy                py-spy dumps taken while the job hung
  --torchrun-summary     launch with torchrun and keep its ChildFailedError tables
  --tee                  torchrun --tee 3 (worker lines also in the agent console)
  --noise L              low | normal | high (default normal)
  --archive A            none | tgz | zip (default none; expected.json stays outside)
  --flight-recorder      every rank that can dump writes flight_recorder/nccl_trace_rank_<R>
                         (PyTorch >= 2.2; timing on, so entries reach "started")
  --fr-format F          pickle | json (default pickle, torch's protocol-2 pickle)
  --fr-version V         2.3 | 2.4 | 2.5 | 2.7 | 2.10 (default: what --torch writes)
  --fr-buffer K          TORCH_NCCL_TRACE_BUFFER_SIZE: entries kept per rank (default 2000)
  --logs L               all | none (none: no text files at all, only the dumps;
                         needs --flight-recorder)
)";

bool parseInt(std::string_view s, long long& out)
{
    auto res = std::from_chars(s.data(), s.data() + s.size(), out);
    return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

int fail(const std::string& msg)
{
    std::cerr << "rankscope-simulate: " << msg << '\n';
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    ScenarioOptions o;
    std::string out;
    bool scenarioGiven = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&](std::string_view& v) {
            if (i + 1 >= argc)
                return false;
            v = argv[++i];
            return true;
        };
        std::string_view v;
        long long n = 0;
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return 0;
        }
        if (a == "--list") {
            std::cout << describeScenarios();
            return 0;
        }
        if (a == "--dmesg") {
            o.dmesg = true;
        } else if (a == "--pyspy") {
            o.pyspy = true;
        } else if (a == "--torchrun-summary") {
            o.torchrunSummary = true;
        } else if (a == "--tee") {
            o.tee = true;
        } else if (a == "--flight-recorder") {
            o.flightRecorder = true;
        } else if (!value(v)) {
            return fail("missing value for " + std::string(a) + " (see --help)");
        } else if (a == "--scenario") {
            o.scenario = v;
            scenarioGiven = true;
        } else if (a == "--variant") {
            o.variant = v;
        } else if (a == "--out") {
            out = v;
        } else if (a == "--ranks" || a == "--ranks-per-node" || a == "--steps" || a == "--seed") {
            if (!parseInt(v, n) || n < 0)
                return fail("bad number for " + std::string(a) + ": " + std::string(v));
            if (a == "--ranks")
                o.ranks = static_cast<int>(std::min<long long>(n, 1 << 20));
            else if (a == "--ranks-per-node")
                o.ranksPerNode = static_cast<int>(std::min<long long>(n, 1 << 20));
            else if (a == "--steps")
                o.steps = static_cast<int>(std::min<long long>(n, 1 << 30));
            else
                o.seed = static_cast<std::uint64_t>(n);
        } else if (a == "--torch") {
            o.torch = v;
        } else if (a == "--nccl") {
            o.nccl = v;
        } else if (a == "--layout") {
            auto l = layoutFromName(v);
            if (!l)
                return fail("unknown --layout " + std::string(v));
            o.layout = *l;
        } else if (a == "--nccl-debug") {
            auto d = ncclDebugFromName(v);
            if (!d)
                return fail("unknown --nccl-debug " + std::string(v));
            o.ncclDebug = *d;
        } else if (a == "--noise") {
            auto z = noiseFromName(v);
            if (!z)
                return fail("unknown --noise " + std::string(v));
            o.noise = *z;
        } else if (a == "--fr-format") {
            auto f = frFormatFromName(v);
            if (!f)
                return fail("unknown --fr-format " + std::string(v));
            o.frFormat = *f;
        } else if (a == "--fr-version") {
            o.frVersion = v;
        } else if (a == "--fr-buffer") {
            if (!parseInt(v, n) || n < 1)
                return fail("bad number for --fr-buffer: " + std::string(v));
            o.frBufferSize = static_cast<int>(std::min<long long>(n, 1 << 30));
        } else if (a == "--logs") {
            if (v != "all" && v != "none")
                return fail("unknown --logs " + std::string(v) + " (all | none)");
            o.logs = v == "all";
        } else if (a == "--archive") {
            auto z = archiveFromName(v);
            if (!z)
                return fail("unknown --archive " + std::string(v));
            o.archive = *z;
        } else {
            return fail("unknown option " + std::string(a) + " (see --help)");
        }
    }
    if (!scenarioGiven || out.empty())
        return fail("--scenario and --out are required (see --help)");
    if (auto err = validate(o))
        return fail(*err);
    const Result r = generate(o, out);
    if (!r.ok)
        return fail(r.error);
    std::cout << "wrote " << r.files.size() << " files (" << r.bytes << " bytes) to " << out << ": "
              << r.expected.scenario << '/' << r.expected.variant << " → "
              << r.expected.verdict.status << ", " << r.expected.verdict.rootCauseClass << '\n';
    return 0;
}
