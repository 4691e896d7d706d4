#pragma once
// The per-rank collective timeline: one row per rank, grouped under collapsible host rows,
// on one of two x axes:
//   - Time:     wall clock (TimelineData::minTimeNs..maxTimeNs). Waits inside collectives as
//               bars (enqueue → watchdog timeout; the stuck collective outlined) and markers
//               for timeouts, crashes, hardware and network faults, launcher kills,
//               heartbeat and errors, merged when closer than a glyph.
//   - Sequence: collective sequence number of the selected process group. Completed
//               collectives as bars (coloured by op where NCCL COLL lines name it), the
//               enqueued-but-not-completed range in the waiting colour, the timed-out
//               collective marked, a "last completed" frontier across ranks, the stuck
//               collective's column outlined and dashed cells where a rank never entered.
// Above the rows an overview strip shows the whole axis range (every rank, squeezed into a
// few pixel rows) with the visible window outlined.
//
// Markers and waits placed by an inferred time (a line without its own timestamp) are drawn
// hollow / hatched, listed in the legend, and their tooltip says where the time came from.
//
// The default axis follows defaultTimelineAxis() (views/timelineaxisrule.h: sequence when
// few ranks are timed or the wall-clock span is squeezed); once the user picks an axis
// (menu, toolbar, T) that choice holds for the bundles opened after.
//
// The initiating rank(s) rows carry initiatingRowColor(), collateral rows are dimmed, the
// selected rank is outlined. All selection and the time zoom live in SelectionState.
//
// Mouse and keys (also in toolBarActions()):
//   Ctrl+wheel          zoom about the cursor     wheel / Shift+wheel   scroll rows / pan x
//   + / - (Ctrl too)    zoom in / out about the mouse on the plot, else the selected
//                       collective or event when visible, else the middle
//   Ctrl+0, 0, F        fit all                   Left / Right          pan by 1/8 width
//   left drag           pan (x and rows)          Shift+drag, right drag  rubber-band zoom
//   overview strip      click: centre the view there; drag: move the window
//   click               select the event under the cursor (or the rank; a collective on the
//                       sequence axis); click a host row to collapse or expand it
//   N / Alt+Right       next collective           P / Alt+Left          previous collective
//   T                   toggle time / sequence    Esc                   show all ranks again
//   Up / Down           select previous / next rank
//   Home / End          select the first / last rank row
//   Ctrl+G              go to a rank (asks for its number)
// Zoom is bounded: at most the whole axis (plus 5 % margins) and at least 1 µs of wall clock
// or 3 collectives.

#include "views/selectionstate.h"
#include "views/timelinecoords.h"
#include "views/timelinepainter.h"

#include <QAbstractScrollArea>
#include <QList>
#include <QMetaType>
#include <QPoint>
#include <QVector>

#include <memory>
#include <optional>
#include <utility>

class QAction;

namespace rankscope::views {

// Where every rank stood on one collective (stepping); a status bar prints summary().
struct StepInfo {
    qint64 seq = -1;
    QString processGroup; // PG key
    QString op; // "ALLREDUCE" when known
    QVector<int> completed;
    QVector<int> waiting; // enqueued, not completed
    QVector<int> neverEntered; // never enqueued it
    QVector<int> unknown; // no progress logged
    // "ALLREDUCE #198 (PG 0): 30 completed, 1 waiting (rank 5), 1 never entered (rank 7)"
    QString summary() const;
};

class RankTimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    enum class AxisMode { Time, Sequence };
    Q_ENUM(AxisMode)

    explicit RankTimelineView(SelectionState* selection, QWidget* parent = nullptr);
    ~RankTimelineView() override;

    AxisMode axisMode() const { return m_mode; }
    // The axis the user last asked for (a key, a button, a menu, setAxisMode()); nullopt while
    // the view shows the axis it picked for the bundle. A bundle without wall-clock times
    // shows the sequence axis even when the user chose time.
    std::optional<AxisMode> chosenAxisMode() const { return m_chosenMode; }
    StepInfo stepInfo() const;
    // Mode switch, zoom, fit and stepping as actions, for a toolbar or a menu.
    QList<QAction*> toolBarActions() const;

    // The warm row colour of the initiating rank(s) (gutter and lane background).
    static QColor initiatingRowColor(const QPalette& palette);

