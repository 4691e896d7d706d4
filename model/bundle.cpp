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
    for (const auto& g : processGroups)
        if (g.key == key)
            return &g;
    return nullptr;
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

std::vector<const RankProgress*> Bundle::progressOf(StrId pg) const
{
    std::vector<const RankProgress*> out;
    if (progressByPgRank.size() == progress.size()) {
        auto it = std::lower_bound(progressByPgRank.begin(), progressByPgRank.end(), pg,
            [this](std::uint32_t i, StrId key) { return progress[i].pg < key; });
        for (; it != progressByPgRank.end() && progress[*it].pg == pg; ++it)
            out.push_back(&progress[*it]);
        // The index orders one group by rank, as progress itself does.
        return out;
    }
    for (const auto& p : progress)
        if (p.pg == pg)
            out.push_back(&p);
    return out;
}

const RankProgress* Bundle::progressOf(StrId pg, std::int32_t rank) const
{
    if (progressByPgRank.size() == progress.size()) {
        const auto it = std::lower_bound(progressByPgRank.begin(), progressByPgRank.end(),
            std::pair(pg, rank),
            [this](std::uint32_t i, const std::pair<StrId, std::int32_t>& key) {
                return std::pair(progress[i].pg, progress[i].rank) < key;
            });
        return it != progressByPgRank.end() && progress[*it].pg == pg && progress[*it].rank == rank
            ? &progress[*it]
            : nullptr;
    }
    for (const auto& p : progress)
        if (p.pg == pg && p.rank == rank)
            return &p;
    return nullptr;
}

std::vector<const RankProgress*> Bundle::progressOfRank(std::int32_t rank) const
{
    std::vector<const RankProgress*> out;
    if (progressByRank.size() == progress.size()) {
        auto it = std::lower_bound(progressByRank.begin(), progressByRank.end(), rank,
            [this](std::uint32_t i, std::int32_t key) { return progress[i].rank < key; });
        for (; it != progressByRank.end() && progress[*it].rank == rank; ++it)
            out.push_back(&progress[*it]);
        return out;
    }
    for (const auto& p : progress)
        if (p.rank == rank)
            out.push_back(&p);
    return out;
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
