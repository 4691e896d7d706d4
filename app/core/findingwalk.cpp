#include "app/core/findingwalk.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace rankscope::app {

namespace {

bool contains(const std::vector<std::int32_t>& ranks, std::int32_t rank)
{
    return std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
}

std::uint64_t lineKey(const model::EvidenceRef& ref)
{
    return (static_cast<std::uint64_t>(ref.source) << 40) ^ ref.line;
}

// Who wrote each evidence line: the rank of the event at that line, else the only rank its
// source belongs to; and whether the line is a collective timing out (a rank waiting). One
// pass over the events, whatever their number.
struct LineWriter {
    std::int32_t rank = -1;
    bool waiting = false;
};

class LineRanks {
public:
    LineRanks(const model::Bundle& b, const model::Diagnosis& d)
    {
        for (const auto& f : d.findings)
            for (const auto& e : f.evidence)
                if (e.ref.valid())
                    m_byLine.emplace(lineKey(e.ref), LineWriter {});
        if (m_byLine.empty())
            return;
        for (const model::Event& ev : b.events) {
            if (ev.rank < 0)
                continue;
            auto it = m_byLine.find(lineKey(ev.evidence));
            if (it != m_byLine.end() && it->second.rank < 0)
                it->second = { ev.rank, model::isCollectiveTimeout(ev) };
        }
        for (const model::RankInfo& info : b.ranks)
            for (model::SourceId s : info.sources) {
                auto [it, inserted] = m_bySource.emplace(s, info.rank);
                if (!inserted && it->second != info.rank)
                    it->second = -1; // a whole-job file: no one rank
            }
    }

    LineWriter of(const model::EvidenceRef& ref) const
    {
        if (!ref.valid())
            return {};
        if (auto it = m_byLine.find(lineKey(ref)); it != m_byLine.end() && it->second.rank >= 0)
            return it->second;
        auto it = m_bySource.find(ref.source);
        return { it == m_bySource.end() ? -1 : it->second, false };
    }

private:
    std::unordered_map<std::uint64_t, LineWriter> m_byLine;
    std::unordered_map<model::SourceId, std::int32_t> m_bySource;
};

struct Verdict {
    const model::Diagnosis& d;
    std::vector<std::int32_t> initiating; // the initiating ranks and the stuck pair

    explicit Verdict(const model::Diagnosis& diagnosis)
        : d(diagnosis)
        , initiating(diagnosis.initiatingRanks)
    {
        if (d.stuckPair) {
            initiating.push_back(d.stuckPair->first);
            initiating.push_back(d.stuckPair->second);
        }
    }

    bool hang() const { return d.status == model::DiagnosisStatus::HangDiagnosed; }

    bool allCollateral(const std::vector<std::int32_t>& ranks) const
    {
        return !ranks.empty()
            && std::all_of(ranks.begin(), ranks.end(),
                [&](std::int32_t r) { return contains(d.collateralRanks, r); });
    }

    FindingRole roleOf(const model::Finding& f, std::size_t index) const
    {
        if (hang() && index == 0)
            return FindingRole::Initiating; // the finding that decided the verdict
        if (allCollateral(f.ranks))
            return FindingRole::Collateral;
        switch (d.status) {
        case model::DiagnosisStatus::HangDiagnosed:
            if (std::any_of(f.ranks.begin(), f.ranks.end(),
                    [&](std::int32_t r) { return contains(initiating, r); }))
                return FindingRole::Initiating;
            return f.suggests == d.rootCause ? FindingRole::Supporting : FindingRole::Context;
        case model::DiagnosisStatus::Inconclusive:
            return FindingRole::Supporting;
        case model::DiagnosisStatus::NoHangFound:
            return FindingRole::Context;
        }
        return FindingRole::Context;
    }

    // A line has its finding's role, but for a collateral rank's timeout (it only waited)
    // and an initiating rank's own line in a finding that argues for the verdict. A line
    // that reports on another rank (a desync report, a failure table) keeps its finding's.
    FindingRole roleOf(const LineWriter& writer, FindingRole finding) const
    {
        if (writer.rank < 0)
            return finding;
        if (writer.waiting && contains(d.collateralRanks, writer.rank))
            return FindingRole::Collateral;
        if (hang() && finding == FindingRole::Supporting && contains(initiating, writer.rank))
            return FindingRole::Initiating;
        return finding;
    }
};

} // namespace

std::string_view findingRoleName(FindingRole role)
{
    switch (role) {
    case FindingRole::Initiating:
        return "initiating";
    case FindingRole::Supporting:
        return "supporting";
    case FindingRole::Collateral:
        return "collateral";
    case FindingRole::Context:
        return "context";
    }
    return "context";
}

Severity severityOf(FindingRole role)
{
    switch (role) {
    case FindingRole::Initiating:
        return Severity::Error;
    case FindingRole::Supporting:
        return Severity::Warning;
    case FindingRole::Collateral:
    case FindingRole::Context:
        return Severity::Note;
    }
    return Severity::Note;
}

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "note";
}

std::vector<WalkedFinding> walkFindings(const model::Bundle& b, const model::Diagnosis& d)
{
    const Verdict verdict(d);
    const LineRanks ranks(b, d);
    std::vector<WalkedFinding> out;
    out.reserve(d.findings.size());
    for (std::size_t i = 0; i < d.findings.size(); ++i) {
        const model::Finding& f = d.findings[i];
        WalkedFinding w;
        w.finding = &f;
        w.role = verdict.roleOf(f, i);
        w.rootCause = f.suggests ? *f.suggests
            : i == 0             ? d.rootCause
                                 : model::RootCauseClass::Unknown;
        for (const model::EvidenceLine& e : f.evidence) {
            WalkedEvidence we;
            we.line = &e;
            we.source = b.source(e.ref.source);
            const LineWriter writer = ranks.of(e.ref);
            we.rank = writer.rank;
            we.role = verdict.roleOf(writer, w.role);
            w.evidence.push_back(we);
        }
        out.push_back(std::move(w));
    }
    return out;
}

std::string editorPath(const model::Source& source)
{
    if (source.rootRelative.empty())
        return source.path; // a stream, or a source made in memory
    if (source.root.empty() || source.root == ".")
        return source.rootRelative;
    return source.root + (source.root.ends_with('/') ? "" : "/") + source.rootRelative;
}

std::string verdictSentence(const model::Diagnosis& d)
{
    char confidence[16];
    std::snprintf(confidence, sizeof confidence, "%.2f", d.confidence);
    std::string out = "Verdict: " + std::string(model::statusName(d.status));
    if (d.status != model::DiagnosisStatus::NoHangFound)
        out += ", " + std::string(model::rootCauseClassName(d.rootCause)) + " (confidence "
            + confidence + ")";
    return out + ". " + d.summary;
}

Severity verdictSeverity(const model::Diagnosis& d)
{
    switch (d.status) {
    case model::DiagnosisStatus::HangDiagnosed:
        return Severity::Error;
    case model::DiagnosisStatus::Inconclusive:
        return Severity::Warning;
    case model::DiagnosisStatus::NoHangFound:
        return Severity::Note;
    }
    return Severity::Note;
}

} // namespace rankscope::app
