// Streams named on the command line (issue: read a log from standard input): "-", a FIFO or
// a terminal given by path is planned as a stream, read once front to back with the
// limits of a file, and gives the source the same bytes in a regular file give.

#include "parsers/inputplan.h"
#include "parsers/inputreader.h"

#include <catch2/catch.hpp>

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

using namespace rankscope;
namespace fs = std::filesystem;

namespace {

const std::string kLog
    = "[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
      "Timeout(ms)=600000) ran for 600005 milliseconds before timing out.\n"
      "[rank3]:[E ProcessGroupNCCL.cpp:1664] [PG 0 Rank 3] Exception (either an error or "
      "timeout) detected by watchdog at work: 5, last enqueued NCCL work: 5, last completed "
      "NCCL work: 4.\n";

fs::path scratchDir(const std::string& name)
{
    auto dir = fs::temp_directory_path() / ("rankscope-stream-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Writes `bytes` into the FIFO at `path` from another thread, as `cmd > fifo` would.
std::thread writer(const fs::path& path, std::string bytes)
{
    return std::thread([path, bytes = std::move(bytes)] {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return;
        std::string_view rest(bytes);
        while (!rest.empty()) {
            const ssize_t n = ::write(fd, rest.data(), rest.size());
            if (n <= 0)
                break;
            rest.remove_prefix(static_cast<std::size_t>(n));
        }
        ::close(fd);
    });
}

std::string tarGz(const std::string& member, const std::string& text)
{
    std::string out(64 << 10, '\0');
    std::size_t used = 0;
    archive* a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    archive_write_open_memory(a, out.data(), out.size(), &used);
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, member.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(text.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, text.data(), text.size());
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
    out.resize(used);
    return out;
}

parsers::InputTask planned(const fs::path& path)
{
    auto plan = parsers::planInputs({ path.string() });
    REQUIRE(plan.ok());
    REQUIRE(plan->tasks.size() == 1);
    return plan->tasks.front();
}

} // namespace

TEST_CASE("a FIFO named by path is read once as a stream, like the same bytes in a file",
    "[parsers][input][stream]")
{
    const auto dir = scratchDir("fifo");
    std::ofstream(dir / "console.log") << kLog;
    const auto fifo = dir / "pasted";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);

    const parsers::InputTask task = planned(fifo);
    CHECK(task.kind == parsers::InputKind::Stream);
    CHECK(task.displayPath == fifo.string());
    CHECK(task.root.empty());

    std::thread w = writer(fifo, kLog);
    const auto streamed = parsers::readInput(task, {}, {});
    w.join();
    const auto file = parsers::readInput(planned(dir / "console.log"), {}, {});
    REQUIRE(streamed.sources.size() == 1);
    REQUIRE(file.sources.size() == 1);
    const auto& s = streamed.sources.front();
    const auto& f = file.sources.front();
    CHECK(s.source.stream);
    CHECK_FALSE(f.source.stream);
    CHECK(s.source.path == fifo.string());
    CHECK(s.source.bytes == f.source.bytes);
    CHECK(s.source.lines == f.source.lines);
    CHECK(s.source.sha256 == f.source.sha256);
    CHECK(s.events.size() == f.events.size());
    CHECK_FALSE(s.events.empty());
}

TEST_CASE("a compressed archive arriving on a stream is read member by member",
    "[parsers][input][stream]")
{
    const auto dir = scratchDir("archive");
    const auto fifo = dir / "bundle";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::thread w = writer(fifo, tarGz("node-1/rank3.log", kLog));
    const auto r = parsers::readInput(planned(fifo), {}, {});
    w.join();
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources.front().source.path == fifo.string() + "!node-1/rank3.log");
    CHECK(r.sources.front().source.stream);
    CHECK(r.sources.front().source.lines == 2);
}

TEST_CASE("a stream over the limit per file is not read, as a file that size is not",
    "[parsers][input][stream]")
{
    const auto dir = scratchDir("limit");
    const auto fifo = dir / "big";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    parsers::LoadLimits limits;
    limits.maxEntryBytes = 64;
    std::thread w = writer(fifo, kLog);
    const auto r = parsers::readInput(planned(fifo), limits, {});
    w.join();
    CHECK(r.sources.empty());
    CHECK(r.issues.count("file_too_large") == 1);
}

TEST_CASE("one stream named twice is refused before anything is read", "[parsers][input][stream]")
{
    auto twice = parsers::planInputs({ "-", "-" });
    REQUIRE_FALSE(twice.ok());
    CHECK_THAT(twice.error().message, Catch::Contains("standard input ('-') is named twice"));

    const auto dir = scratchDir("twice");
    const auto fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto link = dir / "same";
    fs::create_symlink(fifo, link);
    auto aliased = parsers::planInputs({ fifo.string(), link.string() });
    REQUIRE_FALSE(aliased.ok());
    CHECK_THAT(aliased.error().message, Catch::Contains("are the same stream"));

    // Standard input alone is planned under the name "stdin", not opened (when the test
    // runner left it open at all).
    if (::fcntl(STDIN_FILENO, F_GETFD) < 0)
        return;
    auto one = parsers::planInputs({ "-" });
    REQUIRE(one.ok());
    REQUIRE(one->tasks.size() == 1);
    CHECK(one->tasks[0].kind == parsers::InputKind::StandardInput);
    CHECK(one->tasks[0].displayPath == "stdin");
}

TEST_CASE("a device that is not a terminal is refused, not read forever", "[parsers][input][stream]")
{
    // /dev/zero never ends, /dev/kmsg and /dev/random can block: none of them holds a log.
    for (const char* device : { "/dev/zero", "/dev/null", "/dev/urandom", "/dev/kmsg" }) {
        if (!fs::exists(device))
            continue;
        INFO(device);
        auto plan = parsers::planInputs({ device });
        REQUIRE_FALSE(plan.ok());
        CHECK_THAT(plan.error().message, Catch::Contains("a device, not a log"));
    }
}

TEST_CASE("files keep where they lie below what the user named", "[parsers][input]")
{
    const auto dir = scratchDir("roots");
    fs::create_directories(dir / "node-1");
    std::ofstream(dir / "node-1" / "rank3.log") << kLog;
    auto folder = parsers::planInputs({ dir.string() + "/" });
    REQUIRE(folder.ok());
    REQUIRE(folder->tasks.size() == 1);
    CHECK(folder->tasks[0].root == dir.string());
    CHECK(folder->tasks[0].rootRelative == "node-1/rank3.log");
    const auto r = parsers::readInput(folder->tasks[0], {}, {});
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources[0].source.root == dir.string());
    CHECK(r.sources[0].source.rootRelative == "node-1/rank3.log");

    auto file = parsers::planInputs({ (dir / "node-1" / "rank3.log").string() });
    REQUIRE(file.ok());
    CHECK(file->tasks[0].root == (dir / "node-1").string());
    CHECK(file->tasks[0].rootRelative == "rank3.log");
}
