// The HTML report: one self-contained page a teammate without Rankscope opens in any
// browser, prints, or reads on a phone. No script and no external resource: styles are
// inline and figures are data: URIs.

#include "app/core/reportwriter.h"

#include <cstdio>
#include <sstream>

namespace rankscope::app {

namespace {

// Kept before anything long: the content sniffer reads the first 2 KiB and skips our own
// reports when a user drops one into a log folder (parsers/contentsniff.cpp).
constexpr std::string_view kGeneratorMeta = "<meta name=\"generator\" content=\"Rankscope ";

constexpr std::string_view kStyle = R"CSS(
:root { --ink:#1d2433; --muted:#5b6577; --line:#dfe3ea; --panel:#f6f7f9; --accent:#1f4e8c;
  --bad:#b42318; --bad-bg:#fef3f2; --warn:#b54708; --warn-bg:#fffaeb; --good:#067647;
  --good-bg:#ecfdf3; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: #eef0f4; color: var(--ink);
  font: 15px/1.55 -apple-system, "Segoe UI", Roboto,
  "Helvetica Neue", Arial, sans-serif; }
.page { max-width: 980px; margin: 24px auto; background: #fff; border: 1px solid var(--line);
  border-radius: 6px; }
.masthead { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 4px 16px;
  padding: 14px 28px;
  background: #14213d; color: #e8ecf4; border-radius: 6px 6px 0 0; font-size: 13px; }
.masthead .brand { font-weight: 700; letter-spacing: .08em; text-transform: uppercase; }
.masthead .meta { color: #b8c2d6; }
main { padding: 8px 28px 28px; }
h1 { font-size: 26px; line-height: 1.25; margin: 6px 0 10px; }
h2 { font-size: 18px; margin: 30px 0 10px; padding-bottom: 6px;
  border-bottom: 2px solid var(--line); }
h3 { font-size: 16px; margin: 0 0 4px; }
h4 { font-size: 13px; margin: 14px 0 4px; text-transform: uppercase; letter-spacing: .05em;
  color: var(--muted); }
p { margin: 6px 0; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono",
  monospace;
  font-size: 13px; }
code { background: var(--panel); border: 1px solid var(--line); border-radius: 3px;
  padding: 0 4px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 4px;
  padding: 10px 12px;
  margin: 6px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.commands { background: #101828; color: #e4e7ec; border-color: #101828; margin: 0 0 6px; }
.verdict { margin: 18px 0 8px; padding: 18px 20px; border-left: 6px solid var(--bad);
  background: var(--bad-bg);
  border-radius: 4px; }
.verdict.inconclusive { border-color: var(--warn); background: var(--warn-bg); }
.verdict.nohang { border-color: var(--good); background: var(--good-bg); }
.status { display: inline-block; font-size: 12px; font-weight: 700; letter-spacing: .08em;
  text-transform: uppercase;
  color: #fff; background: var(--bad); border-radius: 3px; padding: 2px 8px; }
.inconclusive .status { background: var(--warn); }
.nohang .status { background: var(--good); }
.summary { font-size: 16px; }
.confidence { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px;
  margin-top: 10px; font-size: 13px; color: var(--muted); }
.meter { display: inline-block; width: 160px; height: 8px; background: #fff;
  border: 1px solid var(--line);
  border-radius: 4px; overflow: hidden; }
.meter span { display: block; height: 100%; background: var(--accent); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 16px 0 0; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; }
.rank-initiating { color: var(--bad); font-weight: 700; }
ul.checklist { list-style: none; padding-left: 0; }
ul.checklist li { padding-left: 28px; position: relative; margin: 4px 0; }
ul.checklist li::before { content: ""; position: absolute; left: 4px; top: 4px; width: 13px;
  height: 13px;
  border: 1.5px solid var(--muted); border-radius: 2px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 14px 16px; margin: 12px 0;
  break-inside: avoid; }
.card.primary { border-color: #f1b9b3; box-shadow: inset 4px 0 0 var(--bad); }
.cardmeta { font-size: 13px; color: var(--muted); margin-bottom: 6px; }
.evidence .loc { color: var(--accent); }
.placeholder { border: 2px dashed #c5ccd8; border-radius: 6px; padding: 16px 18px;
  color: var(--muted);
  background: #fbfcfd; }
figure { margin: 12px 0; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { font-size: 13px; color: var(--muted); }
.tablewrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { background: var(--panel); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.rank { font-variant-numeric: tabular-nums; white-space: nowrap; font-weight: 600; }
tr.initiating td { background: var(--bad-bg); }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  white-space: nowrap;
  background: #eef0f4; color: var(--ink); }
.badge.bad { background: #fee4e2; color: #912018; }
.badge.good { background: #dcfae6; color: #085d3a; }
.badge.quiet { background: #f2f4f7; color: var(--muted); }
.hash { font-size: 11.5px; white-space: nowrap; color: var(--muted); }
.note { font-size: 13px; color: var(--muted); }
footer { padding: 14px 28px 22px; border-top: 1px solid var(--line); font-size: 12.5px;
  color: var(--muted); }
@media (max-width: 640px) {
  body { font-size: 15px; }
  .page { margin: 0; border: 0; border-radius: 0; }
  .masthead { border-radius: 0; padding: 12px 16px; }
  main { padding: 4px 16px 20px; }
  footer { padding: 12px 16px 18px; }
  h1 { font-size: 22px; }
  dl.facts { grid-template-columns: 1fr; gap: 0; }
  dl.facts dd { margin-bottom: 8px; }
  .hash { white-space: normal; word-break: break-all; }
}
@media print {
  @page { margin: 14mm; }
  body { background: #fff; font-size: 11pt; }
  .page { margin: 0; border: 0; max-width: none; }
  .masthead, .verdict, .status, pre.commands, .badge, tr.initiating td {
    -webkit-print-color-adjust: exact;
    print-color-adjust: exact; }
  h2 { break-after: avoid; }
  .card, figure, tr { break-inside: avoid; }
  .tablewrap { overflow: visible; }
}
)CSS";

std::string esc(std::string_view s)
{
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

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

std::string verdictClass(const ReportData& d)
{
    switch (d.statusValue) {
    case model::DiagnosisStatus::HangDiagnosed:
        return "verdict";
    case model::DiagnosisStatus::NoHangFound:
        return "verdict nohang";
    case model::DiagnosisStatus::Inconclusive:
        return "verdict inconclusive";
    }
    return "verdict inconclusive";
}

std::string stateBadge(const ReportRankRow& r)
{
    const std::string& k = r.stateKey;
    std::string cls = "badge";
    if (k == "stuck_in_collective" || k == "crashed" || k == "frozen" || k == "never_entered"
        || k == "straggling")
        cls += " bad";
    else if (k == "completed" || k == "healthy")
        cls += " good";
    else
        cls += " quiet";
    return "<span class=\"" + cls + "\">" + esc(r.state) + "</span>";
}

void list(std::ostringstream& out, const std::vector<std::string>& items, const char* cls = nullptr)
{
    out << (cls ? std::string("<ul class=\"") + cls + "\">" : std::string("<ul>")) << "\n";
    for (const auto& s : items)
        out << "<li>" << esc(s) << "</li>\n";
    out << "</ul>\n";
}

// One dark block per command: long commands wrap, and a reader sees where each one ends.
// A command in a block of its own (what a reader copies), its note as prose under it;
// an instruction without a command is prose only.
void commands(std::ostringstream& out, const std::vector<model::VerifyStep>& steps)
{
    for (const auto& step : steps) {
        if (!step.command.empty())
            out << "<pre class=\"commands\">" << esc(step.command) << "</pre>\n";
        if (!step.note.empty())
            out << "<p class=\"note\">" << esc(step.note) << "</p>\n";
    }
}

void verdictSection(std::ostringstream& out, const ReportData& d)
{
    out << "<section class=\"" << verdictClass(d) << "\" id=\"verdict\">\n";
    out << "<span class=\"status\">" << esc(d.headline) << "</span>\n";
    out << "<h1>" << esc(d.rootCauseLabel) << "</h1>\n";
    out << "<p class=\"summary\">" << esc(d.summary) << "</p>\n";
    if (d.statusValue != model::DiagnosisStatus::NoHangFound) {
        const int pct = static_cast<int>(d.confidence * 100 + 0.5);
        out << "<div class=\"confidence\"><span>Confidence " << fixed2(d.confidence) << "</span>"
            << "<span class=\"meter\"><span style=\"width:" << pct << "%\"></span></span>"
            << "<span>class <code>" << esc(d.rootCauseClass) << "</code></span></div>\n";
    }
    out << "</section>\n";

    out << "<dl class=\"facts\">\n";
    if (!d.initiating.empty()) {
        out << "<dt>Initiating</dt><dd>";
        for (std::size_t i = 0; i < d.initiating.size(); ++i)
            out << (i ? ", " : "") << "<span class=\"rank-initiating\">" << esc(d.initiating[i])
                << "</span>";
        out << "</dd>\n";
    }
    if (d.stuckPair)
        out << "<dt>Stuck pair</dt><dd>" << esc(d.stuckPairText) << "</dd>\n";
    out << "<dt>Collateral</dt><dd>" << d.collateralRanks.size() << " rank(s)"
        << (d.collateralText.empty() ? "" : ": " + esc(d.collateralText))
        << (d.collateralRanks.empty() ? "" : " — they only timed out or were torn down")
        << "</dd>\n";
    if (!d.stuckCollective.empty())
        out << "<dt>Stuck collective</dt><dd>" << esc(d.stuckCollective) << "</dd>\n";
    out << "<dt>World</dt><dd>" << esc(d.world) << "</dd>\n";
    out << "</dl>\n";
}

void actionSection(std::ostringstream& out, const ReportData& d)
{
    if (d.findings.empty() && d.missingEvidence.empty())
        return;
    out << "<section id=\"action\">\n<h2>What to do</h2>\n";
    if (!d.findings.empty()) {
        const ReportFinding& f = d.findings.front();
        if (!f.fix.empty()) {
            out << "<h4>Fix</h4>\n";
            list(out, f.fix);
        }
        if (!f.verify.empty()) {
            out << "<h4>Verify</h4>\n";
            commands(out, f.verify);
        }
        if (!f.confirm.empty()) {
            out << "<h4>How to confirm</h4>\n";
            list(out, f.confirm, "checklist");
        }
    }
    if (!d.missingEvidence.empty()) {
        out << "<h4>Collect next time</h4>\n";
        list(out, d.missingEvidence);
    }
    out << "</section>\n";
}

void figuresSection(
    std::ostringstream& out, const ReportData& d, const std::vector<ReportFigure>& figures)
{
    out << "<section id=\"figures\">\n<h2>Timeline and rank-pair heatmap</h2>\n";
    if (figures.empty()) {
        out << "<div class=\"placeholder\"><p><strong>Figures are not included in this "
               "report.</strong> "
               "rankscope-cli writes reports without figures. The timeline around the stuck "
               "collective "
               "and the rank-pair heatmap are drawn by the Rankscope desktop app, which exports "
               "the same "
               "report with both figures embedded:</p>\n";
        commands(out, { { "rankscope --export report.html " + d.inputArguments, "" } });
        out << "<p class=\"note\">The command needs no display; it uses Qt's offscreen "
               "platform.</p></div>\n";
    }
    for (const auto& f : figures) {
        out << "<figure><img src=\"data:image/png;base64," << base64Encode(f.pngBytes)
            << "\" alt=\"" << esc(f.title) << "\"><figcaption><strong>" << esc(f.title)
            << "</strong>" << (f.caption.empty() ? "" : " — " + esc(f.caption))
            << "</figcaption></figure>\n";
    }
    out << "</section>\n";
}

void findingCard(std::ostringstream& out, const ReportFinding& f, std::size_t index)
{
    out << "<article class=\"card" << (index == 0 ? " primary" : "") << "\">\n";
    out << "<h3>" << index + 1 << ". " << esc(f.title) << "</h3>\n";
    out << "<div class=\"cardmeta\">rule <code>" << esc(f.rule) << "</code> · confidence "
        << fixed2(f.confidence);
    if (!f.ranks.empty())
        out << " · ranks " << esc(f.ranks);
    out << "</div>\n";
    out << "<p>" << esc(f.explanation) << "</p>\n";
    if (!f.codeLocation.empty()) {
        out << "<h4>Code location</h4>\n<pre class=\"evidence\">";
        for (std::size_t i = 0; i < f.codeLocation.size(); ++i)
            out << (i ? "\n" : "") << esc(f.codeLocation[i]);
        out << "</pre>\n";
    }
    if (!f.evidence.empty()) {
        out << "<h4>Evidence</h4>\n<pre class=\"evidence\">";
        for (std::size_t i = 0; i < f.evidence.size(); ++i)
            out << (i ? "\n" : "") << "<span class=\"loc\">" << esc(f.evidence[i].location)
                << "</span>: " << esc(f.evidence[i].text);
        out << "</pre>\n";
    }
    if (index == 0) {
        if (!f.fix.empty() || !f.verify.empty())
            out << "<p class=\"note\">Fix, verification and checklist: see <em>What to do</em> "
                   "above.</p>\n";
    } else {
        if (!f.fix.empty()) {
            out << "<h4>Fix</h4>\n";
            list(out, f.fix);
        }
        if (!f.verify.empty()) {
            out << "<h4>Verify</h4>\n";
            commands(out, f.verify);
        }
        if (!f.confirm.empty()) {
            out << "<h4>How to confirm</h4>\n";
            list(out, f.confirm, "checklist");
        }
    }
    out << "</article>\n";
}

// What a compact report says in place of a long table.
constexpr std::string_view kAppendixHint
    = "The full table is in the appendix of a report exported with full tables "
      "(<em>Append full tables</em> in the export dialog, <code>--appendix</code> on the "
      "command line).";

void rankTable(std::ostringstream& out, const ReportData& d)
{
    if (d.ranksCompressed)
        out << "<p class=\"note\">" << d.rankCount
            << " ranks; consecutive ranks in the same state share a row.</p>\n";
    out << "<div "
           "class=\"tablewrap\"><table>\n<thead><tr><th>Rank</th><th>Host</th><th>GPU</"
           "th><th>State</th>"
           "<th>Role</th><th class=\"num\">Last enqueued</th><th class=\"num\">Last "
           "completed</th></tr></thead>\n"
           "<tbody>\n";
    for (const auto& r : d.ranks) {
        out << "<tr" << (r.role == "initiating" ? " class=\"initiating\"" : "")
            << "><td class=\"rank\">" << esc(r.ranks)
            << (r.count > 1 ? " <span class=\"note\">(" + std::to_string(r.count) + ")</span>" : "")
            << "</td><td>" << esc(r.host) << "</td><td>" << esc(r.gpu) << "</td><td>"
            << stateBadge(r) << "</td><td>" << esc(r.role) << "</td><td class=\"num\">"
            << esc(r.lastEnqueued) << "</td><td class=\"num\">" << esc(r.lastCompleted)
            << "</td></tr>\n";
    }
    out << "</tbody>\n</table></div>\n";
}

void ranksSection(std::ostringstream& out, const ReportData& d)
{
    if (d.ranks.empty())
        return;
    out << "<section id=\"ranks\">\n<h2>Ranks</h2>\n";
    if (!ranksSummarised(d)) {
        rankTable(out, d);
        out << "</section>\n";
        return;
    }
    out << "<p class=\"note\">" << d.rankCount << " ranks by state and role. "
        << (d.appendix ? "Every rank's host, GPU and progress: the appendix, “every rank”."
                       : kAppendixHint)
        << "</p>\n";
    out << "<div class=\"tablewrap\"><table>\n<thead><tr><th>State</th><th>Role</th>"
           "<th class=\"num\">Ranks</th><th>Which</th></tr></thead>\n<tbody>\n";
    for (const ReportStateGroup& g : rankStateGroups(d)) {
        ReportRankRow badge;
        badge.state = g.state;
        badge.stateKey = g.stateKey;
        out << "<tr" << (g.role == "initiating" ? " class=\"initiating\"" : "") << "><td>"
            << stateBadge(badge) << "</td><td>" << esc(g.role) << "</td><td class=\"num\">"
            << g.count << "</td><td class=\"rank\">" << esc(g.ranks) << "</td></tr>\n";
    }
    out << "</tbody>\n</table></div>\n</section>\n";
}

void issuesSection(std::ostringstream& out, const ReportData& d)
{
    out << "<section id=\"issues\">\n<h2>Import issues</h2>\n";
    if (d.issues.empty()) {
        out << "<p class=\"note\">None: every input was read completely.</p>\n</section>\n";
        return;
    }
    out << "<div class=\"tablewrap\"><table>\n<thead><tr><th>Kind</th><th "
           "class=\"num\">Count</th><th>Examples</th></tr></thead>\n"
           "<tbody>\n";
    for (const auto& i : d.issues) {
        out << "<tr><td><code>" << esc(i.kind) << "</code></td><td class=\"num\">" << i.count
            << "</td><td>";
        for (std::size_t k = 0; k < i.samples.size() && k < 3; ++k)
            out << "<div class=\"mono\">" << esc(i.samples[k]) << "</div>";
        out << "</td></tr>\n";
    }
    out << "</tbody>\n</table></div>\n</section>\n";
}

void inputTable(std::ostringstream& out, const ReportData& d)
{
    out << "<div class=\"tablewrap\"><table>\n<thead><tr><th>Path</th><th>Kind</th><th "
           "class=\"num\">Size</th><th>SHA-256</th></tr>"
           "</thead>\n<tbody>\n";
    for (const auto& i : d.inputs)
        out << "<tr><td class=\"mono\">" << esc(i.path) << "</td><td>" << esc(i.kind)
            << "</td><td class=\"num\">" << humanBytes(i.bytes) << "</td><td class=\"mono hash\">"
            << esc(i.sha256) << "</td></tr>\n";
    out << "</tbody>\n</table></div>\n";
}

void inputsSection(std::ostringstream& out, const ReportData& d)
{
    std::uint64_t total = 0;
    for (const auto& i : d.inputs)
        total += i.bytes;
    out << "<section id=\"inputs\">\n<h2>Inputs</h2>\n<p class=\"note\">" << d.inputs.size()
        << " file(s), " << humanBytes(total) << ". SHA-256 of the decompressed bytes";
    if (!inputsSummarised(d)) {
        out << ".</p>\n";
        inputTable(out, d);
    } else {
        out << (d.appendix ? ": the appendix, “every input”." : " and every file's path: ")
            << (d.appendix ? "" : kAppendixHint) << "</p>\n";
    }
    out << "</section>\n";
}

// The full tables a compact report summarised, when asked for.
void appendixSections(std::ostringstream& out, const ReportData& d)
{
    if (!d.appendix)
        return;
    if (ranksSummarised(d)) {
        out << "<section id=\"appendix-ranks\">\n<h2>Appendix: every rank</h2>\n";
        rankTable(out, d);
        out << "</section>\n";
    }
    if (inputsSummarised(d)) {
        out << "<section id=\"appendix-inputs\">\n<h2>Appendix: every input</h2>\n";
        inputTable(out, d);
        out << "</section>\n";
    }
}

void reproduceSection(std::ostringstream& out, const ReportData& d)
{
    out << "<section id=\"reproduce\">\n<h2>Reproduce this diagnosis</h2>\n";
    commands(out, { { d.reproduceCommand, "" } });
    out << "<dl class=\"facts\">\n<dt>Tool</dt><dd>Rankscope " << esc(d.toolVersion) << "</dd>\n";
    out << "<dt>Rules</dt><dd>";
    for (std::size_t i = 0; i < d.ruleIds.size(); ++i)
        out << (i ? " " : "") << "<code>" << esc(d.ruleIds[i]) << "</code>";
    if (d.ruleIds.empty())
        out << "none fired";
    out << "</dd>\n</dl>\n</section>\n";
}

} // namespace

std::string htmlReport(const ReportData& d, const std::vector<ReportFigure>& figures)
{
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << kGeneratorMeta << esc(d.toolVersion) << "\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        << "<title>Rankscope report: " << esc(d.headline) << " — " << esc(d.rootCauseLabel)
        << "</title>\n"
        << "<style>" << kStyle << "</style>\n</head>\n<body>\n<div class=\"page\">\n";
    out << "<header class=\"masthead\"><span class=\"brand\">Rankscope · Hang diagnosis "
           "report</span>"
        << "<span class=\"meta\">";
    if (!d.generatedAt.empty())
        out << esc(d.generatedAt) << " · ";
    out << "Rankscope " << esc(d.toolVersion) << (d.anonymized ? " · anonymised" : "")
        << "</span></header>\n";
    out << "<main>\n";
    verdictSection(out, d);
    actionSection(out, d);
    figuresSection(out, d, figures);
    if (!d.findings.empty()) {
        out << "<section id=\"findings\">\n<h2>Findings</h2>\n";
        for (std::size_t i = 0; i < d.findings.size(); ++i)
            findingCard(out, d.findings[i], i);
        out << "</section>\n";
    }
    ranksSection(out, d);
    issuesSection(out, d);
    inputsSection(out, d);
    reproduceSection(out, d);
    appendixSections(out, d);
    out << "</main>\n<footer>";
    out << "Secrets in the logs were masked when they were read (" << d.maskedLines
        << " line(s) with "
        << "<code>‹masked:…›</code>)."
        << (d.anonymized ? " Host names, IP addresses, user names and job ids are pseudonyms "
                           "(host-01, ip-01, "
                           "user-01, job-01), consistent across the report."
                         : "")
        << " Rankscope explains each conclusion by the rule and the log lines behind it; "
           "confidence is the "
           "rule's own estimate.</footer>\n";
    out << "</div>\n</body>\n</html>\n";
    return out.str();
}

} // namespace rankscope::app
