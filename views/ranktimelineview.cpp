#include "views/ranktimelineview.h"

#include "model/bundle.h"
#include "model/countwords.h"
#include "model/ranklist.h"
#include "views/screentooltip.h"
#include "views/theme.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QHelpEvent>
#include <QInputDialog>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rankscope::views {

namespace {

// The horizontal scroll bar maps the full axis range onto this many steps (ns would
// overflow an int scroll bar).
constexpr int kScrollSteps = 100000;
constexpr double kZoomStep = 1.25;
constexpr double kMinTimeSpanNs = 1000.0; // 1 µs
constexpr double kMinSeqSpan = 3.0;

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<int>(v.size()));
}

QString rankList(const QVector<int>& ranks)
{
    return QString::fromStdString(
        model::formatRanks(std::vector<std::int32_t>(ranks.begin(), ranks.end())));
}

QString durationText(std::int64_t ns)
{
    return QString::fromStdString(formatDuration(ns));
}

} // namespace

QString StepInfo::summary() const
{
    if (seq < 0)
        return {};
    QString text
        = (op.isEmpty() ? QStringLiteral("Collective") : op) + QStringLiteral(" #%1").arg(seq);
    if (!processGroup.isEmpty())
        text += QStringLiteral(" (PG ") + processGroup + QLatin1Char(')');
    QStringList parts;
    parts << QStringLiteral("%1 completed").arg(completed.size());
    auto listed = [&parts](const QVector<int>& ranks, const QString& what) {
        if (ranks.isEmpty())
            return;
        QString part = QStringLiteral("%1 ").arg(ranks.size()) + what;
        if (ranks.size() <= 16)
            part += QStringLiteral(" (")
                + (ranks.size() == 1 ? QStringLiteral("rank ") : QStringLiteral("ranks "))
                + rankList(ranks) + QLatin1Char(')');
        parts << part;
    };
    listed(waiting, QStringLiteral("waiting"));
    listed(neverEntered, QStringLiteral("never entered"));
    listed(unknown, QStringLiteral("unknown"));
    return text + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

RankTimelineView::RankTimelineView(SelectionState* selection, QWidget* parent)
    : QAbstractScrollArea(parent)
    , m_selection(selection)
{
    qRegisterMetaType<rankscope::views::StepInfo>();
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    horizontalScrollBar()->setRange(0, 0);
    m_painter.setStyle(TimelineStyle::fromPalette(palette()));
    setMinimumSize(320, 160);

    connect(horizontalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (m_syncingScrollBar)
            return;
        const auto [lo, hi] = fullRange(m_mode);
        const double span
            = m_mode == AxisMode::Time ? m_timeEnd - m_timeStart : m_seqEnd - m_seqStart;
        const double start = lo + (hi - lo) * value / kScrollSteps;
        setAxisRange(start, start + span);
    });

    connect(
        m_selection, &SelectionState::documentChanged, this, &RankTimelineView::onDocumentChanged);
    connect(m_selection, &SelectionState::processGroupChanged, this, [this] {
        rebuildScene();
        emitStep();
    });
    connect(m_selection, &SelectionState::visibleTimeRangeChanged, this,
        &RankTimelineView::syncFromSelectionTime);
    connect(m_selection, &SelectionState::rankFilterChanged, this, &RankTimelineView::rebuildRows);
    connect(m_selection, &SelectionState::loadingChanged, viewport(),
        QOverload<>::of(&QWidget::update));
    connect(m_selection, &SelectionState::rankSelected, this, [this](int rank) {
        ensureRankVisible(rank);
        viewport()->update();
    });
    connect(m_selection, &SelectionState::eventSelected, this, [this](int index) {
        // Bring a selected event into view (root-cause evidence, log viewer) without zooming.
        const DocumentPtr& doc = m_scene.document;
        if (index >= 0 && doc && doc->bundle && m_mode == AxisMode::Time && m_scene.hasTime) {
            const model::Event& e = doc->bundle->events[static_cast<std::size_t>(index)];
            if (model::onWallClockAxis(e.time)) {
                const double t = static_cast<double>(e.time.ns - m_scene.originNs);
                if (t < m_timeStart || t > m_timeEnd) {
                    const double span = m_timeEnd - m_timeStart;
                    setAxisRange(t - span / 2, t + span / 2);
                }
            }
        }
        viewport()->update();
    });
    connect(m_selection, &SelectionState::seqSelected, this, [this](qint64 seq) {
        ensureSeqVisible(seq);
        emitStep();
        viewport()->update();
    });

    // Actions for a toolbar or menu. No shortcuts on them: the keys are handled while the
    // timeline has focus (keyPressEvent), so N or F typed into another view never steps here.
    auto makeAction = [this](const QString& text, const QString& tip, auto slot) {
        auto* a = new QAction(text, this);
        a->setToolTip(tip);
        connect(a, &QAction::triggered, this, slot);
        m_actions << a;
        return a;
    };
    auto* modes = new QActionGroup(this);
    m_timeAction = makeAction(
        tr("Time"), tr("X axis: wall-clock time (T toggles)"), &RankTimelineView::showTimeAxis);
    m_seqAction = makeAction(tr("Sequence"), tr("X axis: collective sequence number (T toggles)"),
        &RankTimelineView::showSequenceAxis);
    for (QAction* a : { m_timeAction, m_seqAction }) {
        a->setCheckable(true);
        modes->addAction(a);
    }
    makeAction(tr("Zoom In"), tr("Zoom in (+, Ctrl+wheel)"), &RankTimelineView::zoomIn);
    makeAction(tr("Zoom Out"), tr("Zoom out (-, Ctrl+wheel)"), &RankTimelineView::zoomOut);
    makeAction(tr("Fit All"), tr("Show everything (F)"), &RankTimelineView::fitAll);
    makeAction(tr("Previous Collective"), tr("Step to the previous collective (P, Alt+Left)"),
        &RankTimelineView::previousCollective);
    makeAction(tr("Next Collective"), tr("Step to the next collective (N, Alt+Right)"),
        &RankTimelineView::nextCollective);
    updateActions();
    updateGutterWidth();
    if (m_selection->document())
        onDocumentChanged();
}

