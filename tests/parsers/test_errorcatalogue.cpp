// The error catalogue's loader refuses a broken catalogue whole, naming the problem, and its
// matcher puts the most specific entry first. (The built-in catalogue's own content is
// checked in tests/app/test_explain.cpp.)

#include "parsers/errorcatalogue.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;

namespace {

std::string entry(const std::string& id, const std::string& pattern, const std::string& example,
    const std::string& extra = {})
{
    return R"({"id": ")" + id + R"(", "family": "nccl_result", "title": "T )" + id + R"(",
        "patterns": [")" + pattern + R"("], "examples": [")" + example + R"("],
        "means": "m", "not_means": "n", "classes": ["configuration"])" + extra + "}";
}

std::string catalogue(const std::string& entries)
{
    return R"({"schema": "rankscope.error-catalogue/1", "entries": [)" + entries + "]}";
}

std::string errorOf(const std::string& json)
{
    auto c = parsers::ErrorCatalogue::load(json);
    REQUIRE_FALSE(c.ok());
    return c.error().message;
}

} // namespace

TEST_CASE("a broken error catalogue is refused with its problem named", "[parsers][catalogue]")
{
    CHECK_THAT(errorOf("{"), Catch::Contains("not valid JSON"));
    CHECK_THAT(errorOf(R"({"schema": "other/1", "entries": []})"), Catch::Contains("unknown schema"));
    CHECK_THAT(errorOf(catalogue("")), Catch::Contains("no entries"));
    CHECK_THAT(errorOf(catalogue(entry("a.x", "x", "x") + "," + entry("a.x", "y", "y"))),
        Catch::Contains("a.x is used twice"));
    CHECK_THAT(errorOf(catalogue(entry("a.x", "(unclosed", "x"))), Catch::Contains("RE2 cannot compile"));
    CHECK_THAT(errorOf(catalogue(entry("a.x", "x", "x", R"(, "related": ["a.y"])"))),
        Catch::Contains("related to 'a.y'"));
    std::string badClass = entry("a.x", "x", "x");
    badClass.replace(badClass.find("configuration"), 13, "bad_luck");
    CHECK_THAT(errorOf(catalogue(badClass)), Catch::Contains("unknown class 'bad_luck'"));
    std::string badFamily = entry("a.x", "x", "x");
    badFamily.replace(badFamily.find("nccl_result"), 11, "folklore");
    CHECK_THAT(errorOf(catalogue(badFamily)), Catch::Contains("unknown family 'folklore'"));
    std::string noMeans = entry("a.x", "x", "x");
    noMeans.replace(noMeans.find("\"means\""), 7, "\"mean\"");
    CHECK_THAT(errorOf(catalogue(noMeans)), Catch::Contains("(a.x) has no \"means\" text"));
}

TEST_CASE("the catalogue puts the entry whose pattern says more first", "[parsers][catalogue]")
{
    auto c = parsers::ErrorCatalogue::load(catalogue(entry("nccl.system", "unhandled system error", "e")
        + "," + entry("nccl.system_nospace", "unhandled system error.*No space left on device", "e")
        + "," + entry("ib.error12", "Got completion from peer .* with error 12", "e")));
    REQUIRE(c.ok());
    const auto hits = c->match("NCCL error: unhandled system error (run with NCCL_DEBUG=INFO), No space left on device");
    REQUIRE(hits.size() == 2);
    CHECK(hits[0]->id == "nccl.system_nospace");
    CHECK(hits[1]->id == "nccl.system");
    CHECK(c->match("all is well").empty());
    REQUIRE(c->find("ib.error12"));
    CHECK(c->find("ib.error13") == nullptr);

    const auto words = c->search("T IB.ERROR12");
    REQUIRE(words.size() == 1);
    CHECK(words[0]->id == "ib.error12");
    CHECK(c->search("nothing like this").empty());
}
