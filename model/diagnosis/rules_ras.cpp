// NCCL RAS rules ([formats 4]). RAS looks at the job from the outside: it lists the
// processes it considers dead or that did not answer, and the ranks whose operation counts
// differ from the rest of a communicator. What it lists needs care: in a count MISMATCH the
// listed ranks are the *minority*, which can be the ranks that are ahead and waiting (they
// are not culprits) as well as the ones that fell behind (NVIDIA/nccl#1911).

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

bool sameHost(std::string_view a, std::string_view b)
{
    if (a == b)
        return true;
    // "node-07" and "node-07.cluster.local" name the same machine.
    const auto shortName = [](std::string_view s) { return s.substr(0, s.find('.')); };
    const bool numeric = !a.empty() && a.find_first_not_of("0123456789.") == std::string_view::npos;
    return !numeric && shortName(a) == shortName(b);
}

bool rankOnNode(const Bundle& b, const RankInfo& info, std::string_view node)
{
    if (info.host != kNoStr && sameHost(b.text(info.host), node))
        return true;
    return std::any_of(info.ips.begin(), info.ips.end(), [&](StrId ip) { return b.text(ip) == node; });
}

// The global ranks a RAS process reference ("process P on node H") can be: the rank with
// that pid on that node when the logs tie them, else every rank known on that node.
struct ProcessMatch {
    std::vector<std::int32_t> ranks;
    bool exact = false; // pid and node matched one rank
};

ProcessMatch ranksOfProcess(const Bundle& b, std::string_view node, std::int32_t pid)
{
    ProcessMatch m;
    if (node.empty())
        return m;
    for (const RankInfo& info : b.ranks) {
        if (info.rank < 0 || !rankOnNode(b, info, node))
            continue;
        if (pid >= 0 && info.pid == pid) {
            m.ranks = { info.rank };
            m.exact = true;
            return m;
        }
        m.ranks.push_back(info.rank);
    }
    return m;
}

// Global rank of a rank RAS names by its communicator rank: through the process when the logs
// tie it, else the communicator rank itself when the bundle knows no ranks of its own (a
// saved RAS report alone) — said so in the explanation.
std::int32_t globalRankOf(const Bundle& b, const Event& e, bool& assumed)
{
    const ProcessMatch m = ranksOfProcess(b, e.peer == kNoStr ? std::string_view {} : b.text(e.peer), e.pid);
    if (m.exact)
        return m.ranks.front();
    assumed = true;
    return e.peerRank;
}

// The words both count findings use are ras.count_behind's phrases.
constexpr const char* kCountWords = "ras.count_behind";

std::string countText(const RuleContext& ctx, std::int64_t count)
{
    return count == 0 ? ctx.say(kCountWords, "count_none")
                      : ctx.say(kCountWords, "count_at", { { "count", std::to_string(count) } });
}

struct MismatchGroup {
    std::string comm;
    OpType op = OpType::Unknown;
    std::int64_t majority = -1;
    std::map<std::int32_t, std::int64_t> behind; // global rank → its count
    std::map<std::int32_t, std::int64_t> ahead;
    std::vector<std::uint32_t> events;
    bool assumedRanks = false;
};

std::vector<MismatchGroup> mismatchGroups(const Bundle& b)
{
    std::vector<MismatchGroup> groups;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::RasCountMismatch || e.peerRank < 0)
            continue;
        const std::string comm(e.detail == kNoStr ? std::string_view {} : b.text(e.detail));
        auto it = std::find_if(groups.begin(), groups.end(),
            [&](const MismatchGroup& g) { return g.comm == comm && g.op == e.op && g.majority == e.code; });
        if (it == groups.end()) {
            groups.push_back({ comm, e.op, e.code, {}, {}, {}, false });
            it = groups.end() - 1;
        }
        const std::int32_t rank = globalRankOf(b, e, it->assumedRanks);
        if (e.code >= 0 && e.seq > e.code)
            it->ahead[rank] = e.seq;
        else
            it->behind[rank] = e.seq;
        it->events.push_back(i);
    }
    return groups;
}

