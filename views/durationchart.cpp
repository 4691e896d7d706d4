#include "views/durationchart.h"

#include "model/frwaits.h"
#include "views/chartlegend.h"
#include "views/chartsupport.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace rankscope::views {

DurationChart::DurationChart(SelectionState* selection, QWidget* parent)
    : QChartView(parent)
    , m_selection(selection)
{
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumHeight(fontMetrics().height() * 10);
    new ChartLegend(this); // follows each chart rebuild() makes (charts::replaceChart)
    connect(m_selection, &SelectionState::documentChanged, this, &DurationChart::rebuild);
    connect(m_selection, &SelectionState::processGroupChanged, this, &DurationChart::rebuild);
    rebuild();
}

void DurationChart::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
}

void DurationChart::updateRankTicks()
{
    if (!m_rankAxis)
        return;
    const int fit = charts::labelsThatFit(
        width() - fontMetrics().height() * 6, fontMetrics(), QString::number(m_rankCount));
    // Whole ranks only: a step below 1 labels the same rank twice.
    m_rankAxis->setTickInterval(std::max(1.0, charts::niceStep(static_cast<double>(m_rankCount) / fit)));
}

void DurationChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    updateRankTicks();
}

void DurationChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        QTimer::singleShot(0, this, &DurationChart::rebuild);
}

double DurationChart::valueOfRank(int rank) const
{
    if (rank < 0 || static_cast<std::size_t>(rank) >= m_values.size())
        return -1;
    return m_values[static_cast<std::size_t>(rank)];
}

