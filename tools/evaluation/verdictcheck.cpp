#include "tools/evaluation/verdictcheck.h"

#include <algorithm>
#include <set>

namespace rankscope::evaluation {

using nlohmann::json;

namespace {

std::vector<int> intList(const json& j)
{
    std::vector<int> out;
    if (j.is_array())
        for (const auto& v : j)
            if (v.is_number_integer())
                out.push_back(v.get<int>());
    std::sort(out.begin(), out.end());
    return out;
}

std::string listText(const std::vector<int>& v)
{
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? "," : "") + std::to_string(v[i]);
    return out + "]";
}

bool contains(const std::vector<std::string>& list, const std::string& value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

} // namespace

std::optional<ExpectedVerdict> parseExpected(const json& e, std::string name)
{
    if (!e.is_object() || !e.contains("verdict") || !e["verdict"].is_object())
        return std::nullopt;
    const json& v = e["verdict"];
    ExpectedVerdict x;
    x.name = std::move(name);
    x.status = v.value("status", "");
    x.rootCause = v.value("root_cause_class", "");
    x.initiating = intList(v.value("initiating_ranks", json::array()));
    if (v.contains("stuck_pair") && v["stuck_pair"].is_array() && v["stuck_pair"].size() == 2) {
        auto p = intList(v["stuck_pair"]);
        x.stuckPair = std::make_pair(p[0], p[1]);
    }
    if (v.contains("collateral_ranks") && v["collateral_ranks"].is_array())
        x.collateral = intList(v["collateral_ranks"]);
    if (v.contains("stuck_collective"))
        x.stuckCollective = v["stuck_collective"];
    x.acceptStatus = { x.status };
    x.acceptClass = { x.rootCause };
    if (e.contains("accept") && e["accept"].is_object()) {
        const json& a = e["accept"];
        if (a.contains("status") && a["status"].is_array())
            x.acceptStatus = a["status"].get<std::vector<std::string>>();
        if (a.contains("root_cause_class") && a["root_cause_class"].is_array())
            x.acceptClass = a["root_cause_class"].get<std::vector<std::string>>();
        x.initiatingExact = a.value("initiating_ranks_exact", true);
        // Real cases do not check the stuck collective unless they say so.
        if (!a.value("check_stuck_collective", false))
            x.stuckCollective.reset();
    }
    return x;
}

VerdictScore scoreDiagnosis(const ExpectedVerdict& x, const json& d)
{
    VerdictScore s;
    const json v = d.value("verdict", json::object());
    const std::string status = v.value("status", "");
    const std::string cls = v.value("root_cause_class", "");
    const std::vector<int> initiating = intList(v.value("initiating_ranks", json::array()));
    s.statusOk = contains(x.acceptStatus, status);
    if (!s.statusOk)
        s.problems.push_back("status " + status + ", expected " + x.status);
    // Declining (inconclusive, class unknown, nobody named) is an accepted answer wherever the
    // case accepts "inconclusive" at all.
    const bool honestDecline = status == "inconclusive" && cls == "unknown" && initiating.empty()
        && contains(x.acceptStatus, "inconclusive");
    s.classOk = contains(x.acceptClass, cls) || honestDecline;
    if (!s.classOk)
        s.problems.push_back("class " + cls + ", expected " + x.rootCause);
    // Real cases whose thread establishes the class but not the rank check the class only.
    s.initiatingOk = !x.initiatingExact || initiating == x.initiating;
    if (!s.initiatingOk)
        s.problems.push_back("initiating " + listText(initiating) + ", expected " + listText(x.initiating));
    s.falseClaim = x.initiatingExact && x.initiating.empty() && !initiating.empty();
    if (x.stuckPair) {
        s.pairExpected = true;
        const json& p = v.value("stuck_pair", json());
        auto got = intList(p);
        s.pairOk = got.size() == 2 && got[0] == x.stuckPair->first && got[1] == x.stuckPair->second;
        if (!s.pairOk)
            s.problems.push_back("stuck pair " + (p.is_null() ? std::string("null") : listText(got)) + ", expected ["
                + std::to_string(x.stuckPair->first) + "," + std::to_string(x.stuckPair->second) + "]");
    }
    if (x.stuckCollective) {
        const json got = v.value("stuck_collective", json());
        if (x.stuckCollective->is_null()) {
            s.stuckCollectiveOk = got.is_null();
        } else {
            s.stuckCollectiveOk = got.is_object() && got.value("seq", -1) == x.stuckCollective->value("seq", -2)
                && got.value("process_group", "") == x.stuckCollective->value("process_group", "?");
        }
        if (!s.stuckCollectiveOk)
            s.problems.push_back("stuck collective " + got.dump() + ", expected " + x.stuckCollective->dump());
    }
    if (x.collateral) {
        const std::vector<int> got = intList(v.value("collateral_ranks", json::array()));
        std::set<int> expected(x.collateral->begin(), x.collateral->end());
        s.collateralExpected = expected.size();
        s.collateralPredicted = got.size();
        for (int r : got)
            if (expected.count(r))
                ++s.collateralTruePositives;
    }
    return s;
}

} // namespace rankscope::evaluation
