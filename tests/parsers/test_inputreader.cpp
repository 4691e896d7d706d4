#include "archivewriter.h"
#include "parsers/inputplan.h"
#include "parsers/inputreader.h"
#include "parsers/sha256.h"
#include "parsers/sourcecontent.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <thread>
#include <sys/stat.h>

using namespace rankscope;
using testing::ArchiveEntrySpec;
using testing::makeArchive;

namespace {

const std::string kLog = "node-01:1234:1234 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
                         "plain text line\n";

parsers::TaskResult readBytes(const std::string& bytes, const std::string& name,
    parsers::LoadLimits limits = {})
{
    return parsers::readMemory(bytes, name, limits, {});
}

bool hasIssue(const model::ImportIssues& issues, const std::string& kind)
{
    return issues.count(kind) > 0;
}

std::string firstSample(const model::ImportIssues& issues, const std::string& kind)
{
    for (const auto& i : issues.list())
        if (i.kind == kind && !i.samples.empty())
            return i.samples.front();
    return {};
}

std::filesystem::path scratchDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() / ("rankscope-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace

TEST_CASE("tar.gz members become sources named archive!member", "[parsers][input]")
{
    const auto bytes = makeArchive({ { "job/rank0.log", kLog, {} }, { "job/rank1.log", kLog, {} } }, "tar", "gzip");
    auto r = readBytes(bytes, "bundle.tgz");
    REQUIRE(r.sources.size() == 2);
    CHECK(r.sources[0].source.path == "bundle.tgz!job/rank0.log");
    CHECK(r.sources[0].source.memberPath == "job/rank0.log");
    CHECK(r.sources[0].source.pathIdentity.globalRank == 0);
    CHECK(r.sources[1].source.pathIdentity.globalRank == 1);
    CHECK(r.sources[0].source.bytes == kLog.size());
    CHECK(r.sources[0].source.lines == 2);
    CHECK(r.sources[0].source.sha256.size() == 64);
    CHECK(r.issues.empty());
}

TEST_CASE("source hashes are the SHA-256 of the content, and skipped when not asked for", "[parsers][input]")
{
    const auto bytes = makeArchive({ { "job/rank0.log", kLog, {} } }, "tar", "gzip");
    auto hashed = readBytes(bytes, "bundle.tgz");
    REQUIRE(hashed.sources.size() == 1);
    CHECK(hashed.sources[0].source.sha256 == parsers::sha256Hex(kLog));

    parsers::ReadControl noHash;
    noHash.hashContent = false;
    for (const auto& input : { bytes, std::string(kLog) }) {
        auto r = parsers::readMemory(input, "bundle.tgz", {}, noHash);
        REQUIRE(r.sources.size() == 1);
        CHECK(r.sources[0].source.sha256.empty());
        // Everything else is read the same.
        CHECK(r.sources[0].source.bytes == kLog.size());
        CHECK(r.sources[0].source.lines == hashed.sources[0].source.lines);
        CHECK(r.sources[0].events.size() == hashed.sources[0].events.size());
    }
}

TEST_CASE("zip and tar.zst bundles and single compressed logs are read in memory", "[parsers][input]")
{
    auto zip = readBytes(makeArchive({ { "rank3.log", kLog, {} } }, "zip", ""), "logs.zip");
    REQUIRE(zip.sources.size() == 1);
    CHECK(zip.sources[0].source.path == "logs.zip!rank3.log");
    auto zst = readBytes(makeArchive({ { "rank4.log", kLog, {} } }, "tar", "zstd"), "logs.tar.zst");
    REQUIRE(zst.sources.size() == 1);
    CHECK(zst.sources[0].source.bytes == kLog.size());
    auto gz = readBytes(testing::compressRaw(kLog, "gzip"), "rank5.log.gz");
    REQUIRE(gz.sources.size() == 1);
    CHECK(gz.sources[0].source.path == "rank5.log");
    CHECK(gz.sources[0].source.pathIdentity.globalRank == 5);
    CHECK(gz.sources[0].source.lines == 2);
    auto single = readBytes(testing::compressRaw(kLog, "zstd"), "rank6.log.zst");
    REQUIRE(single.sources.size() == 1);
    CHECK(single.sources[0].source.bytes == kLog.size());
}

TEST_CASE("hostile archive entries are refused by name with the reason", "[parsers][input][hostile]")
{
    const auto bytes = makeArchive({ { "/etc/passwd", "root:x:0:0\n", {} },
                                       { "../../escape.log", kLog, {} },
                                       { "link", "", "/etc/shadow" },
                                       { "ok/rank0.log", kLog, {} } },
        "tar", "gzip");
    auto r = readBytes(bytes, "evil.tgz");
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources[0].source.path == "evil.tgz!ok/rank0.log");
    CHECK(r.issues.count("hostile_archive_entry") == 3);
    CHECK_THAT(firstSample(r.issues, "hostile_archive_entry"), Catch::Contains("absolute path"));
}

TEST_CASE("a decompression bomb is refused, not expanded", "[parsers][input][hostile]")
{
    const std::string zeros(64 << 20, '\0');
    const auto bytes = makeArchive({ { "bomb.log", zeros, {} } }, "tar", "gzip");
    REQUIRE(bytes.size() < (1 << 20));
    parsers::LoadLimits limits;
    limits.ratioCheckAfterBytes = 4 << 20;
    limits.maxCompressionRatio = 100;
    auto r = readBytes(bytes, "bomb.tgz", limits);
    CHECK(hasIssue(r.issues, "archive_refused"));
    CHECK_THAT(firstSample(r.issues, "archive_refused"), Catch::Contains("decompression bomb"));
}

TEST_CASE("a member over the size limit is skipped with the limit named, the others are read",
    "[parsers][input][hostile]")
{
    for (const char* filter : { "", "gzip" }) {
        const auto bytes = makeArchive(
            { { "rank0.log", kLog, {} }, { "core.bin.log", std::string(3 << 20, 'a'), {} },
                { "rank1.log", kLog, {} } },
            "tar", filter);
        parsers::LoadLimits limits;
        limits.maxEntryBytes = 1 << 20;
        auto r = readBytes(bytes, "job.tar", limits);
        INFO(filter);
        REQUIRE(r.sources.size() == 2);
        CHECK(r.sources[0].source.path == "job.tar!rank0.log");
        CHECK(r.sources[1].source.path == "job.tar!rank1.log");
        CHECK_FALSE(hasIssue(r.issues, "archive_refused"));
        CHECK(r.issues.count("archive_entry_too_large") == 1);
        CHECK_THAT(firstSample(r.issues, "archive_entry_too_large"),
            Catch::Contains("'core.bin.log' declares 3.0 MiB") && Catch::Contains("1.0 MiB limit"));
    }
}

TEST_CASE("members skipped for their size still count towards the archive's expansion",
    "[parsers][input][hostile]")
{
    const auto bytes
        = makeArchive({ { "a.log", std::string(3 << 20, 'a'), {} },
                          { "b.log", std::string(3 << 20, 'b'), {} }, { "rank0.log", kLog, {} } },
            "tar", "");
    parsers::LoadLimits limits;
    limits.maxEntryBytes = 1 << 20;
    limits.maxArchiveBytes = 5 << 20;
    auto r = readBytes(bytes, "job.tar", limits);
    CHECK(r.sources.empty());
    CHECK(r.issues.count("archive_entry_too_large") == 2);
    CHECK_THAT(
        firstSample(r.issues, "archive_refused"), Catch::Contains("expands to more than 5.0 MiB"));
}

TEST_CASE("a truncated archive keeps what was read and says so", "[parsers][input]")
{
    std::string logs;
    for (int i = 0; i < 20000; ++i)
        logs += "node-01:1:1 [0] NCCL INFO line " + std::to_string(i) + " with some padding text\n";
    auto bytes = makeArchive({ { "rank0.log", logs, {} }, { "rank1.log", logs, {} } }, "tar", "gzip");
    bytes.resize(bytes.size() * 3 / 4);
    auto r = readBytes(bytes, "cut.tgz");
    CHECK(hasIssue(r.issues, "archive_truncated"));
    REQUIRE_FALSE(r.sources.empty());
    CHECK(r.sources[0].source.lines > 1000);
}

TEST_CASE("garbage that claims to be gzip does not crash or invent content", "[parsers][input][hostile]")
{
    static const char kJunk[] = "\x1f\x8b\x08\x00garbage garbage garbage";
    const std::string junk(kJunk, sizeof kJunk - 1);
    auto r = readBytes(junk, "junk.gz");
    std::uint64_t bytes = 0;
    for (const auto& s : r.sources)
        bytes += s.source.bytes;
    CHECK(bytes < junk.size());
    for (const auto& s : r.sources)
        CHECK(s.source.recognisedLines == 0);
}

TEST_CASE("a truncated single .gz log keeps its head and is flagged", "[parsers][input]")
{
    std::string logs;
    for (int i = 0; i < 50000; ++i)
        logs += "node-01:1:1 [0] NCCL INFO line " + std::to_string(i) + " with some padding text\n";
    auto bytes = testing::compressRaw(logs, "gzip");
    bytes.resize(bytes.size() / 2);
    auto r = readBytes(bytes, "rank0.log.gz");
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources[0].source.lines > 1000);
    CHECK(r.sources[0].issues.count("truncated_source") == 1);
    CHECK(hasIssue(r.issues, "archive_truncated"));
}

