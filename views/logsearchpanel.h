#pragma once
// Search all logs (Ctrl+Shift+F): a pattern, a "regular expression" switch, Search / Cancel,
// a status line ("searching 12 of 4096 files…", "first 10,000 hits shown") and the hits as
// rank · file:line · text. The panel only asks for a search (searchRequested) and shows what
// arrives; the application runs it off the GUI thread. Activating a hit asks for its line.

#include "model/evidence.h"
#include "views/logsearch.h"
#include "views/selectionstate.h" // declares EvidenceRef as a meta type, for hitActivated

#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace rankscope::views {

class LogSearchModel;

class LogSearchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LogSearchPanel(QWidget* parent = nullptr);

    LogSearchModel* model() const { return m_model; }
    QTreeView* hitList() const { return m_hits; }
    QLineEdit* patternEdit() const { return m_pattern; }
    LogSearchQuery query() const;
    QString statusText() const;
    bool running() const { return m_running; }

public Q_SLOTS:
    // Starts the search the edit and the switch describe (Enter, the Search button).
    void requestSearch();
    void searchStarted(int sources);
    void appendHits(const std::vector<rankscope::views::LogSearchHit>& hits);
    void searchProgress(int sourcesDone, int sources);
    void searchFinished(bool cancelled, bool capped, int maxHits);
    void showError(const QString& message);
    void clear();

Q_SIGNALS:
    void searchRequested(rankscope::views::LogSearchQuery query);
    void cancelRequested();
    void hitActivated(rankscope::model::EvidenceRef ref);

private:
    void setRunning(bool running);

    LogSearchModel* m_model;
    QLineEdit* m_pattern;
    QCheckBox* m_regex;
    QPushButton* m_searchButton;
    QLabel* m_status;
    QTreeView* m_hits;
    bool m_running = false;
};

} // namespace rankscope::views
