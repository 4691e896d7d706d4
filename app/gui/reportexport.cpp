#include "app/gui/reportexport.h"

#include "app/core/reportwriter.h"
#include "app/gui/anonymizeddocument.h"
#include "app/gui/reportpdf.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace rankscope::app {

namespace {

model::Error fileError(const QString& path, const QString& reason)
{
    return model::Error { "cannot write " + QDir::toNativeSeparators(path).toStdString() + ": "
        + reason.toStdString() };
}

std::optional<model::Error> writeBytes(const QString& path, const std::string& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fileError(path, file.errorString());
    if (file.write(bytes.data(), static_cast<qint64>(bytes.size()))
            != static_cast<qint64>(bytes.size())
        || !file.commit())
        return fileError(path, file.errorString());
    return std::nullopt;
}

} // namespace

PreparedReport prepareReport(const views::DocumentPtr& document, bool anonymize, bool appendix)
{
    PreparedReport prepared;
    if (!document || !document->bundle || !document->diagnosis)
        return prepared;
    ReportOptions options;
    options.inputPaths = document->inputPaths;
    options.anonymize = anonymize;
    options.appendix = appendix;
    options.generatedAt = reportTimestamp();
    prepared.data = std::make_shared<const ReportData>(
        buildReportData(*document->bundle, *document->diagnosis, options));
    prepared.figureDocument = anonymize ? anonymizedDocument(document) : document;
    return prepared;
}

std::shared_ptr<const ReportData> withAppendix(
    const std::shared_ptr<const ReportData>& data, bool appendix)
{
    if (!data || data->appendix == appendix)
        return data;
    auto copy = std::make_shared<ReportData>(*data);
    copy->appendix = appendix;
    return copy;
}

std::string reportTimestamp()
{
    return QDateTime::currentDateTimeUtc()
        .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
        .toStdString();
}

QString figureFolderName(const QString& reportPath)
{
    return QFileInfo(reportPath).completeBaseName() + QStringLiteral("_files");
}

std::string reportText(const ReportData& data, const std::vector<ExportFigure>& figures,
    ExportFormat format, const QString& reportPath)
{
    switch (format) {
    case ExportFormat::Html:
        return htmlReport(data, reportFigures(figures));
    case ExportFormat::Markdown: {
        std::vector<MarkdownFigure> linked;
        const std::string folder = figureFolderName(reportPath).toStdString();
        for (const ExportFigure& f : figures)
            linked.push_back({ f.figure.title, folder + "/" + f.fileName });
        return markdownReport(data, linked);
    }
    case ExportFormat::Json:
        return jsonReport(data);
    case ExportFormat::Pdf:
        return {};
    }
    return {};
}

model::Result<WrittenReport> writeReport(const ReportData& data,
    const std::vector<ExportFigure>& figures, ExportFormat format, const QString& path,
    const ReportProgress& progress)
{
    WrittenReport written;
    written.path = path;
    if (format == ExportFormat::Pdf) {
        auto pages = writeReportPdf(data, reportFigures(figures), path, progress);
        if (!pages)
            return pages.error();
        written.pages = pages.value();
        return written;
    }
    if (format == ExportFormat::Markdown && !figures.empty()) {
        // Figures first: a report is never left linking to images that are not there.
        const QDir beside = QFileInfo(path).absoluteDir();
        const QString folder = figureFolderName(path);
        if (!beside.mkpath(folder))
            return fileError(beside.filePath(folder), QStringLiteral("cannot create the folder"));
        for (const ExportFigure& f : figures) {
            const QString file
                = beside.filePath(folder + QLatin1Char('/') + QString::fromStdString(f.fileName));
            if (auto error = writeBytes(file, f.figure.pngBytes))
                return *error;
            written.figureFiles << file;
        }
    }
    if (auto error = writeBytes(path, reportText(data, figures, format, path)))
        return *error;
    if (progress)
        progress(100);
    return written;
}

} // namespace rankscope::app
