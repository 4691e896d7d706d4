#include "model/diagnosis/diagnosis.h"

#include <array>
#include <cstdio>

namespace rankscope::model {

namespace {

// One row per value: the machine id (JSON, SARIF, CLI --format json) and the words a user
// reads. Every function below looks its answer up here, so an id and its words cannot drift.
struct StatusRow {
    DiagnosisStatus status;
    std::string_view id;
    std::string_view words;
};
constexpr std::array<StatusRow, 3> kStatuses = { {
    { DiagnosisStatus::HangDiagnosed, "hang_diagnosed", "Hang diagnosed" },
    { DiagnosisStatus::NoHangFound, "no_hang_found", "No hang found" },
    { DiagnosisStatus::Inconclusive, "inconclusive", "Inconclusive" },
} };

struct ClassRow {
    RootCauseClass cls;
    std::string_view id;
    std::string_view words; // a badge: a few words
    std::string_view title; // a report's headline
};
constexpr std::array<ClassRow, 10> kClasses = { {
    { RootCauseClass::HardwareFault, "hardware_fault", "hardware fault",
        "GPU or node hardware fault" },
    { RootCauseClass::NetworkPair, "network_pair", "network link",
        "Network link between two ranks" },
    { RootCauseClass::CollectiveMismatch, "collective_mismatch", "mismatched collectives",
        "Ranks called different collectives" },
    { RootCauseClass::ResourceExhaustion, "resource_exhaustion", "resource exhausted",
        "A resource ran out (GPU or host memory, shared memory)" },
    { RootCauseClass::RankCrashed, "rank_crashed", "rank crashed",
        "A rank crashed and the others waited for it" },
    { RootCauseClass::StragglerStall, "straggler_stall", "straggler stall",
        "A rank never reached the collective" },
    { RootCauseClass::InitBootstrap, "init_bootstrap", "setup failed",
        "Communicator setup or rendezvous failed" },
    { RootCauseClass::Configuration, "configuration", "configuration",
        "Configuration problem" },
    { RootCauseClass::Unknown, "unknown", "cause unknown", "Cause not determined" },
    { RootCauseClass::None, "none", "no hang", "No hang" },
} };

struct RankStateRow {
    RankState state;
    std::string_view id;
    std::string_view words;   // a chip, a table cell, a legend
    std::string_view meaning; // one clause for `why` and tooltips
};
constexpr std::array<RankStateRow, 10> kRankStates = { {
    { RankState::NeverEntered, "never_entered", "never entered",
        "never reached the stuck collective: it was elsewhere when the others waited" },
    { RankState::StuckInCollective, "stuck_in_collective", "stuck in collective",
        "entered the stuck collective and could not finish it: its GPU, link or NCCL is stuck" },
    { RankState::Completed, "completed", "completed", "finished the stuck collective" },
    { RankState::Crashed, "crashed", "crashed",
        "crashed: a traceback, a fatal signal or an exit code" },
    { RankState::Frozen, "frozen", "frozen",
        "stalled as a whole process: no collective enqueued and its heartbeat monitor fired" },
    { RankState::Straggling, "straggling", "straggling",
        "alive but busy elsewhere (data loading, checkpoint I/O, evaluation) while the others "
        "waited" },
    { RankState::CollateralTimeout, "collateral_timeout", "timed out waiting",
        "entered the collective and timed out waiting for the others: a victim, not a cause" },
    { RankState::TornDown, "torn_down", "torn down",
        "killed by its launcher after another rank failed" },
    { RankState::Healthy, "healthy", "healthy", "showed nothing wrong" },
    { RankState::Unknown, "unknown", "unknown", "not known: its lines do not say where it was" },
} };

const StatusRow& rowOf(DiagnosisStatus status)
{
    for (const auto& row : kStatuses)
        if (row.status == status)
            return row;
    return kStatuses.back(); // inconclusive
}

const ClassRow& rowOf(RootCauseClass cls)
{
    for (const auto& row : kClasses)
        if (row.cls == cls)
            return row;
    return kClasses[8]; // unknown
}

const RankStateRow& rowOf(RankState state)
{
    for (const auto& row : kRankStates)
        if (row.state == state)
            return row;
    return kRankStates.back(); // unknown
}

} // namespace

std::string_view statusName(DiagnosisStatus status)
{
    return rowOf(status).id;
}

std::string_view statusWords(DiagnosisStatus status)
{
    return rowOf(status).words;
}

std::string_view rootCauseClassName(RootCauseClass cls)
{
    return rowOf(cls).id;
}

std::string_view rootCauseClassWords(RootCauseClass cls)
{
    return rowOf(cls).words;
}

std::string_view rootCauseClassTitle(RootCauseClass cls)
{
    return rowOf(cls).title;
}

std::optional<RootCauseClass> rootCauseClassFromName(std::string_view name)
{
    for (const auto& row : kClasses)
        if (row.id == name)
            return row.cls;
    return std::nullopt;
}

std::string_view rankStateName(RankState state)
{
    return rowOf(state).id;
}

std::string_view rankStateWords(RankState state)
{
    return rowOf(state).words;
}

std::string_view rankStateMeaning(RankState state)
{
    return rowOf(state).meaning;
}

namespace {
// The two ends of a failed link are named for the link: whatever else a rank was doing
// (a py-spy dump may show it loading data), that is not why the verdict names it.
constexpr std::string_view kLinkEndWords = "one end of the failed link";
constexpr std::string_view kLinkEndsWords = "ends of the failed link";
constexpr std::string_view kLinkHostsWords = "hosts of the failed link";
} // namespace

std::string_view initiatorWords(RootCauseClass cls, RankState state)
{
    if (cls == RootCauseClass::NetworkPair)
        return kLinkEndWords;
    return rankStateWords(state);
}

std::string_view initiatorsWords(RootCauseClass cls)
{
    if (cls == RootCauseClass::NetworkPair)
        return kLinkEndsWords;
    return "initiating rank";
}

std::string_view initiatorRoleWords(RootCauseClass cls)
{
    if (cls == RootCauseClass::NetworkPair)
        return kLinkEndWords;
    return "initiating rank";
}

std::string_view initiatorHostsWords(RootCauseClass cls)
{
    if (cls == RootCauseClass::NetworkPair)
        return kLinkHostsWords;
    return "initiating host";
}

namespace {
constexpr std::string_view kClassTailStart = " Class: ";
constexpr std::string_view kClassTailConfidence = ", confidence ";
} // namespace

std::string summaryClassTail(RootCauseClass cls, double confidence)
{
    char number[16];
    std::snprintf(number, sizeof number, "%.2f", confidence);
    return std::string(kClassTailStart) + std::string(rootCauseClassName(cls))
        + std::string(kClassTailConfidence) + number + ".";
}

std::string_view summarySentence(const Diagnosis& d)
{
    const std::string_view summary = d.summary;
    const std::string head = std::string(kClassTailStart) + std::string(rootCauseClassName(d.rootCause))
        + std::string(kClassTailConfidence);
    const std::size_t at = summary.rfind(head);
    if (at == std::string_view::npos || summary.back() != '.'
        || summary.find(' ', at + head.size()) != std::string_view::npos)
        return summary;
    return summary.substr(0, at);
}

} // namespace rankscope::model
