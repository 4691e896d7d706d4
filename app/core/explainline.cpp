#include "app/core/explainline.h"

#include "app/core/sanitizetext.h"
#include "app/core/textwrap.h"
#include "resources/embeddedresources.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace rankscope::app {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

void addOnce(std::vector<const parsers::CatalogueEntry*>& out, const parsers::CatalogueEntry* e)
{
    if (std::find(out.begin(), out.end(), e) == out.end())
        out.push_back(e);
}

std::string_view byName(ExplainedBy by)
{
    switch (by) {
    case ExplainedBy::Pattern:
        return "line";
    case ExplainedBy::Id:
        return "id";
    case ExplainedBy::Words:
        return "words";
    case ExplainedBy::Nothing:
        break;
    }
    return "nothing";
}

void list(std::ostringstream& out, const char* heading, const std::vector<std::string>& items)
{
    if (items.empty())
        return;
    out << "  " << heading << ":\n";
    for (const auto& item : items)
        out << "    " << sanitizeText(item) << "\n";
}

} // namespace

const parsers::ErrorCatalogue* builtInErrorCatalogue()
{
    static const auto loaded = parsers::ErrorCatalogue::load(resources::errorCatalogueJson());
    return loaded.ok() ? &loaded.value() : nullptr;
}

Explanation explain(const parsers::ErrorCatalogue& catalogue, std::string_view text)
{
    Explanation x;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        for (const auto* e : catalogue.match(text.substr(at, end - at)))
            addOnce(x.entries, e);
        at = end + 1;
    }
    if (!x.entries.empty()) {
        x.by = ExplainedBy::Pattern;
        return x;
    }
    if (const auto* e = catalogue.find(trimmed(text))) {
        x.by = ExplainedBy::Id;
        x.entries.push_back(e);
        return x;
    }
    x.entries = catalogue.search(text);
    x.by = x.entries.empty() ? ExplainedBy::Nothing : ExplainedBy::Words;
    return x;
}

std::string explanationText(const Explanation& x)
{
    std::ostringstream out;
    if (x.entries.empty()) {
        out << "Nothing in the error catalogue matches this text. `rankscope-cli explain --list` lists what it "
               "knows; a whole log line (with its NCCL WARN, Xid or exception text) matches best.\n";
        return out.str();
    }
    if (x.by == ExplainedBy::Words)
        out << "No line matched; entries that mention these words:\n\n";
    for (std::size_t i = 0; i < x.entries.size(); ++i) {
        const auto& e = *x.entries[i];
        if (i)
            out << "\n";
        out << sanitizeText(e.title) << "  [" << e.id << "]\n";
        out << "  Means:\n    " << wrap(sanitizeText(e.means), 92, "    ") << "\n";
        out << "  Does not mean:\n    " << wrap(sanitizeText(e.notMeans), 92, "    ") << "\n";
        std::string classes;
        for (const auto& c : e.classes)
            classes += (classes.empty() ? "" : ", ") + c;
        out << "  Points to: " << classes << "\n";
        list(out, "Settings that tell the causes apart", e.settings);
        list(out, "Commands", e.commands);
        if (!e.related.empty()) {
            std::string related;
            for (const auto& r : e.related)
                related += (related.empty() ? "" : ", ") + r;
            out << "  Related: " << related << "\n";
        }
    }
    return out.str();
}

nlohmann::json explanationJson(const Explanation& x)
{
    nlohmann::json entries = nlohmann::json::array();
    for (const auto* e : x.entries)
        entries.push_back({ { "id", e->id }, { "family", e->family }, { "title", e->title }, { "means", e->means },
            { "not_means", e->notMeans }, { "classes", e->classes }, { "settings", e->settings },
            { "commands", e->commands }, { "related", e->related } });
    return { { "schema", "rankscope.explain/1" }, { "matched_by", byName(x.by) }, { "entries", entries } };
}

std::string catalogueListText(const parsers::ErrorCatalogue& catalogue)
{
    std::map<std::string, std::vector<const parsers::CatalogueEntry*>> byFamily;
    for (const auto& e : catalogue.entries())
        byFamily[e.family].push_back(&e);
    std::ostringstream out;
    for (const auto& [family, entries] : byFamily) {
        out << family << ":\n";
        for (const auto* e : entries)
            out << "  " << e->id << std::string(e->id.size() < 36 ? 36 - e->id.size() : 1, ' ') << e->title << "\n";
    }
    return out.str();
}

} // namespace rankscope::app
