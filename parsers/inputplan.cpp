#include "parsers/inputplan.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <system_error>
#include <tuple>
#include <unistd.h>

namespace rankscope::parsers {

namespace fs = std::filesystem;

namespace {

std::string reasonOf(const std::error_code& ec)
{
    return ec ? ec.message() : std::string("unknown error");
}

// Opening the file proves it is readable now, not only that it exists (a single file the
// user named; files found in folders are opened when they are read, and one that cannot be
// becomes an "unreadable_file" issue there).
bool canRead(const fs::path& p, std::string& reason)
{
    // O_NONBLOCK: opening a FIFO put in place of the file must not wait for a writer.
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        reason = std::strerror(errno);
        return false;
    }
    ::close(fd);
    return true;
}

// A character device is read only when it is a terminal (/dev/stdin left on the keyboard,
// /dev/tty, /dev/pts/N): /dev/zero never ends and /dev/kmsg blocks waiting for the kernel's
// next message, so any other device would hang or exhaust the limits with no log in it.
bool isTerminal(const fs::path& p)
{
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return false;
    const bool terminal = ::isatty(fd) == 1;
    ::close(fd);
    return terminal;
}

// The path as the user would name it: relative to the folder that holds the given root.
// Worked out on the text of the path (the walk yields root/…): fs::relative would resolve
// symlinks with two readlink calls per component of every file.
std::string displayName(const fs::path& root, const fs::path& file, bool rootIsDirectory)
{
    if (!rootIsDirectory)
        return file.generic_string();
    const fs::path rel = file.lexically_relative(root.parent_path());
    if (rel.empty() || *rel.begin() == "..")
        return file.generic_string();
    return rel.generic_string();
}

// Closes a directory stream (and the descriptor it owns) on every way out.
struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};
using DirStream = std::unique_ptr<DIR, DirCloser>;

// Walks one folder the user gave, relative to each folder's descriptor (openat/fstatat):
// a folder of 4096 rank logs costs one stat per file and no path lookup from the root, which
// a path-based walk (std::filesystem) repeats for every file. Only regular files are read.
// A link is followed only to a regular file inside the folder: one leading out of it would
// put a stranger's bundle's view of this machine (/etc, ~/.ssh, /proc/kmsg, which blocks
// forever) into a report. Links to folders are not followed (loops; a folder inside is
// walked where it lies). Everything not read is named in an import issue.
class FolderWalk {
public:
    FolderWalk(std::string diskRoot, std::string displayRoot, InputPlan& plan)
        : m_diskRoot(diskRoot.ends_with('/') ? std::move(diskRoot) : std::move(diskRoot) + '/')
        , m_displayRoot(std::move(displayRoot))
        , m_plan(plan)
    {
    }

    // False with a reason when the folder itself cannot be opened.
    bool run(std::string& reason)
    {
        const int fd = ::open(m_diskRoot.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            reason = std::strerror(errno);
            return false;
        }
        std::error_code ec;
        m_realRoot = fs::canonical(m_diskRoot, ec).string();
        if (ec)
            m_realRoot.clear(); // then no link is followed
        else if (!m_realRoot.ends_with('/'))
            m_realRoot += '/';
        walk(fd, std::string());
        return true;
    }

