#include "app/core/diagnosistext.h"

#include "model/evidencelocation.h"
#include "app/core/explainline.h"
#include "app/core/sanitizetext.h"
#include "app/core/textwrap.h"
#include "model/ranklist.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace rankscope::app {

namespace {

std::string percent(double c)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", c);
    return buf;
}


std::string rankGroups(const model::Diagnosis& d)
{
    std::map<std::string, std::vector<std::int32_t>> byState;
    for (const auto& v : d.ranks)
        byState[std::string(model::rankStateName(v.state))].push_back(v.rank);
    std::string out;
    for (const auto& [state, ranks] : byState)
        out += "  " + state + ": " + std::to_string(ranks.size()) + " [" + model::formatRanks(ranks) + "]\n";
    return out;
}

std::string headline(const model::Diagnosis& d)
{
    switch (d.status) {
    case model::DiagnosisStatus::HangDiagnosed:
        return "HANG DIAGNOSED";
    case model::DiagnosisStatus::NoHangFound:
        return "NO HANG FOUND";
    case model::DiagnosisStatus::Inconclusive:
        return "INCONCLUSIVE";
    }
    return "";
}

// The catalogue entries of the messages quoted as evidence, the verdict's finding first,
// each once: the same words the error hub and `rankscope-cli explain` show, so the verdict
// and the catalogue never tell a message's meaning two ways.
std::vector<const parsers::CatalogueEntry*> messagesExplained(const model::Diagnosis& d)
{
    constexpr std::size_t kMaxEntries = 5;
    std::vector<const parsers::CatalogueEntry*> out;
    const parsers::ErrorCatalogue* catalogue = builtInErrorCatalogue();
    if (!catalogue)
        return out;
    for (const auto& f : d.findings)
        for (const auto& e : f.evidence) {
            const auto matched = catalogue->match(e.text);
            if (!matched.empty() && std::find(out.begin(), out.end(), matched.front()) == out.end())
                out.push_back(matched.front());
            if (out.size() == kMaxEntries)
                return out;
        }
    return out;
}

} // namespace

// Both texts quote log lines, file names and import issue samples: each is made printable
// as a whole on its way out (sanitizetext.h), so no line can drive the terminal.
std::string diagnosisText(const model::Bundle& b, const model::Diagnosis& d)
{
    std::ostringstream out;
    out << "Verdict: " << headline(d);
    if (d.status != model::DiagnosisStatus::NoHangFound)
        out << " - " << model::rootCauseClassName(d.rootCause) << " (confidence " << percent(d.confidence) << ")";
    out << "\n  " << wrap(d.summary, 96, "  ") << "\n\n";
    if (!d.initiatingRanks.empty()) {
        out << "Initiating: ";
        for (std::size_t i = 0; i < d.initiatingRanks.size(); ++i)
            out << (i ? ", " : "") << b.describeRank(d.initiatingRanks[i]);
        out << "\n";
    }
    if (d.stuckPair)
        out << "Stuck pair: " << b.describeRank(d.stuckPair->first) << " <-> " << b.describeRank(d.stuckPair->second) << "\n";
    if (!d.collateralRanks.empty())
        out << "Collateral: " << d.collateralRanks.size() << " rank(s) [" << model::formatRanks(d.collateralRanks)
            << "] only timed out or were torn down\n";
    if (d.stuckCollective)
        out << "Stuck collective: " << model::torchName(d.stuckCollective->op) << " #" << d.stuckCollective->seq
            << " on PG " << d.stuckCollective->processGroup << "\n";
    if (b.world.worldSize)
        out << "World: " << *b.world.worldSize << " ranks on " << b.world.hosts.size() << " host(s), "
            << b.world.ranksSeen.size() << " seen\n";

    if (!d.findings.empty())
        out << "\nFindings:\n";
    int n = 0;
    for (const auto& f : d.findings) {
        out << "\n" << ++n << ". " << f.title << "\n   rule " << f.rule << ", confidence " << percent(f.confidence);
        if (!f.ranks.empty())
            out << ", ranks " << model::formatRanks(f.ranks);
        out << "\n   " << wrap(f.explanation, 93, "   ") << "\n";
        if (!f.codeLocation.empty()) {
            out << "   Code location (innermost first):\n";
            for (const auto& frame : f.codeLocation)
                out << "     " << frame << "\n";
        }
        if (!f.evidence.empty()) {
            out << "   Evidence:\n";
            for (const auto& e : f.evidence)
                out << "     " << model::evidenceLocation(b, e.ref) << ": " << e.text.substr(0, 240) << "\n";
        }
        if (!f.fix.empty()) {
            out << "   Fix:\n";
            for (const auto& s : f.fix)
                out << "     - " << wrap(s, 88, "       ") << "\n";
        }
        if (!f.verify.empty()) {
            out << "   Verify:\n";
            for (const auto& step : f.verify) {
                if (step.command.empty()) {
                    out << "     - " << wrap(step.note, 88, "       ") << "\n";
                    continue;
                }
                out << "     $ " << step.command << "\n";
                if (!step.note.empty())
                    out << "         " << wrap(step.note, 84, "         ") << "\n";
            }
        }
        if (!f.confirm.empty() && n == 1) {
            out << "   How to confirm:\n";
            for (const auto& s : f.confirm)
                out << "     [ ] " << wrap(s, 86, "         ") << "\n";
        }
    }
    if (!d.missingEvidence.empty()) {
        out << "\nCollect next time:\n";
        for (const auto& m : d.missingEvidence)
            out << "  - " << wrap(m, 92, "    ") << "\n";
    }
    if (const auto entries = messagesExplained(d); !entries.empty()) {
        out << "\nWhat the quoted messages do not mean (rankscope-cli explain ID says more):\n";
        for (const auto* entry : entries)
            out << "  " << entry->title << " (" << entry->id << ")\n    "
                << wrap(entry->notMeans.empty() ? entry->means : entry->notMeans, 92, "    ") << "\n";
    }
    out << "\nRank states:\n" << rankGroups(d);
    const auto issues = b.issues.list();
    if (!issues.empty()) {
        out << "\nImport issues:\n";
        for (const auto& i : issues)
            out << "  " << i.kind << " x" << i.count << (i.samples.empty() ? "" : ": " + i.samples.front().substr(0, 160)) << "\n";
    }
    return sanitizeText(out.str());
}

