// The real `rankscope --export` binary, as a script or CI runs it: no display, every
// format, the sample bundle and the bundle seeded with secrets. Outputs are kept under the
// build tree (tests/app/gui-export/) so a person can open them; the PDF's pages are
// rendered to PNG there with pdftoppm.

#include "guiexportfixture.h"
#include "reportfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <filesystem>

#include <unistd.h>

using namespace rankscope;
using testing::readBytes;
using testing::runRankscope;

namespace {

const QString kSample = QStringLiteral(RANKSCOPE_SAMPLES_DIR "/hung-allreduce");
const QStringList kSuffixes = { QStringLiteral("html"), QStringLiteral("md"),
    QStringLiteral("json"), QStringLiteral("pdf") };

// Runs one export and requires it to succeed.
QString exportReport(const QString& dir, const QString& stem, const QString& suffix,
    const QStringList& inputs, bool anonymize)
{
    const QString out = dir + QLatin1Char('/') + stem + QLatin1Char('.') + suffix;
    QStringList args = { QStringLiteral("--export"), out };
    if (anonymize)
        args << QStringLiteral("--anonymize");
    args << inputs;
    const auto r = runRankscope(args);
    INFO("rankscope " << args.join(QLatin1Char(' ')).toStdString()
                      << "\nstderr: " << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains(QStringLiteral("wrote")));
    REQUIRE(QFileInfo(out).size() > 0);
    return out;
}

// Text a person or a search engine can read from the PDF (its streams are compressed, so
// the bytes alone prove nothing).
QByteArray pdfText(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") });
    p.waitForFinished(60'000);
    return p.readAllStandardOutput();
}

int pdfPages(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdfinfo"), { pdf });
    p.waitForFinished(60'000);
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        if (line.startsWith("Pages:"))
            return line.mid(6).trimmed().toInt();
    }
    return -1;
}

// The bundle seeded with secrets, under a home directory and a job-id folder, so that its
// paths carry a user name and a job id too (as in test_report_anonymize.cpp).
QString secretsUnderHome()
{
    namespace fs = std::filesystem;
    const fs::path root = fs::path(RANKSCOPE_TEST_OUTPUT) / "gui-export-home";
    const fs::path dir = root / "home" / "alice" / "jobs" / "8149133" / "secrets";
    fs::remove_all(root);
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(testing::secretsBundlePath()))
        fs::copy_file(entry.path(), dir / entry.path().filename());
    return QString::fromStdString(dir.string());
}

// All bytes a reader gets from one export: the file, the figures beside a Markdown
// report, and the PDF's extracted text.
QByteArray everythingWritten(const QString& path)
{
    QByteArray all = readBytes(path);
    const QFileInfo info(path);
    if (info.suffix() == QLatin1String("pdf"))
        all += pdfText(path);
    const QDir figures(info.absolutePath() + QLatin1Char('/') + info.completeBaseName()
        + QStringLiteral("_files"));
    for (const QString& f : figures.entryList(QDir::Files))
        all += readBytes(figures.filePath(f));
    return all;
}

QJsonObject verdictFacts(const QString& jsonPath)
{
    QJsonObject v = QJsonDocument::fromJson(readBytes(jsonPath))
                        .object()[QStringLiteral("verdict")]
                        .toObject();
    v.remove(QStringLiteral("summary")); // prose names hosts; the facts must not change
    return v;
}

} // namespace

TEST_CASE("rankscope --export writes HTML with the timeline and heatmap figures embedded, with no "
          "display",
    "[export][gui]")
{
    const QString dir = testing::outputDir(QStringLiteral("gui-export/sample"));
    const QString html
        = exportReport(dir, QStringLiteral("report"), QStringLiteral("html"), { kSample }, false);
    const QByteArray bytes = readBytes(html);
    CHECK(bytes.contains("Timeline around the stuck collective"));
    CHECK(bytes.contains("Rank-pair heatmap"));
    CHECK_FALSE(bytes.contains("Figures are not included"));
    const auto images = testing::embeddedImages(bytes);
    REQUIRE(images.size() >= 2);
    for (std::size_t i = 0; i < images.size(); ++i) {
        INFO("figure " << i);
        testing::checkNotBlank(images[i]);
        images[i].save(dir + QStringLiteral("/figure-%1.png").arg(i));
    }
    // No network: nothing in the page loads from anywhere.
    CHECK_FALSE(bytes.contains("http://"));
    CHECK_FALSE(bytes.contains("src=\"https:"));
}

