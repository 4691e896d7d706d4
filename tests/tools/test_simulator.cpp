// Tests of rankscope-simulate (rankscope::simulator): determinism, well-formed answers for
// every scenario, rank identity in every layout, and the cross-source facts the diagnosis
// engine relies on (Xid PCI ↔ NCCL busId, IB peer IP ↔ peer host, ring neighbours,
// torchrun root-cause decoys, PyTorch dialect fingerprints).
#include "simulator.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace rankscope::simulator;

namespace {

ScenarioOptions small(const std::string& scenario, const std::string& variant = {})
{
    ScenarioOptions o;
    o.scenario = scenario;
    o.variant = variant;
    o.ranks = 16;
    o.ranksPerNode = 8;
    o.steps = 12;
    o.seed = 7;
    return o;
}

Bundle run(const ScenarioOptions& o, Result* out = nullptr)
{
    Bundle files;
    const Result r = generateInMemory(o, files);
    INFO(r.error);
    REQUIRE(r.ok);
    if (out)
        *out = r;
    return files;
}

nlohmann::json expectedOf(const Bundle& b)
{
    return nlohmann::json::parse(b.at("expected.json"));
}

std::vector<int> ints(const nlohmann::json& j)
{
    return j.get<std::vector<int>>();
}

// Every file whose text mentions `needle`.
std::vector<std::string> filesWith(const Bundle& b, const std::string& needle)
{
    std::vector<std::string> out;
    for (const auto& [path, text] : b)
        if (text.find(needle) != std::string::npos)
            out.push_back(path);
    return out;
}

// The per-rank file of `rank` in the per-rank layout (any of its naming styles).
std::string rankFile(const Bundle& b, int rank)
{
    static const std::regex kName(R"(^(?:rank|rank_|rank-|train-)0*(\d+)\.(?:log|txt|out)$)");
    for (const auto& [path, text] : b) {
        std::smatch m;
        if (std::regex_match(path, m, kName) && std::stoi(m[1]) == rank)
            return path;
    }
    return {};
}

std::string lineContaining(const std::string& text, const std::string& needle)
{
    const auto pos = text.find(needle);
    if (pos == std::string::npos)
        return {};
    const auto start = text.rfind('\n', pos);
    const auto end = text.find('\n', pos);
    return text.substr(start == std::string::npos ? 0 : start + 1,
        end - (start == std::string::npos ? 0 : start + 1));
}

} // namespace

TEST_CASE("same options and seed produce byte-identical bundles", "[simulator]")
{
    for (const char* scenario : { "straggler_stall", "network_pair", "rank_crashed" }) {
        ScenarioOptions o = small(scenario);
        o.layout = Layout::SrunCombined;
        o.dmesg = true;
        o.pyspy = true;
        const Bundle a = run(o);
        const Bundle b = run(o);
        REQUIRE(a.size() == b.size());
        CHECK(a == b);
        o.seed = 8;
        const Bundle c = run(o);
        CHECK(c != a);
    }
}

