#pragma once
// The "Charts" dock: the per-rank progress chart and the wait-time chart, with the process
// group they show (shared with every view through SelectionState) and the wait chart's mode.

#include "views/durationchart.h"

#include <QWidget>

class QComboBox;
class QSplitter;

namespace rankscope::views {
class ProgressChart;
class SelectionState;
} // namespace rankscope::views

namespace rankscope::app {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(views::SelectionState* selection, QWidget* parent = nullptr);

    views::ProgressChart* progressChart() const { return m_progress; }
    views::DurationChart* durationChart() const { return m_duration; }
    // What the wait chart shows, with its picker following.
    void setDurationMode(views::DurationChart::Mode mode);

Q_SIGNALS:
    // The user picked what the wait chart shows.
    void durationModeChosen(rankscope::views::DurationChart::Mode mode);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fillProcessGroups();

    views::SelectionState* m_selection;
    QComboBox* m_processGroup;
    QComboBox* m_mode;
    QSplitter* m_splitter;
    views::ProgressChart* m_progress;
    views::DurationChart* m_duration;
};

} // namespace rankscope::app
