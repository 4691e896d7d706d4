// Catch2 main for view tests: the QApplication must exist before any widget. The offscreen
// platform is forced when no display is set, so the tests run headless anywhere.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>

#include <cstdlib>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM") && !std::getenv("DISPLAY"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
