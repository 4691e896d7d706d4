#pragma once
// The log viewer panel: a source picker (the selected rank's sources first), the text of one
// source with line numbers and the diagnosis' evidence lines tinted, Find (Ctrl+F, F3,
// Shift+F3) with "match i of N", a severity filter over the lines that hold events, a wrap
// toggle, and "Copy link to this line" (path:line, as the report and the CLI write it). It follows
// the shared selection: selecting evidence opens its source at that line, selecting a rank opens
// that rank's log; clicking a line that holds an event selects the event for the other views.

#include "views/lineexplainer.h"
#include "model/event.h"
#include "model/evidence.h"

#include <QHash>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;
class QAction;

namespace rankscope::views {

class LogTextView;
class SelectionState;

class LogViewer : public QWidget {
    Q_OBJECT
public:
    explicit LogViewer(SelectionState* selection, QWidget* parent = nullptr);

    LogTextView* textView() const { return m_text; }
    model::SourceId currentSource() const { return m_source; }
    // Opens `source` (no-op when already open); returns false when it cannot be read.
    bool openSource(model::SourceId source);
    void showEvidence(const model::EvidenceRef& ref);
    void showFind();
    void findNext();
    void findPrevious();
    QString statusText() const;
    QString findStatusText() const;
    // Puts "path:line" of 1-based `line` of the open source on the clipboard.
    void copyLinkToLine(quint64 line);
    // Shows only lines holding an event at least this severe; nullopt shows every line.
    void setSeverityFilter(std::optional<model::Severity> atLeast);
    std::optional<model::Severity> severityFilter() const;

    void setLineExplainer(LineExplainer explainer);

Q_SIGNALS:
    void sourceOpened(rankscope::model::SourceId source);
    void explainLineRequested(const QString& line);
    // The user picked a severity in the filter box (not a jump that showed every line again).
    void severityFilterChosen(std::optional<rankscope::model::Severity> atLeast);

private:
    void onDocumentChanged();
    void onRankSelected(int rank);
    void onLineActivated(quint64 line);
    void fillSourcePicker(int rank);
    void updateStatus();
    void updateFindStatus();
    void applySeverityFilter();
    model::SourceId bestSourceOfRank(int rank) const;
    std::uint64_t firstInterestingLine(model::SourceId source, int rank) const;

    SelectionState* m_selection;
    LogTextView* m_text;
    QComboBox* m_sourcePicker;
    QLabel* m_status;
    QWidget* m_findBar;
    QLineEdit* m_findEdit;
    QLabel* m_findStatus;
    QComboBox* m_severity;
    QToolButton* m_wrapButton;
    bool m_findFound = false;
    bool m_findWrapped = false;
    QString m_note; // what the last copy did, shown in the status until the next change
    model::SourceId m_source = model::kNoSource;
    bool m_fillingPicker = false;
    // Evidence lines of the diagnosis per source (1-based, sorted); rebuilt per document.
    QHash<model::SourceId, std::vector<std::uint64_t>> m_evidenceLines;
    // (source, line) → event index, for the open source only; rebuilt when it changes.
    QHash<std::uint64_t, int> m_eventByLine;
    QString m_openError;
};

} // namespace rankscope::views
