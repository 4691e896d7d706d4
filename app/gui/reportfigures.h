#pragma once
// The report's figures, drawn by the same view classes the user looks at (issue 5), so
// the report shows what the app showed: the timeline around the stuck collective on the
// wall-clock axis and on the sequence-number axis, and the rank-pair heatmap. Each view
// is created on a private SelectionState, sized to a fixed figure size, rendered offscreen
// without its controls (the heatmap's metric box and hosts toggle are hidden and its children
// never drawn: a figure shows the plot only)
// (never shown on screen) at twice the pixel density for print, and encoded as PNG.
//
// GUI thread only (widgets). Takes about a tenth of a second for a 16-rank bundle.

#include "app/core/reportdata.h"
#include "views/bundledocument.h"

#include <string>
#include <vector>

namespace rankscope::app {

struct ExportFigure {
    std::string fileName; // "timeline-time.png": the file beside a Markdown report
    ReportFigure figure;
};

// Figures the document supports (the wall-clock timeline only when the logs carry times);
// empty when there is no diagnosed document.
std::vector<ExportFigure> renderReportFigures(const views::DocumentPtr& document);

std::vector<ReportFigure> reportFigures(const std::vector<ExportFigure>& figures);

} // namespace rankscope::app