void DurationChart::rebuild()
{
    auto* chart = new QChart;
    const QPalette pal = palette();
    const theme::SemanticColors colors = theme::colors(pal);
    m_values.clear();
    m_estimatedFromDumps = false;
    m_waiting = nullptr;
    m_initiating = nullptr;
    m_rankAxis = nullptr;
    m_hasData = false;

    const DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->bundle || !doc->timeline) {
        charts::styleChart(chart, pal);
        charts::replaceChart(this, chart);
        return;
    }
    const model::Bundle& bundle = *doc->bundle;
    const model::TimelineData& timeline = *doc->timeline;
    const model::StrId pg = charts::chartProcessGroup(*doc, m_selection->processGroup());
    const auto progress = bundle.progressOf(pg);

    // The collective the chart is about: the stuck one on its PG, else the most common
    // timed-out sequence number of this PG.
    qint64 seq = -1;
    if (doc->diagnosis && doc->diagnosis->stuckCollective
        && bundle.strings.find(doc->diagnosis->stuckCollective->processGroup) == pg)
        seq = doc->diagnosis->stuckCollective->seq;
    if (seq < 0) {
        std::map<qint64, int> votes;
        for (const model::RankProgress* p : progress) {
            if (p->timeoutSeq >= 0)
                ++votes[p->timeoutSeq];
        }
        int best = 0;
        for (const auto& [s, n] : votes) {
            if (n > best) {
                best = n;
                seq = s;
            }
        }
    }

    std::size_t ranks = static_cast<std::size_t>(std::max(0, timeline.rankCount()));
    ranks = std::max(ranks, bundle.ranks.size());
    m_values.assign(ranks, -1.0);
    if (m_mode == Mode::WaitDuration) {
        for (std::size_t r = 0; r < static_cast<std::size_t>(timeline.rankCount()); ++r) {
            for (const model::TimelineSpan& span : timeline.spans(static_cast<std::int32_t>(r))) {
                if (span.pg == pg && (span.seq == seq || (seq < 0 && span.stuck)))
                    m_values[r] = static_cast<double>(span.endNs - span.startNs) / 1e9;
            }
        }
        // Without wall-clock spans, the watchdog's own "ran for N milliseconds".
        for (const model::RankProgress* p : progress) {
            if (p->rank >= 0 && static_cast<std::size_t>(p->rank) < ranks
                && m_values[static_cast<std::size_t>(p->rank)] < 0 && p->ranForMs >= 0
                && (seq < 0 || p->timeoutSeq == seq))
                m_values[static_cast<std::size_t>(p->rank)]
                    = static_cast<double>(p->ranForMs) / 1000.0;
        }
        // Flight Recorder dumps alone: from each rank's entry into the collective until the
        // first watchdog fired (an estimate, see model/frwaits.h).
        const std::vector<double> frWaits = model::estimatedFrWaitSeconds(bundle, timeline, pg, seq);
        for (std::size_t r = 0; r < frWaits.size() && r < ranks; ++r) {
            if (m_values[r] < 0 && frWaits[r] >= 0) {
                m_values[r] = frWaits[r];
                m_estimatedFromDumps = true;
            }
        }
    } else {
        std::int64_t first = 0;
        bool any = false;
        for (const model::RankProgress* p : progress) {
            if (p->timeoutSeq >= 0 && model::onWallClockAxis(p->timeoutTime)
                && (seq < 0 || p->timeoutSeq == seq)) {
                first = any ? std::min(first, p->timeoutTime.ns) : p->timeoutTime.ns;
                any = true;
            }
        }
        for (const model::RankProgress* p : progress) {
            if (p->rank >= 0 && static_cast<std::size_t>(p->rank) < ranks && p->timeoutSeq >= 0
                && model::onWallClockAxis(p->timeoutTime) && (seq < 0 || p->timeoutSeq == seq))
                m_values[static_cast<std::size_t>(p->rank)]
                    = static_cast<double>(p->timeoutTime.ns - first) / 1e9;
        }
    }

    const std::vector<bool> initiating = charts::initiatingMask(*doc, ranks);
    std::vector<model::RankState> state(ranks, model::RankState::Unknown);
    if (doc->diagnosis) {
        for (const model::RankVerdict& v : doc->diagnosis->ranks) {
            if (v.rank >= 0 && static_cast<std::size_t>(v.rank) < ranks)
                state[static_cast<std::size_t>(v.rank)] = v.state;
        }
    }
    const qreal marker = ranks > 512 ? fontMetrics().height() * 0.3 : fontMetrics().height() * 0.6;
    m_waiting = new QScatterSeries;
    m_waiting->setName(
        m_mode == Mode::WaitDuration ? tr("timed out waiting") : tr("timeout fired"));
    auto* stuck = new QScatterSeries;
    stuck->setName(tr("stuck in collective"));
    m_initiating = new QScatterSeries;
    const auto style = [marker](QScatterSeries* s, const QColor& c, qreal size) {
        s->setColor(c);
        s->setBorderColor(c);
        s->setMarkerSize(size);
    };
    style(m_waiting, colors.collateral, marker);
    style(stuck, colors.stuck, marker);
    style(m_initiating, colors.initiating, marker * 1.6);
    m_initiating->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    double hi = 0;
    bool initiatingWaited = false;
    std::vector<QPointF> waitingPoints;
    std::vector<QPointF> stuckPoints;
    for (std::size_t r = 0; r < ranks; ++r) {
        double v = m_values[r];
        if (initiating[r]) {
            // The cause is not a wait: an initiating rank sits at zero even when its own
            // watchdog fired too (a network pair's two ends both time out), or the cause
            // would be drawn at the timeout among the ranks that waited for it.
            if (m_mode == Mode::WaitDuration) {
                initiatingWaited = initiatingWaited || v > 0;
                v = 0;
            }
            v = std::max(0.0, v);
            m_values[r] = v;
            m_initiating->append(static_cast<qreal>(r), v);
        } else if (v >= 0) {
            (state[r] == model::RankState::StuckInCollective ? stuckPoints : waitingPoints)
                .emplace_back(static_cast<qreal>(r), v);
        } else {
            continue;
        }
        hi = std::max(hi, v);
        m_hasData = true;
    }
    m_waiting->append(charts::markerPoints(waitingPoints, ranks, hi));
    stuck->append(charts::markerPoints(stuckPoints, ranks, hi));
    // A network pair's ends are named for the failed link, as everywhere (the model's words).
    const QString initiators = theme::initiatorsLabel(
        doc->diagnosis ? doc->diagnosis->rootCause : model::RootCauseClass::None);
    if (m_mode == Mode::WaitDuration)
        m_initiating->setName(initiatingWaited ? tr("%1 (the cause, shown at 0 s)").arg(initiators)
                                               : tr("%1 (did not wait)").arg(initiators));
    else
        m_initiating->setName(initiators);
    if (!m_hasData) {
        delete m_waiting;
        delete stuck;
        delete m_initiating;
        m_waiting = nullptr;
        m_initiating = nullptr;
        chart->setTitle(m_mode == Mode::WaitDuration
                ? tr("No per-rank wait times in these logs")
                : tr("No wall-clock timeout times in these logs"));
        charts::styleChart(chart, pal);
        charts::replaceChart(this, chart);
        return;
    }
    chart->addSeries(m_waiting);
    if (stuck->count() > 0)
        chart->addSeries(stuck);
    else
        delete stuck;
    chart->addSeries(m_initiating);

    auto* xAxis = new QValueAxis;
    m_rankAxis = xAxis;
    m_rankCount = static_cast<int>(ranks);
    xAxis->setRange(-0.5, static_cast<qreal>(std::max<std::size_t>(ranks, 1)) - 0.5);
    xAxis->setLabelFormat(QStringLiteral("%d"));
    // Ticks on whole ranks, as many as the width has room for.
    xAxis->setTickType(QValueAxis::TicksDynamic);
    xAxis->setTickAnchor(0);
    updateRankTicks();
    auto* yAxis = new QValueAxis;
    // Round ticks from zero, and a little room below it so the did-not-wait markers sit on
    // the chart rather than under the axis line.
    const double yStep = charts::niceStep((hi > 0 ? hi : 1.0) / 4);
    yAxis->setTickType(QValueAxis::TicksDynamic);
    yAxis->setTickAnchor(0);
    yAxis->setTickInterval(yStep);
    yAxis->setRange(-yStep * 0.25, (std::floor(hi / yStep) + 1) * yStep);
    yAxis->setTitleText(m_mode == Mode::WaitDuration ? tr("seconds waited")
                                                     : tr("seconds after the first timeout"));
    yAxis->setLabelFormat(hi >= 10 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(xAxis);
        s->attachAxis(yAxis);
        connect(static_cast<QScatterSeries*>(s), &QScatterSeries::clicked, this,
            [this](const QPointF& p) { m_selection->selectRank(static_cast<int>(p.x() + 0.5)); });
    }
    QString what = m_mode == Mode::WaitDuration ? tr("Time waited") : tr("Timeouts");
    if (seq >= 0)
        what += tr(" in #%1").arg(seq);
    // The process group is named by the panel's process-group box (in the title it made the
    // title too long for a narrow dock); an estimate says so on a line of its own and in
    // full in the tooltip.
    if (m_estimatedFromDumps)
        what += QStringLiteral("<br><small>") + tr("estimated from Flight Recorder")
            + QStringLiteral("</small>");
    chart->setTitle(what);
    setToolTip(m_estimatedFromDumps
            ? tr("Estimated from Flight Recorder entry times, until the first watchdog fired")
            : QString());
    charts::styleChart(chart, pal);
    // A legend entry for a series with no point (every waiting rank is stuck inside the
    // collective, say) only raises a question.
    if (m_waiting->count() == 0)
        for (QLegendMarker* marker : chart->legend()->markers(m_waiting))
            marker->setVisible(false);
    charts::replaceChart(this, chart);
}

} // namespace rankscope::views
