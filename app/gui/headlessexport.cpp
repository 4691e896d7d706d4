#include "app/gui/headlessexport.h"

#include "app/gui/documentbuilder.h"
#include "app/gui/reportexport.h"

#include <QDir>

#include <cstdio>

#include <unistd.h>

namespace rankscope::app {

namespace {

int fail(int status, const QString& message)
{
    std::fprintf(stderr, "rankscope: %s\n", qPrintable(message));
    return status;
}

} // namespace

int runHeadlessExport(const HeadlessExportRequest& request)
{
    // Usage is checked before loading: a typo should not cost a long parse.
    std::optional<ExportFormat> format;
    if (!request.format.isEmpty()) {
        format = exportFormatFromName(request.format);
        if (!format)
            return fail(kExportUsage,
                QStringLiteral("unknown report format '%1' (html, md, json or pdf)")
                    .arg(request.format));
    } else {
        format = exportFormatFromPath(request.output);
        if (!format)
            return fail(kExportUsage,
                QStringLiteral("cannot tell the report format from '%1' (use .html, .md, .json "
                               "or .pdf, or --format)")
                    .arg(request.output));
    }
    if (request.paths.isEmpty())
        return fail(kExportUsage, QStringLiteral("--export needs at least one bundle PATH"));

    LoadRequest load;
    for (const QString& path : request.paths)
        load.paths.push_back(path.toStdString());
    auto document = buildDocument(load);
    if (!document)
        return fail(kExportFailed,
            QStringLiteral("cannot load the bundle: %1")
                .arg(QString::fromStdString(document.error().message)));

    const PreparedReport prepared
        = prepareReport(document.value(), request.anonymize, request.appendix);
    if (!prepared.data)
        return fail(kExportFailed, QStringLiteral("the bundle has no diagnosis"));
    const std::vector<ExportFigure> figures = renderReportFigures(prepared.figureDocument);
    // A long PDF (the appendix of a big world) takes seconds: on a terminal, say how far it
    // got on one line; scripts and logs get only the final line.
    ReportProgress progress;
    if (*format == ExportFormat::Pdf && isatty(STDERR_FILENO))
        progress = [](int percent) {
            std::fprintf(stderr, "\rrankscope: writing the PDF… %3d%%", percent);
            if (percent == 100)
                std::fputc('\n', stderr);
        };
    auto written = writeReport(*prepared.data, figures, *format, request.output, progress);
    if (!written)
        return fail(kExportFailed, QString::fromStdString(written.error().message));

    QString detail = exportFormatTitle(*format);
    if (*format != ExportFormat::Json)
        detail += QStringLiteral(", %1 figure(s)").arg(figures.size());
    if (written->pages > 0)
        detail += QStringLiteral(", %1 page(s)").arg(written->pages);
    std::printf("rankscope: wrote %s (%s)\n", qPrintable(QDir::toNativeSeparators(request.output)),
        qPrintable(detail));
    return kExportOk;
}

} // namespace rankscope::app
