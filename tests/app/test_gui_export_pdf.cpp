// The PDF report at the size of a big job: compact by default (a 4096-rank world used to
// make 185 pages), full tables only in the appendix, figures fitted to the page with their
// aspect ratio, figures drawn without the views' controls, and progress up to 100 %.

#include "guiexportfixture.h"

#include "app/gui/documentbuilder.h"
#include "app/gui/reportexport.h"
#include "app/gui/reportfigures.h"
#include "app/gui/reportpdf.h"
#include "app/gui/reporttextdocument.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>

#include <memory>

using namespace rankscope;

namespace {

// A 4096-rank report whose rows do not compress (every rank on its own host and GPU, states
// alternating), with an input per rank: the worst case for the tables.
app::ReportData bigWorldReport(bool appendix)
{
    app::ReportData d;
    d.toolVersion = "test";
    d.statusValue = model::DiagnosisStatus::HangDiagnosed;
    d.status = "hang_diagnosed";
    d.headline = "Hang diagnosed";
    d.rootCauseClass = "straggler";
    d.rootCauseLabel = "One rank never reached the collective";
    d.confidence = 0.9;
    d.summary = "Rank 1234 never entered ALLREDUCE #44; the other 4095 ranks timed out in it.";
    d.initiatingRanks = { 1234 };
    d.initiating = { "rank 1234 (node-0154, GPU 2)" };
    d.world = "4096 ranks on 512 hosts";
    d.rankCount = 4096;
    for (int r = 0; r < 4096; ++r) {
        app::ReportRankRow row;
        row.ranks = std::to_string(r);
        row.host = "node-" + std::to_string(r / 8);
        row.gpu = "GPU " + std::to_string(r % 8);
        const bool initiating = r == 1234;
        row.state = initiating ? "never entered" : (r % 2 ? "stuck in collective" : "torn down");
        row.stateKey = initiating ? "never_entered" : (r % 2 ? "stuck_in_collective" : "torn_down");
        row.role = initiating ? "initiating" : "collateral";
        row.lastEnqueued = "44";
        row.lastCompleted = "43";
        d.ranks.push_back(row);
        d.inputs.push_back(
            { "logs/node-" + std::to_string(r / 8) + "/rank" + std::to_string(r) + ".log", "log",
                1u << 20, std::string(64, 'a' + static_cast<char>(r % 6)) });
    }
    d.findings.push_back({ "straggler.never_entered", "Rank 1234 never entered ALLREDUCE #44",
        "1234", 0.9, "It was still in its data loader when the others timed out.", {},
        { { "logs/node-154/rank1234.log:812", "py-spy: in DataLoader.__next__" } },
        { "Look at rank 1234's data loader." }, {}, {} });
    d.reproduceCommand = "rankscope-cli diagnose logs/";
    d.appendix = appendix;
    return d;
}

std::string pngOfSize(QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.fillRect(QRect(QPoint(0, 0), size / 2), Qt::darkRed);
    p.end();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes.toStdString();
}

struct PdfRun {
    int pages = 0;
    std::vector<int> progress;
    qint64 ms = 0;
};

PdfRun writePdf(
    const app::ReportData& data, const std::vector<app::ReportFigure>& figures, const QString& path)
{
    PdfRun run;
    QElapsedTimer timer;
    timer.start();
    auto pages = app::writeReportPdf(
        data, figures, path, [&run](int percent) { run.progress.push_back(percent); });
    run.ms = timer.elapsed();
    REQUIRE(pages);
    run.pages = pages.value();
    return run;
}

// Every image the laid-out document holds, with the size it is drawn at.
std::vector<QSizeF> imageSizes(QTextDocument& doc)
{
    std::vector<QSizeF> sizes;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            if (f.isImageFormat())
                sizes.emplace_back(f.toImageFormat().width(), f.toImageFormat().height());
        }
    return sizes;
}

} // namespace

