#pragma once
// The PDF report: the HTML content as a QTextDocument (reporttextdocument.h), paginated on
// A4 with the figures, a footer naming the verdict and "page i of n". Small tables (the
// verdict, finding cards, figures) are kept on one page and a section heading never ends
// a page. Written through QSaveFile, so a failed export leaves no half file.
//
// Any thread (Qt 6 lays text out and paints to a QPdfWriter off the GUI thread).

#include "app/core/reportdata.h"
#include "model/error.h"

#include <QString>

#include <vector>

namespace rankscope::app {

// Returns the page count.
model::Result<int> writeReportPdf(
    const ReportData& data, const std::vector<ReportFigure>& figures, const QString& path);

} // namespace rankscope::app