TEST_CASE("every scenario and variant writes a consistent expected.json", "[simulator]")
{
    const std::set<std::string> statuses { "hang_diagnosed", "no_hang_found", "inconclusive" };
    const std::set<std::string> classes { "hardware_fault", "network_pair", "collective_mismatch",
        "resource_exhaustion", "rank_crashed", "straggler_stall", "init_bootstrap", "configuration",
        "unknown", "none" };
    for (const std::string& s : scenarioNames()) {
        const auto variants = variantNames(s);
        REQUIRE_FALSE(variants.empty());
        for (const std::string& v : variants) {
            INFO(s << "/" << v);
            const Bundle b = run(small(s, v));
            REQUIRE(b.count("expected.json") == 1);
            REQUIRE(b.size() > 1);
            const auto j = expectedOf(b);
            CHECK(j["schema"] == "rankscope.expected/1");
            CHECK(j["scenario"] == s);
            CHECK(j["variant"] == v);
            CHECK(j["seed"] == 7);
            CHECK(j["generator"]["ranks"] == 16);
            const auto& vd = j["verdict"];
            CHECK(statuses.count(vd["status"].get<std::string>()) == 1);
            CHECK(classes.count(vd["root_cause_class"].get<std::string>()) == 1);
            const auto init = ints(vd["initiating_ranks"]);
            const auto coll = ints(vd["collateral_ranks"]);
            CHECK(std::is_sorted(init.begin(), init.end()));
            CHECK(std::is_sorted(coll.begin(), coll.end()));
            std::set<int> seen;
            for (int r : init) {
                CHECK(r >= 0);
                CHECK(r < 16);
                CHECK(seen.insert(r).second);
            }
            for (int r : coll) {
                CHECK(r >= 0);
                CHECK(r < 16);
                CHECK(seen.insert(r).second); // disjoint from initiating, no duplicates
            }
            if (!vd["stuck_pair"].is_null()) {
                const auto pair = ints(vd["stuck_pair"]);
                REQUIRE(pair.size() == 2);
                CHECK(pair[0] < pair[1]);
                for (int r : pair)
                    CHECK(std::find(init.begin(), init.end(), r) != init.end());
            }
            if (!vd["stuck_collective"].is_null()) {
                CHECK(vd["stuck_collective"]["process_group"] == "0");
                CHECK(vd["stuck_collective"]["seq"].get<int>() >= 1);
            }
            if (s == "healthy") {
                CHECK(vd["status"] == "no_hang_found");
                CHECK(init.empty());
                CHECK(coll.empty());
                CHECK(vd["stuck_collective"].is_null());
            }
            CHECK_FALSE(j["notes"].get<std::string>().empty());
        }
    }
}

TEST_CASE("every rank is identifiable in every layout", "[simulator]")
{
    for (Layout layout :
        { Layout::PerRank, Layout::TorchrunLogdir, Layout::SrunCombined, Layout::PerNode }) {
        INFO(layoutName(layout));
        ScenarioOptions o = small("straggler_stall", "dataloader");
        o.layout = layout;
        o.ranks = 12;
        o.ranksPerNode = 4;
        const Bundle b = run(o);
        switch (layout) {
        case Layout::PerRank:
            for (int r = 0; r < 12; ++r)
                CHECK_FALSE(rankFile(b, r).empty());
            break;
        case Layout::TorchrunLogdir: {
            static const std::regex kPath(
                R"(^([^/]+)/[^/]+_[a-z0-9_]{8}/attempt_0/(\d+)/stderr\.log$)");
            std::set<std::pair<std::string, int>> found;
            for (const auto& [path, text] : b) {
                std::smatch m;
                if (std::regex_match(path, m, kPath))
                    found.insert({ m[1], std::stoi(m[2]) });
            }
            CHECK(found.size() == 12);
            std::set<std::string> hosts;
            for (const auto& f : found)
                hosts.insert(f.first);
            CHECK(hosts.size() == 3);
            for (const std::string& h : hosts)
                CHECK(b.count(h + "/agent.log") == 1);
            break;
        }
        case Layout::SrunCombined: {
            const auto files = filesWith(b, "WorkNCCL");
            REQUIRE(files.size() == 1);
            const std::string& text = b.at(files[0]);
            for (int r = 0; r < 12; ++r) {
                const std::string label = (r < 10 ? "0" : "") + std::to_string(r) + ": ";
                CHECK(text.find("\n" + label) != std::string::npos);
            }
            break;
        }
        case Layout::PerNode: {
            int nodeFiles = 0;
            for (const auto& [path, text] : b) {
                if (path.find('/') != std::string::npos || path.find(".log") == std::string::npos
                    || path.rfind("dmesg", 0) == 0)
                    continue;
                ++nodeFiles;
                for (int l = 0; l < 4; ++l)
                    CHECK(text.find("[default" + std::to_string(l) + "]:") != std::string::npos);
            }
            CHECK(nodeFiles == 3);
            break;
        }
        }
    }
}

