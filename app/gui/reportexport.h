#pragma once
// From a diagnosed document to report files (issue 5), in three steps so each runs where
// it may: prepareReport() builds the content (masked, anonymised on request) and is
// Qt-free, so it runs on a worker; renderReportFigures() (reportfigures.h) draws the
// figures with the real views on the GUI thread; writeReport() writes the chosen format,
// on a worker too (Qt 6 lays text out and paints to a QPdfWriter on any thread).
//
//   HTML      one file, figures embedded as data: URIs
//   Markdown  the .md plus its figures as PNG files in "<name>_files/" beside it
//   JSON      rankscope.diagnosis/1 (no figures)
//   PDF       the HTML content paginated on A4 (reporttextdocument.h), figures included

#include "app/core/reportdata.h"
#include "app/gui/exportformat.h"
#include "app/gui/reportfigures.h"
#include "app/gui/reportpdf.h"
#include "model/error.h"
#include "views/bundledocument.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace rankscope::app {

struct PreparedReport {
    std::shared_ptr<const ReportData> data;
    // What the figures are drawn from: the document itself, or its anonymised copy.
    views::DocumentPtr figureDocument;
};

// `appendix`: the full rank and input tables at the end (ReportData::appendix).
PreparedReport prepareReport(
    const views::DocumentPtr& document, bool anonymize, bool appendix = false);

// The same report with or without the appendix: `data` itself when it already is, else a
// copy (the choice only changes how the writers lay the tables out).
std::shared_ptr<const ReportData> withAppendix(
    const std::shared_ptr<const ReportData>& data, bool appendix);

// The time stamp the report states: "2025-03-01 12:00 UTC".
std::string reportTimestamp();

// "report_files" for ".../report.md": where a Markdown report's figures go.
QString figureFolderName(const QString& reportPath);

// The bytes of an HTML, Markdown or JSON report (PDF is not text: empty). Markdown links
// its figures at figureFolderName(reportPath)/<file>.
std::string reportText(const ReportData& data, const std::vector<ExportFigure>& figures,
    ExportFormat format, const QString& reportPath);

struct WrittenReport {
    QString path;
    QStringList figureFiles; // written beside a Markdown report
    int pages = 0; // PDF
};

// Files are replaced atomically (QSaveFile): a failed export leaves the old file alone.
// `progress` (percent, on the calling thread) follows the PDF page by page; the text
// formats report 100 once written.
model::Result<WrittenReport> writeReport(const ReportData& data,
    const std::vector<ExportFigure>& figures, ExportFormat format, const QString& path,
    const ReportProgress& progress = {});

} // namespace rankscope::app
