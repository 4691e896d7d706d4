// The restricted pickle reader (parsers/picklereader.h): every opcode family it reads, the
// memo, and hostile input (tools/frgen/frgen.py writes the files under tests/data/fr).
// Byte strings below were produced by Python's pickle.dumps of the value in the comment.
#include "parsers/picklereader.h"
#include "picklecompare.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using rankscope::parsers::kNoPickleValue;
using rankscope::parsers::PickleDocument;
using rankscope::parsers::PickleId;
using rankscope::parsers::PickleKind;
using rankscope::parsers::PickleLimits;
using rankscope::parsers::PickleResult;
using rankscope::parsers::readPickle;

// Byte strings with embedded NULs: the length comes from the literal itself.
#define BYTES(literal) std::string(literal, sizeof(literal) - 1)

namespace {

std::string fixture(const std::string& relative)
{
    std::ifstream in(std::string(RANKSCOPE_TEST_DATA) + "/fr/" + relative, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Documents are views into the bytes they were read from: the bytes of every read are kept
// for the whole test run (a deque never moves its elements).
PickleResult read(const std::string& bytes, const PickleLimits& limits = {})
{
    static std::deque<std::string> kept;
    kept.push_back(bytes);
    PickleResult r;
    readPickle(kept.back(), r, limits);
    return r;
}

std::int64_t intAt(const PickleDocument& d, PickleId id)
{
    std::int64_t v = 0;
    REQUIRE(d.integer(id, v));
    return v;
}

double realAt(const PickleDocument& d, PickleId id)
{
    double v = 0;
    REQUIRE(d.real(id, v));
    return v;
}

// [0, 255, 256, 65535, 65536, -1, -2**31, 2**31, 2**63-1, -2**63, 2**64, -2**70], protocol 2
const std::string kIntsP2 = BYTES(
    "\x80\x02]q\x00("
    "K\x00K\xffM\x00\x01M\xff\xffJ\x00\x00\x01\x00J\xff\xff\xff\xffJ\x00\x00\x00\x80\x8a\x05\x00"
    "\x00\x00\x80\x00\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f\x8a\x08\x00\x00\x00\x00\x00\x00\x00"
    "\x80\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\xc0"
    "e.");
// [True, False, 7, -7, 2**70], protocol 0
const std::string kIntsP0 = BYTES("(lp0\x0aI01\x0a"
                                  "aI00\x0a"
                                  "aI7\x0a"
                                  "aI-7\x0a"
                                  "aL1180591620717411303424L\x0a"
                                  "a.");
// [1.5, -0.25, 1e300], protocol 2
const std::string kFloatsP2
    = BYTES("\x80\x02]q\x00(G\x3f\xf8\x00\x00\x00\x00\x00\x00G\xbf\xd0\x00\x00\x00\x00\x00\x00G~"
            "7\xe4<\x88\x00u\x9c"
            "e.");
// [1.5, -0.25], protocol 0
const std::string kFloatsP0 = BYTES("(lp0\x0a"
                                    "F1.5\x0a"
                                    "aF-0.25\x0a"
                                    "a.");
// ['', 'abc', 'héllo ☃', 'x' * 300], protocol 2
const std::string kStringsP2
    = BYTES("\x80\x02]q\x00(X\x00\x00\x00\x00q\x01X\x03\x00\x00\x00"
            "abcq\x02X\x0a\x00\x00\x00h\xc3\xa9llo \xe2\x98\x83q\x03X,\x01\x00\x00")
    + std::string(300, 'x')
    + BYTES("q\x04"
            "e.");
// ['abc', 'héllo ☃ \\ back'], protocol 0 (UNICODE, raw-unicode-escape)
const std::string kStringsP0 = BYTES("(lp0\x0aVabc\x0ap1\x0a"
                                     "aVh\xe9llo \x5cu2603 \x5cu005c back\x0ap2\x0a"
                                     "a.");
// [b'ab', b'y' * 300], protocol 3
const std::string kBytesP3 = BYTES("\x80\x03]q\x00(C\x02"
                                   "abq\x01"
                                   "B,\x01\x00\x00")
    + std::string(300, 'y')
    + BYTES("q\x02"
            "e.");
// {'t0': (), 't1': (1,), 't2': (1, 2), 't3': (1, 2, 3), 't4': (1, 2, 3, 4), 'l': [1, [2, [3]]],
//  'd': {}, 'n': None}, protocol 2
const std::string kContainersP2
    = BYTES("\x80\x02}q\x00(X\x02\x00\x00\x00t0q\x01)"
            "X\x02\x00\x00\x00t1q\x02K\x01\x85q\x03X\x02\x00\x00\x00t2q\x04K\x01K\x02\x86q\x05X\x02"
            "\x00\x00\x00t3q\x06K\x01K\x02K\x03\x87q\x07X\x02\x00\x00\x00t4q\x08("
            "K\x01K\x02K\x03K\x04tq\x09X\x01\x00\x00\x00lq\x0a]q\x0b(K\x01]q\x0c(K\x02]q\x0dK\x03"
            "aeeX\x01\x00\x00\x00"
            "dq\x0e}q\x0fX\x01\x00\x00\x00nq\x10Nu.");
// {'l': [1, 2], 't': (1, 2), 'd': {'k': 'v'}}, protocol 0
const std::string kContainersP0
    = BYTES("(dp0\x0aVl\x0ap1\x0a(lp2\x0aI1\x0a"
            "aI2\x0a"
            "asVt\x0ap3\x0a(I1\x0aI2\x0atp4\x0asVd\x0ap5\x0a(dp6\x0aVk\x0ap7\x0aVv\x0ap8\x0ass.");
// {'a': ['x', 'x'], 'b': b'z'}, protocol 4 (FRAME, MEMOIZE, SHORT_BINUNICODE, BINGET)
const std::string kProtocol4 = BYTES("\x80\x04\x95\x1b\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01"
                                     "a\x94]\x94(\x8c\x01x\x94h\x03"
                                     "e\x8c\x01"
                                     "b\x94"
                                     "C\x01z\x94u.");

} // namespace

TEST_CASE("BININT1, BININT2, BININT and LONG1 give every integer width; beyond int64 is clamped "
          "and flagged",
    "[parsers][pickle]")
{
    const auto r = read(kIntsP2);
    REQUIRE(r.complete);
    CHECK(r.error.empty());
    CHECK(r.protocol == 2);
    const auto& d = r.document;
    const auto items = d.items(r.root);
    REQUIRE(items.size() == 12);
    const std::int64_t expected[] = { 0, 255, 256, 65535, 65536, -1, INT32_MIN, 2147483648LL,
        INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN };
    for (std::size_t i = 0; i < 12; ++i) {
        INFO("item " << i);
        CHECK(d.kind(items[i]) == PickleKind::Int);
        CHECK(intAt(d, items[i]) == expected[i]);
        CHECK(d.overflowed(items[i]) == (i >= 10));
    }
}

TEST_CASE("protocol 0 INT and LONG text opcodes, I01/I00 as booleans", "[parsers][pickle]")
{
    const auto r = read(kIntsP0);
    REQUIRE(r.complete);
    const auto& d = r.document;
    const auto items = d.items(r.root);
    REQUIRE(items.size() == 5);
    CHECK(d.kind(items[0]) == PickleKind::Bool);
    CHECK(intAt(d, items[0]) == 1);
    CHECK(d.kind(items[1]) == PickleKind::Bool);
    CHECK(intAt(d, items[1]) == 0);
    CHECK(intAt(d, items[2]) == 7);
    CHECK(intAt(d, items[3]) == -7);
    CHECK(intAt(d, items[4]) == INT64_MAX);
    CHECK(d.overflowed(items[4]));
}

TEST_CASE("LONG4 reads long integers and LONG1 small ones", "[parsers][pickle]")
{
    // (2**64, 32767): LONG4 of 9 bytes, then LONG4 of 2 bytes, TUPLE2
    const std::string bytes = BYTES("\x80\x02\x8b\x09\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                                    "\x01\x8b\x02\x00\x00\x00\xff\x7f\x86.");
    const auto r = read(bytes);
    REQUIRE(r.complete);
    const auto items = r.document.items(r.root);
    REQUIRE(items.size() == 2);
    CHECK(r.document.kind(r.root) == PickleKind::Tuple);
    CHECK(intAt(r.document, items[0]) == INT64_MAX);
    CHECK(r.document.overflowed(items[0]));
    CHECK(intAt(r.document, items[1]) == 32767);
    CHECK_FALSE(r.document.overflowed(items[1]));
}

TEST_CASE("BINFLOAT and FLOAT read doubles", "[parsers][pickle]")
{
    const auto b = read(kFloatsP2);
    REQUIRE(b.complete);
    auto items = b.document.items(b.root);
    REQUIRE(items.size() == 3);
    CHECK(realAt(b.document, items[0]) == 1.5);
    CHECK(realAt(b.document, items[1]) == -0.25);
    CHECK(realAt(b.document, items[2]) == 1e300);

    const auto t = read(kFloatsP0);
    REQUIRE(t.complete);
    items = t.document.items(t.root);
    REQUIRE(items.size() == 2);
    CHECK(t.document.kind(items[0]) == PickleKind::Float);
    CHECK(realAt(t.document, items[0]) == 1.5);
    CHECK(realAt(t.document, items[1]) == -0.25);
}

TEST_CASE("BINUNICODE strings are views of UTF-8 text, UNICODE text is unescaped to UTF-8",
    "[parsers][pickle]")
{
    const auto b = read(kStringsP2);
    REQUIRE(b.complete);
    auto items = b.document.items(b.root);
    REQUIRE(items.size() == 4);
    CHECK(b.document.text(items[0]).empty());
    CHECK(b.document.kind(items[0]) == PickleKind::Str);
    CHECK(b.document.text(items[1]) == "abc");
    CHECK(b.document.text(items[2]) == "h\xc3\xa9llo \xe2\x98\x83");
    CHECK(b.document.text(items[3]) == std::string(300, 'x'));

    const auto t = read(kStringsP0);
    REQUIRE(t.complete);
    items = t.document.items(t.root);
    REQUIRE(items.size() == 2);
    CHECK(t.document.text(items[0]) == "abc");
    CHECK(t.document.text(items[1]) == "h\xc3\xa9llo \xe2\x98\x83 \\ back");
}

TEST_CASE(
    "STRING, BINSTRING, SHORT_BINSTRING, BINUNICODE8 and BINBYTES8 are read", "[parsers][pickle]")
{
    // ["a'bA\n", 'def', 'ghi', 'jk', b'lm'] built with MARK … LIST
    const std::string bytes = BYTES("\x80\x02(S'a\\'b\\x41\\n'\nT\x03\x00\x00\x00"
                                    "defU\x03ghi\x8d\x02\x00\x00\x00\x00\x00\x00\x00jk\x8e\x02\x00"
                                    "\x00\x00\x00\x00\x00\x00lml.");
    const auto r = read(bytes);
    REQUIRE(r.complete);
    const auto items = r.document.items(r.root);
    REQUIRE(items.size() == 5);
    CHECK(r.document.text(items[0]) == "a'bA\n");
    CHECK(r.document.text(items[1]) == "def");
    CHECK(r.document.text(items[2]) == "ghi");
    CHECK(r.document.text(items[3]) == "jk");
    CHECK(r.document.kind(items[4]) == PickleKind::Bytes);
    CHECK(r.document.text(items[4]) == "lm");
}

TEST_CASE("SHORT_BINBYTES and BINBYTES are bytes values", "[parsers][pickle]")
{
    const auto r = read(kBytesP3);
    REQUIRE(r.complete);
    CHECK(r.protocol == 3);
    const auto items = r.document.items(r.root);
    REQUIRE(items.size() == 2);
    CHECK(r.document.kind(items[0]) == PickleKind::Bytes);
    CHECK(r.document.text(items[0]) == "ab");
    CHECK(r.document.text(items[1]) == std::string(300, 'y'));
}

TEST_CASE("tuples of every size, nested lists, dicts and None", "[parsers][pickle]")
{
    const auto r = read(kContainersP2);
    REQUIRE(r.complete);
    const auto& d = r.document;
    REQUIRE(d.kind(r.root) == PickleKind::Dict);
    CHECK(d.size(r.root) == 8);
    for (std::uint32_t n = 0; n <= 4; ++n) {
        const PickleId t = d.find(r.root, "t" + std::to_string(n));
        INFO("t" << n);
        REQUIRE(d.is(t, PickleKind::Tuple));
        REQUIRE(d.size(t) == n);
        for (std::uint32_t i = 0; i < n; ++i)
            CHECK(intAt(d, d.items(t)[i]) == i + 1);
    }
    const PickleId l = d.find(r.root, "l");
    REQUIRE(d.is(l, PickleKind::List));
    REQUIRE(d.size(l) == 2);
    const PickleId inner = d.items(l)[1];
    REQUIRE(d.is(inner, PickleKind::List));
    CHECK(intAt(d, d.items(inner)[0]) == 2);
    CHECK(d.is(d.items(inner)[1], PickleKind::List));
    CHECK(d.depth(l) == 3);
    CHECK(d.is(d.find(r.root, "d"), PickleKind::Dict));
    CHECK(d.size(d.find(r.root, "d")) == 0);
    CHECK(d.is(d.find(r.root, "n"), PickleKind::None));
    CHECK(d.find(r.root, "missing") == kNoPickleValue);
}

TEST_CASE("protocol 0 DICT, LIST, TUPLE, SETITEM with PUT memo slots", "[parsers][pickle]")
{
    const auto r = read(kContainersP0);
    REQUIRE(r.complete);
    const auto& d = r.document;
    const PickleId l = d.find(r.root, "l");
    REQUIRE(d.size(l) == 2);
    CHECK(intAt(d, d.items(l)[1]) == 2);
    CHECK(d.is(d.find(r.root, "t"), PickleKind::Tuple));
    CHECK(d.text(d.find(d.find(r.root, "d"), "k")) == "v");
}

TEST_CASE("protocol 4 FRAME, MEMOIZE and BINGET share one value", "[parsers][pickle]")
{
    const auto r = read(kProtocol4);
    REQUIRE(r.complete);
    CHECK(r.protocol == 4);
    const auto& d = r.document;
    const PickleId a = d.find(r.root, "a");
    REQUIRE(d.size(a) == 2);
    CHECK(d.items(a)[0] == d.items(a)[1]); // the memoized 'x' is the same value
    CHECK(d.text(d.items(a)[1]) == "x");
    CHECK(d.kind(d.find(r.root, "b")) == PickleKind::Bytes);
}

TEST_CASE("POP, DUP, POP_MARK and DICT", "[parsers][pickle]")
{
    // MARK 1 2 POP 3 DUP MARK 9 9 POP_MARK LIST → [1, 3, 3]
    const auto r = read(BYTES("\x80\x02(K\x01K\x02\x30K\x03\x32(K\x09K\x09\x31l."));
    REQUIRE(r.complete);
    const auto items = r.document.items(r.root);
    REQUIRE(items.size() == 3);
    CHECK(intAt(r.document, items[0]) == 1);
    CHECK(intAt(r.document, items[1]) == 3);
    CHECK(intAt(r.document, items[2]) == 3);

    const auto dict = read(BYTES("\x80\x02(X\x01\x00\x00\x00kK\x01X\x01\x00\x00\x00jK\x02"
                                 "d."));
    REQUIRE(dict.complete);
    CHECK(intAt(dict.document, dict.document.find(dict.root, "j")) == 2);
}

TEST_CASE(
    "memo: GET/PUT text, LONG_BINPUT/LONG_BINGET, MEMOIZE numbering and a self-referencing list",
    "[parsers][pickle]")
{
    // [5, 5, <the list itself>] with text GET/PUT
    const auto t = read(BYTES("(lp0\nI5\np1\nag1\nag0\na."));
    REQUIRE(t.complete);
    auto items = t.document.items(t.root);
    REQUIRE(items.size() == 3);
    CHECK(intAt(t.document, items[1]) == 5);
    CHECK(items[2] == t.root);

    // ] LONG_BINPUT 256, 7 MEMOIZE (slot 1: Python numbers MEMOIZE by slots in use), APPEND,
    // BINGET 1, APPEND, LONG_BINGET 256, APPEND → [7, 7, <itself>]
    const auto b = read(BYTES("\x80\x02]r\x00\x01\x00\x00K\x07\x94"
                              "ah\x01"
                              "aj\x00\x01\x00\x00"
                              "a."));
    REQUIRE(b.complete);
    items = b.document.items(b.root);
    REQUIRE(items.size() == 3);
    CHECK(intAt(b.document, items[0]) == 7);
    CHECK(items[1] == items[0]);
    CHECK(items[2] == b.root);
}

TEST_CASE("memo reads of slots never stored and far memo slots are refused", "[parsers][pickle]")
{
    const auto get = read(BYTES("\x80\x02h\x05."));
    CHECK_FALSE(get.complete);
    CHECK_THAT(get.error, Catch::Contains("memo slot 5 that was never stored"));

    const auto far = read(fixture("hostile/memo_far.pkl"));
    CHECK_FALSE(far.complete);
    CHECK_THAT(far.error, Catch::Contains("LONG_BINPUT at byte 3"));
    CHECK_THAT(far.error, Catch::Contains("far beyond"));
}

TEST_CASE("GLOBAL os.system payload is refused, named, and never run", "[parsers][pickle]")
{
    const std::filesystem::path marker = "/tmp/rankscope-pwned";
    std::filesystem::remove(marker);
    const auto r = read(fixture("hostile/global_os_system.pkl"));
    CHECK_FALSE(r.complete);
    CHECK(r.refused);
    CHECK(r.errorOffset == 2);
    CHECK(r.error
        == "pickle opcode GLOBAL (posix.system) at byte 2 is not allowed: Rankscope never executes "
           "code from a dump");
    CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("STACK_GLOBAL (protocol 4) is refused", "[parsers][pickle]")
{
    const auto r = read(fixture("hostile/stack_global.pkl"));
    CHECK_FALSE(r.complete);
    CHECK(r.refused);
    CHECK_THAT(r.error, Catch::StartsWith("pickle opcode STACK_GLOBAL at byte "));
    CHECK_THAT(
        r.error, Catch::EndsWith("is not allowed: Rankscope never executes code from a dump"));
}

TEST_CASE(
    "every opcode that imports, calls or builds objects is refused by name", "[parsers][pickle]")
{
    const std::pair<std::uint8_t, const char*> refused[] = {
        { 'R', "REDUCE" },
        { 'b', "BUILD" },
        { 'o', "OBJ" },
        { 0x81, "NEWOBJ" },
        { 0x92, "NEWOBJ_EX" },
        { 'Q', "BINPERSID" },
        { 0x82, "EXT1" },
        { 0x83, "EXT2" },
        { 0x84, "EXT4" },
        { 0x8f, "EMPTY_SET" },
        { 0x90, "ADDITEMS" },
        { 0x91, "FROZENSET" },
        { 0x96, "BYTEARRAY8" },
        { 0x97, "NEXT_BUFFER" },
        { 0x98, "READONLY_BUFFER" },
        { 0x93, "STACK_GLOBAL" },
        { 'P', "PERSID" },
    };
    for (const auto& [code, name] : refused) {
        INFO(name);
        std::string bytes("\x80\x02NN", 4);
        bytes += static_cast<char>(code);
        bytes += "x\n.";
        const auto r = read(bytes);
        CHECK_FALSE(r.complete);
        CHECK(r.refused);
        CHECK(r.error
            == std::string("pickle opcode ") + name
                + " at byte 4 is not allowed: Rankscope never executes code from a dump");
    }
    const auto inst = read(BYTES("\x80\x02(ios\nsystem\n."));
    CHECK(inst.error
        == "pickle opcode INST (os.system) at byte 3 is not allowed: Rankscope never executes code "
           "from a dump");
    const auto unknown = read(BYTES("\x80\x02\xff."));
    CHECK_FALSE(unknown.refused);
    CHECK(unknown.error == "not a pickle: unknown opcode 0xff at byte 2");
}

TEST_CASE("declared lengths beyond the end of the file are refused without allocating",
    "[parsers][pickle]")
{
    const auto u = read(fixture("hostile/huge_binunicode.pkl"));
    CHECK_FALSE(u.complete);
    CHECK(u.truncated);
    CHECK(u.error
        == "BINUNICODE at byte 2 declares 4294967295 bytes but only 4 remain: the dump is "
           "truncated or corrupt");
    const auto u8 = read(fixture("hostile/huge_binunicode8.pkl"));
    CHECK_THAT(
        u8.error, Catch::StartsWith("BINUNICODE8 at byte 2 declares 4611686018427387904 bytes"));
    const auto l4 = read(fixture("hostile/huge_long4.pkl"));
    CHECK_THAT(l4.error, Catch::StartsWith("pickle ends inside LONG4 at byte 2"));
    CHECK(l4.truncated);
}

TEST_CASE("containers nested 100000 deep, 1000-deep lists and 1000 MARKs are refused at 256 levels",
    "[parsers][pickle]")
{
    const auto tuples = read(fixture("hostile/deep_tuples.pkl"));
    CHECK_FALSE(tuples.complete);
    CHECK_THAT(tuples.error, Catch::Contains("containers nested deeper than 256 levels"));
    CHECK(tuples.errorOffset == 2 + 1 + 255); // the TUPLE1 that makes level 257
    const auto lists = read(fixture("hostile/deep_lists.pkl"));
    CHECK_FALSE(lists.complete);
    CHECK_THAT(lists.error, Catch::Contains("containers nested deeper than 256 levels"));
    const auto marks = read(fixture("hostile/deep_marks.pkl"));
    CHECK_FALSE(marks.complete);
    CHECK_THAT(marks.error, Catch::Contains("more than 256 nested MARKs"));
    CHECK(marks.errorOffset == 2 + 256);
}

TEST_CASE("value and item limits stop the reader cleanly", "[parsers][pickle]")
{
    PickleLimits limits;
    limits.maxValues = 10;
    const auto r = read(kIntsP2, limits);
    CHECK_FALSE(r.complete);
    CHECK_THAT(r.error, Catch::Contains("more than 10 values"));
    // What was read before the limit is still there.
    REQUIRE(r.root != kNoPickleValue);
    CHECK(r.document.size(r.root) == 9);
}

TEST_CASE("garbage after PROTO and malformed stacks are errors, never crashes", "[parsers][pickle]")
{
    const auto g = read(fixture("hostile/garbage_after_proto.pkl"));
    CHECK_FALSE(g.complete);
    CHECK_FALSE(g.error.empty());
    CHECK(read(BYTES("\x80\x02K\x01"
                     "a."))
              .error
        == "malformed pickle: APPEND at byte 4 finds no container on the stack");
    CHECK_THAT(read(BYTES("\x80\x02NK\x01"
                          "a."))
                   .error,
        Catch::Contains("applied to a value that is not a list"));
    CHECK_THAT(
        read(BYTES("\x80\x02u.")).error, Catch::Contains("SETITEMS at byte 2 without a MARK"));
    CHECK_THAT(read(BYTES("\x80\x02.")).error, Catch::Contains("STOP with an empty stack"));
    CHECK_THAT(read(BYTES("\x80\x09N.")).error, Catch::Contains("unsupported pickle protocol 9"));
    CHECK_THAT(read(std::string()).error, Catch::Contains("before its STOP opcode"));
}

TEST_CASE("a dump cut at every byte never crashes and keeps what was read", "[parsers][pickle]")
{
    const std::string full = fixture("job4/nccl_trace_rank_0");
    const auto whole = read(full);
    REQUIRE(whole.complete);
    PickleResult r;
    std::size_t salvagedRoots = 0;
    for (std::size_t keep = 0; keep < full.size(); ++keep) {
        const std::string cut = full.substr(0, keep);
        readPickle(cut, r);
        INFO("kept " << keep << " bytes");
        REQUIRE_FALSE(r.complete);
        REQUIRE(r.truncated);
        if (r.root != kNoPickleValue && r.document.is(r.root, PickleKind::Dict)) {
            ++salvagedRoots;
            CHECK(r.document.salvaged(r.root));
        }
    }
    CHECK(salvagedRoots > full.size() / 2);
}

TEST_CASE("randomly corrupted dumps never crash the reader", "[parsers][pickle]")
{
    const std::string full = fixture("job4/nccl_trace_rank_0");
    std::mt19937 rng(20240601);
    PickleResult r;
    for (int round = 0; round < 3000; ++round) {
        std::string bytes = full;
        const int flips = 1 + static_cast<int>(rng() % 8);
        for (int i = 0; i < flips; ++i)
            bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
        readPickle(bytes, r);
        CHECK((r.complete || !r.error.empty()));
        // Walking what came out must stay inside the document.
        if (r.root != kNoPickleValue)
            for (const PickleId id : r.document.items(r.root))
                CHECK(id < r.document.valueCount());
    }
}

TEST_CASE("reading reuses the result's buffers and gives the same document", "[parsers][pickle]")
{
    PickleResult r;
    readPickle(kContainersP2, r);
    const std::size_t values = r.document.valueCount();
    readPickle(kIntsP2, r);
    readPickle(kContainersP2, r);
    REQUIRE(r.complete);
    CHECK(r.document.valueCount() == values);
    CHECK(r.document.size(r.root) == 8);
}

// ---------------------------------------------------------------------------------------
// The fast loop against the reference path (PickleReaderPath::Reference: step() alone) on
// the same bytes: every result field and every value of the document must agree.

namespace {

using rankscope::parsers::PickleReaderPath;
using rankscope::testing::requireSameAsReference;

// Writes random pickles of plain data the way Python's pickle and torch's Pickler do (and a
// few ways neither does: DUP, POP, LIST/DICT/TUPLE from a MARK, memo reads of containers
// still being filled), so that every fast path and its way back to step() is taken.
class RandomPickle {
public:
    explicit RandomPickle(std::uint32_t seed)
        : m_rng(seed)
    {
    }

    std::string make(int maxDepth, int width)
    {
        m_out.clear();
        m_memo = 0;
        m_maxDepth = maxDepth;
        m_width = width;
        const bool protocol4 = pick(2) == 0;
        m_out += '\x80';
        m_out += protocol4 ? '\x04' : '\x02';
        if (protocol4) {
            m_out += '\x95';
            m_out.append(8, '\0'); // FRAME length patched below
        }
        m_protocol4 = protocol4;
        value(0);
        m_out += '.';
        if (protocol4) {
            const std::uint64_t length = m_out.size() - 11;
            for (int i = 0; i < 8; ++i)
                m_out[3 + static_cast<std::size_t>(i)] = static_cast<char>(length >> (8 * i));
        }
        return m_out;
    }

    std::uint32_t pick(std::uint32_t n) { return static_cast<std::uint32_t>(m_rng() % n); }

private:
    void le(std::uint64_t v, int bytes)
    {
        for (int i = 0; i < bytes; ++i)
            m_out += static_cast<char>(v >> (8 * i));
    }
    void memoize()
    {
        if (m_protocol4 && pick(4) != 0) {
            m_out += '\x94';
        } else if (m_memo < 256) {
            m_out += 'q';
            m_out += static_cast<char>(m_memo);
        } else {
            m_out += 'r';
            le(m_memo, 4);
        }
        ++m_memo;
    }
    void memoGet()
    {
        const std::uint32_t slot = pick(m_memo);
        if (slot < 256 && pick(2) == 0) {
            m_out += 'h';
            m_out += static_cast<char>(slot);
        } else {
            m_out += 'j';
            le(slot, 4);
        }
    }
    void text(char shortCode, char longCode)
    {
        const std::size_t length = pick(6) == 0 ? pick(300) : pick(12);
        if (length < 256 && pick(3) != 0) {
            m_out += shortCode;
            m_out += static_cast<char>(length);
        } else {
            m_out += longCode;
            le(length, 4);
        }
        for (std::size_t i = 0; i < length; ++i)
            m_out += static_cast<char>('a' + pick(26));
    }
    void scalar()
    {
        switch (pick(12)) {
        case 0:
            m_out += 'N';
            break;
        case 1:
            m_out += pick(2) ? '\x88' : '\x89';
            break;
        case 2:
            m_out += 'K';
            m_out += static_cast<char>(pick(256));
            break;
        case 3:
            m_out += 'M';
            le(pick(65536), 2);
            break;
        case 4:
            m_out += 'J';
            le(m_rng(), 4);
            break;
        case 5: { // LONG1 of 0 to 10 bytes: clamped beyond 8
            const std::uint32_t n = pick(11);
            m_out += '\x8a';
            m_out += static_cast<char>(n);
            for (std::uint32_t i = 0; i < n; ++i)
                m_out += static_cast<char>(pick(256));
            break;
        }
        case 6:
            m_out += 'G';
            le(static_cast<std::uint64_t>(m_rng()) << 32 | m_rng(), 8);
            break;
        case 7:
            m_out += 'C';
            m_out += '\x02';
            m_out += "zz";
            break;
        default:
            text('\x8c', 'X');
            if (pick(2) == 0)
                memoize();
            break;
        }
    }
    // Items of a container, pushed after a MARK or one by one.
    void items(int depth, std::uint32_t count)
    {
        for (std::uint32_t i = 0; i < count; ++i)
            value(depth + 1);
    }
    void value(int depth)
    {
        const bool leaf = depth >= m_maxDepth || pick(3) == 0;
        if (m_memo > 0 && pick(5) == 0) {
            memoGet();
            return;
        }
        if (leaf) {
            scalar();
            return;
        }
        const std::uint32_t count = pick(static_cast<std::uint32_t>(m_width) + 1);
        switch (pick(8)) {
        case 0:
        case 1: // list: EMPTY_LIST, APPEND one by one or MARK … APPENDS batches
            m_out += ']';
            memoize();
            if (pick(2) == 0) {
                for (std::uint32_t i = 0; i < count; ++i) {
                    value(depth + 1);
                    m_out += 'a';
                }
            } else {
                m_out += '(';
                items(depth, count);
                m_out += 'e';
            }
            break;
        case 2:
        case 3: // dict: SETITEM or SETITEMS; keys are strings or memo reads
            m_out += '}';
            memoize();
            if (pick(2) == 0) {
                for (std::uint32_t i = 0; i < count; ++i) {
                    value(depth + 1);
                    value(depth + 1);
                    m_out += 's';
                }
            } else {
                m_out += '(';
                items(depth, 2 * count);
                m_out += 'u';
            }
            break;
        case 4: { // TUPLE1/2/3
            const std::uint32_t n = 1 + pick(3);
            items(depth, n);
            m_out += static_cast<char>(0x84 + n);
            if (pick(2) == 0)
                memoize();
            break;
        }
        case 5: // LIST, TUPLE or DICT from a MARK
            m_out += '(';
            if (pick(3) == 0) {
                items(depth, 2 * count);
                m_out += 'd';
            } else {
                items(depth, count);
                m_out += pick(2) ? 'l' : 't';
            }
            break;
        case 6: // DUP then POP, POP_MARK of a throwaway batch: the stack ops step() handles
            value(depth + 1);
            m_out += '2';
            m_out += '0';
            if (pick(2) == 0) {
                m_out += '(';
                scalar();
                m_out += '1';
            }
            break;
        default: // a big list, so that the fast loop runs over several stretches
            m_out += ']';
            memoize();
            m_out += '(';
            for (std::uint32_t i = 0; i < count * 40; ++i)
                scalar();
            m_out += 'e';
            break;
        }
    }

    std::mt19937 m_rng;
    std::string m_out;
    std::uint32_t m_memo = 0;
    int m_maxDepth = 4;
    int m_width = 4;
    bool m_protocol4 = false;
};

// A copy of `bytes` with a few bytes changed, a cut, a random byte put in, or opcodes that
// move the stack or the marks under the next one (MARK before MEMOIZE, POP before APPENDS).
std::string mutated(const std::string& bytes, RandomPickle& rng)
{
    static const std::string kStructural = BYTES("(012\x94\x86\x85\x87"
                                                 "eusatldq\x00h\x00N}])");
    std::string out = bytes;
    switch (rng.pick(4)) {
    case 3:
        for (std::uint32_t i = 0, n = 1 + rng.pick(3); i < n; ++i)
            out.insert(out.begin() + rng.pick(static_cast<std::uint32_t>(out.size()) + 1),
                kStructural[rng.pick(static_cast<std::uint32_t>(kStructural.size()))]);
        break;
    case 0:
        for (std::uint32_t i = 0, n = 1 + rng.pick(6); i < n && !out.empty(); ++i)
            out[rng.pick(static_cast<std::uint32_t>(out.size()))]
                = static_cast<char>(rng.pick(256));
        break;
    case 1:
        out.resize(rng.pick(static_cast<std::uint32_t>(out.size()) + 1));
        break;
    default:
        out.insert(out.begin() + rng.pick(static_cast<std::uint32_t>(out.size()) + 1),
            static_cast<char>(rng.pick(256)));
        break;
    }
    return out;
}

} // namespace

TEST_CASE("the fast loop reads random valid pickles exactly as the reference path does",
    "[parsers][pickle]")
{
    RandomPickle gen(6);
    for (int round = 0; round < 2000; ++round) {
        const std::string bytes = gen.make(1 + round % 6, 1 + round % 9);
        INFO("round " << round);
        PickleResult r;
        readPickle(bytes, r);
        REQUIRE(r.complete); // the generator writes valid pickles
        requireSameAsReference(bytes);
    }
}

TEST_CASE("the fast loop matches the reference path on corrupted, cut and spliced pickles",
    "[parsers][pickle]")
{
    RandomPickle gen(66);
    std::vector<std::string> sources;
    for (const char* name : { "job4/nccl_trace_rank_0", "job4/nccl_trace_rank_3",
             "repeat/nccl_trace_rank_0", "versions/fr_v2.10_p2.pkl", "versions/fr_v2.10_p4.pkl",
             "versions/fr_v2.10_p0.pkl", "hostile/reduce_in_entry.pkl" })
        sources.push_back(fixture(name));
    for (int round = 0; round < 3000; ++round) {
        INFO("round " << round);
        const std::string& source = round % 2 == 0
            ? sources[static_cast<std::size_t>(round / 2) % sources.size()]
            : gen.make(2 + round % 4, 1 + round % 7);
        requireSameAsReference(mutated(source, gen));
    }
    // Every cut of a dump: each fast path meets the end of the input at every offset.
    const std::string dump = fixture("repeat/nccl_trace_rank_0");
    for (std::size_t keep = 0; keep <= dump.size(); ++keep)
        requireSameAsReference(dump.substr(0, keep));
    // Pickles of several hundred KB: the fast loop works in stretches of 64 KB and grows
    // its arrays between them.
    std::string big;
    while (big.size() < 400'000) {
        const std::string part = gen.make(5, 8);
        big += part.substr(2, part.size() - 3); // without PROTO and STOP: one value each
    }
    big = std::string("\x80\x02]\x94(", 5) + big + "e.";
    requireSameAsReference(big);
    for (int round = 0; round < 20; ++round)
        requireSameAsReference(mutated(big, gen));
}

TEST_CASE("the fast loop stops at the value, item and nesting limits where the reference path does",
    "[parsers][pickle]")
{
    RandomPickle gen(666);
    const std::string dump = fixture("repeat/nccl_trace_rank_0");
    for (int round = 0; round < 600; ++round) {
        INFO("round " << round);
        PickleLimits limits;
        limits.maxValues = 1 + gen.pick(400);
        limits.maxItems = 1 + gen.pick(600);
        limits.maxDepth = static_cast<std::uint16_t>(1 + gen.pick(8));
        requireSameAsReference(
            round % 3 == 0 ? dump : gen.make(2 + round % 6, 2 + round % 6), limits);
    }
}
