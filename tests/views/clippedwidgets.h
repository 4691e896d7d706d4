#pragma once
// Which widgets of a scroll area reach past its visible width, or are shorter than their
// wrapped text: a wrapped panel has nothing to the right of its viewport (its horizontal scroll
// bar is off, so anything there is cut off) and nothing cut at the bottom.

#include <QLabel>
#include <QScrollArea>
#include <QStringList>

namespace rankscope::testing {

inline QStringList clippedWidgets(const QScrollArea& area)
{
    QStringList clipped;
    const int limit = area.viewport()->width();
    const auto widgets = area.widget()->findChildren<QWidget*>();
    for (const QWidget* w : widgets) {
        if (!w->isVisibleTo(area.widget()) || w->width() <= 0)
            continue;
        const int right = w->mapTo(area.viewport(), QPoint(w->width(), 0)).x();
        // A widget that wraps its own text must also be tall enough for it.
        const bool cutShort = w->hasHeightForWidth() && !w->layout()
            && w->height() < w->heightForWidth(w->width());
        if (right <= limit && !cutShort)
            continue;
        QString name = w->objectName();
        if (name.isEmpty())
            name = qobject_cast<const QLabel*>(w) ? qobject_cast<const QLabel*>(w)->text().left(40)
                                                  : w->accessibleName().left(40);
        clipped << QStringLiteral("%1 '%2' ends at %3 > %4, %5 tall for %6")
                       .arg(QString::fromLatin1(w->metaObject()->className()), name)
                       .arg(right)
                       .arg(limit)
                       .arg(w->height())
                       .arg(w->hasHeightForWidth() ? w->heightForWidth(w->width()) : -1);
    }
    if (area.widget()->width() > limit)
        clipped << QStringLiteral("content %1 > %2").arg(area.widget()->width()).arg(limit);
    return clipped;
}

} // namespace rankscope::testing