RankTimelineView::~RankTimelineView() = default;

QList<QAction*> RankTimelineView::toolBarActions() const
{
    return m_actions;
}

QColor RankTimelineView::initiatingRowColor(const QPalette& palette)
{
    return TimelineStyle::fromPalette(palette).initiatingRow;
}

// ---------------------------------------------------------------------------------------
// Document, scene, rows

void RankTimelineView::onDocumentChanged()
{
    m_scene = {};
    rebuildScene();
    m_collapsed.assign(m_scene.ranksByGroup.size(), false);
    updateGutterWidth();
    rebuildRows();
    m_timeStart = m_scene.timeLo;
    m_timeEnd = m_scene.timeHi;
    const AxisMode mode = defaultAxisMode();
    if (mode != m_mode) {
        m_mode = mode;
        Q_EMIT axisModeChanged(m_mode);
    }
    updateActions();
    m_seqStart = m_scene.seqLo - 0.5;
    m_seqEnd = m_scene.seqHi + 0.5;
    if (m_scene.hasTime) {
        // A fresh document shows everything with a little room at both ends, so the markers
        // at the edges are not cut in half; the padded range goes back to SelectionState.
        const double pad = (m_scene.timeHi - m_scene.timeLo) * 0.02;
        AxisMap m = axisMap();
        m.start = m_scene.timeLo - pad;
        m.end = m_scene.timeHi + pad;
        applyMap(m, AxisMode::Time);
    }
    updateScrollBars();
    verticalScrollBar()->setValue(0);
    // Open where the answer is: the first initiating rank's row in the middle of the view
    // (once the viewport has its size, if it has none yet).
    m_revealRank = -1;
    if (m_scene.document && m_scene.document->diagnosis
        && !m_scene.document->diagnosis->initiatingRanks.empty())
        m_revealRank = m_scene.document->diagnosis->initiatingRanks.front();
    revealPendingRank();
    emitStep();
    viewport()->update();
}

void RankTimelineView::rebuildScene()
{
    m_scene = TimelineScene::build(
        m_selection->document(), m_selection->processGroup(), ++m_generation);
    m_painter.invalidate();
    if (m_collapsed.size() != m_scene.ranksByGroup.size())
        m_collapsed.assign(m_scene.ranksByGroup.size(), false);
    m_seqStart = m_scene.seqLo - 0.5;
    m_seqEnd = m_scene.seqHi + 0.5;
    updateScrollBars();
    viewport()->update();
}

void RankTimelineView::rebuildRows()
{
    const QVector<int>& filter = m_selection->rankFilter();
    m_rows = RowLayout::build(m_scene.ranksByGroup, m_collapsed,
        std::vector<std::int32_t>(filter.begin(), filter.end()), m_scene.rankCount(), m_rowParams);
    ++m_rowsVersion;
    m_hoveredRow = -1;
    updateScrollBars();
    viewport()->update();
}

void RankTimelineView::updateGutterWidth()
{
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    int w
        = bfm.horizontalAdvance(QStringLiteral("rank %1").arg(std::max(9999, m_scene.rankCount())));
    for (const QString& host : m_scene.groupNames)
        w = std::max(w,
            std::min(
                bfm.horizontalAdvance(host) + fm.horizontalAdvance(QStringLiteral(" 0000")), 170));
    m_gutterWidth = std::max(110, 22 + w + 12);
    m_rowParams.rankRowHeight = std::max(16, fm.height() + 4);
    m_rowParams.hostRowHeight = m_rowParams.rankRowHeight + 4;
}

bool RankTimelineView::isHostCollapsed(int group) const
{
    return group >= 0 && static_cast<std::size_t>(group) < m_collapsed.size()
        && m_collapsed[static_cast<std::size_t>(group)];
}

void RankTimelineView::setHostCollapsed(int group, bool collapsed)
{
    if (group < 0 || static_cast<std::size_t>(group) >= m_collapsed.size()
        || isHostCollapsed(group) == collapsed)
        return;
    m_collapsed[static_cast<std::size_t>(group)] = collapsed;
    rebuildRows();
}

void RankTimelineView::toggleHost(int group)
{
    setHostCollapsed(group, !isHostCollapsed(group));
}

void RankTimelineView::clearRankFilter()
{
    if (!m_selection->rankFilter().isEmpty())
        m_selection->setRankFilter({});
}

// ---------------------------------------------------------------------------------------
// Axis

int RankTimelineView::headerHeight() const
{
    return TimelinePainter::headerHeight();
}

int RankTimelineView::plotWidth() const
{
    return std::max(10, viewport()->width() - m_gutterWidth - 2);
}

AxisMap RankTimelineView::axisMap() const
{
    AxisMap m;
    m.left = m_gutterWidth;
    m.width = plotWidth();
    if (m_mode == AxisMode::Time) {
        m.start = m_timeStart;
        m.end = m_timeEnd;
    } else {
        m.start = m_seqStart;
        m.end = m_seqEnd;
    }
    if (m.end <= m.start)
        m.end = m.start + 1;
    return m;
}

AxisMap RankTimelineView::overviewMap() const
{
    AxisMap m = axisMap();
    const auto [lo, hi] = fullRange(m_mode);
    m.start = lo;
    m.end = hi > lo ? hi : lo + 1;
    return m;
}

QRect RankTimelineView::overviewRect() const
{
    return TimelinePainter::overviewStrip(frame());
}

QRect RankTimelineView::overviewWindowRect() const
{
    return TimelinePainter::overviewWindow(frame());
}

