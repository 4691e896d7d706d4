#pragma once
// Keyboard ways between the main window's panels (the central view and the docks):
//   F6 / Shift+F6   focus the next / previous visible panel, the central view first
//   Alt+0           focus the central view (the timeline)
//   Alt+1 … Alt+9   show, raise and focus dock N (it stays open when already focused)
// A PanelFocusFrame marks the panel the keyboard (these keys or Tab) moved to.

#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QWidget;

namespace rankscope::app {

class PanelFocusFrame;

class PanelNavigator : public QObject {
    Q_OBJECT
public:
    PanelNavigator(QMainWindow* window, QWidget* central, const QList<QDockWidget*>& docks);
    ~PanelNavigator() override;

    // Next, previous, the central view and one per dock, with their shortcuts.
    QList<QAction*> actions() const { return m_actions; }
    // A "Go to Panel" submenu of `menu` holding actions().
    QMenu* addMenuTo(QMenu* menu);

    // The central widget or dock holding the focus, or nullptr.
    QWidget* currentPanel() const;
    // Visible panels in F6 order: the central view, then the docks in their menu order
    // (a dock tabbed behind another is not visible).
    QList<QWidget*> visiblePanels() const;
    PanelFocusFrame* focusFrame() const { return m_frame; }

public Q_SLOTS:
    void focusNextPanel();
    void focusPreviousPanel();
    void focusCentral();
    void focusDock(QDockWidget* dock);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void focusPanel(QWidget* panel);
    void step(int delta);
    QWidget* panelOf(const QWidget* widget) const;

    QMainWindow* m_window;
    QWidget* m_central;
    QList<QDockWidget*> m_docks;
    QList<QAction*> m_actions;
    PanelFocusFrame* m_frame;
};

} // namespace rankscope::app
