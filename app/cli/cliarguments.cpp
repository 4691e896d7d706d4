#include "app/cli/cliarguments.h"

#include "app/about/commandline.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace rankscope::app {

namespace {

// A whole argument as a number: "3abc" or "3 " is no number (std::from_chars alone stops at
// the first non-digit and says nothing).
std::optional<unsigned> parseCount(const std::string& text)
{
    unsigned value = 0;
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), last, value);
    if (ec != std::errc() || ptr != last || text.empty())
        return std::nullopt;
    return value;
}

// "512M", "2G", "100000" → bytes.
std::optional<std::uint64_t> parseSize(const std::string& text)
{
    std::uint64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr == first)
        return std::nullopt;
    std::string unit(ptr, last);
    std::uint64_t mult = 1;
    if (unit == "K" || unit == "k" || unit == "KiB")
        mult = 1ull << 10;
    else if (unit == "M" || unit == "MiB")
        mult = 1ull << 20;
    else if (unit == "G" || unit == "GiB")
        mult = 1ull << 30;
    else if (unit == "T" || unit == "TiB")
        mult = 1ull << 40;
    else if (!unit.empty())
        return std::nullopt;
    if (value > (~0ull) / mult)
        return std::nullopt;
    return value * mult;
}

// Whether two arguments name the same file: the same inode (through links, "./" or ".."),
// or the same words once normalised when neither exists yet.
bool sameFile(const std::string& x, const std::string& y)
{
    std::error_code ec;
    if (std::filesystem::equivalent(x, y, ec))
        return true;
    return std::filesystem::path(x).lexically_normal()
        == std::filesystem::path(y).lexically_normal();
}

} // namespace

CliParseResult parseCliArguments(const std::vector<std::string>& args)
{
    CliArguments a;
    if (args.empty())
        return { std::nullopt, "missing command (summary, diagnose, report, why or explain); see --help" };
    std::size_t i = 0;
    const std::string& first = args[0];
    if (first == "-h" || first == "--help" || first == "help") {
        a.command = "help";
        return { a, {} };
    }
    if (first == "--version" || first == "version") {
        a.command = "version";
        return { a, {} };
    }
    const about::CommandSpec* command = about::findCommand(about::cliProgram(), first);
    if (!command)
        return { std::nullopt, "unknown command '" + first + "' (expected summary, diagnose, report, why or explain)" };
    a.command = first;
    ++i;
    auto needValue = [&](const std::string& opt) -> std::optional<std::string> {
        if (i + 1 >= args.size())
            return std::nullopt;
        (void)opt;
        return args[++i];
    };
    bool optionsEnded = false;
    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (optionsEnded) {
            a.paths.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true; // a log folder named "-o" or "--threads" can still be read
            continue;
        }
        if (arg == "-h" || arg == "--help") {
            a.command = "help";
            return { a, {} };
        }
        if (arg == "--format" || arg == "-f") {
            auto v = needValue(arg);
            if (!v) {
                std::string formats;
                for (std::string_view f : about::allFormats(about::cliProgram()))
                    formats += (formats.empty() ? "" : ", ") + std::string(f);
                return { std::nullopt, "--format needs a value (" + formats + ")" };
            }
            a.format = *v;
        } else if (arg == "-o" || arg == "--output") {
            auto v = needValue(arg);
            if (!v)
                return { std::nullopt, "-o needs a file name" };
            a.output = *v;
        } else if (arg == "--rank") {
            auto v = needValue(arg);
            auto n = v ? parseCount(*v) : std::nullopt;
            if (!n || *n > 0x7fffffffu)
                return { std::nullopt, "--rank needs a global rank (0, 1, ...)" };
            a.rank = static_cast<std::int32_t>(*n);
        } else if (arg == "--collective") {
            auto v = needValue(arg);
            if (!v || v->empty())
                return { std::nullopt, "--collective needs PG:SEQ, such as 0:117" };
            a.collective = *v;
        } else if (arg == "--pair") {
            auto v = needValue(arg);
            if (!v || v->empty())
                return { std::nullopt, "--pair needs two ranks, such as 3,4" };
            a.pair = *v;
        } else if (arg == "--list") {
            a.list = true;
        } else if (arg == "--anonymize" || arg == "--anonymise") {
            a.anonymize = true;
        } else if (arg == "--appendix") {
            a.appendix = true;
        } else if (arg == "--threads") {
            auto v = needValue(arg);
            auto n = v ? parseCount(*v) : std::nullopt;
            if (!n || *n == 0 || *n > 1024)
                return { std::nullopt, "--threads needs a number between 1 and 1024" };
            a.threads = *n;
        } else if (arg == "--max-entry-size" || arg == "--max-archive-size") {
            auto v = needValue(arg);
            auto size = v ? parseSize(*v) : std::nullopt;
            if (!size || *size == 0)
                return { std::nullopt, arg + " needs a size such as 512M or 64G" };
            (arg == "--max-entry-size" ? a.limits.maxEntryBytes : a.limits.maxArchiveBytes) = *size;
        } else if (arg == "--max-ratio") {
            auto v = needValue(arg);
            auto n = v ? parseCount(*v) : std::nullopt;
            if (!n || *n < 2)
                return { std::nullopt, "--max-ratio needs a number of at least 2" };
            a.limits.maxCompressionRatio = *n;
        } else if (arg.size() > 1 && arg[0] == '-' ) {
            return { std::nullopt, "unknown option '" + arg + "'; see --help" };
        } else {
            a.paths.push_back(arg);
        }
    }
    if (a.command == "explain") {
        if (a.paths.empty() && !a.list)
            return { std::nullopt, "explain needs TEXT (a log line, an entry's id or words) or --list" };
    } else if (a.list) {
        return { std::nullopt, "--list is an option of explain" };
    } else if (a.command == "why" && (a.rank.has_value() ? 1 : 0) + (a.collective.empty() ? 0 : 1) + (a.pair.empty() ? 0 : 1) != 1) {
        return { std::nullopt, "why needs one question: --rank N, --pair A,B or --collective PG:SEQ" };
    } else if (a.command != "why" && (a.rank || !a.collective.empty() || !a.pair.empty())) {
        return { std::nullopt, "--rank, --pair and --collective are options of why" };
    } else if (a.appendix && a.command != "report") {
        return { std::nullopt, "--appendix is an option of report" };
    } else if (a.paths.empty()) {
        return { std::nullopt, a.command + " needs at least one PATH (a log folder, files or archives)" };
    }
    const bool isReport = a.command == "report";
    if (!a.format.empty()
        && std::find(command->formats.begin(), command->formats.end(), a.format)
            == command->formats.end())
        return { std::nullopt, "format '" + a.format + "' is not available for " + a.command };
    if (isReport && a.output.empty())
        return { std::nullopt, "report needs -o FILE (.html, .md or .json)" };
    // `report x.tar.gz -o x.tar.gz` would replace the logs with the report.
    for (const auto& path : a.paths)
        if (!a.output.empty() && a.command != "explain" && sameFile(a.output, path))
            return { std::nullopt,
                "-o '" + a.output + "' is one of the inputs; write the output elsewhere" };
    return { a, {} };
}

} // namespace rankscope::app