bool RankTimelineView::inOverview(const QPoint& pos) const
{
    // The whole band around the strip takes the click, not just the image's pixels.
    return m_scene.document && pos.x() >= m_gutterWidth && pos.y() >= TimelinePainter::kTitleHeight
        && pos.y() < TimelinePainter::kTitleHeight + TimelinePainter::kOverviewHeight
        && (m_mode == AxisMode::Time ? m_scene.hasTime : m_scene.seqAxis != nullptr);
}

void RankTimelineView::moveOverviewWindow(double x)
{
    // The value under the mouse keeps its place inside the window while dragging.
    const AxisMap m = axisMap();
    const double start = overviewMap().toValue(x) - m_overviewGrab;
    setAxisRange(start, start + m.span());
}

double RankTimelineView::timeToX(qint64 ns) const
{
    AxisMap m = axisMap();
    m.start = m_timeStart;
    m.end = m_timeEnd;
    return m.toX(static_cast<double>(ns - m_scene.originNs));
}

double RankTimelineView::seqToX(double seq) const
{
    AxisMap m = axisMap();
    m.start = m_seqStart;
    m.end = m_seqEnd;
    return m.toX(seq);
}

void RankTimelineView::setAxisRange(double start, double end)
{
    AxisMap m = axisMap();
    m.start = start;
    m.end = end;
    applyMap(m);
}

void RankTimelineView::applyMap(const AxisMap& map)
{
    applyMap(map, m_mode);
}

std::pair<double, double> RankTimelineView::fullRange(AxisMode mode) const
{
    const bool time = mode == AxisMode::Time;
    const double lo = time ? m_scene.timeLo : m_scene.seqLo;
    const double hi = time ? m_scene.timeHi : m_scene.seqHi;
    // Some room beyond the data so the first and last marker are not cut in half.
    const double margin = (hi - lo) * 0.05 + (time ? 0.0 : 1.0);
    return { lo - margin, hi + margin };
}

void RankTimelineView::applyMap(const AxisMap& map, AxisMode mode)
{
    const bool time = mode == AxisMode::Time;
    const auto [lo, hi] = fullRange(mode);
    const AxisMap c = map.clamped(lo, hi, time ? kMinTimeSpanNs : kMinSeqSpan);
    if (time) {
        m_timeStart = c.start;
        m_timeEnd = c.end;
        if (m_scene.hasTime)
            m_selection->setVisibleTimeRange(
                m_scene.originNs + std::llround(c.start), m_scene.originNs + std::llround(c.end));
    } else {
        m_seqStart = c.start;
        m_seqEnd = c.end;
    }
    updateScrollBars();
    viewport()->update();
}

void RankTimelineView::syncFromSelectionTime()
{
    if (!m_scene.hasTime)
        return;
    const double start = static_cast<double>(m_selection->visibleStartNs() - m_scene.originNs);
    const double end = static_cast<double>(m_selection->visibleEndNs() - m_scene.originNs);
    if (end <= start || (std::abs(start - m_timeStart) < 1.0 && std::abs(end - m_timeEnd) < 1.0))
        return;
    m_timeStart = start;
    m_timeEnd = end;
    updateScrollBars();
    viewport()->update();
}

void RankTimelineView::updateScrollBars()
{
    m_syncingScrollBar = true;
    const int plotHeight
        = std::max(0, viewport()->height() - headerHeight() - TimelinePainter::kLegendHeight);
    verticalScrollBar()->setRange(0, std::max(0, m_rows.totalHeight() - plotHeight));
    verticalScrollBar()->setPageStep(std::max(1, plotHeight));
    verticalScrollBar()->setSingleStep(m_rowParams.rankRowHeight);

    const bool time = m_mode == AxisMode::Time;
    const auto [lo, hi] = fullRange(m_mode);
    const double full = std::max(1e-9, hi - lo);
    const double start = time ? m_timeStart : m_seqStart;
    const double span = time ? m_timeEnd - m_timeStart : m_seqEnd - m_seqStart;
    const int page
        = std::clamp(static_cast<int>(std::lround(span / full * kScrollSteps)), 1, kScrollSteps);
    QScrollBar* h = horizontalScrollBar();
    h->setRange(0, kScrollSteps - page);
    h->setPageStep(page);
    h->setSingleStep(std::max(1, page / 10));
    h->setValue(static_cast<int>(std::lround((start - lo) / full * kScrollSteps)));
    m_syncingScrollBar = false;
}

RankTimelineView::AxisMode RankTimelineView::defaultAxisMode() const
{
    if (!m_scene.hasTime)
        return AxisMode::Sequence;
    if (m_chosenMode)
        return *m_chosenMode;
    // The rule and its reasons: views/timelineaxisrule.h.
    return defaultTimelineAxis(m_scene.axisFacts()) == TimelineAxisChoice::Time
        ? AxisMode::Time
        : AxisMode::Sequence;
}

void RankTimelineView::setAxisMode(AxisMode mode)
{
    m_chosenMode = mode; // every caller is a user's choice; a new document uses the default
    Q_EMIT axisModeChosen(mode);
    if (mode == AxisMode::Time && !m_scene.hasTime)
        mode = AxisMode::Sequence;
    if (mode == m_mode) {
        updateActions();
        return;
    }
    m_mode = mode;
    updateActions();
    updateScrollBars();
    viewport()->update();
    Q_EMIT axisModeChanged(mode);
}

void RankTimelineView::showTimeAxis()
{
    setAxisMode(AxisMode::Time);
}

void RankTimelineView::showSequenceAxis()
{
    setAxisMode(AxisMode::Sequence);
}

void RankTimelineView::toggleAxisMode()
{
    setAxisMode(m_mode == AxisMode::Time ? AxisMode::Sequence : AxisMode::Time);
}

void RankTimelineView::updateActions()
{
    if (!m_timeAction)
        return;
    m_timeAction->setEnabled(m_scene.hasTime || !m_scene.document);
    m_timeAction->setChecked(m_mode == AxisMode::Time);
    m_seqAction->setChecked(m_mode == AxisMode::Sequence);
}

