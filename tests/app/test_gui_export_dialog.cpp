// The desktop side of the report export, in process: figures drawn by the real views,
// the anonymised copy they are drawn from, the File → Export Report… action and the export
// dialog (preview, format from the extension, the anonymise box, writing, a screenshot
// under tests/app/gui-export/dialog/).

#include "guiexportfixture.h"
#include "reportfixture.h"

#include "app/gui/anonymizeddocument.h"
#include "app/gui/documentbuilder.h"
#include "app/gui/exportdialog.h"
#include "app/gui/mainwindow.h"
#include "app/gui/reportfigures.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QTextBrowser>

#include <utility>

using namespace rankscope;
using app::ExportDialog;
using app::ExportFormat;

namespace {

const QString kSample = QStringLiteral(RANKSCOPE_SAMPLES_DIR "/hung-allreduce");

views::DocumentPtr loadDocument(const std::string& path)
{
    app::LoadRequest request;
    request.paths = { path };
    request.threads = 2;
    auto doc = app::buildDocument(request);
    REQUIRE(doc);
    return doc.value();
}

bool waitFor(const std::function<bool()>& done, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

// How many members an aggregate has: the most initialisers a brace-init accepts.
struct AnyMember {
    template <class T> operator T() const;
};
template <class T, std::size_t... I> constexpr bool initialisableWith(std::index_sequence<I...>)
{
    return requires
    {
        T { (void(I), AnyMember {})... };
    };
}
template <class T, std::size_t N = 0> constexpr std::size_t memberCount()
{
    if constexpr (initialisableWith<T>(std::make_index_sequence<N + 1> {}))
        return memberCount<T, N + 1>();
    else
        return N;
}

} // namespace

TEST_CASE("the report figures are drawn by the real timeline and heatmap views", "[export][gui]")
{
    const auto doc = loadDocument(kSample.toStdString());
    const auto figures = app::renderReportFigures(doc);
    REQUIRE(figures.size() >= 2);
    const QString dir = testing::outputDir(QStringLiteral("gui-export/figures"));
    bool timeline = false;
    bool heatmap = false;
    for (const auto& f : figures) {
        INFO(f.fileName);
        const QImage image = QImage::fromData(QByteArray::fromStdString(f.figure.pngBytes), "PNG");
        testing::checkNotBlank(image);
        image.save(dir + QLatin1Char('/') + QString::fromStdString(f.fileName));
        timeline = timeline || f.fileName.starts_with("timeline");
        heatmap = heatmap || f.fileName == "rank-pairs.png";
        CHECK_FALSE(f.figure.title.empty());
    }
    CHECK(timeline);
    CHECK(heatmap);
    CHECK(app::renderReportFigures(nullptr).empty());
}

TEST_CASE("the anonymised figure document names hosts by pseudonym and keeps every string id",
    "[export][gui][anonymize]")
{
    // A member added to model::Bundle must be copied in app/gui/anonymizeddocument.cpp too.
    STATIC_REQUIRE(memberCount<model::Bundle>() == 32);

    const auto doc = loadDocument(testing::secretsBundlePath());
    const auto anon = app::anonymizedDocument(doc);
    REQUIRE(anon);
    REQUIRE(anon->bundle != doc->bundle);
    const model::Bundle& a = *anon->bundle;
    const model::Bundle& b = *doc->bundle;
    CHECK(a.strings.size() == b.strings.size());
    CHECK(a.events.size() == b.events.size());
    CHECK(a.ranks.size() == b.ranks.size());
    CHECK(anon->diagnosis == doc->diagnosis);
    REQUIRE_FALSE(b.world.hosts.empty());
    for (model::StrId host : b.world.hosts) {
        INFO(b.text(host));
        CHECK(std::string(a.text(host)).starts_with("host-"));
    }
    for (model::StrId id = 1; id < a.strings.size(); ++id) {
        const std::string_view s = a.strings.view(id);
        for (const char* original : { "ip-10-0-20-78", "ip-10-0-20-79", "10.0.20.78" }) {
            INFO(original);
            CHECK(s.find(original) == std::string_view::npos);
        }
    }
}

TEST_CASE(
    "File → Export Report… is disabled until a diagnosed bundle is on screen", "[export][gui]")
{
    app::MainWindow window;
    window.show();
    REQUIRE(window.exportAction());
    CHECK_FALSE(window.exportAction()->isEnabled());
    window.exportReport(); // harmless without a document
    CHECK(window.findChildren<ExportDialog*>().isEmpty());

    QSignalSpy shown(&window, &app::MainWindow::documentShown);
    window.openPaths({ kSample });
    REQUIRE(waitFor([&] { return shown.count() > 0; }));
    CHECK(window.exportAction()->isEnabled());
    window.exportAction()->trigger();
    const auto dialogs = window.findChildren<ExportDialog*>();
    REQUIRE(dialogs.size() == 1);
    CHECK(dialogs.front()->isVisible());
    CHECK(waitFor([&] { return dialogs.front()->isPreviewReady(); }));
    dialogs.front()->reject();
}

TEST_CASE("the export dialog previews the report, follows the extension and the anonymise box, "
          "and writes",
    "[export][gui][dialog]")
{
    const auto doc = loadDocument(testing::secretsBundlePath());
    const QString dir = testing::outputDir(QStringLiteral("gui-export/dialog"));
    ExportDialog dialog(doc, dir + QStringLiteral("/report.html"));
    dialog.show();
    // Not a signal spy here: when the worker finishes before the constructor attaches its
    // continuation, Qt runs it at once, inside the constructor, before any spy exists.
    // The ready state and the preview are set together, so waiting on the state is enough.
    REQUIRE(waitFor([&] { return dialog.isPreviewReady(); }));
    QSignalSpy updated(&dialog, &ExportDialog::previewUpdated);
    CHECK(dialog.format() == ExportFormat::Html);
    const QString plainPreview = dialog.preview()->toPlainText();
    CHECK(plainPreview.contains(QStringLiteral("Hang diagnosed"), Qt::CaseInsensitive));
    CHECK(plainPreview.contains(QStringLiteral("ip-10-0-20-78")));

    // The screenshot a person looks at: tests/app/gui-export/dialog/export-dialog.png.
    dialog.resize(900, 760);
    QCoreApplication::processEvents();
    const QImage shot = dialog.grab().toImage();
    shot.save(dir + QStringLiteral("/export-dialog.png"));
    testing::checkNotBlank(shot);

    // The anonymise box: a new preview without the original names.
    dialog.setAnonymize(true);
    REQUIRE(waitFor([&] { return dialog.isPreviewReady() && updated.count() > 0; }));
    const QString anonPreview = dialog.preview()->toPlainText();
    CHECK_FALSE(anonPreview.contains(QStringLiteral("ip-10-0-20-78")));
    CHECK(anonPreview.contains(QStringLiteral("host-01")));
    dialog.grab().save(dir + QStringLiteral("/export-dialog-anonymized.png"));

    // The extension chooses the format; the format renames the extension.
    dialog.setOutputPath(dir + QStringLiteral("/report.md"));
    CHECK(dialog.format() == ExportFormat::Markdown);
    CHECK(dialog.preview()->toPlainText().contains(QStringLiteral("report_files/")));
    dialog.setFormat(ExportFormat::Json);
    CHECK(dialog.outputPath() == QString(dir + QStringLiteral("/report.json")));
    CHECK(dialog.preview()->toPlainText().trimmed().startsWith(QLatin1Char('{')));
    auto* appendix = dialog.findChild<QCheckBox*>(QStringLiteral("exportAppendix"));
    REQUIRE(appendix);
    CHECK_FALSE(appendix->isEnabled()); // JSON is the whole object: nothing to append
    dialog.setFormat(ExportFormat::Pdf);
    CHECK(dialog.outputPath() == QString(dir + QStringLiteral("/report.pdf")));
    CHECK(appendix->isEnabled());
    CHECK_FALSE(dialog.appendix()); // compact unless asked

    // Writing: the progress bar follows the writer to 100 %, the dialog closes and says where.
    QSignalSpy exported(&dialog, &ExportDialog::exported);
    QSignalSpy progress(&dialog, &ExportDialog::writeProgressChanged);
    dialog.startExport();
    REQUIRE(waitFor([&] { return exported.count() > 0; }));
    CHECK(dialog.writeProgress() == 100);
    REQUIRE(progress.count() >= 1);
    CHECK(progress.back().front().toInt() == 100);
    CHECK(exported.front().front().toString() == QString(dir + QStringLiteral("/report.pdf")));
    CHECK(testing::readBytes(dir + QStringLiteral("/report.pdf")).startsWith("%PDF"));
    CHECK_FALSE(dialog.isVisible());
}

TEST_CASE(
    "the export dialog shows a write failure as a message and stays open", "[export][gui][dialog]")
{
    const auto doc = loadDocument(kSample.toStdString());
    const QString dir = testing::outputDir(QStringLiteral("gui-export/dialog-error"));
    ExportDialog dialog(doc, dir + QStringLiteral("/missing-folder/report.html"));
    dialog.show();
    REQUIRE(waitFor([&] { return dialog.isPreviewReady(); }));
    QSignalSpy failed(&dialog, &ExportDialog::exportFailed);
    dialog.startExport();
    REQUIRE(waitFor([&] { return failed.count() > 0; }));
    CHECK(failed.front().front().toString().contains(QStringLiteral("cannot write")));
    CHECK(dialog.isVisible());
    CHECK_FALSE(dialog.isWriting());
    CHECK(dialog.findChild<QWidget*>(QStringLiteral("exportErrorBox")) != nullptr);
}
