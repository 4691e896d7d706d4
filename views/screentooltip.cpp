#include "views/screentooltip.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QGuiApplication>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QScreen>
#include <QToolTip>
#include <QWidget>

#include <algorithm>

namespace rankscope::views {

namespace {

// The label QToolTip shows (Qt names it so; style sheets address it by that name).
QLabel* visibleToolTipLabel()
{
    const QWidgetList windows = QApplication::topLevelWidgets();
    for (QWidget* w : windows)
        if (w->isVisible() && w->objectName() == QLatin1String("qtooltip_label"))
            return qobject_cast<QLabel*>(w);
    return nullptr;
}

// Answers the tooltip events of an item view's viewport (and its headers' viewports) with
// the model's Qt::ToolTipRole, as Qt's delegate and header would, but kept on the screen.
class ItemToolTipFilter : public QObject {
public:
    using QObject::QObject;

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::ToolTip)
            return false;
        auto* viewport = qobject_cast<QWidget*>(watched);
        auto* view
            = viewport ? qobject_cast<QAbstractItemView*>(viewport->parentWidget()) : nullptr;
        if (!view || !view->model())
            return false;
        const auto* help = static_cast<QHelpEvent*>(event);
        QVariant tip;
        QRect rect; // the tip goes when the cursor leaves the cell or section, as Qt's does
        if (const auto* header = qobject_cast<QHeaderView*>(view)) {
            const int section = header->logicalIndexAt(help->pos());
            if (section >= 0) {
                tip = header->model()->headerData(section, header->orientation(), Qt::ToolTipRole);
                const int at = header->sectionViewportPosition(section);
                const int size = header->sectionSize(section);
                rect = header->orientation() == Qt::Horizontal
                    ? QRect(at, 0, size, viewport->height())
                    : QRect(0, at, viewport->width(), size);
            }
        } else {
            const QModelIndex index = view->indexAt(help->pos());
            tip = index.data(Qt::ToolTipRole);
            rect = view->visualRect(index);
        }
        showToolTip(help->globalPos(), tip.toString(), viewport, rect);
        return true;
    }
};

} // namespace

void keepToolTipsOnScreen(QAbstractItemView* view)
{
    auto* filter = new ItemToolTipFilter(view);
    view->viewport()->installEventFilter(filter);
    const QList<QHeaderView*> headers = view->findChildren<QHeaderView*>();
    for (QHeaderView* header : headers)
        header->viewport()->installEventFilter(filter);
}

QRect placePopup(QSize size, QPoint cursor, const QRect& available, int cursorHeight)
{
    const int w = std::min(size.width(), available.width());
    const int h = std::min(size.height(), available.height());
    int x = cursor.x() + 2;
    int y = cursor.y() + cursorHeight;
    if (x + w > available.right() + 1)
        x = cursor.x() - 4 - w; // to the left of the cursor
    if (y + h > available.bottom() + 1)
        y = cursor.y() - 4 - h; // above it
    x = std::clamp(x, available.left(), available.right() + 1 - w);
    y = std::clamp(y, available.top(), available.bottom() + 1 - h);
    return { x, y, w, h };
}

void showToolTip(const QPoint& globalPos, const QString& text, QWidget* widget, const QRect& rect)
{
    if (text.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(globalPos, text, widget, rect);
    QLabel* tip = visibleToolTipLabel();
    QScreen* screen = QGuiApplication::screenAt(globalPos);
    if (!screen && widget)
        screen = widget->screen();
    if (!tip || !screen)
        return;
    // The label's own window frame, if the platform gives a tooltip one (Qt's offscreen
    // platform does): the frame must stay on the screen too.
    const QRect frame = tip->frameGeometry();
    const QRect inner = tip->geometry();
    const QMargins margins(inner.left() - frame.left(), inner.top() - frame.top(),
        frame.right() - inner.right(), frame.bottom() - inner.bottom());
    const QRect available = screen->availableGeometry().marginsRemoved(margins);
    QSize size = tip->size();
    if (size.width() > available.width()) {
        // Wrapped at the screen's width rather than cut: its height grows instead.
        tip->setWordWrap(true);
        size = QSize(available.width(), tip->heightForWidth(available.width()));
    }
    size = size.boundedTo(available.size());
    if (size != tip->size())
        tip->setFixedSize(size);
    // Qt's own offset below the cursor (a 16 px cursor, twice that on high-DPI screens).
    const int cursorHeight = 16 * static_cast<int>(std::max<qreal>(1, screen->devicePixelRatio()));
    // move() places a window by its frame.
    tip->move(placePopup(size, globalPos, available, cursorHeight).topLeft()
        - QPoint(margins.left(), margins.top()));
}

} // namespace rankscope::views