TEST_CASE("nested archives are opened one level deep", "[parsers][input]")
{
    const auto inner = makeArchive({ { "rank2.log", kLog, {} } }, "tar", "gzip");
    const auto outer = makeArchive({ { "node1.tgz", inner, {} }, { "rank0.log", kLog, {} } }, "tar", "");
    auto r = readBytes(outer, "all.tar");
    REQUIRE(r.sources.size() == 2);
    CHECK(r.sources[0].source.path == "all.tar!node1.tgz!rank2.log");
    CHECK(r.sources[0].source.pathIdentity.globalRank == 2);
}

TEST_CASE("a nested archive is judged end to end: output against the bytes on disk",
    "[parsers][input][hostile]")
{
    // An uncompressed tar of 32 MiB of zeros inside a .tar.zst of a few KB: each level alone
    // is harmless (the inner tar expands 1:1), the whole a bomb.
    const auto inner = makeArchive({ { "zeros.log", std::string(32 << 20, '\0'), {} } }, "tar", "");
    const auto outer = makeArchive({ { "inner.tar", inner, {} }, { "rank0.log", kLog, {} } }, "tar", "zstd");
    REQUIRE(outer.size() < (64 << 10));
    parsers::LoadLimits limits;
    limits.ratioCheckAfterBytes = 4 << 20;
    std::uint64_t reported = 0;
    parsers::ReadControl control;
    control.onBytes = [&](std::uint64_t n) { reported += n; };
    auto r = parsers::readMemory(outer, "bomb.tar.zst", limits, control);
    CHECK(hasIssue(r.issues, "archive_refused"));
    CHECK_THAT(firstSample(r.issues, "archive_refused"), Catch::Contains("decompression bomb"));
    // Refused at the first check past 4 MiB, not after expanding it all; progress counts
    // bytes of the file, not of the levels inside it.
    for (const auto& src : r.sources)
        CHECK(src.source.path != "bomb.tar.zst!rank0.log");
    CHECK(reported <= outer.size());
}

