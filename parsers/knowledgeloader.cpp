#include "parsers/knowledgeloader.h"

#include <nlohmann/json.hpp>

namespace rankscope::parsers {

namespace {

std::vector<std::string> stringList(const nlohmann::json& entry, const char* key)
{
    std::vector<std::string> out;
    if (auto it = entry.find(key); it != entry.end() && it->is_array())
        for (const auto& v : *it)
            if (v.is_string())
                out.push_back(v.get<std::string>());
    return out;
}

// "verify" steps are objects {"command": ..., "note": ...}; either may be absent, not both.
std::vector<model::VerifyStep> stepList(const nlohmann::json& entry)
{
    std::vector<model::VerifyStep> out;
    auto field = [](const nlohmann::json& step, const char* key) {
        auto it = step.find(key);
        return it != step.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (auto it = entry.find("verify"); it != entry.end() && it->is_array())
        for (const auto& step : *it)
            if (step.is_object()) {
                model::VerifyStep s { field(step, "command"), field(step, "note") };
                if (!s.command.empty() || !s.note.empty())
                    out.push_back(std::move(s));
            }
    return out;
}

std::map<std::string, std::string, std::less<>> phraseMap(const nlohmann::json& owner)
{
    std::map<std::string, std::string, std::less<>> out;
    if (auto it = owner.find("phrases"); it != owner.end() && it->is_object())
        for (const auto& [name, text] : it->items())
            if (text.is_string())
                out.emplace(name, text.get<std::string>());
    return out;
}

model::KnowledgeEntry entryFrom(const nlohmann::json& j)
{
    model::KnowledgeEntry e;
    if (j.contains("title") && j["title"].is_string())
        e.title = j["title"].get<std::string>();
    if (j.contains("summary") && j["summary"].is_string())
        e.summary = j["summary"].get<std::string>();
    if (j.contains("group_title") && j["group_title"].is_string())
        e.groupTitle = j["group_title"].get<std::string>();
    if (j.contains("verdict") && j["verdict"].is_string())
        e.verdict = j["verdict"].get<std::string>();
    e.fix = stringList(j, "fix");
    e.verify = stepList(j);
    e.confirm = stringList(j, "confirm");
    e.phrases = phraseMap(j);
    return e;
}

} // namespace

model::Result<model::Knowledge> loadKnowledge(std::string_view json)
{
    const auto doc = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return model::Error { "the knowledge base is not valid JSON" };
    if (doc.value("schema", "") != "rankscope.knowledge/2")
        return model::Error { "the knowledge base has an unknown schema" };
    model::Knowledge k;
    if (auto it = doc.find("classes"); it != doc.end() && it->is_object())
        for (const auto& [name, entry] : it->items())
            if (entry.is_object())
                k.classes.emplace(name, entryFrom(entry));
    if (auto it = doc.find("rules"); it != doc.end() && it->is_object())
        for (const auto& [name, entry] : it->items())
            if (entry.is_object())
                k.rules.emplace(name, entryFrom(entry));
    if (auto it = doc.find("collect_next_time"); it != doc.end() && it->is_object())
        for (const auto& [name, text] : it->items())
            if (text.is_string())
                k.collectNextTime.emplace(name, text.get<std::string>());
    k.phrases = phraseMap(doc);
    return k;
}

} // namespace rankscope::parsers
