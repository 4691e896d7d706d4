#include "views/chartsupport.h"

#include "views/chartlegend.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>

#include <algorithm>

namespace rankscope::views::charts {

model::StrId chartProcessGroup(const BundleDocument& doc, const QString& selected)
{
    if (!doc.bundle)
        return model::kNoStr;
    const model::Bundle& bundle = *doc.bundle;
    if (!selected.isEmpty()) {
        const QByteArray key = selected.toUtf8();
        const model::StrId id = bundle.strings.find(
            std::string_view(key.constData(), static_cast<std::size_t>(key.size())));
        if (id != model::kNoStr)
            return id;
    }
    if (doc.diagnosis && doc.diagnosis->stuckCollective) {
        const model::StrId id = bundle.strings.find(doc.diagnosis->stuckCollective->processGroup);
        if (id != model::kNoStr)
            return id;
    }
    if (doc.timeline && !doc.timeline->seqAxes().empty())
        return doc.timeline->seqAxes().front().pg;
    return model::kNoStr;
}

QString processGroupLabel(const model::Bundle& bundle, model::StrId pg)
{
    if (pg == model::kNoStr)
        return QStringLiteral("no process group");
    const std::string_view key = bundle.text(pg);
    QString label = QStringLiteral("PG %1").arg(
        QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())));
    if (const model::ProcessGroup* group = bundle.processGroup(pg);
        group && group->desc != model::kNoStr) {
        const std::string_view desc = bundle.text(group->desc);
        label += QStringLiteral(" (%1)").arg(
            QString::fromUtf8(desc.data(), static_cast<qsizetype>(desc.size())));
    }
    return label;
}

std::vector<bool> initiatingMask(const BundleDocument& doc, std::size_t ranks)
{
    std::vector<bool> mask(ranks, false);
    if (!doc.diagnosis)
        return mask;
    const auto mark = [&](std::int32_t r) {
        if (r >= 0 && static_cast<std::size_t>(r) < ranks)
            mask[static_cast<std::size_t>(r)] = true;
    };
    for (std::int32_t r : doc.diagnosis->initiatingRanks)
        mark(r);
    if (doc.diagnosis->stuckPair) {
        mark(doc.diagnosis->stuckPair->first);
        mark(doc.diagnosis->stuckPair->second);
    }
    return mask;
}

QList<QPointF> markerPoints(const std::vector<QPointF>& points, std::size_t ranks, double hi)
{
    constexpr std::size_t kColumns = 1024;
    constexpr std::size_t kRows = 256;
    QList<QPointF> out;
    if (ranks <= kThinAboveRanks) {
        out.reserve(static_cast<qsizetype>(points.size()));
        for (const QPointF& p : points)
            out.append(p);
        return out;
    }
    std::vector<bool> taken(kColumns * kRows, false);
    for (const QPointF& p : points) {
        const std::size_t column = std::min(kColumns - 1,
            static_cast<std::size_t>(std::max(0.0, p.x()) / static_cast<double>(ranks) * static_cast<double>(kColumns)));
        const std::size_t row = hi > 0
            ? std::min(kRows - 1, static_cast<std::size_t>(std::max(0.0, p.y()) / hi * static_cast<double>(kRows - 1)))
            : 0;
        if (taken[column * kRows + row])
            continue;
        taken[column * kRows + row] = true;
        out.append(p);
    }
    return out;
}

double niceStep(double raw)
{
    if (raw <= 0)
        return 1;
    double decade = 1;
    while (decade * 10 <= raw)
        decade *= 10;
    while (decade > raw)
        decade /= 10;
    for (const double m : { 1.0, 2.0, 5.0, 10.0 }) {
        if (m * decade >= raw)
            return m * decade;
    }
    return 10 * decade;
}

int labelsThatFit(int pixels, const QFontMetrics& metrics, const QString& widest)
{
    const int each = metrics.horizontalAdvance(widest) + metrics.height();
    return std::max(2, pixels / std::max(1, each));
}

void styleChart(QChart* chart, const QPalette& palette)
{
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation); // thousands of bars: no animation
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    for (QAbstractAxis* axis : chart->axes())
        styleAxis(axis, palette);
}

void styleAxis(QAbstractAxis* axis, const QPalette& palette)
{
    axis->setLabelsColor(palette.color(QPalette::Text));
    axis->setTitleBrush(palette.color(QPalette::Text));
    // A notch smaller than the labels: a vertical title runs along a short plot in a small
    // window ("sequence number" was cut at 1024 x 700).
    // From the labels' font, so styling an axis twice does not shrink it twice.
    QFont title = axis->labelsFont();
    if (title.pointSizeF() > 0) {
        title.setPointSizeF(title.pointSizeF() * 0.9);
        title.setBold(axis->titleFont().bold());
        axis->setTitleFont(title);
    }
    axis->setLinePenColor(palette.color(QPalette::Mid));
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlphaF(0.4f);
    axis->setGridLineColor(grid);
    axis->setShadesVisible(false);
}

void replaceChart(QChartView* view, QChart* chart)
{
    QChart* old = view->chart();
    view->setChart(chart);
    delete old;
    if (auto* legend = view->findChild<ChartLegend*>(QString(), Qt::FindDirectChildrenOnly))
        legend->follow(chart);
}

} // namespace rankscope::views::charts
