// bench/accuracy: how often the diagnosis is right. Real logs first: every case folder
// holding a truth.json under each --corpus DIR (default tests/data/real; add any other real
// corpus) is loaded from its log files alone and judged against the thread's answer
// (tools/evaluation/truthcheck.h), with false claims counted apart. Then a fresh suite of
// simulated hung jobs (every scenario and variant across PyTorch and NCCL dialects, launcher
// layouts and sizes; seeds disjoint from the golden tests), and the real cases' expected.json
// answers, with initiating-rank, class and pair accuracy, collateral precision/recall.
//
//   rankscope_bench_accuracy [--corpus DIR]... [--real-only] [--bundles N] [--seed S]
//                            [--filter SCENARIO] [--real DIR] [--failures]

#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"
#include "tools/evaluation/caselogs.h"
#include "tools/evaluation/truthcheck.h"
#include "tools/evaluation/verdictcheck.h"
#include "tools/simulator/simulator.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace rankscope;

namespace {

struct Tally {
    std::size_t cases = 0, statusOk = 0, classOk = 0, initiatingOk = 0, pairCases = 0, pairOk = 0;
    std::size_t expectedNone = 0, falseClaims = 0, healthy = 0, healthyFalseClaims = 0;
    std::size_t collTp = 0, collPred = 0, collExp = 0, allOk = 0, stuckOk = 0;

    void add(const evaluation::VerdictScore& s, const evaluation::ExpectedVerdict& x)
    {
        ++cases;
        statusOk += s.statusOk;
        classOk += s.classOk;
        initiatingOk += s.initiatingOk;
        allOk += s.allOk();
        stuckOk += s.stuckCollectiveOk;
        if (s.pairExpected) {
            ++pairCases;
            pairOk += s.pairOk;
        }
        if (x.initiating.empty()) {
            ++expectedNone;
            falseClaims += s.falseClaim;
        }
        if (x.rootCause == "none") {
            ++healthy;
            healthyFalseClaims += s.falseClaim;
        }
        collTp += s.collateralTruePositives;
        collPred += s.collateralPredicted;
        collExp += s.collateralExpected;
    }
};

std::string pct(std::size_t a, std::size_t b)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%6.1f%% (%zu/%zu)", b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 100.0, a, b);
    return buf;
}

void print(const std::string& title, const Tally& t)
{
    std::cout << "\n" << title << ": " << t.cases << " bundles\n";
    std::cout << "  initiating rank(s) exact (top-1) " << pct(t.initiatingOk, t.cases) << "\n";
    std::cout << "  root-cause class                 " << pct(t.classOk, t.cases) << "\n";
    std::cout << "  status                           " << pct(t.statusOk, t.cases) << "\n";
    std::cout << "  stuck pair                       " << pct(t.pairOk, t.pairCases) << "\n";
    std::cout << "  collateral precision             " << pct(t.collTp, t.collPred) << "\n";
    std::cout << "  collateral recall                " << pct(t.collTp, t.collExp) << "\n";
    std::cout << "  false claims (truth names none)  " << t.falseClaims << " of " << t.expectedNone
              << " (healthy runs: " << t.healthyFalseClaims << " of " << t.healthy << ")\n";
    std::cout << "  stuck collective                 " << pct(t.stuckOk, t.cases) << "\n";
    std::cout << "  fully right (status, class, ranks, pair) " << pct(t.allOk, t.cases) << "\n";
}

struct Outcome {
    evaluation::VerdictScore score;
    std::string error;
};

Outcome runCase(const std::vector<std::string>& paths, const evaluation::ExpectedVerdict& expected)
{
    Outcome o;
    app::LoadRequest request;
    request.paths = paths;
    request.threads = 2;
    auto bundle = app::loadBundle(request);
    if (!bundle) {
        // Nothing recognisable: the tool declines (CLI exit status 2).
        o.error = bundle.error().message;
        o.score = evaluation::scoreDiagnosis(expected,
            { { "verdict", { { "status", "inconclusive" }, { "root_cause_class", "unknown" },
                               { "initiating_ranks", nlohmann::json::array() }, { "stuck_pair", nullptr } } } });
        return o;
    }
    auto diagnosis = app::diagnoseBundle(*bundle.value());
    if (!diagnosis) {
        o.error = diagnosis.error().message;
        return o;
    }
    o.score = evaluation::scoreDiagnosis(expected, app::diagnosisJson(*bundle.value(), diagnosis.value()));
    return o;
}

// Case folders holding a truth.json, anywhere under root, sorted.
std::vector<fs::path> truthCases(const fs::path& root)
{
    std::vector<fs::path> cases;
    if (!fs::is_directory(root))
        return cases;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file() && entry.path().filename() == "truth.json")
            cases.push_back(entry.path().parent_path());
    std::sort(cases.begin(), cases.end());
    return cases;
}

