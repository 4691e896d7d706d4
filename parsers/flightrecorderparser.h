#pragma once
// PyTorch Flight Recorder dumps ([formats 2]): nccl_trace_rank_N, as a pickle (protocols
// 0–5, read by the restricted reader of picklereader.h that never executes anything) or as
// the control-plane JSON. Fills ParsedSource::frDumps / frEntries and one event.
//
//   {"version": "2.5", "pg_config": {"0": {"name": "0", "desc": "default_pg",
//    "ranks": "[0, 1]"}}, "pg_status": {"0": {"last_enqueued_collective": 2, ...}},
//    "entries": [...]}                      → one FrDump (version, pg config, pg status,
//                                             rank from the file name) + a FlightRecorderDump
//                                             event "Flight Recorder dump: N entries, version V"
//   {"record_id": 0, "process_group": ("0", "default_pg"), "collective_seq_id": 1,
//    "profiling_name": "nccl:all_reduce", "input_sizes": [[3, 4]], "state": "completed",
//    "time_created_ns": 1724779239936775119, "frames": [{"name": …}], …}
//                                           → one FrEntry (model/records.h), times Utc ns;
//                                             what it called (pg, op, sizes, dtypes) and its
//                                             frames go to the source's de-duplicated
//                                             FrCall / FrStacks tables, the entry keeps indexes
//   "nccl:send 1->2" / "nccl:recv 3<-0"     → op Send/Recv, p2pSrc/p2pDst (PG-local ranks)
//   GLOBAL/REDUCE/… opcode, truncated file → import issue "bad_flight_recorder_dump"; the
//                                             entries read completely before it are kept
//
// All schema versions 2.3 → 2.10 (and the pre-2.0 bare entry list, "seq_id") are read; a
// missing optional key leaves the field at its "unknown" value.

#include "model/parsedsource.h"
#include "parsers/picklereader.h"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace rankscope::parsers {

// pg_config gives each group's ranks as one string, "[0, 1, …, 4095]" for the default group
// of a 4096-rank job: 24 KB that every dump of the job repeats. The last few long ones read
// are kept with their rank lists; comparing a string to them costs a memcmp, reading it
// again about ten times that (a tenth of reading a 4096-rank job's dumps).
class RankTextCache {
public:
    // The ranks `text` lists, read once per distinct text among the last kSlots.
    const model::FrRankList& ranks(std::string_view text);

private:
    static constexpr std::size_t kSlots = 8; // a few groups of each kind (world, DP, PP, …)
    static constexpr std::size_t kMinLength = 128; // shorter ones read as fast as compared
    struct Slot {
        std::string text;
        model::FrRankList ranks;
        std::uint64_t used = 0;
    };
    std::array<Slot, kSlots> m_slots;
    model::FrRankList m_short;
    std::uint64_t m_clock = 0;
};

// What a thread keeps between the dumps it reads: the reader's buffers and the rank lists.
struct FlightRecorderScratch {
    PickleResult pickle;
    RankTextCache rankTexts;
};

// `bytes` is the whole file. Hostile or broken input is an import issue, never a crash.
void parseFlightRecorderPickle(std::string_view bytes, model::ParsedSource& out);
// Same, reusing `scratch`'s buffers when many dumps are read in a row. `path`: tests read a
// dump both ways (the reference path copies no repeated entries, so all are mapped in full).
void parseFlightRecorderPickle(std::string_view bytes, model::ParsedSource& out,
    FlightRecorderScratch& scratch, PickleReaderPath path = PickleReaderPath::Fast);
void parseFlightRecorderJson(std::string_view bytes, model::ParsedSource& out);
// Cheap content check on a JSON document: has "pg_config" or "entries", and "version".
bool looksLikeFlightRecorderJson(std::string_view head);

// nlohmann's parser recurses once per nesting level: a hostile file of a million "[" must
// be refused before it reaches the library. True when `json` nests at most `limit` deep.
bool jsonNestingWithin(std::string_view json, std::size_t limit);

} // namespace rankscope::parsers
