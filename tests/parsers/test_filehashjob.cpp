// The hash of a big file computed by another thread (parsers/filehashjob.h): the same digest
// as hashing the bytes inline, whoever runs it, and no digest for bytes the file no longer has.

#include "parsers/filehashjob.h"
#include "parsers/sha256.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

using rankscope::parsers::FileHashJob;
using rankscope::parsers::sha256Hex;

namespace {

struct ScratchFile {
    std::filesystem::path path;
    explicit ScratchFile(const std::string& bytes)
        : path(std::filesystem::temp_directory_path()
            / ("rankscope-hashjob-" + std::to_string(::getpid()) + "-" + std::to_string(bytes.size())))
    {
        std::ofstream(path, std::ios::binary) << bytes;
    }
    ~ScratchFile() { std::filesystem::remove(path); }
};

std::string someBytes(std::size_t n)
{
    std::string s(n, '\0');
    for (std::size_t i = 0; i < n; ++i)
        s[i] = static_cast<char>("rank 3 NCCL INFO\n"[i % 17] ^ (i >> 20));
    return s;
}

} // namespace

TEST_CASE("a file hash job gives the digest of the file's bytes, on any thread", "[parsers][input][hash]")
{
    const std::string bytes = someBytes((3u << 20) + 12345); // more than one read of the job
    const ScratchFile file(bytes);
    const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);

    SECTION("run by nobody else: wait() runs it")
    {
        FileHashJob job(fd, bytes.size());
        REQUIRE(job.valid());
        CHECK(job.wait() == sha256Hex(bytes));
    }
    SECTION("run by another thread while the reader reads the same descriptor")
    {
        auto job = std::make_shared<FileHashJob>(fd, bytes.size());
        std::thread helper([job] { job->run(); });
        // The reader's own reads move the shared offset; the job's pread() does not care.
        char buffer[4096];
        while (::read(fd, buffer, sizeof buffer) > 0) {
        }
        CHECK(job->wait() == sha256Hex(bytes));
        helper.join();
        job->run(); // done already: nothing happens
        CHECK(job->wait() == sha256Hex(bytes));
    }
    SECTION("the job keeps its own descriptor when the reader closes its own")
    {
        auto job = std::make_shared<FileHashJob>(fd, bytes.size());
        ::close(::dup(fd)); // unrelated descriptors come and go
        const int again = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
        REQUIRE(again >= 0);
        FileHashJob second(again, 100);
        ::close(again);
        CHECK(second.wait() == sha256Hex(std::string_view(bytes).substr(0, 100)));
        CHECK(job->wait() == sha256Hex(bytes));
    }
    SECTION("a file shorter than announced (it shrank while read) gives no digest")
    {
        FileHashJob job(fd, bytes.size() + 1);
        CHECK_FALSE(job.wait().has_value());
    }
    SECTION("a cancelled load gives no digest")
    {
        const std::atomic<bool> cancel { true };
        FileHashJob job(fd, bytes.size(), &cancel);
        CHECK_FALSE(job.wait().has_value());
    }
    ::close(fd);
}

TEST_CASE("a file hash job on a bad descriptor is not valid", "[parsers][input][hash]")
{
    FileHashJob job(-1, 10);
    CHECK_FALSE(job.valid());
    CHECK_FALSE(job.wait().has_value());
}
