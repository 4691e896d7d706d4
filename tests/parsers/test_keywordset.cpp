// The keyword prefilter against a plain search: the skips must never pass over a keyword.
#include "parsers/keywordset.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using rankscope::parsers::KeywordSet;

TEST_CASE("keyword sets find exactly the keywords a plain search finds", "[parsers][keywords]")
{
    std::mt19937 rng(3);
    // A small alphabet, so keywords, their prefixes and near misses occur often.
    const std::string alphabet = "abcd :(\x80";
    auto randomText = [&](std::size_t n) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i)
            s += alphabet[rng() % alphabet.size()];
        return s;
    };
    for (int set = 0; set < 300; ++set) {
        std::vector<std::string> words;
        const std::size_t count = 1 + rng() % (set % 3 == 0 ? 64 : 12);
        for (std::size_t k = 0; k < count; ++k)
            words.push_back(randomText(4 + rng() % 9));
        const KeywordSet keywords(std::vector<std::string_view>(words.begin(), words.end()));
        for (int line = 0; line < 100; ++line) {
            // Short lines and lines of many 32-byte blocks (the vector path).
            std::string text = randomText(rng() % (line % 4 == 0 ? 1500 : 90));
            if (rng() % 2 && !text.empty()) // plant one keyword at a random place
                text.insert(rng() % text.size(), words[rng() % words.size()]);
            std::uint64_t expected = 0;
            for (std::size_t k = 0; k < words.size(); ++k)
                if (text.find(words[k]) != std::string::npos)
                    expected |= std::uint64_t { 1 } << k;
            INFO(text);
            REQUIRE(keywords.find(text) == expected);
        }
    }
}

TEST_CASE("keywords at the very start and end of a line are found", "[parsers][keywords]")
{
    const KeywordSet keywords({ "Traceback (most recent call last):", "Killed", "(SIG" });
    CHECK(keywords.find("Traceback (most recent call last):") == 1);
    CHECK(keywords.find("x Killed") == 2);
    CHECK(keywords.find("Killed") == 2);
    CHECK(keywords.find("(SIGKILL) and Killed") == 6);
    CHECK(keywords.find("Kille") == 0);
    CHECK(keywords.find("") == 0);
}
