#include "app/gui/panelnavigator.h"

#include "app/gui/panelfocusframe.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFocusEvent>
#include <QMainWindow>
#include <QMenu>

namespace rankscope::app {

namespace {

// The first widget inside `panel` that Tab would stop at, else the panel itself: focusing a
// container that takes no keys would leave the keyboard nowhere useful.
QWidget* firstFocusable(QWidget* panel)
{
    const auto takesTab = [](const QWidget* w) {
        return (w->focusPolicy() & Qt::TabFocus) && w->isVisible() && w->isEnabled();
    };
    if (takesTab(panel))
        return panel;
    QWidget* w = panel->nextInFocusChain();
    for (int guard = 0; w && w != panel && guard < 10000; ++guard, w = w->nextInFocusChain()) {
        if (panel->isAncestorOf(w) && takesTab(w))
            return w;
    }
    return panel;
}

} // namespace

PanelNavigator::PanelNavigator(QMainWindow* window, QWidget* central, const QList<QDockWidget*>& docks)
    : QObject(window)
    , m_window(window)
    , m_central(central)
    , m_docks(docks)
    , m_frame(new PanelFocusFrame(window))
{
    auto* next = new QAction(tr("Next Panel"), this);
    next->setObjectName(QStringLiteral("nextPanelAction"));
    next->setShortcut(QKeySequence(Qt::Key_F6));
    connect(next, &QAction::triggered, this, &PanelNavigator::focusNextPanel);
    auto* previous = new QAction(tr("Previous Panel"), this);
    previous->setObjectName(QStringLiteral("previousPanelAction"));
    previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F6));
    connect(previous, &QAction::triggered, this, &PanelNavigator::focusPreviousPanel);
    auto* timeline = new QAction(tr("Go to Timeline"), this);
    timeline->setShortcut(QKeySequence(Qt::ALT | Qt::Key_0));
    connect(timeline, &QAction::triggered, this, &PanelNavigator::focusCentral);
    m_actions << next << previous << timeline;
    int key = Qt::Key_1;
    for (QDockWidget* dock : m_docks) {
        auto* go = new QAction(tr("Go to %1").arg(dock->windowTitle()), this);
        if (key <= Qt::Key_9)
            go->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(key++)));
        connect(go, &QAction::triggered, this, [this, dock] { focusDock(dock); });
        // "Issues (3)": the action follows the dock's title.
        connect(dock, &QWidget::windowTitleChanged, go,
            [go](const QString& title) { go->setText(tr("Go to %1").arg(title)); });
        m_actions << go;
    }
    // Every window's focus changes pass here; only the FocusIn events of this window's
    // widgets are looked at.
    qApp->installEventFilter(this);
}

PanelNavigator::~PanelNavigator()
{
    qApp->removeEventFilter(this);
}

QMenu* PanelNavigator::addMenuTo(QMenu* menu)
{
    QMenu* sub = menu->addMenu(tr("&Go to Panel"));
    sub->addActions(m_actions.mid(0, 2));
    sub->addSeparator();
    sub->addActions(m_actions.mid(2));
    return sub;
}

QWidget* PanelNavigator::panelOf(const QWidget* widget) const
{
    if (!widget)
        return nullptr;
    for (QDockWidget* dock : m_docks) {
        if (dock == widget || dock->isAncestorOf(widget))
            return dock;
    }
    if (m_central == widget || m_central->isAncestorOf(widget))
        return m_central;
    return nullptr;
}

QWidget* PanelNavigator::currentPanel() const
{
    return panelOf(QApplication::focusWidget());
}

QList<QWidget*> PanelNavigator::visiblePanels() const
{
    QList<QWidget*> panels;
    if (m_central->isVisible())
        panels << m_central;
    for (QDockWidget* dock : m_docks) {
        if (dock->isVisible())
            panels << dock;
    }
    return panels;
}

void PanelNavigator::focusPanel(QWidget* panel)
{
    QWidget* content = panel;
    if (auto* dock = qobject_cast<QDockWidget*>(panel))
        content = dock->widget();
    else if (m_central == panel && m_central->focusProxy() == nullptr) {
        // A stacked central widget: its page on show is the panel.
        for (QWidget* child : m_central->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (child->isVisible()) {
                content = child;
                break;
            }
        }
    }
    if (!content)
        return;
    firstFocusable(content)->setFocus(Qt::ShortcutFocusReason);
    m_frame->follow(panel);
}

void PanelNavigator::step(int delta)
{
    const QList<QWidget*> panels = visiblePanels();
    if (panels.isEmpty())
        return;
    const int at = static_cast<int>(panels.indexOf(currentPanel()));
    const int count = static_cast<int>(panels.size());
    const int next = at < 0 ? (delta > 0 ? 0 : count - 1) : (at + delta + count) % count;
    focusPanel(panels[next]);
}

void PanelNavigator::focusNextPanel()
{
    step(1);
}

void PanelNavigator::focusPreviousPanel()
{
    step(-1);
}

void PanelNavigator::focusCentral()
{
    focusPanel(m_central);
}

void PanelNavigator::focusDock(QDockWidget* dock)
{
    // Show and raise, never hide: Alt+N pressed twice keeps the panel open.
    dock->show();
    dock->raise();
    focusPanel(dock);
}

bool PanelNavigator::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::FocusIn && watched->isWidgetType()) {
        auto* widget = static_cast<QWidget*>(watched);
        if (widget->window() == m_window) {
            switch (static_cast<QFocusEvent*>(event)->reason()) {
            case Qt::TabFocusReason:
            case Qt::BacktabFocusReason:
            case Qt::ShortcutFocusReason:
                m_frame->follow(panelOf(widget));
                break;
            case Qt::MouseFocusReason:
                m_frame->follow(nullptr);
                break;
            default: // window activation, popups: the frame stays as it was
                break;
            }
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rankscope::app
