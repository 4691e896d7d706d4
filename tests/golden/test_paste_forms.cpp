// The same log reaches Rankscope through whatever tools a user has: a container runtime's or a
// job system's prefix on every line, a CI runner's clock, a Markdown quote, a terminal's hard
// wrap, a Windows editor's encoding. Each real case, rewritten as such a tool would deliver it,
// must get the verdict it gets as written: the same status, class and initiating ranks.
// Every case goes through a third of the forms (rotating), so the whole set is covered in a
// few seconds of a Release build.
#include "app/core/bundleloader.h"
#include "app/core/diagnosisjson.h"
#include "app/core/diagnosisrunner.h"
#include "tools/evaluation/caselogs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace rankscope;

namespace {

using Lines = std::vector<std::string>;

Lines splitLines(const std::string& text)
{
    Lines lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string joinLines(const Lines& lines, const char* eol = "\n")
{
    std::string out;
    for (const auto& l : lines)
        out += l + eol;
    return out;
}

std::string eachLine(const std::string& text, const std::function<std::string(const std::string&, std::size_t)>& f)
{
    Lines lines = splitLines(text);
    for (std::size_t i = 0; i < lines.size(); ++i)
        lines[i] = f(lines[i], i);
    return joinLines(lines);
}

std::string twoDigits(std::size_t n)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02zu", n % 60);
    return buf;
}

// A terminal's hard wrap: every line cut into pieces of `width` characters (UTF-8 aware).
std::string hardWrap(const std::string& text, std::size_t width)
{
    Lines out;
    for (const auto& line : splitLines(text)) {
        std::string piece;
        std::size_t columns = 0;
        for (char c : line) {
            const bool lead = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
            if (lead && columns == width) {
                out.push_back(piece);
                piece.clear();
                columns = 0;
            }
            piece += c;
            columns += lead ? 1 : 0;
        }
        out.push_back(piece);
    }
    return joinLines(out);
}

// UTF-16LE without a byte order mark, as some Windows tools save text (UTF-8 decoded first).
std::string utf16le(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        char32_t cp = c;
        std::size_t n = 1;
        if (c >= 0xF0 && i + 3 < text.size()) {
            cp = ((c & 0x07u) << 18) | ((text[i + 1] & 0x3Fu) << 12) | ((text[i + 2] & 0x3Fu) << 6) | (text[i + 3] & 0x3Fu);
            n = 4;
        } else if (c >= 0xE0 && i + 2 < text.size()) {
            cp = ((c & 0x0Fu) << 12) | ((text[i + 1] & 0x3Fu) << 6) | (text[i + 2] & 0x3Fu);
            n = 3;
        } else if (c >= 0xC0 && i + 1 < text.size()) {
            cp = ((c & 0x1Fu) << 6) | (text[i + 1] & 0x3Fu);
            n = 2;
        }
        i += n;
        auto unit = [&out](char16_t u) {
            out += static_cast<char>(u & 0xFF);
            out += static_cast<char>(u >> 8);
        };
        if (cp >= 0x10000) {
            cp -= 0x10000;
            unit(static_cast<char16_t>(0xD800 + (cp >> 10)));
            unit(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
        } else {
            unit(static_cast<char16_t>(cp));
        }
    }
    return out;
}

struct PasteForm {
    const char* name;
    std::function<std::string(const std::string&)> apply;
};

const std::vector<PasteForm>& pasteForms()
{
    static const std::vector<PasteForm> forms = {
        { "docker compose prefix", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t) { return "trainer-1  | " + l; }); } },
        { "journalctl header", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t i) { return "Dec 04 12:00:" + twoDigits(i) + " gpu-node-3 python[4242]: " + l; }); } },
        { "SkyPilot node tag", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t) { return "(head, rank=0, pid=2345) " + l; }); } },
        { "kubectl --prefix", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t) { return "[pod/trainer-worker-0/pytorch] " + l; }); } },
        { "collector RFC 3339 time", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t i) { return "2024-05-01T10:00:" + twoDigits(i) + ".123456789Z " + l; }); } },
        { "CI runner's clock", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t i) { return "12:00:" + twoDigits(i) + " " + l; }); } },
        { "bracketed clock", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t i) { return "[12:00:" + twoDigits(i) + "] " + l; }); } },
        { "Markdown quote", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t) { return "> " + l; }); } },
        { "code-block indent", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t) { return "    " + l; }); } },
        { "fenced code block", [](const std::string& t) { return "```\n" + t + "```\n"; } },
        { "CRLF line ends", [](const std::string& t) { return joinLines(splitLines(t), "\r\n"); } },
        { "ANSI colour", [](const std::string& t) { return eachLine(t, [](const std::string& l, std::size_t) { return "\x1b[31m" + l + "\x1b[0m"; }); } },
        { "double-spaced", [](const std::string& t) { return joinLines(splitLines(t), "\n\n"); } },
        { "UTF-16LE without BOM", [](const std::string& t) { return utf16le(t); } },
        { "hard wrap at 120", [](const std::string& t) { return hardWrap(t, 120); } },
    };
    return forms;
}

