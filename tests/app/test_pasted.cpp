// A log pasted into the app is read like a file: the same verdict as the file it came
// from, its lines shown again from memory, next to files and folders in one bundle.
#include "app/core/bundleloader.h"
#include "app/core/bundlesourceaccess.h"
#include "app/core/diagnosisrunner.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

using namespace rankscope;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<const std::string> contentsOf(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::make_shared<const std::string>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Loaded {
    app::BundlePtr bundle;
    model::Diagnosis diagnosis;
};

Loaded load(std::vector<std::string> paths, std::vector<parsers::PastedText> pasted)
{
    app::LoadRequest request;
    request.paths = std::move(paths);
    request.pasted = std::move(pasted);
    request.threads = 2;
    auto bundle = app::loadBundle(request);
    REQUIRE(bundle);
    auto diagnosis = app::diagnoseBundle(*bundle.value());
    REQUIRE(diagnosis);
    return { bundle.value(), diagnosis.value() };
}

// Every single-file real case under tests/data/real, by the file's own name.
std::vector<fs::path> singleFileRealCases()
{
    std::vector<fs::path> out;
    for (const auto& dir : fs::directory_iterator(RANKSCOPE_TEST_DATA "/real")) {
        if (!dir.is_directory())
            continue;
        std::vector<fs::path> logs;
        for (const auto& f : fs::recursive_directory_iterator(dir.path()))
            if (f.is_regular_file() && f.path().extension() != ".md" && f.path().extension() != ".json")
                logs.push_back(f.path());
        if (logs.size() == 1)
            out.push_back(logs.front());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("a pasted real excerpt gets the same verdict as the file", "[pasted]")
{
    const auto cases = singleFileRealCases();
    REQUIRE(cases.size() >= 20);
    for (const fs::path& file : cases) {
        INFO(file.string());
        const Loaded fromFile = load({ file.string() }, {});
        const Loaded fromPaste = load({}, { { file.filename().string(), contentsOf(file) } });
        CHECK(fromPaste.diagnosis.status == fromFile.diagnosis.status);
        CHECK(fromPaste.diagnosis.rootCause == fromFile.diagnosis.rootCause);
        CHECK(fromPaste.diagnosis.initiatingRanks == fromFile.diagnosis.initiatingRanks);
        CHECK(fromPaste.diagnosis.collateralRanks == fromFile.diagnosis.collateralRanks);
        CHECK(fromPaste.bundle->events.size() == fromFile.bundle->events.size());
    }
}

TEST_CASE("a pasted log is shown again from memory under its name", "[pasted]")
{
    auto text = std::make_shared<const std::string>(
        "[rank3]:[E1203 10:00:01.000000000 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
        "ran for 600010 milliseconds before timing out.\n");
    const Loaded l = load({}, { { "pasted-1.log", text } });
    REQUIRE(l.bundle->sources.size() == 1);
    const model::Source& s = l.bundle->sources.front();
    CHECK(s.path == "pasted-1.log");
    CHECK_FALSE(s.stream);
    CHECK(s.bytes == text->size());
    app::BundleSourceAccess access(l.bundle);
    auto bytes = access.open(s.id);
    REQUIRE(bytes);
    CHECK(bytes.value()->bytes() == *text);
}

TEST_CASE("pastes join the files of an open bundle, each under its own name", "[pasted]")
{
    const std::string sample = RANKSCOPE_SAMPLES_DIR "/hung-allreduce";
    const Loaded alone = load({ sample }, {});
    auto extra = std::make_shared<const std::string>("some terminal output\nwith nothing NCCL in it\n");
    const Loaded joined = load({ sample }, { { "pasted-1.log", extra }, { "pasted-2.log", extra } });
    CHECK(joined.bundle->sources.size() == alone.bundle->sources.size() + 2);
    CHECK(joined.diagnosis.initiatingRanks == alone.diagnosis.initiatingRanks);

    app::LoadRequest twice;
    twice.pasted = { { "pasted-1.log", extra }, { "pasted-1.log", extra } };
    const auto refused = app::loadBundle(twice);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("give each its own name"));
}
