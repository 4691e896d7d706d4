#pragma once
// A chart's legend drawn under the plot, wrapping instead of eliding. Qt Charts lays its
// legend out on one row and cuts every label to fit ("com…", "initia…") in a dock a third
// of the window wide; this one flows its entries onto as many rows as the width needs and
// wraps an entry's words when even one entry is wider than the chart.
//
// It follows a chart's own legend: the visible markers (each chart hides the markers of what
// it did not draw) become the entries, with their brush and border, and the chart's legend
// is hidden. It sits over the bottom of the chart view and widens the chart's bottom margin
// by its height, so the plot never runs under it.

#include <QBrush>
#include <QColor>
#include <QList>
#include <QMargins>
#include <QPointer>
#include <QRect>
#include <QString>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace rankscope::views {

class ChartLegend : public QWidget {
    Q_OBJECT
public:
    struct Entry {
        QString text;
        QBrush fill;
        QColor border;
        bool round = false; // a scatter series' point rather than a bar
    };

    // A child of `view`, kept at its bottom edge.
    explicit ChartLegend(QChartView* view);

    // Takes the entries from `chart`'s visible legend markers and hides that legend. Call
    // after every QChartView::setChart (the margins are the new chart's).
    void follow(QChart* chart);
    void setEntries(QList<Entry> entries);
    const QList<Entry>& entries() const { return m_entries; }

    // Where entry i's text is drawn at the current width (for tests): the text wraps inside
    // it and is never elided.
    QRect textRect(int i) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    struct Placed {
        QRect swatch;
        QRect text;
    };
    // Entries flowed into rows at `width`; `height` receives the total height.
    QList<Placed> layoutFor(int width, int* height) const;
    void relayout();

    QChartView* m_view;
    QPointer<QChart> m_chart;
    QMargins m_chartMargins; // the chart's own, before the legend's room was added
    QList<Entry> m_entries;
};

} // namespace rankscope::views
