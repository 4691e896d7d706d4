// Catch2 main for view tests: the QApplication must exist before any widget. The offscreen
// platform is forced when no display is set, so the tests run headless anywhere.
//
// Each process keeps its settings (recent bundles, window layout) in a folder of its own:
// CTest runs test cases as parallel processes, and one that opens a bundle must not change
// the recent list another is checking, nor touch the developer's own settings.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

#include <cstdlib>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM") && !std::getenv("DISPLAY"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QTemporaryDir settings;
    if (settings.isValid())
        for (const auto format : { QSettings::NativeFormat, QSettings::IniFormat })
            QSettings::setPath(format, QSettings::UserScope, settings.path());
    return Catch::Session().run(argc, argv);
}
