#pragma once
// A read-only memory mapping of a whole file (RAII). Empty files map to an empty view.

#include <string>
#include <string_view>

namespace rankscope::parsers {

class MappedFile {
public:
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    std::string_view bytes() const { return { m_data ? m_data : "", m_size }; }

private:
    int m_fd = -1;
    const char* m_data = nullptr;
    std::size_t m_size = 0;
    std::string m_error;
};

} // namespace rankscope::parsers