TEST_CASE("the straggler prints no watchdog timeout while its peers do", "[simulator]")
{
    for (const std::string& v : variantNames("straggler_stall")) {
        for (const char* torch : { "2.0", "2.4", "2.7" }) {
            INFO(v << " torch " << torch);
            ScenarioOptions o = small("straggler_stall", v);
            o.torch = torch;
            const Bundle b = run(o);
            const auto j = expectedOf(b);
            const int r = ints(j["verdict"]["initiating_ranks"]).at(0);
            const std::string mine = b.at(rankFile(b, r));
            CHECK(mine.find("Watchdog caught collective operation timeout") == std::string::npos);
            int peersWithTimeout = 0;
            for (int c : ints(j["verdict"]["collateral_ranks"]))
                if (b.at(rankFile(b, c)).find("Watchdog caught collective operation timeout")
                    != std::string::npos)
                    ++peersWithTimeout;
            CHECK(peersWithTimeout >= 8);
            // The timed-out collective is the one expected.json names.
            const std::string seq = "SeqNum="
                + std::to_string(j["verdict"]["stuck_collective"]["seq"].get<int>()) + ",";
            CHECK(filesWith(b, seq).size() >= 8);
        }
    }
}

TEST_CASE("the Xid PCI address is the busId in the faulty rank's NCCL init line", "[simulator]")
{
    for (const std::string& v : variantNames("hardware_fault")) {
        INFO(v);
        ScenarioOptions o = small("hardware_fault", v);
        o.dmesg = true;
        const Bundle b = run(o);
        const auto j = expectedOf(b);
        const auto culprits = ints(j["verdict"]["initiating_ranks"]);
        REQUIRE_FALSE(culprits.empty());
        std::string dmesg;
        for (const auto& [path, text] : b)
            if (path.find("dmesg") != std::string::npos)
                dmesg += text;
        static const std::regex kXid(
            R"(NVRM: Xid \(PCI:0000:([0-9a-f]{2}):00\): (\d+), pid=(\d+))");
        std::set<std::string> xidBuses;
        for (auto it = std::sregex_iterator(dmesg.begin(), dmesg.end(), kXid);
             it != std::sregex_iterator(); ++it)
            if ((*it)[2] != "63")
                xidBuses.insert((*it)[1]);
        REQUIRE(xidBuses.size() == culprits.size());
        for (int r : culprits) {
            const std::string text = b.at(rankFile(b, r));
            const std::string init = lineContaining(text, "nranks 16 cudaDev");
            REQUIRE_FALSE(init.empty());
            static const std::regex kBus(R"(busId ([0-9a-f]+))");
            std::smatch m;
            REQUIRE(std::regex_search(init, m, kBus));
            const std::string bus = m[1];
            REQUIRE(bus.size() >= 4);
            CHECK(
                xidBuses.count(bus.substr(0, bus.size() - 3).insert(0, bus.size() == 4 ? "0" : ""))
                == 1);
        }
    }
}

TEST_CASE("network pair: the IB peer is the other rank's host IP and they are ring neighbours",
    "[simulator]")
{
    for (const char* nccl : { "2.18", "2.21", "2.26", "2.29" }) {
        INFO("nccl " << nccl);
        ScenarioOptions o = small("network_pair", "ib_status12");
        o.nccl = nccl;
        const Bundle b = run(o);
        const auto j = expectedOf(b);
        const auto pair = ints(j["verdict"]["stuck_pair"]);
        REQUIRE(pair.size() == 2);
        const int a = pair[0];
        const int c = pair[1];
        const std::string ta = b.at(rankFile(b, a));
        const std::string tc = b.at(rankFile(b, c));
        auto bootstrapIp = [](const std::string& text) {
            static const std::regex kBoot(R"(Bootstrap : Using [\w]+:([\d.]+)<0>)");
            std::smatch m;
            return std::regex_search(text, m, kBoot) ? std::string(m[1]) : std::string();
        };
        const std::string ipA = bootstrapIp(ta);
        const std::string ipC = bootstrapIp(tc);
        REQUIRE_FALSE(ipA.empty());
        REQUIRE_FALSE(ipC.empty());
        CHECK(ipA != ipC); // different hosts
        const std::string warnA = lineContaining(ta, "Got completion from peer");
        const std::string warnC = lineContaining(tc, "Got completion from peer");
        CHECK(warnA.find("peer " + ipC + "<") != std::string::npos);
        CHECK(warnC.find("peer " + ipA + "<") != std::string::npos);
        // The printed ring of channel 0 connects them over the network.
        const std::string send = "Channel 00/0 : " + std::to_string(a) + "[";
        const std::string line = lineContaining(ta, send);
        CHECK(line.find("-> " + std::to_string(c) + "[") != std::string::npos);
        CHECK(line.find("via NET/IB/") != std::string::npos);
    }
}

