#include "app/gui/panelfocusframe.h"

#include <QEvent>
#include <QPainter>

namespace rankscope::app {

namespace {
constexpr int kFrameWidth = 2;
}

PanelFocusFrame::PanelFocusFrame(QWidget* window)
    : QWidget(window)
{
    setObjectName(QStringLiteral("panelFocusFrame"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
}

void PanelFocusFrame::follow(QWidget* panel)
{
    if (m_panel == panel) {
        place();
        return;
    }
    if (m_panel)
        m_panel->removeEventFilter(this);
    m_panel = panel;
    if (m_panel)
        m_panel->installEventFilter(this);
    place();
}

void PanelFocusFrame::place()
{
    // A floating dock is a window of its own: the frame cannot reach it there.
    QWidget* window = parentWidget();
    if (!m_panel || !m_panel->isVisible() || m_panel->window() != window->window()) {
        hide();
        return;
    }
    setGeometry(QRect(m_panel->mapTo(window, QPoint(0, 0)), m_panel->size()));
    raise();
    show();
    update();
}

bool PanelFocusFrame::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_panel) {
        switch (event->type()) {
        case QEvent::Move:
        case QEvent::Resize:
        case QEvent::Show:
        case QEvent::Hide:
        case QEvent::ParentChange:
            place();
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PanelFocusFrame::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    QPen pen(palette().color(QPalette::Highlight), kFrameWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    p.drawRect(rect().adjusted(kFrameWidth / 2, kFrameWidth / 2, -kFrameWidth / 2 - 1,
        -kFrameWidth / 2 - 1));
}

} // namespace rankscope::app
