#pragma once
// Drawing of the per-rank timeline (RankTimelineView): the scene (what the document says,
// per rank), the lane geometry cache, the painted-plot and overview caches, and the QPainter
// code for lanes, gutter, header, overview strip and legend. The view owns one
// TimelinePainter and handles interaction.
//
// Caches (STYLE [formats 11]):
//   - Lane geometry (boxes and merged marker glyphs of one rank or host lane, x only):
//       key   = (axis mode, visible axis range, plot width in px, row height (glyph size,
//                hence marker merging), scene generation);
//       fill  = lazily, only for rows that become visible (vertical scrolling reuses lanes);
//       inval = any key part changes: zoom/pan, resize, mode switch, new document or process
//               group (scene generation). Collapsing hosts or filtering ranks changes only
//               the RowLayout (y), never a lane, so it keeps the lane cache.
//   - Painted plot (a pixmap of the visible rows: backgrounds, grid, lanes, gutter labels,
//     sequence columns and frontier):
//       key   = (lane key, viewport size, header/footer/gutter sizes, vertical scroll, row
//                layout version, selected collective, device pixel ratio, style version);
//       inval = any key part changes. Hover, the selected rank's outline, the rubber band,
//               header and legend are drawn on top of it every frame and never invalidate
//               it, so moving the mouse over 4096 ranks repaints one pixmap.
//   - Overview strip (an image of the whole axis range, one pixel row per group of ranks):
//       key   = (axis mode, full axis range, strip size, scene generation, device pixel
//                ratio, style version);
//       inval = a new document or process group, a resize, an axis switch, a theme change.
//               Zooming and panning only move the window rectangle drawn on top.
//   - Marker glyph pixmaps (plain and "time inferred" variants): key = (device pixel ratio,
//     glyph size); inval = either changes.
//   - Style colours: rebuilt from the palette on QEvent::PaletteChange.

#include "model/timelinedata.h"
#include "views/bundledocument.h"
#include "views/timelineaxisrule.h"
#include "views/timelinecoords.h"

#include <QColor>
#include <QImage>
#include <QPalette>
#include <QPixmap>
#include <QRect>
#include <QString>
#include <QVector>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

class QPainter;

namespace rankscope::views {

enum class TimelineAxis : std::uint8_t { Time, Sequence };

// How the diagnosis casts a rank; drives row highlight and dimming.
enum class RankRole : std::uint8_t { Other, Initiating, Collateral };

// Colours of the timeline, derived from the palette so light and dark themes both read.
struct TimelineStyle {
    bool dark = false;
    QColor background, alternateBackground, headerBackground, text, mutedText, grid;
    QColor hostRow, hostText;
    QColor initiatingRow, initiatingAccent, selectedOutline;
    QColor span, stuckOutline, completed, waiting, timedOut, neverEntered, frontier;
    QColor columnHighlight, rubberBand;
    QColor hoverOverlay; // translucent, drawn over a hovered row
    QColor inferredHatch; // the hatching of a bar placed by an inferred time
    QColor overviewBackground, overviewShade; // the strip, and the dimming outside the window