TEST_CASE("torchrun's per-node root cause names a collateral rank on healthy nodes", "[simulator]")
{
    int checkedNodes = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        ScenarioOptions o = small("rank_crashed", "exception");
        o.layout = Layout::TorchrunLogdir;
        o.torchrunSummary = true;
        o.seed = seed;
        const Bundle b = run(o);
        const auto j = expectedOf(b);
        const int culprit = ints(j["verdict"]["initiating_ranks"]).at(0);
        const auto coll = ints(j["verdict"]["collateral_ranks"]);
        for (const auto& [path, text] : b) {
            if (path.find("/agent.log") == std::string::npos)
                continue;
            const auto root = text.find("Root Cause (first observed failure):");
            if (root == std::string::npos)
                continue;
            static const std::regex kRank(R"(rank      : (\d+) \(local_rank: (\d+)\))");
            std::smatch m;
            const std::string tail = text.substr(root);
            REQUIRE(std::regex_search(tail, m, kRank));
            const int r = std::stoi(m[1]);
            if (r / 8 == culprit / 8) {
                CHECK(r == culprit);
            } else {
                CHECK(std::find(coll.begin(), coll.end(), r) != coll.end());
                CHECK(tail.find("Signal 6 (SIGABRT) received by PID") != std::string::npos);
                ++checkedNodes;
            }
        }
    }
    CHECK(checkedNodes >= 1);
}

TEST_CASE("PyTorch dialects carry their version fingerprints", "[simulator]")
{
    auto bundle = [](const char* torch) {
        ScenarioOptions o = small("no_evidence_all_entered");
        o.torch = torch;
        return run(o);
    };
    {
        const Bundle b = bundle("2.4");
        const std::string t = b.at(rankFile(b, 5));
        static const std::regex kEnv(
            R"(\[rank5\]:\[E\d{4} \d\d:\d\d:\d\d\.\d{9} ProcessGroupNCCL\.cpp:607\] \[Rank 5\] Watchdog caught)");
        CHECK(std::regex_search(t, kEnv));
        CHECK(t.find("[PG 0 (default_pg) Rank 5] Exception (either an error or timeout) detected "
                     "by watchdog at work:")
            != std::string::npos);
        CHECK(t.find("c10d::ProcessGroupNCCL::watchdogHandler()") != std::string::npos);
        CHECK(t.find("terminate called after throwing an instance of 'c10::DistBackendError'")
            != std::string::npos);
    }
    for (const char* old : { "1.13", "2.0" }) {
        const Bundle b = bundle(old);
        const std::string t = b.at(rankFile(b, 5));
        CHECK(t.find("[E ProcessGroupNCCL.cpp:737] [Rank 5] Watchdog caught collective operation "
                     "timeout: WorkNCCL(SeqNum=")
            != std::string::npos);
        CHECK(t.find("last enqueued") == std::string::npos);
        CHECK(t.find("[rank5]:") == std::string::npos);
        CHECK(t.find("NumelIn=") == std::string::npos);
        CHECK(t.find("terminate called after throwing an instance of 'std::runtime_error'")
            != std::string::npos);
    }
    {
        const Bundle b = bundle("2.2");
        const std::string t = b.at(rankFile(b, 5));
        CHECK(t.find("[rank5]:[E ProcessGroupNCCL.cpp:563] [Rank 5] Watchdog caught")
            != std::string::npos);
        CHECK(t.find("[PG 0 Rank 5] Timeout at NCCL work: ") != std::string::npos);
    }
    {
        const Bundle b = bundle("2.6");
        const std::string t = b.at(rankFile(b, 5));
        CHECK(t.find("[PG ID 0 PG GUID 0(default_pg) Rank 5] Exception (either an error or "
                     "timeout) detected by watchdog")
            != std::string::npos);
    }
    {
        const Bundle b = bundle("2.7");
        const std::string t = b.at(rankFile(b, 5));
        CHECK(t.find("[PG ID 0 PG GUID 0(default_pg) Rank 5]  failure detected by watchdog at work "
                     "sequence id: ")
            != std::string::npos);
        CHECK(t.find("ProcessGroupNCCL.cpp:632] [Rank 5] Watchdog caught") != std::string::npos);
    }
}

