#include "parsers/inputreader.h"

#include "parsers/contentsniff.h"
#include "parsers/nestedstream.h"
#include "parsers/sourcebuilder.h"
#include "parsers/textscan.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::parsers {

namespace {

constexpr std::size_t kFileReadBytes = 1 << 20; // read() size for plain files
// A file's hash is offered to another thread (ReadControl::offloadHash) from this size on;
// below it the job's own reads and hand-over cost more than hashing inline.
constexpr std::uint64_t kOffloadHashBytes = 16u << 20;
constexpr std::size_t kReadBlock = 1 << 20;   // libarchive read size

std::string humanBytes(std::uint64_t n)
{
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

struct FileDescriptor {
    int fd;
    explicit FileDescriptor(int f)
        : fd(f)
    {
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() { ::close(fd); }
};

// Up to `capacity` bytes (fewer only at the end of the file); an empty view at the end. A
// stream waits for its writer; one its starter left non-blocking is waited for with poll().
std::string_view readPiece(int fd, char* buffer, std::size_t capacity, std::string& error)
{
    std::size_t filled = 0;
    while (filled < capacity) {
        const ssize_t n = ::read(fd, buffer + filled, capacity - filled);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                pollfd wait { fd, POLLIN, 0 };
                if (::poll(&wait, 1, -1) >= 0 || errno == EINTR)
                    continue;
            }
            error = std::strerror(errno);
            break;
        }
        if (n == 0)
            break;
        filled += static_cast<std::size_t>(n);
    }
    return { buffer, filled };
}

// What every source read from one task shares.
struct Origin {
    std::string container; // the file on disk; the path given, or "-", for a stream
    std::string root {}; // InputTask::root and rootRelative
    std::string rootRelative {};
    bool stream = false;
    std::shared_ptr<const std::string> memory {}; // a pasted text's bytes, kept with its source
};

Origin originOf(const InputTask& task)
{
    const bool stream = task.kind == InputKind::Stream || task.kind == InputKind::StandardInput;
    return { task.diskPath, task.root, task.rootRelative, stream, task.memory };
}

model::Source makeSource(const Origin& origin, std::string path, std::string member, bool compressed)
{
    model::Source s;
    s.id = 0;
    s.path = std::move(path);
    s.containerPath = origin.container;
    s.stream = origin.stream;
    s.memory = origin.memory;
    s.root = origin.root;
    s.rootRelative = origin.rootRelative;
    // A raw stream inside an archive has the chain so far, ending in '!'.
    const std::string_view chain = std::string_view(member).substr(0,
        member.ends_with('!') ? member.size() - 1 : member.size());
    if (!s.rootRelative.empty() && !chain.empty())
        (s.rootRelative += '!') += chain;
    s.memberPath = std::move(member);
    s.compressed = compressed;
    return s;
}

struct ArchiveDeleter {
    void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;

ArchivePtr newReader()
{
    ArchivePtr a(archive_read_new());
    archive_read_support_filter_all(a.get());
    archive_read_support_format_tar(a.get());
    archive_read_support_format_zip(a.get());
    archive_read_support_format_gnutar(a.get());
    archive_read_support_format_cpio(a.get());
    // Raw bids lowest: a single .gz/.zst log is read as one entry named "data".
    archive_read_support_format_raw(a.get());
    return a;
}

// Why an archive member must not be read, or empty when it is fine.
std::string hostileReason(archive_entry* entry)
{
    const char* name = archive_entry_pathname(entry);
    if (!name || !*name)
        return "entry without a name";
    std::string_view path(name);
    if (path.front() == '/' || path.front() == '\\' || (path.size() > 1 && path[1] == ':'))
        return "absolute path";
    std::size_t start = 0;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/' || path[i] == '\\') {
            if (path.substr(start, i - start) == "..")
                return "path climbs out of the archive with '..'";
            start = i + 1;
        }
    }
    if (const char* link = archive_entry_symlink(entry)) {
        std::string_view target(link);
        if (!target.empty() && (target.front() == '/' || contains(target, "..")))
            return std::string("symbolic link pointing outside the archive (") + link + ")";
    }
    if (const char* link = archive_entry_hardlink(entry)) {
        std::string_view target(link);
        if (!target.empty() && (target.front() == '/' || contains(target, "..")))
            return std::string("hard link pointing outside the archive (") + link + ")";
    }
    return {};
}