double RankTimelineView::zoomAnchorX() const
{
    const AxisMap m = axisMap();
    auto inPlot = [&m](double x) { return x >= m.left && x <= m.left + m.width; };
    // The mouse, when it rests on the plot (keys pressed while pointing at something): where
    // the last move over this viewport left it, forgotten when it leaves.
    const QPoint cursor = m_mousePos;
    if (cursor.y() >= headerHeight()
        && cursor.y() < viewport()->height() - TimelinePainter::kLegendHeight && inPlot(cursor.x()))
        return cursor.x();
    // Else the current position: the selected collective's cell, or the selected event.
    if (m_mode == AxisMode::Sequence && m_selection->selectedSeq() >= 0) {
        const double x = seqToX(static_cast<double>(m_selection->selectedSeq()) + 0.5);
        if (inPlot(x))
            return x;
    }
    const DocumentPtr& doc = m_scene.document;
    const int event = m_selection->selectedEvent();
    if (m_mode == AxisMode::Time && m_scene.hasTime && event >= 0 && doc && doc->bundle
        && static_cast<std::size_t>(event) < doc->bundle->events.size()) {
        const model::TimePoint& t = doc->bundle->events[static_cast<std::size_t>(event)].time;
        if (model::onWallClockAxis(t)) {
            const double x = timeToX(t.ns);
            if (inPlot(x))
                return x;
        }
    }
    return m.left + m.width / 2;
}

void RankTimelineView::zoomIn()
{
    applyMap(axisMap().zoomedAbout(zoomAnchorX(), kZoomStep));
}

void RankTimelineView::zoomOut()
{
    applyMap(axisMap().zoomedAbout(zoomAnchorX(), 1.0 / kZoomStep));
}

void RankTimelineView::fitAll()
{
    if (m_mode == AxisMode::Time) {
        const double pad = (m_scene.timeHi - m_scene.timeLo) * 0.02;
        setAxisRange(m_scene.timeLo - pad, m_scene.timeHi + pad);
    } else {
        setAxisRange(m_scene.seqLo - 0.5, m_scene.seqHi + 0.5);
    }
}

// ---------------------------------------------------------------------------------------
// Stepping

void RankTimelineView::nextCollective()
{
    if (!m_scene.seqAxis)
        return;
    const qint64 cur = m_selection->selectedSeq();
    selectSeq(cur < 0 ? (m_scene.stuckSeq >= 0 ? m_scene.stuckSeq : m_scene.seqLo) : cur + 1);
}

void RankTimelineView::previousCollective()
{
    if (!m_scene.seqAxis)
        return;
    const qint64 cur = m_selection->selectedSeq();
    selectSeq(cur < 0 ? (m_scene.stuckSeq >= 0 ? m_scene.stuckSeq : m_scene.seqHi - 1) : cur - 1);
}

void RankTimelineView::selectSeq(qint64 seq)
{
    m_selection->selectSeq(std::clamp<qint64>(seq, m_scene.seqLo, m_scene.seqHi - 1));
}

void RankTimelineView::ensureSeqVisible(qint64 seq)
{
    if (seq < 0 || m_mode != AxisMode::Sequence)
        return;
    const double span = m_seqEnd - m_seqStart;
    if (static_cast<double>(seq) < m_seqStart)
        setAxisRange(static_cast<double>(seq) - span * 0.1, static_cast<double>(seq) + span * 0.9);
    else if (static_cast<double>(seq + 1) > m_seqEnd)
        setAxisRange(
            static_cast<double>(seq + 1) - span * 0.9, static_cast<double>(seq + 1) + span * 0.1);
}

void RankTimelineView::revealPendingRank()
{
    if (m_revealRank < 0
        || viewport()->height()
            < headerHeight() + TimelinePainter::kLegendHeight + 4 * m_rowParams.rankRowHeight)
        return;
    const int row = m_rows.rowOfRank(m_revealRank);
    m_revealRank = -1;
    if (row < 0)
        return;
    const int plotHeight = viewport()->height() - headerHeight() - TimelinePainter::kLegendHeight;
    if (m_rows.top(row) + m_rows.height(row) > plotHeight)
        verticalScrollBar()->setValue(m_rows.top(row) - plotHeight / 2);
}

void RankTimelineView::ensureRankVisible(int rank)
{
    if (rank < 0 || rank >= m_scene.rankCount())
        return;
    if (m_rows.rowOfRank(rank) < 0) {
        const std::int32_t group = m_scene.groupOfRank[static_cast<std::size_t>(rank)];
        if (isHostCollapsed(group))
            setHostCollapsed(group, false);
    }
    const int row = m_rows.rowOfRank(rank);
    if (row < 0)
        return;
    const int plotHeight = viewport()->height() - headerHeight() - TimelinePainter::kLegendHeight;
    const int y = m_rows.top(row);
    QScrollBar* v = verticalScrollBar();
    if (y < v->value())
        v->setValue(y - m_rowParams.hostRowHeight);
    else if (y + m_rows.height(row) > v->value() + plotHeight)
        v->setValue(y + m_rows.height(row) - plotHeight + m_rowParams.rankRowHeight);
}

StepInfo RankTimelineView::stepInfo() const
{
    StepInfo info;
    info.seq = m_selection->selectedSeq();
    if (info.seq < 0 || !m_scene.seqAxis)
        return info;
    info.processGroup = m_scene.pgKey;
    model::OpType op = info.seq == m_scene.stuckSeq ? m_scene.stuckOp : model::OpType::Unknown;
    for (const model::SeqRow& row : m_scene.seqAxis->rows) {
        if (op != model::OpType::Unknown)
            break;
        if (row.timeoutSeq == info.seq)
            op = row.timeoutOp;
        for (const auto& [seq, o] : row.recent)
            if (seq == info.seq)
                op = o;
    }
    if (op != model::OpType::Unknown)
        info.op = fromView(model::torchName(op));
    for (std::int32_t r = 0; r < m_scene.rankCount(); ++r) {
        switch (m_scene.state(r, info.seq)) {
        case StepState::Completed:
            info.completed << r;
            break;
        case StepState::Waiting:
            info.waiting << r;
            break;
        case StepState::NeverEntered:
            info.neverEntered << r;
            break;
        case StepState::Unknown:
            info.unknown << r;
            break;
        }
    }
    return info;
}

