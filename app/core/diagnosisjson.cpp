#include "app/core/diagnosisjson.h"

#include "app/about/version.h"
#include "app/core/findingwalk.h"
#include "app/core/jsonexport.h"

#include <cmath>

namespace rankscope::app {

using nlohmann::json;

namespace {

double rounded(double v)
{
    return std::round(v * 100.0) / 100.0;
}

json intOrNull(std::int64_t v, bool known)
{
    return known ? json(v) : json(nullptr);
}

} // namespace

// The steps with the command apart from its note, for tools that run or copy commands.
json verifySteps(const model::Finding& f)
{
    json steps = json::array();
    for (const auto& step : f.verify)
        steps.push_back({ { "command", step.command }, { "note", step.note } });
    return steps;
}

json verdictJson(const model::Bundle&, const model::Diagnosis& d)
{
    json verdict;
    verdict["status"] = std::string(model::statusName(d.status));
    verdict["root_cause_class"] = std::string(model::rootCauseClassName(d.rootCause));
    verdict["initiating_ranks"] = d.initiatingRanks;
    verdict["stuck_pair"] = d.stuckPair ? json::array({ d.stuckPair->first, d.stuckPair->second }) : json(nullptr);
    verdict["collateral_ranks"] = d.collateralRanks;
    if (d.stuckCollective)
        verdict["stuck_collective"] = { { "process_group", d.stuckCollective->processGroup },
            { "op", std::string(model::torchName(d.stuckCollective->op)) }, { "seq", d.stuckCollective->seq } };
    else
        verdict["stuck_collective"] = nullptr;
    verdict["confidence"] = rounded(d.confidence);
    verdict["summary"] = d.summary;
    return verdict;
}

json diagnosisJson(const model::Bundle& b, const model::Diagnosis& d)
{
    json ranks = json::array();
    for (const auto& v : d.ranks) {
        const model::RankInfo* info = b.rankInfo(v.rank);
        ranks.push_back({ { "rank", v.rank },
            { "host", info && info->host != model::kNoStr ? json(std::string(b.text(info->host))) : json(nullptr) },
            { "state", std::string(model::rankStateName(v.state)) },
            { "last_enqueued", intOrNull(v.lastEnqueued, v.hasProgress) },
            { "last_completed", intOrNull(v.lastCompleted, v.hasProgress) } });
    }
    json findings = json::array();
    for (const WalkedFinding& walked : walkFindings(b, d)) {
        const model::Finding& f = *walked.finding;
        json evidence = json::array();
        for (const WalkedEvidence& e : walked.evidence)
            evidence.push_back({ { "source", e.source ? json(e.source->path) : json(nullptr) },
                { "line", e.line->ref.line }, { "text", e.line->text } });
        findings.push_back({ { "rule", f.rule }, { "title", f.title }, { "ranks", f.ranks },
            { "confidence", rounded(f.confidence) }, { "evidence", evidence }, { "explanation", f.explanation },
            { "fix", f.fix }, { "verify", model::verifyStepLines(f.verify) }, { "verify_steps", verifySteps(f) },
            { "confirm", f.confirm },
            // Added in place (schema stays rankscope.diagnosis/1): frames of the diverging
            // call, innermost first; empty when the finding has none.
            { "code_location", f.codeLocation } });
    }
    json out;
    out["schema"] = "rankscope.diagnosis/1";
    out["tool_version"] = std::string(about::version());
    out["inputs"] = inputsJson(b);
    out["world"] = worldJson(b);
    out["verdict"] = verdictJson(b, d);
    out["ranks"] = ranks;
    out["findings"] = findings;
    out["missing_evidence"] = d.missingEvidence;
    out["import_issues"] = importIssuesJson(b);
    return out;
}

} // namespace rankscope::app