void deliver(TaskResult& result, const SourceSinks* sinks, model::ParsedSource&& source,
    std::uint64_t diskBytesRead)
{
    if (sinks && sinks->parsed)
        sinks->parsed(result.delivered++, std::move(source), diskBytesRead);
    else
        result.sources.push_back(std::move(source));
}

class ArchiveWalker {
public:
    ArchiveWalker(const LoadLimits& limits, const ReadControl& control, TaskResult& result,
        Origin origin, SourceScratch& scratch, const SourceSinks* sinks = nullptr)
        : m_limits(limits)
        , m_control(control)
        , m_result(result)
        , m_origin(std::move(origin))
        , m_scratch(scratch)
        , m_sinks(sinks)
    {
    }

    // Reads every entry of `a`. `display` is the archive's display path. Returns false
    // when the archive was refused (the reason is an import issue already).
    bool walk(archive* a, const std::string& display, int depth, const std::string& memberPrefix = {})
    {
        if (depth == 0)
            m_outer = a;
        archive_entry* entry = nullptr;
        std::uint64_t entries = 0;
        bool isRaw = false;
        for (;;) {
            if (m_control.cancelled() || m_overBudget)
                return false;
            const int r = archive_read_next_header(a, &entry);
            if (r == ARCHIVE_EOF)
                break;
            if (r == ARCHIVE_WARN) {
                m_result.issues.add("archive_warning", display + ": " + errorText(a));
            } else if (r != ARCHIVE_OK) {
                m_result.issues.add(entries == 0 ? "archive_unreadable" : "archive_truncated",
                    display + ": " + errorText(a)
                        + (entries == 0 ? "" : " (entries read before this point are kept)"));
                return false;
            }
            if (++entries > m_limits.maxArchiveEntries) {
                refuse(display, "more than " + std::to_string(m_limits.maxArchiveEntries) + " entries");
                return false;
            }
            isRaw = archive_format(a) == ARCHIVE_FORMAT_RAW;
            const std::string member = isRaw ? std::string() : safeName(entry);
            const std::string memberDisplay = isRaw ? stripCompressionSuffix(display) : display + "!" + member;
            if (!isRaw) {
                const auto type = archive_entry_filetype(entry);
                const std::string hostile = hostileReason(entry);
                if (!hostile.empty()) {
                    m_result.issues.add("hostile_archive_entry",
                        display + ": entry '" + member + "' not read: " + hostile);
                    continue;
                }
                if (type == AE_IFLNK || archive_entry_hardlink(entry)) {
                    m_result.issues.add("archive_link_skipped", display + ": link '" + member + "' not followed");
                    continue;
                }
                if (type != AE_IFREG)
                    continue;
                if (archive_entry_size_is_set(entry)
                    && static_cast<std::uint64_t>(archive_entry_size(entry)) > m_limits.maxEntryBytes) {
                    // One big member (a core dump, a checkpoint) says nothing about the others:
                    // it is skipped and they are read. Its size still counts towards the
                    // archive's expansion, as libarchive decompresses through it to skip it.
                    const auto declared = static_cast<std::uint64_t>(archive_entry_size(entry));
                    m_result.issues.add("archive_entry_too_large",
                        display + ": entry '" + member + "' declares " + humanBytes(declared)
                            + ", over the " + humanBytes(m_limits.maxEntryBytes)
                            + " limit per file; skipped, the other entries are read. If it is "
                              "trusted, raise --max-entry-size.");
                    m_totalBytes += declared;
                    if (m_totalBytes > m_limits.maxArchiveBytes) {
                        refuse(display,
                            "it expands to more than " + humanBytes(m_limits.maxArchiveBytes));
                        m_overBudget = true;
                        return false;
                    }
                    continue;
                }
            }
            const la_int64_t declared
                = !isRaw && archive_entry_size_is_set(entry) ? archive_entry_size(entry) : -1;
            if (!readEntry(a, display, memberDisplay, member, depth, isRaw, memberPrefix, declared))
                return false;
        }
        return true;
    }

private:
    static std::string errorText(archive* a)
    {
        const char* e = archive_error_string(a);
        return e ? e : "unknown archive error";
    }

