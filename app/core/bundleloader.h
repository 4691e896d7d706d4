#pragma once
// Loads a bundle: plans the inputs, reads them on a pool of threads (the parsers stay
// single-threaded and pure) and merges each into one Bundle, in path order, as soon as it and
// every input before it are read. Qt-free, so the CLI and the desktop app share it; the app
// runs it off the GUI thread.

#include "model/bundle.h"
#include "model/error.h"
#include "parsers/inputplan.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rankscope::app {

struct LoadRequest {
    std::vector<std::string> paths;
    std::vector<parsers::PastedText> pasted; // logs pasted into the app, read like files
    parsers::LoadLimits limits;
    unsigned threads = 0; // 0 = one per core
    // SHA-256 of every input for JSON outputs and reports; a plain-text summary or diagnosis
    // never shows it and skips the cost (about a fifth of single-thread ingest time).
    bool hashInputs = true;
};

// Updated from the worker threads; read from anywhere.
struct LoadProgress {
    std::atomic<std::uint64_t> bytesDone { 0 };
    std::atomic<std::uint64_t> bytesTotal { 0 };
    std::atomic<std::uint32_t> filesDone { 0 };
    std::atomic<std::uint32_t> filesTotal { 0 };
};

using BundlePtr = std::shared_ptr<const model::Bundle>;

// Errors: an unreadable input path, cancellation, or a bundle with nothing recognisable.
model::Result<BundlePtr> loadBundle(const LoadRequest& request, LoadProgress* progress = nullptr,
    const std::atomic<bool>* cancel = nullptr);

} // namespace rankscope::app
