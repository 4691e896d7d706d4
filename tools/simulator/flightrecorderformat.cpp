#include "flightrecorderformat.h"

#include "picklewriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace rankscope::simulator {

namespace {

std::string_view profilingName(Op op)
{
    switch (op) {
    case Op::Broadcast:
        return "nccl:broadcast";
    case Op::AllReduce:
        return "nccl:all_reduce";
    case Op::AllGatherBase:
        return "nccl:_allgather_base";
    case Op::ReduceScatterBase:
        return "nccl:_reduce_scatter_base";
    }
    return "nccl:all_reduce";
}

// c10::ScalarType names as FR prints them, from the NCCL datatype enum the job model uses.
std::string_view dtypeName(int ncclDatatype)
{
    return ncclDatatype == 9 ? "BFloat16" : ncclDatatype == 6 ? "Half" : "Float";
}

std::string_view stateName(FrEntryState s)
{
    switch (s) {
    case FrEntryState::Scheduled:
        return "scheduled";
    case FrEntryState::Started:
        return "started";
    case FrEntryState::Completed:
        return "completed";
    }
    return "scheduled";
}

// pg_config "ranks" is a string ([formats 2.3]): "[0, 1, 2, 3]".
std::string rankListText(int world)
{
    std::string s = "[";
    for (int r = 0; r < world; ++r) {
        if (r > 0)
            s += ", ";
        s += std::to_string(r);
    }
    return s + "]";
}

constexpr std::string_view kThreadName = "pt_main_thread";

std::string threadId(int rank)
{
    return std::to_string(139'900'000'000'000ULL + static_cast<std::uint64_t>(rank) * 4'096'000ULL);
}

void sizes(PickleWriter& w, std::uint64_t numel)
{
    // [[numel]]: torch writes every list as EMPTY_LIST MARK … APPENDS.
    w.emptyList();
    w.mark();
    w.emptyList();
    w.mark();
    w.integer(static_cast<std::int64_t>(numel));
    w.appends();
    w.appends();
}

void dtypes(PickleWriter& w, int dtype)
{
    w.emptyList();
    w.mark();
    w.str(dtypeName(dtype));
    w.appends();
}

void optionalNs(PickleWriter& w, std::int64_t ns)
{
    if (ns < 0)
        w.none();
    else
        w.integer(ns);
}

// FlightRecorder symbolizes each distinct frame once into a dict held by all_frames, so
// every entry's frame list refers to the same dict objects: the pickler memoizes them.
void frame(PickleWriter& w, const FrFrame& f)
{
    const std::string key = "frame:" + f.file + ':' + std::to_string(f.line) + ':' + f.name;
    if (w.sharedObject(key))
        return;
    w.emptyDict();
    w.openShared(key);
    w.mark();
    w.str("name");
    w.str(f.name);
    w.str("filename");
    w.str(f.file);
    w.str("line");
    w.integer(f.line);
    w.setitems();
    w.closeShared();
}

void entry(PickleWriter& w, const FrTraceDump& d, const FrTraceEntry& e, std::string_view version)
{
    w.emptyDict();
    w.mark();
    w.str("record_id");
    w.integer(e.recordId);
    w.str("pg_id");
    w.integer(0);
    w.str("process_group");
    w.str("0");
    w.str("default_pg");
    w.tuple2();
    w.str("collective_seq_id");
    w.integer(e.collectiveSeq);
    w.str("p2p_seq_id");
    w.integer(e.p2pSeq);
    w.str("op_id");
    w.integer(e.opId);
    w.str("profiling_name");
    w.str(profilingName(e.op));
    w.str("time_created_ns");
    w.integer(e.createdNs);
    if (e.durationMs >= 0) {
        w.str("duration_ms");
        w.real(e.durationMs);
    }
    w.str("input_sizes");
    sizes(w, e.numelIn);
    w.str("input_dtypes");
    dtypes(w, e.dtype);
    w.str("output_sizes");
    sizes(w, e.numelOut);
    w.str("output_dtypes");
    dtypes(w, e.dtype);
    w.str("state");
    w.str(stateName(e.state));
    w.str("time_discovered_started_ns");
    optionalNs(w, e.discoveredStartedNs);
    w.str("time_discovered_completed_ns");
    optionalNs(w, e.discoveredCompletedNs);
    w.str("retired");
    w.boolean(e.retired);
    w.str("timeout_ms");
    w.integer(d.timeoutMs);
    w.str("is_p2p");
    w.boolean(false);
    if (version == "2.10") {
        w.str("thread_name");
        w.str(kThreadName);
        w.str("thread_id");
        w.str(threadId(d.rank));
    }
    w.str("frames");
    w.emptyList();
    w.mark();
    for (const FrFrame& f : d.stacks[e.stack])
        frame(w, f);
    w.appends();
    w.setitems();
}

} // namespace