    static std::string safeName(archive_entry* entry)
    {
        const char* name = archive_entry_pathname(entry);
        std::string s = name ? name : "";
        while (s.starts_with("./"))
            s.erase(0, 2);
        return s;
    }

    static std::string stripCompressionSuffix(const std::string& path)
    {
        for (const char* ext : { ".gz", ".zst", ".bz2", ".xz", ".zstd" }) {
            const std::string e(ext);
            if (path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0)
                return path.substr(0, path.size() - e.size());
        }
        return path;
    }

    void refuse(const std::string& display, const std::string& why)
    {
        m_result.issues.add("archive_refused",
            display + ": archive refused, " + why
                + ". If this archive is trusted, raise the limit (see rankscope-cli --help).");
    }

    // Limits on what reading goes on to produce. Output is counted across every nesting
    // level and the ratio is judged against the bytes read from disk (the outermost
    // archive's input), so nesting cannot multiply what a limit allows.
    bool checkBudget(const std::string& display, std::uint64_t entryBytes,
        const std::string& member)
    {
        if (entryBytes > m_limits.maxEntryBytes) {
            refuse(display, "entry '" + member + "' grew past the " + humanBytes(m_limits.maxEntryBytes) + " limit per file");
            return false;
        }
        if (m_totalBytes > m_limits.maxArchiveBytes) {
            refuse(display, "it expands to more than " + humanBytes(m_limits.maxArchiveBytes));
            m_overBudget = true;
            return false;
        }
        if (m_totalBytes > m_limits.ratioCheckAfterBytes) {
            const auto compressed = static_cast<double>(std::max<la_int64_t>(archive_filter_bytes(m_outer, -1), 1));
            if (static_cast<double>(m_totalBytes) / compressed > m_limits.maxCompressionRatio) {
                refuse(display, "compression ratio over " + std::to_string(static_cast<int>(m_limits.maxCompressionRatio))
                        + ":1 (" + humanBytes(m_totalBytes) + " from " + humanBytes(static_cast<std::uint64_t>(compressed))
                        + "), a decompression bomb");
                m_overBudget = true;
                return false;
            }
        }
        return true;
    }

