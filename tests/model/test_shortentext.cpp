// Messages cut to fit a sentence: at a word, on a character boundary, with an ellipsis.

#include "model/shortentext.h"

#include <catch2/catch.hpp>

using rankscope::model::shortenText;

TEST_CASE("a message that fits is kept whole", "[shortentext]")
{
    CHECK(shortenText("Connection refused", 80) == "Connection refused");
    CHECK(shortenText("", 10).empty());
}

TEST_CASE("a long message is cut at a word and marked", "[shortentext]")
{
    // 40 bytes of room: the last space in its last third ends the cut.
    CHECK(shortenText("connect [127.0.1.1]:60817: Connection refused by peer", 40)
        == "connect [127.0.1.1]:60817: Connection…");
    // No space near the end: cut at the room, never mid-character.
    const std::string cut = shortenText("aaaaaaaaa\xC3\xA9zzzz", 10); // é is 2 bytes at 9-10
    CHECK(cut == "aaaaaaaaa…");
    CHECK(shortenText("word    another", 9) == "word…");
}
