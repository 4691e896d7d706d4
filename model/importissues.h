#pragma once
// Recoverable oddities met while importing ("count and continue"): each kind keeps a
// count and the first few samples so the user sees what happened without a flood.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

struct ImportIssue {
    std::string kind;
    std::size_t count = 0;
    std::vector<std::string> samples;
};

// An issue kind in the words a user reads ("Warning lines with no rank" for
// "unattributed_events"); a kind without words of its own reads with spaces for underscores.
// The kinds themselves stay as they are in JSON and reports.
std::string importIssueWords(std::string_view kind);

class ImportIssues {
public:
    static constexpr std::size_t kMaxSamples = 5;

    // `occurrences` > 1 when one sample stands for many lines (15,690 lines with no rank).
    void add(std::string_view kind, std::string sample, std::size_t occurrences = 1);
    void merge(const ImportIssues& other);
    bool empty() const { return m_issues.empty(); }
    std::size_t count(std::string_view kind) const;
    std::size_t total() const;
    // Sorted by kind so outputs are stable.
    std::vector<ImportIssue> list() const;

private:
    std::map<std::string, ImportIssue, std::less<>> m_issues;
};

} // namespace rankscope::model
