// PairEvidence's Flight Recorder p2p metric (issue 4 heatmap "p2p send/recv left unmatched",
// issue 6 "the heatmap gets p2p pairs"): PG-local src/dst become global ranks through the
// dump's pg_config.

#include "model/pairevidence.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

namespace {

struct P2pBundle {
    Bundle b;
    StrId pipe;

    P2pBundle()
    {
        b.ranks.resize(8);
        for (std::int32_t r = 0; r < 8; ++r)
            b.ranks[static_cast<std::size_t>(r)].rank = r;
        b.world.worldSize = 8;
        pipe = b.strings.intern("3");
    }

    // One dump of `rank` with the pipeline group {4, 6} as PG "3" and one p2p entry.
    void dump(std::int32_t rank, OpType op, std::int32_t src, std::int32_t dst, FrState state)
    {
        FrCall call;
        call.pg = pipe;
        call.op = op;
        call.isP2p = true;
        call.p2pSrc = src;
        call.p2pDst = dst;
        call.dump = static_cast<std::uint32_t>(b.frDumps.size());
        const auto callIndex = static_cast<std::uint32_t>(b.frCalls.size());
        b.frCalls.push_back(call);
        FrDump d;
        d.globalRank = rank;
        d.evidence.source = static_cast<SourceId>(rank);
        d.pgConfig.push_back({ pipe, kNoStr, { 4, 6 } });
        d.firstEntry = static_cast<std::uint32_t>(b.frEntries.size());
        d.entryCount = 1;
        FrEntry e;
        e.call = callIndex;
        e.p2pSeq = 1;
        e.setState(state);
        b.frEntries.push_back(e);
        b.frDumps.push_back(d);
    }
};

float valueOf(const PairEvidence& p, std::int32_t from, std::int32_t to, PairMetric m)
{
    const PairCell* c = p.cell(from, to);
    return c ? c->value[static_cast<std::size_t>(m)] : 0.0f;
}

} // namespace

TEST_CASE("FR send and recv that never completed link the recorder to its peer's global rank",
    "[model][pairs][fr]")
{
    P2pBundle f;
    f.dump(4, OpType::Send, 0, 1, FrState::Started); // "nccl:send 0->1" on PG 3: 4 → 6
    f.dump(6, OpType::Recv, 0, 1, FrState::Scheduled); // "nccl:recv 1<-0": 6 waits on 4
    const PairEvidence p = PairEvidence::build(f.b, Diagnosis {});

    CHECK(valueOf(p, 4, 6, PairMetric::P2pUnmatched) == 1.0f);
    CHECK(valueOf(p, 6, 4, PairMetric::P2pUnmatched) == 1.0f);
    CHECK(valueOf(p, 0, 1, PairMetric::P2pUnmatched) == 0.0f); // PG-local ranks are not global
    CHECK(valueOf(p, 4, 6, PairMetric::Combined) > 0.0f);
    CHECK(p.maxValue(PairMetric::P2pUnmatched) == 1.0f);
    const PairCell* cell = p.cell(4, 6);
    REQUIRE(cell);
    REQUIRE(cell->evidence.size() == 1);
    CHECK(cell->evidence.front().source == 4); // the sender's dump
}

TEST_CASE("completed FR p2p ops and collectives add no p2p evidence", "[model][pairs][fr]")
{
    P2pBundle f;
    f.dump(4, OpType::Send, 0, 1, FrState::Completed);
    f.dump(6, OpType::Recv, 0, 1, FrState::Completed);
    const PairEvidence p = PairEvidence::build(f.b, Diagnosis {});
    CHECK(p.maxValue(PairMetric::P2pUnmatched) == 0.0f);
    CHECK(p.cells().empty());
}

TEST_CASE("a p2p peer outside the dump's group membership is not guessed", "[model][pairs][fr]")
{
    P2pBundle f;
    f.dump(4, OpType::Send, 0, 5, FrState::Started); // dst 5 of a two-rank group: corrupt
    const PairEvidence p = PairEvidence::build(f.b, Diagnosis {});
    CHECK(p.cells().empty());
}