void RankTimelineView::emitStep()
{
    Q_EMIT stepChanged(stepInfo());
}

void RankTimelineView::selectEdgeRank(bool last)
{
    for (int i = 0; i < m_rows.count(); ++i) {
        const int row = last ? m_rows.count() - 1 - i : i;
        if (m_rows.row(row).kind == TimelineRow::Kind::Rank) {
            m_selection->selectRank(m_rows.row(row).rank);
            ensureRankVisible(m_rows.row(row).rank);
            return;
        }
    }
}

void RankTimelineView::selectFirstRank()
{
    selectEdgeRank(false);
}

void RankTimelineView::selectLastRank()
{
    selectEdgeRank(true);
}

bool RankTimelineView::goToRank(int rank)
{
    if (rank < 0 || rank >= m_scene.rankCount())
        return false;
    const QVector<int>& filter = m_selection->rankFilter();
    if (!filter.isEmpty() && !filter.contains(rank))
        m_selection->setRankFilter({});
    m_selection->selectRank(rank);
    ensureRankVisible(rank); // also when it was selected already and no signal came
    viewport()->update();
    return true;
}

void RankTimelineView::askGoToRank()
{
    if (m_scene.rankCount() == 0)
        return;
    // Not modal-blocking (open(), not exec()): the window keeps painting behind it.
    auto* dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("goToRankDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Go to Rank"));
    dialog->setLabelText(tr("Rank (0–%1):").arg(m_scene.rankCount() - 1));
    dialog->setInputMode(QInputDialog::IntInput);
    dialog->setIntRange(0, m_scene.rankCount() - 1);
    dialog->setIntValue(std::max(0, m_selection->selectedRank()));
    connect(dialog, &QInputDialog::intValueSelected, this, [this](int rank) {
        goToRank(rank);
        setFocus(Qt::OtherFocusReason);
    });
    dialog->open();
}