TEST_CASE("rankscope --export writes Markdown with its figures as files beside it, and JSON",
    "[export][gui]")
{
    const QString dir = testing::outputDir(QStringLiteral("gui-export/sample"));
    const QString md
        = exportReport(dir, QStringLiteral("report"), QStringLiteral("md"), { kSample }, false);
    const QByteArray text = readBytes(md);
    const QDir files(dir + QStringLiteral("/report_files"));
    const QStringList pngs = files.entryList({ QStringLiteral("*.png") }, QDir::Files);
    REQUIRE(pngs.size() >= 2);
    for (const QString& png : pngs) {
        INFO(png.toStdString());
        CHECK(text.contains(QString(QStringLiteral("report_files/") + png).toUtf8()));
        testing::checkNotBlank(QImage(files.filePath(png)));
    }

    const QString json
        = exportReport(dir, QStringLiteral("report"), QStringLiteral("json"), { kSample }, false);
    const QJsonObject root = QJsonDocument::fromJson(readBytes(json)).object();
    CHECK(root[QStringLiteral("schema")].toString().startsWith(
        QStringLiteral("rankscope.diagnosis/")));
    CHECK(root[QStringLiteral("verdict")].toObject()[QStringLiteral("status")].toString()
        == QStringLiteral("hang_diagnosed"));
}

