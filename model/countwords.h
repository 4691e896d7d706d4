#pragma once
// A count with its noun in the right number ("1 host", "8 hosts"), for every sentence a user
// reads: "1 hosts" in a status bar reads as a bug, however right the number is.

#include <cstddef>
#include <string>
#include <string_view>

namespace rankscope::model {

inline std::string countWords(std::size_t count, std::string_view one, std::string_view many)
{
    return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

} // namespace rankscope::model