void RankTimelineView::stepRank(int delta)
{
    if (m_rows.count() == 0)
        return;
    int row = m_rows.rowOfRank(m_selection->selectedRank());
    for (int i = 0; i < m_rows.count(); ++i) {
        row = row < 0 ? (delta > 0 ? 0 : m_rows.count() - 1) : row + delta;
        if (row < 0 || row >= m_rows.count())
            return;
        if (m_rows.row(row).kind == TimelineRow::Kind::Rank) {
            m_selection->selectRank(m_rows.row(row).rank);
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Geometry, hit testing, tooltips

QRect RankTimelineView::rowRect(int rank) const
{
    const int row = m_rows.rowOfRank(rank);
    if (row < 0)
        return {};
    return QRect(0, headerHeight() + m_rows.top(row) - verticalScrollBar()->value(),
        viewport()->width(), m_rows.height(row));
}

QRect RankTimelineView::hostRowRect(int group) const
{
    const int row = m_rows.rowOfGroup(group);
    if (row < 0)
        return {};
    return QRect(0, headerHeight() + m_rows.top(row) - verticalScrollBar()->value(),
        viewport()->width(), m_rows.height(row));
}

int RankTimelineView::markerNear(int rank, double x) const
{
    const DocumentPtr& doc = m_scene.document;
    if (!doc || !doc->timeline || !m_scene.hasTime)
        return -1;
    const model::TimelineData& t = *doc->timeline;
    const AxisMap m = axisMap();
    const double tol = TimelinePainter::glyphSize(m_rowParams.rankRowHeight) / 2.0 + 1.0;
    const auto t0 = m_scene.originNs + static_cast<std::int64_t>(std::floor(m.toValue(x - tol)));
    const auto t1 = m_scene.originNs + static_cast<std::int64_t>(std::ceil(m.toValue(x + tol)));
    const std::size_t first = t.firstMarkerAtOrAfter(rank, t0);
    const std::size_t end = std::min(t.endMarkerAtOrBefore(rank, t1), first + 256);
    int best = -1;
    int bestPriority = -1;
    double bestDistance = 0;
    for (std::size_t i = first; i < end; ++i) {
        const model::TimelineMarker& mk = t.markers(rank)[i];
        const double d = std::abs(m.toX(static_cast<double>(mk.timeNs - m_scene.originNs)) - x);
        const int pr = markerPriority(mk.kind);
        if (pr > bestPriority || (pr == bestPriority && d < bestDistance)) {
            best = static_cast<int>(mk.event);
            bestPriority = pr;
            bestDistance = d;
        }
    }
    return best;
}

RankTimelineView::Hit RankTimelineView::hitTest(const QPoint& pos) const
{
    Hit hit;
    if (pos.y() < headerHeight()
        || pos.y() >= viewport()->height() - TimelinePainter::kLegendHeight)
        return hit;
    hit.row = m_rows.rowAt(pos.y() - headerHeight() + verticalScrollBar()->value());
    if (hit.row < 0)
        return hit;
    const TimelineRow& row = m_rows.row(hit.row);
    hit.group = row.group;
    hit.rank = row.rank;
    hit.gutter = pos.x() < m_gutterWidth;
    if (row.kind != TimelineRow::Kind::Rank || hit.gutter)
        return hit;
    const AxisMap m = axisMap();
    if (m_mode == AxisMode::Time) {
        hit.event = markerNear(row.rank, pos.x());
        if (hit.event < 0 && m_scene.document && m_scene.document->timeline && m_scene.hasTime) {
            const model::TimelineData& t = *m_scene.document->timeline;
            const double v = m.toValue(pos.x());
            for (const auto& s : t.spans(row.rank))
                if (v >= static_cast<double>(s.startNs - m_scene.originNs)
                    && v <= static_cast<double>(s.endNs - m_scene.originNs)) {
                    hit.event = static_cast<int>(s.event);
                    hit.seq = s.seq;
                }
            // Under the spans: the Flight Recorder bar, the latest one starting before v.
            const auto& bars = t.collectives(row.rank);
            const auto at = m_scene.originNs + static_cast<std::int64_t>(v);
            for (std::size_t i = t.firstCollectiveEndingAtOrAfter(row.rank, at);
                 i < bars.size() && bars[i].startNs <= at; ++i)
                if (bars[i].endNs >= at) {
                    hit.collective = static_cast<int>(i);
                    if (hit.event < 0) // the span's collective stays the one it waited in
                        hit.seq = bars[i].seq;
                }
        }
    } else if (m_scene.seqAxis) {
        hit.seq = static_cast<qint64>(std::floor(m.toValue(pos.x())));
    }
    return hit;
}

QString RankTimelineView::inferredTimeNote(const model::Event& e, bool bar) const
{
    // Where TimePoint::inferred comes from: the parsers stamp a line without a time of its
    // own with the latest time of its stream (parsers/linecontext.h), and a Flight Recorder
    // dump event with its newest record's time (parsers/flightrecorderparser.cpp).
    QString from;
    if (e.kind == model::EventKind::FlightRecorderDump)
        from = tr("the time of the dump's newest record, not the time the dump was written");
    else
        from = tr("copied from the last line with a timestamp before line %1 in the same log; "
                  "this line has none of its own and may have been written any time later")
                   .arg(e.evidence.line);
    return QStringLiteral("<i>")
        + (bar ? tr("Time inferred (hatched bar): ") : tr("Time inferred: ")) + from.toHtmlEscaped()
        + QStringLiteral(".</i>");
}

QString RankTimelineView::collectiveToolTip(const Hit& hit) const
{
    const DocumentPtr& doc = m_scene.document;
    if (hit.collective < 0 || hit.rank < 0 || !doc || !doc->timeline || !doc->bundle)
        return {};
    const model::Bundle& b = *doc->bundle;
    auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
    QString html;
    const model::TimelineCollective& c
        = doc->timeline->collectives(hit.rank)[static_cast<std::size_t>(hit.collective)];
    const model::FrEntry& e = b.frEntries[c.entry];
    const std::string_view pg = c.pg == model::kNoStr ? std::string_view("?") : b.text(c.pg);
    static const char* const states[] = { "unknown", "scheduled", "started", "completed" };
    html = QStringLiteral("<b>") + esc(fromView(model::torchName(c.op)))
        + (c.seq >= 0 ? QStringLiteral(" #%1").arg(c.seq) : QString())
        + QStringLiteral("</b> · PG ") + esc(fromView(pg))
        + QStringLiteral(" · rank %1<br>Flight Recorder: ").arg(hit.rank)
        + QString::fromLatin1(states[static_cast<int>(c.state)]);
    if (c.stillRunning)
        html += tr(", still running when the rank dumped");
    else
        html += QStringLiteral(", ") + durationText(c.endNs - c.startNs);
    if (e.durationMs() >= 0)
        html += QStringLiteral(" (GPU time ") + durationText(static_cast<std::int64_t>(e.durationMs() * 1e6))
            + QLatin1Char(')');
    if (c.stuck)
        html += tr("<br>the stuck collective");
    if (const std::uint32_t dump = model::frDumpOf(b.frCalls, e); dump < b.frDumps.size())
        if (const model::Source* src = b.source(b.frDumps[dump].evidence.source))
            html += QStringLiteral("<br><i>") + esc(QString::fromStdString(src->path))
                + QStringLiteral("</i>");
    return html;
}

QString RankTimelineView::toolTipAt(const QPoint& pos) const
{
    const DocumentPtr& doc = m_scene.document;
    if (!doc || !doc->bundle)
        return {};
    const model::Bundle& b = *doc->bundle;
    if (inOverview(pos))
        return tr("<b>Overview</b> of the whole axis; the outlined window is what the rows "
                  "show.<br><i>Click to centre the view there, drag to move it; Ctrl+wheel or "
                  "+ / − zoom, Ctrl+0 fits all.</i>");
    const Hit hit = hitTest(pos);
    if (hit.row < 0)
        return {};
    auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
    if (hit.rank < 0) {
        const auto& ranks = m_scene.ranksByGroup[static_cast<std::size_t>(hit.group)];
        return QStringLiteral("<b>") + esc(m_scene.groupNames[static_cast<std::size_t>(hit.group)])
            + QStringLiteral("</b> — ") + QString::fromStdString(model::countWords(ranks.size(), "rank", "ranks"))
            + QStringLiteral(": ")
            + rankList(QVector<int>(ranks.begin(), ranks.end()))
            + QStringLiteral("<br><i>Click to ")
            + (isHostCollapsed(hit.group) ? tr("expand") : tr("collapse")) + QStringLiteral("</i>");
    }
    // The Flight Recorder bar is drawn over the watchdog span: describe it first, then the
    // span's timeout line (whose evidence a click opens).
    const QString frHtml = collectiveToolTip(hit);
    QString html;
    if (hit.event >= 0 && static_cast<std::size_t>(hit.event) < b.events.size()) {
        const model::Event& e = b.events[static_cast<std::size_t>(hit.event)];
        QString kind = fromView(model::eventKindName(e.kind));
        kind.replace(QLatin1Char('_'), QLatin1Char(' '));
        html = QStringLiteral("<b>") + esc(kind) + QStringLiteral("</b> · rank %1").arg(hit.rank)
            + QStringLiteral(" · ") + esc(QString::fromStdString(model::formatTime(e.time)));
        if (e.time.inferred)
            html += QStringLiteral(" <b>(time inferred)</b>");
        if (hit.seq >= 0 && m_mode == AxisMode::Time)
            html += QStringLiteral("<br>waited in ") + esc(fromView(model::torchName(e.op)))
                + QStringLiteral(" #%1").arg(hit.seq)
                + (e.durationMs >= 0
                        ? QStringLiteral(" for ") + durationText(e.durationMs * 1'000'000)
                        : QString());
        if (e.text != model::kNoStr) {
            QString text = fromView(b.text(e.text));
            if (text.size() > 400)
                text = text.left(400) + QChar(0x2026);
            html += QStringLiteral("<br><span style='white-space:pre-wrap'>") + esc(text)
                + QStringLiteral("</span>");
        }
        if (const model::Source* src = b.source(e.evidence.source))
            html += QStringLiteral("<br><i>") + esc(QString::fromStdString(src->path))
                + QStringLiteral(":%1</i>").arg(e.evidence.line);
        if (e.time.inferred)
            html += QStringLiteral("<br>") + inferredTimeNote(e, hit.seq >= 0);
        return frHtml.isEmpty() ? html : frHtml + QStringLiteral("<hr>") + html;
    }
    if (!frHtml.isEmpty())
        return frHtml;
    html = QStringLiteral("<b>") + esc(QString::fromStdString(b.describeRank(hit.rank)))
        + QStringLiteral("</b>");
    const RankRole role = m_scene.role[static_cast<std::size_t>(hit.rank)];
    if (role == RankRole::Initiating && doc->diagnosis)
        html += QStringLiteral(" — ") + esc(theme::initiatorRoleLabel(doc->diagnosis->rootCause));
    else if (role == RankRole::Collateral)
        html += tr(" — collateral");
    if (doc->diagnosis)
        for (const auto& v : doc->diagnosis->ranks)
            if (v.rank == hit.rank)
                html += QStringLiteral("<br>") + esc(theme::rankStateLabel(v.state));
    if (m_scene.seqAxis && static_cast<std::size_t>(hit.rank) < m_scene.progress.size()) {
        const SeqProgress& p = m_scene.progress[static_cast<std::size_t>(hit.rank)];
        html += QStringLiteral("<br>") + esc(m_scene.pgLabel) + QStringLiteral(": ");
        html += p.known()
            ? QStringLiteral("last enqueued %1, last completed %2").arg(p.enqueued).arg(p.completed)
            : tr("no progress logged");
        if (hit.seq >= 0 && !hit.gutter && m_mode == AxisMode::Sequence) {
            static const char* const names[]
                = { "completed", "enqueued, not completed (waiting)", "never entered", "unknown" };
            html += QStringLiteral("<br>#%1: ").arg(hit.seq)
                + QString::fromLatin1(names[static_cast<int>(m_scene.state(hit.rank, hit.seq))]);
            const model::SeqRow& row = m_scene.seqAxis->rows[static_cast<std::size_t>(hit.rank)];
            if (row.timeoutSeq == hit.seq)
                html += tr(" — timed out here");
            for (const auto& [seq, op] : row.recent)
                if (seq == hit.seq)
                    html += QStringLiteral(" · ") + esc(fromView(model::torchName(op)));
        }
    }
    return html;
}

TimelineFrame RankTimelineView::frame() const
{
    TimelineFrame f;
    f.axis = m_mode == AxisMode::Time ? TimelineAxis::Time : TimelineAxis::Sequence;
    f.map = axisMap();
    f.overview = overviewMap();
    f.size = viewport()->size();
    f.headerHeight = headerHeight();
    f.footerHeight = TimelinePainter::kLegendHeight;
    f.gutterWidth = m_gutterWidth;
    f.rankRowHeight = m_rowParams.rankRowHeight;
    f.scrollY = verticalScrollBar()->value();
    f.rows = m_scene.document ? &m_rows : nullptr;
    f.rowsVersion = m_rowsVersion;
    f.collapsed = &m_collapsed;
    f.selectedRank = m_selection->selectedRank();
    f.selectedSeq = m_selection->selectedSeq();
    f.hoveredRow = m_hoveredRow;
    f.rubberBand = m_rubberBand;
    const QVector<int>& filter = m_selection->rankFilter();
    if (!filter.isEmpty())
        f.notice = tr("only ranks %1 (Esc shows all)").arg(rankList(filter));
    if (m_scene.document) {
        // How much of the whole axis the window shows, beside the overview strip.
        const auto [lo, hi] = fullRange(m_mode);
        if (m_mode == AxisMode::Time && m_scene.hasTime) {
            f.overviewSpan = durationText(std::llround(f.map.span()));
            f.overviewWhole = durationText(std::llround(hi - lo));
        } else if (m_mode == AxisMode::Sequence && m_scene.seqAxis) {
            f.overviewSpan = QStringLiteral("%1 coll.").arg(std::llround(f.map.span()));
            f.overviewWhole = QString::number(std::llround(hi - lo));
        }
    }
    if (f.selectedSeq >= 0 && m_scene.seqAxis) {
        const StepInfo s = stepInfo();
        f.stepText = QStringLiteral("#%1: %2 completed · %3 waiting · %4 never entered")
                         .arg(s.seq)
                         .arg(s.completed.size())
                         .arg(s.waiting.size())
                         .arg(s.neverEntered.size());
    }
    return f;
}

// ---------------------------------------------------------------------------------------
// Events

void RankTimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    p.setFont(font());
    m_painter.paint(p, m_scene, frame());
    if (!m_scene.document) {
        p.setPen(m_painter.style().mutedText);
        p.drawText(viewport()->rect().adjusted(0, headerHeight(), 0, 0), Qt::AlignCenter,
            m_selection->isLoading() ? tr("Loading…") : tr("Open a bundle to see its ranks."));
    } else if (m_mode == AxisMode::Sequence && !m_scene.seqAxis) {
        p.setPen(m_painter.style().mutedText);
        p.drawText(viewport()->rect().adjusted(m_gutterWidth, headerHeight(), 0, 0),
            Qt::AlignCenter, tr("No collective sequence numbers in this bundle."));
    }
}

void RankTimelineView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
    revealPendingRank();
}

void RankTimelineView::scrollContentsBy(int, int)
{
    viewport()->update();
}

bool RankTimelineView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        showToolTip(help->globalPos(), toolTipAt(help->pos()), viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void RankTimelineView::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = m_lastPos = event->position().toPoint();
    if (event->button() == Qt::LeftButton && inOverview(m_pressPos)) {
        // Grabbing the window drags it; a click elsewhere on the strip centres it there.
        m_drag = Drag::Overview;
        const QRect window = overviewWindowRect();
        const AxisMap m = axisMap();
        const double value = overviewMap().toValue(m_pressPos.x());
        if (m_pressPos.x() >= window.left() && m_pressPos.x() <= window.right() && value >= m.start
            && value <= m.end)
            m_overviewGrab = value - m.start;
        else
            m_overviewGrab = m.span() / 2;
        moveOverviewWindow(m_pressPos.x());
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))) {
        m_drag = Drag::Rubber;
        m_rubberBand = {};
    } else if (event->button() == Qt::LeftButton) {
        m_drag = Drag::Pending;
    }
    event->accept();
}

void RankTimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    m_mousePos = pos;
    if (m_drag == Drag::Pending
        && (pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
        m_drag = Drag::Pan;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (m_drag == Drag::Overview) {
        moveOverviewWindow(pos.x());
    } else if (m_drag == Drag::Pan) {
        const QPoint d = pos - m_lastPos;
        if (d.x())
            applyMap(axisMap().panned(d.x()));
        if (d.y())
            verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
    } else if (m_drag == Drag::Rubber) {
        const int x0
            = std::clamp(std::min(m_pressPos.x(), pos.x()), m_gutterWidth, viewport()->width());
        const int x1
            = std::clamp(std::max(m_pressPos.x(), pos.x()), m_gutterWidth, viewport()->width());
        m_rubberBand = QRect(x0, headerHeight(), x1 - x0,
            viewport()->height() - headerHeight() - TimelinePainter::kLegendHeight);
        viewport()->update();
    } else {
        const Hit hit = hitTest(pos);
        if (hit.row != m_hoveredRow) {
            m_hoveredRow = hit.row;
            viewport()->update();
        }
        viewport()->setCursor(inOverview(pos)  ? Qt::OpenHandCursor
                : hit.rank < 0 && hit.row >= 0 ? Qt::PointingHandCursor
                                               : Qt::ArrowCursor);
    }
    m_lastPos = pos;
}

void RankTimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    viewport()->setCursor(Qt::ArrowCursor);
    if (drag == Drag::Rubber) {
        const QRect band = m_rubberBand;
        m_rubberBand = {};
        if (band.width() >= 4)
            applyMap(axisMap().zoomedTo(band.left(), band.right() + 1));
        viewport()->update();
        return;
    }
    if (drag != Drag::Pending)
        return;
    const Hit hit = hitTest(pos);
    if (hit.row < 0)
        return;
    if (hit.rank < 0) {
        toggleHost(hit.group);
        return;
    }
    if (hit.event >= 0) {
        m_selection->selectEvent(hit.event);
    } else {
        m_selection->selectRank(hit.rank);
        if (hit.seq >= 0 && m_mode == AxisMode::Sequence && hit.seq >= m_scene.seqLo
            && hit.seq < m_scene.seqHi)
            m_selection->selectSeq(hit.seq);
    }
    viewport()->update();
}

