#pragma once
// Decides what a file is from its first bytes, not its name: users rename things, and a
// Flight Recorder dump has no extension at all.

#include <string_view>

namespace rankscope::parsers {

enum class ContentKind {
    Empty,
    Text,               // a log (UTF-8 or ASCII, possibly with a few stray bytes)
    Utf16Text,          // UTF-16 with BOM: transcoded before scanning
    Utf16LeText,        // UTF-16 without BOM (told by its NUL bytes), little-endian
    Utf16BeText,        // the same, big-endian
    Gzip,               // single compressed stream or a .tar.gz
    Zstd,
    Bzip2,
    Xz,
    Tar,                // uncompressed tar (ustar magic at 257)
    Zip,
    Pickle,             // pickle, protocols 0-5: Flight Recorder dump
    Json,               // a JSON document (error.json, FR JSON, RAS JSON)
    JsonLines,          // a log exported one JSON record per line (jsonloglines.h)
    OwnOutput,          // a report Rankscope wrote
    Binary,             // anything else with NULs or mostly non-text bytes
};

// `head` is the first few KiB (at least 512 bytes when the file has them).
ContentKind sniffContent(std::string_view head);

bool isArchiveOrCompressed(ContentKind kind);

} // namespace rankscope::parsers
