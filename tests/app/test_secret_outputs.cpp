// Issue 21, items 7 and 8: a bundle with secrets planted where strings enter the model (a
// folder and a file name, an error.json message, Flight Recorder frames, thread names and
// process-group descriptions) and in every form the masker must know. No output — diagnose
// text, JSON, Markdown, SARIF and GNU, with and without --anonymize, and the reports — may
// hold one.

#include "reportfixture.h"

#include "app/core/diagnosisgnu.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosissarif.h"
#include "app/core/diagnosistext.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace rankscope;

namespace {

std::string ingressDir()
{
    return std::string(RANKSCOPE_TEST_DATA) + "/secrets-ingress";
}

std::string bundlePath()
{
    return ingressDir() + "/job-glpat-F0lderT0kenAbCdEfGhIj12";
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// tests/data/secrets-ingress/SECRETS.txt, written by make_bundle.py beside it.
std::vector<std::string> plantedSecrets()
{
    std::vector<std::string> out;
    std::istringstream in(readAll(ingressDir() + "/SECRETS.txt"));
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line);
    return out;
}

// A secret leaks when it, or a 12-byte piece of its middle, is in the output: a cut sample
// must not carry half a token either.
void requireNoSecret(const std::string& output, const std::string& what)
{
    for (const auto& secret : plantedSecrets()) {
        INFO(what << ": " << secret);
        CHECK(output.find(secret) == std::string::npos);
        CHECK(output.find(secret.substr(secret.size() / 2 - 6, 12)) == std::string::npos);
    }
}

} // namespace

TEST_CASE("secrets planted in names, error.json, dumps and every form reach no output",
    "[masking][secrets]")
{
    const auto secrets = plantedSecrets();
    REQUIRE(secrets.size() >= 20);
    const std::string dir = bundlePath();
    const auto loaded = testing::loadAndDiagnose({ dir });

    const std::string text = app::diagnosisText(*loaded.bundle, loaded.diagnosis);
    const std::string markdown = app::diagnosisMarkdown(*loaded.bundle, loaded.diagnosis);
    const std::string json = app::diagnosisJson(*loaded.bundle, loaded.diagnosis).dump(2);
    const std::string sarif = app::diagnosisSarif(*loaded.bundle, loaded.diagnosis).dump(2);
    const std::string gnu = app::diagnosisGnu(*loaded.bundle, loaded.diagnosis);
    requireNoSecret(sarif, "diagnose sarif");
    requireNoSecret(gnu, "diagnose gnu");
    requireNoSecret(text, "diagnose text");
    requireNoSecret(markdown, "diagnose markdown");
    requireNoSecret(json, "diagnose json");
    for (bool anonymize : { false, true }) {
        const auto report = testing::renderAll(loaded, { dir }, anonymize);
        requireNoSecret(report.html, "report html");
        requireNoSecret(report.markdown, "report markdown");
        requireNoSecret(report.json, "report json");
    }

    // Each place was really read: the masked forms are there, named by kind.
    for (const char* marker : { "‹masked:gitlab-token›", "‹masked:google-api-key›" })
        CHECK(json.find(marker) != std::string::npos); // the folder and the file name
    // Masking changed no verdict: the planted bundle is the IB-pair hang it was built from.
    const auto verdict = nlohmann::json::parse(json)["verdict"];
    CHECK(verdict["status"] == "hang_diagnosed");
    CHECK(verdict["stuck_pair"] == nlohmann::json::array({ 3, 4 }));
}

TEST_CASE("the model holds no planted secret in any interned string, path or sample",
    "[masking][secrets]")
{
    const auto loaded = testing::loadAndDiagnose({ bundlePath() });
    const model::Bundle& b = *loaded.bundle;
    std::string everything;
    for (std::size_t i = 1; i < b.strings.size(); ++i) {
        everything += b.strings.view(static_cast<model::StrId>(i));
        everything += '\n';
    }
    for (const auto& s : b.sources) {
        everything += s.path + '\n' + s.pathIdentity.host + '\n' + s.root + '\n'
            + s.rootRelative + '\n';
    }
    for (const auto& issue : b.issues.list())
        for (const auto& sample : issue.samples)
            everything += sample + '\n';
    requireNoSecret(everything, "model");
    // The frame and the PG description are kept, masked (the thread name is not kept).
    CHECK(everything.find("connect(token='‹masked:hf-token›')") != std::string::npos);
    CHECK(everything.find("default_pg AccountKey=‹masked:azure-key›") != std::string::npos);
}

TEST_CASE("rankscope-cli diagnose prints no planted secret in any format", "[masking][secrets]")
{
    const std::string out = std::string(RANKSCOPE_TEST_OUTPUT) + "/secrets-ingress";
    const std::string cli = RANKSCOPE_CLI;
    for (const char* format : { "text", "json", "md", "sarif", "gnu" }) {
        for (const char* anonymize : { "", " --anonymize" }) {
            const std::string file = out + "." + format + (anonymize[0] ? ".anon" : "");
            std::remove(file.c_str());
            REQUIRE(std::system((cli + " diagnose '" + bundlePath() + "' --format " + format
                                    + anonymize + " -o " + file)
                                    .c_str())
                == 0);
            requireNoSecret(readAll(file), file);
        }
    }
}
