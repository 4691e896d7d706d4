#include "model/diagnosis/findinggroups.h"

#include "model/ranklist.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace rankscope::model {

namespace {

Finding folded(std::vector<Finding*> members, const Knowledge& knowledge)
{
    Finding out = *members.front();
    std::vector<std::int32_t> ranks;
    for (const Finding* f : members) {
        ranks.insert(ranks.end(), f->ranks.begin(), f->ranks.end());
        out.confidence = std::max(out.confidence, f->confidence);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    out.ranks = ranks;

    // One evidence line from each member first (they usually differ by rank), then the rest.
    out.evidence.clear();
    for (std::size_t round = 0; out.evidence.size() < kFoldedEvidenceLines; ++round) {
        bool any = false;
        for (const Finding* f : members) {
            if (round < f->evidence.size() && out.evidence.size() < kFoldedEvidenceLines) {
                out.evidence.push_back(f->evidence[round]);
                any = true;
            }
        }
        if (!any)
            break;
    }

    const std::string count = std::to_string(members.size());
    const std::string rankText = formatRanks(ranks);
    const KnowledgeEntry* entry = knowledge.forRule(out.rule);
    bool complete = false;
    if (entry && !entry->groupTitle.empty()) {
        std::string title = renderTemplate(entry->groupTitle, { { "count", count }, { "ranks", rankText } }, &complete);
        if (complete)
            out.title = std::move(title);
    }
    if (!complete)
        out.title += " (and " + std::to_string(members.size() - 1) + " more like it)";
    out.explanation += " The same finding holds for " + count + " ranks in all: " + rankText + ".";
    return out;
}

} // namespace

void foldRepeatedFindings(std::vector<Finding>& findings, const Knowledge& knowledge, bool firstIsVerdict)
{
    const std::size_t from = firstIsVerdict ? 1 : 0;
    std::map<std::string_view, std::vector<std::size_t>> byRule;
    for (std::size_t i = from; i < findings.size(); ++i)
        byRule[findings[i].rule].push_back(i);

    std::vector<bool> drop(findings.size(), false);
    std::vector<std::pair<std::size_t, Finding>> replacements;
    for (const auto& [rule, indices] : byRule) {
        if (indices.size() < kFindingsFoldedFrom)
            continue;
        std::vector<Finding*> members;
        for (std::size_t i : indices) {
            members.push_back(&findings[i]);
            drop[i] = true;
        }
        replacements.emplace_back(indices.front(), folded(std::move(members), knowledge));
    }
    if (replacements.empty())
        return;
    for (auto& [at, finding] : replacements) {
        findings[at] = std::move(finding);
        drop[at] = false;
    }
    std::vector<Finding> kept;
    kept.reserve(findings.size());
    for (std::size_t i = 0; i < findings.size(); ++i)
        if (!drop[i])
            kept.push_back(std::move(findings[i]));
    findings = std::move(kept);
}

} // namespace rankscope::model
