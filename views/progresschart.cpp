#include "views/progresschart.h"

#include "views/chartlegend.h"
#include "views/chartsupport.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <QBarLegendMarker>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QStackedBarSeries>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>
#include <limits>

namespace rankscope::views {

namespace {

bool anyProgress(const model::SeqAxis& axis)
{
    return std::any_of(axis.rows.begin(), axis.rows.end(), [](const model::SeqRow& row) {
        return row.rank >= 0 && (row.lastCompleted >= 0 || row.lastEnqueued >= 0
            || row.timeoutSeq >= 0);
    });
}

// The group's members when the logs name them, else every rank the timeline knows (and the
// world size); the initiating ranks always, so the culprit never falls off the axis.
std::vector<std::int32_t> ranksToShow(
    const BundleDocument& doc, model::StrId pg, const model::SeqAxis& axis)
{
    std::vector<std::int32_t> ranks;
    const model::ProcessGroup* group = doc.bundle->processGroup(pg);
    if (group && !group->members.empty()) {
        ranks = group->members;
    } else {
        std::size_t n = std::max(axis.rows.size(), doc.bundle->ranks.size());
        if (doc.bundle->world.worldSize)
            n = std::max<std::size_t>(n, static_cast<std::size_t>(*doc.bundle->world.worldSize));
        for (std::size_t r = 0; r < n; ++r)
            ranks.push_back(static_cast<std::int32_t>(r));
    }
    if (doc.diagnosis)
        for (std::int32_t r : doc.diagnosis->initiatingRanks)
            if (r >= 0)
                ranks.push_back(r);
    // Rows with data outside the known membership are shown too, rather than lost.
    for (const model::SeqRow& row : axis.rows)
        if (row.rank >= 0 && (row.lastCompleted >= 0 || row.lastEnqueued >= 0 || row.timeoutSeq >= 0))
            ranks.push_back(row.rank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

} // namespace

ProgressChart::ProgressChart(SelectionState* selection, QWidget* parent)
    : QChartView(parent)
    , m_selection(selection)
{
    setRenderHint(QPainter::Antialiasing, false);
    setMinimumHeight(fontMetrics().height() * 10);
    new ChartLegend(this); // follows each chart rebuild() makes (charts::replaceChart)
    connect(m_selection, &SelectionState::documentChanged, this, &ProgressChart::rebuild);
    connect(m_selection, &SelectionState::processGroupChanged, this, &ProgressChart::rebuild);
    rebuild();
}

int ProgressChart::labelStepForWidth() const
{
    if (m_buckets.empty())
        return 1;
    // The plot is the view minus the value axis and margins (about six lines of text).
    const int plot = width() - fontMetrics().height() * 6;
    const QString widest = QString::number(m_buckets.back().firstRank);
    const int fit = charts::labelsThatFit(plot, fontMetrics(), widest);
    // At least 1: with room for more labels than bars the nice step is a fraction, which as
    // an int was 0 — equal to the initial step, so no label was ever set (small jobs).
    return std::max(
        1, static_cast<int>(charts::niceStep(static_cast<double>(m_buckets.size()) / fit)));
}

void ProgressChart::updateRankAxis()
{
    if (!m_rankAxis)
        return;
    const int step = labelStepForWidth();
    if (step == m_labelStep)
        return;
    m_labelStep = step;
    const QStringList old = m_rankAxis->categoriesLabels();
    for (const QString& label : old)
        m_rankAxis->remove(label);
    // Evenly spaced bars by their first rank, plus every initiating bar (the culprit is
    // always labelled); a regular label too close to an initiating one is left out.
    std::vector<int> initiatingBars;
    for (int i = 0; i < static_cast<int>(m_buckets.size()); ++i) {
        if (m_buckets[static_cast<std::size_t>(i)].initiating)
            initiatingBars.push_back(i);
    }
    const int clearance = step > 1 ? (step + 1) / 2 : 0;
    for (int i = 0; i < static_cast<int>(m_buckets.size()); ++i) {
        const bool isInitiating = m_buckets[static_cast<std::size_t>(i)].initiating;
        bool crowded = false;
        for (int bar : initiatingBars)
            crowded = crowded || (bar != i && std::abs(bar - i) < clearance);
        const Bucket& b = m_buckets[static_cast<std::size_t>(i)];
        if (isInitiating)
            m_rankAxis->append(QString::number(b.laggard), i); // the culprit's own number
        else if (i % step == 0 && !crowded)
            m_rankAxis->append(QString::number(b.firstRank), i);
    }
}

void ProgressChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    updateRankAxis();
}

void ProgressChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        QTimer::singleShot(0, this, &ProgressChart::rebuild);
}

bool ProgressChart::showsBefore(const Bucket& candidate, const Bucket& current)
{
    // An initiating rank first, then one with data, then the furthest behind.
    if (candidate.initiating != current.initiating)
        return candidate.initiating;
    if (candidate.hasData != current.hasData)
        return candidate.hasData;
    return candidate.lastEnqueued < current.lastEnqueued
        || (candidate.lastEnqueued == current.lastEnqueued
            && candidate.lastCompleted < current.lastCompleted);
}

bool ProgressChart::barHasData(int bar) const
{
    return bar >= 0 && static_cast<std::size_t>(bar) < m_buckets.size()
        && m_buckets[static_cast<std::size_t>(bar)].hasData;
}

int ProgressChart::barOfRank(int rank) const
{
    if (rank < 0 || static_cast<std::size_t>(rank) >= m_bucketOfRank.size())
        return -1;
    return m_bucketOfRank[static_cast<std::size_t>(rank)];
}

qreal ProgressChart::barValue(int bar) const
{
    if (bar < 0 || static_cast<std::size_t>(bar) >= m_buckets.size())
        return 0;
    return static_cast<qreal>(m_buckets[static_cast<std::size_t>(bar)].lastCompleted);
}

void ProgressChart::rebuild()
{
    auto* chart = new QChart;
    const QPalette pal = palette();
    const theme::SemanticColors colors = theme::colors(pal);
    m_buckets.clear();
    m_bucketOfRank.clear();
    m_series = nullptr;
    m_initiating = nullptr;
    m_others = nullptr;
    m_inFlight = nullptr;
    m_noData = nullptr;
    m_initiatingNoData = nullptr;
    m_rankAxis = nullptr;

    const DocumentPtr& doc = m_selection->document();
    const model::SeqAxis* axis = nullptr;
    model::StrId pg = model::kNoStr;
    if (doc && doc->timeline) {
        pg = charts::chartProcessGroup(*doc, m_selection->processGroup());
        axis = doc->timeline->seqAxis(pg);
    }
    if (!axis || !anyProgress(*axis)) {
        chart->setTitle(doc ? tr("No per-rank sequence numbers in these logs") : QString());
        charts::styleChart(chart, pal);
        charts::replaceChart(this, chart);
        return;
    }

    // Every rank of the group gets a slot, with or without data: a rank that logged no
    // sequence number is often the one that hung, and an axis that skips it hides it.
    const std::vector<std::int32_t> shown = ranksToShow(*doc, pg, *axis);
    const int maxRank = shown.back();
    const std::vector<bool> initiating
        = charts::initiatingMask(*doc, static_cast<std::size_t>(maxRank) + 1);
    const int bucketSize = std::max<int>(
        1, static_cast<int>((shown.size() + charts::kMaxBars - 1) / charts::kMaxBars));
    m_bucketOfRank.assign(static_cast<std::size_t>(maxRank) + 1, -1);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const int rank = shown[i];
        const model::SeqRow* row = static_cast<std::size_t>(rank) < axis->rows.size()
            ? &axis->rows[static_cast<std::size_t>(rank)]
            : nullptr;
        Bucket c;
        c.firstRank = c.lastRank = c.laggard = rank;
        c.initiating = initiating[static_cast<std::size_t>(rank)];
        if (row) {
            c.lastCompleted = row->lastCompleted;
            // A rank that timed out on seq S had enqueued S even when no status line said so.
            c.lastEnqueued
                = std::max<qint64>({ row->lastEnqueued, row->timeoutSeq, row->lastCompleted });
        }
        c.hasData = c.lastEnqueued >= 0;
        if (i % static_cast<std::size_t>(bucketSize) == 0) {
            m_buckets.push_back(c);
        } else {
            Bucket& b = m_buckets.back();
            b.lastRank = rank;
            if (showsBefore(c, b)) {
                const int first = b.firstRank;
                b = c;
                b.firstRank = first;
            }
        }
        m_buckets.back().lastRank = rank;
        m_bucketOfRank[static_cast<std::size_t>(rank)] = static_cast<int>(m_buckets.size()) - 1;
    }