TEST_CASE("later ranks name the first rank to time out in their dump-signal line", "[simulator]")
{
    ScenarioOptions o = small("straggler_stall", "dataloader");
    o.torch = "2.6";
    bool sawRemote = false;
    for (std::uint64_t seed = 1; seed <= 6 && !sawRemote; ++seed) {
        o.seed = seed;
        const Bundle b = run(o);
        const auto j = expectedOf(b);
        const int straggler = ints(j["verdict"]["initiating_ranks"]).at(0);
        static const std::regex kRemote(
            R"(Received a dump signal due to a collective timeout from  rank (\d+) and)");
        for (const auto& [path, text] : b) {
            std::smatch m;
            if (std::regex_search(text, m, kRemote)) {
                sawRemote = true;
                const int first = std::stoi(m[1]);
                CHECK(first != straggler); // the decoy is a waiting rank, not the culprit
                CHECK(b.at(rankFile(b, first)).find("from this local rank") != std::string::npos);
            }
        }
    }
    CHECK(sawRemote);
}

TEST_CASE("NCCL dialects follow their version rows", "[simulator]")
{
    ScenarioOptions o = small("network_pair", "ib_status12");
    o.nccl = "2.26";
    Bundle b = run(o);
    // The WARN's leading empty line may end a tqdm bar instead of standing alone.
    static const std::regex kWarn26(
        R"(\n\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] [\w.-]+:\d+:\d+ \[\d+\] transport/net_ib\.cc:\d+ NCCL WARN NET/IB: Got completion from peer [\d.]+<\d+> with status=(12|5) opcode=)");
    bool found = false;
    for (const auto& [path, text] : b)
        found = found || std::regex_search(text, kWarn26);
    CHECK(found);
    CHECK_FALSE(filesWith(b, "NCCL INFO ncclCommInitRank comm 0x").empty());
    o.nccl = "2.29";
    b = run(o);
    CHECK_FALSE(filesWith(b, "NCCL INFO [Rank 3] ncclCommInitRank comm 0x").empty());
    o.nccl = "2.18";
    b = run(o);
    CHECK_FALSE(filesWith(b, "- Init START").empty());
    CHECK(filesWith(b, "\nNCCL version 2.18.6+cuda").size()
        == 1); // banner printed by comm rank 0 only
}

TEST_CASE("noise includes tqdm carriage returns that glue lines", "[simulator]")
{
    ScenarioOptions o = small("straggler_stall", "dataloader");
    o.noise = Noise::High;
    const Bundle b = run(o);
    bool glued = false;
    for (const auto& [path, text] : b) {
        const auto pos = text.find("it/s, loss=");
        const auto pos2 = text.find("s/it, loss=");
        if (pos == std::string::npos && pos2 == std::string::npos)
            continue;
        CHECK(text.find('\r') != std::string::npos);
        // A later write to the same stream continues the bar's line: "…loss=5.09][rank0]:[E…".
        static const std::regex kGlue(R"(loss=\d+\.\d\d\]\S)");
        glued = glued || std::regex_search(text, kGlue);
    }
    CHECK(glued);
}

TEST_CASE("a 4096-rank job generates quickly with one file per rank", "[simulator]")
{
    ScenarioOptions o = small("straggler_stall", "dataloader");
    o.ranks = 4096;
    o.steps = 2;
    o.ncclDebug = NcclDebug::Warn;
    o.noise = Noise::Low;
    const auto start = std::chrono::steady_clock::now();
    Result r;
    const Bundle b = run(o, &r);
    const auto secs
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(secs < 30.0);
    CHECK(r.expected.worldSize == 4096);
    int rankFiles = 0;
    for (const auto& [path, text] : b)
        if (path.find("expected") == std::string::npos && path.rfind("slurm", 0) != 0)
            ++rankFiles;
    CHECK(rankFiles == 4096);
    CHECK(ints(expectedOf(b)["verdict"]["collateral_ranks"]).size() == 4095);
}

