#include "views/screentooltip.h"

#include <QApplication>
#include <QGuiApplication>
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

} // namespace

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

void showToolTip(const QPoint& globalPos, const QString& text, QWidget* widget)
{
    if (text.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(globalPos, text, widget);
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
