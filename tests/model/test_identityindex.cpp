#include "model/identityindex.h"
#include "model/parsedsource.h"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <tuple>
#include <vector>

using rankscope::model::IdentityIndex;
using rankscope::model::ParsedSource;
using rankscope::model::RawIdentity;

namespace {

// Writers of an srun console, a per-node file and an NCCL header: identities that differ in one
// small field only, the case a weak hash would pile into a few slots.
RawIdentity writer(std::int32_t task, std::int32_t pid, std::uint32_t host)
{
    RawIdentity id;
    id.source = 3;
    id.srunTask = task;
    id.pid = pid;
    id.host = host;
    return id;
}

auto key(const RawIdentity& id)
{
    return std::tuple(id.source, id.globalRank, id.localRank, id.srunTask, id.mpiRank, id.pid, id.host, id.ip);
}

} // namespace

TEST_CASE("identity index: one position per distinct identity, in order of first use", "[model][identity]")
{
    IdentityIndex index;
    std::vector<RawIdentity> list;
    std::map<decltype(key(RawIdentity {})), std::uint32_t> reference;
    std::mt19937 rng(7);
    // 8192 writers, looked up in an interleaved order many times over (growth happens while
    // earlier positions are being returned).
    for (int round = 0; round < 40000; ++round) {
        const auto task = static_cast<std::int32_t>(rng() % 4096);
        const RawIdentity id = writer(task, rng() % 2 == 0 ? -1 : 1000 + task, rng() % 2);
        const auto [it, inserted] = reference.try_emplace(key(id), static_cast<std::uint32_t>(reference.size()));
        const std::uint32_t at = index.findOrAdd(id, list);
        REQUIRE(at == it->second);
        REQUIRE(list.size() == reference.size());
        REQUIRE(list[at] == id);
    }
    CHECK(list.size() > 4096);
}

TEST_CASE("identity index: every field tells identities apart", "[model][identity]")
{
    IdentityIndex index;
    std::vector<RawIdentity> list;
    const RawIdentity base;
    std::vector<RawIdentity> variants(9, base);
    variants[1].source = 1;
    variants[2].globalRank = 0;
    variants[3].localRank = 0;
    variants[4].srunTask = 0;
    variants[5].mpiRank = 0;
    variants[6].pid = 0;
    variants[7].host = 1;
    variants[8].ip = 1;
    for (std::size_t i = 0; i < variants.size(); ++i)
        CHECK(index.findOrAdd(variants[i], list) == i);
    for (std::size_t i = 0; i < variants.size(); ++i)
        CHECK(index.findOrAdd(variants[i], list) == i);
    CHECK(list.size() == variants.size());
}

TEST_CASE("a parsed source's identity 0 is the source itself, and a move keeps the index", "[model][identity]")
{
    ParsedSource source;
    CHECK(source.identities.size() == 1);
    RawIdentity self;
    self.source = source.source.id;
    CHECK(source.identityIndex(self) == 0);
    const std::uint32_t a = source.identityIndex(writer(5, 42, 0));
    ParsedSource moved = std::move(source);
    CHECK(moved.identityIndex(writer(5, 42, 0)) == a);
    CHECK(moved.identityIndex(writer(6, 42, 0)) == a + 1);
    CHECK(moved.identities.size() == static_cast<std::size_t>(a) + 2);
}