TEST_CASE("rankscope --export writes a paginated PDF with the figures, rendered to PNG pages",
    "[export][gui][pdf]")
{
    const QString dir = testing::outputDir(QStringLiteral("gui-export/pdf"));
    const QString pdf
        = exportReport(dir, QStringLiteral("report"), QStringLiteral("pdf"), { kSample }, false);
    const QByteArray bytes = readBytes(pdf);
    REQUIRE(bytes.startsWith("%PDF"));
    CHECK(bytes.contains("/Image")); // the figures are in it
    if (!testing::toolAvailable("pdfinfo") || !testing::toolAvailable("pdftoppm")) {
        WARN("SKIPPED page checks: poppler-utils (pdfinfo, pdftoppm) not installed");
        return;
    }
    const int pages = pdfPages(pdf);
    CHECK(pages >= 2);
    const QByteArray text = pdfText(pdf);
    CHECK(text.contains("Hang diagnosed"));
    CHECK(text.contains("page 1 of"));

    // Pages as a person sees them (tests/app/gui-export/pdf/page-1.png, ...).
    QProcess render;
    render.start(QStringLiteral("pdftoppm"),
        { QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("60"), pdf,
            dir + QStringLiteral("/page") });
    REQUIRE(render.waitForFinished(120'000));
    REQUIRE(render.exitCode() == 0);
    const QStringList rendered = QDir(dir).entryList({ QStringLiteral("page-*.png") }, QDir::Files);
    CHECK(rendered.size() == pages);
    REQUIRE_FALSE(rendered.isEmpty());
    const QImage first(dir + QLatin1Char('/') + rendered.front());
    testing::checkNotBlank(first);
    // The verdict banner's red edge near the top of page 1.
    int red = 0;
    for (int y = 0; y < first.height() / 3; ++y)
        for (int x = 0; x < first.width(); ++x) {
            const QColor c = first.pixelColor(x, y);
            red += c.red() > 150 && c.green() < 80 && c.blue() < 80 ? 1 : 0;
        }
    CHECK(red > 50);
}

TEST_CASE("a simulated 4096-rank job exports as a compact PDF of a few pages", "[export][gui][pdf]")
{
#ifndef RANKSCOPE_SIMULATOR
    WARN("SKIPPED: the scenario simulator is not built");
#else
    const QString dir = testing::outputDir(QStringLiteral("gui-export/4096-ranks"));
    const QString bundle = dir + QStringLiteral("/bundle");
    QProcess simulate;
    simulate.start(QStringLiteral(RANKSCOPE_SIMULATOR),
        { QStringLiteral("--scenario"), QStringLiteral("network_pair"), QStringLiteral("--ranks"),
            QStringLiteral("4096"), QStringLiteral("--steps"), QStringLiteral("10"),
            QStringLiteral("--out"), bundle });
    REQUIRE(simulate.waitForFinished(120'000));
    REQUIRE(simulate.exitCode() == 0);
    const QString pdf
        = exportReport(dir, QStringLiteral("report"), QStringLiteral("pdf"), { bundle }, false);
    QDir(bundle).removeRecursively(); // 4098 files: only the PDF is worth keeping
    REQUIRE(readBytes(pdf).startsWith("%PDF"));
    if (!testing::toolAvailable("pdfinfo") || !testing::toolAvailable("pdftotext")) {
        WARN("SKIPPED page checks: poppler-utils (pdfinfo, pdftotext) not installed");
        return;
    }
    // It used to be 185 pages: every rank row and every input's hash.
    const int pages = pdfPages(pdf);
    INFO(pages << " pages");
    CHECK(pages >= 2);
    CHECK(pages <= 10);
    const QByteArray text = pdfText(pdf);
    CHECK(text.contains("Network link between two ranks"));
    CHECK(text.contains("--appendix")); // where the full tables are
    CHECK_FALSE(text.contains("Appendix: every input"));
#endif
}

TEST_CASE("no seeded secret leaves in any format, and no anonymised original with --anonymize",
    "[export][gui][secrets]")
{
    const QString input = secretsUnderHome();
    const QString dir = testing::outputDir(QStringLiteral("gui-export/secrets"));
    const std::vector<std::string> originals
        = { "ip-10-0-20-78", "ip-10-0-20-79", "10.0.20.78", "10.0.20.79", "alice", "8149133" };
    for (const QString& suffix : kSuffixes) {
        for (const bool anonymize : { false, true }) {
            const QString stem = anonymize ? QStringLiteral("anon") : QStringLiteral("plain");
            const QString path = exportReport(dir, stem, suffix, { input }, anonymize);
            const QByteArray all = everythingWritten(path);
            const std::string_view haystack(all.constData(), static_cast<std::size_t>(all.size()));
            INFO(path.toStdString());
            for (const std::string& secret : testing::seededSecrets()) {
                INFO("secret " << secret);
                CHECK(haystack.find(secret) == std::string_view::npos);
            }
            if (!anonymize) {
                // The values are really there without --anonymize, so their absence below
                // means something.
                CHECK(haystack.find("ip-10-0-20-78") != std::string_view::npos);
                continue;
            }
            for (const std::string& value : originals) {
                INFO("original " << value);
                CHECK(haystack.find(value) == std::string_view::npos);
            }
            CHECK(haystack.find("host-01") != std::string_view::npos);
        }
    }
}

TEST_CASE("the verdict is the same with and without --anonymize", "[export][gui][secrets]")
{
    const QString dir = testing::outputDir(QStringLiteral("gui-export/verdict"));
    const QString input = QString::fromStdString(testing::secretsBundlePath());
    const QString plain
        = exportReport(dir, QStringLiteral("plain"), QStringLiteral("json"), { input }, false);
    const QString anon
        = exportReport(dir, QStringLiteral("anon"), QStringLiteral("json"), { input }, true);
    const QJsonObject a = verdictFacts(plain);
    const QJsonObject b = verdictFacts(anon);
    REQUIRE_FALSE(a.isEmpty());
    CHECK(a == b);
    CHECK(b[QStringLiteral("stuck_pair")].toArray() == QJsonArray({ 7, 8 }));
}

TEST_CASE("rankscope --export: usage errors exit 2, a bundle that cannot load exits 1, one line "
          "each",
    "[export][gui]")
{
    const QString dir = testing::outputDir(QStringLiteral("gui-export/errors"));
    struct Case {
        QStringList args;
        int exitCode;
        bool windowed = false; // would open a window when valid: give it a platform
    };
    const std::vector<Case> cases = {
        { { QStringLiteral("--export"), dir + QStringLiteral("/r.html") }, 2 },
        { { QStringLiteral("--export"), dir + QStringLiteral("/r.txt"), kSample }, 2 },
        { { QStringLiteral("--export"), dir + QStringLiteral("/r.html"), QStringLiteral("--format"),
              QStringLiteral("docx"), kSample },
            2 },
        { { QStringLiteral("--export"), dir + QStringLiteral("/r.html"),
              QStringLiteral("--no-such-option"), kSample },
            2 },
        { { QStringLiteral("--anonymize"), kSample }, 2, true },
        { { QStringLiteral("--export"), dir + QStringLiteral("/r.html"),
              dir + QStringLiteral("/does-not-exist") },
            1 },
        { { QStringLiteral("--export"), dir + QStringLiteral("/no-such-dir/r.html"), kSample }, 1 },
    };
    for (const Case& c : cases) {
        const auto r = runRankscope(c.args, c.windowed);
        INFO(c.args.join(QLatin1Char(' ')).toStdString() << "\nstderr: " << r.err.toStdString());
        CHECK(r.exitCode == c.exitCode);
        // One line of ours (Qt may add its own platform notices, e.g. about XDG_RUNTIME_DIR).
        const QStringList ours = r.err.split(QLatin1Char('\n'))
                                     .filter(QRegularExpression(QStringLiteral("^rankscope: ")));
        CHECK(ours.size() == 1);
    }
    CHECK_FALSE(QFileInfo::exists(dir + QStringLiteral("/r.html")));
}

TEST_CASE("rankscope --help documents --export", "[export][gui]")
{
    const auto r = runRankscope({ QStringLiteral("--help") });
    CHECK(r.exitCode == 0);
    CHECK(r.out.contains(QStringLiteral("--export <FILE>")));
    CHECK(r.out.contains(QStringLiteral("--anonymize")));
    CHECK(r.out.contains(QStringLiteral("needs no display")));
}

TEST_CASE("the exported HTML with its figures renders in headless Chromium", "[export][gui][html]")
{
    if (!testing::toolAvailable("chromium")) {
        WARN("SKIPPED: chromium is not installed (apt-get install chromium); the page was not "
             "looked at");
        return;
    }
    const QString dir = testing::outputDir(QStringLiteral("gui-export/chromium"));
    const QString html
        = exportReport(dir, QStringLiteral("report"), QStringLiteral("html"), { kSample }, false);
    const QString png = dir + QStringLiteral("/report-with-figures.png");
    // Headless as root in CI: --no-sandbox; a private profile and no background networking
    // (the page loads nothing from anywhere).
    QProcess chromium;
    chromium.start(QStringLiteral("chromium"),
        { QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
            QStringLiteral("--disable-gpu"), QStringLiteral("--no-first-run"),
            QStringLiteral("--disable-background-networking"),
            QStringLiteral("--disable-component-update"), QStringLiteral("--disable-sync"),
            QStringLiteral("--hide-scrollbars"),
            QStringLiteral("--user-data-dir=") + dir + QStringLiteral("/profile"),
            QStringLiteral("--screenshot=") + png, QStringLiteral("--window-size=1200,3600"),
            QStringLiteral("file://") + html });
    REQUIRE(chromium.waitForFinished(120'000));
    QDir(dir + QStringLiteral("/profile")).removeRecursively();
    INFO("screenshot: " << png.toStdString());
    const QImage shot(png);
    REQUIRE(shot.size() == QSize(1200, 3600));
    testing::checkNotBlank(shot);
    // The figures are drawn: the timeline's stuck-collective bars and the heatmap's cells
    // bring saturated colours into the page's middle third, where the figures sit.
    int saturated = 0;
    for (int y = shot.height() / 4; y < shot.height() * 2 / 3; y += 2)
        for (int x = 0; x < shot.width(); x += 2)
            saturated += shot.pixelColor(x, y).hsvSaturation() > 120 ? 1 : 0;
    CHECK(saturated > 2000);
}
