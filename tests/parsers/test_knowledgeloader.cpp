// The knowledge base loader: verification steps keep the command apart from its note, and
// steps whose placeholders cannot be filled for a finding are dropped whole.
#include "model/diagnosis/knowledge.h"
#include "model/diagnosis/precedence.h"
#include "parsers/knowledgeloader.h"
#include "resources/embeddedresources.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace rankscope;

namespace {

const char* const kOneRule = R"({
  "schema": "rankscope.knowledge/2",
  "rules": {
    "straggler.example": {
      "title": "Rank {rank} stalled",
      "verify": [
        { "command": "ssh {host} py-spy dump --pid {pid}", "note": "where rank {rank} is" },
        { "note": "Rerun with NCCL_DEBUG=INFO." },
        { "command": "ssh {host} nvidia-smi -i {bus_id}" },
        { "command": "", "note": "" },
        "a bare string is not a step"
      ]
    }
  }
})";

} // namespace

TEST_CASE("verify steps load as command and note", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(kOneRule);
    REQUIRE(k.ok());
    const model::KnowledgeEntry* e = k.value().forRule("straggler.example");
    REQUIRE(e != nullptr);
    REQUIRE(e->verify.size() == 3);
    CHECK(e->verify[0] == model::VerifyStep { "ssh {host} py-spy dump --pid {pid}", "where rank {rank} is" });
    CHECK(e->verify[1] == model::VerifyStep { "", "Rerun with NCCL_DEBUG=INFO." });
    CHECK(e->verify[2].note.empty());
}

TEST_CASE("a step is dropped when its command or its note cannot be filled", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(kOneRule);
    REQUIRE(k.ok());
    const auto& steps = k.value().forRule("straggler.example")->verify;
    // No {rank}: the first step's note cannot be filled; no {bus_id}: the third's command.
    const model::Placeholders known { { "host", "node-36" }, { "pid", "227" } };
    const auto rendered = model::renderAll(steps, known);
    REQUIRE(rendered.size() == 1);
    CHECK(rendered[0].note == "Rerun with NCCL_DEBUG=INFO.");

    const model::Placeholders all { { "host", "node-36" }, { "pid", "227" }, { "rank", "5" }, { "bus_id", "0000:07:00.0" } };
    const auto full = model::renderAll(steps, all);
    REQUIRE(full.size() == 3);
    CHECK(full[0].command == "ssh node-36 py-spy dump --pid 227");
    CHECK(full[0].note == "where rank 5 is");
}

TEST_CASE("a step renders as one paste-safe line", "[knowledge]")
{
    CHECK(model::verifyStepLine({ "ncclras", "run it again" }) == "ncclras   # run it again");
    CHECK(model::verifyStepLine({ "ncclras", "" }) == "ncclras");
    CHECK(model::verifyStepLine({ "", "Rerun with NCCL_DEBUG=INFO." }) == "Rerun with NCCL_DEBUG=INFO.");
}

TEST_CASE("the knowledge base of the old schema is refused", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(R"({"schema":"rankscope.knowledge/1","rules":{}})");
    CHECK_FALSE(k.ok());
}

TEST_CASE("the built-in knowledge base loads with steps", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(resources::knowledgeJson());
    REQUIRE(k.ok());
    std::size_t commands = 0;
    for (const auto& [name, entry] : k.value().classes)
        for (const auto& step : entry.verify)
            commands += step.command.empty() ? 0 : 1;
    CHECK(commands > 10);
}

// The configuration class's own advice is about the fabric (GID index, MTU, ACS). A
// configuration cause that a message states — a port in use, a rank started twice, a memlock
// limit, a plugin version — would get that advice, wrong for it, unless its rule has its own.
TEST_CASE("every configuration rule gives advice of its own", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(resources::knowledgeJson());
    REQUIRE(k.ok());
    std::size_t rules = 0;
    for (const model::PrecedenceEntry& row : model::kPrecedenceTable) {
        if (!row.id.starts_with("configuration."))
            continue;
        ++rules;
        INFO(row.id);
        const model::KnowledgeEntry* e = k.value().forRule(row.id);
        REQUIRE(e != nullptr);
        CHECK_FALSE(e->fix.empty());
        CHECK_FALSE(e->verify.empty());
        CHECK_FALSE(e->confirm.empty());
    }
    CHECK(rules >= 8);
}

// Rules whose words live only in the knowledge base (their C++ states facts and values): a
// verdict sentence without a title or an explanation would leave the finding half said.
TEST_CASE("a rule that gives its verdict's words gives its finding's too", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(resources::knowledgeJson());
    REQUIRE(k.ok());
    std::size_t stated = 0;
    for (const auto& [id, entry] : k.value().rules) {
        if (entry.verdict.empty())
            continue;
        ++stated;
        INFO(id);
        CHECK_FALSE(entry.title.empty());
        CHECK_FALSE(entry.summary.empty());
        CHECK(std::any_of(model::kPrecedenceTable.begin(), model::kPrecedenceTable.end(),
            [&](const model::PrecedenceEntry& row) { return row.id == id; }));
    }
    CHECK(stated >= 13);
}

TEST_CASE("an optional placeholder renders as nothing when the rule gives no value", "[knowledge]")
{
    bool complete = false;
    const std::string text = "{who} waited{as_long?} for {peer}.";
    CHECK(model::renderTemplate(text, { { "who", "rank 3" }, { "peer", "rank 5" } }, &complete)
        == "rank 3 waited for rank 5.");
    CHECK(complete);
    CHECK(model::renderTemplate(text, { { "who", "rank 3" }, { "peer", "rank 5" }, { "as_long", " 30 minutes" } })
        == "rank 3 waited 30 minutes for rank 5.");
    // A required value left unknown stays visible, and says so.
    CHECK(model::renderTemplate(text, { { "who", "rank 3" } }, &complete) == "rank 3 waited for {peer}.");
    CHECK_FALSE(complete);
}

TEST_CASE("a rule's phrases load by name", "[knowledge]")
{
    const auto k = parsers::loadKnowledge(R"({"schema":"rankscope.knowledge/2","rules":{"r.x":{
        "phrases": {"status": "{who} reports {n}.", "bad": 3}}}})");
    REQUIRE(k.ok());
    const model::KnowledgeEntry* e = k.value().forRule("r.x");
    REQUIRE(e != nullptr);
    REQUIRE(e->phrases.size() == 1);
    CHECK(e->phrases.at("status") == "{who} reports {n}.");
}
