#include "model/stringpool.h"

#include <catch2/catch.hpp>

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
