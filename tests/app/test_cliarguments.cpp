// rankscope-cli's command line (app/cli/cliarguments.cpp): what is accepted, what is a usage
// error (exit status 2, one line), and `--` ending the options.

#include "app/cli/cliarguments.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rankscope;

namespace {

app::CliParseResult parse(std::vector<std::string> args)
{
    return app::parseCliArguments(args);
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
    const auto r = parse({ "diagnose", "--format", "json", "--", "-odd-name.log", "--threads", "--" });
    REQUIRE(r.arguments);
    CHECK(r.arguments->format == "json");
    CHECK(r.arguments->threads == 0);
    CHECK(r.arguments->paths == std::vector<std::string> { "-odd-name.log", "--threads", "--" });
    CHECK_FALSE(parse({ "summary", "--" }).arguments); // still needs a path
}
