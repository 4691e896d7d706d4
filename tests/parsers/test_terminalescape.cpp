#include "parsers/terminalescape.h"
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using rankscope::parsers::stripTerminalEscapes;

TEST_CASE("terminal escapes are removed whole and plain lines are left alone", "[parsers][escape]")
{
    std::string out = "untouched";
    CHECK_FALSE(stripTerminalEscapes("[rank3]: plain line", out));
    CHECK(out == "untouched");
    REQUIRE(stripTerminalEscapes("\x1b[36m(RayWorkerWrapper pid=4009)\x1b[0m [rank1]: x", out));
    CHECK(out == "(RayWorkerWrapper pid=4009) [rank1]: x");
    REQUIRE(stripTerminalEscapes("\x1b[1;31mERROR\x1b[0m \x1b]0;title\x07" "done \x1b(Bok\x1b", out));
    CHECK(out == "ERROR done ok");
    // A string command without its terminator runs to the end of the line.
    REQUIRE(stripTerminalEscapes("kept \x1b]52;c;aGk= never ended", out));
    CHECK(out == "kept ");
}

TEST_CASE("a byte-order mark and colour codes do not hide a line from the parsers", "[parsers][escape]")
{
    const auto plain = rankscope::testing::scan(
        "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n");
    const auto dressed = rankscope::testing::scan(
        "\xEF\xBB\xBF\x1b[31m[rank3]:\x1b[0m[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n");
    REQUIRE(plain.events.size() == dressed.events.size());
    REQUIRE_FALSE(plain.events.empty());
    CHECK(dressed.events[0].kind == plain.events[0].kind);
    CHECK(dressed.events[0].seq == 7);
    CHECK(dressed.identities[dressed.events[0].identity].globalRank == 3);
}
