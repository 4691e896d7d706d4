#pragma once
// One input file as Rankscope read it: a file on disk, a member of an archive, or a
// decompressed single log. Sources are identified by SourceId everywhere else.

#include "model/evidence.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace rankscope::model {

enum class SourceKind : std::uint8_t {
    Unknown,
    Log,                  // text log (any mix of dialects)
    TorchrunErrorFile,    // error.json written by @record
    FlightRecorderPickle, // nccl_trace_rank_N (pickle)
    FlightRecorderJson,
    RasReport,            // ncclras text or JSON
    GpuTelemetry,         // nvidia-smi / dcgmi CSV
    Skipped,              // binary or our own output; listed, not parsed
};

std::string_view sourceKindName(SourceKind kind);

// What the file's path says about who wrote it ([formats 5.4], [formats 6]): rank3.log,
// node-07/attempt_0/3/stderr.log, nccl_trace_rank_5, name.host.pid ...
struct PathIdentity {
    std::int32_t globalRank = -1;
    std::int32_t localRank = -1;
    std::int32_t attempt = -1;
    std::int32_t pid = -1;
    std::string host;
    std::string stream; // "stdout", "stderr" or empty
    bool combined = false; // looks like a whole-job file (e.g. slurm-1234.out)
};

struct Source {
    SourceId id = kNoSource;
    std::string path;          // display path; archive members are "archive.tgz!dir/file"
    std::string containerPath; // the file on disk (the archive for members)
    std::string memberPath;    // path inside the archive, empty for plain files
    bool compressed = false;   // .gz/.zst single file or archive member
    // Read once from a pipe, FIFO, character device or standard input: its bytes are gone,
    // so it cannot be shown again (containerPath is the path given, "-" for stdin).
    bool stream = false;
    // A log pasted into the app: its bytes, kept here because no file holds them
    // (containerPath is "pasted:" and its name). Shared, never copied, with the load's task.
    std::shared_ptr<const std::string> memory;
    // Where the file lies below what the user named, for outputs that point editors at it
    // (GNU error lines, SARIF): a file found in a folder has the folder as given (no
    // trailing slash) and its path below it; a file or archive named directly has its own
    // folder ("." for none) and its name; an archive member adds "!member" (nested:
    // "!inner.tgz!member"). Both are empty for a stream. Masked like path.
    std::string root;
    std::string rootRelative;
    SourceKind kind = SourceKind::Unknown;
    std::uint64_t bytes = 0;   // decompressed size
    std::string sha256;        // of the decompressed bytes, lowercase hex; empty when the load did not hash
    std::uint64_t lines = 0;
    std::uint64_t recognisedLines = 0;
    PathIdentity pathIdentity;
};

} // namespace rankscope::model
