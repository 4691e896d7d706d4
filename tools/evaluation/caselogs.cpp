#include "tools/evaluation/caselogs.h"

#include <algorithm>

namespace rankscope::evaluation {

std::vector<std::string> caseLogFiles(const std::filesystem::path& dir)
{
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file() || name == "expected.json" || name == "truth.json"
            || entry.path().extension() == ".md")
            continue;
        files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace rankscope::evaluation
