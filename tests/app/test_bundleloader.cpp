// The loader's merge while parsing (app/core/bundleloader.cpp): Flight Recorder dumps are
// merged as they are read, their entry array sized from a guess (SimilarInputs), and the
// bundle must not depend on the number of threads or on which thread merged what.

#include "app/core/bundleloader.h"
#include "app/core/similarinputs.h"

#include <catch2/catch.hpp>

#include <string>
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
