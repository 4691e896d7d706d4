#include "app/gui/reportfigures.h"

#include "views/pairheatmapview.h"
#include "views/ranktimelineview.h"
#include "views/selectionstate.h"
#include "views/timelinepainter.h"

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QEvent>
#include <QImage>
#include <QScrollBar>
#include <QStyle>

#include <algorithm>
#include <limits>
#include <optional>

namespace rankscope::app {

namespace {

// Logical figure sizes: the timeline as wide as the HTML report's text column, tall enough
// for every row of a small world (capped for big ones, where the view opens on the
// initiating rank); the heatmap square with room for its legend.
constexpr int kTimelineWidth = 1100;
constexpr int kTimelineMinHeight = 260;
constexpr int kTimelineMaxHeight = 1000;
constexpr QSize kHeatmapSize(940, 760);
// Rendered at twice the density so the figure stays sharp when printed.
constexpr qreal kScale = 2.0;
// Collectives shown around the stuck one on the sequence axis.
constexpr double kSeqWindow = 40.0;
// Room around the stuck collective's waits on the wall-clock axis, as a share of their span.
constexpr double kTimePadShare = 0.25;

// A shared report reads best light, whatever the desktop theme: the style's own palette.
QPalette figurePalette()
{
    return QApplication::style()->standardPalette();
}

// Polished, laid out and sized as on screen, but never mapped.
void prepareOffscreen(QWidget& widget, const QSize& size)
{
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.setPalette(figurePalette());
    widget.resize(size);
    widget.show();
}

// `flags`: what of the widget is drawn. The heatmap is drawn without its children, so no
// control (the metric box, the hosts toggle) can ever appear in a figure, even one a
// future change adds to its header.
std::string pngOf(QWidget& widget,
    QWidget::RenderFlags flags = QWidget::DrawWindowBackground | QWidget::DrawChildren)
{
    // Labels changed by the new document asked for a relayout through the event loop, which
    // has not run: lay out now, or the header is drawn with its old geometry.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QImage image(widget.size() * kScale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(kScale);
    image.fill(widget.palette().color(QPalette::Window));
    widget.render(&image, QPoint(), QRegion(), flags);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.convertToFormat(QImage::Format_RGB32).save(&buffer, "PNG");
    return bytes.toStdString();
}

// The wall-clock window of the stuck collective's waits (enqueue → watchdog timeout) on
// every rank, padded; nullopt when the timeline has no stuck span.
std::optional<std::pair<qint64, qint64>> stuckWindow(const model::TimelineData& timeline)
{
    qint64 lo = std::numeric_limits<qint64>::max();
    qint64 hi = std::numeric_limits<qint64>::min();
    for (std::int32_t r = 0; r < timeline.rankCount(); ++r) {
        for (const model::TimelineSpan& s : timeline.spans(r)) {
            if (!s.stuck)
                continue;
            lo = std::min<qint64>(lo, s.startNs);
            hi = std::max<qint64>(hi, s.endNs);
        }
    }
    if (lo > hi)
        return std::nullopt;
    const qint64 pad = std::max<qint64>(
        static_cast<qint64>(static_cast<double>(hi - lo) * kTimePadShare), 1'000'000'000);
    return std::pair { lo - pad, hi + pad };
}

// Where the main window lands the reader: the first culprit selected.
int firstCulprit(const model::Diagnosis& d)
{
    if (d.stuckPair)
        return d.stuckPair->first;
    return d.initiatingRanks.empty() ? -1 : d.initiatingRanks.front();
}

std::optional<ExportFigure> timelineFigure(
    const views::DocumentPtr& document, views::RankTimelineView::AxisMode mode)
{
    views::SelectionState selection;
    views::RankTimelineView view(&selection);
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    prepareOffscreen(view, QSize(kTimelineWidth, kTimelineMaxHeight));
    selection.setDocument(document);
    view.setAxisMode(mode);
    if (view.axisMode() != mode)
        return std::nullopt; // no wall-clock times in this bundle
    const model::Diagnosis& d = *document->diagnosis;

    // Every row of a small world, and not a pixel of empty lane below the last one.
    const int rowsHeight = view.rowLayout().totalHeight();
    const int height = std::clamp(view.headerHeight() + rowsHeight
            + views::TimelinePainter::kLegendHeight + 2 * view.frameWidth() + 2,
        kTimelineMinHeight, kTimelineMaxHeight);
    view.resize(kTimelineWidth, height);

    if (const int rank = firstCulprit(d); rank >= 0)
        selection.selectRank(rank);
    const qint64 stuckSeq = d.stuckCollective ? d.stuckCollective->seq : -1;
    ExportFigure figure;
    if (mode == views::RankTimelineView::AxisMode::Time) {
        if (document->timeline) {
            if (const auto window = stuckWindow(*document->timeline))
                selection.setVisibleTimeRange(window->first, window->second);
        }
        if (stuckSeq >= 0)
            selection.selectSeq(stuckSeq);
        figure.fileName = "timeline-time.png";
        figure.figure.title = "Timeline around the stuck collective (wall clock)";
        figure.figure.caption = "one row per rank; bars are waits inside a collective from "
                                "enqueue to watchdog timeout, marks are timeouts, errors and "
                                "faults; the initiating rank's row is highlighted, collateral "
                                "ranks are dimmed";
    } else {
        // Zoom about the middle to a readable number of collectives, then bring the stuck
        // one into view (selecting it scrolls the axis there).
        for (int i = 0; i < 40 && view.axisMap().span() > kSeqWindow; ++i)
            view.zoomIn();
        if (stuckSeq >= 0)
            selection.selectSeq(stuckSeq);
        figure.fileName = "timeline-sequence.png";
        figure.figure.title = "Timeline by collective sequence number";
        figure.figure.caption = "each rank's progress on the stuck process group: completed "
                                "collectives, the enqueued-but-unfinished range, and the stuck "
                                "collective's column outlined";
    }
    figure.figure.pngBytes = pngOf(view);
    return figure;
}

std::optional<ExportFigure> heatmapFigure(const views::DocumentPtr& document)
{
    if (!document->pairs)
        return std::nullopt;
    views::SelectionState selection;
    views::PairHeatmapView view(&selection);
    view.setControlsVisible(false); // the plot only: the matrix, its axes and legend
    prepareOffscreen(view, kHeatmapSize);
    selection.setDocument(document);
    ExportFigure figure;
    figure.fileName = "rank-pairs.png";
    figure.figure.title = "Rank-pair heatmap";
    figure.figure.caption = "evidence of trouble between two ranks (row = from, column = to): "
                            "network errors naming the peer, stalled ring neighbours, waits; "
                            "the diagnosed pair is ringed";
    figure.figure.pngBytes = pngOf(view, QWidget::DrawWindowBackground);
    return figure;
}

} // namespace

std::vector<ExportFigure> renderReportFigures(const views::DocumentPtr& document)
{
    std::vector<ExportFigure> figures;
    if (!document || !document->bundle || !document->diagnosis)
        return figures;
    using Mode = views::RankTimelineView::AxisMode;
    for (Mode mode : { Mode::Time, Mode::Sequence }) {
        if (auto f = timelineFigure(document, mode))
            figures.push_back(std::move(*f));
    }
    if (auto f = heatmapFigure(document))
        figures.push_back(std::move(*f));
    return figures;
}

std::vector<ReportFigure> reportFigures(const std::vector<ExportFigure>& figures)
{
    std::vector<ReportFigure> out;
    out.reserve(figures.size());
    for (const ExportFigure& f : figures)
        out.push_back(f.figure);
    return out;
}

} // namespace rankscope::app