std::string diagnosisMarkdown(const model::Bundle& b, const model::Diagnosis& d)
{
    std::ostringstream out;
    out << "## Rankscope diagnosis: " << headline(d);
    if (d.status != model::DiagnosisStatus::NoHangFound)
        out << " — `" << model::rootCauseClassName(d.rootCause) << "` (confidence " << percent(d.confidence) << ")";
    out << "\n\n" << d.summary << "\n\n";
    out << "| | |\n|---|---|\n";
    if (!d.initiatingRanks.empty()) {
        out << "| Initiating | ";
        for (std::size_t i = 0; i < d.initiatingRanks.size(); ++i)
            out << (i ? ", " : "") << b.describeRank(d.initiatingRanks[i]);
        out << " |\n";
    }
    if (d.stuckPair)
        out << "| Stuck pair | " << d.stuckPair->first << " ↔ " << d.stuckPair->second << " |\n";
    out << "| Collateral | " << d.collateralRanks.size() << " rank(s): " << model::formatRanks(d.collateralRanks) << " |\n";
    if (d.stuckCollective)
        out << "| Stuck collective | " << model::torchName(d.stuckCollective->op) << " #" << d.stuckCollective->seq
            << " on PG " << d.stuckCollective->processGroup << " |\n";
    if (b.world.worldSize)
        out << "| World | " << *b.world.worldSize << " ranks, " << b.world.hosts.size() << " host(s) |\n";
    for (const auto& f : d.findings) {
        out << "\n### " << f.title << "\n\n`" << f.rule << "` · confidence " << percent(f.confidence);
        if (!f.ranks.empty())
            out << " · ranks " << model::formatRanks(f.ranks);
        out << "\n\n" << f.explanation << "\n";
        if (!f.codeLocation.empty()) {
            out << "\n**Code location** (innermost first)\n\n```\n";
            for (const auto& frame : f.codeLocation)
                out << frame << "\n";
            out << "```\n";
        }
        if (!f.evidence.empty()) {
            out << "\n```\n";
            for (const auto& e : f.evidence)
                out << model::evidenceLocation(b, e.ref) << ": " << e.text.substr(0, 400) << "\n";
            out << "```\n";
        }
        if (!f.fix.empty()) {
            out << "\n**Fix**\n\n";
            for (const auto& s : f.fix)
                out << "- " << s << "\n";
        }
        if (!f.verify.empty()) {
            out << "\n**Verify**\n\n";
            bool anyCommand = false;
            for (const auto& step : f.verify) {
                if (step.command.empty())
                    out << "- " << step.note << "\n";
                anyCommand = anyCommand || !step.command.empty();
            }
            if (anyCommand) {
                out << "\n```sh\n";
                for (const auto& step : f.verify)
                    if (!step.command.empty())
                        out << model::verifyStepLine(step) << "\n";
                out << "```\n";
            }
        }
        if (!f.confirm.empty()) {
            out << "\n**How to confirm**\n\n";
            for (const auto& s : f.confirm)
                out << "- [ ] " << s << "\n";
        }
    }
    if (!d.missingEvidence.empty()) {
        out << "\n### Collect next time\n\n";
        for (const auto& m : d.missingEvidence)
            out << "- " << m << "\n";
    }
    if (const auto entries = messagesExplained(d); !entries.empty()) {
        out << "\n### What the quoted messages do not mean\n\n";
        for (const auto* entry : entries)
            out << "- **" << entry->title << "** (`" << entry->id << "`): "
                << (entry->notMeans.empty() ? entry->means : entry->notMeans) << "\n";
    }
    out << "\n### Rank states\n\n```\n" << rankGroups(d) << "```\n";
    return sanitizeText(out.str());
}

} // namespace rankscope::app
