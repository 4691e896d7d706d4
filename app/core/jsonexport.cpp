#include "app/core/jsonexport.h"

namespace rankscope::app {

using nlohmann::json;

namespace {

json strOrNull(const model::Bundle& b, model::StrId id)
{
    return id == model::kNoStr ? json(nullptr) : json(std::string(b.text(id)));
}

json intOrNull(std::int64_t v)
{
    return v < 0 ? json(nullptr) : json(v);
}

} // namespace

json inputsJson(const model::Bundle& b)
{
    json inputs = json::array();
    for (const auto& s : b.sources)
        inputs.push_back({ { "path", s.path }, { "bytes", s.bytes }, { "sha256", s.sha256.empty() ? json(nullptr) : json(s.sha256) },
            { "kind", std::string(model::sourceKindName(s.kind)) } });
    return inputs;
}

json worldJson(const model::Bundle& b)
{
    json hosts = json::array();
    for (auto h : b.world.hosts)
        hosts.push_back(std::string(b.text(h)));
    return { { "world_size", b.world.worldSize ? json(*b.world.worldSize) : json(nullptr) },
        { "ranks_seen", b.world.ranksSeen }, { "ranks_missing", b.world.ranksMissing },
        { "hosts", hosts } };
}

json importIssuesJson(const model::Bundle& b)
{
    json out = json::array();
    for (const auto& i : b.issues.list())
        out.push_back({ { "kind", i.kind }, { "count", i.count }, { "samples", i.samples } });
    return out;
}

json ranksSummaryJson(const model::Bundle& b)
{
    json ranks = json::array();
    for (const auto& info : b.ranks) {
        json pgs = json::array();
        for (const auto* progress : b.progressOfRank(info.rank)) {
            const model::RankProgress& p = *progress;
            pgs.push_back({ { "pg", p.pg == model::kNoStr ? json(nullptr) : json(std::string(b.text(p.pg))) },
                { "last_enqueued", p.hasStatus ? json(p.lastEnqueued) : json(nullptr) },
                { "last_completed", p.hasStatus ? json(p.lastCompleted) : json(nullptr) },
                { "timeout_seq", intOrNull(p.timeoutSeq) } });
        }
        ranks.push_back({ { "rank", info.rank }, { "host", strOrNull(b, info.host) },
            { "local_rank", intOrNull(info.localRank) }, { "pid", intOrNull(info.pid) },
            { "bus_id", strOrNull(b, info.busId) }, { "process_groups", pgs } });
    }
    return ranks;
}

json summaryJson(const model::Bundle& b)
{
    return { { "schema", "rankscope.summary/1" }, { "inputs", inputsJson(b) }, { "world", worldJson(b) },
        { "ranks", ranksSummaryJson(b) }, { "import_issues", importIssuesJson(b) } };
}

std::string dumpJson(const json& value, int indent)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace rankscope::app
