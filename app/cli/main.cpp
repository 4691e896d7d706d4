// rankscope-cli: the headless entry point (cluster login nodes, scripts, CI). Builds and
// runs without Qt.

#include "app/cli/cliarguments.h"
#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"
#include "app/core/diagnosistext.h"
#include "app/core/jsonexport.h"
#include "app/core/summarytext.h"

#include <fstream>
#include <iostream>

using namespace rankscope;

namespace {

int fail(const std::string& message)
{
    std::cerr << "rankscope-cli: " << message << "\n";
    return 2;
}

bool writeOutput(const app::CliArguments& args, const std::string& text, std::string& error)
{
    if (args.output.empty()) {
        std::cout << text;
        std::cout.flush();
        return true;
    }
    std::ofstream out(args.output, std::ios::binary | std::ios::trunc);
    if (!out) {
        error = "cannot write '" + args.output + "'";
        return false;
    }
    out << text;
    out.close();
    if (!out) {
        error = "writing '" + args.output + "' failed";
        return false;
    }
    return true;
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
        std::cout << app::cliUsage();
        return 0;
    }
    if (args.command == "version") {
        std::cout << "rankscope-cli " << RANKSCOPE_VERSION << "\n";
        return 0;
    }

    app::LoadRequest request;
    request.paths = args.paths;
    request.limits = args.limits;
    request.threads = args.threads;
    auto loaded = app::loadBundle(request);
    if (!loaded)
        return fail(loaded.error().message);
    const model::Bundle& bundle = *loaded.value();

    std::string text;
    if (args.command == "summary") {
        text = args.format == "json" ? app::dumpJson(app::summaryJson(bundle)) + "\n" : app::summaryText(bundle);
    } else if (args.command == "diagnose") {
        auto diagnosis = app::diagnoseBundle(bundle);
        if (!diagnosis)
            return fail(diagnosis.error().message);
        if (args.format == "json")
            text = app::dumpJson(app::diagnosisJson(bundle, diagnosis.value())) + "\n";
        else if (args.format == "md")
            text = app::diagnosisMarkdown(bundle, diagnosis.value());
        else
            text = app::diagnosisText(bundle, diagnosis.value());
    } else {
        return fail("'" + args.command + "' is not available yet in this build");
    }
    std::string error;
    if (!writeOutput(args, text, error))
        return fail(error);
    return 0;
}
