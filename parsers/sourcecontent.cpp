#include "parsers/sourcecontent.h"

#include "parsers/mappedfile.h"
#include "parsers/nestedstream.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>
#include <string>

namespace rankscope::parsers {

namespace {

class MappedBytes final : public model::SourceBytes {
public:
    explicit MappedBytes(const std::string& path)
        : m_file(path)
    {
    }
    bool ok() const { return m_file.ok(); }
    const std::string& error() const { return m_file.error(); }
    std::string_view bytes() const override { return m_file.bytes(); }

private:
    MappedFile m_file;
};


struct ArchiveDeleter {
    void operator()(archive* a) const { archive_read_free(a); }
};

std::unique_ptr<archive, ArchiveDeleter> newReader()
{
    std::unique_ptr<archive, ArchiveDeleter> a(archive_read_new());
    archive_read_support_filter_all(a.get());
    archive_read_support_format_tar(a.get());
    archive_read_support_format_gnutar(a.get());
    archive_read_support_format_zip(a.get());
    archive_read_support_format_cpio(a.get());
    archive_read_support_format_raw(a.get());
    return a;
}

// Moves `a` to the entry named `name` (any entry of a raw stream when `name` is empty).
model::Result<bool> findEntry(archive* a, const std::string& name)
{
    archive_entry* entry = nullptr;
    for (;;) {
        const int r = archive_read_next_header(a, &entry);
        if (r == ARCHIVE_EOF)
            return model::Error { "'" + name + "' is no longer in the archive" };
        if (r < ARCHIVE_WARN) {
            const char* e = archive_error_string(a);
            return model::Error { std::string("archive read failed: ") + (e ? e : "unknown error") };
        }
        std::string path = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
        while (path.starts_with("./"))
            path.erase(0, 2);
        if (name.empty() || path == name)
            return true;
    }
}

// Reads the entry `a` is on fully.
model::Result<std::string> readData(archive* a, const std::string& name, const LoadLimits& limits)
{
    std::string out;
    char buf[1 << 16];
    for (;;) {
        const la_ssize_t n = archive_read_data(a, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            const char* e = archive_error_string(a);
            if (out.empty())
                return model::Error { std::string("archive read failed: ") + (e ? e : "unknown error") };
            break; // keep what was read, as loading did
        }
        out.append(buf, static_cast<std::size_t>(n));
        if (out.size() > limits.maxEntryBytes)
            return model::Error { "'" + name + "' is larger than the per-file limit" };
    }
    return out;
}

} // namespace

model::Result<std::shared_ptr<const model::SourceBytes>> openSourceContent(const model::Source& source,
    const LoadLimits& limits)
{
    if (source.memory)
        return std::shared_ptr<const model::SourceBytes>(std::make_shared<model::SharedSourceBytes>(source.memory));
    if (source.stream)
        return model::Error { "'" + source.path + "' was read once from a stream and is not "
            "kept; save it to a file and open that to see its lines" };
    if (!source.compressed) {
        auto mapped = std::make_shared<MappedBytes>(source.containerPath);
        if (!mapped->ok())
            return model::Error { "cannot read '" + source.containerPath + "': " + mapped->error() };
        return std::shared_ptr<const model::SourceBytes>(std::move(mapped));
    }
    // Walk the member chain "outer!inner!file" from the file on disk.
    std::vector<std::string> chain;
    std::size_t start = 0;
    const std::string& m = source.memberPath;
    for (std::size_t i = 0; i <= m.size(); ++i)
        if (i == m.size() || m[i] == '!') {
            chain.push_back(m.substr(start, i - start));
            start = i + 1;
        }
    auto a = newReader();
    if (archive_read_open_filename(a.get(), source.containerPath.c_str(), 1 << 20) != ARCHIVE_OK)
        return model::Error { "cannot open '" + source.containerPath + "'" };
    if (chain.size() > 2)
        return model::Error { "archives nested more than two levels are not re-read" };
    auto found = findEntry(a.get(), chain[0]);
    if (!found)
        return found.error();
    model::Result<std::string> bytes = std::string();
    if (chain.size() == 1) {
        bytes = readData(a.get(), chain[0], limits);
    } else {
        // A nested archive: its member is read as the outer member streams (nestedstream.h).
        NestedStream stream(a.get());
        auto inner = newReader();
        if (stream.openReader(inner.get()) != ARCHIVE_OK)
            return model::Error { "cannot open nested archive '" + chain[0] + "'" };
        auto next = findEntry(inner.get(), chain[1]);
        if (!next)
            return next.error();
        bytes = readData(inner.get(), chain[1], limits);
    }
    if (!bytes)
        return bytes.error();
    return std::shared_ptr<const model::SourceBytes>(std::make_shared<model::OwnedSourceBytes>(std::move(bytes.value())));
}

} // namespace rankscope::parsers
