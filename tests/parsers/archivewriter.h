#pragma once
// Builds archives in memory for tests, with libarchive's writer: any format and filter,
// and entries that no sane tool would write (absolute paths, "..", links).

#include <archive.h>
#include <archive_entry.h>

#include <string>
#include <vector>

namespace rankscope::testing {

struct ArchiveEntrySpec {
    std::string path;
    std::string content;
    std::string symlink; // non-empty: a symbolic link to this target
};

// format: "tar" | "zip"; filter: "" | "gzip" | "zstd"
inline std::string makeArchive(const std::vector<ArchiveEntrySpec>& entries, const std::string& format,
    const std::string& filter)
{
    std::vector<char> buffer(64 << 20);
    size_t used = 0;
    archive* a = archive_write_new();
    if (format == "zip")
        archive_write_set_format_zip(a);
    else
        archive_write_set_format_pax_restricted(a);
    if (filter == "gzip")
        archive_write_add_filter_gzip(a);
    else if (filter == "zstd")
        archive_write_add_filter_zstd(a);
    archive_write_open_memory(a, buffer.data(), buffer.size(), &used);
    for (const auto& e : entries) {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, e.path.c_str());
        if (!e.symlink.empty()) {
            archive_entry_set_filetype(entry, AE_IFLNK);
            archive_entry_set_symlink(entry, e.symlink.c_str());
            archive_entry_set_size(entry, 0);
        } else {
            archive_entry_set_filetype(entry, AE_IFREG);
            archive_entry_set_size(entry, static_cast<la_int64_t>(e.content.size()));
        }
        archive_entry_set_perm(entry, 0644);
        archive_write_header(a, entry);
        if (e.symlink.empty() && !e.content.empty())
            archive_write_data(a, e.content.data(), e.content.size());
        archive_entry_free(entry);
    }
    archive_write_close(a);
    archive_write_free(a);
    return std::string(buffer.data(), used);
}

// A single compressed stream (".gz" / ".zst" of one log).
inline std::string compressRaw(const std::string& content, const std::string& filter)
{
    std::vector<char> buffer(content.size() + (1 << 20));
    size_t used = 0;
    archive* a = archive_write_new();
    archive_write_set_format_raw(a);
    if (filter == "gzip")
        archive_write_add_filter_gzip(a);
    else
        archive_write_add_filter_zstd(a);
    archive_write_open_memory(a, buffer.data(), buffer.size(), &used);
    archive_entry* entry = archive_entry_new();
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_write_header(a, entry);
    archive_write_data(a, content.data(), content.size());
    archive_entry_free(entry);
    archive_write_close(a);
    archive_write_free(a);
    return std::string(buffer.data(), used);
}

} // namespace rankscope::testing
