#include "parsers/linebreaks.h"
#include "parsers/linesplitter.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using rankscope::parsers::findLineBreaks;
using rankscope::parsers::LineBreaks;
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
        const std::size_t size = next() % (round % 2 == 0 ? 400 : 3000);
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
        // Small chunks, and chunks long enough for the splitter's batches of line breaks
        // (whole 64-byte blocks) to cover many lines at once.
        const std::size_t longest = round % 2 == 0 ? 40 : 1000;
        std::vector<std::string> chunks;
        for (std::size_t pos = 0; pos < text.size();) {
            const std::size_t n = 1 + next() % longest;
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

TEST_CASE("line breaks found in batches are every break of the whole blocks, in order",
    "[parsers][splitter]")
{
    // findLineBreaks lists every \n and \r of the buffer's whole 64-byte blocks (fewer only
    // when its capacity is reached); the caller searches the rest one by one.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    const bool wide = __builtin_cpu_supports("avx2");
#else
    const bool wide = false; // no vector unit: the batch is always empty
#endif
    std::uint32_t seed = 777;
    auto next = [&seed]() { return seed = seed * 1664525u + 1013904223u; };
    std::size_t batched = 0;
    for (int round = 0; round < 2000; ++round) {
        std::string text(next() % 3000, 'z');
        const unsigned density = 1 + next() % 80;
        for (auto& c : text)
            if (next() % density == 0)
                c = "\n\r\n x\x80"[next() % 6];
        const char* begin = text.data();
        const char* end = begin + text.size();
        const std::size_t offset = text.empty() ? 0 : next() % text.size();
        LineBreaks breaks;
        breaks.next = 5;
        findLineBreaks(begin + offset, end, breaks);
        CHECK(breaks.next == 0);
        REQUIRE(breaks.count <= LineBreaks::kCapacity);
        std::vector<const char*> expected;
        for (const char* q = begin + offset; q < end; ++q)
            if (*q == '\n' || *q == '\r')
                expected.push_back(q);
        REQUIRE(breaks.count <= expected.size());
        for (std::uint32_t i = 0; i < breaks.count; ++i)
            REQUIRE(breaks.at[i] == expected[i]);
        if (wide && breaks.count < LineBreaks::kCapacity) {
            // Short of capacity: nothing was skipped within the blocks it covered.
            const std::size_t whole = static_cast<std::size_t>(end - begin - offset) / 64 * 64;
            for (std::size_t i = breaks.count; i < expected.size(); ++i)
                REQUIRE(expected[i] >= begin + offset + whole);
        }
        batched += breaks.count;
    }
    CHECK((wide ? batched > 10000 : batched == 0));
}