TEST_CASE("invalid options are rejected with a reason", "[simulator]")
{
    ScenarioOptions o = small("healthy");
    CHECK_FALSE(validate(o).has_value());
    o.scenario = "nope";
    CHECK(validate(o).has_value());
    o = small("healthy", "xid79");
    CHECK(validate(o).has_value());
    o = small("healthy");
    o.ranks = 1;
    CHECK(validate(o).has_value());
    o.ranks = 5000;
    CHECK(validate(o).has_value());
    o = small("healthy");
    o.torch = "3.0";
    CHECK(validate(o).has_value());
    Bundle files;
    CHECK_FALSE(generateInMemory(o, files).ok);
}

TEST_CASE("scenario-specific evidence is present", "[simulator]")
{
    SECTION("host OOM kill names the rank's pid in the kernel log")
    {
        ScenarioOptions o = small("rank_crashed", "host_oom_kill");
        o.dmesg = true;
        const Bundle b = run(o);
        const int r = ints(expectedOf(b)["verdict"]["initiating_ranks"]).at(0);
        static const std::regex kHead(R"([\w.-]+:(\d+):\d+ \[\d+\] NCCL INFO)");
        std::smatch m;
        const std::string text = b.at(rankFile(b, r));
        REQUIRE(std::regex_search(text, m, kHead));
        CHECK_FALSE(filesWith(b, "Out of memory: Killed process " + std::string(m[1]) + " (python)")
                        .empty());
    }
    SECTION("algorithm deadlock shows the forced protocol and no WARN")
    {
        const Bundle b = run(small("collective_mismatch", "algo_deadlock"));
        CHECK((!filesWith(b, "NCCL_PROTO set by environment to").empty()
            || !filesWith(b, "NCCL_ALGO set by environment to").empty()));
        CHECK(filesWith(b, "NCCL WARN").empty());
    }
    SECTION("frozen job: heartbeat monitor fires with nothing in flight")
    {
        ScenarioOptions o = small("frozen_job", "cuda_hang");
        o.torch = "2.2";
        const Bundle b = run(o);
        CHECK_FALSE(filesWith(b,
            "Heartbeat monitor timed out! Process will be terminated after dumping debug info. "
            "workMetaList_.size()=0")
                        .empty());
        CHECK(filesWith(b, "Watchdog caught collective operation timeout").empty());
    }
    SECTION("excerpt: one pasted file, no world size")
    {
        const Bundle b = run(small("excerpt_only"));
        CHECK(b.size() == 2);
        CHECK(expectedOf(b)["world_size"].is_null());
        CHECK(filesWith(b, "nranks").empty());
        CHECK(filesWith(b, "size: 16").empty());
    }
    SECTION("py-spy shows the straggler outside any collective")
    {
        ScenarioOptions o = small("straggler_stall", "dataloader");
        o.pyspy = true;
        const Bundle b = run(o);
        const int r = ints(expectedOf(b)["verdict"]["initiating_ranks"]).at(0);
        const std::string dump = b.at("pyspy-rank" + std::to_string(r) + ".txt");
        CHECK(dump.find("Thread ") != std::string::npos);
        CHECK(dump.find("_next_data (torch/utils/data/dataloader.py:") != std::string::npos);
        CHECK(dump.find("distributed_c10d.py") == std::string::npos);
        const std::string peer = b.at("pyspy-rank" + std::to_string((r + 1) % 16) + ".txt");
        CHECK(peer.find("all_reduce (torch/distributed/distributed_c10d.py:") != std::string::npos);
    }
}

