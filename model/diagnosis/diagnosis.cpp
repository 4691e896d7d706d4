#include "model/diagnosis/diagnosis.h"

#include <array>

namespace rankscope::model {

namespace {
constexpr std::array<std::pair<RootCauseClass, std::string_view>, 10> kClassNames = { {
    { RootCauseClass::HardwareFault, "hardware_fault" },
    { RootCauseClass::NetworkPair, "network_pair" },
    { RootCauseClass::CollectiveMismatch, "collective_mismatch" },
    { RootCauseClass::ResourceExhaustion, "resource_exhaustion" },
    { RootCauseClass::RankCrashed, "rank_crashed" },
    { RootCauseClass::StragglerStall, "straggler_stall" },
    { RootCauseClass::InitBootstrap, "init_bootstrap" },
    { RootCauseClass::Configuration, "configuration" },
    { RootCauseClass::Unknown, "unknown" },
    { RootCauseClass::None, "none" },
} };
} // namespace

std::string_view statusName(DiagnosisStatus status)
{
    switch (status) {
    case DiagnosisStatus::HangDiagnosed:
        return "hang_diagnosed";
    case DiagnosisStatus::NoHangFound:
        return "no_hang_found";
    case DiagnosisStatus::Inconclusive:
        return "inconclusive";
    }
    return "inconclusive";
}

std::string_view rootCauseClassName(RootCauseClass cls)
{
    for (const auto& [c, name] : kClassNames)
        if (c == cls)
            return name;
    return "unknown";
}

std::optional<RootCauseClass> rootCauseClassFromName(std::string_view name)
{
    for (const auto& [c, n] : kClassNames)
        if (n == name)
            return c;
    return std::nullopt;
}

std::string_view rankStateName(RankState state)
{
    switch (state) {
    case RankState::NeverEntered:
        return "never_entered";
    case RankState::StuckInCollective:
        return "stuck_in_collective";
    case RankState::Completed:
        return "completed";
    case RankState::Crashed:
        return "crashed";
    case RankState::Frozen:
        return "frozen";
    case RankState::Straggling:
        return "straggling";
    case RankState::CollateralTimeout:
        return "collateral_timeout";
    case RankState::TornDown:
        return "torn_down";
    case RankState::Healthy:
        return "healthy";
    case RankState::Unknown:
        return "unknown";
    }
    return "unknown";
}

} // namespace rankscope::model
