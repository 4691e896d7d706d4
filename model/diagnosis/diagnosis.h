#pragma once
// What the diagnosis engine concludes for a bundle (the rankscope.diagnosis/1 contract):
// a status, a root-cause class, the initiating rank(s) or stuck pair, the collateral ranks,
// the stuck collective, per-rank states and the findings that justify all of it.

#include "model/diagnosis/verifystep.h"
#include "model/evidence.h"
#include "model/optype.h"
#include "model/stringpool.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope::model {

enum class DiagnosisStatus : std::uint8_t { HangDiagnosed, NoHangFound, Inconclusive };

enum class RootCauseClass : std::uint8_t {
    HardwareFault,
    NetworkPair,
    CollectiveMismatch,
    ResourceExhaustion,
    RankCrashed,
    StragglerStall,
    InitBootstrap,
    Configuration,
    Unknown,
    None,
};

enum class RankState : std::uint8_t {
    NeverEntered,      // last enqueued < S: never reached the stuck collective
    StuckInCollective, // entered S and could not finish it (its GPU, link or NCCL is stuck)
    Completed,         // finished S
    Crashed,           // traceback, fatal signal, exit code, or vanished
    Frozen,            // whole process stalled: all counters -1 and the heartbeat fired
    Straggling,        // alive but busy elsewhere (data loading, checkpoint I/O, sleep)
    CollateralTimeout, // entered and timed out waiting for others
    TornDown,          // killed by its launcher after another rank failed
    Healthy,
    Unknown,
};

std::string_view statusName(DiagnosisStatus status);
std::string_view rootCauseClassName(RootCauseClass cls);
std::string_view rankStateName(RankState state);
std::optional<RootCauseClass> rootCauseClassFromName(std::string_view name);

// The words a user reads for each value above (the names are the JSON's and never change
// with the wording). Views, reports and `rankscope-cli why` all take their words from here.
std::string_view statusWords(DiagnosisStatus status);     // "No hang found"
std::string_view rootCauseClassWords(RootCauseClass cls); // a badge: "straggler stall"
std::string_view rootCauseClassTitle(RootCauseClass cls); // a headline: "A rank never reached…"
std::string_view rankStateWords(RankState state);         // "timed out waiting"
std::string_view rankStateMeaning(RankState state);       // one clause: "entered the collective…"
// What the verdict calls an initiating rank in `state` (the ends of a failed link are link
// ends, not stragglers).
std::string_view initiatorWords(RootCauseClass cls, RankState state);
// What a legend or a label calls the rank(s) the verdict names, whatever their state:
// "initiating rank", or "ends of the failed link" for a network pair.
std::string_view initiatorsWords(RootCauseClass cls);
// One of those ranks, in a label about it alone: "initiating rank", or "one end of the failed
// link".
std::string_view initiatorRoleWords(RootCauseClass cls);
// The hosts of those ranks, in a legend: "initiating host", or "hosts of the failed link".
std::string_view initiatorHostsWords(RootCauseClass cls);

struct EvidenceLine {
    EvidenceRef ref;
    std::string text;
};

struct Finding {
    std::string rule;  // stable rule id, e.g. "straggler.never_entered"
    std::string title; // one line
    std::vector<std::int32_t> ranks;
    double confidence = 0.0;
    std::vector<EvidenceLine> evidence;
    std::string explanation;
    std::vector<std::string> fix;
    std::vector<VerifyStep> verify;
    std::vector<std::string> confirm; // "how to confirm" checklist of the class
    std::optional<RootCauseClass> suggests; // the class this finding argues for, if any
    // Where the program issued the call the finding is about: Python frames "file:line in
    // func", innermost first (from the Flight Recorder entry's stack).
    std::vector<std::string> codeLocation;
};

struct StuckCollective {
    std::string processGroup; // PG key as the logs print it ("0")
    OpType op = OpType::Unknown;
    std::int64_t seq = -1;
};

struct RankVerdict {
    std::int32_t rank = -1;
    RankState state = RankState::Unknown;
    std::int64_t lastEnqueued = -1; // on the stuck collective's process group; -1 unknown
    std::int64_t lastCompleted = -1;
    bool hasProgress = false;
};

struct Diagnosis {
    DiagnosisStatus status = DiagnosisStatus::Inconclusive;
    RootCauseClass rootCause = RootCauseClass::Unknown;
    std::vector<std::int32_t> initiatingRanks;
    std::optional<std::pair<std::int32_t, std::int32_t>> stuckPair;
    std::vector<std::int32_t> collateralRanks;
    std::optional<StuckCollective> stuckCollective;
    double confidence = 0.0;
    std::string summary;
    std::vector<RankVerdict> ranks;
    std::vector<Finding> findings;      // the verdict's finding first, then supporting, then others
    std::vector<std::string> missingEvidence; // what to collect next time (inconclusive)
};

// The tail the engine appends to Diagnosis::summary for readers of the JSON and the text
// report (" Class: straggler_stall, confidence 0.87."), and the summary without it, for views
// that show the class and the confidence as badges beside the sentence.
std::string summaryClassTail(RootCauseClass cls, double confidence);
std::string_view summarySentence(const Diagnosis& d);

} // namespace rankscope::model
