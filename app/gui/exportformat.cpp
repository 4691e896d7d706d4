#include "app/gui/exportformat.h"

#include <QFileInfo>

namespace rankscope::app {

std::optional<ExportFormat> exportFormatFromName(const QString& name)
{
    if (name.compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0)
        return ExportFormat::Pdf;
    const std::optional<ReportFormat> core = reportFormatFromName(name.toStdString());
    if (!core)
        return std::nullopt;
    switch (*core) {
    case ReportFormat::Html:
        return ExportFormat::Html;
    case ReportFormat::Markdown:
        return ExportFormat::Markdown;
    case ReportFormat::Json:
        return ExportFormat::Json;
    }
    return std::nullopt;
}

std::optional<ExportFormat> exportFormatFromPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix();
    return suffix.isEmpty() ? std::nullopt : exportFormatFromName(suffix);
}

QString exportFormatSuffix(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Html:
        return QStringLiteral("html");
    case ExportFormat::Markdown:
        return QStringLiteral("md");
    case ExportFormat::Json:
        return QStringLiteral("json");
    case ExportFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return QStringLiteral("html");
}

QString exportFormatTitle(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Html:
        return QStringLiteral("HTML");
    case ExportFormat::Markdown:
        return QStringLiteral("Markdown");
    case ExportFormat::Json:
        return QStringLiteral("JSON");
    case ExportFormat::Pdf:
        return QStringLiteral("PDF");
    }
    return QStringLiteral("HTML");
}

std::optional<ReportFormat> coreReportFormat(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Html:
        return ReportFormat::Html;
    case ExportFormat::Markdown:
        return ReportFormat::Markdown;
    case ExportFormat::Json:
        return ReportFormat::Json;
    case ExportFormat::Pdf:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace rankscope::app
