#pragma once
// Tooltips that stay on the screen. Qt places a tooltip inside the screen's full geometry
// (over a panel or a taskbar), and one wider than the screen (a long path, a large text
// size on a small screen) runs off its right edge. Views that show their own tooltips
// (QToolTip::showText from a QEvent::ToolTip handler) call showToolTip() instead: the tip is
// wrapped to the available width and placed inside the available geometry of the screen
// under the cursor.

#include <QPoint>
#include <QRect>
#include <QSize>

class QString;
class QWidget;

namespace rankscope::views {

// Where a popup of `size` goes for a cursor at `cursor`: below and right of it (clear of a
// cursor `cursorHeight` tall), flipped left or above where it would leave `available`, and
// never outside it (a popup larger than `available` is cut to it).
QRect placePopup(QSize size, QPoint cursor, const QRect& available, int cursorHeight);

// QToolTip::showText(globalPos, text, widget) kept inside the screen's available geometry.
// An empty text hides the tooltip.
void showToolTip(const QPoint& globalPos, const QString& text, QWidget* widget);

} // namespace rankscope::views