TEST_CASE("members of a nested archive count against the size limits like any member",
    "[parsers][input][hostile]")
{
    const auto inner = makeArchive({ { "rank1.log", kLog, {} },
                                       { "core.log", std::string(3 << 20, 'a'), {} },
                                       { "rank2.log", kLog, {} } },
        "tar", "gzip");
    const auto compressedLog = testing::compressRaw(std::string(3 << 20, 'b'), "gzip");
    const auto outer = makeArchive(
        { { "node1.tgz", inner, {} }, { "big.log.gz", compressedLog, {} }, { "rank0.log", kLog, {} } },
        "tar", "gzip");
    parsers::LoadLimits limits;
    limits.maxEntryBytes = 1 << 20;
    auto r = readBytes(outer, "job.tgz", limits);
    std::vector<std::string> read;
    for (const auto& src : r.sources)
        read.push_back(src.source.path);
    // The big member inside the nested archive is skipped by its declared size, the
    // compressed log stopped as it grows past the limit; the rest is read.
    CHECK(std::find(read.begin(), read.end(), "job.tgz!node1.tgz!rank1.log") != read.end());
    CHECK(std::find(read.begin(), read.end(), "job.tgz!node1.tgz!rank2.log") != read.end());
    CHECK(std::find(read.begin(), read.end(), "job.tgz!rank0.log") != read.end());
    CHECK(r.issues.count("archive_entry_too_large") == 1);
    CHECK_THAT(firstSample(r.issues, "archive_refused"), Catch::Contains("limit per file"));

    // And the total: the nested members' output counts towards the archive's.
    parsers::LoadLimits total;
    total.maxArchiveBytes = 2 << 20;
    auto t = readBytes(outer, "job.tgz", total);
    CHECK_THAT(firstSample(t.issues, "archive_refused"), Catch::Contains("expands to more than"));
}

