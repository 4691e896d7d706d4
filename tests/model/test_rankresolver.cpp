#include "model/rankresolver.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rankscope::model;

namespace {

// A bundle built by hand: sources with what their paths say, identities with what their
// lines say, and PyTorch status lines that state a rank in process group 0.
class BundleSketch {
public:
    SourceId source(const std::string& path, PathIdentity pathIdentity = {})
    {
        Source s;
        s.id = static_cast<SourceId>(b.sources.size());
        s.path = path;
        s.pathIdentity = std::move(pathIdentity);
        b.sources.push_back(std::move(s));
        return b.sources.back().id;
    }

    std::uint32_t identity(SourceId source, RawIdentity id = {})
    {
        id.source = source;
        b.identities.push_back(id);
        return static_cast<std::uint32_t>(b.identities.size() - 1);
    }

    StrId host(const std::string& name) { return b.strings.intern(name); }

    // "[PG ID 0 … Rank N] … last enqueued …": a process stating its rank in the world group.
    void statusLine(std::uint32_t identity, std::int32_t pgRank, std::uint32_t line)
    {
        Event e;
        e.kind = EventKind::TorchWatchdogStatus;
        e.identity = identity;
        e.pg = b.strings.intern("0");
        e.pgRank = pgRank;
        e.evidence = { b.identities[identity].source, line, line * 100 };
        b.events.push_back(e);
    }

    Bundle b;
};

std::string issueSamples(const Bundle& b, std::string_view kind)
{
    std::string out;
    for (const auto& issue : b.issues.list())
        if (issue.kind == kind)
            for (const auto& s : issue.samples)
                out += s + "\n";
    return out;
}

} // namespace

TEST_CASE("identities of one process share the rank one of them states", "[model][ranks]")
{
    BundleSketch s;
    // A whole-job file (not one process): [default3]: lines from node-1 and node-2, where only
    // one line of node-1's worker 3 also carries its global rank.
    PathIdentity job;
    job.combined = true;
    const SourceId combined = s.source("slurm-77.out", job);
    const StrId node1 = s.host("node-1.cluster.local");
    const StrId node2 = s.host("node-2");
    const auto local3 = s.identity(combined, { .localRank = 3, .host = node1 });
    const auto local3Stated = s.identity(combined, { .globalRank = 11, .localRank = 3, .host = node1 });
    const auto otherNode = s.identity(combined, { .localRank = 3, .host = node2 });
    // rank5.log: its bare identity carries the file name's rank; NCCL lines in it name the
    // process (host, pid), which a node-level NCCL file elsewhere also logs under.
    PathIdentity rank5;
    rank5.globalRank = 5;
    const SourceId file5 = s.source("rank5.log", rank5);
    s.identity(file5);
    s.identity(file5, { .pid = 4242, .host = node2 });
    const SourceId nodeLog = s.source("node-2/nccl.log", job);
    const auto sameProcess = s.identity(nodeLog, { .pid = 4242, .host = s.host("node-2.cluster.local") });
    const auto stranger = s.identity(nodeLog, { .pid = 4243, .host = node2 });

    resolveRanks(s.b);

    CHECK(s.b.rankOfIdentity(local3Stated) == 11);
    CHECK(s.b.rankOfIdentity(local3) == 11); // same file, host and local rank
    CHECK(s.b.rankOfIdentity(otherNode) == -1); // [default3]: on another node is another worker
    CHECK(s.b.rankOfIdentity(sameProcess) == 5); // same host (short name) and pid
    CHECK(s.b.rankOfIdentity(stranger) == -1);
    REQUIRE(s.b.ranks.size() == 12);
    CHECK(s.b.text(s.b.ranks[11].host) == "node-1");
    CHECK(s.b.text(s.b.ranks[5].host) == "node-2");
    CHECK(s.b.ranks[5].pid == 4242);
    CHECK(s.b.ranks[5].sources == std::vector<SourceId> { file5, nodeLog });
    REQUIRE(s.b.world.hosts.size() == 2);
    CHECK(s.b.text(s.b.world.hosts[0]) == "node-1");
    CHECK(s.b.text(s.b.world.hosts[1]) == "node-2");
    CHECK(s.b.issues.count("rank_conflict") == 0);
}

