#pragma once
// The "Import issues" table over ImportIssuesModel, sortable by its raw values. An empty table
// says why it is empty: a load in progress, no bundle yet, or a bundle whose files all read
// cleanly ("none" is an answer the user looks for, not a blank).

#include <QTableView>

namespace rankscope::views {

class ImportIssuesModel;
class SelectionState;

class ImportIssuesView : public QTableView {
    Q_OBJECT
public:
    ImportIssuesView(
        ImportIssuesModel* issues, SelectionState* selection, QWidget* parent = nullptr);

    // The sentence shown while the table has no rows.
    QString emptyText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    SelectionState* m_selection;
};

} // namespace rankscope::views
