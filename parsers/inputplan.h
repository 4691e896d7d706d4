#pragma once
// Turns what the user pointed at (directories, files, archives, in any mix) into a list of
// read tasks. Nothing is parsed here; a missing or unreadable path is a fatal error that
// names it, everything odd but readable becomes an import issue.

#include "model/error.h"
#include "model/importissues.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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

// How a task is read. Only what the user named on the command line can be a stream: a pipe,
// FIFO or device found inside a folder is refused (a hostile bundle must not hang the load).
enum class InputKind : std::uint8_t {
    File, // a regular file: read in place, and again later (the log viewer)
    Stream, // a pipe, FIFO or character device named by its path (/dev/stdin, <(cmd)): read
            // once, front to back, waiting for its writer
    StandardInput, // "-": this process's standard input, read once like a stream
    Memory, // text handed over in memory (a log pasted into the app): read like a file, and
            // kept with its source so it can be shown again
};

// A log pasted into the app: its name is its display path ("pasted-1.log", "rank5.log").
struct PastedText {
    std::string name;
    std::shared_ptr<const std::string> text;
};

// The argument that names standard input, and the name its source is shown under.
inline constexpr std::string_view kStandardInputArgument = "-";
inline constexpr std::string_view kStandardInputName = "stdin";

struct InputTask {
    std::string diskPath;    // file on disk; the path as given for a stream, "-" for stdin
    std::string displayPath; // what reports show (relative to the given directory when possible)
    std::uint64_t diskBytes = 0; // 0 for a stream: its size is known once it is read
    InputKind kind = InputKind::File;
    // Where it lies below what the user named (model::Source::root and rootRelative): the
    // folder as given and the path below it, or for a file named directly its folder ("."
    // for none) and its name; both empty for a stream.
    std::string root {};
    std::string rootRelative {};
    std::shared_ptr<const std::string> memory {}; // the text of a Memory task
};

struct InputPlan {
    std::vector<InputTask> tasks; // sorted by display path: results do not depend on readdir order
    std::uint64_t totalDiskBytes = 0;
    model::ImportIssues issues;
};

// Errors: a path that cannot be read, one stream named twice (standard input as "-"
// twice, or as "-" and /dev/stdin): a stream can be read only once; two pasted texts of
// one name; nothing to read at all.
model::Result<InputPlan> planInputs(const std::vector<std::string>& paths, const std::vector<PastedText>& pasted = {});

} // namespace rankscope::parsers
