#pragma once
// The input files of a test case folder: everything but its answers (expected.json,
// truth.json) and notes about it (*.md), sorted, subfolders included. The golden tests and
// bench/accuracy load exactly these, so both judge the same bundle.

#include <filesystem>
#include <string>
#include <vector>

namespace rankscope::evaluation {

std::vector<std::string> caseLogFiles(const std::filesystem::path& dir);

} // namespace rankscope::evaluation
