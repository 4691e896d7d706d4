#pragma once
// A frame in the highlight colour around the panel the keyboard moved to (Tab, F6, Alt+N),
// so a reader who cannot see the focus inside a large panel still knows where the keys go.
// A mouse click takes it away: the pointer already says where the reader is.

#include <QPointer>
#include <QWidget>

namespace rankscope::app {

class PanelFocusFrame : public QWidget {
    Q_OBJECT
public:
    // Drawn over `window`'s children; never takes a click.
    explicit PanelFocusFrame(QWidget* window);

    // Frames `panel` (a widget inside the window) and follows it as it moves and resizes;
    // nullptr hides the frame.
    void follow(QWidget* panel);
    QWidget* followed() const { return m_panel; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void place();

    QPointer<QWidget> m_panel;
};

} // namespace rankscope::app
