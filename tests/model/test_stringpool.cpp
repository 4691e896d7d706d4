#include "model/stringpool.h"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>

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
