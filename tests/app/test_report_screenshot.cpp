// Looks at the HTML report as a person would: headless Chromium renders it to a PNG under
// the build tree (tests/app/report-screenshot.png), and the test checks the page is not
// blank and shows the red verdict banner at the top. Skipped when chromium is not
// installed (Debian: apt-get install chromium).

#include "reportfixture.h"

#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace rankscope;

namespace {

struct Image {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint8_t> rgb; // 3 bytes per pixel
};

std::uint32_t be32(const std::string& s, std::size_t at)
{
    return (std::uint32_t(std::uint8_t(s[at])) << 24)
        | (std::uint32_t(std::uint8_t(s[at + 1])) << 16)
        | (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

int paeth(int a, int b, int c)
{
    const int p = a + b - c;
    const int pa = std::abs(p - a);
    const int pb = std::abs(p - b);
    const int pc = std::abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Just enough PNG for Chromium's screenshots: 8-bit RGB or RGBA, not interlaced.
bool decodePng(const std::string& file, Image& img, std::string& error)
{
    if (file.size() < 33 || file.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
        error = "not a PNG";
        return false;
    }
    std::string idat;
    int colorType = -1;
    for (std::size_t at = 8; at + 12 <= file.size();) {
        const std::uint32_t length = be32(file, at);
        const std::string type = file.substr(at + 4, 4);
        if (at + 12 + length > file.size())
            break;
        if (type == "IHDR") {
            img.width = be32(file, at + 8);
            img.height = be32(file, at + 12);
            colorType = std::uint8_t(file[at + 17]);
            if (file[at + 16] != 8 || file[at + 20] != 0 || (colorType != 2 && colorType != 6)) {
                error = "unsupported PNG layout";
                return false;
            }
        } else if (type == "IDAT") {
            idat.append(file, at + 8, length);
        }
        at += 12 + length;
    }
    const std::size_t channels = colorType == 6 ? 4 : 3;
    const std::size_t stride = img.width * channels;
    std::vector<std::uint8_t> raw((stride + 1) * img.height);
    uLongf rawSize = raw.size();
    if (uncompress(raw.data(), &rawSize, reinterpret_cast<const Bytef*>(idat.data()), idat.size())
            != Z_OK
        || rawSize != raw.size()) {
        error = "bad image data";
        return false;
    }
    std::vector<std::uint8_t> prev(stride, 0);
    std::vector<std::uint8_t> line(stride);
    img.rgb.resize(std::size_t(img.width) * img.height * 3);
    for (std::uint32_t y = 0; y < img.height; ++y) {
        const std::uint8_t* in = &raw[y * (stride + 1)];
        const int filter = in[0];
        for (std::size_t x = 0; x < stride; ++x) {
            const int a = x >= channels ? line[x - channels] : 0;
            const int b = prev[x];
            const int c = x >= channels ? prev[x - channels] : 0;
            int v = in[x + 1];
            switch (filter) {
            case 1:
                v += a;
                break;
            case 2:
                v += b;
                break;
            case 3:
                v += (a + b) / 2;
                break;
            case 4:
                v += paeth(a, b, c);
                break;
            default:
                break;
            }
            line[x] = std::uint8_t(v);
        }
        for (std::uint32_t x = 0; x < img.width; ++x)
            for (int k = 0; k < 3; ++k)
                img.rgb[(std::size_t(y) * img.width + x) * 3 + k] = line[x * channels + k];
        prev = line;
    }
    return true;
}

bool chromiumAvailable()
{
    return std::system("command -v chromium >/dev/null 2>&1") == 0;
}

} // namespace

TEST_CASE(
    "the HTML report renders in headless Chromium as a page with the verdict banner", "[report]")
{
    if (!chromiumAvailable()) {
        WARN("SKIPPED: chromium is not installed (apt-get install chromium); the report was not "
             "looked at");
        return;
    }
    const auto loaded = testing::loadAndDiagnose({ testing::secretsBundlePath() });
    const auto report = testing::renderAll(loaded, { testing::secretsBundlePath() }, true);
    const std::string dir = RANKSCOPE_TEST_OUTPUT;
    const std::string html = dir + "/report-screenshot.html";
    const std::string png = dir + "/report-screenshot.png";
    {
        std::ofstream out(html, std::ios::binary);
        out << report.html;
    }
    std::remove(png.c_str());
    // A private profile and no background networking: the page has no external resource and
    // the browser has no reason to talk to anyone.
    const std::string profile = dir + "/chromium-profile";
    const std::string command
        = "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic "
          "--no-first-run --disable-background-networking --disable-component-update "
          "--disable-sync --hide-scrollbars --user-data-dir="
        + profile + " --screenshot=" + png + " --window-size=1200,2400 file://" + html
        + " >/dev/null 2>&1";
    const int rc = std::system(command.c_str());
    std::filesystem::remove_all(profile);
    REQUIRE(rc == 0);

    std::ifstream in(png, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    Image img;
    std::string error;
    REQUIRE(decodePng(bytes.str(), img, error));
    INFO(error);
    REQUIRE(img.width == 1200);
    REQUIRE(img.height == 2400);

    // Not blank: plenty of pixels differ from the page background, in several colours.
    std::size_t ink = 0;
    std::size_t red = 0;
    std::size_t redInTopQuarter = 0;
    for (std::uint32_t y = 0; y < img.height; ++y) {
        for (std::uint32_t x = 0; x < img.width; ++x) {
            const std::uint8_t* p = &img.rgb[(std::size_t(y) * img.width + x) * 3];
            const bool background = p[0] > 230 && p[1] > 230 && p[2] > 230;
            ink += background ? 0 : 1;
            // The verdict's red (#b42318): status pill, banner edge, initiating ranks.
            if (p[0] > 150 && p[1] < 70 && p[2] < 70) {
                ++red;
                if (y < img.height / 4)
                    ++redInTopQuarter;
            }
        }
    }
    INFO("screenshot: " << png);
    CHECK(ink > img.width * img.height / 20);
    CHECK(red > 500);
    CHECK(redInTopQuarter > 300);
}
