// rankscope: the desktop application.
//   rankscope [BUNDLE...]                    open those folders / files / archives
//   rankscope --screenshot FILE --quit-after-load BUNDLE
//                                            load, wait for the diagnosis, save the main
//                                            window to FILE and exit (end-to-end tests)
#include "app/gui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

#ifndef RANKSCOPE_VERSION
#define RANKSCOPE_VERSION "dev"
#endif

namespace {

// Time the window gets to lay out and paint the new document before it is grabbed.
constexpr int kSettleMs = 800;

int runHeadlessCheck(
    rankscope::app::MainWindow& window, const QString& screenshot, int timeoutSeconds)
{
    using rankscope::app::MainWindow;
    int exitCode = 0;
    QObject::connect(&window, &MainWindow::documentShown, &window,
        [&window, screenshot](rankscope::views::DocumentPtr) {
            QTimer::singleShot(kSettleMs, &window, [&window, screenshot] {
                if (!screenshot.isEmpty()) {
                    QDir().mkpath(QFileInfo(screenshot).absolutePath());
                    if (!window.grab().save(screenshot)) {
                        std::fprintf(
                            stderr, "rankscope: cannot write %s\n", qPrintable(screenshot));
                        QCoreApplication::exit(4);
                        return;
                    }
                }
                std::printf("verdict: %s\n", qPrintable(window.verdictText()));
                std::printf("bundle: %s\n", qPrintable(window.bundleInfoText()));
                std::printf("title: %s\n", qPrintable(window.windowTitle()));
                std::fflush(stdout);
                QCoreApplication::exit(0);
            });
        });
    QObject::connect(&window, &MainWindow::loadFailed, &window, [](const QString& message) {
        std::fprintf(stderr, "rankscope: load failed: %s\n", qPrintable(message));
        QCoreApplication::exit(2);
    });
    QTimer::singleShot(timeoutSeconds * 1000, &window, [timeoutSeconds] {
        std::fprintf(stderr, "rankscope: no verdict after %d s\n", timeoutSeconds);
        QCoreApplication::exit(3);
    });
    exitCode = QApplication::exec();
    return exitCode;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Rankscope"));
    QApplication::setApplicationName(QStringLiteral("rankscope"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Why did my multi-GPU training run hang?"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("bundle"),
        QObject::tr("Log folders, files or archives to open."), QStringLiteral("[BUNDLE...]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QObject::tr("After loading, save the main window to FILE (PNG)."), QStringLiteral("FILE"));
    const QCommandLineOption quitAfterLoad(QStringLiteral("quit-after-load"),
        QObject::tr("Exit once the diagnosis is shown (0), the load failed (2) or timed out (3)."));
    const QCommandLineOption timeout(QStringLiteral("load-timeout"),
        QObject::tr("Seconds --quit-after-load waits for the verdict (default 300)."),
        QStringLiteral("SECONDS"), QStringLiteral("300"));
    parser.addOption(screenshot);
    parser.addOption(quitAfterLoad);
    parser.addOption(timeout);
    parser.process(app);

    rankscope::app::MainWindow window;
    window.show();
    const QStringList bundles = parser.positionalArguments();
    if (!bundles.isEmpty())
        window.openPaths(bundles);

    if (parser.isSet(quitAfterLoad) || parser.isSet(screenshot)) {
        if (bundles.isEmpty())
            window.openSampleBundle();
        return runHeadlessCheck(
            window, parser.value(screenshot), std::max(1, parser.value(timeout).toInt()));
    }
    return QApplication::exec();
}
