#include "parsers/errorcatalogue.h"

#include "model/diagnosis/diagnosis.h"

#include <nlohmann/json.hpp>
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <array>
#include <set>

namespace rankscope::parsers {

struct ErrorCatalogue::Compiled {
    Compiled()
        : set(options(), RE2::UNANCHORED)
    {
    }
    static RE2::Options options()
    {
        RE2::Options o;
        o.set_log_errors(false);
        return o;
    }
    RE2::Set set;
    // Pattern index in the set → its entry and its index among the entry's patterns.
    std::vector<std::pair<std::size_t, std::size_t>> entryOfPattern;
};

namespace {

constexpr std::array kFamilies { "nccl_result", "nccl_warn", "ib", "socket", "c10d", "xid", "cuda", "ras", "launcher" };

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// A list of strings, or an error naming the entry and the field.
bool readStrings(const nlohmann::json& j, const char* key, bool required, std::vector<std::string>& out,
    std::string& error)
{
    const auto it = j.find(key);
    if (it == j.end()) {
        if (required)
            error = std::string("has no \"") + key + "\"";
        return !required;
    }
    if (!it->is_array()) {
        error = std::string("\"") + key + "\" is not a list";
        return false;
    }
    for (const auto& v : *it) {
        if (!v.is_string() || v.get_ref<const std::string&>().empty()) {
            error = std::string("\"") + key + "\" holds something that is not a non-empty string";
            return false;
        }
        out.push_back(v.get<std::string>());
    }
    if (required && out.empty()) {
        error = std::string("\"") + key + "\" is empty";
        return false;
    }
    return true;
}

bool readString(const nlohmann::json& j, const char* key, std::string& out, std::string& error)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
        error = std::string("has no \"") + key + "\" text";
        return false;
    }
    out = it->get<std::string>();
    return true;
}

bool readEntry(const nlohmann::json& j, CatalogueEntry& e, std::string& error)
{
    if (!j.is_object()) {
        error = "is not an object";
        return false;
    }
    return readString(j, "id", e.id, error) && readString(j, "family", e.family, error)
        && readString(j, "title", e.title, error) && readString(j, "means", e.means, error)
        && readString(j, "not_means", e.notMeans, error) && readStrings(j, "patterns", true, e.patterns, error)
        && readStrings(j, "examples", true, e.examples, error) && readStrings(j, "classes", true, e.classes, error)
        && readStrings(j, "settings", false, e.settings, error)
        && readStrings(j, "commands", false, e.commands, error) && readStrings(j, "related", false, e.related, error);
}

} // namespace

ErrorCatalogue::ErrorCatalogue()
    : m_compiled(std::make_unique<Compiled>())
{
}
ErrorCatalogue::ErrorCatalogue(ErrorCatalogue&&) noexcept = default;
ErrorCatalogue& ErrorCatalogue::operator=(ErrorCatalogue&&) noexcept = default;
ErrorCatalogue::~ErrorCatalogue() = default;

model::Result<ErrorCatalogue> ErrorCatalogue::load(std::string_view json)
{
    const auto doc = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return model::Error { "the error catalogue is not valid JSON" };
    if (doc.value("schema", "") != "rankscope.error-catalogue/1")
        return model::Error { "the error catalogue has an unknown schema (expected rankscope.error-catalogue/1)" };
    const auto entries = doc.find("entries");
    if (entries == doc.end() || !entries->is_array() || entries->empty())
        return model::Error { "the error catalogue has no entries" };

    ErrorCatalogue c;
    std::set<std::string, std::less<>> ids;
    for (std::size_t i = 0; i < entries->size(); ++i) {
        CatalogueEntry e;
        std::string error;
        if (!readEntry((*entries)[i], e, error))
            return model::Error { "error catalogue entry " + std::to_string(i + 1)
                + ((*entries)[i].is_object() && (*entries)[i].contains("id") && (*entries)[i]["id"].is_string()
                        ? " (" + (*entries)[i]["id"].get<std::string>() + ")"
                        : std::string())
                + " " + error };
        if (!ids.insert(e.id).second)
            return model::Error { "error catalogue: id " + e.id + " is used twice" };
        if (std::find(kFamilies.begin(), kFamilies.end(), e.family) == kFamilies.end())
            return model::Error { "error catalogue: " + e.id + " has an unknown family '" + e.family + "'" };
        for (const auto& cls : e.classes)
            if (!model::rootCauseClassFromName(cls))
                return model::Error { "error catalogue: " + e.id + " names an unknown class '" + cls + "'" };
        for (std::size_t k = 0; k < e.patterns.size(); ++k) {
            const std::string& pattern = e.patterns[k];
            std::string why;
            if (c.m_compiled->set.Add(pattern, &why) < 0)
                return model::Error { "error catalogue: " + e.id + " has a pattern RE2 cannot compile ('" + pattern
                    + "': " + why + ")" };
            c.m_compiled->entryOfPattern.emplace_back(c.m_entries.size(), k);
        }
        c.m_entries.push_back(std::move(e));
    }
    for (const auto& e : c.m_entries)
        for (const auto& r : e.related)
            if (!ids.contains(r) || r == e.id)
                return model::Error { "error catalogue: " + e.id + " is related to '" + r + "', which is no other entry" };
    if (!c.m_compiled->set.Compile())
        return model::Error { "error catalogue: the patterns do not fit in RE2's memory budget" };
    return c;
}

const CatalogueEntry* ErrorCatalogue::find(std::string_view id) const
{
    for (const auto& e : m_entries)
        if (e.id == id)
            return &e;
    return nullptr;
}

std::vector<const CatalogueEntry*> ErrorCatalogue::match(std::string_view line) const
{
    std::vector<int> hits;
    if (!m_compiled->set.Match(line, &hits))
        return {};
    // Per entry, the length of its longest pattern that matched: the more a pattern spells
    // out, the more specific its entry.
    std::vector<std::size_t> weight(m_entries.size(), 0);
    for (int h : hits) {
        const auto [entry, p] = m_compiled->entryOfPattern[static_cast<std::size_t>(h)];
        weight[entry] = std::max(weight[entry], m_entries[entry].patterns[p].size());
    }
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < weight.size(); ++i)
        if (weight[i] > 0)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
    std::vector<const CatalogueEntry*> out;
    for (std::size_t i : order)
        out.push_back(&m_entries[i]);
    return out;
}

std::vector<const CatalogueEntry*> ErrorCatalogue::search(std::string_view words) const
{
    std::vector<std::string> terms;
    const std::string query = lower(words);
    std::size_t at = 0;
    while (at < query.size()) {
        const std::size_t end = query.find_first_of(" \t\n", at);
        const std::string term = query.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (!term.empty())
            terms.push_back(term);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    std::vector<const CatalogueEntry*> out;
    if (terms.empty())
        return out;
    for (const auto& e : m_entries) {
        const std::string text = lower(e.id + " " + e.title + " " + e.means + " " + e.notMeans);
        if (std::all_of(terms.begin(), terms.end(), [&](const std::string& t) { return text.find(t) != std::string::npos; }))
            out.push_back(&e);
    }
    return out;
}

} // namespace rankscope::parsers
