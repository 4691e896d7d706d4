#include "model/importissues.h"

#include "model/secretmasker.h"

namespace rankscope::model {

namespace {

struct IssueWords {
    std::string_view kind;
    std::string_view words;
};
// Sorted by kind, like the issue list.
constexpr IssueWords kIssueWords[] = {
    { "archive_entry_too_large", "Archive member too large, not read" },
    { "archive_link_skipped", "Link inside an archive, skipped" },
    { "archive_refused", "Archive refused" },
    { "archive_truncated", "Archive cut short" },
    { "archive_unreadable", "Archive could not be read" },
    { "archive_warning", "Archive warning" },
    { "bad_error_file", "Unreadable error file" },
    { "bad_flight_recorder_dump", "Unreadable Flight Recorder dump" },
    { "bad_gpu_sample", "Unreadable GPU sample" },
    { "bad_ras_report", "Unreadable NCCL RAS report" },
    { "binary_skipped", "Binary file, skipped" },
    { "dangling_link", "Link to a missing file" },
    { "doubled_lines", "Every line twice, read once" },
    { "empty_folder", "Empty folder" },
    { "file_too_large", "File too large, not read" },
    { "hostile_archive_entry", "Unsafe archive member, skipped" },
    { "json_lines_read", "JSON log export read as lines" },
    { "json_too_large", "JSON file too large, not read" },
    { "link_outside_bundle", "Link out of the bundle, skipped" },
    { "malformed_xid_line", "Xid line not understood" },
    { "nccl_incomplete_coll_line", "NCCL collective line cut short" },
    { "nested_archive_skipped", "Archive inside an archive, skipped" },
    { "not_regular_file", "Not a regular file, skipped" },
    { "nothing_recognised", "No line recognised" },
    { "overlong_line", "Very long line, cut" },
    { "own_output_skipped", "Rankscope's own output, skipped" },
    { "pytorch_truncated_work", "PyTorch line cut short" },
    { "rank_conflict", "Two ranks claim the same process" },
    { "rank_out_of_range", "Rank outside the job" },
    { "secret_masked", "Secret masked" },
    { "truncated_file", "File cut short" },
    { "truncated_source", "File cut short" },
    { "truncated_traceback", "Python traceback cut short" },
    { "unattributed_events", "Warning lines with no rank" },
    { "unreadable_file", "File could not be read" },
    { "unreadable_path", "Path could not be read" },
    { "unrecognised_json", "JSON file not understood" },
    { "utf16_transcoded", "UTF-16 file converted" },
    { "world_size_conflict", "Logs disagree on the world size" },
    { "world_size_not_believed", "Implausible world size ignored" },
};

} // namespace

std::string importIssueWords(std::string_view kind)
{
    for (const IssueWords& row : kIssueWords)
        if (row.kind == kind)
            return std::string(row.words);
    std::string words(kind);
    for (char& c : words)
        if (c == '_')
            c = ' ';
    if (!words.empty() && words.front() >= 'a' && words.front() <= 'z')
        words.front() = static_cast<char>(words.front() - 'a' + 'A');
    return words;
}

void ImportIssues::add(std::string_view kind, std::string sample, std::size_t occurrences)
{
    auto it = m_issues.find(kind);
    if (it == m_issues.end())
        it = m_issues.emplace(std::string(kind), ImportIssue { std::string(kind), 0, {} }).first;
    it->second.count += occurrences;
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