TEST_CASE("binary files and our own outputs are skipped with an issue", "[parsers][input]")
{
    std::string binary(4096, '\0');
    binary[100] = 'x';
    auto b = readBytes(binary, "core.1234");
    REQUIRE(b.sources.size() == 1);
    CHECK(b.sources[0].source.kind == model::SourceKind::Skipped);
    CHECK(b.sources[0].issues.count("binary_skipped") == 1);
    auto own = readBytes("{\n  \"schema\": \"rankscope.diagnosis/1\"\n}\n", "diag.json");
    CHECK(own.sources[0].source.kind == model::SourceKind::Skipped);
    CHECK(own.sources[0].issues.count("own_output_skipped") == 1);
}

TEST_CASE("UTF-16 logs are transcoded", "[parsers][input]")
{
    std::string utf16 = "\xff\xfe";
    for (char c : std::string("line one\nline two\n")) {
        utf16 += c;
        utf16 += '\0';
    }
    auto r = readBytes(utf16, "win.log");
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources[0].source.kind == model::SourceKind::Log);
    CHECK(r.sources[0].source.lines == 2);
    CHECK(r.sources[0].issues.count("utf16_transcoded") == 1);
}

TEST_CASE("missing paths are fatal and named; folders are walked in a stable order", "[parsers][input]")
{
    auto missing = parsers::planInputs({ "/definitely/not/here" });
    REQUIRE_FALSE(missing.ok());
    CHECK_THAT(missing.error().message, Catch::Contains("/definitely/not/here"));

    const auto dir = scratchDir("plan");
    std::filesystem::create_directories(dir / "b");
    std::ofstream(dir / "b" / "rank1.log") << kLog;
    std::ofstream(dir / "rank0.log") << kLog;
    auto plan = parsers::planInputs({ dir.string() });
    REQUIRE(plan.ok());
    REQUIRE(plan->tasks.size() == 2);
    CHECK(plan->tasks[0].displayPath == "rankscope-test-plan/b/rank1.log");
    CHECK(plan->tasks[1].displayPath == "rankscope-test-plan/rank0.log");

    // A trailing slash, a folder reached through "..", and a symlink to the folder are all
    // shown under the name the user gave, not the resolved target.
    auto slash = parsers::planInputs({ dir.string() + "/" });
    REQUIRE(slash.ok());
    CHECK(slash->tasks[1].displayPath == "rankscope-test-plan/rank0.log");
    auto dotted = parsers::planInputs({ (dir / "b" / "..").string() });
    REQUIRE(dotted.ok());
    REQUIRE(dotted->tasks.size() == 2);
    CHECK(dotted->tasks[1].displayPath.ends_with("rank0.log"));
    const auto link = dir.parent_path() / "rankscope-test-plan-link";
    std::filesystem::remove(link);
    std::filesystem::create_directory_symlink(dir, link);
    auto linked = parsers::planInputs({ link.string() });
    REQUIRE(linked.ok());
    REQUIRE(linked->tasks.size() == 2);
    CHECK(linked->tasks[0].displayPath == "rankscope-test-plan-link/b/rank1.log");
    std::filesystem::remove(link);

    const auto empty = scratchDir("empty");
    auto e = parsers::planInputs({ empty.string() });
    REQUIRE(e.ok());
    CHECK(e->issues.count("empty_folder") == 1);
}

