#pragma once
// Turns what the user pointed at (directories, files, archives, in any mix) into a list of
// read tasks. Nothing is parsed here; a missing or unreadable path is a fatal error that
// names it, everything odd but readable becomes an import issue.

#include "model/error.h"
#include "model/importissues.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::parsers {

// Limits that protect against hostile or broken archives. All configurable from the CLI.
struct LoadLimits {
    std::uint64_t maxEntryBytes = 32ull << 30;   // one decompressed file or archive member
    std::uint64_t maxArchiveBytes = 256ull << 30; // decompressed total of one archive
    double maxCompressionRatio = 1000.0;          // decompressed / compressed bytes
    std::uint64_t ratioCheckAfterBytes = 64ull << 20; // ratio only judged past this much output
    std::uint64_t maxArchiveEntries = 1'000'000;
    int maxArchiveDepth = 2;                         // archive inside archive inside archive: no
    std::uint64_t maxJsonBytes = 512ull << 20;       // error.json / FR JSON read whole
};

struct InputTask {
    std::string diskPath;    // file on disk
    std::string displayPath; // what reports show (relative to the given directory when possible)
    std::uint64_t diskBytes = 0;
};

struct InputPlan {
    std::vector<InputTask> tasks; // sorted by display path: results do not depend on readdir order
    std::uint64_t totalDiskBytes = 0;
    model::ImportIssues issues;
};

model::Result<InputPlan> planInputs(const std::vector<std::string>& paths);

} // namespace rankscope::parsers
