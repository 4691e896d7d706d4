#include "model/stringpool.h"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using rankscope::model::StringPool;

TEST_CASE("interning returns one id per distinct text", "[model][strings]")
{
    StringPool pool;
    auto a = pool.intern("node-01");
    auto b = pool.intern(std::string("node-") + "01");
    CHECK(a == b);
    CHECK(pool.view(a) == "node-01");
    CHECK(pool.intern("") == rankscope::model::kNoStr);
    CHECK(pool.find("node-02") == rankscope::model::kNoStr);
}

TEST_CASE("views survive growth and moves", "[model][strings]")
{
    StringPool pool;
    std::vector<rankscope::model::StrId> ids;
    for (int i = 0; i < 20000; ++i)
        ids.push_back(pool.intern("host-" + std::to_string(i)));
    const std::string big(100000, 'x');
    auto bigId = pool.intern(big);
    StringPool moved = std::move(pool);
    CHECK(moved.view(ids[12345]) == "host-12345");
    CHECK(moved.view(bigId).size() == big.size());
    CHECK(moved.intern("host-5") == ids[5]);
}

TEST_CASE("interning agrees with a map on random texts, find never adds", "[model][strings]")
{
    // Short and long texts, prefixes of each other, embedded NULs and repeats, enough of
    // them to grow the table many times; ids are dense and stable.
    std::mt19937 rng(11);
    StringPool pool;
    std::map<std::string, rankscope::model::StrId> expected;
    for (int i = 0; i < 20000; ++i) {
        std::string text(rng() % 40, 'a');
        for (auto& c : text)
            c = "ab\0c-0"[rng() % 6];
        if (rng() % 4 == 0)
            text = std::string(200 + rng() % 100, 'x') + std::to_string(rng() % 50);
        const auto before = pool.size();
        const auto found = pool.find(text);
        CHECK(pool.size() == before);
        const auto id = pool.intern(text);
        if (text.empty()) {
            CHECK(id == rankscope::model::kNoStr);
            continue;
        }
        auto [it, inserted] = expected.emplace(text, id);
        if (inserted) {
            CHECK(found == rankscope::model::kNoStr);
            CHECK(id == before); // the next dense id
        } else {
            CHECK(found == it->second);
            CHECK(id == it->second);
        }
        CHECK(pool.view(id) == text);
    }
    CHECK(pool.size() == expected.size() + 1); // id 0 is the empty string
    for (const auto& [text, id] : expected) {
        REQUIRE(pool.find(text) == id);
        REQUIRE(pool.intern(text) == id);
    }
    CHECK(pool.size() == expected.size() + 1);
}

TEST_CASE("interning from another pool gives what interning its text gives", "[model][strings]")
{
    // Two source pools with overlapping texts merged into one: each id maps to the id of
    // the same text, whether the merged pool saw it before or not.
    std::mt19937 rng(5);
    StringPool merged, a, b;
    std::vector<std::string> texts;
    for (int i = 0; i < 3000; ++i)
        texts.push_back(std::string(1 + rng() % 30, "xyz"[i % 3]) + std::to_string(rng() % 700));
    for (const auto& t : texts)
        (rng() % 2 ? a : b).intern(t);
    merged.intern(texts[17]);
    for (const StringPool* from : { &a, &b }) {
        for (rankscope::model::StrId id = 1; id < from->size(); ++id) {
            const auto got = merged.internFrom(*from, id);
            REQUIRE(merged.view(got) == from->view(id));
            REQUIRE(merged.find(from->view(id)) == got);
        }
    }
    CHECK(merged.internFrom(a, rankscope::model::kNoStr) == rankscope::model::kNoStr);
    CHECK(merged.internFrom(a, static_cast<rankscope::model::StrId>(a.size() + 5))
        == rankscope::model::kNoStr);
    std::set<std::string> distinct(texts.begin(), texts.end());
    CHECK(merged.size() == distinct.size() + 1);
}
