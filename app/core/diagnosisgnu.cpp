#include "app/core/diagnosisgnu.h"

#include "app/core/findingwalk.h"
#include "app/core/sanitizetext.h"

namespace rankscope::app {

namespace {

constexpr std::size_t kMaxQuoted = 240; // of an evidence line: the editor shows the rest

// One message per line, whatever the log line held.
std::string oneLine(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text)
        out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    return out;
}

std::string quoted(const std::string& line)
{
    if (line.size() <= kMaxQuoted)
        return line;
    std::size_t cut = kMaxQuoted;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return line.substr(0, cut) + "...";
}

std::string locationOf(const WalkedEvidence& e)
{
    std::string out = editorPath(*e.source);
    if (e.line->ref.line > 0)
        out += ":" + std::to_string(e.line->ref.line);
    return out;
}

void emit(std::string& out, const std::string& where, Severity severity, std::string_view message)
{
    out += where + ": " + std::string(severityName(severity)) + ": " + oneLine(message) + "\n";
}

} // namespace

std::string diagnosisGnu(const model::Bundle& b, const model::Diagnosis& d)
{
    const std::string program = "rankscope-cli";
    std::string out;
    emit(out, program, verdictSeverity(d), verdictSentence(d));
    for (const WalkedFinding& walked : walkFindings(b, d)) {
        const model::Finding& f = *walked.finding;
        const std::string rule
            = std::string(model::rootCauseClassName(walked.rootCause)) + "/" + f.rule;
        std::string first; // where the fix and the verification commands are put
        for (const WalkedEvidence& e : walked.evidence) {
            if (!e.source)
                continue;
            const std::string where = locationOf(e);
            if (first.empty())
                first = where;
            std::string tag = rule;
            if (e.rank >= 0)
                tag += "; rank " + std::to_string(e.rank);
            emit(out, where, severityOf(e.role), f.title + " [" + tag + "]: " + quoted(e.line->text));
        }
        if (first.empty()) {
            emit(out, program, severityOf(walked.role), f.title + " [" + rule + "]");
            first = program;
        }
        if (severityOf(walked.role) == Severity::Note)
            continue;
        for (const auto& fix : f.fix)
            emit(out, first, Severity::Note, "fix: " + fix);
        for (const auto& step : f.verify)
            emit(out, first, Severity::Note, "verify: " + model::verifyStepLine(step));
    }
    return sanitizeText(out);
}

} // namespace rankscope::app
