#include "views/chartlegend.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>

#include <algorithm>
#include <climits>

namespace rankscope::views {

namespace {

// Gaps in multiples of the font height, so the legend scales with the text size.
int swatchSide(const QFontMetrics& fm)
{
    return fm.height() * 3 / 4;
}
int innerGap(const QFontMetrics& fm)
{
    return fm.height() / 3;
} // swatch to its text
int entryGap(const QFontMetrics& fm)
{
    return fm.height();
} // between entries on a row
int rowGap(const QFontMetrics& fm)
{
    return fm.height() / 6;
}

} // namespace

ChartLegend::ChartLegend(QChartView* view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("chartLegend"));
    setAutoFillBackground(false);
    view->installEventFilter(this);
    hide();
}

void ChartLegend::follow(QChart* chart)
{
    m_chart = chart;
    QList<Entry> entries;
    if (chart) {
        m_chartMargins = chart->margins();
        for (QLegendMarker* marker : chart->legend()->markers()) {
            if (!marker->isVisible())
                continue;
            entries.append({ marker->label(), marker->brush(), marker->pen().color(),
                marker->type() == QLegendMarker::LegendMarkerTypeXY });
        }
        chart->legend()->setVisible(false);
    }
    setEntries(std::move(entries));
}

void ChartLegend::setEntries(QList<Entry> entries)
{
    m_entries = std::move(entries);
    relayout();
    update();
}

QList<ChartLegend::Placed> ChartLegend::layoutFor(int width, int* height) const
{
    const QFontMetrics fm(font());
    const int side = swatchSide(fm);
    const int room = std::max(1, width - 2 * innerGap(fm));
    QList<Placed> placed;
    int x = 0;
    int y = rowGap(fm);
    int rowHeight = 0;
    for (const Entry& e : m_entries) {
        // An entry narrower than the row keeps its text on one line; a wider one wraps its
        // words in the whole row.
        const int textRoom = std::max(1, room - side - innerGap(fm));
        const QRect text = fm.boundingRect(
            QRect(0, 0, textRoom, INT_MAX), Qt::TextWordWrap | Qt::AlignLeft, e.text);
        const int w = side + innerGap(fm) + text.width();
        if (x > 0 && x + w > room) {
            x = 0;
            y += rowHeight + rowGap(fm);
            rowHeight = 0;
        }
        const int h = std::max(text.height(), fm.height());
        Placed p;
        const int left = innerGap(fm) + x;
        p.swatch = QRect(left, y + (fm.height() - side) / 2, side, side);
        p.text = QRect(left + side + innerGap(fm), y, text.width(), h);
        placed.append(p);
        x += w + entryGap(fm);
        rowHeight = std::max(rowHeight, h);
    }
    if (height)
        *height = placed.isEmpty() ? 0 : y + rowHeight + rowGap(fm);
    return placed;
}

int ChartLegend::heightForWidth(int width) const
{
    int h = 0;
    layoutFor(width, &h);
    return h;
}

QSize ChartLegend::sizeHint() const
{
    return { width(), heightForWidth(width()) };
}

QSize ChartLegend::minimumSizeHint() const
{
    return { 0, 0 };
}

QRect ChartLegend::textRect(int i) const
{
    const QList<Placed> placed = layoutFor(width(), nullptr);
    return i >= 0 && i < placed.size() ? placed[i].text : QRect();
}

void ChartLegend::relayout()
{
    // Keyed on the view's size and the entries; redone on either change.
    const QRect area = m_view->contentsRect();
    const int h = m_entries.isEmpty() ? 0 : heightForWidth(area.width());
    setGeometry(area.left(), area.bottom() + 1 - h, area.width(), h);
    setVisible(h > 0);
    raise();
    if (m_chart) {
        QMargins margins = m_chartMargins;
        margins.setBottom(margins.bottom() + h);
        m_chart->setMargins(margins);
    }
}

bool ChartLegend::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view
        && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
        relayout();
    return QWidget::eventFilter(watched, event);
}

void ChartLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base)); // the chart's background
    const QList<Placed> placed = layoutFor(width(), nullptr);
    for (int i = 0; i < placed.size() && i < m_entries.size(); ++i) {
        const Entry& e = m_entries[i];
        p.setPen(e.border.isValid() ? e.border : e.fill.color());
        p.setBrush(e.fill);
        if (e.round) {
            p.setRenderHint(QPainter::Antialiasing, true);
            p.drawEllipse(placed[i].swatch.adjusted(0, 0, -1, -1));
            p.setRenderHint(QPainter::Antialiasing, false);
        } else {
            p.drawRect(placed[i].swatch.adjusted(0, 0, -1, -1));
        }
        p.setPen(palette().color(QPalette::Text));
        p.drawText(placed[i].text, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, e.text);
    }
}

} // namespace rankscope::views
