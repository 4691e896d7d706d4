#include "model/importissues.h"

#include "model/secretmasker.h"

namespace rankscope::model {

void ImportIssues::add(std::string_view kind, std::string sample)
{
    auto it = m_issues.find(kind);
    if (it == m_issues.end())
        it = m_issues.emplace(std::string(kind), ImportIssue { std::string(kind), 0, {} }).first;
    ++it->second.count;
    if (it->second.samples.size() < kMaxSamples && !sample.empty()) {
        // A sample quotes a path or a line as it came (issue 21): masked as it enters.
        std::string masked;
        if (maskText(sample, masked))
            sample = std::move(masked);
        it->second.samples.push_back(std::move(sample));
    }
}

void ImportIssues::merge(const ImportIssues& other)
{
    for (const auto& [kind, issue] : other.m_issues) {
        auto it = m_issues.find(kind);
        if (it == m_issues.end())
            it = m_issues.emplace(kind, ImportIssue { kind, 0, {} }).first;
        it->second.count += issue.count;
        for (const auto& sample : issue.samples)
            if (it->second.samples.size() < kMaxSamples)
                it->second.samples.push_back(sample);
    }
}

std::size_t ImportIssues::count(std::string_view kind) const
{
    auto it = m_issues.find(kind);
    return it == m_issues.end() ? 0 : it->second.count;
}

std::size_t ImportIssues::total() const
{
    std::size_t n = 0;
    for (const auto& [kind, issue] : m_issues)
        n += issue.count;
    return n;
}

std::vector<ImportIssue> ImportIssues::list() const
{
    std::vector<ImportIssue> out;
    out.reserve(m_issues.size());
    for (const auto& [kind, issue] : m_issues)
        out.push_back(issue);
    return out;
}

} // namespace rankscope::model
