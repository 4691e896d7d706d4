#pragma once
// A plain file's SHA-256 computed on another thread while the reading thread parses it.
//
// JSON outputs and reports list every input's SHA-256. Hashed inline, it costs the reading
// thread about 0.5 s per GB on top of parsing; a bundle that is one big file (an srun console
// of a whole job) is read by one thread while the others have nothing to do, so there the hash
// is handed to one of them (issue 18). The job reads the file again with pread() (the page
// cache holds it: the reader has just read it or is about to) and never touches the reader's
// buffer or file offset.
//
// Whoever comes first runs the job: a free thread that took it from the loader's queue, or the
// reader itself when it has finished parsing and finds the job still queued, so a job nobody
// took can never leave the reader waiting.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace rankscope::parsers {

class FileHashJob {
public:
    // Hashes the first `bytes` bytes of the open file `fd`, through a descriptor of its own
    // (dup), so the job may outlive the reader's. valid() is false when none could be had.
    // A set `cancel` stops the hash between reads (no digest then).
    FileHashJob(int fd, std::uint64_t bytes, const std::atomic<bool>* cancel = nullptr);
    ~FileHashJob();
    FileHashJob(const FileHashJob&) = delete;
    FileHashJob& operator=(const FileHashJob&) = delete;

    bool valid() const { return m_fd >= 0; }

    // Runs the job on this thread unless another has started it; returns at once then.
    void run();
    // The digest, running the job here if nobody has started it, else waiting for it. Empty
    // when the file could not be read for all `bytes` bytes (it shrank or failed while read)
    // or the load was cancelled.
    std::optional<std::string> wait();

private:
    enum class State { Queued, Running, Done };
    bool claim();
    void compute();

    int m_fd;
    std::uint64_t m_bytes;
    const std::atomic<bool>* m_cancel;
    std::mutex m_mutex;
    std::condition_variable m_done;
    State m_state = State::Queued;
    std::optional<std::string> m_digest;
};

} // namespace rankscope::parsers
