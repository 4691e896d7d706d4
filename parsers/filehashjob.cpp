#include "parsers/filehashjob.h"

#include "parsers/sha256.h"

#include <algorithm>
#include <cerrno>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace rankscope::parsers {

namespace {
constexpr std::size_t kHashReadBytes = 1 << 20;
} // namespace

FileHashJob::FileHashJob(int fd, std::uint64_t bytes, const std::atomic<bool>* cancel)
    : m_fd(::fcntl(fd, F_DUPFD_CLOEXEC, 0))
    , m_bytes(bytes)
    , m_cancel(cancel)
{
}

FileHashJob::~FileHashJob()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool FileHashJob::claim()
{
    const std::lock_guard lock(m_mutex);
    if (m_state != State::Queued)
        return false;
    m_state = State::Running;
    return true;
}

void FileHashJob::compute()
{
    std::optional<std::string> digest;
    try {
        Sha256 hash;
        std::vector<char> buffer(kHashReadBytes);
        std::uint64_t done = 0;
        while (m_fd >= 0 && done < m_bytes) {
            if (m_cancel && m_cancel->load(std::memory_order_relaxed))
                break;
            const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), m_bytes - done));
            const ssize_t n = ::pread(m_fd, buffer.data(), want, static_cast<off_t>(done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            hash.update({ buffer.data(), static_cast<std::size_t>(n) });
            done += static_cast<std::uint64_t>(n);
        }
        if (done == m_bytes)
            digest = hash.finish();
    } catch (const std::bad_alloc&) {
        // No digest: the source is listed without one rather than failing the load.
    }
    {
        const std::lock_guard lock(m_mutex);
        m_digest = std::move(digest);
        m_state = State::Done;
    }
    m_done.notify_all();
}

void FileHashJob::run()
{
    if (claim())
        compute();
}

std::optional<std::string> FileHashJob::wait()
{
    if (claim())
        compute();
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [this] { return m_state == State::Done; });
    return m_digest;
}

} // namespace rankscope::parsers
