// The diagnosis report in its three formats, from the bundle seeded with secrets: the
// verdict survives every format, the HTML is self-contained and well formed, no seeded
// secret leaves, and rankscope-cli picks the format from the file name.

#include "reportfixture.h"

#include "app/core/diagnosistext.h"
#include "app/core/summarytext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/wait.h>

using namespace rankscope;
using rankscope::testing::loadAndDiagnose;
using rankscope::testing::renderAll;

namespace {

const testing::LoadedCase& seededCase()
{
    static const testing::LoadedCase c = loadAndDiagnose({ testing::secretsBundlePath() });
    return c;
}

bool validUtf8(std::string_view s)
{
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80 ? 1
            : (c >> 5) == 0x6    ? 2
            : (c >> 4) == 0xE    ? 3
            : (c >> 3) == 0x1E   ? 4
                                 : 0;
        if (n == 0 || i + n > s.size())
            return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
                return false;
        i += n;
    }
    return true;
}

// Every element opened is closed in order (void elements excepted); script-free; every
// src/href stays inside the file. Returns "" or what is wrong.
std::string checkHtml(const std::string& html)
{
    static const std::vector<std::string> kVoid
        = { "meta", "img", "br", "hr", "link", "input", "wbr" };
    std::vector<std::string> stack;
    std::size_t i = 0;
    while ((i = html.find('<', i)) != std::string::npos) {
        if (html.compare(i, 4, "<!--") == 0) {
            i = html.find("-->", i);
            if (i == std::string::npos)
                return "unterminated comment";
            continue;
        }
        const std::size_t end = html.find('>', i);
        if (end == std::string::npos)
            return "unterminated tag at " + std::to_string(i);
        const std::string tag = html.substr(i + 1, end - i - 1);
        i = end + 1;
        if (tag.starts_with("!"))
            continue; // <!DOCTYPE html>
        const bool closing = tag.starts_with("/");
        std::string name;
        for (char c : tag.substr(closing ? 1 : 0)) {
            if (c == ' ' || c == '/')
                break;
            name += c;
        }
        if (name == "script")
            return "script element";
        for (const char* attr : { "src=\"", "href=\"" }) {
            const std::size_t at = tag.find(attr);
            if (at != std::string::npos) {
                const std::string value = tag.substr(at + std::strlen(attr));
                if (!value.starts_with("data:") && !value.starts_with("#"))
                    return "external reference in <" + tag.substr(0, 80) + ">";
            }
        }
        if (std::find(kVoid.begin(), kVoid.end(), name) != kVoid.end())
            continue;
        if (!closing) {
            stack.push_back(name);
            if (name == "style") { // CSS is not markup: skip to its end tag
                const std::size_t close = html.find("</style>", i);
                if (close == std::string::npos)
                    return "unterminated style";
                i = close;
            }
            continue;
        }
        if (stack.empty() || stack.back() != name)
            return "</" + name + "> closes <"
                + (stack.empty() ? std::string("nothing") : stack.back()) + ">";
        stack.pop_back();
    }
    return stack.empty() ? std::string() : "unclosed <" + stack.back() + ">";
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("the JSON report is the rankscope.diagnosis/1 object with the verdict", "[report]")
{
    const auto report = renderAll(seededCase(), { testing::secretsBundlePath() }, false);
    const auto j = nlohmann::json::parse(report.json);
    CHECK(j["schema"] == "rankscope.diagnosis/1");
    CHECK(j["verdict"]["status"] == "hang_diagnosed");
    CHECK(j["verdict"]["root_cause_class"] == "network_pair");
    CHECK(j["verdict"]["initiating_ranks"] == nlohmann::json::array({ 7, 8 }));
    CHECK(j["verdict"]["stuck_pair"] == nlohmann::json::array({ 7, 8 }));
    CHECK(j["verdict"]["collateral_ranks"].size() == 14);
    CHECK(j["verdict"]["stuck_collective"]["seq"] == 44);
    CHECK(j["findings"][0]["rule"] == "network.ib_pair");
    CHECK(j["inputs"].size() == 17);
}

TEST_CASE(
    "the HTML report states the verdict, the initiating ranks, the rules and how to reproduce",
    "[report]")
{
    const auto report = renderAll(seededCase(), { testing::secretsBundlePath() }, false);
    const std::string& html = report.html;
    CHECK(html.find("Hang diagnosed") != std::string::npos);
    CHECK(html.find("Network link between two ranks") != std::string::npos);
    CHECK(html.find("<span class=\"rank-initiating\">rank 7 (ip-10-0-20-78, GPU 7)</span>")
        != std::string::npos);
    CHECK(html.find("<span class=\"rank-initiating\">rank 8 (ip-10-0-20-79, GPU 0)</span>")
        != std::string::npos);
    CHECK(html.find("<code>network.ib_pair</code>") != std::string::npos);
    CHECK(html.find("<code>hang.all_entered</code>") != std::string::npos);
    CHECK(html.find("How to confirm") != std::string::npos);
    CHECK(html.find("ib_write_bw") != std::string::npos); // a verification command
    CHECK(html.find("rankscope-cli diagnose " + testing::secretsBundlePath()) != std::string::npos);
    CHECK(html.find("rankscope --export report.html " + testing::secretsBundlePath())
        != std::string::npos);
    // Inputs with size and hash, and the per-rank table with the stuck pair marked.
    CHECK(html.find("secrets/train-0007.out") != std::string::npos);
    CHECK(html.find(seededCase().bundle->sources.front().sha256) != std::string::npos);
    CHECK(html.find("<tr class=\"initiating\"><td class=\"rank\">7</td>") != std::string::npos);
    CHECK(html.find("<meta name=\"generator\" content=\"Rankscope ")
        < 2048); // our own output, skipped if re-read
}

TEST_CASE(
    "the HTML report is well formed, valid UTF-8 and needs nothing outside the file", "[report]")
{
    const auto report = renderAll(seededCase(), { testing::secretsBundlePath() }, false);
    CHECK(checkHtml(report.html).empty());
    INFO(checkHtml(report.html));
    CHECK(validUtf8(report.html));
    CHECK(validUtf8(report.markdown));
    CHECK(report.html.find("<script") == std::string::npos);
    CHECK(report.html.find("@media print") != std::string::npos);
    CHECK(report.html.find("name=\"viewport\"") != std::string::npos);
    CHECK(report.html.find("http://") == std::string::npos);
    CHECK(report.html.find("https://") == std::string::npos);
}

TEST_CASE("the Markdown report carries the verdict, initiating ranks and rule ids", "[report]")
{
    const auto report = renderAll(seededCase(), { testing::secretsBundlePath() }, false);
    const std::string& md = report.markdown;
    CHECK(md.find("# Rankscope diagnosis: Hang diagnosed — Network link between two ranks")
        != std::string::npos);
    CHECK(md.find("| **Initiating** | **rank 7 (ip-10-0-20-78, GPU 7)**, **rank 8 (ip-10-0-20-79, "
                  "GPU 0)** |")
        != std::string::npos);
    CHECK(md.find("`network.ib_pair`") != std::string::npos);
    CHECK(md.find("- [ ] ") != std::string::npos);
    CHECK(md.find("| **7** | ip-10-0-20-78 | GPU 7 | stuck in collective | initiating | 44 | 43 |")
        != std::string::npos);
    CHECK(md.find("```sh\nrankscope-cli diagnose ") != std::string::npos);
    // The content sniffer skips the file if it is dropped into a log folder later.
    CHECK(md.substr(0, 200).find("\"schema\": \"rankscope.") != std::string::npos);
}

TEST_CASE(
    "no seeded secret appears in any report format, masked or anonymised", "[report][masking]")
{
    for (bool anonymize : { false, true }) {
        const auto report = renderAll(seededCase(), { testing::secretsBundlePath() }, anonymize);
        for (const std::string* out : report.all()) {
            for (const auto& secret : testing::seededSecrets()) {
                INFO("anonymize " << anonymize << ", secret " << secret);
                CHECK(out->find(secret) == std::string::npos);
            }
            // The masked lines are reported in masked form.
            CHECK(out->find("‹masked:") != std::string::npos);
        }
    }
    CHECK(seededCase().bundle->issues.count("secret_masked") == 17);
}

TEST_CASE("report writers escape markup and keep text readable", "[report]")
{
    app::ReportData d;
    d.toolVersion = "0.0.test";
    d.headline = "Inconclusive";
    d.rootCauseLabel = "Cause <not> determined";
    d.summary = "a < b && c > \"d\" 'e'";
    d.world = "1 rank";
    app::ReportFinding f;
    f.rule = "test.rule";
    f.title = "<script>alert(1)</script>";
    f.explanation = "x | y";
    f.evidence.push_back({ "rank0.log:3", "frame <module> at 0x7f & `tick` ``` fence" });
    d.findings.push_back(f);
    const std::string html = app::htmlReport(d);
    CHECK(html.find("<script>") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    CHECK(html.find("a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;") != std::string::npos);
    CHECK(checkHtml(html).empty());
    const std::string md = app::markdownReport(d);
    CHECK(md.find("frame <module> at 0x7f & `tick` ``` fence")
        != std::string::npos); // verbatim in code
    CHECK(md.find("````text") != std::string::npos); // a fence longer than the line's backticks
    CHECK(md.find("&lt;script>alert(1)&lt;/script>") != std::string::npos); // no tag opens
}

TEST_CASE("text is sanitised to valid UTF-8 without terminal escapes", "[report]")
{
    CHECK(app::sanitizeText("ok\xff\xfe end") == "ok\xEF\xBF\xBD\xEF\xBF\xBD end");
    CHECK(app::sanitizeText("\x1b[31mERROR\x1b[0m boom") == "ERROR boom");
    CHECK(app::sanitizeText("cut \xE2\x80") == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(app::sanitizeText("tab\tand\r\nnewline\x01") == "tab\tand\nnewline\xEF\xBF\xBD");
    CHECK(app::sanitizeText("‹masked:hf-token› ✓") == "‹masked:hf-token› ✓");
    CHECK(app::sanitizeText("\xED\xA0\x80")
        == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // a lone surrogate
}

TEST_CASE("window titles, terminal resets and C1 controls are dropped from text", "[report]")
{
    // Octal escapes: a hex one would swallow the letters after it. OSC 0 (set the window
    // title), ended by BEL or by ST, and one left open to the line's end.
    CHECK(app::sanitizeText("a\033]0;pwned\007b") == "ab");
    CHECK(app::sanitizeText("a\033]2;pwned\033\\b") == "ab");
    CHECK(app::sanitizeText("a\033]0;pwned\nnext") == "a\nnext");
    CHECK(app::sanitizeText("a\033cb\033(Bc") == "abc"); // RIS, a charset designation
    CHECK(app::sanitizeText("x\302\2332Jy") == "x\357\277\2752Jy"); // U+009B, an 8-bit CSI
    CHECK(app::sanitizeText("bell\007") == "bell\357\277\275");
    CHECK(app::sanitizeText("end\033") == "end");
}

TEST_CASE("log lines with terminal escapes reach the summary, diagnosis and Markdown printable",
    "[report][hostile]")
{
    // A line that would retitle the terminal, clear the line and print a fake verdict over the
    // real one, in a file whose name carries an escape too.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "rankscope-test-escapes";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string payload
        = "\033]0;pwned\007\033[2K\rVerdict: NO HANG FOUND\033[1A\033c\302\23331m";
    for (int rank : { 0, 1 }) {
        const std::string r = std::to_string(rank);
        std::ofstream(dir / ("rank" + r + (rank ? "\033]0;file\007" : "") + ".log"))
            << "[rank" << r << "]:[E ProcessGroupNCCL.cpp:616] [Rank " << r
            << "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, "
               "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600005 "
               "milliseconds before timing out."
            << payload << "\n";
    }
    const auto c = testing::loadAndDiagnose({ dir.string() });
    const std::string text = app::diagnosisText(*c.bundle, c.diagnosis);
    REQUIRE_THAT(text, Catch::Contains("Watchdog caught collective operation timeout"));
    const std::vector<std::string> outputs
        = { text, app::diagnosisMarkdown(*c.bundle, c.diagnosis), app::summaryText(*c.bundle) };
    for (const std::string& out : outputs) {
        for (unsigned char ch : out)
            CHECK((ch >= 0x20 || ch == '\t' || ch == '\n'));
        CHECK(out.find("\xC2\x9B") == std::string::npos);
        CHECK(out.find("pwned") == std::string::npos);
    }
    fs::remove_all(dir);
}

TEST_CASE("figures are embedded as data URIs, and their absence is explained", "[report]")
{
    app::ReportData d;
    d.inputArguments = "logs/";
    const std::string without = app::htmlReport(d);
    CHECK(without.find("Figures are not included") != std::string::npos);
    CHECK(without.find("rankscope --export report.html logs/") != std::string::npos);
    const std::string png("\x89PNG\r\n\x1a\n", 8);
    const std::string with = app::htmlReport(
        d, { { "Timeline around the stuck collective", png, "rank 7 highlighted" } });
    CHECK(with.find("<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"Timeline around the "
                    "stuck collective\">")
        != std::string::npos);
    CHECK(with.find("Figures are not included") == std::string::npos);
    CHECK(checkHtml(with).empty());
    CHECK(app::base64Encode("") == "");
    CHECK(app::base64Encode("f") == "Zg==");
    CHECK(app::base64Encode("fo") == "Zm8=");
    CHECK(app::base64Encode("foo") == "Zm9v");
}

TEST_CASE("report formats come from --format or the file extension", "[report]")
{
    CHECK(app::reportFormatFromPath("out/report.html") == app::ReportFormat::Html);
    CHECK(app::reportFormatFromPath("REPORT.HTM") == app::ReportFormat::Html);
    CHECK(app::reportFormatFromPath("r.markdown") == app::ReportFormat::Markdown);
    CHECK(app::reportFormatFromPath("r.md") == app::ReportFormat::Markdown);
    CHECK(app::reportFormatFromPath("r.json") == app::ReportFormat::Json);
    CHECK_FALSE(app::reportFormatFromPath("r.txt"));
    CHECK_FALSE(app::reportFormatFromPath("report"));
    CHECK_FALSE(app::reportFormatFromPath("dir.html/report"));
    CHECK(app::reportFormatFromName("md") == app::ReportFormat::Markdown);
    CHECK_FALSE(app::reportFormatFromName("pdf"));
}

TEST_CASE(
    "big worlds get a compressed rank table that keeps the initiating ranks apart", "[report]")
{
    model::Bundle b;
    model::Diagnosis d;
    d.status = model::DiagnosisStatus::HangDiagnosed;
    d.initiatingRanks = { 70 };
    for (std::int32_t r = 0; r < 128; ++r) {
        model::RankVerdict v;
        v.rank = r;
        v.state = r == 70 ? model::RankState::NeverEntered : model::RankState::CollateralTimeout;
        v.hasProgress = true;
        v.lastEnqueued = r == 70 ? 9 : 10;
        v.lastCompleted = 9;
        d.ranks.push_back(v);
        if (r != 70)
            d.collateralRanks.push_back(r);
    }
    const app::ReportData data = app::buildReportData(b, d, {});
    REQUIRE(data.ranksCompressed);
    REQUIRE(data.ranks.size() == 3);
    CHECK(data.ranks[0].ranks == "0-69");
    CHECK(data.ranks[0].count == 70);
    CHECK(data.ranks[1].ranks == "70");
    CHECK(data.ranks[1].role == "initiating");
    CHECK(data.ranks[2].ranks == "71-127");
    CHECK(app::markdownReport(data).find("| **70** |") != std::string::npos);
}

TEST_CASE("rankscope-cli report writes each format and refuses unknown extensions", "[report]")
{
    const std::string out = std::string(RANKSCOPE_TEST_OUTPUT) + "/cli-report";
    const std::string cli = RANKSCOPE_CLI;
    const std::string bundle = testing::secretsBundlePath();
    for (const char* ext : { ".html", ".md", ".json" }) {
        std::remove((out + ext).c_str());
        const int rc = std::system(
            (cli + " report " + bundle + " -o " + out + ext + " --anonymize").c_str());
        CHECK(rc == 0);
        const std::string text = readFile(out + ext);
        CHECK(text.find("host-01") != std::string::npos);
        CHECK(text.find("ip-10-0-20-78") == std::string::npos);
    }
    CHECK(nlohmann::json::parse(readFile(out + ".json"))["verdict"]["stuck_pair"]
        == nlohmann::json::array({ 7, 8 }));
    const int rc = std::system(
        (cli + " report " + bundle + " -o " + out + ".txt 2>" + out + ".err").c_str());
    CHECK(WEXITSTATUS(rc) == 2);
    const std::string err = readFile(out + ".err");
    CHECK(err.find("cannot tell the report format from") != std::string::npos);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    const int forced
        = std::system((cli + " report " + bundle + " -o " + out + ".txt --format md").c_str());
    CHECK(forced == 0);
    CHECK(readFile(out + ".txt").find("# Rankscope diagnosis") != std::string::npos);
}

TEST_CASE(
    "rankscope-cli diagnose --anonymize rewrites the text and JSON outputs", "[report][anonymize]")
{
    const std::string out = std::string(RANKSCOPE_TEST_OUTPUT) + "/cli-diagnose";
    const std::string cli = RANKSCOPE_CLI;
    const std::string bundle = testing::secretsBundlePath();
    REQUIRE(std::system((cli + " diagnose " + bundle + " --anonymize -o " + out + ".txt").c_str())
        == 0);
    REQUIRE(
        std::system((cli + " diagnose " + bundle + " --anonymize --format json -o " + out + ".json")
                        .c_str())
        == 0);
    const std::string text = readFile(out + ".txt");
    CHECK(text.find("Stuck pair: rank 7 (host-01, GPU 7) <-> rank 8 (host-02, GPU 0)")
        != std::string::npos);
    CHECK(text.find("ip-10-0-20-7") == std::string::npos);
    const auto j = nlohmann::json::parse(readFile(out + ".json"));
    CHECK(j["world"]["hosts"] == nlohmann::json::array({ "host-01", "host-02" }));
}

TEST_CASE("rankscope-cli JSON outputs carry every input's SHA-256", "[report][cli]")
{
    // The plain-text summary skips hashing (bench/RESULTS.md, ingest); JSON must not.
    const std::string out = std::string(RANKSCOPE_TEST_OUTPUT) + "/cli-summary";
    const std::string cli = RANKSCOPE_CLI;
    const std::string bundle = testing::secretsBundlePath();
    REQUIRE(std::system((cli + " summary " + bundle + " --format json -o " + out + ".json").c_str())
        == 0);
    const auto j = nlohmann::json::parse(readFile(out + ".json"));
    REQUIRE(!j["inputs"].empty());
    for (const auto& input : j["inputs"]) {
        INFO(input.dump());
        REQUIRE(input["sha256"].is_string());
        const std::string sha = input["sha256"];
        CHECK(sha.size() == 64);
        CHECK(sha.find_first_not_of("0123456789abcdef") == std::string::npos);
    }
}