    // Geometry in viewport coordinates, for tests and for callers that point at things.
    int headerHeight() const;
    int gutterWidth() const { return m_gutterWidth; }
    int rankRowHeight() const { return m_rowParams.rankRowHeight; }
    QRect rowRect(int rank) const; // whole row incl. gutter; null when hidden
    QRect hostRowRect(int group) const; // null when hidden
    double timeToX(qint64 ns) const; // absolute ns (time axis)
    double seqToX(double seq) const; // left edge of a collective's cell (sequence axis)
    const RowLayout& rowLayout() const { return m_rows; }
    const TimelineScene& scene() const { return m_scene; }
    const TimelinePainter& painter() const { return m_painter; }
    AxisMap axisMap() const;
    AxisMap overviewMap() const; // the whole axis range over the plot's pixels
    QRect overviewRect() const; // the overview strip
    QRect overviewWindowRect() const; // the visible window on it
    QString toolTipAt(const QPoint& viewportPos) const;
    bool isHostCollapsed(int group) const;

public Q_SLOTS:
    void setAxisMode(rankscope::views::RankTimelineView::AxisMode mode);
    void showTimeAxis();
    void showSequenceAxis();
    void toggleAxisMode();
    void zoomIn();
    void zoomOut();
    void fitAll();
    void nextCollective();
    void previousCollective();
    void clearRankFilter();
    void setHostCollapsed(int group, bool collapsed);
    void toggleHost(int group);
    // Selects `rank` and scrolls its row into view (expanding its host, clearing a rank filter
    // that hides it); false when the bundle has no such rank.
    bool goToRank(int rank);
    // Ctrl+G: a small dialog (objectName "goToRankDialog") asking which rank to go to.
    void askGoToRank();
    void selectFirstRank();
    void selectLastRank();

Q_SIGNALS:
    // The axis shown changed, by the user's choice or for a new bundle.
    void axisModeChanged(rankscope::views::RankTimelineView::AxisMode mode);
    // The user chose an axis (also the one already shown); never emitted for the axis the
    // view picks for a new bundle. `mode` is what was asked for, as chosenAxisMode() says.
    void axisModeChosen(rankscope::views::RankTimelineView::AxisMode mode);
    void stepChanged(const rankscope::views::StepInfo& step);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Hit {
        int row = -1;
        int rank = -1;
        int group = -1;
        int event = -1; // Bundle::events index
        qint64 seq = -1; // sequence axis cell
        int collective = -1; // TimelineData::collectives(rank) index (Flight Recorder bar)
        bool gutter = false;
    };

    QString collectiveToolTip(const Hit& hit) const; // "" without a Flight Recorder bar
    QString inferredTimeNote(const model::Event& e, bool bar) const;
    std::pair<double, double> fullRange(AxisMode mode) const; // zoom-out limit, with margins
    double zoomAnchorX() const;
    bool inOverview(const QPoint& pos) const;
    void moveOverviewWindow(double x);
    void onDocumentChanged();
    void rebuildScene();
    void rebuildRows();
    void updateScrollBars();
    void updateGutterWidth();
    void setAxisRange(double start, double end); // current mode's units; clamps, syncs
    void syncFromSelectionTime();
    void applyMap(const AxisMap& map); // current mode
    void applyMap(const AxisMap& map, AxisMode mode); // map.start/end in that mode's units
    void selectSeq(qint64 seq);
    void ensureSeqVisible(qint64 seq);
    void ensureRankVisible(int rank);
    void revealPendingRank();
    void emitStep();
    void stepRank(int delta);
    void selectEdgeRank(bool last);
    AxisMode defaultAxisMode() const;
    Hit hitTest(const QPoint& pos) const;
    int markerNear(int rank, double x) const; // event index or -1
    int plotWidth() const;
    TimelineFrame frame() const;
    void updateActions();

    SelectionState* m_selection;
    TimelinePainter m_painter;
    TimelineScene m_scene;
    std::uint64_t m_generation = 0;
    AxisMode m_mode = AxisMode::Time;
    std::optional<AxisMode> m_chosenMode; // set once the user picks an axis
    RowLayout m_rows;
    std::uint64_t m_rowsVersion = 0; // keys the painted-plot cache
    RowLayout::Params m_rowParams;
    std::vector<bool> m_collapsed; // per host group
    int m_gutterWidth = 120;
    // Visible range per mode: ns relative to scene.originNs, or sequence numbers. The time
    // range mirrors SelectionState's visible range (absolute ns) so other views can zoom it.
    double m_timeStart = 0, m_timeEnd = 1;
    double m_seqStart = 0, m_seqEnd = 1;
    bool m_syncingScrollBar = false;
    // Mouse.
    enum class Drag { None, Pending, Pan, Rubber, Overview };
    Drag m_drag = Drag::None;
    double m_overviewGrab = 0; // overview drag: grabbed value minus the window's start
    QPoint m_pressPos;
    QPoint m_lastPos;
    QPoint m_mousePos { -1, -1 }; // over the viewport, for zooming by keys; (-1, -1) outside
    QRect m_rubberBand;
    int m_hoveredRow = -1;
    int m_revealRank = -1; // scrolled to once the viewport has a size
    // Actions.
    QAction* m_timeAction = nullptr;
    QAction* m_seqAction = nullptr;
    QList<QAction*> m_actions;
};

} // namespace rankscope::views

Q_DECLARE_METATYPE(rankscope::views::StepInfo)
