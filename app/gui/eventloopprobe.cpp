#include "app/gui/eventloopprobe.h"

#include <algorithm>

namespace rankscope::app {

EventLoopProbe::EventLoopProbe(QObject* parent)
    : QObject(parent)
{
    m_timer.setInterval(kIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
}

void EventLoopProbe::start()
{
    m_clock.start();
    m_lastTickMs = 0;
    m_longestMs = 0;
    m_timer.start();
}

void EventLoopProbe::tick()
{
    const qint64 now = m_clock.elapsed();
    m_longestMs = std::max(m_longestMs, now - m_lastTickMs);
    m_lastTickMs = now;
}

qint64 EventLoopProbe::longestStallMs() const
{
    if (!m_clock.isValid())
        return 0;
    return std::max(m_longestMs, m_clock.elapsed() - m_lastTickMs);
}

} // namespace rankscope::app