std::vector<std::int32_t> keysOf(const std::map<std::int32_t, std::int64_t>& m)
{
    std::vector<std::int32_t> out;
    for (const auto& [rank, count] : m)
        out.push_back(rank);
    return out;
}

std::string opText(const RuleContext& ctx, OpType op)
{
    return op == OpType::Unknown ? ctx.say(kCountWords, "op_unknown") : std::string(torchName(op));
}

void addEvidence(const Bundle& b, const std::vector<std::uint32_t>& events, Finding& f)
{
    for (std::uint32_t i : events) {
        if (f.evidence.size() >= 6)
            break;
        f.evidence.push_back(evidenceOf(b, i));
    }
}

} // namespace

void ruleRasCountMismatch(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    for (const MismatchGroup& g : mismatchGroups(b)) {
        const std::string where = ctx.say(kCountWords, "where",
            { { "op", opText(ctx, g.op) },
                { "comm", g.comm.empty() ? ctx.say(kCountWords, "comm_unknown") : g.comm } });
        const std::string rankWord
            = ctx.say(kCountWords, g.assumedRanks ? "rank_word_communicator" : "rank_word");
        if (!g.behind.empty()) {
            // RAS listed ranks below the count most ranks reached: they fell behind.
            static constexpr const char* kRule = "ras.count_behind";
            const std::vector<std::int32_t> behind = keysOf(g.behind);
            Placeholders values = ctx.placeholdersFor(behind.front());
            values["ranks"] = formatRanks(behind);
            values["rank_word"] = rankWord;
            values["where"] = where;
            values["behind_count"] = countText(ctx, g.behind.begin()->second);
            if (g.majority >= 0) {
                values["majority_count"] = countText(ctx, g.majority);
                values["majority"] = ctx.say(kRule, "majority", values);
            }
            if (g.assumedRanks)
                values["assumed"] = ctx.say(kRule, "assumed_ranks");
            Finding& f = out.add(ctx, kRule, RootCauseClass::StragglerStall, values);
            f.ranks = behind;
            f.confidence = g.majority >= 0 ? 0.6 : 0.4;
            addEvidence(b, g.events, f);
            f.explanation = ctx.explain(kRule, values);
            if (g.majority >= 0)
                out.propose(RootCauseClass::StragglerStall, behind, f.confidence, kRule,
                    ctx.verdict(kRule, values));
            continue;
        }
        if (g.ahead.empty())
            continue;
        // Only ranks *ahead* of the rest are listed: they launched the next operation and wait
        // in it. They are not the culprits, and RAS does not name the ranks holding the rest.
        static constexpr const char* kRule = "ras.count_ahead";
        const std::vector<std::int32_t> ahead = keysOf(g.ahead);
        Placeholders values;
        values["ranks"] = formatRanks(ahead);
        values["rank_word"] = rankWord;
        values["where"] = where;
        values["majority_count"] = countText(ctx, g.majority);
        values["ahead_count"] = countText(ctx, g.ahead.begin()->second);
        Finding& f = out.add(ctx, kRule, std::nullopt, values);
        f.ranks = ahead;
        f.confidence = 0.3;
        addEvidence(b, g.events, f);
        f.explanation = ctx.explain(kRule, values);
        Proposal& p
            = out.propose(RootCauseClass::Unknown, {}, 0.3, kRule, ctx.verdict(kRule, values));
        p.status = DiagnosisStatus::Inconclusive;
    }
}

