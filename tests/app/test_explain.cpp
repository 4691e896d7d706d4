// `rankscope-cli explain` and the built-in error catalogue behind it: the catalogue loads,
// every example line of every entry is recognised as that entry, and the CLI answers a
// pasted line, an id, words and --list without loading anything.

#include "app/core/explainline.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace rankscope;

namespace {

// Runs `rankscope-cli explain ARGUMENTS`, with `input` on its standard input.
std::string run(const std::string& arguments, const std::string& input = {})
{
    const std::string out = std::string(RANKSCOPE_TEST_OUTPUT) + "/explain.out";
    const std::string inputFile = std::string(RANKSCOPE_TEST_OUTPUT) + "/explain.in";
    std::remove(out.c_str());
    std::ofstream(inputFile) << input;
    const int rc = std::system(
        (std::string(RANKSCOPE_CLI) + " explain " + arguments + " < " + inputFile + " > " + out).c_str());
    REQUIRE(rc == 0);
    std::ifstream in(out);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("the built-in error catalogue loads and recognises each of its own examples", "[explain][catalogue]")
{
    const parsers::ErrorCatalogue* c = app::builtInErrorCatalogue();
    REQUIRE(c);
    CHECK(c->entries().size() >= 80);
    std::set<std::string> families;
    for (const auto& e : c->entries()) {
        families.insert(e.family);
        for (const auto& example : e.examples) {
            INFO(e.id << ": " << example);
            const auto hits = c->match(example);
            // Its own entry reads it first (the most specific), and no other entry's pattern
            // matches it unless the entry declares that one related: a line that quotes
            // another message ("communicator aborted … Original reason: Watchdog caught …")
            // is the only honest overlap, and the reader is pointed to both.
            REQUIRE_FALSE(hits.empty());
            CHECK(hits.front() == &e);
            for (const auto* h : hits)
                if (h != &e) {
                    INFO("also matched by " << h->id);
                    CHECK(std::find(e.related.begin(), e.related.end(), h->id) != e.related.end());
                }
        }
    }
    // The families a hung job's messages come from, each present.
    for (const char* family : { "nccl_result", "nccl_warn", "ib", "socket", "c10d", "xid", "cuda", "launcher" })
        CHECK(families.count(family) == 1);
}

TEST_CASE("explain answers a line, an id and words, and says when nothing matches", "[explain]")
{
    const parsers::ErrorCatalogue* c = app::builtInErrorCatalogue();
    REQUIRE(c);
    const auto& first = c->entries().front();
    const app::Explanation byLine = app::explain(*c, "noise before\n" + first.examples.front() + "\nnoise after");
    CHECK(byLine.by == app::ExplainedBy::Pattern);
    REQUIRE_FALSE(byLine.entries.empty());

    const app::Explanation byId = app::explain(*c, "  " + first.id + " ");
    CHECK(byId.by == app::ExplainedBy::Id);
    REQUIRE(byId.entries.size() == 1);
    CHECK(byId.entries[0] == &first);

    const app::Explanation none = app::explain(*c, "zzqx qqzx");
    CHECK(none.by == app::ExplainedBy::Nothing);
    CHECK_THAT(app::explanationText(none), Catch::Contains("Nothing in the error catalogue matches"));

    const auto json = app::explanationJson(byId);
    CHECK(json["schema"] == "rankscope.explain/1");
    CHECK(json["matched_by"] == "id");
    CHECK(json["entries"][0]["id"] == first.id);
}

TEST_CASE("rankscope-cli explain reads a pasted line, an id, standard input and --list", "[explain][cli]")
{
    const std::string xid = run("'NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.'");
    CHECK_THAT(xid, Catch::Contains("xid.79"));
    CHECK_THAT(xid, Catch::Contains("Means:"));

    const std::string stdinLine = run("-",
        "some noise\n[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600005 "
        "milliseconds before timing out.\n");
    CHECK_THAT(stdinLine, Catch::Contains("c10d."));

    const std::string json = run("xid.79 --format json");
    CHECK_THAT(json, Catch::Contains("\"schema\": \"rankscope.explain/1\""));
    CHECK_THAT(json, Catch::Contains("\"matched_by\": \"id\""));

    const std::string listed = run("--list");
    const parsers::ErrorCatalogue* c = app::builtInErrorCatalogue();
    REQUIRE(c);
    for (const auto& e : c->entries())
        CHECK_THAT(listed, Catch::Contains(e.id));
}
