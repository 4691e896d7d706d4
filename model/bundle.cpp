#include "model/bundle.h"

#include <algorithm>

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

std::vector<const RankProgress*> Bundle::progressOf(StrId pg) const
{
    std::vector<const RankProgress*> out;
    for (const auto& p : progress)
        if (p.pg == pg)
            out.push_back(&p);
    return out;
}

const RankProgress* Bundle::progressOf(StrId pg, std::int32_t rank) const
{
    for (const auto& p : progress)
        if (p.pg == pg && p.rank == rank)
            return &p;
    return nullptr;
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
