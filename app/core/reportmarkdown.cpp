// The Markdown report: the HTML report's content for an issue tracker or a chat, laid out
// like `rankscope-cli diagnose --format md` (diagnosistext.cpp) with the report's extra
// sections. GitHub-flavoured: tables, task lists, fenced code.

#include "app/core/reportwriter.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rankscope::app {

namespace {

std::string fixed2(double v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string humanBytes(std::uint64_t n)
{
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

// Text from logs in running prose: nothing a renderer would take for HTML or code. Only a
// '<' that could open a tag is escaped, so "last enqueued >= S" still reads well in a chat.
std::string inlineText(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const char next = i + 1 < s.size() ? s[i + 1] : '\0';
        const bool opensTag = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z')
            || next == '/' || next == '!' || next == '?';
        switch (c) {
        case '<':
            out += opensTag ? "&lt;" : "<";
            break;
        case '`':
            out += "\\`";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += ' ';
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string cell(std::string_view s)
{
    std::string out;
    for (char c : inlineText(s)) {
        if (c == '|')
            out += "\\|";
        else
            out += c;
    }
    return out.empty() ? std::string(" ") : out;
}

// A fence longer than any backtick run inside, so a log line cannot close the block.
std::string fenceFor(const std::vector<std::string>& lines)
{
    std::size_t longest = 0;
    for (const auto& l : lines) {
        std::size_t run = 0;
        for (char c : l) {
            run = c == '`' ? run + 1 : 0;
            longest = std::max(longest, run);
        }
    }
    return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

void codeBlock(
    std::ostringstream& out, const std::vector<std::string>& lines, std::string_view language)
{
    const std::string fence = fenceFor(lines);
    out << "\n" << fence << language << "\n";
    for (const auto& l : lines)
        out << l << "\n";
    out << fence << "\n";
}

void fixVerifyConfirm(std::ostringstream& out, const ReportFinding& f)
{
    if (!f.fix.empty()) {
        out << "\n**Fix**\n\n";
        for (const auto& s : f.fix)
            out << "- " << inlineText(s) << "\n";
    }
    if (!f.verify.empty()) {
        out << "\n**Verify**\n";
        std::vector<std::string> commands;
        bool listed = false;
        for (const auto& step : f.verify) {
            if (!step.command.empty()) {
                commands.push_back(model::verifyStepLine(step));
                continue;
            }
            out << (listed ? "" : "\n") << "- " << inlineText(step.note) << "\n";
            listed = true;
        }
        if (!commands.empty())
            codeBlock(out, commands, "sh");
    }
    if (!f.confirm.empty()) {
        out << "\n**How to confirm**\n\n";
        for (const auto& s : f.confirm)
            out << "- [ ] " << inlineText(s) << "\n";
    }
}

// What a compact report says in place of a long table.
constexpr std::string_view kAppendixHint
    = "the full table is in the appendix of a report exported with full tables "
      "(“Append full tables” in the export dialog, `--appendix` on the command line).";

void rankTable(std::ostringstream& out, const ReportData& d)
{
    if (d.ranksCompressed)
        out << "_" << d.rankCount
            << " ranks; consecutive ranks in the same state share a row._\n\n";
    out << "| Rank | Host | GPU | State | Role | Last enqueued | Last completed |\n"
           "|---:|---|---|---|---|---:|---:|\n";
    for (const auto& r : d.ranks) {
        const bool initiating = r.role == "initiating";
        out << "| " << (initiating ? "**" : "") << cell(r.ranks) << (initiating ? "**" : "")
            << (r.count > 1 ? " (" + std::to_string(r.count) + ")" : "") << " | " << cell(r.host)
            << " | " << cell(r.gpu) << " | " << cell(r.state) << " | " << cell(r.role) << " | "
            << cell(r.lastEnqueued) << " | " << cell(r.lastCompleted) << " |\n";
    }
}

void inputTable(std::ostringstream& out, const ReportData& d)
{
    out << "| Path | Kind | Size | SHA-256 |\n|---|---|---:|---|\n";
    for (const auto& i : d.inputs)
        out << "| " << cell(i.path) << " | " << i.kind << " | " << humanBytes(i.bytes) << " | `"
            << i.sha256 << "` |\n";
}

} // namespace

std::string markdownReport(const ReportData& d, const std::vector<MarkdownFigure>& figures)
{
    std::ostringstream out;
    // The schema tag makes the content sniffer skip this file if it lands in a log folder.
    out << "<!-- Rankscope " << d.toolVersion
        << " report, \"schema\": \"rankscope.report/1\" -->\n\n";
    out << "# Rankscope diagnosis: " << d.headline << " — " << d.rootCauseLabel << "\n\n";
    out << "**Status** `" << d.status << "`";
    if (d.statusValue != model::DiagnosisStatus::NoHangFound)
        out << " · **class** `" << d.rootCauseClass << "` · **confidence** "
            << fixed2(d.confidence);
    out << "  \n";
    if (!d.generatedAt.empty())
        out << inlineText(d.generatedAt) << " · ";
    out << "Rankscope " << d.toolVersion
        << (d.anonymized ? " · anonymised (host-01, ip-01, user-01, job-01 are pseudonyms)" : "")
        << "\n\n";
    out << "> " << inlineText(d.summary) << "\n\n";

    out << "| | |\n|---|---|\n";
    if (!d.initiating.empty()) {
        out << "| **Initiating** | ";
        for (std::size_t i = 0; i < d.initiating.size(); ++i)
            out << (i ? ", " : "") << "**" << cell(d.initiating[i]) << "**";
        out << " |\n";
    }
    if (d.stuckPair)
        out << "| Stuck pair | " << cell(d.stuckPairText) << " |\n";
    out << "| Collateral | " << d.collateralRanks.size() << " rank(s)"
        << (d.collateralText.empty() ? "" : ": " + cell(d.collateralText)) << " |\n";
    if (!d.stuckCollective.empty())
        out << "| Stuck collective | " << cell(d.stuckCollective) << " |\n";
    out << "| World | " << cell(d.world) << " |\n";

    if (!d.findings.empty() || !d.missingEvidence.empty()) {
        out << "\n## What to do\n";
        if (!d.findings.empty())
            fixVerifyConfirm(out, d.findings.front());
        if (!d.missingEvidence.empty()) {
            out << "\n**Collect next time**\n\n";
            for (const auto& m : d.missingEvidence)
                out << "- " << inlineText(m) << "\n";
        }
    }

    out << "\n## Timeline and rank-pair heatmap\n\n";
    if (figures.empty()) {
        out << "_Figures are not included: rankscope-cli writes reports without them. The "
               "Rankscope desktop app "
               "exports the same report with the timeline around the stuck collective and the "
               "rank-pair heatmap:_\n";
        codeBlock(out, { "rankscope --export report.html " + d.inputArguments }, "sh");
    }
    for (const auto& f : figures)
        out << "![" << inlineText(f.title) << "](" << f.relativePath << ")\n\n";

    if (!d.findings.empty())
        out << "\n## Findings\n";
    for (std::size_t i = 0; i < d.findings.size(); ++i) {
        const ReportFinding& f = d.findings[i];
        out << "\n### " << i + 1 << ". " << inlineText(f.title) << "\n\n`" << f.rule
            << "` · confidence " << fixed2(f.confidence);
        if (!f.ranks.empty())
            out << " · ranks " << f.ranks;
        out << "\n\n" << inlineText(f.explanation) << "\n";
        if (!f.codeLocation.empty()) {
            out << "\nCode location (innermost first):\n";
            codeBlock(out, f.codeLocation, "text");
        }
        if (!f.evidence.empty()) {
            std::vector<std::string> lines;
            for (const auto& e : f.evidence)
                lines.push_back(e.location + ": " + e.text);
            codeBlock(out, lines, "text");
        }
        if (i > 0)
            fixVerifyConfirm(out, f);
    }

    if (!d.ranks.empty()) {
        out << "\n## Ranks\n\n";
        if (!ranksSummarised(d)) {
            rankTable(out, d);
        } else {
            out << "_" << d.rankCount << " ranks by state and role._ Every rank's host, GPU "
                << "and progress: "
                << (d.appendix ? std::string("the appendix.") : std::string(kAppendixHint))
                << "\n\n| State | Role | Ranks | Which |\n|---|---|---:|---|\n";
            for (const ReportStateGroup& g : rankStateGroups(d))
                out << "| " << cell(g.state) << " | " << cell(g.role) << " | " << g.count << " | "
                    << cell(g.ranks) << " |\n";
        }
    }

    out << "\n## Import issues\n\n";
    if (d.issues.empty()) {
        out << "None: every input was read completely.\n";
    } else {
        out << "| Kind | Count | Example |\n|---|---:|---|\n";
        for (const auto& i : d.issues)
            out << "| `" << i.kind << "` | " << i.count << " | "
                << (i.samples.empty() ? std::string(" ") : cell(i.samples.front())) << " |\n";
    }

    std::uint64_t total = 0;
    for (const auto& i : d.inputs)
        total += i.bytes;
    out << "\n## Inputs\n\n" << d.inputs.size() << " file(s), " << humanBytes(total);
    if (!inputsSummarised(d)) {
        out << "; SHA-256 of the decompressed bytes.\n\n";
        inputTable(out, d);
    } else {
        out << "; SHA-256 of the decompressed bytes"
            << (d.appendix ? ": the appendix.\n"
                           : " and every file's path: " + std::string(kAppendixHint) + "\n");
    }

    out << "\n## Reproduce this diagnosis\n";
    codeBlock(out, { d.reproduceCommand }, "sh");
    out << "\nRankscope " << d.toolVersion << " · rules:";
    for (const auto& r : d.ruleIds)
        out << " `" << r << "`";
    if (d.ruleIds.empty())
        out << " none fired";
    if (d.appendix && ranksSummarised(d)) {
        out << "\n\n## Appendix: every rank\n\n";
        rankTable(out, d);
    }
    if (d.appendix && inputsSummarised(d)) {
        out << "\n\n## Appendix: every input\n\n";
        inputTable(out, d);
    }
    out << "\n\n_Secrets in the logs were masked when they were read (" << d.maskedLines
        << " line(s) show ‹masked:…›)._\n";
    return out.str();
}

} // namespace rankscope::app
