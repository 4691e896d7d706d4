#pragma once
// What the progress and duration charts share: which process group they show (the
// selection's, else the stuck collective's) and a chart look that follows the palette.

#include "views/bundledocument.h"

#include <QFontMetrics>
#include <QList>
#include <QPalette>
#include <QPointF>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QAbstractAxis;
class QChartView;
QT_END_NAMESPACE

namespace rankscope::views::charts {

// Bars or points shown at most; more ranks are bucketed.
inline constexpr int kMaxBars = 128;

// The PG key a chart shows: `selected` when set, else the stuck collective's, else the
// first group with sequence numbers.
model::StrId chartProcessGroup(const BundleDocument& doc, const QString& selected);
// "PG 0 (default_pg)".
QString processGroupLabel(const model::Bundle& bundle, model::StrId pg);
// Initiating ranks (and the stuck pair) of the diagnosis.
std::vector<bool> initiatingMask(const BundleDocument& doc, std::size_t ranks);

// The markers a scatter series of one point per rank draws. Each marker is a graphics item of
// its own, made on the GUI thread when the chart is built (4096 of them held a bundle's
// window still for about 45 ms), so past kThinAboveRanks ranks the ranks whose markers fall
// in the same cell of a grid finer than the chart's pixels share one. `points` are (rank,
// value) in rank order, values from 0 to `hi`.
inline constexpr std::size_t kThinAboveRanks = 1024;
QList<QPointF> markerPoints(const std::vector<QPointF>& points, std::size_t ranks, double hi);

// The smallest 1, 2 or 5 × 10^k at or above `raw` (axis tick steps).
double niceStep(double raw);
// How many labels as wide as `widest` fit side by side in `pixels`.
int labelsThatFit(int pixels, const QFontMetrics& metrics, const QString& widest);

void styleChart(QChart* chart, const QPalette& palette);
void styleAxis(QAbstractAxis* axis, const QPalette& palette);
// QChartView::setChart releases the previous chart without deleting it. The view's
// ChartLegend, when it has one, follows the new chart.
void replaceChart(QChartView* view, QChart* chart);

} // namespace rankscope::views::charts