TEST_CASE("repeated statements count once and disagreements are named", "[model][ranks]")
{
    BundleSketch s;
    // Process A says "Rank 4" on a hundred lines and once "Rank 6": at equal strength no rank
    // is chosen and both are named.
    const SourceId a = s.source("a.log");
    const auto idA = s.identity(a, { .pid = 10, .host = s.host("n1") });
    for (std::uint32_t line = 1; line <= 100; ++line)
        s.statusLine(idA, 4, line);
    s.statusLine(idA, 6, 101);
    // Process B's file is named rank2.log but every line says "[rank3]:" and "Rank 3": the
    // explicit prefix wins and the file name's disagreement is reported once.
    PathIdentity rank2;
    rank2.globalRank = 2;
    const SourceId bSource = s.source("rank2.log", rank2);
    s.identity(bSource);
    const auto idB = s.identity(bSource, { .globalRank = 3 });
    for (std::uint32_t line = 1; line <= 50; ++line)
        s.statusLine(idB, 3, line);

    resolveRanks(s.b);

    CHECK(s.b.rankOfIdentity(idA) == -1);
    CHECK(s.b.rankOfIdentity(idB) == 3);
    const std::string conflicts = issueSamples(s.b, "rank_conflict");
    CHECK_THAT(conflicts, Catch::Contains("a.log: conflicting") && Catch::Contains("rank 4 from the rank in process group 0 vs rank 6"));
    CHECK_THAT(conflicts, Catch::Contains("rank2.log: rank 3 from a [rankN] prefix disagrees with rank 2 from the file name; kept rank 3"));
    CHECK(s.b.issues.count("rank_conflict") == 2);
}

TEST_CASE(
    "a rank of 2147483647 with no world size is refused, not given a table row", "[model][ranks]")
{
    BundleSketch s;
    // rank2147483647.log holding one "[rank2147483647]:" watchdog line: the highest rank plus
    // one does not fit the rank type, so no rank table can be sized by it.
    PathIdentity named;
    named.globalRank = 2147483647;
    const SourceId file = s.source("rank2147483647.log", named);
    s.identity(file);
    const auto id = s.identity(file, { .globalRank = 2147483647 });
    s.statusLine(id, 2147483647, 1);

    resolveRanks(s.b);

    CHECK(s.b.rankOfIdentity(id) == -1);
    CHECK(s.b.ranks.empty());
    CHECK(s.b.world.ranksSeen.empty());
    CHECK_THAT(issueSamples(s.b, "rank_out_of_range"), Catch::Contains("rank 2147483647"));
}

TEST_CASE("world sizes and ranks far beyond the writers a bundle shows are not believed",
    "[model][ranks]")
{
    BundleSketch s;
    // Two processes' lines, claiming 10^7 ranks in an NCCL init line and 999999999 in their
    // default group's options, and a third naming itself rank 999999999: a table per claimed
    // rank took 9.7 GB at 10^7 and could not be allocated beyond.
    const SourceId file = s.source("train.out");
    const auto a = s.identity(file, { .globalRank = 3 });
    const auto b = s.identity(file, { .globalRank = 999999999 });
    CommInit init;
    init.identity = a;
    init.evidence = { file, 1, 0 };
    init.commId = s.host("0x9b63f1ac43bdb30e");
    init.commRank = 3;
    init.nranks = 10'000'000;
    s.b.commInits.push_back(init);
    ProcessGroupOptions options;
    options.identity = a;
    options.evidence = { file, 2, 100 };
    options.pg = s.host("0");
    options.size = 999'999'999;
    options.globalRank = 3;
    s.b.pgOptions.push_back(options);
    s.statusLine(a, 3, 3);
    s.statusLine(b, 999999999, 4);

    resolveRanks(s.b);

    CHECK_FALSE(s.b.world.worldSize);
    CHECK(s.b.ranks.size() == 4);
    CHECK(s.b.rankOfIdentity(a) == 3);
    CHECK(s.b.rankOfIdentity(b) == -1);
    const std::string sizes = issueSamples(s.b, "world_size_not_believed");
    CHECK_THAT(sizes,
        Catch::Contains(
            "train.out:1: an NCCL communicator gives a world size of 10000000, not believed"));
    CHECK_THAT(sizes,
        Catch::Contains(
            "train.out:2: the default group's options line gives a world size of 999999999"));
    CHECK_THAT(
        issueSamples(s.b, "rank_out_of_range"), Catch::Contains("rank 999999999, not believed"));
}

TEST_CASE("a 16k-rank world stated by the logs of two of its ranks is believed", "[model][ranks]")
{
    BundleSketch s;
    const SourceId file = s.source("train.out");
    for (std::int32_t rank : { 0, 16383 }) {
        const auto id = s.identity(file, { .globalRank = rank });
        ProcessGroupOptions options;
        options.identity = id;
        options.pg = s.host("0");
        options.size = 16384;
        options.globalRank = rank;
        s.b.pgOptions.push_back(options);
        s.statusLine(id, rank, static_cast<std::uint32_t>(rank + 1));
    }

    resolveRanks(s.b);

    REQUIRE(s.b.world.worldSize);
    CHECK(*s.b.world.worldSize == 16384);
    CHECK(s.b.ranks.size() == 16384);
    CHECK(s.b.world.ranksSeen == std::vector<std::int32_t> { 0, 16383 });
    CHECK(s.b.world.ranksMissing.size() == 16382);
    CHECK(s.b.issues.count("world_size_not_believed") == 0);
}
