// The fast loop's copies of repeated dicts (parsers/picklerepeats.h): on dump-shaped pickles
// with thousands of repeated entries, and on pickles built to make a copy wrong (entries that
// reach outside themselves, memo slots stored over, shared containers that grow), a read
// must give exactly what the reference path gives, and the copies must actually happen.
#include "parsers/picklereader.h"

#include "dumpwriter.h"
#include "picklecompare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

using rankscope::parsers::PickleKind;
using rankscope::parsers::PickleReaderPath;
using rankscope::parsers::PickleResult;
using rankscope::parsers::readPickle;
using rankscope::testing::DumpWriter;
using rankscope::testing::requireSameAsReference;

namespace {

std::string mutated(std::string bytes, std::mt19937& rng)
{
    const auto at = [&] { return static_cast<std::size_t>(rng() % (bytes.size() + 1)); };
    switch (rng() % 4) {
    case 0:
        for (int i = 0; i < 3 && !bytes.empty(); ++i)
            bytes[at() % bytes.size()] = static_cast<char>(rng());
        break;
    case 1:
        bytes.resize(at());
        break;
    case 2:
        bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at()), "(u}]ehq0"[rng() % 8]);
        break;
    default:
        bytes.erase(at() % bytes.size(), 1 + rng() % 4);
        break;
    }
    return bytes;
}

std::size_t copiesIn(const std::string& bytes)
{
    PickleResult r;
    readPickle(bytes, r);
    return r.copies.size();
}

} // namespace

TEST_CASE(
    "entries of a dump that repeat an earlier one are copied, exactly as read", "[parsers][pickle]")
{
    for (const bool protocol4 : { false, true }) {
        DumpWriter writer(protocol4 ? 4 : 2, protocol4);
        const std::string dump = writer.write(3000, {});
        INFO("protocol " << (protocol4 ? 4 : 2));
        PickleResult r;
        readPickle(dump, r);
        REQUIRE(r.complete);
        // Six shapes, numbers that mostly keep their width: most entries are copies.
        CHECK(r.copies.size() > 2000);
        // Each copy is its source value for value, but for the numbers it lists.
        const auto& d = r.document;
        for (const auto& c : r.copies) {
            REQUIRE(c.numbers + std::size_t(c.numberCount) <= r.copyOffsets.size());
            std::vector<bool> number(c.values, false);
            for (std::uint32_t k = 0; k < c.numberCount; ++k)
                number.at(r.copyOffsets[c.numbers + k]) = true;
            for (std::uint32_t j = 0; j < c.values; ++j) {
                REQUIRE(d.kind(c.dict + j) == d.kind(c.source + j));
                if (!number[j] && d.kind(c.dict + j) == PickleKind::Str)
                    REQUIRE(d.text(c.dict + j) == d.text(c.source + j));
                if (number[j])
                    REQUIRE((d.kind(c.dict + j) == PickleKind::Int
                        || d.kind(c.dict + j) == PickleKind::Float));
            }
        }
        requireSameAsReference(dump);
        PickleResult reference;
        readPickle(dump, reference, {}, PickleReaderPath::Reference);
        CHECK(reference.copies.empty());
    }
}

TEST_CASE("copies are never made across a memo slot stored over, a shared list that grew, or "
          "an entry that changes what was made before it",
    "[parsers][pickle]")
{
    for (const bool protocol4 : { false, true }) {
        for (int trap = 0; trap < 4; ++trap) {
            DumpWriter::Traps traps;
            traps.overwriteMemo = trap == 0 || trap == 3;
            traps.growShared = trap == 1 || trap == 3;
            traps.reachOutside = trap == 2 || trap == 3;
            DumpWriter writer(static_cast<std::uint32_t>(10 + trap), protocol4);
            const std::string dump = writer.write(1500, traps);
            INFO("protocol " << (protocol4 ? 4 : 2) << ", trap " << trap);
            PickleResult r;
            readPickle(dump, r);
            REQUIRE(r.complete);
            CHECK(r.copies.size() > 150); // the traps stop some copies, not all
            requireSameAsReference(dump);
        }
    }
}

TEST_CASE("repeated entries read exactly as the reference path on corrupted and cut dumps",
    "[parsers][pickle]")
{
    std::mt19937 rng(77);
    for (const bool protocol4 : { false, true }) {
        DumpWriter writer(protocol4 ? 40 : 20, protocol4);
        DumpWriter::Traps traps;
        traps.overwriteMemo = traps.growShared = traps.reachOutside = true;
        const std::string dump = writer.write(400, traps);
        REQUIRE(copiesIn(dump) > 50);
        for (int round = 0; round < 400; ++round) {
            INFO("protocol " << (protocol4 ? 4 : 2) << ", round " << round);
            requireSameAsReference(mutated(dump, rng));
        }
        // Cut at every byte of a short one: a copy never reads past the end.
        const std::string shortDump = DumpWriter(5, protocol4).write(40, {});
        REQUIRE(copiesIn(shortDump) > 5);
        for (std::size_t keep = 0; keep <= shortDump.size(); ++keep)
            requireSameAsReference(shortDump.substr(0, keep));
    }
}

TEST_CASE("copies respect the value, item and nesting limits where the reference path stops",
    "[parsers][pickle]")
{
    std::mt19937 rng(99);
    const std::string dump = DumpWriter(8, true).write(300, {});
    for (int round = 0; round < 200; ++round) {
        rankscope::parsers::PickleLimits limits;
        limits.maxValues = 50 + rng() % 8000;
        limits.maxItems = 50 + rng() % 12000;
        limits.maxDepth = static_cast<std::uint16_t>(2 + rng() % 6);
        INFO("round " << round);
        requireSameAsReference(dump, limits);
    }
}
