#include "model/diagnosis/precedence.h"

#include <catch2/catch.hpp>

#include <set>
#include <string_view>

using namespace rankscope::model;

TEST_CASE("the precedence table is in band order, highest first", "[model][precedence]")
{
    for (std::size_t i = 1; i < kPrecedenceTable.size(); ++i) {
        INFO(kPrecedenceTable[i - 1].id << " before " << kPrecedenceTable[i].id);
        CHECK(kPrecedenceTable[i - 1].band >= kPrecedenceTable[i].band);
    }
}

TEST_CASE("every precedence id is unique and has a rationale", "[model][precedence]")
{
    std::set<std::string_view> ids;
    for (const PrecedenceEntry& e : kPrecedenceTable) {
        INFO(e.id);
        CHECK(ids.insert(e.id).second);
        CHECK_FALSE(e.id.empty());
        CHECK_FALSE(e.rationale.empty());
    }
}

TEST_CASE("a precedence id names its row", "[model][precedence]")
{
    constexpr Precedence xid = "hardware.xid";
    CHECK(xid.id() == "hardware.xid");
    CHECK(xid.band() == 90);
    CHECK(Precedence("hang.all_entered").band() < Precedence("straggler.never_entered").band());
    CHECK(Precedence("crash.first_failure") != Precedence("init.rank_failed_at_startup"));
}
