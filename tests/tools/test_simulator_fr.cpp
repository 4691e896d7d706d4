// The simulator's Flight Recorder dumps, read back through Rankscope's own FR parser: what
// each rank recorded must follow the scenario's ground truth (expected.json), since the FR
// golden scenarios are only as good as the dumps they are built from.

#include "simulator.h"

#include "model/parsedsource.h"
#include "parsers/flightrecorderparser.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

using namespace rankscope;
using namespace rankscope::simulator;

namespace {

struct RankTrace {
    model::ParsedSource parsed;
    std::string bytes;
};

struct FrBundle {
    Result result;
    std::map<int, RankTrace> dumps; // global rank → its dump, parsed
};

FrBundle generateDumps(ScenarioOptions o)
{
    o.flightRecorder = true;
    o.logs = false;
    o.steps = 12;
    o.noise = Noise::Low;
    Bundle files;
    FrBundle out;
    out.result = generateInMemory(o, files);
    REQUIRE(out.result.ok);
    const std::string prefix = "flight_recorder/nccl_trace_rank_";
    for (const auto& [path, content] : files) {
        if (path.rfind(prefix, 0) != 0)
            continue;
        const bool json = path.ends_with(".json");
        const int rank = std::stoi(path.substr(prefix.size()));
        model::Source src;
        src.path = path;
        src.pathIdentity.globalRank = rank;
        RankTrace t { model::ParsedSource(std::move(src)), content };
        if (json)
            parsers::parseFlightRecorderJson(content, t.parsed);
        else
            parsers::parseFlightRecorderPickle(content, t.parsed);
        INFO(path);
        REQUIRE(t.parsed.issues.total() == 0);
        REQUIRE(t.parsed.frDumps.size() == 1);
        out.dumps.emplace(rank, std::move(t));
    }
    return out;
}

const model::FrEntry* entryAt(const model::ParsedSource& p, std::int64_t seq)
{
    for (const auto& e : p.frEntries)
        if (e.collectiveSeq == seq)
            return &e;
    return nullptr;
}

model::OpType opOf(const model::ParsedSource& p, const model::FrEntry& e)
{
    return e.call < p.frCalls.size() ? p.frCalls[e.call].op : model::OpType::Unknown;
}

std::int64_t lastSeq(const model::ParsedSource& p)
{
    std::int64_t last = -1;
    for (const auto& e : p.frEntries)
        last = std::max<std::int64_t>(last, e.collectiveSeq);
    return last;
}

} // namespace

TEST_CASE(
    "FR dumps: the straggler's trace stops before S, its peers have S started", "[simulator][fr]")
{
    ScenarioOptions o;
    o.scenario = "straggler_stall";
    o.variant = "dataloader";
    o.ranks = 8;
    o.seed = 40;
    const FrBundle b = generateDumps(o);
    const Verdict& v = b.result.expected.verdict;
    REQUIRE(v.stuckCollective);
    const std::int64_t s = v.stuckCollective->seq;
    REQUIRE(b.dumps.size() == 8);
    for (const auto& [rank, t] : b.dumps) {
        INFO("rank " << rank);
        const bool straggler = rank == v.initiatingRanks.front();
        CHECK(lastSeq(t.parsed) == (straggler ? s - 1 : s));
        for (const auto& e : t.parsed.frEntries) {
            if (e.collectiveSeq < s)
                CHECK(e.state() == model::FrState::Completed);
            else if (e.collectiveSeq == s)
                CHECK(e.state() == model::FrState::Started);
        }
        const auto& status = t.parsed.frDumps.front().pgStatus;
        REQUIRE(status.size() == 1);
        CHECK(status.front().lastCompleted == s - 1);
    }
}

TEST_CASE("FR dumps: the mismatching minority records its own op at S", "[simulator][fr]")
{
    ScenarioOptions o;
    o.scenario = "collective_mismatch";
    o.variant = "op_mismatch";
    o.ranks = 8;
    o.ranksPerNode = 4;
    o.seed = 47;
    const FrBundle b = generateDumps(o);
    const Verdict& v = b.result.expected.verdict;
    REQUIRE(v.initiatingRanks.size() == 1);
    REQUIRE(b.dumps.size() == 8);
    for (const auto& [rank, t] : b.dumps) {
        const model::FrEntry* e = entryAt(t.parsed, v.stuckCollective->seq);
        REQUIRE(e);
        CHECK(opOf(t.parsed, *e)
            == (rank == v.initiatingRanks.front() ? model::OpType::Broadcast
                                                  : model::OpType::AllReduce));
    }
}

