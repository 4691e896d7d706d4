#include "app/gui/appearance.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>

#include <algorithm>

namespace rankscope::app {

namespace {

constexpr const char* kThemeKey = "appearance/theme";
constexpr const char* kTextKey = "appearance/textPercent";
constexpr int kMinTextPercent = 70;
constexpr int kMaxTextPercent = 200;
constexpr int kTextStep = 10;

} // namespace

Appearance::Appearance(QObject* parent)
    : QObject(parent)
    , m_systemPalette(QApplication::palette())
    , m_systemPointSize(QApplication::font().pointSizeF())
{
    QSettings settings;
    const int theme = settings.value(QLatin1String(kThemeKey), 0).toInt();
    m_theme = theme == 1 ? Theme::Light : theme == 2 ? Theme::Dark : Theme::System;
    m_textPercent = std::clamp(settings.value(QLatin1String(kTextKey), 100).toInt(), kMinTextPercent, kMaxTextPercent);
    if (m_theme != Theme::System || m_textPercent != 100)
        apply();
}

QPalette Appearance::darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe0, 0xe0, 0xe0);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2d, 0x2d, 0x2d));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Light, QColor(0x48, 0x48, 0x48));
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb5));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9e, 0x9e, 0x9e));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

void Appearance::setTheme(Theme theme)
{
    m_theme = theme;
    apply();
    save();
}

void Appearance::setTextPercent(int percent)
{
    m_textPercent = std::clamp(percent, kMinTextPercent, kMaxTextPercent);
    apply();
    save();
}

void Appearance::apply()
{
    switch (m_theme) {
    case Theme::System:
        QApplication::setPalette(m_systemPalette);
        break;
    case Theme::Light:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    }
    if (m_systemPointSize > 0) {
        QFont font = QApplication::font();
        font.setPointSizeF(m_systemPointSize * m_textPercent / 100.0);
        QApplication::setFont(font);
    }
}

void Appearance::save() const
{
    QSettings settings;
    settings.setValue(QLatin1String(kThemeKey), static_cast<int>(m_theme));
    settings.setValue(QLatin1String(kTextKey), m_textPercent);
}

QMenu* Appearance::createMenu(QWidget* parent)
{
    auto* menu = new QMenu(tr("&Appearance"), parent);
    menu->setObjectName(QStringLiteral("appearanceMenu"));
    auto* themes = new QActionGroup(menu);
    const std::pair<Theme, QString> choices[] = { { Theme::System, tr("&System Theme") },
        { Theme::Light, tr("&Light Theme") }, { Theme::Dark, tr("&Dark Theme") } };
    for (const auto& [theme, label] : choices) {
        QAction* a = menu->addAction(label);
        a->setCheckable(true);
        a->setChecked(theme == m_theme);
        a->setObjectName(QStringLiteral("theme%1Action").arg(static_cast<int>(theme)));
        themes->addAction(a);
        const Theme chosen = theme;
        connect(a, &QAction::triggered, this, [this, chosen] { setTheme(chosen); });
    }
    menu->addSeparator();
    QAction* larger = menu->addAction(tr("&Larger Text"), this, [this] { setTextPercent(m_textPercent + kTextStep); });
    larger->setObjectName(QStringLiteral("largerTextAction"));
    larger->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Equal));
    QAction* smaller = menu->addAction(tr("&Smaller Text"), this, [this] { setTextPercent(m_textPercent - kTextStep); });
    smaller->setObjectName(QStringLiteral("smallerTextAction"));
    smaller->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Minus));
    QAction* reset = menu->addAction(tr("&Normal Text Size"), this, [this] { setTextPercent(100); });
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    return menu;
}

} // namespace rankscope::app
