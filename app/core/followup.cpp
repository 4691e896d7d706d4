#include "app/core/followup.h"

#include "app/core/sanitizetext.h"
#include "model/ranklist.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace rankscope::app {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::optional<std::int32_t> toRank(const std::string& digits)
{
    if (digits.empty() || digits.size() > 9)
        return std::nullopt;
    return static_cast<std::int32_t>(std::stol(digits));
}

bool contains(const std::vector<std::int32_t>& v, std::int32_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

std::optional<Question> parseQuestion(std::string_view text)
{
    // Short questions typed by hand: std::regex is plenty, and only ASCII keywords are read.
    const std::string q = lower(text);
    std::smatch m;
    Question out;
    if (std::regex_search(q, m, std::regex(R"((?:host|node)\s+([A-Za-z0-9][A-Za-z0-9._-]*))"))) {
        out.kind = Question::Kind::Host;
        // The host as typed (names are case-sensitive in the logs).
        const auto at = static_cast<std::size_t>(m.position(1));
        out.host = std::string(text.substr(at, static_cast<std::size_t>(m.length(1))));
        return out;
    }
    if (std::regex_search(q, m, std::regex(R"((\d+)\s*:\s*#?(\d+))"))
        || std::regex_search(q, m, std::regex(R"(#\s*(\d+))"))
        || std::regex_search(q, m, std::regex(R"((?:collective|seq|sequence)\s+#?(\d+))"))) {
        if (auto ref = parseCollectiveRef(m.size() > 2 && m[2].matched ? m[1].str() + ":" + m[2].str() : m[1].str())) {
            out.kind = Question::Kind::Collective;
            out.collective = *ref;
            return out;
        }
    }
    if (std::regex_search(q, m, std::regex(R"((\d+)\s*(?:,|-|and|&)\s*(?:rank\s+)?(\d+))"))) {
        const auto a = toRank(m[1].str());
        const auto b = toRank(m[2].str());
        if (a && b && *a != *b) {
            out.kind = Question::Kind::Pair;
            out.rank = *a;
            out.other = *b;
            return out;
        }
    }
    if (std::regex_search(q, m, std::regex(R"((?:rank|proc|process)\s*#?(\d+))"))
        || std::regex_search(q, m, std::regex(R"(^\s*(?:why\s+(?:not\s+)?)?(\d+)\s*\??\s*$)"))) {
        if (const auto r = toRank(m[1].str())) {
            out.kind = Question::Kind::Rank;
            out.rank = *r;
            return out;
        }
    }
    return std::nullopt;
}

std::string whyHostText(const model::Bundle& b, const model::Diagnosis& d, std::string_view host)
{
    std::ostringstream out;
    const model::StrId id = b.strings.find(host);
    std::vector<std::int32_t> ranks;
    for (const auto& info : b.ranks)
        if (info.seen && id != model::kNoStr && info.host == id)
            ranks.push_back(info.rank);
    if (ranks.empty()) {
        out << "No rank of these logs is on host " << host << ".";
        if (!b.world.hosts.empty()) {
            out << " Hosts seen:";
            for (std::size_t i = 0; i < b.world.hosts.size() && i < 12; ++i)
                out << " " << b.text(b.world.hosts[i]);
            if (b.world.hosts.size() > 12)
                out << " …";
        }
        out << "\n";
        return sanitizeText(out.str());
    }
    out << "Host " << host << ": " << ranks.size() << (ranks.size() == 1 ? " rank" : " ranks") << " ["
        << model::formatRanks(ranks) << "]\n";
    for (std::int32_t r : ranks) {
        const auto v = std::find_if(d.ranks.begin(), d.ranks.end(), [&](const auto& x) { return x.rank == r; });
        const model::RankState state = v == d.ranks.end() ? model::RankState::Unknown : v->state;
        const bool initiating = contains(d.initiatingRanks, r)
            || (d.stuckPair && (d.stuckPair->first == r || d.stuckPair->second == r));
        out << "  rank " << r << ": " << (initiating ? "named by the verdict; " : contains(d.collateralRanks, r) ? "collateral; " : "")
            << model::rankStateWords(state) << "\n";
    }
    bool any = false;
    for (const auto& f : d.findings) {
        if (std::none_of(f.ranks.begin(), f.ranks.end(), [&](std::int32_t r) { return contains(ranks, r); }))
            continue;
        if (!any)
            out << "\nFindings that name its ranks:\n";
        any = true;
        out << "  " << f.rule << " (confidence " << f.confidence << "): " << f.title << "\n";
    }
    return sanitizeText(out.str());
}

std::string answerQuestion(const model::Bundle& b, const model::Diagnosis& d, const Question& q)
{
    switch (q.kind) {
    case Question::Kind::Rank:
        return whyRankText(b, d, q.rank);
    case Question::Kind::Pair:
        return whyPairText(b, d, q.rank, q.other);
    case Question::Kind::Collective:
        return whoReachedText(b, q.collective);
    case Question::Kind::Host:
        return whyHostText(b, d, q.host);
    }
    return {};
}

} // namespace rankscope::app
