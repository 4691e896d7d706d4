#include "app/core/whyrank.h"

#include "model/evidencelocation.h"
#include "model/pairevidence.h"
#include "app/core/sanitizetext.h"
#include "app/core/textwrap.h"
#include "model/ranklist.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace rankscope::app {

namespace {

using model::RankState;

bool contains(const std::vector<std::int32_t>& v, std::int32_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

std::string seqText(std::int64_t seq)
{
    return seq < 0 ? std::string("none seen") : "#" + std::to_string(seq);
}

} // namespace

std::string whyRankText(const model::Bundle& b, const model::Diagnosis& d, std::int32_t rank)
{
    std::ostringstream out;
    const model::RankInfo* info = b.rankInfo(rank);
    if (!info || !info->seen) {
        out << "Rank " << rank << " is not in these logs: no line, dump or table names it";
        if (b.world.worldSize)
            out << (rank < *b.world.worldSize ? " (the job had " : " (outside the job's ")
                << *b.world.worldSize << " ranks)";
        out << ".\n";
        return sanitizeText(out.str());
    }
    out << b.describeRank(rank);
    if (info->pid >= 0)
        out << ", pid " << info->pid;
    if (info->busId != model::kNoStr)
        out << ", bus " << b.text(info->busId);
    out << "\n\n";

    // Its part in the verdict, and the rule that decided it.
    const model::Finding* decisive = d.findings.empty() ? nullptr : &d.findings.front();
    const bool initiating = contains(d.initiatingRanks, rank)
        || (d.stuckPair && (d.stuckPair->first == rank || d.stuckPair->second == rank));
    if (initiating) {
        out << "Named by the verdict as " << (d.stuckPair ? "one end of the stuck pair" : "the initiating rank");
        if (decisive)
            out << ", by rule " << decisive->rule << " (confidence " << decisive->confidence << "): " << decisive->title;
        out << ".\n";
    } else if (contains(d.collateralRanks, rank)) {
        out << "Collateral: it only waited, timed out or was torn down because of ";
        out << (d.initiatingRanks.empty() ? std::string("the fault the verdict names")
                                          : "rank(s) " + model::formatRanks(d.initiatingRanks));
        out << ".\n";
    } else if (!d.initiatingRanks.empty()) {
        out << "Not named: the verdict names rank(s) " << model::formatRanks(d.initiatingRanks);
        if (decisive)
            out << " (rule " << decisive->rule << ")";
        out << ", and nothing in this rank's lines outweighs that.\n";
    } else {
        out << "The verdict names no rank.\n";
    }
    const auto verdict = std::find_if(d.ranks.begin(), d.ranks.end(), [&](const auto& v) { return v.rank == rank; });
    const RankState state = verdict == d.ranks.end() ? RankState::Unknown : verdict->state;
    out << "State: " << model::rankStateMeaning(state) << ".\n";

    // Progress on every process group it reported on.
    const auto progress = b.progressOfRank(rank);
    if (!progress.empty()) {
        out << "\nProgress by process group:\n";
        for (const auto* p : progress) {
            out << "  PG " << (p->pg == model::kNoStr ? std::string("?") : std::string(b.text(p->pg)))
                << ": last enqueued " << seqText(p->lastEnqueued) << ", last completed " << seqText(p->lastCompleted);
            if (p->timeoutSeq >= 0)
                out << ", timed out in #" << p->timeoutSeq << " after " << p->ranForMs << " ms";
            out << "\n";
        }
    }

    // The findings that name it.
    bool any = false;
    for (const auto& f : d.findings) {
        if (!contains(f.ranks, rank))
            continue;
        if (!any)
            out << "\nFindings that name it:\n";
        any = true;
        out << "  " << f.rule << " (confidence " << f.confidence << "): " << f.title << "\n";
        for (std::size_t i = 0; i < f.evidence.size() && i < 3; ++i)
            out << "    " << model::evidenceLocation(b, f.evidence[i].ref) << ": " << f.evidence[i].text.substr(0, 200) << "\n";
    }
    if (!any)
        out << "\nNo finding names it.\n";

    // Where each of its files leaves it: the last recognised line of each (files are not
    // ordered in time against each other, so no line is called the last overall).
    const auto events = b.eventsOfRank(rank);
    std::vector<std::uint32_t> lastOfSource;
    for (std::uint32_t e : events) {
        if (!lastOfSource.empty() && b.events[lastOfSource.back()].evidence.source == b.events[e].evidence.source)
            lastOfSource.back() = e;
        else
            lastOfSource.push_back(e);
    }
    if (!lastOfSource.empty()) {
        out << "\nThe last recognised line of each of its files:\n";
        for (std::size_t i = 0; i < lastOfSource.size() && i < 8; ++i) {
            const model::Event& e = b.events[lastOfSource[i]];
            out << "  " << model::evidenceLocation(b, e.evidence) << ": " << std::string(b.text(e.text)).substr(0, 200) << "\n";
        }
        if (lastOfSource.size() > 8)
            out << "  … and " << lastOfSource.size() - 8 << " more files\n";
    }
    return sanitizeText(out.str());
}

namespace {

// One line of what the verdict makes of `rank`.
std::string roleOf(const model::Diagnosis& d, std::int32_t rank)
{
    if (d.stuckPair && (d.stuckPair->first == rank || d.stuckPair->second == rank))
        return "one end of the link the verdict names";
    if (contains(d.initiatingRanks, rank))
        return "initiating";
    if (contains(d.collateralRanks, rank))
        return "collateral";
    return "not named by the verdict";
}

model::RankState stateOf(const model::Diagnosis& d, std::int32_t rank)
{
    const auto v = std::find_if(d.ranks.begin(), d.ranks.end(), [&](const auto& r) { return r.rank == rank; });
    return v == d.ranks.end() ? model::RankState::Unknown : v->state;
}

// What each kind of pair evidence is, for a reader (the metric's name is the heatmap's).
constexpr std::pair<model::PairMetric, const char*> kPairMetricMeaning[] = {
    { model::PairMetric::NetworkErrors, "network errors one logged naming the other's address" },
    { model::PairMetric::StalledNeighbour, "ring or tree neighbours: one entered the stuck collective, the other did not" },
    { model::PairMetric::NvlinkFault, "NVLink Xids on both GPUs" },
    { model::PairMetric::WaitsOn, "one waited on the other in the stuck collective" },
    { model::PairMetric::P2pUnmatched, "send/recv operations between them that never completed (Flight Recorder)" },
};

} // namespace

std::string whyPairText(const model::Bundle& b, const model::Diagnosis& d, std::int32_t first, std::int32_t second)
{
    std::ostringstream out;
    out << "Ranks " << first << " and " << second << "\n";
    for (std::int32_t r : { first, second }) {
        const model::RankInfo* info = b.rankInfo(r);
        out << "  " << (info && info->seen ? b.describeRank(r) : "rank " + std::to_string(r) + ": not in these logs")
            << "; " << roleOf(d, r) << "; " << model::rankStateWords(stateOf(d, r)) << "\n";
    }
    const model::RankInfo* ia = b.rankInfo(first);
    const model::RankInfo* ib = b.rankInfo(second);
    if (ia && ib && ia->host != model::kNoStr && ib->host != model::kNoStr)
        out << (ia->host == ib->host ? "Same host: their traffic goes over NVLink, PCIe or shared memory, not the network.\n"
                                     : "Different hosts: their traffic crosses the network.\n");
    out << "\n";

    const bool named = d.stuckPair
        && ((d.stuckPair->first == first && d.stuckPair->second == second)
            || (d.stuckPair->first == second && d.stuckPair->second == first));
    const model::Finding* decisive = d.findings.empty() ? nullptr : &d.findings.front();
    if (named) {
        out << "The verdict names the link between them";
        if (decisive)
            out << ", by rule " << decisive->rule << " (confidence " << decisive->confidence << "): " << decisive->title;
        out << ".\n";
    } else if (d.stuckPair) {
        out << "Not the pair the verdict names: that is " << d.stuckPair->first << " and " << d.stuckPair->second << ".\n";
    } else {
        out << "The verdict names no pair of ranks";
        if (!d.initiatingRanks.empty())
            out << "; it names rank(s) " << model::formatRanks(d.initiatingRanks);
        out << ".\n";
    }

    // The heatmap's cells for the pair, both directions.
    const model::PairEvidence pairs = model::PairEvidence::build(b, d);
    bool anyEvidence = false;
    for (const auto& [from, to] : { std::pair { first, second }, std::pair { second, first } }) {
        const model::PairCell* cell = pairs.cell(from, to);
        if (!cell)
            continue;
        for (const auto& [metric, meaning] : kPairMetricMeaning) {
            const float v = cell->value[static_cast<std::size_t>(metric)];
            if (v <= 0)
                continue;
            if (!anyEvidence)
                out << "\nEvidence between them (the rank-pair heatmap's cells):\n";
            anyEvidence = true;
            out << "  " << from << " → " << to << ": " << meaning << " (" << v << ")\n";
        }
        for (std::size_t i = 0; i < cell->evidence.size() && i < 3; ++i) {
            out << "    " << model::evidenceLocation(b, cell->evidence[i]) << "\n";
        }
    }
    if (!anyEvidence)
        out << "\nNo line links these two ranks: no network error naming one from the other, no NVLink fault on both, "
               "no wait of one on the other, no unmatched send/recv.\n";

    bool anyFinding = false;
    for (const auto& f : d.findings) {
        if (!contains(f.ranks, first) || !contains(f.ranks, second))
            continue;
        if (!anyFinding)
            out << "\nFindings that name both:\n";
        anyFinding = true;
        out << "  " << f.rule << " (confidence " << f.confidence << "): " << f.title << "\n";
        for (std::size_t i = 0; i < f.evidence.size() && i < 3; ++i)
            out << "    " << model::evidenceLocation(b, f.evidence[i].ref) << ": " << f.evidence[i].text.substr(0, 200) << "\n";
    }
    return sanitizeText(out.str());
}

std::optional<std::pair<std::int32_t, std::int32_t>> parseRankPair(std::string_view text)
{
    const auto sep = text.find_first_of(",- ");
    if (sep == std::string_view::npos)
        return std::nullopt;
    auto number = [](std::string_view s) -> std::optional<std::int32_t> {
        while (!s.empty() && s.front() == ' ')
            s.remove_prefix(1);
        while (!s.empty() && s.back() == ' ')
            s.remove_suffix(1);
        std::int32_t v = -1;
        const char* last = s.data() + s.size();
        auto [ptr, ec] = std::from_chars(s.data(), last, v);
        if (s.empty() || ec != std::errc() || ptr != last || v < 0)
            return std::nullopt;
        return v;
    };
    const auto a = number(text.substr(0, sep));
    const auto b = number(text.substr(sep + 1));
    if (!a || !b || *a == *b)
        return std::nullopt;
    return std::pair { *a, *b };
}

std::optional<CollectiveRef> parseCollectiveRef(std::string_view text)
{
    CollectiveRef ref { "0", -1 };
    const auto colon = text.rfind(':');
    if (colon != std::string_view::npos) {
        ref.processGroup = std::string(text.substr(0, colon));
        text.remove_prefix(colon + 1);
        if (ref.processGroup.empty())
            return std::nullopt;
    }
    if (!text.empty() && text.front() == '#')
        text.remove_prefix(1);
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), last, ref.seq);
    if (ec != std::errc() || ptr != last || text.empty() || ref.seq < 0)
        return std::nullopt;
    return ref;
}

