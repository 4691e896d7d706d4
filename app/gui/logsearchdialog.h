#pragma once
// The "Search All Logs" window (Ctrl+Shift+F): the search panel over the open document, its
// runner, and the jump from a hit to its line in the log viewer. Not modal, so the reader can
// click through hits while reading the log.

#include <QDialog>

namespace rankscope::views {
class LogSearchPanel;
class LogViewer;
class SelectionState;
} // namespace rankscope::views

namespace rankscope::app {

class LogSearchRunner;

class LogSearchDialog : public QDialog {
    Q_OBJECT
public:
    LogSearchDialog(views::SelectionState* selection, views::LogViewer* viewer, QWidget* parent);

    views::LogSearchPanel* panel() const { return m_panel; }
    LogSearchRunner* runner() const { return m_runner; }

public Q_SLOTS:
    // Shows the window with the pattern selected, ready to type.
    void showAndFocus();

private:
    views::SelectionState* m_selection;
    views::LogViewer* m_viewer;
    views::LogSearchPanel* m_panel;
    LogSearchRunner* m_runner;
};

} // namespace rankscope::app