    bool readEntry(archive* a, const std::string& display, const std::string& memberDisplay,
        const std::string& member, int depth, bool isRaw, const std::string& memberPrefix,
        la_int64_t declaredSize)
    {
        const void* buf = nullptr;
        size_t size = 0;
        la_int64_t offset = 0;
        std::uint64_t entryBytes = 0;

        // Peek the first block to decide between a log and a nested archive.
        int r = archive_read_data_block(a, &buf, &size, &offset);
        if (r < ARCHIVE_WARN) {
            m_result.issues.add("archive_truncated", display + ": '" + member + "': " + errorText(a));
            return false;
        }
        std::string_view first(static_cast<const char*>(buf), r == ARCHIVE_EOF ? 0 : size);
        const ContentKind kind = sniffContent(first.substr(0, 8192));
        if (!isRaw && isArchiveOrCompressed(kind))
            return readNested(a, display, memberDisplay, member, depth, first, memberPrefix + member + "!");

        // memberPath is the chain inside the file on disk ("node1.tgz!rank2.log"), so the
        // log viewer can read the member again later.
        model::Source meta = makeSource(
            m_origin, memberDisplay, isRaw ? memberPrefix : memberPrefix + member, true);
        // A small member is read whole and handed over unparsed when the caller can parse it
        // elsewhere (SourceSinks::unparsed); anything else, or anything that goes wrong while
        // reading it, is parsed here as it is read.
        bool unparsed = m_sinks && m_sinks->unparsed && declaredSize >= 0
            && static_cast<std::uint64_t>(declaredSize) <= kUnparsedMemberBytes;
        std::string whole;
        if (unparsed)
            whole.reserve(static_cast<std::size_t>(declaredSize));
        std::optional<SourceBuilder> builder;
        auto here = [&]() -> SourceBuilder& {
            if (!builder) {
                builder.emplace(meta, m_limits, m_control.hashContent);
                builder->reuseBuffers(&m_scratch); // members are read one after another
                if (!first.empty())
                    builder->knownKind(kind);
                if (!whole.empty())
                    builder->feed(whole);
                unparsed = false;
            }
            return *builder;
        };
        bool ok = true;
        while (r != ARCHIVE_EOF) {
            std::string_view chunk(static_cast<const char*>(buf), size);
            entryBytes += chunk.size();
            m_totalBytes += chunk.size();
            if (!checkBudget(display, entryBytes, isRaw ? memberDisplay : member)) {
                here().markTruncated("reading stopped: archive refused");
                ok = false;
                break;
            }
            if (unparsed && whole.size() + chunk.size() <= kUnparsedMemberBytes)
                whole.append(chunk);
            else
                here().feed(chunk); // bigger than it said: read here, as it streams
            reportProgress();
            if (m_control.cancelled()) {
                ok = false;
                break;
            }
            r = archive_read_data_block(a, &buf, &size, &offset);
            if (r < ARCHIVE_WARN) {
                here().markTruncated("archive data ends early: " + errorText(a));
                m_result.issues.add("archive_truncated", display + ": '" + member + "': " + errorText(a)
                        + " (the part read before this point is kept)");
                ok = false;
                break;
            }
        }
        // How far into the file on disk the sources so far reach, at least: the outermost
        // archive's position (nested ones are in memory) less the block libarchive may have
        // read ahead; 0 until that is known.
        const la_int64_t at = m_outer ? archive_filter_bytes(m_outer, -1) : 0;
        const la_int64_t ahead = static_cast<la_int64_t>(kReadBlock);
        const std::uint64_t read = at > ahead ? static_cast<std::uint64_t>(at - ahead) : 0;
        if (unparsed && ok)
            m_sinks->unparsed(m_result.delivered++,
                UnparsedMember { std::move(meta), kind, std::move(whole) }, read);
        else
            deliver(m_result, m_sinks, here().finish(), read);
        return ok;
    }

    // A member that is itself an archive or compressed is read as it streams out of the
    // outer one: the inner reader pulls the outer member's blocks through NestedStream, so
    // memory stays at libarchive's buffers whatever it expands to. Its members count
    // against the same limits as the outer ones: m_totalBytes is shared, and the ratio is
    // judged against the bytes read from disk (checkBudget), never per level (a 14 KB
    // archive nested twice expanded to 8 GiB with each level under the ratio).
    bool readNested(archive* a, const std::string& display, const std::string& memberDisplay,
        const std::string& member, int depth, std::string_view first, const std::string& nestedPrefix)
    {
        if (depth + 1 >= m_limits.maxArchiveDepth) {
            m_result.issues.add("nested_archive_skipped",
                display + ": '" + member + "' is an archive inside an archive nested too deep; extract it first");
            return true;
        }
        NestedStream stream(a, first);
        ArchivePtr inner = newReader();
        if (stream.openReader(inner.get()) != ARCHIVE_OK) {
            if (!stream.failed())
                m_result.issues.add("archive_unreadable", memberDisplay + ": " + errorText(inner.get()));
        } else {
            // A refused nested archive does not stop the outer one, unless the whole
            // expansion is over a limit (checked again below).
            walk(inner.get(), memberDisplay, depth + 1, nestedPrefix);
        }
        if (stream.failed()) {
            m_result.issues.add("archive_truncated", display + ": '" + member + "': " + errorText(a));
            return false;
        }
        // Whatever of the member the inner reader left unread is skipped by the outer one.
        return !m_overBudget;
    }

    // Progress in bytes read from disk: the outermost archive's input, whatever level the
    // member being read is at.
    void reportProgress()
    {
        if (!m_control.onBytes || !m_outer)
            return;
        const la_int64_t now = archive_filter_bytes(m_outer, -1);
        if (now > m_reported) {
            m_control.onBytes(static_cast<std::uint64_t>(now - m_reported));
            m_reported = now;
        }
    }

