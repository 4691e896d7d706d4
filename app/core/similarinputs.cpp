#include "app/core/similarinputs.h"

#include <string>
#include <unordered_map>

namespace rankscope::app {

namespace {

std::string nameShape(const std::string& path)
{
    std::string shape;
    shape.reserve(path.size());
    for (const char c : path) {
        const bool digit = c >= '0' && c <= '9';
        if (!digit)
            shape.push_back(c);
        else if (shape.empty() || shape.back() != '\0')
            shape.push_back('\0'); // never in a path, so it cannot be confused with a name
    }
    return shape;
}

} // namespace

SimilarInputs::SimilarInputs(const std::vector<parsers::InputTask>& tasks)
    : m_bytesAfter(tasks.size(), 0)
{
    std::unordered_map<std::string, std::uint64_t> bytesSoFar; // per shape, from the end
    for (std::size_t i = tasks.size(); i-- > 0;) {
        std::uint64_t& sum = bytesSoFar[nameShape(tasks[i].displayPath)];
        m_bytesAfter[i] = sum;
        sum += tasks[i].diskBytes;
    }
}

} // namespace rankscope::app