TEST_CASE("FR dumps: a crashed rank leaves none, the others all dump", "[simulator][fr]")
{
    ScenarioOptions o;
    o.scenario = "rank_crashed";
    o.variant = "segfault";
    o.ranks = 8;
    o.ranksPerNode = 4;
    o.seed = 43;
    const FrBundle b = generateDumps(o);
    const int crashed = b.result.expected.verdict.initiatingRanks.front();
    CHECK(b.dumps.count(crashed) == 0);
    CHECK(b.dumps.size() == 7);
}

TEST_CASE("FR dumps: the rank stuck inside S shows a created → started gap of about the timeout",
    "[simulator][fr]")
{
    ScenarioOptions o;
    o.scenario = "hardware_fault";
    o.variant = "xid_gsp119"; // the GPU stops answering: its rank hangs inside the collective
    o.ranks = 8;
    o.ranksPerNode = 4;
    o.seed = 41;
    const FrBundle b = generateDumps(o);
    const Verdict& v = b.result.expected.verdict;
    REQUIRE(b.dumps.size() == 8);
    for (const auto& [rank, t] : b.dumps) {
        const model::FrEntry* e = entryAt(t.parsed, v.stuckCollective->seq);
        REQUIRE(e);
        INFO("rank " << rank);
        CHECK(e->state() == model::FrState::Started);
        REQUIRE(e->startedNs() > 0);
        const double gapMs = static_cast<double>(e->startedNs() - e->createdNs()) / 1e6;
        const double timeoutMs = static_cast<double>(t.parsed.frCalls[e->call].timeoutMs);
        if (rank == v.initiatingRanks.front())
            CHECK(gapMs > 0.9 * timeoutMs);
        else
            CHECK(gapMs < 1000);
    }
}

TEST_CASE(
    "FR dumps: the ring buffer keeps the last K entries, JSON and pickle agree", "[simulator][fr]")
{
    ScenarioOptions o;
    o.scenario = "straggler_stall";
    o.variant = "sleep";
    o.ranks = 4;
    o.ranksPerNode = 4;
    o.seed = 9;
    o.frBufferSize = 16;
    o.frVersion = "2.10";
    const FrBundle pickled = generateDumps(o);
    o.frFormat = FrFormat::Json;
    const FrBundle json = generateDumps(o);
    REQUIRE(pickled.dumps.size() == 4);
    REQUIRE(json.dumps.size() == 4);
    const int straggler = pickled.result.expected.verdict.initiatingRanks.front();
    for (const auto& [rank, t] : pickled.dumps) {
        INFO("rank " << rank);
        // torch::jit::Pickler: protocol 2, no frames ([formats 2.2]).
        CHECK(t.bytes.substr(0, 2) == std::string("\x80\x02", 2));
        const auto& entries = t.parsed.frEntries;
        REQUIRE(entries.size() == 16);
        // Only PG 0 is traced, so record ids count its collectives from 0; the ring keeps the
        // newest 16, which start at different records on the straggler and its peers.
        CHECK(entries.back().recordId == entries.back().collectiveSeq - 1);
        CHECK(entries.front().recordId == entries.back().recordId - 15);
        if (rank == straggler)
            CHECK(entries.back().collectiveSeq
                == pickled.result.expected.verdict.stuckCollective->seq - 1);
        const auto& j = json.dumps.at(rank).parsed;
        REQUIRE(j.frEntries.size() == entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i) {
            CHECK(j.frEntries[i].collectiveSeq == entries[i].collectiveSeq);
            CHECK(j.frEntries[i].state() == entries[i].state());
            CHECK(j.frEntries[i].createdNs() == entries[i].createdNs());
        }
        CHECK(t.parsed.frStacks.size() > 0); // pickles carry the Python frames
        CHECK(j.frStacks.size() == 0); // the JSON variant has none
    }
}

TEST_CASE("FR options are validated with a reason", "[simulator][fr]")
{
    ScenarioOptions o;
    o.scenario = "straggler_stall";
    CHECK_FALSE(validate(o));
    o.logs = false;
    CHECK(validate(o)); // nothing left to write
    o.flightRecorder = true;
    CHECK_FALSE(validate(o));
    o.torch = "2.0";
    CHECK(validate(o)); // no Flight Recorder before PyTorch 2.2
    o.torch = "2.4";
    o.frVersion = "3.0";
    CHECK(validate(o));
    o.frVersion = "2.10";
    o.frBufferSize = 0;
    CHECK(validate(o));
    CHECK(defaultFrVersion("2.7") == "2.7");
    CHECK(defaultFrVersion("2.4") == "2.3");
}