std::string whoReachedText(const model::Bundle& b, const CollectiveRef& c)
{
    std::ostringstream out;
    const model::StrId pg = b.strings.find(c.processGroup);
    const auto progress = pg == model::kNoStr ? std::vector<const model::RankProgress*> {} : b.progressOf(pg);
    if (progress.empty()) {
        out << "No rank reported progress on process group " << c.processGroup
            << " (PG keys are as the logs print them: `rankscope-cli summary` lists them).\n";
        return sanitizeText(out.str());
    }
    std::vector<std::int32_t> completed, reached, timedOut, never, unknown, reporting;
    for (const auto* p : progress) {
        reporting.push_back(p->rank);
        if (p->lastCompleted >= c.seq || p->timeoutSeq > c.seq)
            completed.push_back(p->rank);
        else if (p->timeoutSeq == c.seq)
            timedOut.push_back(p->rank);
        else if (p->hasStatus && p->lastEnqueued >= c.seq)
            reached.push_back(p->rank);
        else if (p->hasStatus || (p->timeoutSeq >= 0 && p->timeoutSeq < c.seq))
            never.push_back(p->rank);
        else
            unknown.push_back(p->rank);
    }
    std::vector<std::int32_t> silent;
    for (const auto& group : b.processGroups)
        if (group.key == pg)
            for (std::int32_t r : group.members)
                if (!contains(reporting, r))
                    silent.push_back(r);
    out << "Collective #" << c.seq << " on process group " << c.processGroup << ":\n";
    auto line = [&](const char* what, const std::vector<std::int32_t>& ranks) {
        if (!ranks.empty())
            out << "  " << what << ": " << ranks.size() << " [" << model::formatRanks(ranks) << "]\n";
    };
    line("completed it", completed);
    line("entered it and timed out", timedOut);
    line("entered it, not completed", reached);
    line("never reached it", never);
    line("reported, but not how far they got", unknown);
    line("members with no line on this group", silent);
    return sanitizeText(out.str());
}

} // namespace rankscope::app