    static TimelineStyle fromPalette(const QPalette& palette);
};

// Colour and legend label per marker kind and per op family (fixed hues that read on both
// light and dark backgrounds).
QColor markerColor(model::MarkerKind kind);
QString markerLabel(model::MarkerKind kind);
// Which marker a merged glyph shows (and a click picks): the one that explains a hang best.
int markerPriority(model::MarkerKind kind);
constexpr int kOpColorCount = 8;
int opColorIndex(model::OpType op); // 0 .. kOpColorCount-1
QColor opColor(int index);
QString opColorLabel(int index);

// One rank's row or one host's summary row on the x axis.
struct LaneBox {
    // Op: a collective coloured by its op (FR bars, COLL cells); OpStuck: the same with the
    // stuck-collective outline.
    enum class Style : std::uint8_t { Span, StuckSpan, Completed, Waiting, TimedOut, Op, OpStuck };
    float x0 = 0;
    float x1 = 0;
    Style style = Style::Span;
    std::uint8_t op = 0; // opColorIndex for Style::Op
    // Placed by a time copied from an earlier line (model::TimelineSpan::inferredTime):
    // drawn hatched with a dashed edge, so it does not read as a measured wait.
    bool inferred = false;
};

struct LaneGlyph {
    float x = 0;
    model::MarkerKind kind = model::MarkerKind::Info;
    std::uint16_t merged = 1; // markers folded into this glyph (sub-pixel merging)
    // Every marker folded into it has an inferred time (one measured time makes it a fact):
    // drawn hollow with a dotted edge.
    bool inferred = true;
};

struct LaneGeometry {
    std::vector<LaneBox> boxes;
    std::vector<LaneGlyph> glyphs;
    float frontierX = -1; // sequence axis: right edge of the last completed collective, -1 unknown
};

// What the document says, arranged for drawing; rebuilt when the document or the process
// group changes (generation counts rebuilds and keys the lane cache).
struct TimelineScene {
    DocumentPtr document;
    std::uint64_t generation = 0;
    std::vector<std::vector<std::int32_t>> ranksByGroup; // host groups in display order
    std::vector<QString> groupNames;
    std::vector<std::int32_t> groupOfRank;
    std::vector<RankRole> role;
    std::vector<QString> rankLabels; // "rank 7"
    std::vector<QString> rankNotes; // initiating ranks: their state, shown in an empty lane
    // Wall clock.
    bool hasTime = false;
    std::int64_t originNs = 0; // axis values are ns relative to this
    std::int64_t timeLo = 0, timeHi = 1; // full range, relative
    // Ranks with anything placed on the wall clock (a marker, a wait, a collective): the
    // default axis weighs this against rankCount().
    std::int32_t ranksWithTime = 0;
    // Sequence axis of the current process group.
    const model::SeqAxis* seqAxis = nullptr;
    QString pgKey;
    QString pgLabel; // "PG 0 (default_pg)"
    std::vector<SeqProgress> progress; // per rank on seqAxis
    std::int64_t seqLo = 0, seqHi = 1; // full range: [first seq, last seq + 1]
    std::int64_t stuckSeq = -1;
    model::OpType stuckOp = model::OpType::Unknown;
    // Ranks the diagnosis found never entered the stuck collective although no progress
    // line gives their position (their row is empty on the sequence axis).
    std::vector<std::int32_t> neverEnteredStuck;
    std::uint32_t markerKinds = 0; // bit per MarkerKind present
    std::uint32_t opColors = 0; // bit per op colour index present (sequence axis)
    std::uint32_t timeOpColors = 0; // same for the Flight Recorder bars of the time axis
    bool hasSpans = false;
    bool hasInferred = false; // a marker or a wait placed by an inferred time
    // Where each timed rank's row lies on the wall clock (relative ns), for the default-axis
    // rule.
    TimeSpread timeSpread;

    std::int32_t rankCount() const { return static_cast<std::int32_t>(role.size()); }
    // Where a rank stood on collective seq of this scene's process group.
    StepState state(std::int32_t rank, std::int64_t seq) const;
    static TimelineScene build(
        DocumentPtr document, const QString& processGroup, std::uint64_t generation);
    // What defaultTimelineAxis() decides from.
    TimelineAxisFacts axisFacts() const;
};

// Per-frame view state the painter needs.
struct TimelineFrame {
    TimelineAxis axis = TimelineAxis::Time;
    AxisMap map; // left = gutter width, width = plot width
    AxisMap overview; // the whole axis range over the same pixels (the overview strip)
    QSize size;
    int headerHeight = 0;
    int footerHeight = 0;
    int gutterWidth = 0;
    int rankRowHeight = 18;
    int scrollY = 0;
    const RowLayout* rows = nullptr;
    std::uint64_t rowsVersion = 0; // changes whenever *rows or *collapsed does
    const std::vector<bool>* collapsed = nullptr;
    int selectedRank = -1;
    std::int64_t selectedSeq = -1;
    int hoveredRow = -1;
    QRect rubberBand;
    QString notice; // e.g. the rank filter
    QString stepText;
    // The gutter beside the overview strip: "2.0 s of 5h 3m" (or "2.0 s" where that is too
    // wide).
    QString overviewSpan, overviewWhole;
};

// One entry of the legend under the plot.
struct TimelineLegendItem {
    QColor color;
    QString label;
    // 0 filled box, 1 filled outlined box, 2 line, 3 dashed box, 4 outline only, 5 hatched
    // box (time inferred), 8+ marker glyph (kind = shape - 8)
    int shape = 0;
};

class TimelinePainter {
public:
    static constexpr int kTitleHeight = 22; // top: axis title, step, filter notice
    static constexpr int kOverviewHeight = 26; // below the title: the overview strip
    static constexpr int kAxisHeight = 22; // below the overview: tick labels
    static constexpr int kLegendHeight = 22; // bottom: legend
    static int headerHeight() { return kTitleHeight + kOverviewHeight + kAxisHeight; }
    // The overview strip (whole axis range) in viewport coordinates.
    static QRect overviewStrip(const TimelineFrame& frame);
    // The visible window's rectangle on the strip (at least a few pixels wide).
    static QRect overviewWindow(const TimelineFrame& frame);

