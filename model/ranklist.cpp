#include "model/ranklist.h"

#include <algorithm>

namespace rankscope::model {

std::string formatRanksAtMost(std::vector<std::int32_t> ranks, std::size_t maxRuns, std::size_t& omittedRuns)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string out;
    std::size_t runs = 0;
    omittedRuns = 0;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (runs++ >= maxRuns) {
            ++omittedRuns;
        } else {
            if (!out.empty())
                out += ',';
            out += std::to_string(ranks[i]);
            if (j > i)
                out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
        }
        i = j + 1;
    }
    return out.empty() ? "none" : out;
}

std::string formatRanks(std::vector<std::int32_t> ranks)
{
    std::size_t omitted = 0;
    return formatRanksAtMost(std::move(ranks), static_cast<std::size_t>(-1), omitted);
}

} // namespace rankscope::model
