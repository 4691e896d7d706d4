#pragma once
// The "Ranks" dock: the ranks table with a text filter (rank lists like "0-3,7" or any
// text), a state filter, and selection synchronised both ways with SelectionState
// (and the rank filter the heatmap sets).

#include "views/bundledocument.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace rankscope::views {
class RankFilterProxy;
class RankTableModel;
class SelectionState;
} // namespace rankscope::views

namespace rankscope::app {

class RanksPanel : public QWidget {
    Q_OBJECT
public:
    explicit RanksPanel(views::SelectionState* selection, QWidget* parent = nullptr);

    // The bundle before its diagnosis: ranks, hosts and GPUs appear while it is diagnosed.
    void showSummary(views::DocumentPtr summary);
    QTableView* table() const { return m_table; }
    views::RankTableModel* model() const { return m_model; }
    views::RankFilterProxy* proxy() const { return m_proxy; }
    QLineEdit* filterEdit() const { return m_filter; }
    // "8 of 8 ranks", or "Loading…" while a bundle loads and the table is still empty.
    QString countText() const;

private:
    void onDocumentChanged();
    void onRankSelected(int rank);
    void onRankFilterChanged();
    void fillStateFilter();
    void applyStateFilter();
    void updateCount();
    void fitColumns();

    views::SelectionState* m_selection;
    views::RankTableModel* m_model;
    views::RankFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QComboBox* m_state;
    QLabel* m_count;
    QLabel* m_pairFilter;
    QToolButton* m_clearPairFilter;
    QTableView* m_table;
    bool m_syncing = false;
};

} // namespace rankscope::app
