#pragma once
// An archive member read as the input of another libarchive reader: the inner reader pulls
// the outer member's data blocks as it needs them, so an archive inside an archive is read
// as it streams, never held whole in memory (a 44 KB .tar.zst whose member is an archive
// peaked at 2.1 GB when members were buffered).

#include <archive.h>

#include <string_view>

namespace rankscope::parsers {

class NestedStream {
public:
    // `outer` is positioned on the member; `first` is a block of it already read (it must
    // stay valid until the inner reader asks for more), or empty.
    explicit NestedStream(archive* outer, std::string_view first = {})
        : m_outer(outer)
        , m_first(first)
    {
    }
    NestedStream(const NestedStream&) = delete;
    NestedStream& operator=(const NestedStream&) = delete;

    // archive_read_open(inner, ...) with this stream as its input.
    int openReader(archive* inner)
    {
        return archive_read_open(inner, this, nullptr, &NestedStream::read, nullptr);
    }
    // The outer member's data could not be read (the outer archive's error says why).
    bool failed() const { return m_failed; }

private:
    static la_ssize_t read(archive*, void* self, const void** buffer)
    {
        auto* s = static_cast<NestedStream*>(self);
        if (!s->m_firstGiven) {
            s->m_firstGiven = true;
            if (!s->m_first.empty()) {
                *buffer = s->m_first.data();
                return static_cast<la_ssize_t>(s->m_first.size());
            }
        }
        size_t size = 0;
        la_int64_t offset = 0;
        const int r = archive_read_data_block(s->m_outer, buffer, &size, &offset);
        if (r == ARCHIVE_EOF)
            return 0;
        if (r < ARCHIVE_WARN) {
            s->m_failed = true;
            return -1;
        }
        return static_cast<la_ssize_t>(size);
    }

    archive* m_outer;
    std::string_view m_first;
    bool m_firstGiven = false;
    bool m_failed = false;
};

} // namespace rankscope::parsers
