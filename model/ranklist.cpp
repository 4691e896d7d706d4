#include "model/ranklist.h"

#include <algorithm>

namespace rankscope::model {

std::string formatRanks(std::vector<std::int32_t> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (!out.empty())
            out += ',';
        out += std::to_string(ranks[i]);
        if (j > i)
            out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out.empty() ? "none" : out;
}

} // namespace rankscope::model
