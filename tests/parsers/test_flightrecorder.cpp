// Flight Recorder dumps ([formats 2]) mapped into FrDump / FrEntry records. The fixtures
// under tests/data/fr are written by tools/frgen/frgen.py with Python's own pickle module
// and with a writer that emits what torch::jit::Pickler emits (job4/).
#include "parsers/flightrecorderparser.h"
#include "parsers/pathidentity.h"
#include "parsers/rasparser.h"
#include "parsers/sourcebuilder.h"

#include "dumpwriter.h"
#include "picklecompare.h"
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace rankscope;
using model::EventKind;
using model::FrEntry;
using model::FrState;
using model::OpType;
using rankscope::testing::eventsOf;
using rankscope::testing::firstOf;
using rankscope::testing::str;

namespace {

constexpr std::int64_t kT0 = 1724779239936775119; // frgen's T0

std::string fixture(const std::string& relative)
{
    std::ifstream in(std::string(RANKSCOPE_TEST_DATA) + "/fr/" + relative, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

model::ParsedSource source(const std::string& path)
{
    model::Source src;
    src.id = 3;
    src.path = path;
    src.pathIdentity = parsers::identityFromPath(path);
    return model::ParsedSource(std::move(src));
}

model::ParsedSource pickleDump(
    const std::string& bytes, const std::string& path = "dump/nccl_trace_rank_1")
{
    auto out = source(path);
    parsers::parseFlightRecorderPickle(bytes, out);
    return out;
}

model::ParsedSource jsonDump(
    const std::string& bytes, const std::string& path = "dump/nccl_trace_rank_0.json")
{
    auto out = source(path);
    parsers::parseFlightRecorderJson(bytes, out);
    return out;
}

const model::FrCall& call(const model::ParsedSource& p, const FrEntry& e)
{
    REQUIRE(e.call < p.frCalls.size());
    return p.frCalls[e.call];
}

std::string framesText(const model::ParsedSource& p, const FrEntry& e)
{
    std::string s;
    const auto [first, last] = p.frStacks.of(call(p, e).stack);
    for (const auto* f = first; f != last; ++f)
        s += str(p, f->function) + "@" + str(p, f->file) + ":" + std::to_string(f->line) + ";";
    return s;
}

// Every mapped field as text, so entries of different sources (own string pools) compare.
std::string describe(const model::ParsedSource& p, const FrEntry& e)
{
    std::ostringstream s;
    s << e.recordId << '|' << str(p, call(p, e).pg) << '|' << str(p, call(p, e).pgDesc) << '|' << e.collectiveSeq
      << '|' << e.p2pSeq << '|' << str(p, call(p, e).profilingName) << '|' << int(call(p, e).op)
      << '|' << call(p, e).isP2p << '|' << call(p, e).p2pSrc << '|' << call(p, e).p2pDst << '|' << call(p, e).inputNumel << '|'
      << call(p, e).outputNumel << '|' << str(p, call(p, e).inputSizes) << '|' << str(p, call(p, e).outputSizes) << '|'
      << str(p, call(p, e).inputDtypes) << '|' << str(p, call(p, e).outputDtypes) << '|' << int(e.state()) << '|'
      << e.createdNs() << '|' << e.startedNs() << '|' << e.completedNs() << '|'
      << e.durationMs() << '|' << e.retired() << '|' << call(p, e).timeoutMs << '|' << framesText(p, e);
    return s.str();
}

std::vector<std::string> describeAll(const model::ParsedSource& p)
{
    std::vector<std::string> out;
    for (const auto& e : p.frEntries)
        out.push_back(describe(p, e));
    return out;
}

} // namespace

TEST_CASE("torch-written dump of rank 0 yields the dump record, six entries and the dump event",
    "[parsers][fr]")
{
    const auto p = pickleDump(fixture("job4/nccl_trace_rank_0"), "bundle/node0/nccl_trace_rank_0");
    CHECK(p.issues.empty());
    REQUIRE(p.frDumps.size() == 1);
    const auto& d = p.frDumps[0];
    CHECK(d.globalRank == 0);
    CHECK(str(p, d.version) == "2.10");
    CHECK_FALSE(d.truncated);
    CHECK(d.firstEntry == 0);
    CHECK(d.entryCount == 6);
    CHECK(d.evidence.source == 3);
    CHECK(p.identities[d.identity].globalRank == 0);
    CHECK(p.identities[d.identity].source == 3);

    REQUIRE(d.pgConfig.size() == 2);
    CHECK(str(p, d.pgConfig[0].name) == "0");
    CHECK(str(p, d.pgConfig[0].desc) == "default_pg");
    CHECK(d.pgConfig[0].ranks == std::vector<std::int32_t> { 0, 1, 2, 3 });
    CHECK(str(p, d.pgConfig[1].name) == "1");
    CHECK(str(p, d.pgConfig[1].desc) == "tp_group");
    CHECK(d.pgConfig[1].ranks == std::vector<std::int32_t> { 0, 1 });
    REQUIRE(d.pgStatus.size() == 2);
    CHECK(str(p, d.pgStatus[0].pg) == "0");
    CHECK(d.pgStatus[0].lastEnqueued == 4);
    CHECK(d.pgStatus[0].lastStarted == 4);
    CHECK(d.pgStatus[0].lastCompleted == 3);

    const auto* e = firstOf(p, EventKind::FlightRecorderDump);
    REQUIRE(e);
    CHECK(str(p, e->text) == "Flight Recorder dump: 6 entries, version 2.10");
    CHECK(str(p, e->detail) == "2.10");
    CHECK(e->identity == d.identity);
    CHECK(e->evidence.source == 3);
    CHECK(e->evidence.line == 0);
    CHECK(e->severity == model::Severity::Info);
    // The newest time in the dump: when rank 0 noticed all_reduce #4 start.
    CHECK(e->time.domain == model::TimeDomain::Utc);
    CHECK(e->time.ns == kT0 + 5'000'000 + 20'000);
    CHECK(e->time.inferred);
}

TEST_CASE(
    "a completed all_reduce entry has every field, times in Utc ns and frames innermost first",
    "[parsers][fr]")
{
    const auto p = pickleDump(fixture("job4/nccl_trace_rank_0"), "nccl_trace_rank_0");
    REQUIRE(p.frEntries.size() == 6);
    const FrEntry& e = p.frEntries[0];
    CHECK(call(p, e).dump == 0);
    CHECK(e.recordId == 0);
    CHECK(str(p, call(p, e).pg) == "0");
    CHECK(str(p, call(p, e).pgDesc) == "default_pg");
    CHECK(e.collectiveSeq == 1);
    CHECK(e.p2pSeq == 0);
    CHECK(str(p, call(p, e).profilingName) == "nccl:all_reduce");
    CHECK(call(p, e).op == OpType::AllReduce);
    CHECK_FALSE(call(p, e).isP2p);
    CHECK(call(p, e).p2pSrc == -1);
    CHECK(str(p, call(p, e).inputSizes) == "[[3, 4]]");
    CHECK(str(p, call(p, e).outputSizes) == "[[3, 4]]");
    CHECK(call(p, e).inputNumel == 12);
    CHECK(call(p, e).outputNumel == 12);
    CHECK(str(p, call(p, e).inputDtypes) == "Float");
    CHECK(e.state() == FrState::Completed);
    CHECK(e.createdNs() == kT0);
    CHECK(e.created().domain == model::TimeDomain::Utc);
    CHECK(e.created().precision == model::TimePrecision::Nanosecond);
    CHECK(e.startedNs() == kT0 + 20'000);
    CHECK(e.completedNs() == kT0 + 350'000);
    CHECK(e.durationMs() == Approx(0.35));
    CHECK(e.retired());
    CHECK(call(p, e).timeoutMs == 600000);
    CHECK(framesText(p, e)
        == "all_reduce@torch/distributed/distributed_c10d.py:2696;wrapper@torch/distributed/"
           "c10d_logger.py:83;"
           "train_step@/home/user/train.py:120;main@/home/user/train.py:200;");
}

TEST_CASE("subgroup, p2p, multi-tensor and in-flight entries of rank 0", "[parsers][fr]")
{
    const auto p = pickleDump(fixture("job4/nccl_trace_rank_0"), "nccl_trace_rank_0");
    REQUIRE(p.frEntries.size() == 6);
    const FrEntry& gather = p.frEntries[2];
    CHECK(str(p, call(p, gather).pg) == "1");
    CHECK(str(p, call(p, gather).pgDesc) == "tp_group");
    CHECK(call(p, gather).op == OpType::AllGatherBase);
    CHECK(gather.collectiveSeq == 1);
    CHECK(call(p, gather).inputNumel == 512);
    CHECK(call(p, gather).outputNumel == 1024);
    CHECK(str(p, call(p, gather).outputDtypes) == "BFloat16");

    const FrEntry& send = p.frEntries[3];
    CHECK(str(p, call(p, send).profilingName) == "nccl:send 0->1");
    CHECK(call(p, send).op == OpType::Send);
    CHECK(call(p, send).isP2p);
    CHECK(call(p, send).p2pSrc == 0);
    CHECK(call(p, send).p2pDst == 1);
    CHECK(send.p2pSeq == 1);
    CHECK(send.collectiveSeq == 2);
    CHECK(str(p, call(p, send).inputDtypes) == "Half");
    CHECK(framesText(p, send).starts_with("send@torch/distributed/distributed_c10d.py:1990;"));

    const FrEntry& big = p.frEntries[4];
    CHECK(str(p, call(p, big).inputSizes) == "[[4096, 1024], [1024]]");
    CHECK(call(p, big).inputNumel == 4096u * 1024u + 1024u);
    CHECK(str(p, call(p, big).inputDtypes) == "Float,Float");

    const FrEntry& stuck = p.frEntries[5];
    CHECK(stuck.collectiveSeq == 4);
    CHECK(stuck.state() == FrState::Started);
    CHECK(stuck.discoveredStarted().valid());
    CHECK_FALSE(stuck.discoveredCompleted().valid());
    CHECK(stuck.durationMs() == -1);
    CHECK_FALSE(stuck.retired());
}

TEST_CASE(
    "recv entries give the peer as source; the rank that skipped the collective ends elsewhere",
    "[parsers][fr]")
{
    const auto r1 = pickleDump(fixture("job4/nccl_trace_rank_1"), "nccl_trace_rank_1");
    REQUIRE(r1.frEntries.size() == 6);
    CHECK(str(r1, call(r1, r1.frEntries[3]).profilingName) == "nccl:recv 1<-0");
    CHECK(call(r1, r1.frEntries[3]).op == OpType::Recv);
    CHECK(call(r1, r1.frEntries[3]).p2pSrc == 0);
    CHECK(call(r1, r1.frEntries[3]).p2pDst == 1);
    CHECK(r1.frEntries[5].state() == FrState::Scheduled);
    CHECK_FALSE(r1.frEntries[5].discoveredStarted().valid());
    CHECK(r1.frDumps[0].globalRank == 1);

    const auto r3 = pickleDump(fixture("job4/nccl_trace_rank_3"), "nccl_trace_rank_3");
    REQUIRE(r3.frEntries.size() == 6);
    const FrEntry& last = r3.frEntries[5];
    CHECK(str(r3, call(r3, last).pg) == "2");
    CHECK(last.collectiveSeq == 2);
    CHECK(framesText(r3, last).find("eval_step@/home/user/train.py:177") != std::string::npos);
    REQUIRE(r3.frDumps[0].pgStatus.size() == 2);
    CHECK(r3.frDumps[0].pgStatus[0].lastEnqueued == 3);
    CHECK(r3.frDumps[0].pgConfig[1].ranks == std::vector<std::int32_t> { 2, 3 });
}

TEST_CASE("every schema version in every pickle protocol maps to the same entries", "[parsers][fr]")
{
    const auto reference = pickleDump(fixture("versions/fr_v2.10_p2.pkl"));
    REQUIRE(reference.frEntries.size() == 6);
    const auto expected = describeAll(reference);
    for (const std::string version : { "2.3", "2.4", "2.5", "2.7", "2.10" }) {
        for (const int protocol : { 2, 3, 4, 5 }) {
            const std::string name
                = "versions/fr_v" + version + "_p" + std::to_string(protocol) + ".pkl";
            INFO(name);
            const auto p = pickleDump(fixture(name));
            CHECK(p.issues.empty());
            REQUIRE(p.frDumps.size() == 1);
            CHECK(str(p, p.frDumps[0].version) == version);
            CHECK(p.frDumps[0].pgConfig.size() == 2);
            CHECK(p.frDumps[0].pgStatus.size() == 2);
            CHECK(describeAll(p) == expected);
        }
    }
    for (const int protocol : { 0, 1 }) {
        const auto p
            = pickleDump(fixture("versions/fr_v2.10_p" + std::to_string(protocol) + ".pkl"));
        INFO("protocol " << protocol);
        CHECK(p.issues.empty());
        CHECK(describeAll(p) == expected);
    }
    // And the same as PyTorch's own writer produced for rank 1.
    CHECK(describeAll(pickleDump(fixture("job4/nccl_trace_rank_1"))) == expected);
}

TEST_CASE(
    "missing optional keys (pg_status, frames, duration, is_p2p) are tolerated", "[parsers][fr]")
{
    const auto p = pickleDump(fixture("versions/fr_minimal.pkl"));
    CHECK(p.issues.empty());
    REQUIRE(p.frDumps.size() == 1);
    CHECK(str(p, p.frDumps[0].version) == "2.3");
    CHECK(p.frDumps[0].pgStatus.empty());
    REQUIRE(p.frEntries.size() == 6);
    for (const auto& e : p.frEntries) {
        CHECK(call(p, e).stack == model::kNoFrIndex);
        CHECK(e.durationMs() == -1);
    }
    // is_p2p absent: derived from the op.
    CHECK(call(p, p.frEntries[3]).isP2p);
    CHECK_FALSE(call(p, p.frEntries[0]).isP2p);
}

TEST_CASE("forty entries of two calls from two call sites keep two calls and two stacks",
    "[parsers][fr]")
{
    const auto p = pickleDump(fixture("repeat/nccl_trace_rank_0"), "nccl_trace_rank_0");
    REQUIRE(p.frEntries.size() == 40);
    CHECK(p.frCalls.size() == 2);
    CHECK(p.frStacks.size() == 2);
    CHECK(p.frStacks.frames.size() == 8);
    CHECK(p.frEntries[0].call != p.frEntries[1].call);
    CHECK(p.frEntries[1].call == p.frEntries[3].call);
    CHECK(call(p, p.frEntries[0]).stack == call(p, p.frEntries[38]).stack);
    CHECK(str(p, call(p, p.frEntries[38]).profilingName) == "nccl:broadcast");
    CHECK(framesText(p, p.frEntries[38]).find("eval_step@/home/user/train.py:177") != std::string::npos);
    CHECK(framesText(p, p.frEntries[39]).find("train_step@/home/user/train.py:120") != std::string::npos);
    // Per-entry fields stay per entry.
    CHECK(p.frEntries[39].collectiveSeq == 40);
    CHECK(p.frEntries[39].createdNs() > p.frEntries[38].createdNs());
}

TEST_CASE("a ring-buffer-wrapped dump starts at a later record id", "[parsers][fr]")
{
    const auto p = pickleDump(fixture("wrapped/nccl_trace_rank_2"), "nccl_trace_rank_2");
    REQUIRE(p.frEntries.size() == 3);
    CHECK(p.frEntries[0].recordId == 3);
    CHECK(str(p, call(p, p.frEntries[0]).profilingName) == "nccl:send 2->3");
    CHECK(p.frDumps[0].globalRank == 2);
}

TEST_CASE("JSON variant: string pg_status, zero discovery times, list process_group, no frames",
    "[parsers][fr]")
{
    const std::string json = fixture("json/nccl_trace_rank_0.json");
    CHECK(parsers::looksLikeFlightRecorderJson(json));
    const auto p = jsonDump(json);
    CHECK(p.issues.empty());
    REQUIRE(p.frDumps.size() == 1);
    const auto& d = p.frDumps[0];
    CHECK(str(p, d.version) == "2.10");
    CHECK(d.globalRank == 0);
    REQUIRE(d.pgStatus.size() == 2);
    CHECK(d.pgStatus[0].lastEnqueued == 4);
    CHECK(d.pgStatus[0].lastCompleted == 3);
    CHECK(d.pgConfig[0].ranks == std::vector<std::int32_t> { 0, 1, 2, 3 });
    REQUIRE(p.frEntries.size() == 6);
    const auto& stuck = p.frEntries[5];
    CHECK(str(p, call(p, stuck).pg) == "0");
    CHECK(str(p, call(p, stuck).pgDesc) == "default_pg");
    CHECK(stuck.state() == FrState::Started);
    CHECK_FALSE(stuck.discoveredCompleted().valid()); // 0 in JSON means "not observed"
    CHECK(call(p, stuck).stack == model::kNoFrIndex);
    CHECK(str(p, call(p, p.frEntries[3]).profilingName) == "nccl:send 0->1");
    CHECK(call(p, p.frEntries[3]).p2pDst == 1);
    CHECK(str(p, call(p, p.frEntries[4]).inputSizes) == "[[4096, 1024], [1024]]");
    CHECK(p.frEntries[0].createdNs() == kT0);
    CHECK(p.frEntries[0].durationMs() == Approx(0.35));
    const auto* e = firstOf(p, EventKind::FlightRecorderDump);
    REQUIRE(e);
    CHECK(str(p, e->text) == "Flight Recorder dump: 6 entries, version 2.10");
}

TEST_CASE("JSON dump without entries is a dump of zero entries", "[parsers][fr]")
{
    // Its pg_status still says collectives were enqueued: the dump cannot show where the
    // rank stopped (issue 21, item 15), which is said, and the matcher is told.
    const auto p = jsonDump(fixture("json/no_entries.json"));
    CHECK(p.issues.count("bad_flight_recorder_dump") == 1);
    REQUIRE(p.frDumps.size() == 1);
    CHECK(p.frDumps[0].entryCount == 0);
    CHECK(p.frDumps[0].pgConfig.size() == 2);
    CHECK(p.frDumps[0].stopUnknown);
    // Without such a status, no entries is nothing recorded: no issue.
    const auto quiet = jsonDump(R"({"version": "2.5", "pg_config": {}, "pg_status": )"
                                R"({"0": {"last_enqueued_collective": "-1"}}})");
    CHECK(quiet.issues.empty());
    REQUIRE(quiet.frDumps.size() == 1);
    CHECK_FALSE(quiet.frDumps[0].stopUnknown);
}

TEST_CASE("JSON content checks tell FR dumps from RAS reports and error files", "[parsers][fr]")
{
    CHECK(parsers::looksLikeFlightRecorderJson(R"({"entries": [], "version": "2.5"})"));
    CHECK(parsers::looksLikeFlightRecorderJson(R"( {"version": "2.10", "pg_config": {}})"));
    CHECK_FALSE(
        parsers::looksLikeFlightRecorderJson(R"({"nccl_version": "2.29.1", "communicators": []})"));
    CHECK_FALSE(parsers::looksLikeFlightRecorderJson(R"({"message": {"message": "x"}})"));
    CHECK_FALSE(parsers::looksLikeFlightRecorderJson(R"(["entries", "version"])"));
    CHECK_FALSE(parsers::looksLikeFlightRecorderJson(""));
}

TEST_CASE("broken and hostile JSON is an import issue", "[parsers][fr]")
{
    auto p = jsonDump("{\"version\": \"2.5\", \"entries\": [");
    CHECK(p.issues.count("bad_flight_recorder_dump") == 1);
    CHECK(p.frDumps.empty());
    p = jsonDump("{\"version\": \"2.5\", \"entries\": " + std::string(100000, '[')
        + std::string(100000, ']') + "}");
    CHECK(p.issues.count("bad_flight_recorder_dump") == 1);
    p = jsonDump(R"({"version": 7, "entries": [1, "x",)"
                 R"( {"record_id": "zz", "state": 3, "input_sizes": "[[1]]"}]})");
    REQUIRE(p.frDumps.size() == 1);
    REQUIRE(p.frEntries.size() == 1);
    CHECK(p.frEntries[0].recordId == -1);
    CHECK(p.frEntries[0].state() == FrState::Unknown);
    CHECK(p.issues.count("bad_flight_recorder_dump") == 1); // the two non-dict entries
}

TEST_CASE("times beyond the entry's compact fields are clamped, flagged and reported",
    "[parsers][fr]")
{
    // Discovered 20 days after creation (beyond the 13 days a gap holds), then one discovered
    // before its creation, then a sane one.
    const auto p = jsonDump(R"({"version": "2.5", "entries": [)"
                            R"({"record_id": 0, "time_created_ns": 1724779239936775119,)"
                            R"( "time_discovered_started_ns": 1726507239936775119},)"
                            R"({"record_id": 1, "time_created_ns": 1724779239936775119,)"
                            R"( "time_discovered_completed_ns": 1724779239936770000},)"
                            R"({"record_id": 2, "time_created_ns": 1724779239936775119,)"
                            R"( "time_discovered_started_ns": 1724779239936795119}]})");
    REQUIRE(p.frEntries.size() == 3);
    CHECK(p.frEntries[0].clamped());
    CHECK(p.frEntries[0].startedNs() == 1724779239936775119 + FrEntry::kMaxGapNs);
    CHECK(p.frEntries[1].clamped());
    CHECK(p.frEntries[1].completedNs() == 1724779239936775119);
    CHECK_FALSE(p.frEntries[2].clamped());
    CHECK(p.frEntries[2].startedNs() == 1724779239936795119);
    REQUIRE(p.issues.count("bad_flight_recorder_dump") == 1);
    CHECK(p.issues.list().front().samples.front().find("2 entries have a time or duration out of range")
        != std::string::npos);
}

TEST_CASE(
    "a truncated dump keeps the entries read completely and says it is truncated", "[parsers][fr]")
{
    const auto full
        = describeAll(pickleDump(fixture("job4/nccl_trace_rank_0"), "nccl_trace_rank_0"));
    std::size_t previous = 0;
    for (const int keep : { 1, 2, 40, 1110, 1665, 1998, 2219 }) {
        INFO("cut at " << keep);
        const auto p = pickleDump(
            fixture("truncated/cut_" + std::to_string(keep) + ".pkl"), "nccl_trace_rank_0");
        REQUIRE(p.issues.count("bad_flight_recorder_dump") == 1);
        const auto samples = p.issues.list().front().samples;
        CHECK_THAT(samples.front(), Catch::Contains("truncated"));
        const auto entries = describeAll(p);
        CHECK(entries.size() >= previous);
        previous = entries.size();
        for (std::size_t i = 0; i < entries.size(); ++i)
            CHECK(entries[i] == full[i]);
        if (!p.frDumps.empty()) {
            CHECK(p.frDumps[0].truncated);
            const auto* e = firstOf(p, EventKind::FlightRecorderDump);
            REQUIRE(e);
            CHECK(e->severity == model::Severity::Warning);
            CHECK_THAT(str(p, e->text), Catch::EndsWith("(incomplete)"));
        }
    }
    // Only the STOP opcode was lost: everything is there.
    CHECK(previous == 6);
    // Cut inside the fourth entry: three whole entries kept, the fourth dropped.
    const auto cut = pickleDump(fixture("truncated/cut_1665.pkl"), "nccl_trace_rank_0");
    CHECK(cut.frEntries.size() == 3);
    CHECK_THAT(
        cut.issues.list().front().samples.front(), Catch::Contains("1 incomplete entries dropped"));
    CHECK(pickleDump(fixture("truncated/cut_1998.pkl"), "nccl_trace_rank_0").frEntries.size() == 4);
}

TEST_CASE(
    "a REDUCE payload inside an entry is refused; the entries before it are kept", "[parsers][fr]")
{
    const auto p = pickleDump(fixture("hostile/reduce_in_entry.pkl"));
    REQUIRE(p.issues.count("bad_flight_recorder_dump") == 1);
    const std::string sample = p.issues.list().front().samples.front();
    CHECK_THAT(sample, Catch::Contains("pickle opcode GLOBAL (posix.system) at byte "));
    CHECK_THAT(
        sample, Catch::Contains("is not allowed: Rankscope never executes code from a dump"));
    CHECK_THAT(sample, Catch::Contains("4 entries read before it were kept"));
    CHECK_THAT(sample, Catch::Contains("1 incomplete entries dropped"));
    REQUIRE(p.frDumps.size() == 1);
    CHECK(p.frDumps[0].truncated);
    REQUIRE(p.frEntries.size() == 4);
    CHECK(call(p, p.frEntries[3]).op == OpType::Recv);
}

TEST_CASE("hostile pickles give an issue, no dump and no crash", "[parsers][fr]")
{
    for (const char* name : { "global_os_system.pkl", "stack_global.pkl", "deep_tuples.pkl",
             "deep_lists.pkl", "deep_marks.pkl", "huge_binunicode.pkl", "huge_binunicode8.pkl",
             "huge_long4.pkl", "memo_far.pkl", "garbage_after_proto.pkl" }) {
        INFO(name);
        const auto p = pickleDump(fixture(std::string("hostile/") + name));
        CHECK(p.issues.count("bad_flight_recorder_dump") == 1);
        CHECK(p.frDumps.empty());
        CHECK(p.frEntries.empty());
        CHECK(p.events.empty());
    }
    const auto p = pickleDump(fixture("hostile/global_os_system.pkl"));
    CHECK(p.issues.list().front().samples.front()
        == "dump/nccl_trace_rank_1: pickle opcode GLOBAL (posix.system) at byte 2 is not allowed: "
           "Rankscope never executes code from a dump");
}

TEST_CASE("a pickle that is not a dump says what it holds", "[parsers][fr]")
{
    // pickle.dumps("hello", protocol=2)
    const auto p = pickleDump(std::string("\x80\x02X\x05\x00\x00\x00helloq\x00.", 15));
    REQUIRE(p.issues.count("bad_flight_recorder_dump") == 1);
    CHECK_THAT(p.issues.list().front().samples.front(),
        Catch::EndsWith("not a Flight Recorder dump: the pickle holds a string"));
    CHECK(p.frDumps.empty());
}

TEST_CASE("a dump without a rank in its name is attributed to the source", "[parsers][fr]")
{
    const auto p = pickleDump(fixture("job4/nccl_trace_rank_0"), "dumps/trace.pkl");
    REQUIRE(p.frDumps.size() == 1);
    CHECK(p.frDumps[0].globalRank == -1);
    CHECK(p.frDumps[0].identity == 0);
}

TEST_CASE(
    "a pickle dump fed through the source builder is routed to the FR reader", "[parsers][fr]")
{
    const std::string bytes = fixture("job4/nccl_trace_rank_2");
    model::Source meta;
    meta.id = 9;
    meta.path = "bundle.tgz!node1/tmp/nccl_trace_rank_2";
    parsers::LoadLimits limits;
    parsers::SourceBuilder builder(meta, limits);
    builder.feed(std::string_view(bytes).substr(0, 100));
    builder.feed(std::string_view(bytes).substr(100));
    const auto p = builder.finish();
    CHECK(p.source.kind == model::SourceKind::FlightRecorderPickle);
    REQUIRE(p.frDumps.size() == 1);
    CHECK(p.frDumps[0].globalRank == 2);
    CHECK(p.frEntries.size() == 6);
    CHECK(p.issues.empty());

    const std::string json = fixture("json/nccl_trace_rank_0.json");
    model::Source jmeta;
    jmeta.id = 10;
    jmeta.path = "bundle/nccl_trace_rank_0.json";
    parsers::SourceBuilder jbuilder(jmeta, limits);
    jbuilder.feed(json);
    const auto j = jbuilder.finish();
    CHECK(j.source.kind == model::SourceKind::FlightRecorderJson);
    CHECK(j.frEntries.size() == 6);
}

TEST_CASE("a pg_config rank list keeps every number that fits a rank, whatever separates them",
    "[parsers][fr]")
{
    // Python prints "[0, 1, 2]"; hand-edited or foreign dumps may not. Numbers beyond a rank
    // (int32) are dropped whole, never wrapped into a small rank.
    const std::string json = R"({"version": "2.10", "pg_config": {"0": {"name": "0",
        "desc": "default_pg", "ranks": "[0, 7,8;9 2147483647, 2147483648, 4294967297, )"
                             R"(99999999999999999999999, 12 x13]"}}, "entries": []})";
    const auto p = jsonDump(json);
    REQUIRE(p.frDumps.size() == 1);
    REQUIRE(p.frDumps[0].pgConfig.size() == 1);
    CHECK(p.frDumps[0].pgConfig[0].ranks
        == std::vector<std::int32_t> { 0, 7, 8, 9, 2147483647, 12, 13 });
}

TEST_CASE("rank lists read once per distinct text are the lists the text gives", "[parsers][fr]")
{
    // Groups of a 512-rank job as pg_config writes them: the world, 8 data-parallel groups
    // (stride 8) and short tensor-parallel pairs, in the order consecutive dumps repeat them.
    auto listText = [](const std::vector<std::int32_t>& ranks) {
        std::string text = "[";
        for (std::size_t i = 0; i < ranks.size(); ++i)
            text += (i ? ", " : "") + std::to_string(ranks[i]);
        return text + "]";
    };
    std::vector<std::vector<std::int32_t>> groups;
    groups.emplace_back();
    for (std::int32_t r = 0; r < 512; ++r)
        groups.back().push_back(r);
    for (std::int32_t dp = 0; dp < 12; ++dp) { // more than the cache keeps
        groups.emplace_back();
        for (std::int32_t r = dp; r < 512; r += 12)
            groups.back().push_back(r);
    }
    groups.push_back({ 6, 7 });
    // The world with its last rank changed: same length, differs in the last digit only.
    groups.push_back(groups.front());
    groups.back().back() = 510;
    parsers::RankTextCache cache;
    for (int round = 0; round < 3; ++round) {
        for (std::size_t g = 0; g < groups.size(); ++g) {
            // Each dump lists the world, its own DP group and its pair.
            for (const std::size_t which :
                { std::size_t(0), g, groups.size() - 2, groups.size() - 1 }) {
                const std::string text = listText(groups[which]);
                INFO("round " << round << " group " << which << " text " << text.substr(0, 40));
                CHECK(cache.ranks(text).toVector() == groups[which]);
            }
        }
    }
    // Separators and numbers beyond int32 are read as without the cache.
    const std::string odd = "[0, 7,8;9 2147483648 " + std::string(200, ' ') + "12 x13]";
    CHECK(cache.ranks(odd).toVector() == std::vector<std::int32_t> { 0, 7, 8, 9, 12, 13 });
    CHECK(cache.ranks(odd).toVector() == std::vector<std::int32_t> { 0, 7, 8, 9, 12, 13 });
    CHECK(cache.ranks("[]").empty());
}

TEST_CASE("input sizes of very many tensors are cut after about 1024 values, consistently",
    "[parsers][fr]")
{
    // 600 tensors of shape [1, 2]: the text (and its numel) stops with the tensor that takes
    // the key past 1024 values (1 + 3 per tensor: the 342nd), the same in every entry.
    std::string sizes = "[";
    for (int t = 0; t < 600; ++t)
        sizes += std::string(t ? ", " : "") + "[1, 2]";
    sizes += "]";
    std::string cut = "[";
    for (int t = 0; t < 342; ++t)
        cut += std::string(t ? ", " : "") + "[1, 2]";
    cut += "]";
    std::string entries;
    for (int i = 0; i < 3; ++i)
        entries += std::string(i ? ", " : "") + R"({"record_id": )" + std::to_string(i)
            + R"(, "collective_seq_id": )" + std::to_string(i + 1)
            + R"(, "profiling_name": "nccl:all_reduce", "input_sizes": )" + sizes
            + R"(, "output_sizes": [[3]], "state": "completed"})";
    const auto p
        = jsonDump(R"({"version": "2.10", "pg_config": {}, "entries": [)" + entries + "]}");
    REQUIRE(p.frEntries.size() == 3);
    for (const auto& e : p.frEntries) {
        CHECK(str(p, call(p, e).inputSizes) == cut);
        CHECK(call(p, e).inputNumel == 342u * 2u);
        CHECK(str(p, call(p, e).outputSizes) == "[[3]]");
        CHECK(call(p, e).outputNumel == 3u);
    }
    CHECK(p.frCalls.size() == 1);
}

namespace {

// Everything mapping put into a ParsedSource, as text (strings resolved).
std::string mapped(const model::ParsedSource& p)
{
    std::ostringstream s;
    for (const auto& e : p.frEntries)
        s << "entry " << e.call << " " << e.recordId << " " << e.collectiveSeq << " " << e.p2pSeq
          << " " << e.createdNs() << " " << e.startedNs() << " " << e.completedNs() << " "
          << e.durationMs() << " " << int(e.state()) << " " << e.retired() << " " << e.clamped()
          << "\n";
    for (const auto& c : p.frCalls)
        s << "call " << str(p, c.pg) << "|" << str(p, c.pgDesc) << "|" << str(p, c.profilingName)
          << "|" << int(c.op) << "|" << c.p2pSrc << "|" << c.p2pDst << "|" << str(p, c.inputSizes)
          << "|" << str(p, c.outputSizes) << "|" << c.inputNumel << "|" << c.outputNumel << "|"
          << str(p, c.inputDtypes) << "|" << str(p, c.outputDtypes) << "|" << c.timeoutMs << "|"
          << c.isP2p << "|" << c.dump << "|" << c.stack << "\n";
    for (std::uint32_t i = 0; i < p.frStacks.size(); ++i) {
        const auto [first, last] = p.frStacks.of(i);
        s << "stack";
        for (const auto* f = first; f != last; ++f)
            s << " " << str(p, f->function) << "@" << str(p, f->file) << ":" << f->line;
        s << "\n";
    }
    for (const auto& i : p.issues.list())
        s << "issue " << i.kind << " " << i.count << "\n";
    return s.str();
}

} // namespace

TEST_CASE("entries the reader copied map exactly as entries read opcode by opcode", "[parsers][fr]")
{
    // The mapper takes a copied entry's call from the entry it was copied from when neither
    // changed since and the numbers feeding the call agree; the traps change entries after
    // copies were made of them, and grow what entries share.
    for (const bool protocol4 : { false, true }) {
        for (int trap = 0; trap < 6; ++trap) {
            rankscope::testing::DumpWriter::Traps traps;
            traps.changeEarlier = trap >= 1;
            traps.growShared = traps.overwriteMemo = traps.reachOutside = trap == 2;
            traps.memoHole = trap == 3; // the second half's changes go through step() alone
            traps.changeLastOnly = trap == 4; // … or through the fast loop alone
            traps.sharedNumber = trap == 5; // a sequence id that is also a tensor dim
            const std::string dump
                = rankscope::testing::DumpWriter(static_cast<std::uint32_t>(31 + trap), protocol4)
                      .write(2500, traps);
            INFO("protocol " << (protocol4 ? 4 : 2) << ", trap " << trap);
            parsers::FlightRecorderScratch scratch;
            auto fast = source("dump/nccl_trace_rank_3");
            parsers::parseFlightRecorderPickle(dump, fast, scratch);
            REQUIRE(scratch.pickle.copies.size() > 300);
            auto reference = source("dump/nccl_trace_rank_3");
            parsers::parseFlightRecorderPickle(
                dump, reference, scratch, parsers::PickleReaderPath::Reference);
            REQUIRE(scratch.pickle.copies.empty());
            REQUIRE(fast.frEntries.size() == 2500);
            CHECK(fast.frCalls.size() > 3);
            const std::string a = mapped(fast);
            const std::string b = mapped(reference);
            if (a != b) {
                const auto [la, lb] = rankscope::testing::firstDifferentLines(a, b);
                INFO("copied:   " << la);
                INFO("in full:  " << lb);
                FAIL("mapping a copied entry differs from mapping it in full");
            }
        }
    }
}
