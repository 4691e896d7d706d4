#pragma once
// Renders a ReportData in the three Qt-free formats. The desktop app adds figures (timeline
// and rank-pair heatmap rendered offscreen) to the HTML and writes the PDF itself.
//
//   HTML      one self-contained file: inline CSS, figures as data: URIs, no script, no
//             network; printable (@media print) and readable on a phone
//   Markdown  the same content for an issue tracker or a chat; figures as files beside it
//   JSON      exactly the rankscope.diagnosis/1 object

#include "app/core/reportdata.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::app {

enum class ReportFormat { Html, Markdown, Json };

// "html", "md", "markdown", "json".
std::optional<ReportFormat> reportFormatFromName(std::string_view name);
// From the file name: .html/.htm, .md/.markdown, .json (case-insensitive).
std::optional<ReportFormat> reportFormatFromPath(std::string_view path);
std::string_view reportFormatName(ReportFormat format);

// A figure saved beside a Markdown report: its title and the path the report links to.
struct MarkdownFigure {
    std::string title;
    std::string relativePath;
};

std::string htmlReport(const ReportData& data, const std::vector<ReportFigure>& figures = {});
std::string markdownReport(const ReportData& data, const std::vector<MarkdownFigure>& figures = {});
std::string jsonReport(const ReportData& data);

// Figures apply to HTML only (Markdown figures are files the caller writes).
std::string renderReport(
    const ReportData& data, ReportFormat format, const std::vector<ReportFigure>& figures = {});

// RFC 4648 base64, for data: URIs.
std::string base64Encode(std::string_view bytes);

} // namespace rankscope::app
