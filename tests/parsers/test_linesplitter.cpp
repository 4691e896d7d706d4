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

TEST_CASE("any chunking of random text gives the segments of a plain reference split",
    "[parsers][splitter]")
{
    // Reference: split on \n, then on \r (a trailing \r gives no extra segment), with the
    // byte offset of each segment. Lines of every length around the 16-byte vector width.
    std::uint32_t seed = 12345;
    auto next = [&seed]() { return seed = seed * 1664525u + 1013904223u; };
    const char alphabet[] = "abc \r\r\n\n\nxyzNCCL";
    for (int round = 0; round < 200; ++round) {
        std::string text;
        const std::size_t size = next() % 400;
        for (std::size_t i = 0; i < size; ++i)
            text += (next() % 5 == 0) ? alphabet[next() % (sizeof alphabet - 1)] : char('a' + next() % 26);
        std::vector<Seg> expected;
        std::uint64_t lineNo = 0;
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t nl = text.find('\n', start);
            const std::size_t end = nl == std::string::npos ? text.size() : nl;
            ++lineNo;
            std::size_t p = start;
            for (;;) {
                const std::size_t cr = text.find('\r', p);
                const std::size_t stop = cr == std::string::npos || cr >= end ? end : cr;
                if (stop > p || stop == end)
                    expected.push_back({ text.substr(p, stop - p), lineNo, p });
                if (stop == end)
                    break;
                p = stop + 1;
                if (p == end)
                    break;
            }
            start = end + 1;
        }
        std::vector<std::string> chunks;
        for (std::size_t pos = 0; pos < text.size();) {
            const std::size_t n = 1 + next() % 40;
            chunks.push_back(text.substr(pos, n));
            pos += n;
        }
        const auto got = split(chunks);
        REQUIRE(got.size() == expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            CHECK(got[i].text == expected[i].text);
            CHECK(got[i].line == expected[i].line);
            CHECK(got[i].offset == expected[i].offset);
        }
    }
}
