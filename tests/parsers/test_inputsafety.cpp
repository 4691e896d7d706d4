// Files and links a stranger's bundle may hold: links leading out of the folder, special
// files that block a reader, folders that cannot be entered, UTF-16 without a byte order
// mark. Nothing may hang, nothing outside the bundle may be read, and every input not read
// is named in an import issue.

#include "parsers/contentsniff.h"
#include "parsers/inputplan.h"
#include "parsers/inputreader.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace rankscope;
namespace fs = std::filesystem;

namespace {

const std::string kLine = "[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective "
                          "operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, "
                          "NumelOut=1, Timeout(ms)=600000) ran for 600005 milliseconds before "
                          "timing out.\n";

fs::path scratchDir(const std::string& name)
{
    auto dir = fs::temp_directory_path() / ("rankscope-safety-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::vector<std::string> displayPaths(const parsers::InputPlan& plan)
{
    std::vector<std::string> out;
    for (const auto& t : plan.tasks)
        out.push_back(t.displayPath);
    return out;
}

std::string firstSample(const model::ImportIssues& issues, std::string_view kind)
{
    for (const auto& i : issues.list())
        if (i.kind == kind && !i.samples.empty())
            return i.samples.front();
    return {};
}

std::string utf16(const std::string& ascii, bool bigEndian)
{
    std::string out;
    for (const char c : ascii) {
        if (bigEndian)
            out += '\0';
        out += c;
        if (!bigEndian)
            out += '\0';
    }
    return out;
}

} // namespace

TEST_CASE("folder walk: links leading out of the folder are not followed and are named",
    "[parsers][input][hostile]")
{
    const auto outside = scratchDir("outside");
    std::ofstream(outside / "secret.txt") << "ssh-rsa AAAA not part of the bundle\n";
    const auto dir = scratchDir("links");
    fs::create_directories(dir / "node-1");
    std::ofstream(dir / "node-1" / "rank0.log") << kLine;
    fs::create_symlink(outside / "secret.txt", dir / "pyspy-rank7.txt");
    fs::create_symlink("../../rankscope-safety-outside/secret.txt", dir / "node-1" / "relative.log");
    fs::create_directory_symlink(outside, dir / "elsewhere");
    fs::create_symlink("/proc/kmsg", dir / "kmsg.log");
    fs::create_symlink("rank0.log", dir / "node-1" / "inside.log"); // stays in the bundle

    auto plan = parsers::planInputs({ dir.string() });
    REQUIRE(plan.ok());
    CHECK(displayPaths(plan.value())
        == std::vector<std::string> {
            "rankscope-safety-links/node-1/inside.log", "rankscope-safety-links/node-1/rank0.log" });
    // /proc/kmsg may be missing in a container: then its link dangles, and is named so.
    CHECK(plan->issues.count("link_outside_bundle") + plan->issues.count("dangling_link") == 4);
    CHECK(plan->issues.count("link_outside_bundle") >= 3);
    CHECK(firstSample(plan->issues, "link_outside_bundle").find("outside the folder")
        != std::string::npos);
}

TEST_CASE("a pipe or device where a file was planned is refused without blocking",
    "[parsers][input][hostile]")
{
    const auto dir = scratchDir("fifo");
    const auto pipe = dir / "rank0.log";
    REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
    // Planned as a file (it was one when the folder was walked), then read: with no writer a
    // blocking open would wait forever.
    parsers::InputTask task { pipe.string(), "rank0.log", 0 };
    const auto r = parsers::readInput(task, {}, {});
    CHECK(r.sources.empty());
    CHECK(r.issues.count("not_regular_file") == 1);
    // Named on the command line it is a stream the user chose (<(cmd), mkfifo): planned to be
    // read once, and not opened while planning (that would release a waiting writer).
    auto plan = parsers::planInputs({ pipe.string() });
    REQUIRE(plan.ok());
    REQUIRE(plan->tasks.size() == 1);
    CHECK(plan->tasks[0].kind == parsers::InputKind::Stream);
    // Found inside a folder it is still refused, without blocking.
    auto folder = parsers::planInputs({ dir.string() });
    REQUIRE(folder.ok());
    CHECK(folder->tasks.empty());
    CHECK(folder->issues.count("not_regular_file") == 1);
}

TEST_CASE("a subfolder that cannot be entered is named, and its siblings are read",
    "[parsers][input][hostile]")
{
    const auto dir = scratchDir("noaccess");
    fs::create_directories(dir / "node-2");
    std::ofstream(dir / "rank0.log") << kLine;
    std::ofstream(dir / "node-2" / "rank8.log") << kLine;
    fs::permissions(dir, fs::perms::all, fs::perm_options::add);
    fs::permissions(dir / "rank0.log", fs::perms::all, fs::perm_options::add);
    fs::permissions(dir / "node-2", fs::perms::none, fs::perm_options::replace);
    // Root enters any folder, so the walk runs as an unprivileged user in a child process
    // when the tests run as root; the child reports through its exit status.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
            ::_exit(10);
        auto plan = parsers::planInputs({ dir.string() });
        if (!plan.ok())
            ::_exit(11);
        if (plan->tasks.size() != 1 || !plan->tasks[0].displayPath.ends_with("rank0.log"))
            ::_exit(12);
        if (plan->issues.count("unreadable_path") != 1)
            ::_exit(13);
        if (firstSample(plan->issues, "unreadable_path").find("node-2") == std::string::npos)
            ::_exit(14);
        ::_exit(0);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    fs::permissions(dir / "node-2", fs::perms::owner_all, fs::perm_options::replace);
}

TEST_CASE("UTF-16 without a byte order mark is sniffed by its NUL bytes and decoded",
    "[parsers][input]")
{
    const std::string text = kLine + kLine;
    CHECK(parsers::sniffContent(utf16(text, false)) == parsers::ContentKind::Utf16LeText);
    CHECK(parsers::sniffContent(utf16(text, true)) == parsers::ContentKind::Utf16BeText);
    // Binary with NULs on both sides, and text with a few stray NULs, are not UTF-16.
    std::string binary;
    for (int i = 0; i < 512; ++i)
        binary += static_cast<char>(i % 7 == 0 ? 0 : (i * 37) & 0xff);
    CHECK(parsers::sniffContent(binary) == parsers::ContentKind::Binary);
    CHECK(parsers::sniffContent(text + std::string(1, '\0') + text) == parsers::ContentKind::Text);

    // A Rich console's output: progress-bar blocks (U+2588) and rules (U+2500, a NUL low byte)
    // take a good share of the head and are still UTF-16 text.
    std::string rich;
    auto unit = [&rich](char16_t u) {
        rich += static_cast<char>(u & 0xff);
        rich += static_cast<char>(u >> 8);
    };
    for (int line = 0; line < 12; ++line) {
        for (char c : std::string("Loading checkpoint shards: 100%|"))
            unit(static_cast<char16_t>(c));
        for (int b = 0; b < 10; ++b)
            unit(u'\u2588');
        for (int b = 0; b < 6; ++b)
            unit(u'\u2500');
        for (char c : std::string("| 61/61 [05:45<00:00,  5.66s/it]\n"))
            unit(static_cast<char16_t>(c));
    }
    CHECK(parsers::sniffContent(rich) == parsers::ContentKind::Utf16LeText);

    const auto dir = scratchDir("utf16");
    for (const bool bigEndian : { false, true }) {
        INFO(bigEndian);
        const auto path = dir / (bigEndian ? "rank3-be.log" : "rank3-le.log");
        std::ofstream(path, std::ios::binary) << utf16(text, bigEndian);
        parsers::InputTask task { path.string(), path.filename().string(), 0 };
        const auto r = parsers::readInput(task, {}, {});
        REQUIRE(r.sources.size() == 1);
        const auto& s = r.sources[0];
        CHECK(s.source.kind == model::SourceKind::Log);
        CHECK(s.issues.count("binary_skipped") == 0);
        CHECK(s.issues.count("utf16_transcoded") == 1);
        CHECK_FALSE(s.events.empty()); // the watchdog timeout was read
    }
}
