// The loader's merge while parsing (app/core/bundleloader.cpp): Flight Recorder dumps are
// merged as they are read, their entry array sized from a guess (SimilarInputs), and the
// bundle must not depend on the number of threads or on which thread merged what.

#include "app/core/bundleloader.h"
#include "app/core/orderedmerge.h"
#include "app/core/similarinputs.h"
#include "parsers/sha256.h"

#include "../parsers/archivewriter.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace rankscope;

namespace {

parsers::InputTask task(std::string path, std::uint64_t bytes)
{
    parsers::InputTask t;
    t.diskPath = path;
    t.displayPath = std::move(path);
    t.diskBytes = bytes;
    return t;
}

// Every entry as text, in bundle order: rank, sequence, op, sizes, times, state.
std::vector<std::string> frEntriesOf(const model::Bundle& b)
{
    std::vector<std::string> out;
    for (const model::FrEntry& e : b.frEntries) {
        const model::FrCall& c = b.frCalls[e.call];
        out.push_back(std::to_string(b.frDumps[c.dump].globalRank) + " " + std::to_string(e.collectiveSeq)
            + " " + std::string(b.strings.view(c.profilingName)) + " "
            + std::string(b.strings.view(c.inputSizes)) + " " + std::to_string(e.createdNs()) + " "
            + std::to_string(e.startedNs()) + " " + std::to_string(e.completedNs()) + " "
            + std::to_string(static_cast<int>(e.state())));
    }
    return out;
}

namespace fs = std::filesystem;

std::string fileText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A fresh directory, removed with everything in it at the end of the test.
struct TempDir {
    fs::path path = fs::temp_directory_path()
        / ("rankscope-loader-test-" + std::to_string(::getpid()) + "-"
            + std::to_string(counter()++));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
    static int& counter()
    {
        static int n = 0;
        return n;
    }
};

const std::string kScenario = std::string(RANKSCOPE_TEST_DATA) + "/scenarios/fr-only-straggler";

app::BundlePtr load(const std::vector<std::string>& paths, unsigned threads)
{
    app::LoadRequest request;
    request.paths = paths;
    request.threads = threads;
    auto loaded = app::loadBundle(request);
    REQUIRE(loaded);
    return loaded.value();
}

// One synthetic dump source of `entries` entries for the OrderedMerge tests.
model::ParsedSource dumpSource(const std::string& path, std::uint32_t entries)
{
    model::Source src;
    src.path = path;
    model::ParsedSource p(std::move(src));
    model::FrDump d;
    d.entryCount = entries;
    p.frDumps.push_back(d);
    model::FrCall c;
    p.frCalls.push_back(c);
    for (std::uint32_t i = 0; i < entries; ++i) {
        model::FrEntry e;
        e.call = 0;
        e.collectiveSeq = static_cast<std::int32_t>(i);
        p.frEntries.push_back(e);
    }
    return p;
}

} // namespace

TEST_CASE("inputs named alike apart from their numbers are counted together", "[loader]")
{
    const std::vector<parsers::InputTask> tasks {
        task("logs/rank0.log", 7),
        task("node0/nccl_trace_rank_0", 100),
        task("node0/nccl_trace_rank_1", 110),
        task("node1/nccl_trace_rank_10", 120),
        task("node1/nccl_trace_rank_11", 130),
        task("node12.tar.gz", 50),
        task("node3.tar.gz", 60),
        task("rank1.log", 9), // not logs/: another shape
        task("zz/nccl_trace_rank_9", 1000), // another directory shape
    };
    const app::SimilarInputs similar(tasks);
    CHECK(similar.bytesAfter(0) == 0);
    CHECK(similar.bytesAfter(1) == 110 + 120 + 130);
    CHECK(similar.bytesAfter(2) == 120 + 130);
    CHECK(similar.bytesAfter(3) == 130);
    CHECK(similar.bytesAfter(4) == 0);
    CHECK(similar.bytesAfter(5) == 60);
    CHECK(similar.bytesAfter(6) == 0);
    CHECK(similar.bytesAfter(7) == 0);
    CHECK(similar.bytesAfter(8) == 0);
    CHECK(similar.bytesAfter(99) == 0);
    // A run of digits is one placeholder whatever its length, but "a1b" is not "ab".
    const app::SimilarInputs shapes({ task("a1b", 1), task("ab", 2), task("a123b", 4) });
    CHECK(shapes.bytesAfter(0) == 4);
    CHECK(shapes.bytesAfter(1) == 0);
}

