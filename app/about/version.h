#pragma once
// The version both binaries, their reports, manual pages and packages state. The number, the
// release date and the home page are declared once, in the top-level CMakeLists.txt
// (project(VERSION), RANKSCOPE_RELEASE_DATE, RANKSCOPE_HOMEPAGE_URL); the commit is read
// from git when the binary is built.

#include <string>
#include <string_view>

namespace rankscope::about {

// "0.1.0": what reports record, so a report does not change with every commit.
std::string_view version();
// The release date of version(), YYYY-MM-DD (manual pages, AppStream, the changelog).
std::string_view releaseDate();
// The project's home page (RANKSCOPE_HOMEPAGE_URL in the top-level CMakeLists.txt).
std::string_view homepage();
// "15bc968e1a2b", "15bc968e1a2b-dirty", or empty when not built from a git checkout.
std::string_view gitCommit();
// "rankscope-cli 0.1.0 (git 15bc968e1a2b)": what --version prints.
std::string versionLine(std::string_view program);

} // namespace rankscope::about