TEST_CASE("archives keep expected.json outside and are reproducible", "[simulator]")
{
    const auto dir = std::filesystem::temp_directory_path() / "rankscope-sim-test";
    std::filesystem::remove_all(dir);
    ScenarioOptions o = small("network_pair", "ib_status12");
    o.archive = ArchiveKind::Tgz;
    const Result r1 = generate(o, dir / "a");
    const Result r2 = generate(o, dir / "b");
    REQUIRE(r1.ok);
    REQUIRE(r2.ok);
    CHECK(r1.files == std::vector<std::string> { "bundle.tgz", "expected.json" });
    auto slurp = [](const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    };
    const std::string a = slurp(dir / "a" / "bundle.tgz");
    CHECK(a.size() > 1000);
    CHECK(a == slurp(dir / "b" / "bundle.tgz"));
    o.archive = ArchiveKind::Zip;
    const Result r3 = generate(o, dir / "c");
    REQUIRE(r3.ok);
    CHECK(slurp(dir / "c" / "bundle.zip").substr(0, 2) == "PK");
    std::filesystem::remove_all(dir);
}

TEST_CASE("srun --label ends a dying rank's half-written bar before another task's label",
    "[simulator]")
{
    // Slurm's write_labelled_message() writes a newline after a chunk without one, so the
    // next task's "NN: " label always starts a line (a segfaulting rank right after rank 0's
    // tqdm bar must not read as rank 0's crash).
    ScenarioOptions o = small("rank_crashed", "segfault");
    o.torch = "2.0";
    o.nccl = "2.29";
    o.layout = Layout::SrunCombined;
    o.ranks = 32;
    o.steps = 40;
    o.dmesg = true;
    o.pyspy = true;
    for (std::uint64_t seed : { 1070u, 7u, 8u }) {
        o.seed = seed;
        const Bundle b = run(o);
        // srun killed the step seconds after the crash: no watchdog ever named the stuck
        // collective, so the answer does not either.
        if (filesWith(b, "Watchdog caught collective operation timeout").empty())
            CHECK(expectedOf(b)["verdict"]["stuck_collective"].is_null());
        if (seed == 1070u)
            CHECK(filesWith(b, "Watchdog caught collective operation timeout").empty());
        static const std::regex kGluedLabel(R"([^\n]\]\d{2}: )");
        for (const auto& [path, text] : b) {
            if (path.rfind("slurm-", 0) != 0)
                continue;
            INFO(path << " seed " << seed);
            CHECK_FALSE(std::regex_search(text, kGluedLabel));
            const std::string crash = lineContaining(text, "Fatal Python error: Segmentation fault");
            if (seed == 1070u) // faulthandler is on in this job (its crash once glued to a bar)
                REQUIRE_FALSE(crash.empty());
            if (crash.empty())
                continue;
            static const std::regex kLabelled(R"(^\d{2}: Fatal Python error: Segmentation fault$)");
            CHECK(std::regex_match(crash, kLabelled));
        }
    }
}

TEST_CASE("both ends of a failed link print their async error before the watchdog aborts",
    "[simulator]")
{
    // The watchdog logs the NCCL error, then throws and aborts: a process never dies of its
    // async error without having printed it, however soon after the error it dies.
    ScenarioOptions o = small("network_pair", "async_error_last_error");
    o.torch = "2.6";
    o.nccl = "2.18";
    o.pyspy = true;
    o.torchrunSummary = true;
    for (std::uint64_t seed : { 1121u, 7u, 9u }) {
        o.seed = seed;
        const Bundle b = run(o);
        const auto pair = ints(expectedOf(b)["verdict"]["stuck_pair"]);
        REQUIRE(pair.size() == 2);
        for (int r : pair) {
            INFO("rank " << r << " seed " << seed);
            CHECK(b.at(rankFile(b, r)).find("Got completion from peer") != std::string::npos);
        }
    }
}

TEST_CASE("stuck in the first collective, the watchdog says nothing completed (-1)", "[simulator]")
{
    // ProcessGroupNCCL's lastCompletedSeq starts at -1 and SeqNums start at 1.
    ScenarioOptions o = small("configuration", "gid_mismatch");
    o.torch = "2.7";
    o.ranks = 8;
    o.ranksPerNode = 4;
    const Bundle b = run(o);
    REQUIRE(expectedOf(b)["verdict"]["stuck_collective"]["seq"] == 1);
    CHECK_FALSE(filesWith(b, "last completed work: -1").empty());
    CHECK(filesWith(b, "last completed work: 0").empty());
}

