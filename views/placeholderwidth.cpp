#include "views/placeholderwidth.h"

#include <QEvent>
#include <QLineEdit>
#include <QStyle>
#include <QStyleOptionFrame>

namespace rankscope::views {

namespace {

// QLineEdit's own spacing between its frame and the text (QLineEditPrivate::horizontalMargin)
// and the room its cursor takes after the last character.
constexpr int kTextMargin = 2;
constexpr int kCursorRoom = 1;

class PlaceholderWidthKeeper : public QObject {
public:
    explicit PlaceholderWidthKeeper(QLineEdit* edit)
        : QObject(edit)
        , m_edit(edit)
    {
        edit->installEventFilter(this);
        apply();
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // Keyed on the font, the style and the placeholder; any of them changes the width.
        if (watched == m_edit
            && (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
                || event->type() == QEvent::Polish))
            apply();
        return QObject::eventFilter(watched, event);
    }

private:
    void apply() { m_edit->setMinimumWidth(placeholderWidth(m_edit)); }

    QLineEdit* m_edit;
};

} // namespace

int placeholderWidth(const QLineEdit* edit)
{
    const QFontMetrics fm = edit->fontMetrics();
    const QMargins text = edit->textMargins();
    int w = fm.horizontalAdvance(edit->placeholderText()) + 2 * kTextMargin + kCursorRoom
        + text.left() + text.right();
    QStyle* style = edit->style();
    if (edit->isClearButtonEnabled()) {
        // The clear button's slot is reserved whether or not it shows (Qt's side widgets:
        // icon plus 6 px, plus the icon margin).
        w += style->pixelMetric(QStyle::PM_LineEditIconSize, nullptr, edit) + 6
            + style->pixelMetric(QStyle::PM_LineEditIconMargin, nullptr, edit);
    }
    QStyleOptionFrame option;
    option.initFrom(edit);
    option.rect = edit->rect();
    option.lineWidth
        = edit->hasFrame() ? style->pixelMetric(QStyle::PM_DefaultFrameWidth, &option, edit) : 0;
    option.midLineWidth = 0;
    option.state |= QStyle::State_Sunken;
    const QMargins contents = edit->contentsMargins();
    return style->sizeFromContents(QStyle::CT_LineEdit, &option, QSize(w, fm.height()), edit)
               .width()
        + contents.left() + contents.right();
}

void keepPlaceholderVisible(QLineEdit* edit)
{
    new PlaceholderWidthKeeper(edit);
}

} // namespace rankscope::views
