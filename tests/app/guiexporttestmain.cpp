// Catch2 main for the desktop export tests: the QApplication must exist before any widget,
// on the offscreen platform unless a display was chosen, and with its own settings domain
// so the tests never touch a user's Rankscope settings.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStandardPaths>

#include <cstdlib>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM") && !std::getenv("DISPLAY"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("RankscopeTests"));
    QApplication::setApplicationName(QStringLiteral("rankscope-gui-export-tests"));
    return Catch::Session().run(argc, argv);
}
