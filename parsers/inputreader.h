#pragma once
// Reads one input task into ParsedSources: a plain file is read piece by piece into one
// buffer and scanned there; a compressed file or an archive is streamed through libarchive in memory (never
// extracted to disk), one ParsedSource per member. Hostile archives (absolute or ".."
// paths, links, size and ratio bombs) are refused with an import issue that says why.

#include "model/importissues.h"
#include "model/parsedsource.h"
#include "parsers/filehashjob.h"
#include "parsers/inputplan.h"
#include "parsers/sourcebuilder.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rankscope::parsers {

struct ReadControl {
    const std::atomic<bool>* cancel = nullptr;
    // Called with the number of input bytes just consumed (compressed bytes for archives).
    std::function<void(std::uint64_t)> onBytes;
    // SHA-256 of every source for the inputs table of JSON outputs and reports. It is about a
    // fifth of single-thread ingest time, so outputs that never show it turn it off.
    bool hashContent = true;
    // Offered the hash of a big plain file (FileHashJob) before the file is parsed; true when
    // it queued the job for a thread with nothing else to do. Unset or false: the reading
    // thread hashes the bytes as it reads them.
    std::function<bool(const std::shared_ptr<FileHashJob>&)> offloadHash;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

struct TaskResult {
    std::vector<model::ParsedSource> sources; // source ids are provisional (0)
    model::ImportIssues issues;               // archive-level issues
    std::uint32_t delivered = 0; // sources handed to SourceSinks instead
};

// An archive member read whole but not parsed yet (see SourceSinks::unparsed).
struct UnparsedMember {
    model::Source meta;
    ContentKind kind = ContentKind::Empty; // sniffed from its first bytes
    std::string bytes;
};

TaskResult readInput(const InputTask& task, const LoadLimits& limits, const ReadControl& control);

// The buffers plain files are read into. A loader thread keeps one across its tasks: fresh
// memory for every file would be zeroed by the kernel page by page.
struct ReadBuffer {
    std::vector<char> bytes;
    SourceScratch source; // what parsing a source needs, reused the same way
};
// Where a task's sources go, instead of TaskResult::sources, as soon as each is complete: a
// loader merges them while the rest is still read. Each is numbered in task order (0, 1, …;
// TaskResult::delivered says how many) and comes with how far into the task's file on disk
// the sources so far reach, at least: exact for a plain file; for an archive its read
// position less the block read ahead, 0 until the first block is behind (a loader uses it
// to guess how many records the rest of the file holds).
struct SourceSinks {
    std::function<void(std::uint32_t seq, model::ParsedSource&&, std::uint64_t diskBytesRead)>
        parsed;
    // Optional. Archive members of at most kUnparsedMemberBytes that were read completely
    // are handed over unparsed, for parseMember() on another thread: an archive of thousands
    // of dumps is otherwise parsed on the one thread that decompresses it.
    std::function<void(std::uint32_t seq, UnparsedMember&&, std::uint64_t diskBytesRead)> unparsed;
};
constexpr std::uint64_t kUnparsedMemberBytes = 8u << 20;

TaskResult readInput(const InputTask& task, const LoadLimits& limits, const ReadControl& control,
    ReadBuffer& buffer, const SourceSinks* sinks = nullptr);

// The source of a member handed over unparsed: what reading it in place would have given.
model::ParsedSource parseMember(UnparsedMember&& member, const LoadLimits& limits,
    const ReadControl& control, SourceScratch& scratch);

// For tests and tools: reads an archive or compressed stream held in memory.
TaskResult readMemory(std::string_view bytes, const std::string& displayPath,
    const LoadLimits& limits, const ReadControl& control);

} // namespace rankscope::parsers
