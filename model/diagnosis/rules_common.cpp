#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <type_traits>
#include <map>

namespace rankscope::model {

OpType RuleContext::stuckOp() const
{
    const PgFacts* pg = stuckPg();
    if (!pg)
        return OpType::Unknown;
    std::map<OpType, int> votes;
    for (const auto* p : bundle.progressOf(pg->pg))
        if (p->timeoutSeq == pg->stuckSeq && p->timeoutOp != OpType::Unknown)
            ++votes[p->timeoutOp];
    OpType best = OpType::Unknown;
    int bestVotes = 0;
    for (const auto& [op, n] : votes)
        if (n > bestVotes) {
            best = op;
            bestVotes = n;
        }
    return best;
}

std::string RuleContext::pgLabel(StrId pg) const
{
    if (pg == kNoStr)
        return sayShared("pg_unknown");
    std::string out = "PG " + std::string(bundle.text(pg));
    if (const ProcessGroup* g = bundle.processGroup(pg); g && g->desc != kNoStr)
        out += " (" + std::string(bundle.text(g->desc)) + ")";
    return out;
}

Placeholders RuleContext::placeholdersFor(std::int32_t rank) const
{
    Placeholders p;
    const RankInfo* info = bundle.rankInfo(rank);
    if (!info)
        return p;
    p["rank"] = std::to_string(rank);
    if (info->host != kNoStr)
        p["host"] = std::string(bundle.text(info->host));
    if (info->cudaDev >= 0)
        p["gpu"] = std::to_string(info->cudaDev);
    else if (info->localRank >= 0)
        p["gpu"] = std::to_string(info->localRank);
    if (info->localRank >= 0)
        p["local_rank"] = std::to_string(info->localRank);
    if (info->busId != kNoStr)
        p["bus_id"] = std::string(bundle.text(info->busId));
    if (info->pid >= 0)
        p["pid"] = std::to_string(info->pid);
    if (const PgFacts* pg = stuckPg()) {
        p["pg"] = std::string(bundle.text(pg->pg));
        if (pg->stuckSeq >= 0)
            p["seq"] = std::to_string(pg->stuckSeq);
        if (stuckOp() != OpType::Unknown)
            p["op"] = std::string(torchName(stuckOp()));
    }
    return p;
}

namespace {

std::string missingPhrase(std::string_view rule, std::string_view phrase)
{
    return "{missing phrase " + std::string(rule) + "/" + std::string(phrase) + "}";
}

} // namespace

std::string RuleContext::say(std::string_view rule, std::string_view phrase, const Placeholders& values) const
{
    if (const KnowledgeEntry* entry = knowledge.forRule(rule))
        if (auto it = entry->phrases.find(phrase); it != entry->phrases.end())
            return renderTemplate(it->second, values);
    return missingPhrase(rule, phrase);
}

std::string RuleContext::sayShared(std::string_view phrase, const Placeholders& values) const
{
    if (auto it = knowledge.phrases.find(phrase); it != knowledge.phrases.end())
        return renderTemplate(it->second, values);
    return missingPhrase("shared", phrase);
}

std::string RuleContext::ranksSubject(const std::vector<std::int32_t>& ranks) const
{
    return ranks.size() == 1 ? rankLabel(ranks.front()) : sayShared("ranks_subject", { { "ranks", formatRanks(ranks) } });
}

std::string RuleContext::ranksObject(const std::vector<std::int32_t>& ranks) const
{
    return ranks.size() == 1 ? rankLabel(ranks.front()) : sayShared("ranks_object", { { "ranks", formatRanks(ranks) } });
}

namespace {

// One text field of a rule's entry, filled; the missing-phrase marker when it is empty.
std::string entryText(const Knowledge& knowledge, std::string_view rule, std::string KnowledgeEntry::*field,
    std::string_view name, const Placeholders& values)
{
    const KnowledgeEntry* entry = knowledge.forRule(rule);
    return entry && !(entry->*field).empty() ? renderTemplate(entry->*field, values) : missingPhrase(rule, name);
}

} // namespace

std::string RuleContext::title(std::string_view rule, const Placeholders& values) const
{
    return entryText(knowledge, rule, &KnowledgeEntry::title, "title", values);
}

std::string RuleContext::explain(std::string_view rule, const Placeholders& values) const
{
    return entryText(knowledge, rule, &KnowledgeEntry::summary, "summary", values);
}

std::string RuleContext::verdict(std::string_view rule, const Placeholders& values) const
{
    return entryText(knowledge, rule, &KnowledgeEntry::verdict, "verdict", values);
}

Finding& RuleOutput::add(const RuleContext& ctx, std::string rule, std::optional<RootCauseClass> suggests,
    const Placeholders& values)
{
    Finding& f = findings.emplace_back();
    f.rule = std::move(rule);
    f.suggests = suggests;
    const KnowledgeEntry* ruleEntry = ctx.knowledge.forRule(f.rule);
    const KnowledgeEntry* classEntry
        = suggests ? ctx.knowledge.forClass(rootCauseClassName(*suggests)) : nullptr;
    if (ruleEntry && !ruleEntry->title.empty())
        f.title = renderTemplate(ruleEntry->title, values);
    // The rule's own list when it has one, else its class's.
    auto pick = [&](auto member) {
        using List = std::remove_cvref_t<decltype(ruleEntry->*member)>;
        if (ruleEntry && !(ruleEntry->*member).empty())
            return ruleEntry->*member;
        return classEntry ? classEntry->*member : List {};
    };
    f.fix = renderAll(pick(&KnowledgeEntry::fix), values);
    f.verify = renderAll(pick(&KnowledgeEntry::verify), values);
    f.confirm = renderAll(pick(&KnowledgeEntry::confirm), values);
    return f;
}

Proposal& RuleOutput::propose(RootCauseClass cls, std::vector<std::int32_t> initiating, double confidence,
    Precedence precedence, std::string summary)
{
    Proposal& p = proposals.emplace_back(precedence);
    p.rootCause = cls;
    p.initiating = std::move(initiating);
    p.confidence = confidence;
    p.finding = findings.empty() ? 0 : findings.size() - 1;
    p.summary = std::move(summary);
    return p;
}

EvidenceLine evidenceOf(const Bundle& b, std::uint32_t eventIndex)
{
    const Event& e = b.events[eventIndex];
    std::string text(b.text(e.text));
    if (e.detail != kNoStr && (e.kind == EventKind::TorchAsyncNcclError || e.kind == EventKind::TorchNcclApiError))
        text += " | Last error: " + std::string(b.text(e.detail));
    return { e.evidence, std::move(text) };
}

EvidenceLine evidenceOf(const Bundle&, const EvidenceRef& ref, std::string text)
{
    return { ref, std::move(text) };
}

} // namespace rankscope::model