TEST_CASE("dumps merged while others are still read give the same bundle on any thread count",
    "[loader]")
{
    const std::string dir = std::string(RANKSCOPE_TEST_DATA) + "/scenarios/fr-only-straggler";
    std::vector<std::string> first;
    for (const unsigned threads : { 1u, 2u, 3u, 8u }) {
        app::LoadRequest request;
        request.paths = { dir };
        request.threads = threads;
        auto loaded = app::loadBundle(request);
        REQUIRE(loaded);
        const model::Bundle& b = *loaded.value();
        REQUIRE(b.frDumps.size() == 8);
        std::uint32_t next = 0;
        for (const model::FrDump& d : b.frDumps) {
            CHECK(d.firstEntry == next);
            next += d.entryCount;
        }
        CHECK(next == b.frEntries.size());
        const auto entries = frEntriesOf(b);
        REQUIRE(!entries.empty());
        if (first.empty())
            first = entries;
        else
            CHECK(entries == first);
    }
}

TEST_CASE("dumps inside archives are merged member by member into the same bundle", "[loader]")
{
    // The scenario's eight dumps, four per node archive (compressed and not), with a log
    // between them, against the same dumps as plain files.
    const fs::path dumps = fs::path(kScenario) / "flight_recorder";
    TempDir dir;
    std::vector<testing::ArchiveEntrySpec> node0, node1;
    for (int r = 0; r < 8; ++r) {
        const std::string name = "nccl_trace_rank_" + std::to_string(r);
        (r < 4 ? node0 : node1).push_back({ name, fileText(dumps / name), {} });
    }
    node0.insert(node0.begin() + 2, { "nccl_trace_rank_1.txt", "[rank1]: NCCL INFO hello\n", {} });
    std::ofstream(dir.path / "node0.tar.gz", std::ios::binary)
        << testing::makeArchive(node0, "tar", "gzip");
    std::ofstream(dir.path / "node1.tar", std::ios::binary)
        << testing::makeArchive(node1, "tar", "");

    const auto plain = frEntriesOf(*load({ dumps.string() }, 2));
    REQUIRE(!plain.empty());
    for (const unsigned threads : { 1u, 2u, 4u }) {
        const app::BundlePtr loaded = load({ dir.path.string() }, threads);
        const model::Bundle& b = *loaded;
        CHECK(b.frDumps.size() == 8);
        CHECK(frEntriesOf(b) == plain);
        // Every member is its own source, in path order, the log among them.
        REQUIRE(b.sources.size() == 9);
        CHECK(b.sources[2].path.ends_with("/node0.tar.gz!nccl_trace_rank_1.txt"));
        CHECK(b.sources[8].path.ends_with("/node1.tar!nccl_trace_rank_7"));
    }
    // One archive alone: every thread still gets members to parse (threads are not capped
    // by the number of files), and the order stays the archive's.
    std::vector<std::string> lastFour; // the entries of ranks 4–7
    std::copy_if(plain.begin(), plain.end(), std::back_inserter(lastFour),
        [](const std::string& e) { return std::stoi(e) >= 4; });
    REQUIRE(!lastFour.empty());
    for (const unsigned threads : { 1u, 4u }) {
        const app::BundlePtr loaded = load({ (dir.path / "node1.tar").string() }, threads);
        CHECK(frEntriesOf(*loaded) == lastFour);
    }
}

