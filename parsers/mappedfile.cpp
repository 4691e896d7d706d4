#include "parsers/mappedfile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rankscope::parsers {

MappedFile::MappedFile(const std::string& path)
{
    // O_NONBLOCK and regular files only, as the reader (inputreader.cpp): a FIFO or device
    // swapped in since the load must not block the log viewer.
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (m_fd < 0) {
        m_error = std::strerror(errno);
        return;
    }
    struct stat st {};
    if (::fstat(m_fd, &st) != 0) {
        m_error = std::strerror(errno);
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        m_error = "not a regular file";
        return;
    }
    m_size = static_cast<std::size_t>(st.st_size);
    if (m_size == 0)
        return;
    void* p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, m_fd, 0);
    if (p == MAP_FAILED) {
        m_error = std::strerror(errno);
        m_size = 0;
        return;
    }
    ::madvise(p, m_size, MADV_SEQUENTIAL);
    m_data = static_cast<const char*>(p);
}

MappedFile::~MappedFile()
{
    if (m_data)
        ::munmap(const_cast<char*>(m_data), m_size);
    if (m_fd >= 0)
        ::close(m_fd);
}

} // namespace rankscope::parsers