    std::size_t entriesSeen() const { return m_seen; }
    // What every planned file's disk path starts with: the folder as given, ending in '/'.
    const std::string& diskRoot() const { return m_diskRoot; }

private:
    // `fd` is owned by this call; `rel` is the folder's path below the root ("" or "a/b/").
    void walk(int fd, const std::string& rel)
    {
        DirStream dir(::fdopendir(fd));
        if (!dir) {
            unreadable(rel, errno);
            ::close(fd);
            return;
        }
        std::vector<std::string> subfolders;
        errno = 0;
        while (const dirent* entry = ::readdir(dir.get())) {
            const std::string_view name(entry->d_name);
            if (name == "." || name == "..")
                continue;
            ++m_seen;
            visit(::dirfd(dir.get()), entry->d_type, name, rel, subfolders);
            errno = 0;
        }
        if (errno != 0)
            unreadable(rel, errno);
        for (const std::string& sub : subfolders) {
            const int subFd = ::openat(
                ::dirfd(dir.get()), sub.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (subFd < 0) {
                unreadable(rel + sub, errno);
                continue;
            }
            walk(subFd, rel + sub + '/');
        }
    }

    void visit(int dirFd, unsigned char type, std::string_view name, const std::string& rel,
        std::vector<std::string>& subfolders)
    {
        const std::string nameText(name);
        struct stat st { };
        if (type == DT_UNKNOWN) { // some file systems do not fill d_type
            if (::fstatat(dirFd, nameText.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
                unreadable(rel + nameText, errno);
                return;
            }
            type = S_ISDIR(st.st_mode) ? DT_DIR
                : S_ISLNK(st.st_mode)  ? DT_LNK
                : S_ISREG(st.st_mode)  ? DT_REG
                                       : DT_UNKNOWN;
        }
        if (type == DT_DIR) {
            subfolders.push_back(nameText);
            return;
        }
        if (type == DT_LNK) {
            if (!followLink(dirFd, nameText, rel, st))
                return;
        } else if (type != DT_REG) {
            skipped("not_regular_file", rel + nameText, "not a regular file (a pipe, socket or device)");
            return;
        } else if (::fstatat(dirFd, nameText.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            unreadable(rel + nameText, errno);
            return;
        }
        InputTask task;
        task.diskPath = m_diskRoot + rel + nameText;
        task.displayPath = m_displayRoot + rel + nameText;
        task.diskBytes = static_cast<std::uint64_t>(st.st_size);
        m_plan.tasks.push_back(std::move(task));
    }

    // True (with `st` of the target) when the link at rel/name is read: it leads to a
    // regular file inside the folder.
    bool followLink(int dirFd, const std::string& name, const std::string& rel, struct stat& st)
    {
        const std::string path = rel + name;
        if (::fstatat(dirFd, name.c_str(), &st, 0) != 0) {
            const int error = errno;
            skipped("dangling_link", path,
                "link to '" + linkTarget(dirFd, name) + "' that cannot be followed ("
                    + std::strerror(error) + ")");
            return false;
        }
        std::error_code ec;
        const std::string real = fs::canonical(m_diskRoot + path, ec).string();
        if (ec || m_realRoot.empty() || !real.starts_with(m_realRoot)) {
            skipped("link_outside_bundle", path,
                "link to '" + (ec ? linkTarget(dirFd, name) : real)
                    + "' outside the folder; not followed");
            return false;
        }
        if (S_ISDIR(st.st_mode))
            return false; // walked where it lies, inside the folder
        if (!S_ISREG(st.st_mode)) {
            skipped("not_regular_file", path,
                "link to '" + real + "', not a regular file (a pipe, socket or device)");
            return false;
        }
        return true;
    }

    static std::string linkTarget(int dirFd, const std::string& name)
    {
        char buf[4096];
        const ssize_t n = ::readlinkat(dirFd, name.c_str(), buf, sizeof buf);
        return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("?");
    }

    void unreadable(const std::string& rel, int error)
    {
        m_plan.issues.add("unreadable_path",
            m_displayRoot + rel + ": " + std::strerror(error) + "; not read");
    }

    void skipped(std::string_view kind, const std::string& rel, const std::string& why)
    {
        m_plan.issues.add(kind, m_displayRoot + rel + ": " + why);
    }

    std::string m_diskRoot; // the folder as given, ending in '/'
    std::string m_displayRoot; // what display paths start with, ending in '/'
    std::string m_realRoot; // the folder with links resolved, ending in '/'; empty: unknown
    InputPlan& m_plan;
    std::size_t m_seen = 0;
};

// Pipes, FIFOs, character devices and standard input named on the command line. Each is
// read once, so one named twice (or as "-" and /dev/stdin) would be read empty the second
// time, or wait forever for a writer: that is refused before anything is read.
class NamedStreams {
public:
    // The task for `given`, or an error when it cannot be read or names a stream already
    // planned.
    std::optional<model::Error> add(const std::string& given, InputKind kind, InputPlan& plan)
    {
        const bool standardInput = kind == InputKind::StandardInput;
        const std::string named = standardInput ? "standard input ('-')" : "'" + given + "'";
        for (const Seen& s : m_seen)
            if (s.given == given)
                return model::Error { named + " is named twice: a stream can be read only "
                                      "once, so name it once" };
        struct stat st { };
        // Not opened here: opening a FIFO would let its writer go on, and closing it again
        // would leave that writer without a reader (SIGPIPE). Permissions are enough.
        if ((standardInput ? ::fstat(STDIN_FILENO, &st) : ::stat(given.c_str(), &st)) != 0)
            return model::Error { "cannot read " + named + ": " + std::strerror(errno) };
        if (!standardInput && ::access(given.c_str(), R_OK) != 0)
            return model::Error { "cannot read " + named + ": " + std::strerror(errno) };
        for (const Seen& s : m_seen)
            if (s.device == st.st_dev && s.inode == st.st_ino)
                return model::Error { "'" + s.given + "' and '" + given
                    + "' are the same stream, which can be read only once: name it once" };
        m_seen.push_back({ st.st_dev, st.st_ino, given });
        InputTask task;
        task.diskPath = given;
        task.displayPath = standardInput ? std::string(kStandardInputName) : given;
        task.kind = kind;
        plan.tasks.push_back(std::move(task));
        return std::nullopt;
    }

private:
    struct Seen {
        dev_t device;
        ino_t inode;
        std::string given;
    };
    std::vector<Seen> m_seen;
};

} // namespace

model::Result<InputPlan> planInputs(const std::vector<std::string>& paths, const std::vector<PastedText>& pasted)
{
    InputPlan plan;
    if (paths.empty() && pasted.empty())
        return model::Error { "no input given: pass a log folder, files or archives" };
    std::set<std::string_view> pastedNames;
    for (const PastedText& p : pasted) {
        if (p.name.empty() || !pastedNames.insert(p.name).second)
            return model::Error { "two pasted logs are named '" + p.name + "': give each its own name" };
        InputTask task;
        task.diskPath = "pasted:" + p.name; // never a path on disk, so never merged with one
        task.displayPath = p.name;
        task.diskBytes = p.text ? p.text->size() : 0;
        task.kind = InputKind::Memory;
        task.memory = p.text ? p.text : std::make_shared<const std::string>();
        plan.tasks.push_back(std::move(task));
    }
    NamedStreams streams;
    for (const std::string& given : paths) {
        if (given == kStandardInputArgument) {
            if (auto error = streams.add(given, InputKind::StandardInput, plan))
                return *error;
            continue;
        }
        const fs::path root(given);
        std::error_code ec;
        const fs::file_status st = fs::status(root, ec);
        if (ec || !fs::exists(st))
            return model::Error { "cannot read '" + given + "': "
                + (ec ? reasonOf(ec) : std::string("no such file or directory")) };
        if (fs::is_directory(st)) {
            // Strip a trailing slash so relative display paths start at the folder's name.
            fs::path dir = root;
            if (!dir.has_filename())
                dir = dir.parent_path();
            // Display paths start at the folder's own name: its display name as the
            // parent of a file in it, without that file.
            std::string displayRoot = displayName(dir, dir / "x", true);
            displayRoot.pop_back();
            FolderWalk walk(dir.string(), std::move(displayRoot), plan);
            const std::size_t firstTask = plan.tasks.size();
            std::string reason;
            if (!walk.run(reason))
                return model::Error { "cannot read folder '" + given + "': " + reason };
            for (std::size_t t = firstTask; t < plan.tasks.size(); ++t) {
                InputTask& task = plan.tasks[t];
                task.root = dir.string();
                while (task.root.size() > 1 && task.root.ends_with('/'))
                    task.root.pop_back();
                task.rootRelative = task.diskPath.substr(walk.diskRoot().size());
            }
            const std::size_t seen = walk.entriesSeen();
            if (seen == 0)
                plan.issues.add("empty_folder", given + " contains no files");
            continue;
        }
        if (fs::is_character_file(st) && !isTerminal(root))
            return model::Error { "cannot read '" + given
                + "': a device, not a log; name a file, a folder, a pipe or '-' for standard input" };
        if (fs::is_fifo(st) || fs::is_character_file(st)) {
            if (auto error = streams.add(given, InputKind::Stream, plan))
                return *error;
            continue;
        }
        if (!fs::is_regular_file(st))
            return model::Error { "cannot read '" + given
                + "': not a regular file, folder, pipe or terminal" };
        std::string reason;
        if (!canRead(root, reason))
            return model::Error { "cannot read '" + given + "': " + reason };
        InputTask task;
        task.diskPath = root.string();
        task.displayPath = displayName(root, root, false);
        task.diskBytes = fs::file_size(root, ec);
        task.root = root.has_parent_path() ? root.parent_path().string() : std::string(".");
        task.rootRelative = root.filename().string();
        plan.tasks.push_back(std::move(task));
    }
    // Display path first (what the user sees), disk path to break ties between two folders
    // shown under one name: the order never depends on readdir.
    std::sort(plan.tasks.begin(), plan.tasks.end(), [](const InputTask& a, const InputTask& b) {
        return std::tie(a.displayPath, a.diskPath) < std::tie(b.displayPath, b.diskPath);
    });
    plan.tasks.erase(std::unique(plan.tasks.begin(), plan.tasks.end(),
                         [](const InputTask& a, const InputTask& b) { return a.diskPath == b.diskPath; }),
        plan.tasks.end());
    for (const auto& t : plan.tasks)
        plan.totalDiskBytes += t.diskBytes;
    return plan;
}

} // namespace rankscope::parsers