void ruleRasDeadProcess(const RuleContext& ctx, RuleOutput& out)
{
    static constexpr const char* kUnmapped = "ras.dead_unmapped";
    const Bundle& b = ctx.bundle;
    std::vector<std::int32_t> deadRanks;
    std::vector<std::uint32_t> deadEvents;
    std::vector<std::string> unmapped; // "process P on node H" RAS names that no rank matches
    std::set<std::uint32_t> missingEvents;
    std::vector<std::int32_t> missingRanks;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::RasDeadProcess && e.kind != EventKind::RasMissingRank)
            continue;
        const std::string_view node = e.peer == kNoStr ? std::string_view {} : b.text(e.peer);
        ProcessMatch m = ranksOfProcess(b, node, e.pid);
        if (!m.exact && e.kind == EventKind::RasMissingRank && e.peerRank >= 0 && m.ranks.empty())
            m = { { e.peerRank }, false }; // a comm rank from a saved report with no logs besides
        const bool dead = e.kind == EventKind::RasDeadProcess;
        if (m.ranks.size() != 1) {
            Placeholders process { { "process_id", std::to_string(e.pid) } };
            if (!node.empty())
                process["on_node"]
                    = ctx.say(kUnmapped, "on_node", { { "node", std::string(node) } });
            const std::string what
                = ctx.say(kUnmapped, e.pid >= 0 ? "process" : "process_unknown", process);
            if (std::find(unmapped.begin(), unmapped.end(), what) == unmapped.end())
                unmapped.push_back(what);
            deadEvents.push_back(i);
            continue;
        }
        if (dead) {
            deadRanks.push_back(m.ranks.front());
            deadEvents.push_back(i);
        } else {
            missingRanks.push_back(m.ranks.front());
            missingEvents.insert(i);
        }
    }
    auto unique = [](std::vector<std::int32_t>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    unique(deadRanks);
    unique(missingRanks);

    if (!deadRanks.empty()) {
        static constexpr const char* kRule = "ras.dead_process";
        Placeholders values = ctx.placeholdersFor(deadRanks.front());
        values["ranks"] = formatRanks(deadRanks);
        values["who"] = ctx.rankLabel(deadRanks.front());
        if (deadRanks.size() > 1) {
            values["and_others"] = ctx.say(kRule, "and_others");
            values["also_ranks"] = ctx.say(kRule, "also_ranks", values);
        }
        Finding& f = out.add(ctx, kRule, RootCauseClass::RankCrashed, values);
        f.ranks = deadRanks;
        f.confidence = 0.7;
        addEvidence(b, deadEvents, f);
        f.explanation = ctx.explain(kRule, values);
        out.propose(RootCauseClass::RankCrashed, deadRanks, 0.7, kRule, ctx.verdict(kRule, values));
    }
    if (!missingRanks.empty()) {
        static constexpr const char* kRule = "ras.unresponsive";
        Placeholders values = ctx.placeholdersFor(missingRanks.front());
        values["ranks"] = formatRanks(missingRanks);
        Finding& f = out.add(ctx, kRule, RootCauseClass::StragglerStall, values);
        f.ranks = missingRanks;
        f.confidence = 0.45;
        addEvidence(b, std::vector<std::uint32_t>(missingEvents.begin(), missingEvents.end()), f);
        f.explanation = ctx.explain(kRule, values);
        out.propose(
            RootCauseClass::StragglerStall, missingRanks, 0.45, kRule, ctx.verdict(kRule, values));
    }
    if (!unmapped.empty()) {
        std::string list;
        for (const std::string& u : unmapped)
            list += (list.empty() ? "" : ", ") + u;
        const Placeholders values { { "processes", list } };
        Finding& f = out.add(ctx, kUnmapped, std::nullopt, values);
        f.confidence = 0.3;
        addEvidence(b, deadEvents, f);
        f.explanation = ctx.explain(kUnmapped, values);
        if (deadRanks.empty() && missingRanks.empty()) {
            Proposal& p = out.propose(
                RootCauseClass::Unknown, {}, 0.3, kUnmapped, ctx.verdict(kUnmapped, values));
            p.status = DiagnosisStatus::Inconclusive;
        }
    }
}

} // namespace rankscope::model
