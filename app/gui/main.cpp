// rankscope: the desktop application.
//   rankscope [BUNDLE...]                    open those folders / files / archives
//   rankscope --screenshot FILE --quit-after-load BUNDLE
//                                            load, wait for the diagnosis, save the main
//                                            window to FILE and exit (end-to-end tests)
//   rankscope --export FILE [--format F] [--anonymize] [--appendix] BUNDLE...
//                                            write the diagnosis report and exit, with no
//                                            window and no display (headlessexport.h)
#include "app/about/helptext.h"
#include "app/about/version.h"
#include "app/gui/eventloopprobe.h"
#include "app/gui/headlessexport.h"
#include "app/gui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Time the window gets to lay out and paint the new document before it is grabbed.
constexpr int kSettleMs = 800;

int runHeadlessCheck(rankscope::app::MainWindow& window, const QString& screenshot,
    int timeoutSeconds, const QElapsedTimer& sinceOpen, const rankscope::app::EventLoopProbe& probe)
{
    using rankscope::app::MainWindow;
    int exitCode = 0;
    QObject::connect(&window, &MainWindow::documentShown, &window,
        [&window, screenshot, &sinceOpen, &probe](rankscope::views::DocumentPtr) {
            // From asking to open the bundle to its verdict on screen: what bench/RESULTS.md
            // compares with the command line's time on the same bundle.
            const qint64 shownMs = sinceOpen.elapsed();
            QTimer::singleShot(kSettleMs, &window, [&window, screenshot, shownMs, &probe] {
                // Read before the grab, which is the test's work, not the load's.
                const qint64 stallMs = probe.longestStallMs();
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
                std::printf("shown after: %lld ms\n", static_cast<long long>(shownMs));
                std::printf("longest event-loop stall: %lld ms\n", static_cast<long long>(stallMs));
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
    // The installed desktop entry and icon (packaging/): a Wayland compositor matches the
    // window to its entry by this name, and an X11 one shows the icon from the theme.
    QGuiApplication::setDesktopFileName(QStringLiteral(RANKSCOPE_APP_ID));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral(RANKSCOPE_APP_ID)));
    // --version prints "rankscope 0.1.0 (git 15bc968e1a2b)": Qt puts the name before this.
    const std::string versionLine = rankscope::about::versionLine("rankscope");
    QApplication::setApplicationVersion(
        QString::fromStdString(versionLine.substr(versionLine.find(' ') + 1)));

    // The options come from the table the manual page is made from (app/about/commandline.h).
    const rankscope::about::ProgramSpec& spec = rankscope::about::appProgram();
    QCommandLineParser parser;
    parser.setApplicationDescription(fromView(spec.oneLine) + QStringLiteral("\n\n")
        + QString::fromStdString(rankscope::about::helpSectionsText(spec)));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    for (const rankscope::about::PositionalSpec& positional : spec.positionals)
        parser.addPositionalArgument(fromView(positional.name), fromView(positional.description),
            fromView(positional.syntax));
    for (const rankscope::about::OptionSpec& option : spec.options) {
        if (option.longName == "--help" || option.longName == "--version")
            continue; // Qt's own, added above
        QStringList names { fromView(option.longName.substr(2)) };
        if (!option.shortName.empty())
            names.append(fromView(option.shortName.substr(1)));
        parser.addOption(
            QCommandLineOption(names, QString::fromStdString(rankscope::about::optionText(option)),
                fromView(option.valueName), fromView(option.defaultValue)));
    }
    // parse() rather than process(): a usage error exits with 2 like rankscope-cli's.
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "rankscope: %s\n", qPrintable(parser.errorText()));
        return rankscope::app::kExportUsage;
    }
    if (parser.isSet(help))
        parser.showHelp(0);
    if (parser.isSet(version))
        parser.showVersion();

    if (parser.isSet(QStringLiteral("export"))) {
        rankscope::app::HeadlessExportRequest request;
        request.output = parser.value(QStringLiteral("export"));
        request.format = parser.value(QStringLiteral("format"));
        request.anonymize = parser.isSet(QStringLiteral("anonymize"));
        request.appendix = parser.isSet(QStringLiteral("appendix"));
        request.paths = parser.positionalArguments();
        return rankscope::app::runHeadlessExport(request);
    }
    if (parser.isSet(QStringLiteral("format")) || parser.isSet(QStringLiteral("anonymize"))
        || parser.isSet(QStringLiteral("appendix"))) {
        std::fprintf(
            stderr, "rankscope: --format, --anonymize and --appendix go with --export FILE\n");
        return rankscope::app::kExportUsage;
    }

    rankscope::app::MainWindow window;
    window.show();
    const QStringList bundles = parser.positionalArguments();
    QElapsedTimer sinceOpen;
    sinceOpen.start();
    rankscope::app::EventLoopProbe probe;
    probe.start();
    if (!bundles.isEmpty())
        window.openPaths(bundles);

    if (parser.isSet(QStringLiteral("quit-after-load"))
        || parser.isSet(QStringLiteral("screenshot"))) {
        if (bundles.isEmpty())
            window.openSampleBundle();
        return runHeadlessCheck(window, parser.value(QStringLiteral("screenshot")),
            std::max(1, parser.value(QStringLiteral("load-timeout")).toInt()), sinceOpen, probe);
    }
    return QApplication::exec();
}
