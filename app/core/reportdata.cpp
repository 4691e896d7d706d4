#include "app/core/reportdata.h"

#include "app/about/version.h"
#include "app/core/anonymizer.h"
#include "app/core/diagnosisjson.h"
#include "model/evidencelocation.h"
#include "model/ranklist.h"
#include "model/secretmasker.h"

#include <algorithm>
#include <set>

namespace rankscope::app {

namespace {

// Evidence lines can be 2 KiB; the JSON keeps them whole, people read the start.
constexpr std::size_t kMaxEvidenceChars = 600;
// Up to this many ranks the table has one row per rank; above, runs are compressed.
constexpr std::size_t kMaxRankRows = 64;

std::string headlineOf(model::DiagnosisStatus status)
{
    switch (status) {
    case model::DiagnosisStatus::HangDiagnosed:
        return "Hang diagnosed";
    case model::DiagnosisStatus::NoHangFound:
        return "No hang found";
    case model::DiagnosisStatus::Inconclusive:
        return "Inconclusive";
    }
    return "Inconclusive";
}

std::string humanState(std::string_view key)
{
    std::string out(key);
    std::replace(out.begin(), out.end(), '_', ' ');
    return out;
}

bool contains(const std::vector<std::int32_t>& v, std::int32_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

std::string worldText(const model::Bundle& b)
{
    const std::size_t hosts = b.world.hosts.size();
    std::string out;
    if (b.world.worldSize)
        out = std::to_string(*b.world.worldSize) + " ranks";
    else
        out = "world size unknown";
    if (hosts)
        out += " on " + std::to_string(hosts) + (hosts == 1 ? " host" : " hosts");
    out += ", " + std::to_string(b.world.ranksSeen.size()) + " seen";
    if (!b.world.ranksMissing.empty())
        out += ", missing " + model::formatRanks(b.world.ranksMissing);
    return out;
}

ReportRankRow rankRow(
    const model::Bundle& b, const model::Diagnosis& d, const model::RankVerdict& v)
{
    ReportRankRow row;
    row.ranks = std::to_string(v.rank);
    if (const model::RankInfo* info = b.rankInfo(v.rank)) {
        if (info->host != model::kNoStr)
            row.host = std::string(b.text(info->host));
        const std::int32_t gpu = info->cudaDev >= 0 ? info->cudaDev : info->localRank;
        if (gpu >= 0)
            row.gpu = "GPU " + std::to_string(gpu);
    }
    row.stateKey = std::string(model::rankStateName(v.state));
    row.state = humanState(row.stateKey);
    if (contains(d.initiatingRanks, v.rank)
        || (d.stuckPair && (d.stuckPair->first == v.rank || d.stuckPair->second == v.rank)))
        row.role = "initiating";
    else if (contains(d.collateralRanks, v.rank))
        row.role = "collateral";
    row.lastEnqueued = v.hasProgress ? std::to_string(v.lastEnqueued) : "?";
    row.lastCompleted = v.hasProgress ? std::to_string(v.lastCompleted) : "?";
    return row;
}

// Consecutive ranks that say the same thing share one row in big worlds; initiating ranks
// always keep their own row.
std::vector<ReportRankRow> compressRows(
    std::vector<ReportRankRow> rows, const std::vector<std::int32_t>& ranks)
{
    std::vector<ReportRankRow> out;
    std::set<std::string> hosts;
    std::int32_t first = -1;
    std::int32_t last = -1;
    auto close = [&]() {
        if (out.empty())
            return;
        ReportRankRow& r = out.back();
        r.ranks = first == last ? std::to_string(first)
                                : std::to_string(first) + "-" + std::to_string(last);
        if (r.count > 1) {
            r.gpu.clear();
            r.host = hosts.size() == 1 ? *hosts.begin() : std::to_string(hosts.size()) + " hosts";
        }
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ReportRankRow& row = rows[i];
        const std::int32_t rank = ranks[i];
        const bool joins = !out.empty() && rank == last + 1 && row.role != "initiating"
            && out.back().role == row.role && out.back().stateKey == row.stateKey
            && out.back().lastEnqueued == row.lastEnqueued
            && out.back().lastCompleted == row.lastCompleted;
        if (joins) {
            ++out.back().count;
            last = rank;
            if (!row.host.empty())
                hosts.insert(row.host);
            continue;
        }
        close();
        hosts.clear();
        if (!row.host.empty())
            hosts.insert(row.host);
        first = last = rank;
        out.push_back(std::move(row));
    }
    close();
    return out;
}

std::string clipped(const std::string& text, std::size_t limit)
{
    if (text.size() <= limit)
        return text;
    return text.substr(0, limit) + "…"; // a cut UTF-8 sequence is repaired by sanitizeText
}

// The paths to give rankscope(-cli) to get the same diagnosis, quoted for a shell.
std::string inputArguments(const model::Bundle& b, const std::vector<std::string>& paths)
{
    std::vector<std::string> words = paths;
    if (words.empty()) {
        // Not told what the user opened: the files on disk the sources came from.
        for (const auto& s : b.sources)
            if (std::find(words.begin(), words.end(), s.containerPath) == words.end())
                words.push_back(s.containerPath);
    }
    std::string out;
    for (const auto& w : words)
        out += (out.empty() ? "" : " ") + shellQuote(w);
    return out;
}

} // namespace

std::string rootCauseLabel(model::RootCauseClass cls)
{
    return std::string(model::rootCauseClassTitle(cls));
}

std::string shellQuote(std::string_view word)
{
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || std::string_view("_./:=@%+,-").find(c) != std::string_view::npos;
    });
    if (plain)
        return std::string(word);
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

bool ranksSummarised(const ReportData& d)
{
    return d.ranks.size() > kCompactTableRows;
}

bool inputsSummarised(const ReportData& d)
{
    return d.inputs.size() > kCompactTableRows;
}

std::vector<ReportStateGroup> rankStateGroups(const ReportData& d)
{
    constexpr std::size_t kMaxRanksChars = 160;
    std::vector<ReportStateGroup> groups;
    std::vector<bool> cut; // per group: its rank list already ends in ", …"
    for (const ReportRankRow& row : d.ranks) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const ReportStateGroup& g) {
            return g.stateKey == row.stateKey && g.role == row.role;
        });
        if (it == groups.end()) {
            groups.push_back({ row.state, row.stateKey, row.role, 0, {} });
            cut.push_back(false);
            it = groups.end() - 1;
        }
        it->count += row.count;
        const auto index = static_cast<std::size_t>(it - groups.begin());
        if (cut[index])
            continue;
        const std::string joined = it->ranks + (it->ranks.empty() ? "" : ",") + row.ranks;
        if (joined.size() <= kMaxRanksChars) {
            it->ranks = joined;
        } else {
            it->ranks += it->ranks.empty() ? "…" : ", …";
            cut[index] = true;
        }
    }
    std::stable_partition(groups.begin(), groups.end(),
        [](const ReportStateGroup& g) { return g.role == "initiating"; });
    return groups;
}

