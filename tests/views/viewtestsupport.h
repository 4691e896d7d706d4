#pragma once
// Helpers every view and window test uses: wait for the event loop to deliver, where
// screenshots go, how colourful a render is, and settings kept away from the developer's.

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QSet>
#include <QStandardPaths>
#include <QString>

#include <functional>

namespace rankscope::testing {

// Runs the event loop until `done` (background loads, queued signals) or the timeout.
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

// Screenshots are written under the build tree (tests/views/shots) to be looked at.
inline QString shotPath(const QString& name)
{
    QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
    return QStringLiteral(RANKSCOPE_SHOTS_DIR "/") + name;
}

// Colours seen on a grid of every `step`-th pixel: a blank or failed render has one or two.
inline int distinctColours(const QImage& image, int step = 3)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += step)
        for (int x = 0; x < image.width(); x += step)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

// Never read or write the developer's own settings (the test main also gives each process
// a settings folder of its own).
inline void isolateSettings()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("rankscope-views-tests"));
}

} // namespace rankscope::testing