// Scores one real corpus against its truth.json files; prints a line per case with --failures
// (misses only otherwise) and the summary. Returns the number of false claims.
std::size_t scoreRealCorpus(const fs::path& root, bool showAll)
{
    std::size_t n = 0, right = 0, rankCases = 0, rankOk = 0, classCases = 0, classOk = 0, falseClaims = 0, failures = 0;
    std::map<std::string, std::pair<std::size_t, std::size_t>> perClass;
    std::vector<std::string> lines;
    for (const fs::path& dir : truthCases(root)) {
        std::ifstream in(dir / "truth.json");
        const auto truth = evaluation::parseTruth(nlohmann::json::parse(in, nullptr, false));
        if (!truth)
            continue;
        ++n;
        app::LoadRequest request;
        request.paths = evaluation::caseLogFiles(dir);
        request.threads = 2;
        evaluation::TruthScore score;
        auto bundle = app::loadBundle(request);
        auto diagnosis = bundle ? app::diagnoseBundle(*bundle.value()) : model::Result<model::Diagnosis>(bundle.error());
        if (!bundle || !diagnosis) {
            ++failures;
            score.got = "no verdict: " + (bundle ? diagnosis.error().message : bundle.error().message);
        } else {
            score = evaluation::judgeAgainstTruth(*truth, app::diagnosisJson(*bundle.value(), diagnosis.value()));
        }
        right += score.right;
        falseClaims += score.falseClaim;
        if (truth->initiating && !truth->initiating->empty()) {
            ++rankCases;
            rankOk += score.rankOk;
        }
        if (truth->rootCause != "unknown") {
            ++classCases;
            classOk += score.classOk;
        }
        auto& c = perClass[truth->rootCause];
        c.first += score.right;
        ++c.second;
        if (showAll || !score.right)
            lines.push_back(std::string(score.right ? "  ok   " : "  MISS ") + fs::relative(dir, root).string() + " truth="
                + truth->rootCause + " got=" + score.got + (score.falseClaim ? " FALSE-CLAIM" : ""));
    }
    std::cout << "\nReal corpus " << root.string() << ": " << n << " cases\n";
    for (const auto& l : lines)
        std::cout << l << "\n";
    std::cout << "  per class (right/total):";
    for (const auto& [cls, c] : perClass)
        std::cout << " " << cls << "=" << c.first << "/" << c.second;
    std::cout << "\n  right " << pct(right, n) << "; top-1 rank " << pct(rankOk, rankCases) << "; class "
              << pct(classOk, classCases) << "; false claims " << falseClaims << "; no verdict " << failures << "\n";
    return falseClaims;
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t bundlesPerVariant = 5;
    std::uint64_t seedBase = 1000; // golden tests use seeds < 1000
    std::string filter;
    std::string realDir = RANKSCOPE_REAL_CASES;
    bool showFailures = false;
    bool realOnly = false;
    std::vector<std::string> corpora;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--corpus" && i + 1 < argc) {
            corpora.push_back(argv[++i]);
            continue;
        }
        if (a == "--real-only") {
            realOnly = true;
            continue;
        }
        if (a == "--bundles" && i + 1 < argc)
            bundlesPerVariant = std::stoul(argv[++i]);
        else if (a == "--seed" && i + 1 < argc)
            seedBase = std::stoull(argv[++i]);
        else if (a == "--filter" && i + 1 < argc)
            filter = argv[++i];
        else if (a == "--real" && i + 1 < argc)
            realDir = argv[++i];
        else if (a == "--failures")
            showFailures = true;
        else {
            std::cerr << "usage: rankscope_bench_accuracy [--corpus DIR]... [--real-only] [--bundles N] [--seed S] "
                         "[--filter SCENARIO] [--real DIR] [--failures]\n";
            return 2;
        }
    }
    const auto started = std::chrono::steady_clock::now();
    // Real logs first: they are the benchmark that matters.
    if (corpora.empty())
        corpora.push_back(realDir);
    std::cout << "Rankscope diagnosis accuracy on real logs\n";
    for (const auto& corpus : corpora)
        scoreRealCorpus(corpus, showFailures);
    if (realOnly)
        return 0;
    const fs::path scratch = fs::temp_directory_path() / "rankscope-accuracy";
    static const char* kTorch[] = { "2.4", "2.2", "2.6", "2.7", "2.0", "1.13" };
    static const char* kNccl[] = { "2.21", "2.18", "2.26", "2.29" };
    static const simulator::Layout kLayouts[] = { simulator::Layout::PerRank, simulator::Layout::TorchrunLogdir,
        simulator::Layout::SrunCombined, simulator::Layout::PerNode };
    static const int kRanks[] = { 16, 8, 32, 64, 4, 128, 24, 256 };

    Tally simTotal;
    std::map<std::string, Tally> byScenario;
    std::vector<std::string> failures;
    std::size_t n = 0;
    for (const std::string& scenario : simulator::scenarioNames()) {
        if (!filter.empty() && scenario != filter)
            continue;
        std::vector<std::string> variants = simulator::variantNames(scenario);
        if (variants.empty())
            variants.push_back({});
        for (const std::string& variant : variants) {
            for (std::size_t k = 0; k < bundlesPerVariant; ++k, ++n) {
                simulator::ScenarioOptions o;
                o.scenario = scenario;
                o.variant = variant;
                o.seed = seedBase + n;
                o.torch = kTorch[(n + k) % std::size(kTorch)];
                o.nccl = kNccl[(n / 2 + k) % std::size(kNccl)];
                o.layout = kLayouts[(n + 3 * k) % std::size(kLayouts)];
                o.ranks = kRanks[(n * 7 + k) % std::size(kRanks)];
                o.ranksPerNode = (n % 3 == 0) ? 4 : 8;
                o.dmesg = (n % 2) == 0 || scenario == "hardware_fault";
                o.pyspy = (n % 3) == 1;
                o.torchrunSummary = (n % 2) == 1;
                o.tee = (n % 5) == 2;
                o.ncclDebug = (n % 4 == 3) ? simulator::NcclDebug::Coll : simulator::NcclDebug::Info;
                if (simulator::validate(o))
                    o.ranksPerNode = 8;
                if (auto why = simulator::validate(o)) {
                    std::cerr << "skipping " << scenario << "/" << variant << ": " << *why << "\n";
                    continue;
                }
                const fs::path dir = scratch / ("case-" + std::to_string(n));
                fs::remove_all(dir);
                const auto generated = simulator::generate(o, dir);
                if (!generated.ok) {
                    std::cerr << "generation failed: " << generated.error << "\n";
                    continue;
                }
                std::vector<std::string> paths;
                for (const auto& f : generated.files)
                    if (f != "expected.json")
                        paths.push_back((dir / f).string());
                std::ifstream in(dir / "expected.json");
                const auto expectedJson = nlohmann::json::parse(in, nullptr, false);
                const std::string name = scenario + "/" + generated.expected.variant + " torch " + generated.expected.torch
                    + " nccl " + generated.expected.nccl + " " + generated.expected.layout + " " + std::to_string(o.ranks)
                    + " ranks seed " + std::to_string(o.seed);
                auto expected = evaluation::parseExpected(expectedJson, name);
                if (!expected)
                    continue;
                const Outcome out = runCase(paths, *expected);
                simTotal.add(out.score, *expected);
                byScenario[scenario].add(out.score, *expected);
                if (!out.score.allOk()) {
                    std::string line = name + ":";
                    for (const auto& p : out.score.problems)
                        line += " " + p + ";";
                    // The command that regenerates this bundle, to debug it.
                    line += "\n      rankscope-simulate --scenario " + scenario + " --variant " + generated.expected.variant
                        + " --torch " + o.torch + " --nccl " + o.nccl + " --layout " + std::string(simulator::layoutName(o.layout))
                        + " --ranks " + std::to_string(o.ranks) + " --ranks-per-node " + std::to_string(o.ranksPerNode)
                        + " --seed " + std::to_string(o.seed) + " --nccl-debug " + std::string(simulator::ncclDebugName(o.ncclDebug))
                        + (o.dmesg ? " --dmesg" : "") + (o.pyspy ? " --pyspy" : "") + (o.torchrunSummary ? " --torchrun-summary" : "")
                        + (o.tee ? " --tee" : "") + " --out /tmp/case";
                    failures.push_back(line);
                }
                fs::remove_all(dir);
            }
        }
    }

    Tally realTotal;
    std::vector<std::string> realFailures;
    if (!realDir.empty() && fs::is_directory(realDir)) {
        std::vector<fs::path> cases;
        for (const auto& entry : fs::directory_iterator(realDir))
            if (entry.is_directory() && fs::exists(entry.path() / "expected.json"))
                cases.push_back(entry.path());
        std::sort(cases.begin(), cases.end());
        for (const auto& dir : cases) {
            std::ifstream in(dir / "expected.json");
            auto expected = evaluation::parseExpected(nlohmann::json::parse(in, nullptr, false), dir.filename().string());
            if (!expected)
                continue;
            const Outcome out = runCase(evaluation::caseLogFiles(dir), *expected);
            realTotal.add(out.score, *expected);
            if (!out.score.allOk()) {
                std::string line = dir.filename().string() + ":";
                for (const auto& p : out.score.problems)
                    line += " " + p + ";";
                realFailures.push_back(line);
            }
        }
    }

    std::cout << "Rankscope diagnosis accuracy\n";
    for (const auto& [scenario, t] : byScenario)
        std::cout << "  " << scenario << ": class " << pct(t.classOk, t.cases) << ", initiating " << pct(t.initiatingOk, t.cases) << "\n";
    print("Generated suite (seeds from " + std::to_string(seedBase) + ")", simTotal);
    if (realTotal.cases)
        print("Real cases (" + realDir + ")", realTotal);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("\n%.1f s in total\n", seconds);
    if (showFailures || failures.size() + realFailures.size() <= 40) {
        if (!failures.empty())
            std::cout << "\nGenerated cases not fully right:\n";
        for (const auto& f : failures)
            std::cout << "  " << f << "\n";
        if (!realFailures.empty())
            std::cout << "\nReal cases not fully right:\n";
        for (const auto& f : realFailures)
            std::cout << "  " << f << "\n";
    } else {
        std::cout << "\n" << failures.size() << " generated and " << realFailures.size()
                  << " real cases not fully right (--failures lists them)\n";
    }
    return 0;
}