    const LoadLimits& m_limits;
    const ReadControl& m_control;
    TaskResult& m_result;
    Origin m_origin;
    SourceScratch& m_scratch;
    const SourceSinks* m_sinks; // null: sources go into the result
    archive* m_outer = nullptr;
    std::uint64_t m_totalBytes = 0; // bytes produced, at every nesting level
    bool m_overBudget = false; // the whole read is over a limit: nothing more is read
    la_int64_t m_reported = 0; // disk bytes reported through ReadControl::onBytes
};

// The archive in the file already open as `fd` (checked to be a regular file), read from its
// start: opening it again by name could open something else.
TaskResult readArchiveFile(int fd, const InputTask& task, const LoadLimits& limits,
    const ReadControl& control, SourceScratch& scratch, const SourceSinks* sinks)
{
    TaskResult result;
    ArchivePtr a = newReader();
    if (::lseek(fd, 0, SEEK_SET) != 0
        || archive_read_open_fd(a.get(), fd, kReadBlock) != ARCHIVE_OK) {
        const char* e = archive_error_string(a.get());
        result.issues.add("archive_unreadable", task.displayPath + ": " + (e ? e : "cannot open"));
        return result;
    }
    ArchiveWalker walker(limits, control, result, originOf(task), scratch, sinks);
    walker.walk(a.get(), task.displayPath, 0);
    return result;
}

// An archive or compressed log arriving on a stream, whose first bytes were read already
// to sniff it: libarchive is handed them, then the rest as it comes.
class StreamArchive {
public:
    StreamArchive(int fd, std::string_view first)
        : m_fd(fd)
        , m_first(first)
        , m_block(kReadBlock)
    {
    }

    int open(archive* a) { return archive_read_open(a, this, nullptr, &StreamArchive::read, nullptr); }

private:
    static la_ssize_t read(archive* a, void* self, const void** buffer)
    {
        auto* s = static_cast<StreamArchive*>(self);
        if (!s->m_first.empty()) {
            *buffer = s->m_first.data();
            const auto n = static_cast<la_ssize_t>(s->m_first.size());
            s->m_first = {};
            return n;
        }
        std::string error;
        const std::string_view piece = readPiece(s->m_fd, s->m_block.data(), s->m_block.size(), error);
        if (!error.empty()) {
            archive_set_error(a, EIO, "read error: %s", error.c_str());
            return -1;
        }
        *buffer = piece.data();
        return static_cast<la_ssize_t>(piece.size());
    }

    int m_fd;
    std::string_view m_first;
    std::vector<char> m_block;
};

// A pipe, FIFO, character device or standard input the user named: read once, front to
// back, with the limits of a file. Its size is unknown until its end, so a stream over
// --max-entry-size is dropped once it passes the limit, as a file that size is not read.
TaskResult readStream(const InputTask& task, const LoadLimits& limits,
    const ReadControl& control, ReadBuffer& readBuffer, const SourceSinks* sinks)
{
    TaskResult result;
    // Blocking: a FIFO's reader waits for its writer, as cat would.
    const int fd = task.kind == InputKind::StandardInput
        ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
        : ::open(task.diskPath.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        result.issues.add("unreadable_file", task.displayPath + ": " + std::strerror(errno));
        return result;
    }
    const FileDescriptor file(fd);
    if (readBuffer.bytes.size() < kFileReadBytes)
        readBuffer.bytes.resize(kFileReadBytes);
    char* const buffer = readBuffer.bytes.data();
    std::string error;
    std::string_view piece = readPiece(fd, buffer, kFileReadBytes, error);
    if (!error.empty()) {
        result.issues.add("unreadable_file", task.displayPath + ": " + error);
        return result;
    }
    const ContentKind kind = sniffContent(piece.substr(0, 8192));
    if (isArchiveOrCompressed(kind)) {
        ArchivePtr a = newReader();
        StreamArchive stream(fd, piece);
        if (stream.open(a.get()) != ARCHIVE_OK) {
            const char* e = archive_error_string(a.get());
            result.issues.add("archive_unreadable", task.displayPath + ": " + (e ? e : "cannot open"));
            return result;
        }
        ArchiveWalker walker(limits, control, result, originOf(task), readBuffer.source, sinks);
        walker.walk(a.get(), task.displayPath, 0);
        return result;
    }
    SourceBuilder builder(makeSource(originOf(task), task.displayPath, {}, false), limits, control.hashContent);
    if (!piece.empty())
        builder.knownKind(kind);
    builder.reuseBuffers(&readBuffer.source);
    std::uint64_t done = 0;
    auto tooLarge = [&]() {
        result.issues.add("file_too_large", task.displayPath + ": more than "
                + humanBytes(limits.maxEntryBytes) + ", the limit per file; not read");
        return std::move(result);
    };
    if (piece.size() < kFileReadBytes) {
        // All of it in one piece (a pasted excerpt), read as a whole file of that size is.
        if (piece.size() > limits.maxEntryBytes)
            return tooLarge();
        if (control.onBytes)
            control.onBytes(piece.size());
        deliver(result, sinks, builder.finishWhole(piece), piece.size());
        return result;
    }
    while (!piece.empty()) {
        done += piece.size();
        if (done > limits.maxEntryBytes)
            return tooLarge();
        builder.feed(piece);
        if (control.onBytes)
            control.onBytes(piece.size());
        if (control.cancelled())
            break;
        piece = readPiece(fd, buffer, kFileReadBytes, error);
        if (!error.empty()) {
            builder.markTruncated("read error: " + error);
            result.issues.add("truncated_file", task.displayPath + ": read error: " + error
                    + " (the part read before this point is kept)");
            break;
        }
    }
    deliver(result, sinks, builder.finish(), done);
    return result;
}

