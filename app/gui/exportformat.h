#pragma once
// The four report formats the desktop app writes: the three Qt-free ones from
// app/core/reportwriter.h plus PDF, which needs Qt's text layout and so lives here.

#include "app/core/reportwriter.h"

#include <QString>

#include <optional>

namespace rankscope::app {

enum class ExportFormat { Html, Markdown, Json, Pdf };

// "html", "htm", "md", "markdown", "json", "pdf" (case-insensitive).
std::optional<ExportFormat> exportFormatFromName(const QString& name);
// From the file name's extension.
std::optional<ExportFormat> exportFormatFromPath(const QString& path);
// The extension written by default ("html", "md", "json", "pdf").
QString exportFormatSuffix(ExportFormat format);
// For the format chooser: "HTML", "Markdown", "JSON", "PDF".
QString exportFormatTitle(ExportFormat format);
// The Qt-free writer's format; nullopt for PDF.
std::optional<ReportFormat> coreReportFormat(ExportFormat format);

inline constexpr ExportFormat kExportFormats[]
    = { ExportFormat::Html, ExportFormat::Markdown, ExportFormat::Json, ExportFormat::Pdf };

} // namespace rankscope::app
