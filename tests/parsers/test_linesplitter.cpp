#include "parsers/linesplitter.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using rankscope::parsers::LineSegment;
using rankscope::parsers::LineSplitter;

namespace {
struct Seg {
    std::string text;
    std::uint64_t line;
    std::uint64_t offset;
};

std::vector<Seg> split(const std::vector<std::string>& chunks, std::size_t maxLine = 1 << 20)
{
    std::vector<Seg> out;
    LineSplitter s(maxLine);
    auto cb = [&](const LineSegment& seg) { out.push_back({ std::string(seg.text), seg.lineNo, seg.offset }); };
    for (const auto& c : chunks)
        s.feed(c, cb);
    s.finish(cb);
    return out;
}
} // namespace

TEST_CASE("lines split on newline with offsets", "[parsers][splitter]")
{
    auto segs = split({ "ab\ncd\n" });
    REQUIRE(segs.size() == 2);
    CHECK(segs[0].text == "ab");
    CHECK(segs[1].text == "cd");
    CHECK(segs[1].line == 2);
    CHECK(segs[1].offset == 3);
}

TEST_CASE("carriage returns split a line into segments of the same line", "[parsers][splitter]")
{
    auto segs = split({ "Epoch 0: 6%|##\r[E ProcessGroupNCCL.cpp:458] x\r\nnext\n" });
    REQUIRE(segs.size() == 3);
    CHECK(segs[0].text == "Epoch 0: 6%|##");
    CHECK(segs[1].text == "[E ProcessGroupNCCL.cpp:458] x");
    CHECK(segs[1].line == 1);
    CHECK(segs[1].offset == 15);
    CHECK(segs[2].text == "next");
    CHECK(segs[2].line == 2);
}

TEST_CASE("a line split across chunks is reassembled", "[parsers][splitter]")
{
    auto segs = split({ "hel", "lo wor", "ld\nsecond", " line" });
    REQUIRE(segs.size() == 2);
    CHECK(segs[0].text == "hello world");
    CHECK(segs[0].offset == 0);
    CHECK(segs[1].text == "second line");
    CHECK(segs[1].offset == 12);
}

TEST_CASE("overlong lines are cut and counted, not lost", "[parsers][splitter]")
{
    LineSplitter s(8);
    std::vector<std::string> got;
    auto cb = [&](const LineSegment& seg) { got.emplace_back(seg.text); };
    s.feed("0123456789abcdef\nok\n", cb);
    s.feed("0123", cb);
    s.feed("456789\nend", cb);
    s.finish(cb);
    REQUIRE(got.size() == 4);
    CHECK(got[0] == "01234567");
    CHECK(got[1] == "ok");
    CHECK(got[2] == "01234567");
    CHECK(got[3] == "end");
    CHECK(s.overlongLines() == 2);
    CHECK(s.lines() == 4);
    CHECK(s.unterminatedLastLine());
}
