#pragma once
// How long the GUI thread's event loop goes without turning: a timer asks to run every few
// milliseconds, and the longest gap between two runs is the longest time the window could
// not repaint or answer a click. `rankscope --quit-after-load` prints it for a load, from
// asking to open the bundle to the screenshot (bench/RESULTS.md).

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace rankscope::app {

class EventLoopProbe : public QObject {
public:
    explicit EventLoopProbe(QObject* parent = nullptr);

    // Starts timing now; work done before the event loop runs counts as a stall.
    void start();
    // The longest gap seen so far, in milliseconds, the one in progress included.
    qint64 longestStallMs() const;

private:
    void tick();

    static constexpr int kIntervalMs = 5;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastTickMs = 0;
    qint64 m_longestMs = 0;
};

} // namespace rankscope::app
