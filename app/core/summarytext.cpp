#include "app/core/summarytext.h"

#include "app/core/sanitizetext.h"
#include "model/ranklist.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace rankscope::app {

std::string formatRankList(const std::vector<std::int32_t>& ranks)
{
    return model::formatRanks(ranks);
}

namespace {

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

} // namespace

std::string summaryText(const model::Bundle& b)
{
    std::ostringstream out;
    std::map<std::string, std::pair<std::size_t, std::uint64_t>> kinds;
    for (const auto& s : b.sources) {
        auto& k = kinds[std::string(model::sourceKindName(s.kind))];
        ++k.first;
        k.second += s.bytes;
    }
    out << "Sources: " << b.sources.size() << " file(s), " << humanBytes(b.totalBytes()) << "\n";
    for (const auto& [kind, n] : kinds)
        out << "  " << kind << ": " << n.first << " (" << humanBytes(n.second) << ")\n";

    out << "World: ";
    if (b.world.worldSize)
        out << *b.world.worldSize << " ranks";
    else
        out << "size unknown";
    out << ", seen " << b.world.ranksSeen.size() << " [" << formatRankList(b.world.ranksSeen) << "]";
    if (!b.world.ranksMissing.empty())
        out << ", missing " << b.world.ranksMissing.size() << " [" << formatRankList(b.world.ranksMissing) << "]";
    out << "\n";
    out << "Hosts: " << b.world.hosts.size();
    for (std::size_t i = 0; i < b.world.hosts.size() && i < 16; ++i)
        out << (i ? ", " : " (") << b.text(b.world.hosts[i]);
    if (b.world.hosts.size() > 16)
        out << ", …";
    if (!b.world.hosts.empty())
        out << ")";
    out << "\n";

    if (!b.processGroups.empty()) {
        out << "Process groups:\n";
        for (const auto& g : b.processGroups) {
            out << "  PG " << b.text(g.key);
            if (g.desc != model::kNoStr)
                out << " (" << b.text(g.desc) << ")";
            if (g.size > 0)
                out << ", " << g.size << " ranks";
            std::vector<std::int32_t> timedOut;
            std::map<std::int64_t, std::vector<std::int32_t>> bySeq;
            for (const auto* p : b.progressOf(g.key)) {
                if (p->timeoutSeq >= 0)
                    timedOut.push_back(p->rank);
                if (p->hasStatus)
                    bySeq[p->lastCompleted].push_back(p->rank);
            }
            if (!timedOut.empty())
                out << ", timeout lines from " << timedOut.size() << " rank(s)";
            out << "\n";
            for (const auto& [seq, ranks] : bySeq)
                out << "    last completed " << seq << ": ranks " << formatRankList(ranks) << "\n";
        }
    }

    out << "Ranks:\n";
    out << "  rank  host                  local  pid       GPU bus        per-PG enqueued/completed/timeout\n";
    for (const auto& info : b.ranks) {
        char line[256];
        std::snprintf(line, sizeof line, "  %-5d %-21.21s %-6s %-9s %-14s", info.rank,
            info.host != model::kNoStr ? std::string(b.text(info.host)).c_str() : "?",
            info.localRank >= 0 ? std::to_string(info.localRank).c_str() : "?",
            info.pid >= 0 ? std::to_string(info.pid).c_str() : "?",
            info.busId != model::kNoStr ? std::string(b.text(info.busId)).c_str() : "?");
        out << line;
        bool any = false;
        for (const model::RankProgress* progress : b.progressOfRank(info.rank)) {
            const model::RankProgress& p = *progress;
            out << (any ? "; " : " ") << "PG " << (p.pg != model::kNoStr ? std::string(b.text(p.pg)) : "?") << ": ";
            out << (p.hasStatus ? std::to_string(p.lastEnqueued) : "?") << "/"
                << (p.hasStatus ? std::to_string(p.lastCompleted) : "?") << "/"
                << (p.timeoutSeq >= 0 ? "timed out at " + std::to_string(p.timeoutSeq) : "no timeout");
            any = true;
        }
        if (!info.seen && info.sources.empty())
            out << " (no logs)";
        out << "\n";
    }

    const auto issues = b.issues.list();
    if (!issues.empty()) {
        out << "Import issues:\n";
        for (const auto& i : issues) {
            out << "  " << i.kind << " ×" << i.count << "\n";
            for (const auto& s : i.samples)
                out << "    " << s << "\n";
        }
    }
    return sanitizeText(out.str()); // host names, PG names and samples come from the logs
}

} // namespace rankscope::app
