#pragma once
// The app's look, chosen by the user and kept across runs: the theme (the system's, light or
// dark) and the text size. Applied to the whole application, so every view (they derive
// their colours from the palette, views/theme.h) follows at once.

#include <QObject>
#include <QPalette>

class QMenu;
class QWidget;

namespace rankscope::app {

enum class Theme { System, Light, Dark };

class Appearance : public QObject {
    Q_OBJECT
public:
    // Reads the saved choice and applies it. Create once, after the QApplication.
    explicit Appearance(QObject* parent = nullptr);

    Theme theme() const { return m_theme; }
    int textPercent() const { return m_textPercent; }
    void setTheme(Theme theme);
    // Clamped to 70–200 %; 100 is the system's size.
    void setTextPercent(int percent);

    // View → Theme and Text Size, with their shortcuts (Ctrl+Shift+= / - / 0).
    QMenu* createMenu(QWidget* parent);

    static QPalette darkPalette();

private:
    void apply();
    void save() const;

    Theme m_theme = Theme::System;
    int m_textPercent = 100;
    QPalette m_systemPalette;
    qreal m_systemPointSize = 0;
};

} // namespace rankscope::app