    // What the legend lists for this scene and axis, in order (what does not fit is left
    // out when painting).
    std::vector<TimelineLegendItem> legendItems(
        const TimelineScene& scene, const TimelineFrame& frame) const;

    void setStyle(const TimelineStyle& style)
    {
        m_style = style;
        ++m_styleVersion;
    }
    const TimelineStyle& style() const { return m_style; }

    void paint(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame);

    // Cached lane geometry (see the cache comment at the top of this file).
    const LaneGeometry& rankLane(
        const TimelineScene& scene, const TimelineFrame& frame, std::int32_t rank);
    const LaneGeometry& hostLane(
        const TimelineScene& scene, const TimelineFrame& frame, std::int32_t group);
    void invalidate()
    {
        m_key = {};
        m_plotKey = {};
        m_overviewKey = {};
    }
    // How often the painted plot and the overview image were rebuilt (tests, benchmarks).
    std::uint64_t plotBuilds() const { return m_plotBuilds; }
    std::uint64_t overviewBuilds() const { return m_overviewBuilds; }

    // Marker glyph edge in px for a row height; markers closer than this merge.
    static int glyphSize(int rowHeight) { return std::max(6, rowHeight - 7); }

private:
    struct LaneKey {
        TimelineAxis axis = TimelineAxis::Time;
        double start = 0, end = 0;
        int width = -1;
        int rowHeight = -1; // glyph size, hence marker merging, follows it
        std::uint64_t generation = ~std::uint64_t { 0 };
        bool operator==(const LaneKey&) const = default;
    };
    struct PlotKey {
        LaneKey lanes;
        QSize size;
        int headerHeight = -1, footerHeight = -1, gutterWidth = -1, scrollY = -1;
        std::uint64_t rowsVersion = 0;
        std::int64_t selectedSeq = -1;
        qreal dpr = 0;
        std::uint64_t styleVersion = 0;
        bool operator==(const PlotKey&) const = default;
    };
    struct OverviewKey {
        TimelineAxis axis = TimelineAxis::Time;
        double start = 0, end = 0;
        QSize size;
        std::uint64_t generation = ~std::uint64_t { 0 };
        qreal dpr = 0;
        std::uint64_t styleVersion = 0;
        bool operator==(const OverviewKey&) const = default;
    };
    void checkKey(const TimelineScene& scene, const TimelineFrame& frame);
    void paintPlot(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame,
        std::pair<int, int> rows);
    void paintOverview(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame);
    QImage overviewImage(const TimelineScene& scene, const TimelineFrame& frame, QSize size) const;
    void buildTimeLane(const TimelineScene& scene, const TimelineFrame& frame, std::int32_t rank,
        LaneGeometry& out) const;
    void buildSeqLane(const TimelineScene& scene, const TimelineFrame& frame, std::int32_t rank,
        LaneGeometry& out) const;
    void addMarkers(const TimelineScene& scene, const TimelineFrame& frame, std::int32_t rank,
        std::vector<std::pair<int, LaneGlyph>>& buckets) const;

    void paintRows(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame,
        std::pair<int, int> rows);
    void paintLane(QPainter& p, const LaneGeometry& lane, const QRect& rowRect, bool hostRow);
    void paintSeqColumns(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame,
        std::pair<int, int> rows);
    void paintFrontier(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame,
        std::pair<int, int> rows);
    void paintGutter(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame,
        std::pair<int, int> rows);
    void paintHeader(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame);
    void paintLegend(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame);
    void paintTimeTicks(
        QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, int y, bool gridOnly);
    void paintSeqTicks(
        QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, int y, bool gridOnly);
    int paintLegendItem(
        QPainter& p, int x, int y, const QColor& color, const QString& label, int shape);
    const QPixmap& glyph(model::MarkerKind kind, int size, qreal dpr, bool inferred = false);

    TimelineStyle m_style;
    std::uint64_t m_styleVersion = 1;
    LaneKey m_key;
    PlotKey m_plotKey;
    QPixmap m_plot;
    std::uint64_t m_plotBuilds = 0;
    OverviewKey m_overviewKey;
    QPixmap m_overview;
    std::uint64_t m_overviewBuilds = 0;
    std::vector<LaneGeometry> m_rankLanes;
    std::vector<std::uint8_t> m_rankLaneValid;
    std::vector<LaneGeometry> m_hostLanes;
    std::vector<std::uint8_t> m_hostLaneValid;
    std::array<QPixmap, 16> m_glyphs; // 8 kinds, then their inferred variants
    int m_glyphSize = 0;
    int m_glyphPx = 11; // glyph edge of the frame being painted
    qreal m_glyphDpr = 0;
};

} // namespace rankscope::views