TEST_CASE(
    "folder walk: links to files are read; links to folders, dangling links and pipes are not, "
    "and each file not read is named",
    "[parsers][input]")
{
    namespace fs = std::filesystem;
    const auto dir = scratchDir("walk");
    fs::create_directories(dir / "node-1" / "attempt_0" / "3");
    std::ofstream(dir / "node-1" / "attempt_0" / "3" / "stderr.log") << kLog;
    std::ofstream(dir / "top.log") << kLog << kLog;
    fs::create_symlink(dir / "top.log", dir / "node-1" / "linked.log");
    fs::create_directory_symlink(dir / "node-1", dir / "loop");
    fs::create_symlink(dir / "nowhere.log", dir / "dangling.log");
    REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);

    auto plan = parsers::planInputs({ dir.string() });
    REQUIRE(plan.ok());
    std::vector<std::string> shown;
    for (const auto& t : plan->tasks)
        shown.push_back(t.displayPath);
    CHECK(shown
        == std::vector<std::string> { "rankscope-test-walk/node-1/attempt_0/3/stderr.log",
            "rankscope-test-walk/node-1/linked.log", "rankscope-test-walk/top.log" });
    REQUIRE(plan->tasks.size() == 3);
    CHECK(plan->tasks[0].diskPath == (dir / "node-1" / "attempt_0" / "3" / "stderr.log").string());
    CHECK(plan->tasks[1].diskBytes == 2 * kLog.size()); // the link's target's size
    CHECK(plan->totalDiskBytes == 5 * kLog.size());
    // The folder link is walked where it lies (node-1), so only the dangling link and the
    // pipe are inputs not read.
    CHECK(plan->issues.count("dangling_link") == 1);
    CHECK(plan->issues.count("not_regular_file") == 1);
    CHECK(plan->issues.list().size() == 2);

    // Two folders shown under one name: ordered by disk path too, whatever the order given.
    const auto other = scratchDir("walk2") / "rankscope-test-walk";
    fs::create_directories(other);
    std::ofstream(other / "top.log") << kLog;
    auto a = parsers::planInputs({ dir.string(), other.string() });
    auto b = parsers::planInputs({ other.string(), dir.string() });
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(a->tasks.size() == 4);
    REQUIRE(b->tasks.size() == 4);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(a->tasks[i].diskPath == b->tasks[i].diskPath);
}

TEST_CASE("a plain file on disk is read", "[parsers][input]")
{
    const auto dir = scratchDir("plain");
    std::ofstream(dir / "rank7.log") << kLog;
    parsers::InputTask task { (dir / "rank7.log").string(), "rank7.log", kLog.size() };
    std::uint64_t bytes = 0;
    parsers::ReadControl control;
    control.onBytes = [&](std::uint64_t n) { bytes += n; };
    auto r = parsers::readInput(task, {}, control);
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources[0].source.lines == 2);
    CHECK(bytes == kLog.size());
}

TEST_CASE("a file bigger than one read piece is read whole, lines across pieces intact",
    "[parsers][input]")
{
    // 3.5 MiB of NCCL lines: pieces of 1 MiB end mid-line; every line must still be seen once,
    // with the same result as reading the bytes from memory.
    const auto dir = scratchDir("pieces");
    std::string text;
    for (int i = 0; text.size() < (7u << 19); ++i)
        text += "node-01:1234:1234 [0] NCCL INFO AllReduce: opCount " + std::to_string(i)
            + " sendbuff 0x1 recvbuff 0x1 count 10 datatype 7 op 0 root 0 comm 0xfeed "
              "[nranks=4] stream 0x5\n";
    std::ofstream(dir / "rank7.log", std::ios::binary) << text;
    parsers::InputTask task { (dir / "rank7.log").string(), "rank7.log", text.size() };
    std::uint64_t bytes = 0;
    parsers::ReadControl control;
    control.onBytes = [&](std::uint64_t n) { bytes += n; };
    auto fromDisk = parsers::readInput(task, {}, control);
    auto fromMemory = parsers::readMemory(text, "rank7.log", {}, {});
    REQUIRE(fromDisk.sources.size() == 1);
    const auto& s = fromDisk.sources[0];
    CHECK(bytes == text.size());
    CHECK(s.source.bytes == text.size());
    CHECK(s.source.lines == fromMemory.sources[0].source.lines);
    CHECK(s.source.sha256 == parsers::sha256Hex(text));
    REQUIRE(s.collTraces.size() == 1);
    CHECK(s.collTraces[0].calls == fromMemory.sources[0].collTraces[0].calls);
    CHECK(s.collTraces[0].tail.back().evidence.offset
        == fromMemory.sources[0].collTraces[0].tail.back().evidence.offset);
    CHECK(fromDisk.issues.empty());
}