TEST_CASE("sources merged from several threads keep the path order whatever order they finish in",
    "[loader]")
{
    // Six tasks of three sources each, delivered by two threads in a shuffled order with
    // tasks finishing before earlier ones and sources of a task out of order: the bundle
    // lists them in task order, each task's in its own order.
    std::vector<parsers::InputTask> tasks;
    for (int t = 0; t < 6; ++t)
        tasks.push_back(task("node" + std::to_string(t) + ".tar", 3000));
    std::mt19937 random(7);
    for (int round = 0; round < 20; ++round) {
        model::BundleBuilder builder;
        app::OrderedMerge merge(tasks, builder);
        std::vector<int> order { 0, 1, 2, 3, 4, 5 };
        std::shuffle(order.begin(), order.end(), random);
        auto reader = [&](int parity) {
            for (const int t : order) {
                if (t % 2 != parity)
                    continue;
                // A task's sources in any order, some after the task said how many it has
                // (archive members parsed by other threads).
                std::array<std::uint32_t, 3> seqs { 0, 1, 2 };
                std::shuffle(
                    seqs.begin(), seqs.end(), std::mt19937(static_cast<unsigned>(round * 10 + t)));
                auto deliver = [&](std::uint32_t s) {
                    merge.add(static_cast<std::size_t>(t), s,
                        dumpSource(
                            "node" + std::to_string(t) + ".tar!rank" + std::to_string(s), 100),
                        std::uint64_t(1000) * (s + 1));
                };
                deliver(seqs[0]);
                merge.taskDone(static_cast<std::size_t>(t), 3);
                deliver(seqs[1]);
                deliver(seqs[2]);
            }
        };
        std::thread other(reader, 1);
        reader(0);
        other.join();
        merge.finish();
        const model::Bundle& b = builder.merged();
        REQUIRE(b.sources.size() == 18);
        for (int t = 0; t < 6; ++t)
            for (int s = 0; s < 3; ++s)
                CHECK(b.sources[static_cast<std::size_t>(t * 3 + s)].path
                    == "node" + std::to_string(t) + ".tar!rank" + std::to_string(s));
        REQUIRE(b.frEntries.size() == 1800);
        // The first dump's 100 entries per 1000 disk bytes, times the 17,000 bytes still to
        // come (this archive's and the five named like it), plus an eighth: room for all.
        CHECK(b.frEntries.capacity() >= 1800);
        CHECK(b.frEntries.capacity() <= 1800 * 9 / 8 + 100);
        for (std::size_t d = 0; d < b.frDumps.size(); ++d)
            CHECK(b.frDumps[d].firstEntry == 100 * d);
    }
}

TEST_CASE("one big file's hash is the same whether another thread computed it or not", "[loader][hash]")
{
    TempDir dir;
    // An srun console of a whole job: one file, so every thread but the reader is free.
    std::string bytes;
    for (int i = 0; bytes.size() < (17u << 20); ++i)
        bytes += std::to_string(i % 64) + ": gpu-node-" + std::to_string(i % 8) + ":42" + std::to_string(i % 64)
            + ":42 [0] NCCL INFO AllReduce: opCount " + std::to_string(i / 64)
            + " sendbuff 0x7f0000 recvbuff 0x7f0000 count 1024 datatype 7 op 0 root 0 comm 0x5000 [nranks=64] stream 0x9\n";
    const auto path = (dir.path / "slurm-42.out").string();
    std::ofstream(path, std::ios::binary) << bytes;
    std::ofstream(dir.path / "small.log", std::ios::binary) << "[rank0]: hello\n";
    const std::string expected = parsers::sha256Hex(bytes);
    const std::size_t traces = load({ path }, 1)->collTraces.size();
    CHECK(traces == 64);
    for (unsigned threads : { 1u, 2u, 4u }) {
        const auto bundle = load({ path, (dir.path / "small.log").string() }, threads);
        REQUIRE(bundle->sources.size() == 2);
        CHECK(bundle->sources[0].sha256 == expected);
        CHECK(bundle->sources[1].sha256 == parsers::sha256Hex("[rank0]: hello\n"));
        CHECK(bundle->collTraces.size() == traces);
    }
}