// Text handed over in memory (a pasted log): read as a whole file of that size is. A paste
// is text by nature; bytes that sniff as an archive are still read as text, as the clipboard
// cannot carry an archive.
TaskResult readPasted(const InputTask& task, const LoadLimits& limits, const ReadControl& control,
    ReadBuffer& readBuffer, const SourceSinks* sinks)
{
    TaskResult result;
    const std::string_view bytes = task.memory ? std::string_view(*task.memory) : std::string_view();
    if (bytes.size() > limits.maxEntryBytes) {
        result.issues.add("file_too_large", task.displayPath + ": more than "
                + humanBytes(limits.maxEntryBytes) + ", the limit per file; not read");
        return result;
    }
    SourceBuilder builder(makeSource(originOf(task), task.displayPath, {}, false), limits, control.hashContent);
    builder.reuseBuffers(&readBuffer.source);
    if (control.onBytes)
        control.onBytes(bytes.size());
    deliver(result, sinks, builder.finishWhole(bytes), bytes.size());
    return result;
}

} // namespace

TaskResult readInput(const InputTask& task, const LoadLimits& limits, const ReadControl& control)
{
    ReadBuffer buffer;
    return readInput(task, limits, control, buffer);
}

TaskResult readInput(const InputTask& task, const LoadLimits& limits, const ReadControl& control,
    ReadBuffer& readBuffer, const SourceSinks* sinks)
{
    if (task.kind == InputKind::Memory)
        return readPasted(task, limits, control, readBuffer, sinks);
    if (task.kind != InputKind::File)
        return readStream(task, limits, control, readBuffer, sinks);
    // Plain files are read with read() into one buffer, piece by piece, rather than mapped:
    // a log that is truncated or rotated while it is read (a live job) ends the read early
    // instead of raising SIGBUS on a mapped page past the new end, and memory stays at one
    // buffer per reader thread whatever the file size. Measured as fast as mapping.
    TaskResult result;
    // O_NONBLOCK: a FIFO or device put where a file was planned must not block the open or a
    // read (a link to /proc/kmsg hung forever); only regular files are read, and for those
    // the flag changes nothing.
    const int fd = ::open(task.diskPath.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        result.issues.add("unreadable_file", task.displayPath + ": " + std::strerror(errno));
        return result;
    }
    const FileDescriptor file(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        result.issues.add("unreadable_file", task.displayPath + ": " + std::strerror(errno));
        return result;
    }
    if (!S_ISREG(st.st_mode)) {
        result.issues.add("not_regular_file",
            task.displayPath + ": not a regular file (a pipe, socket or device); not read");
        return result;
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const std::size_t bufferBytes = static_cast<std::size_t>(std::clamp<std::uint64_t>(size + 1, 8192, kFileReadBytes));
    if (readBuffer.bytes.size() < bufferBytes)
        readBuffer.bytes.resize(bufferBytes); // grows once per reader, then is reused
    char* const buffer = readBuffer.bytes.data();
    std::string error;
    std::string_view piece = readPiece(fd, buffer, bufferBytes, error);
    if (!error.empty()) {
        result.issues.add("unreadable_file", task.displayPath + ": " + error);
        return result;
    }
    const ContentKind kind = sniffContent(piece.substr(0, 8192));
    if (isArchiveOrCompressed(kind))
        return readArchiveFile(fd, task, limits, control, readBuffer.source, sinks);

    if (size > limits.maxEntryBytes) {
        result.issues.add("file_too_large", task.displayPath + ": " + humanBytes(size)
                + " is over the " + humanBytes(limits.maxEntryBytes) + " limit per file; not read");
        return result;
    }
    std::shared_ptr<FileHashJob> hashJob;
    if (control.hashContent && control.offloadHash && piece.size() == bufferBytes && size >= kOffloadHashBytes) {
        auto job = std::make_shared<FileHashJob>(fd, size, control.cancel);
        if (job->valid() && control.offloadHash(job))
            hashJob = std::move(job);
    }
    SourceBuilder builder(makeSource(originOf(task), task.displayPath, {}, false), limits,
        control.hashContent && !hashJob);
    if (!piece.empty())
        builder.knownKind(kind);
    builder.reuseBuffers(&readBuffer.source);
    if (piece.size() < bufferBytes) {
        // The whole file in one piece (most logs and every Flight Recorder dump).
        if (control.onBytes)
            control.onBytes(piece.size());
        deliver(result, sinks, builder.finishWhole(piece), piece.size());
        return result;
    }
    // What the file held when it was opened: a log still being written is read as of then,
    // as a mapping would have been, instead of chasing its end.
    const std::uint64_t readLimit = size > 0 ? size : limits.maxEntryBytes;
    std::uint64_t done = 0;
    while (!piece.empty()) {
        if (piece.size() > readLimit - done)
            piece = piece.substr(0, static_cast<std::size_t>(readLimit - done));
        builder.feed(piece);
        done += piece.size();
        if (control.onBytes)
            control.onBytes(piece.size());
        if (control.cancelled() || done >= readLimit)
            break;
        piece = readPiece(fd, buffer, bufferBytes, error);
        if (!error.empty()) {
            builder.markTruncated("read error: " + error);
            result.issues.add("truncated_file", task.displayPath + ": read error: " + error
                    + " (the part read before this point is kept)");
            break;
        }
    }
    model::ParsedSource parsed = builder.finish();
    // The digest is of the file's first `size` bytes; it is this source's only when that is
    // what was parsed (a file that shrank while read keeps no digest, as an unhashed load).
    if (hashJob && !control.cancelled())
        if (auto digest = hashJob->wait(); digest && done == size)
            parsed.source.sha256 = std::move(*digest);
    deliver(result, sinks, std::move(parsed), done);
    return result;
}

TaskResult readMemory(std::string_view bytes, const std::string& displayPath,
    const LoadLimits& limits, const ReadControl& control)
{
    TaskResult result;
    if (!isArchiveOrCompressed(sniffContent(bytes.substr(0, 8192)))) {
        SourceBuilder builder(makeSource({ displayPath }, displayPath, {}, false), limits, control.hashContent);
        builder.feed(bytes);
        result.sources.push_back(builder.finish());
        return result;
    }
    ArchivePtr a = newReader();
    if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
        const char* e = archive_error_string(a.get());
        result.issues.add("archive_unreadable", displayPath + ": " + (e ? e : "cannot open"));
        return result;
    }
    SourceScratch scratch;
    ArchiveWalker walker(limits, control, result, Origin { displayPath }, scratch);
    walker.walk(a.get(), displayPath, 0);
    return result;
}

model::ParsedSource parseMember(UnparsedMember&& member, const LoadLimits& limits,
    const ReadControl& control, SourceScratch& scratch)
{
    SourceBuilder builder(std::move(member.meta), limits, control.hashContent);
    builder.reuseBuffers(&scratch);
    if (!member.bytes.empty())
        builder.knownKind(member.kind);
    return builder.finishWhole(member.bytes);
}

} // namespace rankscope::parsers
