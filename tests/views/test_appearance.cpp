// View → Appearance: a dark or light theme and a text size, applied to every view at once
// and kept for the next run.
#include "viewtestsupport.h"
#include "app/gui/appearance.h"
#include "app/gui/mainwindow.h"
#include "views/theme.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>

using namespace rankscope;
using namespace rankscope::testing;

TEST_CASE("the dark theme and a larger text size apply everywhere and are kept", "[appearance]")
{
    const QPalette before = QApplication::palette();
    const qreal pointSize = QApplication::font().pointSizeF();
    {
        app::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy shown(&window, &app::MainWindow::documentShown);
        window.openPaths({ QStringLiteral(RANKSCOPE_TEST_DATA "/views/straggler-8ranks") });
        REQUIRE(waitFor([&] { return shown.count() > 0; }));

        window.findChild<QAction*>(QStringLiteral("theme2Action"))->trigger(); // Dark
        QCoreApplication::processEvents();
        CHECK(views::theme::isDark(QApplication::palette()));
        CHECK(views::theme::isDark(window.palette()));
        window.findChild<QAction*>(QStringLiteral("largerTextAction"))->trigger();
        CHECK(QApplication::font().pointSizeF() == Approx(pointSize * 1.1));
        CHECK(window.appearance()->textPercent() == 110);
        QDir().mkpath(QStringLiteral(RANKSCOPE_SHOTS_DIR));
        QCoreApplication::processEvents();
        window.grab().save(QStringLiteral(RANKSCOPE_SHOTS_DIR "/appearance-dark.png"));
    }
    // The next run starts with the same choice (settings are per test process).
    QApplication::setPalette(before);
    app::Appearance next;
    CHECK(next.theme() == app::Theme::Dark);
    CHECK(next.textPercent() == 110);
    CHECK(views::theme::isDark(QApplication::palette()));
    next.setTheme(app::Theme::System);
    next.setTextPercent(100);
    CHECK_FALSE(views::theme::isDark(QApplication::palette()));
}
