#include "views/progresschart.h"

#include "views/chartsupport.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QEvent>
#include <QStackedBarSeries>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>

namespace rankscope::views {

ProgressChart::ProgressChart(SelectionState* selection, QWidget* parent)
    : QChartView(parent)
    , m_selection(selection)
{
    setRenderHint(QPainter::Antialiasing, false);
    setMinimumHeight(fontMetrics().height() * 10);
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
    m_rankAxis = nullptr;

    const DocumentPtr& doc = m_selection->document();
    const model::SeqAxis* axis = nullptr;
    model::StrId pg = model::kNoStr;
    if (doc && doc->timeline) {
        pg = charts::chartProcessGroup(*doc, m_selection->processGroup());
        axis = doc->timeline->seqAxis(pg);
    }
    std::vector<const model::SeqRow*> rows;
    if (axis) {
        for (const model::SeqRow& row : axis->rows) {
            if (row.rank >= 0 && (row.hasStatus || row.lastCompleted >= 0 || row.timeoutSeq >= 0))
                rows.push_back(&row);
        }
    }
    if (rows.empty()) {
        chart->setTitle(doc ? tr("No per-rank sequence numbers in these logs") : QString());
        charts::styleChart(chart, pal);
        charts::replaceChart(this, chart);
        return;
    }

    const int maxRank = rows.back()->rank;
    const std::vector<bool> initiating
        = charts::initiatingMask(*doc, static_cast<std::size_t>(maxRank) + 1);
    const int bucketSize = std::max<int>(
        1, static_cast<int>((rows.size() + charts::kMaxBars - 1) / charts::kMaxBars));
    m_bucketOfRank.assign(static_cast<std::size_t>(maxRank) + 1, -1);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const model::SeqRow& row = *rows[i];
        const bool isInitiating = initiating[static_cast<std::size_t>(row.rank)];
        // A rank that timed out on seq S had enqueued S even when no status line said so.
        const qint64 enqueued
            = std::max<qint64>({ row.lastEnqueued, row.timeoutSeq, row.lastCompleted });
        if (i % static_cast<std::size_t>(bucketSize) == 0)
            m_buckets.push_back(
                { row.rank, row.rank, row.lastCompleted, enqueued, row.rank, isInitiating });
        Bucket& b = m_buckets.back();
        b.lastRank = row.rank;
        // The bucket shows its laggard: the lowest frontier, an initiating rank first.
        const bool behind = enqueued < b.lastEnqueued
            || (enqueued == b.lastEnqueued && row.lastCompleted < b.lastCompleted);
        if ((isInitiating && !b.initiating) || (behind && (isInitiating || !b.initiating))) {
            b.lastCompleted = row.lastCompleted;
            b.lastEnqueued = enqueued;
            b.laggard = row.rank;
        }
        b.initiating = b.initiating || isInitiating;
        m_bucketOfRank[static_cast<std::size_t>(row.rank)] = static_cast<int>(m_buckets.size()) - 1;
    }

    m_initiating = new QBarSet(tr("initiating rank"));
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
    qint64 lo = m_buckets.front().lastCompleted;
    qint64 hi = m_buckets.front().lastEnqueued;
    for (const Bucket& b : m_buckets) {
        const qreal value = static_cast<qreal>(std::max<qint64>(b.lastCompleted, -1));
        *m_initiating << (b.initiating ? value : 0);
        *m_others << (b.initiating ? 0 : value);
        *m_inFlight << static_cast<qreal>(
            std::max<qint64>(0, b.lastEnqueued - std::max<qint64>(b.lastCompleted, -1)));
        lo = std::min(lo, b.lastCompleted);
        hi = std::max(hi, b.lastEnqueued);
    }
    m_series = new QStackedBarSeries;
    m_series->append(m_others);
    m_series->append(m_initiating);
    m_series->append(m_inFlight);
    m_series->setBarWidth(0.8);
    chart->addSeries(m_series);

    // Zoom the value axis onto the spread so "one collective behind" is a visible step.
    const qint64 spread = std::max<qint64>(1, hi - lo);
    const qint64 pad = std::max<qint64>(1, spread / 4);
    auto* yAxis = new QValueAxis;
    yAxis->setRange(
        static_cast<qreal>(std::max<qint64>(-1, lo - pad - 1)), static_cast<qreal>(hi + pad));
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

    QString title = tr("Progress per rank — %1").arg(charts::processGroupLabel(*doc->bundle, pg));
    chart->setTitle(title);
    charts::styleChart(chart, pal);
    const auto select = [this](int index) {
        if (index >= 0 && static_cast<std::size_t>(index) < m_buckets.size())
            m_selection->selectRank(m_buckets[static_cast<std::size_t>(index)].laggard);
    };
    connect(m_initiating, &QBarSet::clicked, this, select);
    connect(m_others, &QBarSet::clicked, this, select);
    connect(m_inFlight, &QBarSet::clicked, this, select);
    charts::replaceChart(this, chart);
}

} // namespace rankscope::views
