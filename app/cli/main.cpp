// rankscope-cli: the headless entry point (cluster login nodes, scripts, CI). Builds and
// runs without Qt.

#include "app/about/helptext.h"
#include "app/about/version.h"
#include "app/cli/cliarguments.h"
#include "app/cli/outputfile.h"
#include "app/core/anonymizer.h"
#include "app/core/bundleloader.h"
#include "app/core/diagnosisgnu.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"
#include "app/core/diagnosissarif.h"
#include "app/core/diagnosistext.h"
#include "app/core/explainline.h"
#include "app/core/jsonexport.h"
#include "app/core/reportdata.h"
#include "app/core/reportwriter.h"
#include "app/core/sanitizetext.h"
#include "app/core/summarytext.h"
#include "app/core/whyrank.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>
#include <sstream>

#include <unistd.h>

using namespace rankscope;

namespace {

int fail(const std::string& message)
{
    // Errors can quote what was seen in the inputs (file names, import issue samples).
    std::cerr << "rankscope-cli: " << app::sanitizeText(message) << "\n";
    return 2;
}

bool writeOutput(const app::CliArguments& args, const std::string& text, std::string& error)
{
    if (args.output.empty()) {
        std::cout << text;
        std::cout.flush();
        return true;
    }
    error = app::writeFileAtomically(args.output, text);
    return error.empty();
}

// The report format: --format when given, else the output file's extension.
std::optional<app::ReportFormat> reportFormat(const app::CliArguments& args, std::string& error)
{
    if (!args.format.empty()) {
        auto format = app::reportFormatFromName(args.format);
        if (!format)
            error = "report format '" + args.format + "' is not available (html, md or json)";
        return format;
    }
    auto format = app::reportFormatFromPath(args.output);
    if (!format)
        error = "cannot tell the report format from '" + args.output
            + "': name it .html, .md or .json, or pass --format html|md|json";
    return format;
}

std::string utcNow()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm {};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

// `explain TEXT...`: the catalogue's entries for a pasted line; nothing is loaded.
int explainCommand(const app::CliArguments& args)
{
    const parsers::ErrorCatalogue* catalogue = app::builtInErrorCatalogue();
    if (!catalogue)
        return fail("the built-in error catalogue is broken; this build is faulty");
    std::string text;
    if (args.list) {
        text = app::catalogueListText(*catalogue);
    } else {
        std::string query;
        if (args.paths.size() == 1 && args.paths.front() == parsers::kStandardInputArgument) {
            if (::isatty(STDIN_FILENO))
                std::cerr << "rankscope-cli: paste the line(s), then press Ctrl-D\n";
            std::ostringstream in;
            in << std::cin.rdbuf();
            query = in.str();
        } else {
            for (const auto& word : args.paths)
                query += (query.empty() ? "" : " ") + word;
        }
        const app::Explanation x = app::explain(*catalogue, query);
        text = args.format == "json" ? app::dumpJson(app::explanationJson(x)) + "\n" : app::explanationText(x);
    }
    std::string error;
    if (!writeOutput(args, text, error))
        return fail(error);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> raw(argv + 1, argv + argc);
    const app::CliParseResult parsed = app::parseCliArguments(raw);
    if (!parsed.arguments)
        return fail(parsed.error);
    const app::CliArguments& args = *parsed.arguments;
    if (args.command == "help") {
        std::cout << about::cliHelpText(about::cliProgram());
        return 0;
    }
    if (args.command == "version") {
        std::cout << about::versionLine("rankscope-cli") << "\n";
        return 0;
    }

    if (args.command == "explain")
        return explainCommand(args);

    std::optional<app::ReportFormat> format;
    if (args.command == "report") {
        std::string error;
        format = reportFormat(args, error);
        if (!format)
            return fail(error); // before loading: a typo should not cost a 10-minute parse
    }

    // `diagnose -` typed at a terminal waits for the paste; say so rather than seem to hang.
    if (std::find(args.paths.begin(), args.paths.end(), parsers::kStandardInputArgument)
            != args.paths.end()
        && ::isatty(STDIN_FILENO))
        std::cerr << "rankscope-cli: reading the log from standard input; paste it, then "
                     "press Ctrl-D\n";

    app::LoadRequest request;
    request.paths = args.paths;
    request.limits = args.limits;
    request.threads = args.threads;
    // Only the plain-text summary and diagnosis and the GNU error lines leave out the inputs'
    // SHA-256.
    request.hashInputs = args.command == "report"
        || (!args.format.empty() && args.format != "text" && args.format != "gnu");
    auto loaded = app::loadBundle(request);
    if (!loaded)
        return fail(loaded.error().message);
    const model::Bundle& bundle = *loaded.value();

    std::string text;
    if (args.command == "summary") {
        text = args.format == "json" ? app::dumpJson(app::summaryJson(bundle)) + "\n" : app::summaryText(bundle);
    } else if (args.command == "diagnose") {
        auto diagnosis = app::diagnoseBundle(bundle, args.threads);
        if (!diagnosis)
            return fail(diagnosis.error().message);
        if (args.format == "json")
            text = app::dumpJson(app::diagnosisJson(bundle, diagnosis.value())) + "\n";
        else if (args.format == "sarif")
            text = app::dumpJson(app::diagnosisSarif(bundle, diagnosis.value())) + "\n";
        else if (args.format == "gnu")
            text = app::diagnosisGnu(bundle, diagnosis.value());
        else if (args.format == "md")
            text = app::diagnosisMarkdown(bundle, diagnosis.value());
        else
            text = app::diagnosisText(bundle, diagnosis.value());
    } else if (args.command == "report") {
        auto diagnosis = app::diagnoseBundle(bundle, args.threads);
        if (!diagnosis)
            return fail(diagnosis.error().message);
        app::ReportOptions options;
        options.inputPaths = args.paths;
        options.anonymize = args.anonymize;
        options.appendix = args.appendix;
        options.generatedAt = utcNow();
        text = app::renderReport(app::buildReportData(bundle, diagnosis.value(), options), *format);
    } else if (args.command == "why") {
        auto diagnosis = app::diagnoseBundle(bundle, args.threads);
        if (!diagnosis)
            return fail(diagnosis.error().message);
        if (args.rank) {
            text = app::whyRankText(bundle, diagnosis.value(), *args.rank);
        } else if (!args.pair.empty()) {
            const auto pair = app::parseRankPair(args.pair);
            if (!pair)
                return fail("--pair needs two different ranks, such as 3,4, not '" + args.pair + "'");
            text = app::whyPairText(bundle, diagnosis.value(), pair->first, pair->second);
        } else {
            const auto collective = app::parseCollectiveRef(args.collective);
            if (!collective)
                return fail("--collective needs PG:SEQ (such as 0:117) or SEQ, not '" + args.collective + "'");
            text = app::whoReachedText(bundle, *collective);
        }
    } else {
        return fail("'" + args.command + "' is not available yet in this build");
    }
    if (args.anonymize && args.command != "report") {
        // The report anonymises its content itself; here the finished text is rewritten
        // (pseudonyms are plain words, so JSON stays valid).
        app::Anonymizer anonymizer(bundle);
        anonymizer.learn(text);
        text = anonymizer.apply(text);
    }
    std::string error;
    if (!writeOutput(args, text, error))
        return fail(error);
    return 0;
}
