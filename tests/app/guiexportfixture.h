#pragma once
// Shared by the desktop export tests: running the real `rankscope` binary with no display,
// reading its outputs, and looking at PNG figures.

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace rankscope::testing {

struct RunResult {
    int exitCode = -1;
    QString out;
    QString err;
};

// The binary as CI runs it: no X or Wayland display and no platform chosen, so an export
// has to pick the offscreen platform by itself. `offscreen` chooses it for the runs that
// would open a window.
inline RunResult runRankscope(const QStringList& arguments, bool offscreen = false)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : { "QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY" })
        env.remove(QString::fromLatin1(name));
    if (offscreen)
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RANKSCOPE_APP), arguments);
    RunResult r;
    if (!process.waitForFinished(180'000)) {
        process.kill();
        process.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = QString::fromLocal8Bit(process.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(process.readAllStandardError());
    return r;
}

inline QString outputDir(const QString& name)
{
    const QString dir = QStringLiteral(RANKSCOPE_TEST_OUTPUT "/") + name;
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    return dir;
}

inline QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool toolAvailable(const char* name)
{
    return !QStandardPaths::findExecutable(QString::fromLatin1(name)).isEmpty();
}

// A figure is a picture, not a blank: several colours, and a fair share of pixels that
// differ from the one in the top-left corner (the background).
inline void checkNotBlank(const QImage& image)
{
    REQUIRE_FALSE(image.isNull());
    CHECK(image.width() >= 200);
    CHECK(image.height() >= 150);
    const QRgb background = image.pixel(0, 0);
    QSet<QRgb> colours;
    qint64 ink = 0;
    qint64 samples = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb p = image.pixel(x, y);
            ++samples;
            ink += p != background ? 1 : 0;
            if (colours.size() < 64)
                colours.insert(p);
        }
    }
    CHECK(colours.size() >= 8);
    CHECK(ink * 50 > samples); // more than 2 %
}

// Every PNG embedded as a data: URI in an HTML report.
inline std::vector<QImage> embeddedImages(const QByteArray& html)
{
    std::vector<QImage> images;
    const QByteArray marker = "data:image/png;base64,";
    for (qsizetype at = html.indexOf(marker); at >= 0; at = html.indexOf(marker, at)) {
        at += marker.size();
        const qsizetype end = html.indexOf('"', at);
        const QByteArray png = QByteArray::fromBase64(html.mid(at, end - at));
        images.push_back(QImage::fromData(png, "PNG"));
    }
    return images;
}

} // namespace rankscope::testing
