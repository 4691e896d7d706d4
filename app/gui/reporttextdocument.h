#pragma once
// The HTML report as a QTextDocument, for the export dialog's preview and for the PDF
// (reportpdf.h). QTextDocument reads a subset of HTML 4 and CSS 2 (no custom properties, flex, grid
// or HTML5 sectioning tags), so the report's page is rewritten into what it lays out well: sections
// become divs, the verdict banner, masthead and finding cards become tables with a coloured edge
// cell, the fact list a two-column table, and the stylesheet is replaced by one in the supported
// subset. Figures are document resources rather than data URIs.
//
// Any thread: QTextDocument is reentrant, and Qt 6 lays text out on any thread.

#include "app/core/reportdata.h"

#include <QSize>
#include <QString>

#include <vector>

class QObject;
class QTextDocument;

namespace rankscope::app {

// The box in document pixels a figure is fitted into, keeping its aspect ratio: the PDF
// lays A4 out at 96 dpi, whose text column between 14 mm margins is about 690 px wide and
// whose page about 1000 px high; the height leaves room for the caption and a heading, so
// a figure is never scaled past a page nor split over two.
inline constexpr int kRichTextFigureWidth = 660;
inline constexpr int kRichTextFigureMaxHeight = 760;

// A figure of `pixels` fitted into kRichTextFigureWidth × kRichTextFigureMaxHeight.
QSize richTextFigureSize(const QSize& pixels);

// The report's HTML rewritten for QTextDocument; figure i is referenced as
// "rankscope-figure:<i>".
QString richTextReportHtml(const ReportData& data, const std::vector<ReportFigure>& figures);

// A document holding the rewritten report and its figures; parented to `parent`.
QTextDocument* reportTextDocument(
    const ReportData& data, const std::vector<ReportFigure>& figures, QObject* parent = nullptr);

} // namespace rankscope::app
