#pragma once
// The diagnosis report's content, built once from (bundle, diagnosis, inputs) and rendered
// by the writers (reportwriter.h: HTML, Markdown, JSON). Every string in it is final:
// secrets masked again (defence in depth for sources that do not go through the log
// scanner, such as error.json), invalid UTF-8 and terminal escapes cleaned, and — when
// anonymising — host names, addresses, users and job ids replaced by pseudonyms. Writers
// only escape and lay out; they never look at the bundle.

#include "app/core/sanitizetext.h"
#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope::app {

struct ReportEvidence {
    std::string location; // "train-0007.out:36"
    std::string text;
};

struct ReportFinding {
    std::string rule;
    std::string title;
    std::string ranks; // "7,8", "0-6,9-15"; empty when the finding names none
    double confidence = 0.0;
    std::string explanation;
    std::vector<std::string> codeLocation; // "file:line in func", innermost first
    std::vector<ReportEvidence> evidence;
    std::vector<std::string> fix;
    std::vector<model::VerifyStep> verify;
    std::vector<std::string> confirm;
};

// One row of the per-rank table. Big worlds are compressed: consecutive ranks with the
// same state, role and progress share a row ("0-6", 7 ranks).
struct ReportRankRow {
    std::string ranks;
    std::size_t count = 1;
    std::string host; // one host, or "3 hosts"
    std::string gpu; // "GPU 7", empty when unknown
    std::string state; // "stuck in collective"
    std::string stateKey; // "stuck_in_collective" (for styling)
    std::string role; // "initiating", "collateral" or ""
    std::string lastEnqueued; // "44", "44–45" in a compressed row, "?" when unknown
    std::string lastCompleted;
};

struct ReportIssue {
    std::string kind;
    std::size_t count = 0;
    std::vector<std::string> samples;
};

struct ReportInput {
    std::string path;
    std::string kind;
    std::uint64_t bytes = 0;
    std::string sha256;
};

struct ReportFigure {
    std::string title;
    std::string pngBytes; // a PNG file's bytes; embedded as a data: URI
    std::string caption;
};

struct ReportOptions {
    std::vector<std::string> inputPaths; // as the user gave them; for the reproduction command
    bool anonymize = false;
    std::string generatedAt; // "2025-03-01 12:00 UTC"; empty = not stated
    bool appendix = false; // append the full tables (ReportData::appendix)
};

struct ReportData {
    std::string toolVersion;
    std::string generatedAt;
    bool anonymized = false;

    // Verdict (the same facts as json["verdict"]).
    model::DiagnosisStatus statusValue = model::DiagnosisStatus::Inconclusive;
    std::string status; // "hang_diagnosed"
    std::string headline; // "Hang diagnosed"
    std::string rootCauseClass; // "network_pair"
    std::string rootCauseLabel; // "Network link between two ranks"
    double confidence = 0.0;
    std::string summary;
    std::vector<std::int32_t> initiatingRanks;
    std::vector<std::string> initiating; // "rank 7 (host-01, GPU 7)" per initiating rank
    std::optional<std::pair<std::int32_t, std::int32_t>> stuckPair;
    std::string stuckPairText;
    std::vector<std::int32_t> collateralRanks;
    std::string collateralText; // "0-6,9-15"
    std::string stuckCollective; // "ALLREDUCE #44 on PG 0"
    std::string world; // "16 ranks on 2 hosts, 16 seen"

    std::vector<ReportFinding> findings; // the verdict's finding first
    std::vector<std::string> missingEvidence;
    std::vector<ReportRankRow> ranks;
    bool ranksCompressed = false;
    std::size_t rankCount = 0;
    std::vector<ReportIssue> issues;
    std::vector<ReportInput> inputs;
    std::vector<std::string> ruleIds; // every rule that produced a finding, in order
    std::size_t maskedLines = 0; // lines that had secrets masked at ingress
    std::string inputArguments; // the input paths, quoted for a shell
    std::string reproduceCommand; // rankscope-cli diagnose <paths>

    // A report is compact by default: verdict, what to do, figures and findings, with the
    // rank and input tables summarised when they are long (ranksSummarised(),
    // inputsSummarised()); 4096 ranks made a PDF of 185 pages that nobody reads. With
    // appendix, the full tables (every rank row, every input's SHA-256) follow at the end.
    bool appendix = false;

    nlohmann::json json; // rankscope.diagnosis/1 with the same (masked, anonymised) strings
};

// Tables of up to this many rows are shown whole in a compact report.
inline constexpr std::size_t kCompactTableRows = 24;

bool ranksSummarised(const ReportData& d);
bool inputsSummarised(const ReportData& d);

// A compact report's rank summary: ranks grouped by state and role, in the order the
// groups first appear, initiating groups first.
struct ReportStateGroup {
    std::string state; // "stuck in collective"
    std::string stateKey;
    std::string role;
    std::size_t count = 0;
    std::string ranks; // "0-6,9-15", cut with ", …" past about 160 characters
};
std::vector<ReportStateGroup> rankStateGroups(const ReportData& d);

ReportData buildReportData(
    const model::Bundle& bundle, const model::Diagnosis& diagnosis, const ReportOptions& options);

// Calls fn(std::string&) for every string a writer may output (ReportData fields and every
// string value in the JSON object). The anonymiser and the tests walk the report with it.
template <class Fn> void forEachReportString(ReportData& d, Fn&& fn);

// "Network link between two ranks": a root-cause class for people (reports, SARIF rules).
std::string rootCauseLabel(model::RootCauseClass cls);

// "'my dir/x'" for a shell; plain words stay bare.
std::string shellQuote(std::string_view word);

// Implementation of forEachReportString.
namespace detail {
template <class Fn> void forEachJsonString(nlohmann::json& j, Fn& fn)
{
    if (j.is_string()) {
        fn(j.get_ref<std::string&>());
    } else if (j.is_structured()) {
        for (auto& item : j)
            forEachJsonString(item, fn);
    }
}
} // namespace detail

template <class Fn> void forEachReportString(ReportData& d, Fn&& fn)
{
    for (std::string* s : { &d.generatedAt, &d.summary, &d.stuckPairText, &d.collateralText,
             &d.stuckCollective, &d.world, &d.inputArguments, &d.reproduceCommand })
        fn(*s);
    for (auto& s : d.initiating)
        fn(s);
    for (auto& f : d.findings) {
        fn(f.title);
        fn(f.explanation);
        for (auto& e : f.evidence) {
            fn(e.location);
            fn(e.text);
        }
        for (auto* list : { &f.codeLocation, &f.fix, &f.confirm })
            for (auto& s : *list)
                fn(s);
        for (auto& step : f.verify) {
            fn(step.command);
            fn(step.note);
        }
    }
    for (auto& s : d.missingEvidence)
        fn(s);
    for (auto& r : d.ranks) {
        fn(r.host);
        fn(r.gpu);
    }
    for (auto& i : d.issues)
        for (auto& s : i.samples)
            fn(s);
    for (auto& in : d.inputs)
        fn(in.path);
    detail::forEachJsonString(d.json, fn);
}

} // namespace rankscope::app
