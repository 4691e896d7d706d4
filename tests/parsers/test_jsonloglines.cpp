// Logs exported one JSON record per line are read as the lines they carry.
#include "parsers/contentsniff.h"
#include "parsers/jsonloglines.h"
#include "parsers/sourcebuilder.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace rankscope;

namespace {

std::string timeoutOf(int rank)
{
    return "[rank" + std::to_string(rank) + "]:[E1206 18:44:13.275 ProcessGroupNCCL.cpp:632] [Rank "
        + std::to_string(rank)
        + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, "
          "NumelIn=1, "
          "NumelOut=1, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.";
}

std::string quoted(const std::string& text)
{
    return nlohmann::json(text).dump();
}

// `text` fed in pieces of `piece` bytes after a first one of `first` (the head the content
// is told by), as a big export arrives.
model::ParsedSource read(
    const std::string& text, std::size_t piece = 1 << 20, std::size_t first = 1 << 20)
{
    parsers::LoadLimits limits;
    model::Source meta;
    meta.id = 1;
    meta.path = "export.json";
    parsers::SourceBuilder builder(meta, limits);
    builder.feed(std::string_view(text).substr(0, first));
    for (std::size_t i = first; i < text.size(); i += piece)
        builder.feed(std::string_view(text).substr(i, piece));
    return builder.finish();
}

std::vector<const model::Event*> timeouts(const model::ParsedSource& parsed)
{
    std::vector<const model::Event*> out;
    for (const auto& e : parsed.events)
        if (e.kind == model::EventKind::TorchWatchdogTimeout)
            out.push_back(&e);
    return out;
}

} // namespace

TEST_CASE("a JSON log export is told from a JSON document", "[parsers][jsonlines]")
{
    const std::string docker
        = "{\"log\":\"hello\\n\",\"stream\":\"stderr\",\"time\":\"2024-05-01T10:00:00.1Z\"}\n"
          "{\"log\":\"world\\n\",\"stream\":\"stderr\",\"time\":\"2024-05-01T10:00:01.1Z\"}\n";
    CHECK(parsers::sniffContent(docker) == parsers::ContentKind::JsonLines);
    // One object alone is a document: a torchrun error file has a "message" string too.
    CHECK(parsers::sniffContent("{\"message\": \"RuntimeError: x\", \"timestamp\": 1700000000}\n")
        == parsers::ContentKind::Json);
    CHECK(parsers::sniffContent("{\n  \"log\": \"x\"\n}\n") == parsers::ContentKind::Json);
    // Records without a log line (a metrics export) are not a log.
    CHECK(
        parsers::sniffContent("{\"loss\": 1.5}\n{\"loss\": 1.4}\n") == parsers::ContentKind::Json);
}

TEST_CASE("each record of a Docker json-file log is read as its line", "[parsers][jsonlines]")
{
    std::string docker;
    docker += "{\"log\":\"starting\\n\",\"stream\":\"stdout\",\"time\":\"2024-05-01T10:00:00."
              "000000001Z\"}\n";
    docker += "{\"log\":" + quoted(timeoutOf(3) + "\n")
        + ",\"stream\":\"stderr\",\"time\":\"2024-05-01T10:10:00.5Z\"}\n";
    docker += "not a record, kept as a line\n";
    docker += "{\"log\":" + quoted(timeoutOf(5) + "\n")
        + ",\"stream\":\"stderr\",\"time\":\"2024-05-01T10:10:01.5Z\"}";
    for (std::size_t piece : { std::size_t(1) << 20, std::size_t(7) }) {
        INFO("pieces of " << piece);
        const auto parsed = read(docker, piece, 200); // the head holds two records
        const auto found = timeouts(parsed);
        REQUIRE(found.size() == 2);
        CHECK(found[0]->evidence.line == 2); // the record's own line in the file
        CHECK(parsed.identities[found[0]->identity].globalRank == 3);
        CHECK(found[0]->time.valid());
        CHECK(found[1]->evidence.line
            == 4); // after the line that was no record, and with no final newline
        CHECK(parsed.issues.count("json_lines_read") == 1);
    }
}

TEST_CASE("a Cloud Logging export names the pod and keeps a record's lines together",
    "[parsers][jsonlines]")
{
    auto record = [](const std::string& text, const std::string& pod) {
        return "{\"textPayload\":" + quoted(text)
            + ",\"timestamp\":\"2024-05-01T10:10:00.5Z\",\"resource\":{\"type\":\"k8s_container\","
              "\"labels\":{\"pod_name\":\""
            + pod + "\",\"container_name\":\"pytorch\"}},\"severity\":\"ERROR\"}\n";
    };
    const std::string traceback
        = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
          "    main()\nRuntimeError: CUDA error: an illegal memory access was encountered\n";
    const std::string text = record(timeoutOf(1), "trainer-worker-0")
        + record(traceback, "trainer-worker-1") + record(timeoutOf(2), "trainer-worker-0");
    const auto parsed = read(text);
    const auto found = timeouts(parsed);
    REQUIRE(found.size() == 2);
    CHECK(parsed.text(parsed.identities[found[0]->identity].host) == "trainer-worker-0");
    CHECK(found[1]->evidence.line == 3); // the four-line traceback was one record
    bool cudaError = false;
    for (const auto& e : parsed.events)
        if (e.kind == model::EventKind::CudaError) {
            cudaError = true;
            CHECK(e.evidence.line == 2);
        }
    CHECK(cudaError);
}