TEST_CASE("a 4096-rank report is a compact PDF of a few pages, and its appendix holds every "
          "row",
    "[export][gui][pdf]")
{
    const QString dir = testing::outputDir(QStringLiteral("gui-export/big-world"));
    const std::vector<app::ReportFigure> figures = { { "Heatmap", pngOfSize({ 1880, 1520 }), "" } };
    const PdfRun compact
        = writePdf(bigWorldReport(false), figures, dir + QStringLiteral("/compact.pdf"));
    INFO("compact: " << compact.pages << " pages in " << compact.ms << " ms");
    CHECK(compact.pages <= 8);

    const PdfRun full
        = writePdf(bigWorldReport(true), figures, dir + QStringLiteral("/appendix.pdf"));
    INFO("appendix: " << full.pages << " pages in " << full.ms << " ms");
    CHECK(full.pages > compact.pages + 50); // 4096 rank rows and 4096 hashes

    // Progress climbs to 100 and never goes back.
    for (const PdfRun* run : { &compact, &full }) {
        REQUIRE_FALSE(run->progress.empty());
        CHECK(run->progress.front() == 0);
        CHECK(run->progress.back() == 100);
        CHECK(std::is_sorted(run->progress.begin(), run->progress.end()));
        CHECK(run->progress.size() >= 5); // seen along the way, not only at the end
    }

    // The compact report names the groups and points at the appendix; the appendix lists
    // every rank and every hash.
    const std::string compactHtml = app::htmlReport(bigWorldReport(false));
    CHECK(compactHtml.find("ranks by state and role") != std::string::npos);
    CHECK(compactHtml.find("--appendix") != std::string::npos);
    CHECK(compactHtml.find("Appendix: every rank") == std::string::npos);
    CHECK(compactHtml.find(std::string(64, 'c')) == std::string::npos);
    const std::string fullHtml = app::htmlReport(bigWorldReport(true));
    CHECK(fullHtml.find("Appendix: every rank") != std::string::npos);
    CHECK(fullHtml.find("Appendix: every input") != std::string::npos);
    CHECK(fullHtml.find("rank4095.log") != std::string::npos);
    const std::string md = app::markdownReport(bigWorldReport(false));
    CHECK(md.find("ranks by state and role") != std::string::npos);
    CHECK(md.find("rank4095.log") == std::string::npos);
    CHECK(app::markdownReport(bigWorldReport(true)).find("rank4095.log") != std::string::npos);
}

TEST_CASE("report figures fit the PDF page whole and keep their aspect ratio", "[export][gui][pdf]")
{
    const QSizeF page = app::reportPdfPageSize();
    REQUIRE(page.width() > 600);
    REQUIRE(page.height() > 900);
    // A heatmap as the app draws it, a very tall and a very wide picture.
    const std::vector<QSize> pictures = { { 1880, 1520 }, { 800, 4000 }, { 4000, 500 } };
    std::vector<app::ReportFigure> figures;
    for (const QSize s : pictures)
        figures.push_back({ "Figure", pngOfSize(s), "caption" });
    std::unique_ptr<QTextDocument> doc(app::reportTextDocument(bigWorldReport(false), figures));
    doc->setPageSize(page);
    const std::vector<QSizeF> sizes = imageSizes(*doc);
    REQUIRE(sizes.size() == pictures.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        INFO("figure " << i << ": " << sizes[i].width() << "x" << sizes[i].height());
        CHECK(sizes[i].width() <= page.width());
        CHECK(sizes[i].height() <= page.height() * 0.8);
        const double aspect = static_cast<double>(pictures[i].width()) / pictures[i].height();
        CHECK(sizes[i].width() / sizes[i].height() == Approx(aspect).epsilon(0.02));
    }
}

TEST_CASE("the heatmap figure shows the plot without the view's controls", "[export][gui]")
{
    app::LoadRequest request;
    request.paths = { RANKSCOPE_SAMPLES_DIR "/hung-allreduce" };
    request.threads = 2;
    auto doc = app::buildDocument(request);
    REQUIRE(doc);
    const auto figures = app::renderReportFigures(doc.value());
    const auto heatmap = std::find_if(figures.begin(), figures.end(),
        [](const app::ExportFigure& f) { return f.fileName == "rank-pairs.png"; });
    REQUIRE(heatmap != figures.end());
    const QImage image
        = QImage::fromData(QByteArray::fromStdString(heatmap->figure.pngBytes), "PNG")
              .convertToFormat(QImage::Format_RGB32);
    testing::checkNotBlank(image);
    // Where the metric box and the hosts toggle sat (their frames began 4 px down, 8 px of
    // the figure drawn at twice the density), the figure is plain background across its
    // whole width.
    const QRgb background = image.pixel(0, 0);
    int ink = 0;
    for (int y = 0; y < 14; ++y)
        for (int x = 0; x < image.width(); ++x)
            ink += image.pixel(x, y) != background;
    CHECK(ink == 0);
    image.save(testing::outputDir(QStringLiteral("gui-export/heatmap-figure"))
        + QStringLiteral("/rank-pairs.png"));
}
