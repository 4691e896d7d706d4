#include "app/cli/outputfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rankscope::app {

namespace {

std::string reason(const std::string& what, int error)
{
    return what + ": " + std::strerror(error);
}

bool writeAll(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// What a file created the ordinary way would get: 0666 less the umask (mkstemp gives 0600).
mode_t newFileMode()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

// Devices and pipes (-o /dev/stdout, a FIFO) cannot be replaced, only written to.
std::string writeInPlace(const std::string& path, std::string_view bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return reason("cannot write '" + path + "'", errno);
    bool ok = writeAll(fd, bytes);
    int error = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    return ok ? std::string() : reason("writing '" + path + "' failed", error);
}

} // namespace

std::string writeFileAtomically(const std::string& path, std::string_view bytes)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
        return writeInPlace(path, bytes);
    // A link is followed: the file it names is replaced, the link stays.
    fs::path target(path);
    if (fs::is_symlink(fs::symlink_status(path, ec)))
        if (fs::path resolved = fs::weakly_canonical(path, ec); !ec)
            target = resolved;
    // Beside the destination: rename() only replaces atomically within one file system.
    const fs::path dir = target.has_parent_path() ? target.parent_path() : ".";
    std::string temp = (dir / ("." + target.filename().string() + ".rankscope-XXXXXX")).string();
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return reason("cannot write '" + path + "'", errno);
    struct stat existing { };
    const mode_t mode
        = ::stat(target.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : newFileMode();
    bool ok = ::fchmod(fd, mode) == 0 && writeAll(fd, bytes) && ::fsync(fd) == 0;
    int error = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (ok && ::rename(temp.c_str(), target.c_str()) != 0) {
        ok = false;
        error = errno;
    }
    if (!ok) {
        ::unlink(temp.c_str());
        return reason("writing '" + path + "' failed", error);
    }
    return {};
}

} // namespace rankscope::app
