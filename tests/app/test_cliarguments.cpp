// rankscope-cli's command line (app/cli/cliarguments.cpp): what is accepted, what is a usage
// error (exit status 2, one line), and `--` ending the options; and how it writes -o FILE
// (app/cli/outputfile.cpp).

#include "app/cli/cliarguments.h"
#include "app/cli/outputfile.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace rankscope;

namespace {

app::CliParseResult parse(std::vector<std::string> args)
{
    return app::parseCliArguments(args);
}

std::filesystem::path scratchDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() / ("rankscope-cli-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

} // namespace

TEST_CASE("a number option followed by anything but digits is a usage error", "[cli]")
{
    for (const char* value : { "3abc", "3 ", "0x4", "", "-1", "1025" }) {
        const auto r = parse({ "summary", "logs", "--threads", value });
        INFO(value);
        CHECK_FALSE(r.arguments);
        CHECK_THAT(r.error, Catch::Contains("--threads"));
    }
    CHECK_FALSE(parse({ "summary", "logs", "--max-ratio", "50x" }).arguments);
    const auto ok = parse({ "summary", "logs", "--threads", "3" });
    REQUIRE(ok.arguments);
    CHECK(ok.arguments->threads == 3);
}

TEST_CASE("arguments after -- are paths even when they look like options", "[cli]")
{
    const auto r
        = parse({ "diagnose", "--format", "json", "--", "-odd-name.log", "--threads", "--" });
    REQUIRE(r.arguments);
    CHECK(r.arguments->format == "json");
    CHECK(r.arguments->threads == 0);
    CHECK(r.arguments->paths == std::vector<std::string> { "-odd-name.log", "--threads", "--" });
    CHECK_FALSE(parse({ "summary", "--" }).arguments); // still needs a path
}

TEST_CASE("an output (-o) naming one of the inputs, however spelled, is a usage error", "[cli]")
{
    const auto dir = scratchDir("same-file");
    const std::string input = (dir / "x.tar.gz").string();
    std::ofstream(input) << "logs";
    std::filesystem::create_directories(dir / "sub");
    for (const std::string& output :
        { input, (dir / "." / "x.tar.gz").string(), (dir / "sub" / ".." / "x.tar.gz").string() }) {
        INFO(output);
        const auto r = parse({ "report", input, "-o", output, "--format", "html" });
        CHECK_FALSE(r.arguments);
        CHECK_THAT(r.error, Catch::Contains("is one of the inputs"));
    }
    CHECK(parse({ "report", input, "-o", (dir / "x.html").string() }).arguments);
    CHECK(readFile(input) == "logs");
    std::filesystem::remove_all(dir);
}

TEST_CASE("the output file is replaced whole, keeping its mode, with no temporary left", "[cli]")
{
    const auto dir = scratchDir("atomic");
    const auto report = dir / "report.md";
    std::ofstream(report) << "old report";
    REQUIRE(chmod(report.c_str(), 0640) == 0);

    CHECK(app::writeFileAtomically(report.string(), "new report\n").empty());

    CHECK(readFile(report) == "new report\n");
    struct stat st { };
    REQUIRE(stat(report.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);
    CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);

    // A folder that is not there: an error naming the file, and nothing written anywhere.
    const std::string error = app::writeFileAtomically((dir / "missing" / "r.md").string(), "x");
    CHECK_THAT(error, Catch::Contains("r.md"));
    CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);
    std::filesystem::remove_all(dir);
}

TEST_CASE("why takes exactly one question: --rank, --pair or --collective", "[cli]")
{
    const auto pair = parse({ "why", "logs", "--pair", "3,4" });
    REQUIRE(pair.arguments);
    CHECK(pair.arguments->pair == "3,4");
    CHECK(parse({ "why", "logs", "--rank", "3" }).arguments);
    CHECK(parse({ "why", "logs", "--collective", "0:117" }).arguments);
    CHECK_THAT(parse({ "why", "logs" }).error, Catch::Contains("--pair A,B"));
    CHECK_THAT(parse({ "why", "logs", "--rank", "3", "--pair", "3,4" }).error, Catch::Contains("one question"));
    CHECK_THAT(parse({ "diagnose", "logs", "--pair", "3,4" }).error, Catch::Contains("options of why"));
    CHECK_THAT(parse({ "why", "logs", "--pair" }).error, Catch::Contains("--pair needs two ranks"));
}

TEST_CASE("report takes --appendix for its full tables and other commands refuse it", "[cli]")
{
    const auto report = parse({ "report", "logs", "-o", "r.html", "--appendix" });
    REQUIRE(report.arguments);
    CHECK(report.arguments->appendix);
    const auto compact = parse({ "report", "logs", "-o", "r.html" });
    REQUIRE(compact.arguments);
    CHECK_FALSE(compact.arguments->appendix);
    CHECK_THAT(
        parse({ "diagnose", "logs", "--appendix" }).error, Catch::Contains("option of report"));
}