    // A network pair's two ends are ends of the failed link, not initiators (the model's
    // words, as every view says them).
    const QString initiators = theme::initiatorsLabel(
        doc->diagnosis ? doc->diagnosis->rootCause : model::RootCauseClass::None);
    m_initiating = new QBarSet(initiators);
    m_others = new QBarSet(tr("completed"));
    m_inFlight = new QBarSet(tr("in flight"));
    m_initiating->setColor(colors.initiating);
    m_initiating->setBorderColor(colors.initiating);
    m_others->setColor(colors.collateral);
    m_others->setBorderColor(colors.collateral);
    const QColor inFlight = theme::tint(colors.stuck, pal).darker(theme::isDark(pal) ? 80 : 115);
    m_inFlight->setColor(inFlight);
    m_inFlight->setBorderColor(colors.stuck);
    if (bucketSize > 1) {
        // Thin bars: borders in the fill colour, or the gaps between bars turn into noise.
        m_others->setBorderColor(colors.collateral);
        m_inFlight->setBorderColor(inFlight);
    }
    m_noData = new QBarSet(tr("no data"));
    m_initiatingNoData = new QBarSet(tr("%1, no data").arg(initiators));
    const QColor muted = pal.color(QPalette::PlaceholderText);
    m_noData->setBrush(QBrush(muted, Qt::BDiagPattern));
    m_noData->setBorderColor(theme::tint(muted, pal));
    m_initiatingNoData->setBrush(QBrush(colors.initiating, Qt::BDiagPattern));
    m_initiatingNoData->setBorderColor(colors.initiating);

