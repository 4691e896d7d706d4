#include "app/gui/viewpreferences.h"

#include "app/gui/chartspanel.h"
#include "model/event.h"
#include "model/pairevidence.h"
#include "views/durationchart.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/pairheatmapview.h"
#include "views/ranktimelineview.h"

#include <QSettings>

#include <optional>

namespace rankscope::app {

namespace {

// Values are stored as words, not enum numbers: a reordered enum must not turn a saved
// "sequence" into "time".
const QString kTimelineAxisKey = QStringLiteral("views/timelineAxis");
const QString kHeatmapMetricKey = QStringLiteral("views/heatmapMetric");
const QString kWaitChartKey = QStringLiteral("views/waitChart");
const QString kLogWrapKey = QStringLiteral("views/logWrap");
const QString kLogSeverityKey = QStringLiteral("views/logSeverity");

using AxisMode = views::RankTimelineView::AxisMode;
using WaitMode = views::DurationChart::Mode;

QString axisWord(AxisMode mode)
{
    return mode == AxisMode::Time ? QStringLiteral("time") : QStringLiteral("sequence");
}

QString waitWord(WaitMode mode)
{
    return mode == WaitMode::WaitDuration ? QStringLiteral("wait") : QStringLiteral("timeout");
}

QString metricWord(model::PairMetric metric)
{
    const std::string_view name = model::pairMetricName(metric);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

std::optional<model::PairMetric> metricFromWord(const QString& word)
{
    for (int i = 0; i < static_cast<int>(model::PairMetric::Count); ++i)
        if (metricWord(static_cast<model::PairMetric>(i)) == word)
            return static_cast<model::PairMetric>(i);
    return std::nullopt;
}

// The severities the log viewer's filter offers; "all" is no filter.
constexpr std::pair<model::Severity, const char*> kSeverityWords[] = {
    { model::Severity::Error, "error" },
    { model::Severity::Warning, "warning" },
    { model::Severity::Info, "info" },
};

QString severityWord(std::optional<model::Severity> severity)
{
    if (severity)
        for (const auto& [s, word] : kSeverityWords)
            if (s == *severity)
                return QLatin1String(word);
    return QStringLiteral("all");
}

std::optional<model::Severity> severityFromWord(const QString& word)
{
    for (const auto& [s, w] : kSeverityWords)
        if (word == QLatin1String(w))
            return s;
    return std::nullopt;
}

} // namespace

ViewPreferences::ViewPreferences(const Views& views, QObject* parent)
    : QObject(parent)
    , m_views(views)
{
    restore();
    watch(); // after restore(): what restoring changes is not a new choice
}

void ViewPreferences::restore()
{
    QSettings settings;
    const QString axis = settings.value(kTimelineAxisKey).toString();
    // Only a saved choice is applied: without one the timeline picks the axis that shows
    // more of each bundle.
    if (axis == axisWord(AxisMode::Time) || axis == axisWord(AxisMode::Sequence))
        m_views.timeline->setAxisMode(
            axis == axisWord(AxisMode::Time) ? AxisMode::Time : AxisMode::Sequence);
    if (const auto metric = metricFromWord(settings.value(kHeatmapMetricKey).toString()))
        m_views.heatmap->setMetric(*metric);
    const QString wait = settings.value(kWaitChartKey).toString();
    if (wait == waitWord(WaitMode::TimeoutTime))
        m_views.charts->setDurationMode(WaitMode::TimeoutTime);
    if (settings.contains(kLogWrapKey))
        m_views.log->textView()->setWrapLines(settings.value(kLogWrapKey).toBool());
    m_views.log->setSeverityFilter(severityFromWord(settings.value(kLogSeverityKey).toString()));
}

void ViewPreferences::watch()
{
    // Only the axis the user chose: the one the timeline picks for a bundle is not a choice.
    connect(m_views.timeline, &views::RankTimelineView::axisModeChosen, this,
        [](AxisMode mode) { QSettings().setValue(kTimelineAxisKey, axisWord(mode)); });
    connect(m_views.heatmap, &views::PairHeatmapView::metricChanged, this,
        [](model::PairMetric metric) {
            QSettings().setValue(kHeatmapMetricKey, metricWord(metric));
        });
    connect(m_views.charts, &ChartsPanel::durationModeChosen, this,
        [](WaitMode mode) { QSettings().setValue(kWaitChartKey, waitWord(mode)); });
    connect(m_views.log->textView(), &views::LogTextView::wrapLinesChanged, this,
        [](bool wrap) { QSettings().setValue(kLogWrapKey, wrap); });
    connect(m_views.log, &views::LogViewer::severityFilterChosen, this,
        [](std::optional<model::Severity> severity) {
            QSettings().setValue(kLogSeverityKey, severityWord(severity));
        });
}

} // namespace rankscope::app
