#include "model/bundle.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace rankscope::model {

std::string_view rankEvidenceName(RankEvidence evidence)
{
    switch (evidence) {
    case RankEvidence::None:
        return "none";
    case RankEvidence::Inferred:
        return "inferred";
    case RankEvidence::FileName:
        return "file name";
    case RankEvidence::LauncherTable:
        return "launcher table";
    case RankEvidence::NcclInit:
        return "NCCL init";
    case RankEvidence::Explicit:
        return "explicit";
    }
    return "none";
}

const ProcessGroup* Bundle::processGroup(StrId key) const
{
    if (processGroupsByKey.size() == processGroups.size()) {
        auto it = std::lower_bound(processGroupsByKey.begin(), processGroupsByKey.end(), key,
            [this](std::uint32_t i, StrId k) { return processGroups[i].key < k; });
        return it != processGroupsByKey.end() && processGroups[*it].key == key ? &processGroups[*it]
                                                                               : nullptr;
    }
    for (const auto& g : processGroups)
        if (g.key == key)
            return &g;
    return nullptr;
}

void Bundle::indexProcessGroups()
{
    processGroupsByKey.resize(processGroups.size());
    std::iota(processGroupsByKey.begin(), processGroupsByKey.end(), 0u);
    std::stable_sort(processGroupsByKey.begin(), processGroupsByKey.end(),
        [this](std::uint32_t a, std::uint32_t b) {
            return processGroups[a].key < processGroups[b].key;
        });
}

void Bundle::indexProgress()
{
    const auto n = static_cast<std::uint32_t>(progress.size());
    progressByPgRank.resize(n);
    std::iota(progressByPgRank.begin(), progressByPgRank.end(), 0u);
    progressByRank = progressByPgRank;
    std::stable_sort(
        progressByPgRank.begin(), progressByPgRank.end(), [this](std::uint32_t a, std::uint32_t b) {
            return std::pair(progress[a].pg, progress[a].rank)
                < std::pair(progress[b].pg, progress[b].rank);
        });
    std::stable_sort(progressByRank.begin(), progressByRank.end(),
        [this](std::uint32_t a, std::uint32_t b) { return progress[a].rank < progress[b].rank; });
}

namespace {

// The records whose key equals value, found through order (positions in progress sorted by
// that key, progress's own order kept among equals) when it indexes all of progress, else by
// a scan; in progress's order among equals either way.
template <class Key, class Value>
std::vector<const RankProgress*> progressMatching(const std::vector<RankProgress>& progress,
    const std::vector<std::uint32_t>& order, Key key, const Value& value)
{
    std::vector<const RankProgress*> out;
    if (order.size() == progress.size()) {
        auto it = std::lower_bound(order.begin(), order.end(), value,
            [&](std::uint32_t i, const Value& v) { return key(progress[i]) < v; });
        for (; it != order.end() && key(progress[*it]) == value; ++it)
            out.push_back(&progress[*it]);
        return out;
    }
    for (const auto& p : progress)
        if (key(p) == value)
            out.push_back(&p);
    return out;
}

} // namespace

std::vector<const RankProgress*> Bundle::progressOf(StrId pg) const
{
    return progressMatching(
        progress, progressByPgRank, [](const RankProgress& p) { return p.pg; }, pg);
}

const RankProgress* Bundle::progressOf(StrId pg, std::int32_t rank) const
{
    const auto found = progressMatching(
        progress, progressByPgRank, [](const RankProgress& p) { return std::pair(p.pg, p.rank); },
        std::pair(pg, rank));
    return found.empty() ? nullptr : found.front();
}

std::vector<const RankProgress*> Bundle::progressOfRank(std::int32_t rank) const
{
    return progressMatching(
        progress, progressByRank, [](const RankProgress& p) { return p.rank; }, rank);
}

std::vector<std::uint32_t> Bundle::eventsOfRank(std::int32_t rank) const
{
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < events.size(); ++i)
        if (events[i].rank == rank)
            out.push_back(i);
    return out;
}

std::uint64_t Bundle::totalBytes() const
{
    std::uint64_t n = 0;
    for (const auto& s : sources)
        n += s.bytes;
    return n;
}

bool Bundle::recognisedAnything() const
{
    for (const auto& s : sources)
        if (s.recognisedLines > 0)
            return true;
    return !events.empty() || !tracebacks.empty() || !frDumps.empty();
}

std::set<std::string_view> Bundle::hostNames() const
{
    std::set<std::string_view> hosts;
    for (StrId host : world.hosts)
        hosts.insert(text(host));
    for (const RawIdentity& id : identities)
        if (id.host != kNoStr)
            hosts.insert(text(id.host));
    for (const Source& src : sources)
        if (!src.pathIdentity.host.empty())
            hosts.insert(src.pathIdentity.host);
    return hosts;
}

std::string Bundle::describeRank(std::int32_t rank) const
{
    std::string out = "rank " + std::to_string(rank);
    const RankInfo* info = rankInfo(rank);
    if (!info)
        return out;
    std::string extra;
    if (info->host != kNoStr)
        extra += text(info->host);
    const std::int32_t gpu = info->cudaDev >= 0 ? info->cudaDev : info->localRank;
    if (gpu >= 0)
        extra += (extra.empty() ? "" : ", ") + std::string("GPU ") + std::to_string(gpu);
    if (!extra.empty())
        out += " (" + extra + ")";
    return out;
}

} // namespace rankscope::model
