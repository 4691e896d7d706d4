#pragma once
// Shared by the report tests: the bundle seeded with secrets and identifying names
// (tests/data/secrets: the ib-pair-status12 scenario plus env dumps, tokens, a private key,
// a Slurm cancel line), loaded and diagnosed through the real application path.

#include "app/core/bundleloader.h"
#include "app/core/diagnosisrunner.h"
#include "app/core/reportdata.h"
#include "app/core/reportwriter.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace rankscope::testing {

inline std::string secretsBundlePath()
{
    return std::string(RANKSCOPE_TEST_DATA) + "/secrets";
}

struct LoadedCase {
    app::BundlePtr bundle;
    model::Diagnosis diagnosis;
};

inline LoadedCase loadAndDiagnose(const std::vector<std::string>& paths)
{
    app::LoadRequest request;
    request.paths = paths;
    request.threads = 2;
    auto loaded = app::loadBundle(request);
    REQUIRE(loaded);
    auto diagnosis = app::diagnoseBundle(*loaded.value());
    REQUIRE(diagnosis);
    return { loaded.value(), diagnosis.value() };
}

struct RenderedReport {
    std::string html;
    std::string markdown;
    std::string json;
    std::vector<const std::string*> all() const { return { &html, &markdown, &json }; }
};

inline RenderedReport renderAll(
    const LoadedCase& c, const std::vector<std::string>& paths, bool anonymize)
{
    app::ReportOptions options;
    options.inputPaths = paths;
    options.anonymize = anonymize;
    options.generatedAt = "2025-03-01 12:00 UTC";
    const app::ReportData data = app::buildReportData(*c.bundle, c.diagnosis, options);
    return { app::htmlReport(data), app::markdownReport(data), app::jsonReport(data) };
}

// The secrets seeded into tests/data/secrets, as the raw values that must never leave.
inline const std::vector<std::string>& seededSecrets()
{
    static const std::vector<std::string> secrets = {
        "hf_SeedHfTokenAbCdEfGhIjKlMnOpQrStUv01",
        "5eed0123456789abcdef0123456789abcdef5eed",
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "Seed-Db-Passw0rd",
        "SeedUrlPassw0rd",
        "seedBearerTokenAbCdEf0123456789",
        "ghp_SeedGithubTokenAbCdEfGhIjKlMnOpQr0123",
        "SeedMysqlPw",
        "MIIEowIBAAKCAQEAseedPrivateKeyLine1",
        "seedPrivateKeyLine2",
        "SeedPasswd9",
        "xoxb-5eed00000000",
        "SeedSlackToken",
        "sk-proj-SeedOpenAiKey",
        // Fragments, so a truncated sample cannot leak half a token either.
        "SeedHfToken",
        "SeedGithubToken",
        "seedBearerToken",
        "AKIAIOSFODNN7",
        "wJalrXUtnFEMI",
        "5eed0123456789",
        "SeedOpenAiKey",
        "seedPrivateKey",
    };
    return secrets;
}

} // namespace rankscope::testing
