#pragma once
// Reads one input task into ParsedSources: a plain file is read piece by piece into one
// buffer and scanned there; a compressed file or an archive is streamed through libarchive in memory (never
// extracted to disk), one ParsedSource per member. Hostile archives (absolute or ".."
// paths, links, size and ratio bombs) are refused with an import issue that says why.

#include "model/importissues.h"
#include "model/parsedsource.h"
#include "parsers/inputplan.h"
#include "parsers/sourcebuilder.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace rankscope::parsers {

struct ReadControl {
    const std::atomic<bool>* cancel = nullptr;
    // Called with the number of input bytes just consumed (compressed bytes for archives).
    std::function<void(std::uint64_t)> onBytes;
    // SHA-256 of every source for the inputs table of JSON outputs and reports. It is about a
    // fifth of single-thread ingest time, so outputs that never show it turn it off.
    bool hashContent = true;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

struct TaskResult {
    std::vector<model::ParsedSource> sources; // source ids are provisional (0)
    model::ImportIssues issues;               // archive-level issues
};

TaskResult readInput(const InputTask& task, const LoadLimits& limits, const ReadControl& control);

// The buffers plain files are read into. A loader thread keeps one across its tasks: fresh
// memory for every file would be zeroed by the kernel page by page.
struct ReadBuffer {
    std::vector<char> bytes;
    SourceScratch source; // what parsing a source needs, reused the same way
};
// Receives each source of a task as soon as it is complete, in order (an archive's members
// one by one), instead of TaskResult::sources, with the disk bytes of the task read so far
// (compressed bytes for an archive). A loader merges them while the rest is still read.
using SourceSink = std::function<void(model::ParsedSource&& source, std::uint64_t diskBytesRead)>;

TaskResult readInput(const InputTask& task, const LoadLimits& limits, const ReadControl& control,
    ReadBuffer& buffer, const SourceSink& sink = {});

// For tests and tools: reads an archive or compressed stream held in memory.
TaskResult readMemory(std::string_view bytes, const std::string& displayPath,
    const LoadLimits& limits, const ReadControl& control);

} // namespace rankscope::parsers
