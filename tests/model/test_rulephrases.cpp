// A rule's words come from its knowledge entry's phrases; one the knowledge base lacks must be
// seen, not silently dropped from a finding.
#include "model/diagnosis/rules.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

TEST_CASE("a rule says its phrases from the knowledge base, and a missing one shows", "[knowledge]")
{
    Bundle bundle;
    DiagnosisFacts facts;
    Knowledge knowledge;
    knowledge.rules["straggler.example"].phrases["status"] = "{who} reports last enqueued {enqueued}.";
    const RuleContext ctx { bundle, facts, knowledge };
    CHECK(ctx.say("straggler.example", "status", { { "who", "rank 3" }, { "enqueued", "41" } })
        == "rank 3 reports last enqueued 41.");
    CHECK(ctx.say("straggler.example", "status", { { "who", "rank 3" } }) == "rank 3 reports last enqueued {enqueued}.");
    CHECK(ctx.say("straggler.example", "caveat") == "{missing phrase straggler.example/caveat}");
    CHECK(ctx.say("no.such_rule", "status") == "{missing phrase no.such_rule/status}");
}

TEST_CASE("a rule's phrase is its own: a shared one of the same name is not taken for it", "[knowledge]")
{
    Bundle bundle;
    DiagnosisFacts facts;
    Knowledge knowledge;
    knowledge.phrases["ranks_subject"] = "Ranks {ranks}";
    knowledge.rules["silent.example"].phrases["ranks_subject"] = "The ranks {ranks}";
    const RuleContext ctx { bundle, facts, knowledge };
    CHECK(ctx.say("silent.example", "ranks_subject", { { "ranks", "3, 5" } }) == "The ranks 3, 5");
    CHECK(ctx.say("other.rule", "ranks_subject") == "{missing phrase other.rule/ranks_subject}");
    CHECK(ctx.sayShared("ranks_subject", { { "ranks", "3, 5" } }) == "Ranks 3, 5");
}

TEST_CASE("a shared phrase is said by its name alone", "[knowledge]")
{
    Bundle bundle;
    DiagnosisFacts facts;
    Knowledge knowledge;
    knowledge.phrases["pg_unknown"] = "the process group";
    const RuleContext ctx { bundle, facts, knowledge };
    CHECK(ctx.sayShared("pg_unknown") == "the process group");
    CHECK(ctx.pgLabel(kNoStr) == "the process group");
    CHECK(ctx.sayShared("stuck_where") == "{missing phrase shared/stuck_where}");
}