ReportData buildReportData(
    const model::Bundle& b, const model::Diagnosis& d, const ReportOptions& options)
{
    ReportData r;
    r.toolVersion = std::string(about::version());
    r.generatedAt = options.generatedAt;
    r.appendix = options.appendix;
    r.statusValue = d.status;
    r.status = std::string(model::statusName(d.status));
    r.headline = headlineOf(d.status);
    r.rootCauseClass = std::string(model::rootCauseClassName(d.rootCause));
    r.rootCauseLabel = rootCauseLabel(d.rootCause);
    r.confidence = d.confidence;
    r.summary = d.summary;
    r.initiatingRanks = d.initiatingRanks;
    for (auto rank : d.initiatingRanks)
        r.initiating.push_back(b.describeRank(rank));
    r.stuckPair = d.stuckPair;
    if (d.stuckPair)
        r.stuckPairText
            = b.describeRank(d.stuckPair->first) + " ↔ " + b.describeRank(d.stuckPair->second);
    r.collateralRanks = d.collateralRanks;
    r.collateralText = model::formatRanks(d.collateralRanks);
    if (d.stuckCollective)
        r.stuckCollective = std::string(model::torchName(d.stuckCollective->op)) + " #"
            + std::to_string(d.stuckCollective->seq) + " on PG " + d.stuckCollective->processGroup;
    r.world = worldText(b);

    for (const auto& f : d.findings) {
        ReportFinding rf;
        rf.rule = f.rule;
        rf.title = f.title;
        rf.ranks = f.ranks.empty() ? std::string() : model::formatRanks(f.ranks);
        rf.confidence = f.confidence;
        rf.explanation = f.explanation;
        rf.codeLocation = f.codeLocation;
        for (const auto& e : f.evidence)
            rf.evidence.push_back({ model::evidenceLocation(b, e.ref), clipped(e.text, kMaxEvidenceChars) });
        rf.fix = f.fix;
        rf.verify = f.verify;
        rf.confirm = f.confirm;
        if (std::find(r.ruleIds.begin(), r.ruleIds.end(), f.rule) == r.ruleIds.end())
            r.ruleIds.push_back(f.rule);
        r.findings.push_back(std::move(rf));
    }
    r.missingEvidence = d.missingEvidence;

    std::vector<ReportRankRow> rows;
    std::vector<std::int32_t> rowRanks;
    for (const auto& v : d.ranks) {
        rows.push_back(rankRow(b, d, v));
        rowRanks.push_back(v.rank);
    }
    r.rankCount = rows.size();
    r.ranksCompressed = rows.size() > kMaxRankRows;
    r.ranks = r.ranksCompressed ? compressRows(std::move(rows), rowRanks) : std::move(rows);

    for (const auto& i : b.issues.list())
        r.issues.push_back({ i.kind, i.count, i.samples });
    r.maskedLines = b.issues.count("secret_masked");
    for (const auto& s : b.sources)
        r.inputs.push_back(
            { s.path, std::string(model::sourceKindName(s.kind)), s.bytes, s.sha256 });
    r.inputArguments = inputArguments(b, options.inputPaths);
    r.reproduceCommand = "rankscope-cli diagnose " + r.inputArguments;
    r.json = diagnosisJson(b, d);

    // Sources read outside the log scanner (error.json, Flight Recorder frames) were never
    // masked at ingress: mask every output string once more, then make it printable.
    forEachReportString(r, [](std::string& s) { s = sanitizeText(model::maskSecrets(s)); });
    if (options.anonymize) {
        Anonymizer anonymizer(b);
        forEachReportString(r, [&](std::string& s) { anonymizer.learn(s); });
        forEachReportString(r, [&](std::string& s) { s = anonymizer.apply(s); });
        r.anonymized = true;
    }
    return r;
}

} // namespace rankscope::app
