#pragma once
// Tooltips that stay on the screen. Qt places a tooltip inside the screen's full geometry
// (over a panel or a taskbar), and one wider than the screen (a long path, a large text
// size on a small screen) runs off its right edge. Views that show their own tooltips
// (QToolTip::showText from a QEvent::ToolTip handler) call showToolTip() instead: the tip is
// wrapped to the available width and placed inside the available geometry of the screen
// under the cursor. Item views (tables, trees, lists) get the same for their cells' and
// headers' tooltips from keepToolTipsOnScreen().

#include <QPoint>
#include <QRect>
#include <QSize>

class QAbstractItemView;
class QString;
class QWidget;

namespace rankscope::views {

// Where a popup of `size` goes for a cursor at `cursor`: below and right of it (clear of a
// cursor `cursorHeight` tall), flipped left or above where it would leave `available`, and
// never outside it (a popup larger than `available` is cut to it).
QRect placePopup(QSize size, QPoint cursor, const QRect& available, int cursorHeight);

// QToolTip::showText(globalPos, text, widget) kept inside the screen's available geometry.
// An empty text hides the tooltip; as with Qt's, a non-null `rect` (in `widget`'s
// coordinates) hides it when the cursor leaves that rectangle.
void showToolTip(
    const QPoint& globalPos, const QString& text, QWidget* widget, const QRect& rect = {});

// Shows the Qt::ToolTipRole of `view`'s cells and of its header sections through
// showToolTip() instead of Qt's own placement: an event filter on the viewports, owned by
// `view`. Call once the view has its headers (a QTreeView's or QTableView's are made with it).
void keepToolTipsOnScreen(QAbstractItemView* view);

} // namespace rankscope::views
