// BundleBuilder merging Flight Recorder sources one at a time, as the loader does while its
// threads are still parsing: the entry array is sized from the loader's guess
// (expectFrEntries) instead of doubling, a wrong guess still gives every entry, and the
// bundle is the same as merging everything at the end.

#include "model/bundlebuilder.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rankscope::model;

namespace {

// One rank's dump: `entries` records over `calls` distinct calls, named by rank.
ParsedSource dumpSource(std::int32_t rank, std::uint32_t entries, std::uint32_t calls = 3)
{
    Source src;
    src.path = "dumps/nccl_trace_rank_" + std::to_string(rank);
    src.kind = SourceKind::FlightRecorderPickle;
    src.pathIdentity.globalRank = rank;
    ParsedSource p(std::move(src));
    FrDump d;
    d.globalRank = rank;
    d.version = p.intern("2.10");
    d.firstEntry = 0;
    d.entryCount = entries;
    p.frDumps.push_back(d);
    for (std::uint32_t c = 0; c < calls; ++c) {
        FrCall call;
        call.pg = p.intern("0");
        call.profilingName = p.intern(c % 2 ? "nccl:broadcast" : "nccl:all_reduce");
        call.inputSizes = call.outputSizes = p.intern("[[" + std::to_string(1024 * (c + 1)) + "]]");
        call.dump = 0;
        p.frCalls.push_back(call);
    }
    for (std::uint32_t i = 0; i < entries; ++i) {
        FrEntry e;
        e.recordId = static_cast<std::int32_t>(i);
        e.collectiveSeq = i + 1;
        e.call = i % calls;
        e.setTimes(1'700'000'000'000'000'000 + rank * 1000 + static_cast<std::int64_t>(i) * 1'000'000, 0, 0);
        e.setState(FrState::Completed);
        p.frEntries.push_back(e);
    }
    return p;
}

// Every merged entry as "rank seq op sizes", in bundle order.
std::vector<std::string> entriesOf(const Bundle& b)
{
    std::vector<std::string> out;
    for (const FrEntry& e : b.frEntries) {
        const FrCall& c = b.frCalls[e.call];
        out.push_back(std::to_string(b.frDumps[c.dump].globalRank) + " "
            + std::to_string(e.collectiveSeq) + " " + std::string(b.strings.view(c.profilingName))
            + " " + std::string(b.strings.view(c.inputSizes)) + " " + std::to_string(e.createdNs()));
    }
    return out;
}

constexpr std::int32_t kRanks = 64;
constexpr std::uint32_t kEntries = 500;

} // namespace

// Adds every rank's dump one at a time; the number of times the entry array moved.
std::size_t addAll(BundleBuilder& builder, std::size_t expected)
{
    std::size_t moves = 0;
    const FrEntry* data = nullptr;
    builder.expectFrEntries(expected);
    for (std::int32_t r = 0; r < kRanks; ++r) {
        builder.add(dumpSource(r, kEntries));
        if (builder.merged().frEntries.data() != data)
            ++moves;
        data = builder.merged().frEntries.data();
    }
    return moves;
}

std::vector<std::string> mergedAtOnce()
{
    std::vector<ParsedSource> all;
    for (std::int32_t r = 0; r < kRanks; ++r)
        all.push_back(dumpSource(r, kEntries));
    return entriesOf(buildBundle(std::move(all), {}));
}

constexpr std::size_t kAll = std::size_t(kRanks) * kEntries;

TEST_CASE("Flight Recorder dumps merged one by one fill one array when the guess is right",
    "[bundlebuilder]")
{
    BundleBuilder builder;
    CHECK(addAll(builder, kAll) == 1);
    const Bundle b = std::move(builder).finish({});
    REQUIRE(b.frEntries.size() == kAll);
    CHECK(b.frEntries.capacity() == kAll);
    CHECK(entriesOf(b) == mergedAtOnce());
    std::uint32_t next = 0;
    for (const FrDump& d : b.frDumps) {
        CHECK(d.firstEntry == next);
        CHECK(d.entryCount == kEntries);
        next += d.entryCount;
    }
}

TEST_CASE("a guess too low grows the entry array by half at least, a guess too high is only "
          "address space",
    "[bundlebuilder]")
{
    SECTION("a quarter of what comes: log-many moves, not one per dump")
    {
        BundleBuilder builder;
        const std::size_t moves = addAll(builder, kAll / 4);
        CHECK(moves >= 2);
        CHECK(moves <= 5); // 1/4 → ×1.5 per move: 4 moves reach the whole
        const Bundle b = std::move(builder).finish({});
        CHECK(entriesOf(b) == mergedAtOnce());
    }
    SECTION("no guess at all")
    {
        BundleBuilder builder;
        CHECK(addAll(builder, 0) <= 16);
        CHECK(entriesOf(std::move(builder).finish({})) == mergedAtOnce());
    }
    SECTION("far more than there is memory for: the guess is capped, nothing throws")
    {
        // 2^32 entries of 32 bytes, 137 GB: the builder reserves at most a quarter of the
        // machine's memory (address space only, never written).
        BundleBuilder builder;
        std::size_t moves = 0;
        REQUIRE_NOTHROW(moves = addAll(builder, std::size_t(1) << 32));
        CHECK(moves >= 1);
        CHECK(builder.merged().frEntries.capacity() < (std::size_t(1) << 32));
        CHECK(entriesOf(std::move(builder).finish({})) == mergedAtOnce());
    }
}

TEST_CASE("sources without Flight Recorder entries leave the guess for the dumps", "[bundlebuilder]")
{
    BundleBuilder builder;
    builder.expectFrEntries(kAll);
    Source log;
    log.path = "rank0.log";
    builder.add(ParsedSource(log));
    CHECK(builder.merged().frEntries.capacity() == 0);
    for (std::int32_t r = 0; r < kRanks; ++r)
        builder.add(dumpSource(r, kEntries));
    CHECK(builder.merged().frEntries.capacity() == kAll);
}
