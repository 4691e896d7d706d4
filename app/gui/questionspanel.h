#pragma once
// Follow-up questions after a verdict, in the app: "why this rank / why not this rank?" on the
// selected rank (from the timeline, the ranks table or the heatmap, which share one
// selection), "why this pair?" on the selected heatmap cell, "who reached this collective?"
// on the stepped collective, and a question box for the same in words. The answers are
// `rankscope-cli why`'s text (app/core/followup.h); ranks in them are links into the views.

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QUrl;

namespace rankscope::views {
class SelectionState;
}

namespace rankscope::app {

class QuestionsPanel : public QWidget {
    Q_OBJECT
public:
    explicit QuestionsPanel(views::SelectionState* selection, QWidget* parent = nullptr);

    // Answers `question` (words, as in the box); false when it names nothing to answer about.
    bool ask(const QString& question);
    void askAboutSelectedRank();
    void askAboutSelectedPair();
    void askAboutSelectedCollective();

    QLineEdit* questionBox() const { return m_box; }
    QTextBrowser* answer() const { return m_answer; }
    QString answerText() const;

Q_SIGNALS:
    void answered(); // a new answer is shown (the window raises the dock)

private:
    void updateButtons();
    void show(const QString& heading, const std::string& text);
    void openLink(const QUrl& url);

    views::SelectionState* m_selection;
    QLineEdit* m_box;
    QPushButton* m_whyRank;
    QPushButton* m_whyPair;
    QPushButton* m_whoReached;
    QTextBrowser* m_answer;
};

} // namespace rankscope::app