    // The value axis covers the known values only: a rank with no completed collective
    // (-1) would otherwise pull the axis to zero and flatten every other bar.
    qint64 lo = std::numeric_limits<qint64>::max();
    qint64 hi = std::numeric_limits<qint64>::min();
    for (const Bucket& b : m_buckets) {
        if (!b.hasData)
            continue;
        lo = std::min(lo, b.lastCompleted >= 0 ? b.lastCompleted : b.lastEnqueued);
        hi = std::max(hi, b.lastEnqueued);
    }
    const qint64 spread = std::max<qint64>(1, hi - lo);
    const qint64 pad = std::max<qint64>(1, spread / 4);
    const qint64 yMin = std::max<qint64>(-1, lo - pad - 1);
    const qint64 yMax = hi + pad;
    for (const Bucket& b : m_buckets) {
        const qreal value = static_cast<qreal>(std::max<qint64>(b.lastCompleted, -1));
        const bool shownAsCompleted = b.hasData && b.lastCompleted >= 0;
        *m_initiating << (b.initiating && shownAsCompleted ? value : 0);
        *m_others << (!b.initiating && shownAsCompleted ? value : 0);
        // Without a completed collective the in-flight part is the whole bar (from the
        // axis floor, as the stack starts at zero).
        const qint64 base = shownAsCompleted ? b.lastCompleted : 0;
        *m_inFlight << static_cast<qreal>(
            b.hasData ? std::max<qint64>(0, b.lastEnqueued - base) : 0);
        // No data: a hatched column the height of the plot, so the slot reads as unknown.
        *m_noData << static_cast<qreal>(!b.hasData && !b.initiating ? yMax : 0);
        *m_initiatingNoData << static_cast<qreal>(!b.hasData && b.initiating ? yMax : 0);
    }
    m_series = new QStackedBarSeries;
    m_series->append(m_others);
    m_series->append(m_initiating);
    m_series->append(m_inFlight);
    m_series->append(m_noData);
    m_series->append(m_initiatingNoData);
    m_series->setBarWidth(0.8);
    chart->addSeries(m_series);

    // Zoom the value axis onto the spread so "one collective behind" is a visible step.
    auto* yAxis = new QValueAxis;
    yAxis->setRange(static_cast<qreal>(yMin), static_cast<qreal>(yMax));
    yAxis->setLabelFormat(QStringLiteral("%d"));
    yAxis->setTickType(QValueAxis::TicksDynamic);
    yAxis->setTickAnchor(0);
    yAxis->setTickInterval(static_cast<qreal>(std::max<qint64>(1, (hi - lo + 2 * pad + 1) / 5)));
    yAxis->setTitleText(tr("sequence number"));
    chart->addAxis(yAxis, Qt::AlignLeft);
    m_series->attachAxis(yAxis);

    m_rankAxis = new QCategoryAxis;
    m_rankAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_rankAxis->setRange(-0.5, static_cast<qreal>(m_buckets.size()) - 0.5);
    // Bucketed bars show the furthest-behind rank of their group.
    m_rankAxis->setTitleText(bucketSize > 1
            ? tr("rank (%1 per bar, the furthest behind shown)").arg(bucketSize)
            : tr("rank"));
    m_rankAxis->setGridLineVisible(false);
    chart->addAxis(m_rankAxis, Qt::AlignBottom);
    m_series->attachAxis(m_rankAxis);
    m_labelStep = 0;
    updateRankAxis();

    // The process group is named by the panel's process-group box; in the title it made the
    // title too long for a narrow dock.
    chart->setTitle(tr("Progress per rank"));
    charts::styleChart(chart, pal);
    const auto select = [this](int index) {
        if (index >= 0 && static_cast<std::size_t>(index) < m_buckets.size())
            m_selection->selectRank(m_buckets[static_cast<std::size_t>(index)].laggard);
    };
    connect(m_initiating, &QBarSet::clicked, this, select);
    connect(m_others, &QBarSet::clicked, this, select);
    connect(m_inFlight, &QBarSet::clicked, this, select);
    connect(m_noData, &QBarSet::clicked, this, select);
    connect(m_initiatingNoData, &QBarSet::clicked, this, select);
    // Legend entries only for what is drawn.
    for (QBarSet* set : m_series->barSets()) {
        if (set->sum() > 0)
            continue;
        for (QLegendMarker* marker : chart->legend()->markers(m_series))
            if (static_cast<QBarLegendMarker*>(marker)->barset() == set)
                marker->setVisible(false);
    }
    charts::replaceChart(this, chart);
}

} // namespace rankscope::views