TEST_CASE("Flight Recorder dumps read from disk in one piece match the streamed read",
    "[parsers][input]")
{
    // A file that fits one read piece is parsed where it lies (finishWhole); the in-memory
    // reader streams it through feed(). Both must give the same source, pickle and JSON.
    for (const char* name : { "fr/job4/nccl_trace_rank_1", "fr/json/nccl_trace_rank_0.json" }) {
        const std::string path = std::string(RANKSCOPE_TEST_DATA) + "/" + name;
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        REQUIRE(!bytes.empty());
        auto disk = parsers::readInput({ path, name, bytes.size() }, {}, {});
        auto memory = parsers::readMemory(bytes, name, {}, {});
        REQUIRE(disk.sources.size() == 1);
        REQUIRE(memory.sources.size() == 1);
        const auto& d = disk.sources[0];
        const auto& m = memory.sources[0];
        CHECK(d.source.kind == m.source.kind);
        CHECK(d.source.bytes == bytes.size());
        CHECK(d.source.sha256 == parsers::sha256Hex(bytes));
        CHECK(d.frDumps.size() == 1);
        CHECK(d.frEntries.size() == m.frEntries.size());
        CHECK(d.frEntries.size() > 0);
        CHECK(d.issues.list().size() == m.issues.list().size());
    }
}

TEST_CASE("sources can be reopened after loading: plain, archive member, nested member", "[parsers][input]")
{
    const auto dir = scratchDir("reopen");
    std::ofstream(dir / "rank0.log") << kLog;
    const auto inner = makeArchive({ { "rank2.log", kLog + "nested\n", {} } }, "tar", "gzip");
    const auto outer = makeArchive({ { "node1.tgz", inner, {} }, { "logs/rank1.log", kLog + "member\n", {} } }, "tar", "gzip");
    std::ofstream(dir / "bundle.tgz", std::ios::binary) << outer;

    auto plain = parsers::readInput({ (dir / "rank0.log").string(), "rank0.log", kLog.size() }, {}, {});
    auto archived = parsers::readInput({ (dir / "bundle.tgz").string(), "bundle.tgz", outer.size() }, {}, {});
    REQUIRE(plain.sources.size() == 1);
    REQUIRE(archived.sources.size() == 2);
    auto p = parsers::openSourceContent(plain.sources[0].source, {});
    REQUIRE(p.ok());
    CHECK(p.value()->bytes() == kLog);
    for (const auto& s : archived.sources) {
        auto c = parsers::openSourceContent(s.source, {});
        REQUIRE(c.ok());
        CHECK(c.value()->bytes().size() == s.source.bytes);
        if (s.source.path == "bundle.tgz!node1.tgz!rank2.log")
            CHECK(c.value()->bytes() == kLog + "nested\n");
        else
            CHECK(c.value()->bytes() == kLog + "member\n");
    }
}

TEST_CASE("a log with a stray NUL byte (PyTorch's raw CUDA device byte) is still a log", "[parsers][input]")
{
    std::string log;
    for (int i = 0; i < 40; ++i)
        log += "[rank0]:[I0716 05:40:13.497563271 ProcessGroupNCCL.cpp:1193] [PG 0 (default_pg) Rank 0] some info line\n";
    log += std::string("[rank0]:[I0716 05:40:13.5 ProcessGroupNCCL.cpp:2188] [PG 0 (default_pg) Rank 0] ProcessGroupNCCL created ncclComm_ 0x55 on CUDA device: ") + '\0' + "\n";
    auto r = readBytes(log, "rank0.log");
    REQUIRE(r.sources.size() == 1);
    CHECK(r.sources[0].source.kind == model::SourceKind::Log);
    CHECK(r.sources[0].source.lines == 41);
}

