#pragma once
// The PDF report: the HTML content as a QTextDocument (reporttextdocument.h), paginated on
// A4 with the figures, a footer naming the verdict and "page i of n". Small tables (the
// verdict, finding cards, figures) are kept on one page and a section heading never ends
// a page. Written through QSaveFile, so a failed export leaves no half file.
//
// Any thread (Qt 6 lays text out and paints to a QPdfWriter off the GUI thread).

#include "app/core/reportdata.h"
#include "model/error.h"

#include <QSizeF>
#include <QString>

#include <functional>

#include <vector>

namespace rankscope::app {

// Progress in percent, 0..100, called on the writing thread: a tenth for the document,
// up to 40 while pages are balanced, the rest page by page; 100 once the file is written.
using ReportProgress = std::function<void(int percent)>;

// Returns the page count.
model::Result<int> writeReportPdf(const ReportData& data, const std::vector<ReportFigure>& figures,
    const QString& path, const ReportProgress& progress = {});

// A PDF page's text area in document pixels (A4 at 96 dpi less the margins and footer):
// what a figure must fit in.
QSizeF reportPdfPageSize();

} // namespace rankscope::app
