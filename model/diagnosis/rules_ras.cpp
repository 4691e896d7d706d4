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

std::string countText(std::int64_t count)
{
    return count == 0 ? std::string("no operation") : "operation " + std::to_string(count);
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

std::string opText(OpType op)
{
    return op == OpType::Unknown ? std::string("collective") : std::string(torchName(op));
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
        const std::string where = opText(g.op) + " operation count on communicator " + (g.comm.empty() ? "?" : g.comm);
        const std::string rankWord = g.assumedRanks ? "communicator rank(s) " : "rank(s) ";
        if (!g.behind.empty()) {
            // RAS listed ranks below the count most ranks reached: they fell behind.
            const std::vector<std::int32_t> behind = keysOf(g.behind);
            Placeholders values = ctx.placeholdersFor(behind.front());
            values["ranks"] = formatRanks(behind);
            Finding& f = out.add(ctx, "ras.count_behind", RootCauseClass::StragglerStall, values);
            f.ranks = behind;
            f.confidence = g.majority >= 0 ? 0.6 : 0.4;
            if (f.title.empty())
                f.title = "NCCL RAS: " + rankWord + formatRanks(behind) + " fell behind on the " + where;
            addEvidence(b, g.events, f);
            std::string explanation = "NCCL RAS compared the " + where + " across the job: " + rankWord
                + formatRanks(behind) + " launched only up to " + countText(g.behind.begin()->second);
            if (g.majority >= 0)
                explanation += " while most ranks reached " + countText(g.majority);
            explanation += ". Ranks that never launched the operation the others are waiting in are the ones holding"
                           " the job; the others are collateral.";
            if (g.assumedRanks)
                explanation += " The logs do not tie RAS's processes to global ranks, so these are the communicator's"
                               " rank numbers.";
            f.explanation = explanation;
            if (g.majority >= 0)
                out.propose(RootCauseClass::StragglerStall, behind, f.confidence, "ras.count_behind",
                    "NCCL RAS shows " + rankWord + formatRanks(behind) + " behind on the " + where + " ("
                        + countText(g.behind.begin()->second) + " while the others reached " + countText(g.majority)
                        + ").");
            continue;
        }
        if (g.ahead.empty())
            continue;
        // Only ranks *ahead* of the rest are listed: they launched the next operation and wait
        // in it. They are not the culprits, and RAS does not name the ranks holding the rest.
        const std::vector<std::int32_t> ahead = keysOf(g.ahead);
        Placeholders values;
        values["ranks"] = formatRanks(ahead);
        Finding& f = out.add(ctx, "ras.count_ahead", std::nullopt, values);
        f.ranks = ahead;
        f.confidence = 0.3;
        if (f.title.empty())
            f.title = "NCCL RAS: " + rankWord + formatRanks(ahead) + " are ahead on the " + where + ", not behind";
        addEvidence(b, g.events, f);
        f.explanation = "NCCL RAS reports a MISMATCH of the " + where + ": most ranks launched up to "
            + countText(g.majority) + ", and only " + rankWord + formatRanks(ahead) + " already launched "
            + countText(g.ahead.begin()->second)
            + ". The listed ranks are ahead and waiting for the rest to join; they are not the culprits. The ranks that"
              " hold the job are among the majority, which RAS does not list one by one: a stack dump of every rank"
              " (py-spy) or Flight Recorder dumps show which of them never reached the next operation.";
        Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.3, "ras.count_ahead",
            "NCCL RAS shows " + rankWord + formatRanks(ahead) + " ahead of the rest on the " + where
                + "; the ranks holding the job are not named, and the listed ones are not the culprits.");
        p.status = DiagnosisStatus::Inconclusive;
    }
}

void ruleRasDeadProcess(const RuleContext& ctx, RuleOutput& out)
{
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
            std::string what = e.pid >= 0 ? "process " + std::to_string(e.pid) : std::string("a process");
            what += node.empty() ? "" : " on " + std::string(node);
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
        Placeholders values = ctx.placeholdersFor(deadRanks.front());
        values["ranks"] = formatRanks(deadRanks);
        Finding& f = out.add(ctx, "ras.dead_process", RootCauseClass::RankCrashed, values);
        f.ranks = deadRanks;
        f.confidence = 0.7;
        if (f.title.empty())
            f.title = "NCCL RAS considers " + ctx.rankLabel(deadRanks.front()) + (deadRanks.size() > 1 ? " and others" : "")
                + " dead";
        addEvidence(b, deadEvents, f);
        f.explanation = "NCCL's RAS subsystem lost contact with the process of rank(s) " + formatRanks(deadRanks)
            + " and declared it dead: the process exited, was killed, or its host dropped off the network. The other"
              " ranks of its communicators can only wait for it.";
        out.propose(RootCauseClass::RankCrashed, deadRanks, 0.7, "ras.dead_process",
            "NCCL RAS declared the process of " + ctx.rankLabel(deadRanks.front())
                + (deadRanks.size() > 1 ? " (and rank(s) " + formatRanks(deadRanks) + ")" : std::string())
                + " dead; the other ranks waited for it.");
    }
    if (!missingRanks.empty()) {
        Placeholders values = ctx.placeholdersFor(missingRanks.front());
        values["ranks"] = formatRanks(missingRanks);
        Finding& f = out.add(ctx, "ras.unresponsive", RootCauseClass::StragglerStall, values);
        f.ranks = missingRanks;
        f.confidence = 0.45;
        if (f.title.empty())
            f.title = "NCCL RAS got no answer from rank(s) " + formatRanks(missingRanks);
        addEvidence(b, std::vector<std::uint32_t>(missingEvents.begin(), missingEvents.end()), f);
        f.explanation = "NCCL RAS could not collect communicator data from rank(s) " + formatRanks(missingRanks)
            + " (INCOMPLETE): the process did not answer, which a frozen, overloaded or dying process does. Check it"
              " first; its peers in the communicator are waiting on it.";
        out.propose(RootCauseClass::StragglerStall, missingRanks, 0.45, "ras.unresponsive",
            "NCCL RAS got no answer from rank(s) " + formatRanks(missingRanks) + "; the others waited for it.");
    }
    if (!unmapped.empty()) {
        Finding& f = out.add(ctx, "ras.dead_unmapped", std::nullopt, {});
        f.confidence = 0.3;
        std::string list;
        for (const std::string& u : unmapped)
            list += (list.empty() ? "" : ", ") + u;
        if (f.title.empty())
            f.title = "NCCL RAS names processes the logs do not tie to a rank";
        addEvidence(b, deadEvents, f);
        f.explanation = "NCCL RAS reports " + list
            + " as dead or unresponsive, but no log line in the bundle ties that process to a global rank. Add the logs"
              " with NCCL_DEBUG=INFO (their 'host:pid' headers and Init lines map processes to ranks).";
        if (deadRanks.empty() && missingRanks.empty()) {
            Proposal& p = out.propose(RootCauseClass::Unknown, {}, 0.3, "ras.dead_unmapped",
                "NCCL RAS reports " + list + " as dead or unresponsive; the logs do not say which rank that is.");
            p.status = DiagnosisStatus::Inconclusive;
        }
    }
}

} // namespace rankscope::model