TEST_CASE("benign noise: application Xids belong to no rank of the job, and every rank exits 0",
    "[simulator]")
{
    const Bundle b = run(small("healthy", "benign_noise"));
    const auto j = expectedOf(b);
    CHECK(j["verdict"]["status"] == "no_hang_found");
    CHECK(j["generator"]["torch"] == "2.4"); // the not-destroyed warning needs ≥2.4
    std::string dmesg;
    for (const auto& [path, text] : b)
        if (path.find("dmesg") != std::string::npos)
            dmesg += text;
    for (const char* xid : { "): 13, ", "): 43, ", "): 31, ", "): 92, " })
        CHECK(dmesg.find(xid) != std::string::npos);
    CHECK(dmesg.find("1 CE memory read error") != std::string::npos);
    CHECK(filesWith(b, "process group has NOT been destroyed").size() >= 16);
    CHECK(filesWith(b, "can potentially cause a hang").size() >= 16);
    CHECK(filesWith(b, "Watchdog caught collective operation timeout").empty());
}

TEST_CASE("subgroup skip: the odd rank times out on the metrics group, the others on PG 0",
    "[simulator]")
{
    const Bundle b = run(small("collective_mismatch", "subgroup_skip"));
    const auto j = expectedOf(b);
    const int r = ints(j["verdict"]["initiating_ranks"]).at(0);
    const std::string mine = b.at(rankFile(b, r));
    const std::string timeout = lineContaining(mine, "Watchdog caught collective operation timeout");
    CHECK(timeout.find("SeqNum=2,") != std::string::npos);
    CHECK(timeout.find("NumelIn=4,") != std::string::npos);
    // The metrics group's watchdog reports it: PG 1, or PG 2 when a TP group took PG 1.
    const std::string timeoutAt = lineContaining(mine, "Timeout at NCCL work: 2,");
    CHECK((timeoutAt.find("[PG 1 Rank ") != std::string::npos
        || timeoutAt.find("[PG 2 Rank ") != std::string::npos));
    const std::string seq
        = "SeqNum=" + std::to_string(j["verdict"]["stuck_collective"]["seq"].get<int>()) + ",";
    CHECK(mine.find(seq) == std::string::npos); // never enqueued #S on PG 0
    CHECK(filesWith(b, seq).size() >= 8);
}

TEST_CASE("partial bundles: a lost rank leaves no file, a cut copy ends mid-line", "[simulator]")
{
    const Bundle lost = run(small("partial_bundle", "missing_rank_file"));
    int files = 0;
    for (int r = 0; r < 16; ++r)
        files += rankFile(lost, r).empty() ? 0 : 1;
    CHECK(files == 15);
    CHECK(expectedOf(lost)["verdict"]["initiating_ranks"].empty());
    const Bundle cut = run(small("partial_bundle", "cut_mid_line"));
    for (int r = 0; r < 16; ++r) {
        const std::string text = cut.at(rankFile(cut, r));
        REQUIRE_FALSE(text.empty());
        CHECK(text.back() != '\n');
    }
}

TEST_CASE("every scenario generates a 4096-rank job with interleaved per-node consoles",
    "[simulator]")
{
    for (const std::string& s : scenarioNames()) {
        std::vector<std::string> variants { variantNames(s).front() };
        if (s == "healthy")
            variants.push_back("benign_noise");
        if (s == "collective_mismatch")
            variants.push_back("subgroup_skip");
        if (s == "partial_bundle")
            variants.push_back("cut_mid_line");
        for (const std::string& v : variants) {
            INFO(s << "/" << v);
            ScenarioOptions o = small(s, v);
            o.ranks = 4096;
            o.steps = 4;
            o.layout = Layout::PerNode;
            const auto start = std::chrono::steady_clock::now();
            Result r;
            const Bundle b = run(o, &r);
            const auto secs
                = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            CHECK(secs < 30.0);
            // One console per host (4096 / 8); an excerpt is a paste, not a bundle.
            int consoles = 0;
            for (const auto& [path, text] : b)
                consoles += text.find("[default") != std::string::npos ? 1 : 0;
            if (s != "excerpt_only")
                CHECK(consoles == 512);
        }
    }
}
