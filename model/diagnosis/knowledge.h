#pragma once
// The field knowledge the engine attaches to findings: fix steps, verification commands
// and "how to confirm" checklists per root-cause class and per rule. It lives as data in
// resources/knowledge/knowledge.json (loaded by parsers/knowledgeloader) so it can be
// reviewed and extended without touching the rules.
//
// Text may contain placeholders filled per finding: {rank}, {host}, {gpu}, {bus_id},
// {pid}, {peer_rank}, {peer_host}, {peer_ip}, {hca}, {pg}, {seq}, {op}, {hosts}, {ranks},
// {local_rank}, {master_host}. Lines whose placeholders cannot be filled are dropped.

#include "model/diagnosis/verifystep.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

struct KnowledgeEntry {
    std::string title;
    std::string summary; // one paragraph on what the class or rule means (a rule's: its finding's explanation)
    std::string verdict; // a rule's one sentence when its cause is the verdict
    // Title of the one finding that stands for several of this rule ({count}, {ranks}).
    std::string groupTitle;
    std::vector<std::string> fix;
    std::vector<VerifyStep> verify;
    std::vector<std::string> confirm;
    // A rule's sentences by name, which the rule joins as its evidence calls for ("status",
    // "caveat_inside_nccl", "verdict_hung"): the words stay here, the choice stays in the rule.
    std::map<std::string, std::string, std::less<>> phrases;
};

struct Knowledge {
    std::map<std::string, KnowledgeEntry, std::less<>> classes; // by class name
    std::map<std::string, KnowledgeEntry, std::less<>> rules;   // by rule id
    // Advice when the evidence is missing, by key ("flight_recorder", "nccl_debug", ...).
    std::map<std::string, std::string, std::less<>> collectNextTime;
    // Phrases several rules say alike ("Ranks {ranks}"), when a rule has none of that name.
    std::map<std::string, std::string, std::less<>> phrases;

    const KnowledgeEntry* forClass(std::string_view name) const;
    const KnowledgeEntry* forRule(std::string_view id) const;
};

using Placeholders = std::map<std::string, std::string, std::less<>>;

// Fills {name} placeholders; one whose value is unknown stays as written and clears
// *complete. {name?} is optional: empty when its value is absent.
std::string renderTemplate(std::string_view text, const Placeholders& values, bool* complete = nullptr);
std::vector<std::string> renderAll(const std::vector<std::string>& lines, const Placeholders& values);
// A step is kept only if both its command and its note can be filled.
std::vector<VerifyStep> renderAll(const std::vector<VerifyStep>& steps, const Placeholders& values);

} // namespace rankscope::model
