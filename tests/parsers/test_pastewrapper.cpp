#include "parsers/pastewrapper.h"
#include "parsers/inputplan.h"
#include "parsers/sourcebuilder.h"

#include <catch2/catch.hpp>

#include <string>

using rankscope::parsers::detectPasteWrapper;

TEST_CASE("a quote or code-block indentation on every line is the paste's wrapper", "[parsers][paste]")
{
    auto quoted = detectPasteWrapper("> [rank3]: a\n>\n> > nested is deeper than the rest\n> b\n");
    CHECK(quoted.quoteDepth == 1);
    CHECK(quoted.indent.empty());
    CHECK(quoted.strip("> [rank3]: a") == "[rank3]: a");
    CHECK(quoted.strip("no quote") == "no quote");

    auto code = detectPasteWrapper("\n    [rank3]: a\n      Traceback frame\n    b\n");
    CHECK(code.quoteDepth == 0);
    CHECK(code.indent == "    ");
    CHECK(code.strip("      Traceback frame") == "  Traceback frame");

    auto both = detectPasteWrapper(">     x\n>     y\n");
    CHECK(both.quoteDepth == 1);
    CHECK(both.indent == "    ");
    CHECK(both.strip(">     x") == "x");

    auto tab = detectPasteWrapper("\tx\n\t\ty\n");
    CHECK(tab.indent == "\t");

    // cat -n numbers every line, blank ones too; the text after the tab may be indented.
    auto numbered = detectPasteWrapper("     1\t[rank3]: a\n     2\t\n     3\t  File \"x.py\"\n");
    CHECK(numbered.numbered);
    CHECK(numbered.indent.empty());
    CHECK(numbered.strip("     3\t  File \"x.py\"") == "  File \"x.py\"");
    CHECK_FALSE(detectPasteWrapper("3\tx\n").numbered);
    CHECK(detectPasteWrapper("     1\t[1] NCCL INFO x\n").numbered);
    CHECK_FALSE(detectPasteWrapper("3\tx\ny\n").numbered);
}

TEST_CASE("indentation a log means is not a wrapper", "[parsers][paste]")
{
    // Two blanks: a traceback's frames, a failure table's fields.
    CHECK(detectPasteWrapper("  File \"x.py\", line 1, in f\n    g()\n").empty());
    // One line without it is enough to say there is none.
    CHECK(detectPasteWrapper("    a\nb\n    c\n").empty());
    CHECK(detectPasteWrapper("> a\nb\n").empty());
    CHECK(detectPasteWrapper("").empty());
    CHECK(detectPasteWrapper("\n\n  \n").empty());
}

TEST_CASE("a quoted paste is read like the plain log", "[parsers][paste]")
{
    const std::string line = "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: "
                             "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
                             "600011 milliseconds before timing out.\n";
    rankscope::parsers::LoadLimits limits;
    auto read = [&](const std::string& text) {
        rankscope::model::Source meta;
        meta.id = 1;
        meta.path = "paste.log";
        rankscope::parsers::SourceBuilder builder(meta, limits);
        builder.feed(text);
        return builder.finish();
    };
    const auto plain = read(line);
    const auto quoted = read("> " + line + ">\n> " + line);
    const auto indented = read("    " + line);
    REQUIRE_FALSE(plain.events.empty());
    for (const auto* p : { &quoted, &indented }) {
        REQUIRE_FALSE(p->events.empty());
        CHECK(p->events[0].kind == plain.events[0].kind);
        CHECK(p->identities[p->events[0].identity].globalRank == 3);
    }
}