TEST_CASE(
    "sinks receive each archive member as it is read, numbered, with the disk bytes read so far",
    "[parsers][input]")
{
    const auto dir = scratchDir("sink");
    std::vector<testing::ArchiveEntrySpec> members;
    for (int r = 0; r < 6; ++r)
        members.push_back(
            { "rank" + std::to_string(r) + ".log", kLog + std::string(200000, 'x') + "\n", {} });
    const std::string bytes = makeArchive(members, "tar", "gzip");
    std::ofstream(dir / "node0.tar.gz", std::ios::binary) << bytes;
    parsers::InputTask t;
    t.diskPath = (dir / "node0.tar.gz").string();
    t.displayPath = "node0.tar.gz";
    t.diskBytes = bytes.size();

    std::vector<std::string> paths;
    std::vector<std::uint64_t> read;
    std::vector<std::uint32_t> seqs;
    parsers::ReadBuffer buffer;
    parsers::SourceSinks sinks;
    sinks.parsed = [&](std::uint32_t seq, model::ParsedSource&& s, std::uint64_t diskBytesRead) {
        seqs.push_back(seq);
        paths.push_back(s.source.path);
        read.push_back(diskBytesRead);
    };
    const auto r = parsers::readInput(t, {}, {}, buffer, &sinks);
    CHECK(r.sources.empty());
    CHECK(r.delivered == 6);
    REQUIRE(paths.size() == 6);
    for (std::uint32_t i = 0; i < 6; ++i) {
        CHECK(seqs[i] == i);
        CHECK(paths[i] == "node0.tar.gz!rank" + std::to_string(i) + ".log");
    }
    CHECK(std::is_sorted(read.begin(), read.end()));
    CHECK(read.back() <= bytes.size());

    // A plain file: one source, all of it read.
    std::ofstream(dir / "rank9.log", std::ios::binary) << kLog;
    t.diskPath = (dir / "rank9.log").string();
    t.displayPath = "rank9.log";
    t.diskBytes = kLog.size();
    paths.clear();
    read.clear();
    CHECK(parsers::readInput(t, {}, {}, buffer, &sinks).delivered == 1);
    REQUIRE(paths == std::vector<std::string> { "rank9.log" });
    CHECK(read.front() == kLog.size());
    std::filesystem::remove_all(dir);
}

namespace {

// What a source says about itself, for comparing two ways of reading it.
std::string describeSource(const model::ParsedSource& s)
{
    std::string out = s.source.path + " member=" + s.source.memberPath
        + " kind=" + std::to_string(static_cast<int>(s.source.kind))
        + " bytes=" + std::to_string(s.source.bytes) + " lines=" + std::to_string(s.source.lines)
        + "/" + std::to_string(s.source.recognisedLines) + " sha=" + s.source.sha256
        + " events=" + std::to_string(s.events.size()) + " fr=" + std::to_string(s.frEntries.size())
        + " issues=" + std::to_string(s.issues.total());
    for (const auto& e : s.events)
        out += " " + std::to_string(static_cast<int>(e.kind)) + ":" + std::string(s.text(e.text));
    for (const auto& i : s.issues.list())
        out += " [" + i.kind + "]";
    return out;
}

} // namespace