struct Verdict {
    std::string status;
    std::string rootCause;
    std::vector<int> ranks;
    bool operator==(const Verdict&) const = default;
};

std::string describe(const Verdict& v)
{
    std::string s = v.status + "/" + v.rootCause + " [";
    for (int r : v.ranks)
        s += std::to_string(r) + " ";
    return s + "]";
}

Verdict diagnoseFiles(const std::vector<std::pair<std::string, std::string>>& files, const std::string& tag)
{
    const fs::path dir = fs::temp_directory_path() / ("rankscope-pasteform-" + std::to_string(::getpid()) + "-" + tag);
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& [name, text] : files)
        std::ofstream(dir / name, std::ios::binary) << text;
    app::LoadRequest request;
    request.paths = { dir.string() };
    request.threads = 1;
    auto bundle = app::loadBundle(request);
    fs::remove_all(dir);
    REQUIRE(bundle.ok());
    auto diagnosis = app::diagnoseBundle(*bundle.value(), 1);
    REQUIRE(diagnosis.ok());
    const auto json = app::diagnosisJson(*bundle.value(), diagnosis.value());
    Verdict v { json["verdict"]["status"].get<std::string>(), json["verdict"]["root_cause_class"].get<std::string>(), {} };
    for (const auto& r : json["verdict"]["initiating_ranks"])
        v.ranks.push_back(r.get<int>());
    return v;
}

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("a real case gets the same verdict through every wrapper a user's tools put on it", "[golden][real][pasteforms]")
{
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(fs::path(RANKSCOPE_TEST_DATA) / "real"))
        if (entry.is_directory() && fs::exists(entry.path() / "expected.json"))
            dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    REQUIRE(dirs.size() >= 15);
    const auto& forms = pasteForms();
    std::size_t checked = 0;
    for (std::size_t c = 0; c < dirs.size(); ++c) {
        std::vector<std::pair<std::string, std::string>> files;
        for (const auto& path : evaluation::caseLogFiles(dirs[c]))
            files.emplace_back(fs::path(path).filename().string(), readFile(path));
        const Verdict asWritten = diagnoseFiles(files, "0");
        for (std::size_t f = 0; f < forms.size(); ++f) {
            if ((c + f) % 3 != 0)
                continue;
            auto rewritten = files;
            for (auto& file : rewritten)
                file.second = forms[f].apply(file.second);
            const Verdict v = diagnoseFiles(rewritten, std::to_string(f + 1));
            INFO(dirs[c].filename().string() << " through " << forms[f].name << ": " << describe(v) << ", as written "
                                             << describe(asWritten));
            CHECK(v == asWritten);
            ++checked;
        }
    }
    CHECK(checked >= dirs.size() * forms.size() / 3);
}
