#include "parsers/inputplan.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace rankscope::parsers {

namespace fs = std::filesystem;

namespace {

std::string reasonOf(const std::error_code& ec)
{
    return ec ? ec.message() : std::string("unknown error");
}

// Opening the file proves it is readable now, not only that it exists. A bare open/close:
// a folder of 4096 rank logs is checked before any of them is read.
bool canRead(const fs::path& p, std::string& reason)
{
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        reason = std::strerror(errno);
        return false;
    }
    ::close(fd);
    return true;
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

} // namespace

model::Result<InputPlan> planInputs(const std::vector<std::string>& paths)
{
    InputPlan plan;
    if (paths.empty())
        return model::Error { "no input given: pass a log folder, files or archives" };
    for (const std::string& given : paths) {
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
            auto it = fs::recursive_directory_iterator(dir,
                fs::directory_options::skip_permission_denied, ec);
            if (ec)
                return model::Error { "cannot read folder '" + given + "': " + reasonOf(ec) };
            std::size_t seen = 0;
            for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
                if (ec) {
                    plan.issues.add("unreadable_path", given + ": " + reasonOf(ec));
                    ec.clear();
                    break;
                }
                ++seen;
                const fs::directory_entry& entry = *it;
                std::error_code fileEc;
                // Symlinked folders are not followed (loops); symlinked files are read.
                if (!entry.is_regular_file(fileEc))
                    continue;
                std::string reason;
                if (!canRead(entry.path(), reason)) {
                    plan.issues.add("unreadable_file", entry.path().generic_string() + ": " + reason);
                    continue;
                }
                InputTask task;
                task.diskPath = entry.path().string();
                task.displayPath = displayName(dir, entry.path(), true);
                task.diskBytes = entry.file_size(fileEc);
                plan.tasks.push_back(std::move(task));
            }
            if (seen == 0)
                plan.issues.add("empty_folder", given + " contains no files");
            continue;
        }
        if (!fs::is_regular_file(st))
            return model::Error { "cannot read '" + given + "': not a regular file or folder" };
        std::string reason;
        if (!canRead(root, reason))
            return model::Error { "cannot read '" + given + "': " + reason };
        InputTask task;
        task.diskPath = root.string();
        task.displayPath = displayName(root, root, false);
        task.diskBytes = fs::file_size(root, ec);
        plan.tasks.push_back(std::move(task));
    }
    std::sort(plan.tasks.begin(), plan.tasks.end(),
        [](const InputTask& a, const InputTask& b) { return a.displayPath < b.displayPath; });
    plan.tasks.erase(std::unique(plan.tasks.begin(), plan.tasks.end(),
                         [](const InputTask& a, const InputTask& b) { return a.diskPath == b.diskPath; }),
        plan.tasks.end());
    for (const auto& t : plan.tasks)
        plan.totalDiskBytes += t.diskBytes;
    return plan;
}

} // namespace rankscope::parsers