void RankTimelineView::leaveEvent(QEvent* event)
{
    m_mousePos = QPoint(-1, -1);
    if (m_hoveredRow >= 0) {
        m_hoveredRow = -1;
        viewport()->update();
    }
    QAbstractScrollArea::leaveEvent(event);
}

void RankTimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double factor = std::pow(kZoomStep, delta.y() / 120.0);
        applyMap(
            axisMap().zoomedAbout(std::max<double>(event->position().x(), m_gutterWidth), factor));
        event->accept();
        return;
    }
    const int dx = (event->modifiers() & Qt::ShiftModifier) ? delta.y() : delta.x();
    if (dx != 0 && ((event->modifiers() & Qt::ShiftModifier) || delta.y() == 0)) {
        applyMap(axisMap().panned(dx / 2.0));
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void RankTimelineView::keyPressEvent(QKeyEvent* event)
{
    const bool alt = event->modifiers() & Qt::AltModifier;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        // Ctrl+0 as in browsers; Alt+0 belongs to the window (it focuses this panel).
        if (alt) {
            QAbstractScrollArea::keyPressEvent(event);
            return;
        }
        fitAll();
        break;
    case Qt::Key_F:
        if (ctrl) { // the window's Find
            QAbstractScrollArea::keyPressEvent(event);
            return;
        }
        fitAll();
        break;
    case Qt::Key_N:
        nextCollective();
        break;
    case Qt::Key_P:
        previousCollective();
        break;
    case Qt::Key_T:
        toggleAxisMode();
        break;
    case Qt::Key_Escape:
        clearRankFilter();
        break;
    case Qt::Key_Right:
        if (alt)
            nextCollective();
        else
            applyMap(axisMap().panned(-plotWidth() / 8.0));
        break;
    case Qt::Key_Left:
        if (alt)
            previousCollective();
        else
            applyMap(axisMap().panned(plotWidth() / 8.0));
        break;
    case Qt::Key_Up:
        stepRank(-1);
        break;
    case Qt::Key_Down:
        stepRank(1);
        break;
    case Qt::Key_Home:
        selectFirstRank();
        break;
    case Qt::Key_End:
        selectLastRank();
        break;
    case Qt::Key_G:
        if (!ctrl) {
            QAbstractScrollArea::keyPressEvent(event);
            return;
        }
        askGoToRank();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

void RankTimelineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        m_painter.setStyle(TimelineStyle::fromPalette(palette()));
        viewport()->update();
    } else if (event->type() == QEvent::FontChange) {
        updateGutterWidth();
        m_painter.invalidate();
        rebuildRows();
    }
    QAbstractScrollArea::changeEvent(event);
}

} // namespace rankscope::views