TEST_CASE(
    "members handed over unparsed parse to what reading them in place gives", "[parsers][input]")
{
    const auto dir = scratchDir("unparsed");
    std::ifstream in(
        std::string(RANKSCOPE_TEST_DATA) + "/fr/job4/nccl_trace_rank_1", std::ios::binary);
    const std::string dump((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!dump.empty());
    std::vector<testing::ArchiveEntrySpec> members {
        { "logs/rank0.log", kLog, {} },
        { "fr/nccl_trace_rank_1", dump, {} },
        { "empty.log", "", {} },
        { "big.log", kLog + std::string(parsers::kUnparsedMemberBytes, 'y') + "\n",
            {} }, // read in place
        { "error.json",
            R"({"message": {"message": "RuntimeError: boom", "extraInfo": {}}, "timestamp": "1700000000"})",
            {} },
        { "utf16.log", std::string("\xff\xfe") + "a\0b\0\n\0", {} },
    };
    const auto inner = makeArchive({ { "rank2.log", kLog, {} } }, "tar", "gzip");
    members.push_back({ "node1.tgz", inner, {} });
    for (const char* filter : { "gzip", "" }) {
        INFO("filter " << filter);
        const std::string bytes = makeArchive(members, "tar", filter);
        std::ofstream(dir / "bundle.tar", std::ios::binary) << bytes;
        parsers::InputTask t;
        t.diskPath = (dir / "bundle.tar").string();
        t.displayPath = "bundle.tar";
        t.diskBytes = bytes.size();
        parsers::ReadBuffer buffer;

        std::vector<std::string> inPlace;
        for (const auto& s : parsers::readInput(t, {}, {}, buffer).sources)
            inPlace.push_back(describeSource(s));

        std::map<std::uint32_t, std::string> handed;
        std::uint32_t unparsedCount = 0;
        parsers::SourceSinks sinks;
        sinks.parsed = [&](std::uint32_t seq, model::ParsedSource&& s, std::uint64_t) {
            handed[seq] = describeSource(s);
        };
        parsers::SourceScratch other; // another thread's buffers
        sinks.unparsed = [&](std::uint32_t seq, parsers::UnparsedMember&& m, std::uint64_t) {
            ++unparsedCount;
            handed[seq] = describeSource(parsers::parseMember(std::move(m), {}, {}, other));
        };
        const auto r = parsers::readInput(t, {}, {}, buffer, &sinks);
        CHECK(unparsedCount == 6); // all but the big log (the nested archive's one member too)
        REQUIRE(r.delivered == inPlace.size());
        REQUIRE(handed.size() == inPlace.size());
        std::uint32_t seq = 0;
        for (const auto& [k, text] : handed) {
            CHECK(k == seq);
            CHECK(text == inPlace[seq]);
            ++seq;
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("a big plain file's hash offered to another thread is the same digest, and the same source",
    "[parsers][input][hash]")
{
    const auto dir = scratchDir("hash-offload");
    // More than the offload threshold (16 MiB), in many read pieces.
    std::string bytes;
    for (int i = 0; bytes.size() < (17u << 20); ++i)
        bytes += "gpu-node-3:4242:4242 [" + std::to_string(i % 8) + "] NCCL INFO AllReduce: opCount "
            + std::to_string(i) + " sendbuff 0x7f0000 recvbuff 0x7f0000 count 1024 datatype 7 op 0 root 0 comm 0x5000 [nranks=8] stream 0x9\n";
    std::ofstream(dir / "rank3.log", std::ios::binary) << bytes;
    parsers::InputTask t;
    t.kind = parsers::InputKind::File;
    t.diskPath = (dir / "rank3.log").string();
    t.displayPath = "rank3.log";
    t.diskBytes = bytes.size();

    auto readWith = [&](const parsers::ReadControl& control) {
        auto r = parsers::readInput(t, {}, control);
        REQUIRE(r.sources.size() == 1);
        return std::move(r.sources.front());
    };
    const model::ParsedSource inline_ = readWith({});
    CHECK(inline_.source.sha256 == parsers::sha256Hex(bytes));

    SECTION("taken by a helper thread")
    {
        std::vector<std::thread> helpers;
        int offered = 0;
        parsers::ReadControl control;
        control.offloadHash = [&](const std::shared_ptr<parsers::FileHashJob>& job) {
            ++offered;
            helpers.emplace_back([job] { job->run(); });
            return true;
        };
        const model::ParsedSource offloaded = readWith(control);
        for (auto& h : helpers)
            h.join();
        CHECK(offered == 1);
        CHECK(describeSource(offloaded) == describeSource(inline_));
    }
    SECTION("queued but never taken: the reader runs it itself")
    {
        std::shared_ptr<parsers::FileHashJob> kept;
        parsers::ReadControl control;
        control.offloadHash = [&](const std::shared_ptr<parsers::FileHashJob>& job) {
            kept = job;
            return true;
        };
        CHECK(describeSource(readWith(control)) == describeSource(inline_));
        REQUIRE(kept);
        kept->run(); // a thread that takes it late finds it done
    }
    SECTION("refused: hashed inline")
    {
        parsers::ReadControl control;
        control.offloadHash = [](const std::shared_ptr<parsers::FileHashJob>&) { return false; };
        CHECK(describeSource(readWith(control)) == describeSource(inline_));
    }
    SECTION("not asked for: no hash, and nothing offered")
    {
        parsers::ReadControl control;
        control.hashContent = false;
        control.offloadHash = [](const std::shared_ptr<parsers::FileHashJob>&) {
            FAIL("offered a hash nobody asked for");
            return false;
        };
        CHECK(readWith(control).source.sha256.empty());
    }
    std::filesystem::remove_all(dir);
}
