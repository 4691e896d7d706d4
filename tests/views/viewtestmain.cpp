// Catch2 main for view tests: the QApplication must exist before any widget. The offscreen
// platform is forced when no display is set, so the tests run headless anywhere.
//
// Each process keeps its settings (recent bundles, window layout) in a folder of its own:
// CTest runs test cases as parallel processes, and one that opens a bundle must not change
// the recent list another is checking, nor touch the developer's own settings.
//
// The whole binary also runs as one process (the way a developer runs it by hand), so what a
// test case changes for the whole application — the font and palette a theme or text size
// sets, the tooltip font, the application's names and its settings — is put back after each
// test case: no test may pass or fail because of the ones that ran before it.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolTip>

#include <cstdlib>
#include <utility>
#include <vector>

namespace {

struct ApplicationState {
    QFont font;
    QPalette palette;
    QFont toolTipFont;
    QPalette toolTipPalette;
    QString organizationName;
    QString applicationName;
    bool standardPathsTestMode = false;
    std::vector<std::pair<QString, QVariant>> settings;

    static ApplicationState current()
    {
        ApplicationState s { QApplication::font(), QApplication::palette(), QToolTip::font(),
            QToolTip::palette(), QCoreApplication::organizationName(),
            QCoreApplication::applicationName(), QStandardPaths::isTestModeEnabled(), {} };
        QSettings settings;
        for (const QString& key : settings.allKeys())
            s.settings.emplace_back(key, settings.value(key));
        return s;
    }

    void restore() const
    {
        // Settings a test wrote under names of its own (testing::isolateSettings) go too.
        QSettings().clear();
        QStandardPaths::setTestModeEnabled(standardPathsTestMode);
        QCoreApplication::setOrganizationName(organizationName);
        QCoreApplication::setApplicationName(applicationName);
        QSettings settings;
        settings.clear();
        for (const auto& [key, value] : this->settings)
            settings.setValue(key, value);
        settings.sync();
        QApplication::setFont(font);
        QApplication::setPalette(palette);
        QToolTip::setFont(toolTipFont);
        QToolTip::setPalette(toolTipPalette);
    }
};

class ApplicationStateRestorer : public Catch::TestEventListenerBase {
public:
    using TestEventListenerBase::TestEventListenerBase;

    void testCaseStarting(const Catch::TestCaseInfo&) override
    {
        m_before = ApplicationState::current();
    }
    void testCaseEnded(const Catch::TestCaseStats&) override { m_before.restore(); }

private:
    ApplicationState m_before;
};

} // namespace

CATCH_REGISTER_LISTENER(ApplicationStateRestorer)

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