std::string flightRecorderPickle(const FrTraceDump& d, std::string_view version)
{
    PickleWriter w(PickleDialect::TorchProtocol2);
    w.begin();
    w.emptyDict();
    w.mark();
    w.str("version");
    w.str(version);
    if (version == "2.7") {
        w.str("nccl_version");
        w.str(d.ncclVersion);
    }
    if (version == "2.10") {
        w.str("comm_lib_version");
        w.str(d.ncclVersion);
    }
    w.str("pg_config");
    w.emptyDict();
    w.mark();
    w.str("0");
    w.emptyDict();
    w.mark();
    w.str("name");
    w.str("0");
    w.str("desc");
    w.str("default_pg");
    w.str("ranks");
    w.str(rankListText(d.worldSize));
    w.setitems();
    w.setitems();
    w.str("pg_status");
    w.emptyDict();
    w.mark();
    w.str("0");
    w.emptyDict();
    w.mark();
    w.str("last_enqueued_collective");
    w.integer(d.lastEnqueued);
    w.str("last_started_collective");
    w.integer(d.lastStarted);
    w.str("last_completed_collective");
    w.integer(d.lastCompleted);
    w.setitems();
    w.setitems();
    w.str("entries");
    w.emptyList();
    w.mark();
    for (const FrTraceEntry& e : d.entries)
        entry(w, d, e, version);
    w.appends();
    w.setitems();
    return w.finish();
}

std::string flightRecorderJson(const FrTraceDump& d, std::string_view version)
{
    nlohmann::ordered_json j;
    j["version"] = version;
    j["comm_lib_version"] = version == "2.10" ? d.ncclVersion : std::string();
    j["pg_config"]["0"]
        = { { "name", "0" }, { "desc", "default_pg" }, { "ranks", rankListText(d.worldSize) } };
    j["pg_status"]["0"] = { { "last_enqueued_collective", std::to_string(d.lastEnqueued) },
        { "last_started_collective", std::to_string(d.lastStarted) },
        { "last_completed_collective", std::to_string(d.lastCompleted) } };
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const FrTraceEntry& e : d.entries) {
        nlohmann::ordered_json je;
        je["record_id"] = e.recordId;
        je["pg_id"] = 0;
        je["process_group"] = nlohmann::ordered_json::array({ "0", "default_pg" });
        je["collective_seq_id"] = e.collectiveSeq;
        je["p2p_seq_id"] = e.p2pSeq;
        je["op_id"] = e.opId;
        je["profiling_name"] = profilingName(e.op);
        je["time_created_ns"] = e.createdNs;
        if (e.durationMs >= 0)
            je["duration_ms"] = e.durationMs;
        je["input_sizes"]
            = nlohmann::ordered_json::array({ nlohmann::ordered_json::array({ e.numelIn }) });
        je["input_dtypes"] = nlohmann::ordered_json::array({ dtypeName(e.dtype) });
        je["output_sizes"]
            = nlohmann::ordered_json::array({ nlohmann::ordered_json::array({ e.numelOut }) });
        je["output_dtypes"] = nlohmann::ordered_json::array({ dtypeName(e.dtype) });
        je["state"] = stateName(e.state);
        je["time_discovered_started_ns"] = std::max<std::int64_t>(0, e.discoveredStartedNs);
        je["time_discovered_completed_ns"] = std::max<std::int64_t>(0, e.discoveredCompletedNs);
        je["retired"] = e.retired;
        je["timeout_ms"] = d.timeoutMs;
        je["is_p2p"] = false;
        if (version == "2.10") {
            je["thread_name"] = kThreadName;
            je["thread_id"] = threadId(d.rank);
        }
        entries.push_back(std::move(je));
    }
    if (!entries.empty())
        j["entries"] = std::move(entries);
    return j.dump() + "\n";
}

} // namespace rankscope::simulator
