#pragma once
// The root-cause panel: what a tired on-call engineer reads first. Top to bottom: status,
// class and confidence badges; the verdict in one sentence; the initiating rank(s) or stuck
// pair as clickable chips in the initiating colour; the collateral ranks as a count and
// compact ranges (expandable per state); the stuck collective; then one card per finding
// (rule, confidence, explanation, clickable evidence lines, fix steps, verification commands
// with Copy buttons, a "how to confirm" checklist). Inconclusive verdicts end with what to
// collect next time; a run with no hang says what was checked, how far the ranks got and when
// the job last made progress. Real widgets in a QScrollArea, rebuilt once per document.

#include "views/lineexplainer.h"
#include "model/evidence.h"

#include <QScrollArea>

namespace rankscope::views {

class SelectionState;

class RootCausePanel : public QScrollArea {
    Q_OBJECT
public:
    explicit RootCausePanel(SelectionState* selection, QWidget* parent = nullptr);

    // Clicking an evidence line: selects the evidence, and the event written on that line
    // when there is one (so the timeline follows).
    void activateEvidence(const model::EvidenceRef& ref);
    // Text shown while a bundle loads or before its diagnosis is ready.
    void setPendingText(const QString& text);
    // Evidence lines it says yes to get a "What does this mean?" link.
    void setLineExplainer(LineExplainer explainer);

    // Wide enough for the verdict sentence and the chips; never squeezed to a sliver.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void explainLineRequested(const QString& line); // "What does this mean?" on an evidence line

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    QWidget* buildVerdict(QWidget* parent);
    QWidget* buildCulprits(QWidget* parent);
    QWidget* buildCollateral(QWidget* parent);
    QWidget* buildFinding(QWidget* parent, std::size_t index);
    QWidget* buildReach(QWidget* parent);
    QWidget* buildMissingEvidence(QWidget* parent);
    QWidget* buildEmpty(QWidget* parent);

    SelectionState* m_selection;
    QString m_pendingText;
    LineExplainer m_explainer;
};

} // namespace rankscope::views
