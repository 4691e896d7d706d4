#pragma once
// A message cut to fit a sentence ("… refused (connect [127.0.1.1]:3210: Connection…)"): at a
// word when one ends in the last third of the room, never inside a UTF-8 character, and
// marked with an ellipsis so a reader knows the line goes on.

#include <cstddef>
#include <string>
#include <string_view>

namespace rankscope::model {

inline std::string shortenText(std::string_view text, std::size_t limit)
{
    if (text.size() <= limit)
        return std::string(text);
    std::size_t cut = limit;
    // Back to the first byte of a UTF-8 character (continuation bytes are 10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    const std::size_t space = text.substr(0, cut).rfind(' ');
    if (space != std::string_view::npos && space >= limit - limit / 3)
        cut = space;
    while (cut > 0 && text[cut - 1] == ' ')
        --cut;
    return std::string(text.substr(0, cut)) + "…";
}

} // namespace rankscope::model
