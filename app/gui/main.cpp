// rankscope: the desktop application.
//   rankscope [BUNDLE...]                    open those folders / files / archives
//   rankscope --screenshot FILE --quit-after-load BUNDLE
//                                            load, wait for the diagnosis, save the main
//                                            window to FILE and exit (end-to-end tests)
//   rankscope --export FILE [--format F] [--anonymize] BUNDLE...
//                                            write the diagnosis report and exit, with no
//                                            window and no display (headlessexport.h)
#include "app/gui/headlessexport.h"
#include "app/gui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>

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

// Whether the command line asks for something that opens no window (an export, the help,
// the version); read before QApplication exists, because the platform plugin is chosen in
// its constructor. Then no display is needed, e.g. on a cluster login node.
bool needsNoWindow(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (std::strcmp(a, "--export") == 0 || std::strncmp(a, "--export=", 9) == 0
            || std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0
            || std::strcmp(a, "--help-all") == 0 || std::strcmp(a, "--version") == 0
            || std::strcmp(a, "-v") == 0)
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    // An export needs no display: Qt's offscreen platform, unless the caller chose one.
    if (needsNoWindow(argc, argv) && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Rankscope"));
    QApplication::setApplicationName(QStringLiteral("rankscope"));
    QApplication::setApplicationVersion(QStringLiteral(RANKSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr(
        "Why did my multi-GPU training run hang?\n\n"
        "Headless report export (needs no display; uses Qt's offscreen platform):\n"
        "  rankscope --export report.html|.md|.json|.pdf [--format F] [--anonymize] PATH...\n"
        "loads the bundle, diagnoses it, writes the report with its figures and exits: 0 written,\n"
        "1 the bundle could not be loaded or the report not written, 2 usage error."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("bundle"),
        QObject::tr("Log folders, files or archives to open."), QStringLiteral("[BUNDLE...]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QObject::tr("After loading, save the main window to FILE (PNG)."), QStringLiteral("FILE"));
    const QCommandLineOption quitAfterLoad(QStringLiteral("quit-after-load"),
        QObject::tr("Exit once the diagnosis is shown (0), the load failed (2) or timed out (3)."));
    const QCommandLineOption timeout(QStringLiteral("load-timeout"),
        QObject::tr("Seconds --quit-after-load waits for the verdict (default 300)."),
        QStringLiteral("SECONDS"), QStringLiteral("300"));
    const QCommandLineOption exportTo(QStringLiteral("export"),
        QObject::tr("Write the diagnosis report of BUNDLE... to FILE and exit, without a window. "
                    "The format comes from the extension (.html, .md, .json, .pdf) or --format."),
        QStringLiteral("FILE"));
    const QCommandLineOption format(QStringLiteral("format"),
        QObject::tr("Report format for --export: html, md, json or pdf."), QStringLiteral("F"));
    const QCommandLineOption anonymize(QStringLiteral("anonymize"),
        QObject::tr("With --export: replace host names, IP addresses, user names and job ids "
                    "by stable pseudonyms (host-01, ip-01, user-01, job-01)."));
    for (const QCommandLineOption& option :
        { screenshot, quitAfterLoad, timeout, exportTo, format, anonymize })
        parser.addOption(option);
    // parse() rather than process(): a usage error exits with 2 like rankscope-cli's.
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "rankscope: %s\n", qPrintable(parser.errorText()));
        return rankscope::app::kExportUsage;
    }
    if (parser.isSet(help))
        parser.showHelp(0);
    if (parser.isSet(version))
        parser.showVersion();

    if (parser.isSet(exportTo)) {
        rankscope::app::HeadlessExportRequest request;
        request.output = parser.value(exportTo);
        request.format = parser.value(format);
        request.anonymize = parser.isSet(anonymize);
        request.paths = parser.positionalArguments();
        return rankscope::app::runHeadlessExport(request);
    }
    if (parser.isSet(format) || parser.isSet(anonymize)) {
        std::fprintf(stderr, "rankscope: --format and --anonymize go with --export FILE\n");
        return rankscope::app::kExportUsage;
    }

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
