#pragma once
// Cross-rank matching of Flight Recorder entries ([formats 2.3]–2.4): per
// process group, every rank's entries are lined up by collective_seq_id and p2p sends are
// paired with their receives. Unlike the official analyzer (fr_trace.py), the reference for
// each sequence number is the consensus of the ranks that recorded it, never "the first
// file listed", so the result does not depend on the order of the dumps; matching goes on
// past the first mismatch; and a rank that already deviated is not blamed again for the
// mismatches that follow from it (a rank that stopped at #5 is also missing at #6, #7, …).
//
// Ring buffers: every process keeps its own buffer shared by all its PGs, so the oldest
// visible entry differs per rank. A rank whose buffer starts after #S says nothing about
// #S; it is neither a voter nor a suspect there.

#include "model/bundle.h"
#include "model/records.h"
#include "model/stringpool.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rankscope::model {

// Where one member of a PG stands on collective #S of that PG.
enum class FrRankPosition : std::uint8_t {
    Unknown,
    Completed, // its entry for #S is completed
    Started, // started (TORCH_NCCL_ENABLE_TIMING saw the kernel begin), not completed
    Scheduled, // enqueued, not seen starting; without timing in-flight work stays
               // "scheduled" even while its kernel runs ([formats 2.3])
    StoppedBefore, // its entries on the PG end before #S: it never enqueued #S
    SkippedSeq, // no entry for #S, but entries after it
    NoDump, // a member without a dump, while other members dumped
    BufferDoesNotReach, // its ring buffer starts after #S: no information
};

std::string_view frRankPositionName(FrRankPosition position);

enum class FrMismatchKind : std::uint8_t { MissingRanks, OpType, Size, Dtype, State };

std::string_view frMismatchKindName(FrMismatchKind kind);

struct FrMismatch {
    FrMismatchKind kind = FrMismatchKind::MissingRanks;
    std::int64_t seq = -1;
    std::vector<std::int32_t> agreeing; // the consensus side (MissingRanks: ranks that have #S)
    std::vector<std::int32_t> deviating; // ranks that newly deviate here (MissingRanks: absent)
    bool evenSplit = false; // no side is a strict minority: nobody is named
    std::uint32_t agreeingEntry = kNoFrIndex; // one entry of each side, for explanations
    std::uint32_t deviatingEntry = kNoFrIndex;
};

struct FrRankAtSeq {
    std::int32_t rank = -1;
    FrRankPosition position = FrRankPosition::Unknown;
    std::uint32_t entry = kNoFrIndex; // its entry for #S
    std::uint32_t dump = kNoFrIndex;
    std::int64_t lastSeq = -1; // its newest collective_seq_id on the PG
    std::uint32_t lastEntry = kNoFrIndex; // and that entry (the last thing it enqueued)
};

// A p2p op whose partner the peer never posted (global ranks).
struct FrP2pUnmatched {
    std::int32_t sender = -1;
    std::int32_t receiver = -1;
    bool recvMissing = true; // a send without its recv; false: a recv without its send
    std::uint32_t entry = kNoFrIndex; // the op that has no partner
};

struct FrPgMatch {
    StrId pg = kNoStr;
    StrId desc = kNoStr;
    std::vector<std::int32_t> members; // global ranks, sorted
    bool membersFromConfig = false; // from pg_config; else the ranks that recorded the PG
    std::int64_t stuckSeq = -1; // lowest #S not completed by every rank that can say
    std::uint32_t stuckEntry = kNoFrIndex; // a consensus entry for #S
    std::int64_t stuckCreatedNs = 0; // earliest time_created of #S: which PG hung first
    std::vector<FrRankAtSeq> atStuck; // parallel to members; empty without a stuck #S
    std::vector<FrMismatch> mismatches; // by seq; consequences of earlier ones left out
    std::size_t consequencesSuppressed = 0;
    std::vector<FrP2pUnmatched> unmatchedP2p;
    std::vector<std::int32_t> noDump; // members without a dump while other members dumped

    const FrRankAtSeq* at(std::int32_t rank) const;
};

struct FrMatchResult {
    std::vector<FrPgMatch> pgs; // by PG name, then members
    std::vector<std::int32_t> dumpedRanks;
    std::int32_t worldSize = -1; // given, else the largest pg_config group
    std::vector<std::int32_t> ranksWithoutDump; // below worldSize, no dump
    std::optional<std::size_t> firstStuck; // the PG whose stuck collective was created first
    std::vector<std::uint32_t> dumpOfRank; // dump index per global rank, kNoFrIndex if none
};

struct FrMatchInput {
    std::span<const FrDump> dumps;
    std::span<const FrEntry> entries;
    std::span<const FrCall> calls;
    const StringPool* strings = nullptr; // orders PGs by name; by id without it
    std::span<const std::int32_t> dumpRanks; // global rank per dump; empty: FrDump::globalRank
    std::int32_t worldSize = -1;
};

struct FrMatchOptions {
    // Threads matching independent process groups (and sharing the walk of a large group's
    // members); 1 matches on the calling thread. The result is the same for any count.
    unsigned threads = 1;
};

FrMatchResult matchFlightRecorder(const FrMatchInput& input);
FrMatchResult matchFlightRecorder(const FrMatchInput& input, const FrMatchOptions& options);
// The bundle's dumps, ranks resolved by the bundle (file name or identity).
FrMatchResult matchFlightRecorder(const Bundle& bundle);
FrMatchResult matchFlightRecorder(const Bundle& bundle, const FrMatchOptions& options);

} // namespace rankscope::model
