#include "tools/evaluation/truthcheck.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace rankscope::evaluation {

namespace {

// Real-corpus class names → diagnosis classes.
constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kClassNames = { {
    { "hardware_fault_rank", "hardware_fault" },
    { "network_pair", "network_pair" },
    { "collective_mismatch_desync", "collective_mismatch" },
    { "buffer_or_memory_exhaustion", "resource_exhaustion" },
    { "rank_crashed_early", "rank_crashed" },
    { "straggler_or_dataloader_stall", "straggler_stall" },
    { "init_bootstrap_hang", "init_bootstrap" },
    { "config_or_env", "configuration" },
    { "unknown", "unknown" },
    { "healthy_no_hang", "none" },
    { "none", "none" },
    { "healthy", "none" },
    { "configuration", "configuration" },
} };

std::string diagnosisClass(const std::string& name)
{
    for (const auto& [from, to] : kClassNames)
        if (name == from)
            return std::string(to);
    return name; // already a diagnosis class name
}

} // namespace

std::optional<Truth> parseTruth(const nlohmann::json& t)
{
    if (!t.is_object() || !t.contains("root_cause_class") || !t["root_cause_class"].is_string())
        return std::nullopt;
    Truth truth;
    truth.rootCause = diagnosisClass(t["root_cause_class"].get<std::string>());
    if (t.contains("initiating_ranks") && t["initiating_ranks"].is_array()) {
        std::vector<int> ranks;
        for (const auto& r : t["initiating_ranks"])
            if (r.is_number_integer())
                ranks.push_back(r.get<int>());
        truth.initiating = ranks;
    }
    truth.healthy = truth.rootCause == "none";
    return truth;
}

TruthScore judgeAgainstTruth(const Truth& truth, const nlohmann::json& diagnosis)
{
    TruthScore s;
    const auto& v = diagnosis.contains("verdict") ? diagnosis["verdict"] : nlohmann::json::object();
    const std::string status = v.value("status", std::string());
    const std::string cls = v.value("root_cause_class", std::string());
    std::vector<int> named;
    if (v.contains("initiating_ranks") && v["initiating_ranks"].is_array())
        for (const auto& r : v["initiating_ranks"])
            if (r.is_number_integer())
                named.push_back(r.get<int>());
    s.got = status + "/" + cls + " ranks=[";
    for (std::size_t i = 0; i < named.size() && i < 4; ++i)
        s.got += (i ? "," : "") + std::to_string(named[i]);
    s.got += "]";

    if (truth.healthy) {
        s.right = s.rankOk = s.classOk = status == "no_hang_found" && named.empty();
        s.falseClaim = !named.empty();
        return s;
    }
    const bool classKnown = truth.rootCause != "unknown";
    s.classOk = classKnown ? cls == truth.rootCause : (cls == "unknown" || status == "inconclusive");
    if (!truth.initiating) {
        s.rankOk = named.empty();
        s.falseClaim = !named.empty();
    } else {
        const auto& t = *truth.initiating;
        s.rankOk = !named.empty() && std::find(t.begin(), t.end(), named.front()) != t.end();
        s.falseClaim = !named.empty()
            && std::none_of(named.begin(), named.end(), [&](int r) { return std::find(t.begin(), t.end(), r) != t.end(); });
    }
    s.right = s.rankOk && (classKnown ? s.classOk : true);
    return s;
}

} // namespace rankscope::evaluation
