// torchrun error.json ([formats 5.3]).
#include "parsers/errorfileparser.h"

#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using rankscope::model::EventKind;
using rankscope::model::Severity;
using rankscope::model::TimeDomain;
using rankscope::model::TimePrecision;
using rankscope::testing::eventsOf;
using rankscope::testing::firstOf;
using rankscope::testing::str;

namespace {

model::ParsedSource parse(std::string_view json)
{
    model::Source src;
    src.id = 7;
    src.path = "run/attempt_0/1/error.json";
    model::ParsedSource out(std::move(src));
    parsers::parseErrorFile(json, out);
    return out;
}

// The shape @record writes (pytorch/pytorch#67581), with the agent's errorCode added.
const char* const kRecordFormat = R"({
  "message": {
    "message": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.15 GiB of which 842.32 MiB is free.",
    "extraInfo": {
      "py_callstack": "Traceback (most recent call last):\n  File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py\", line 346, in wrapper\n    return f(*args, **kwargs)\n  File \"/w/train.py\", line 120, in main\n    loss = model(batch)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.15 GiB of which 842.32 MiB is free.\n",
      "timestamp": "1686774970"
    },
    "errorCode": 1
  }
})";

} // namespace

TEST_CASE("error.json written by @record yields the error event and the traceback",
    "[parsers][errorfile]")
{
    const auto p = parse(kRecordFormat);
    CHECK(p.issues.empty());
    const auto* e = firstOf(p, EventKind::LauncherErrorFile);
    REQUIRE(e);
    CHECK(e->severity == Severity::Error);
    CHECK(str(p, e->detail) == "torch.OutOfMemoryError");
    CHECK(str(p, e->text).starts_with("CUDA out of memory. Tried to allocate 2.00 GiB."));
    CHECK(e->code == 1);
    CHECK(e->time.domain == TimeDomain::Utc);
    CHECK(e->time.precision == TimePrecision::Second);
    CHECK(e->time.ns == 1686774970LL * model::kNsPerSecond);
    CHECK(e->evidence.source == 7);
    CHECK(e->evidence.line == 1);
    CHECK(e->evidence.offset == 0);

    REQUIRE(p.tracebacks.size() == 1);
    const auto& tb = p.tracebacks[0];
    CHECK(str(p, tb.exceptionType) == "torch.OutOfMemoryError");
    REQUIRE(tb.frames.size() == 2);
    CHECK(str(p, tb.frames[0].function) == "wrapper");
    CHECK(str(p, tb.frames[1].file) == "/w/train.py");
    CHECK(tb.frames[1].line == 120);
    CHECK(tb.time.domain == TimeDomain::Utc);

    // The OOM in the callstack is reported; the traceback's exception is not doubled.
    const auto* oom = firstOf(p, EventKind::CudaOutOfMemory);
    REQUIRE(oom);
    CHECK(oom->code == 1);
    CHECK(eventsOf(p, EventKind::PythonException).empty());
}

TEST_CASE("the new error.json format with a numeric timestamp", "[parsers][errorfile]")
{
    const auto p = parse(
        R"({"message": "RuntimeError: NCCL communicator was aborted on rank 3.", "timestamp": 1700000000})");
    const auto* e = firstOf(p, EventKind::LauncherErrorFile);
    REQUIRE(e);
    CHECK(str(p, e->detail) == "RuntimeError");
    CHECK(str(p, e->text) == "NCCL communicator was aborted on rank 3.");
    CHECK(e->code == 0);
    CHECK(e->time.ns == 1700000000LL * model::kNsPerSecond);
    CHECK(p.tracebacks.empty());
    CHECK(p.issues.empty());
}

TEST_CASE("a message that is no exception line is kept whole", "[parsers][errorfile]")
{
    const auto p = parse(R"({"message": {"message": "<NONE>", "extraInfo": {"timestamp": "0"}}})");
    const auto* e = firstOf(p, EventKind::LauncherErrorFile);
    REQUIRE(e);
    CHECK(str(p, e->detail).empty());
    CHECK(str(p, e->text) == "<NONE>");
    CHECK_FALSE(e->time.valid()); // 0 is "unknown", not 1970
}

TEST_CASE(
    "a CUDA error in the message is reported even without a callstack", "[parsers][errorfile]")
{
    const auto p = parse(
        R"({"message": "RuntimeError: CUDA error: an illegal memory access was encountered", "timestamp": "1700000000"})");
    const auto* cuda = firstOf(p, EventKind::CudaError);
    REQUIRE(cuda);
    CHECK(str(p, cuda->text) == "CUDA error: an illegal memory access was encountered");
    CHECK(cuda->time.domain == TimeDomain::Utc);
}

TEST_CASE("malformed JSON becomes a bad_error_file issue", "[parsers][errorfile]")
{
    for (const char* bad : { "", "{", "{\"message\": {\"message\": \"x\"", "\xff\xfe{}", "null",
             "[1, 2, 3]", "{\"message\": 42}", "{\"other\": \"x\"}", "{\"message\": \"\"}" }) {
        INFO(bad);
        const auto p = parse(bad);
        CHECK(p.issues.count("bad_error_file") == 1);
        CHECK(p.events.empty());
        CHECK(p.tracebacks.empty());
    }
    const auto p = parse("{");
    REQUIRE(p.issues.list().size() == 1);
    CHECK(p.issues.list()[0].samples.at(0) == "run/attempt_0/1/error.json: not valid JSON");
}

TEST_CASE("absurdly nested JSON is refused without recursion", "[parsers][errorfile]")
{
    const std::string deep = std::string(200000, '[') + std::string(200000, ']');
    const auto p = parse(deep);
    CHECK(p.issues.count("bad_error_file") == 1);
    CHECK(p.events.empty());
}

TEST_CASE("odd field types are tolerated", "[parsers][errorfile]")
{
    const auto p = parse(
        R"({"message": {"message": "ValueError: x", "extraInfo": {"py_callstack": 5, "timestamp": "soon"}, "errorCode": 1e30}})");
    const auto* e = firstOf(p, EventKind::LauncherErrorFile);
    REQUIRE(e);
    CHECK(str(p, e->detail) == "ValueError");
    CHECK(e->code == 0);
    CHECK_FALSE(e->time.valid());
    CHECK(p.issues.empty());
}

TEST_CASE("a callstack cut short yields a truncated traceback", "[parsers][errorfile]")
{
    const auto p = parse(
        R"({"message": {"message": "RuntimeError: x", "extraInfo": {"py_callstack": "Traceback (most recent call last):\n  File \"/w/a.py\", line 3, in f\n", "timestamp": "1700000000"}}})");
    REQUIRE(p.tracebacks.size() == 1);
    CHECK(str(p, p.tracebacks[0].exceptionType).empty());
    CHECK(p.issues.count("truncated_traceback") == 1);
    CHECK(eventsOf(p, EventKind::LauncherErrorFile).size() == 1);
}

TEST_CASE("error files are recognised by their first bytes", "[parsers][errorfile]")
{
    using parsers::looksLikeErrorFile;
    CHECK(looksLikeErrorFile(kRecordFormat));
    CHECK(looksLikeErrorFile("\xEF\xBB\xBF\n  {\"message\": \"x\", \"timestamp\": 1}"));
    CHECK_FALSE(looksLikeErrorFile("[2024-01-01] \"message\""));
    CHECK_FALSE(looksLikeErrorFile("{\"version\": \"2.3\", \"entries\": []}"));
    CHECK_FALSE(looksLikeErrorFile(""));
    CHECK_FALSE(looksLikeErrorFile("   "));
}
