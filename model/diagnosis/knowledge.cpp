#include "model/diagnosis/knowledge.h"

namespace rankscope::model {

const KnowledgeEntry* Knowledge::forClass(std::string_view name) const
{
    auto it = classes.find(name);
    return it == classes.end() ? nullptr : &it->second;
}

const KnowledgeEntry* Knowledge::forRule(std::string_view id) const
{
    auto it = rules.find(id);
    return it == rules.end() ? nullptr : &it->second;
}

std::string renderTemplate(std::string_view text, const Placeholders& values, bool* complete)
{
    std::string out;
    out.reserve(text.size());
    bool ok = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i + 1);
            if (close != std::string_view::npos) {
                std::string_view name = text.substr(i + 1, close - i - 1);
                // {name?} is optional: a phrase part the rule adds only when its evidence
                // calls for it, nothing when the value is absent or empty.
                const bool optional = !name.empty() && name.back() == '?';
                if (optional)
                    name.remove_suffix(1);
                bool identifier = !name.empty();
                for (char c : name)
                    identifier = identifier && ((c >= 'a' && c <= 'z') || c == '_');
                if (identifier) {
                    auto it = values.find(name);
                    if (it != values.end() && !it->second.empty()) {
                        out += it->second;
                    } else if (!optional) {
                        ok = false;
                        out += text.substr(i, close - i + 1);
                    }
                    i = close;
                    continue;
                }
            }
        }
        out += text[i];
    }
    if (complete)
        *complete = ok;
    return out;
}

std::vector<std::string> renderAll(const std::vector<std::string>& lines, const Placeholders& values)
{
    std::vector<std::string> out;
    for (const auto& line : lines) {
        bool complete = true;
        std::string rendered = renderTemplate(line, values, &complete);
        if (complete)
            out.push_back(std::move(rendered));
    }
    return out;
}

std::vector<VerifyStep> renderAll(const std::vector<VerifyStep>& steps, const Placeholders& values)
{
    std::vector<VerifyStep> out;
    for (const auto& step : steps) {
        bool commandComplete = true;
        bool noteComplete = true;
        VerifyStep rendered { renderTemplate(step.command, values, &commandComplete),
            renderTemplate(step.note, values, &noteComplete) };
        if (commandComplete && noteComplete)
            out.push_back(std::move(rendered));
    }
    return out;
}

} // namespace rankscope::model
