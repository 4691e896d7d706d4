#include "app/gui/questionspanel.h"

#include "app/core/followup.h"
#include "views/placeholderwidth.h"
#include "views/selectionstate.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace rankscope::app {

QuestionsPanel::QuestionsPanel(views::SelectionState* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_box(new QLineEdit(this))
    , m_whyRank(new QPushButton(tr("Why this rank?"), this))
    , m_whyPair(new QPushButton(tr("Why this pair?"), this))
    , m_whoReached(new QPushButton(tr("Who reached it?"), this))
    , m_answer(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("questionsPanel"));
    m_box->setObjectName(QStringLiteral("questionBox"));
    // The hint names the commonest forms so the field can show it whole in a narrow dock;
    // the tooltip lists them all.
    m_box->setPlaceholderText(tr("Ask: rank 5 · pair 3,4 · #117"));
    m_box->setToolTip(tr("Ask: %1").arg(
        QString::fromUtf8(kQuestionForms.data(), static_cast<qsizetype>(kQuestionForms.size()))));
    m_box->setClearButtonEnabled(true);
    views::keepPlaceholderVisible(m_box);
    m_whyRank->setObjectName(QStringLiteral("whyRankButton"));
    m_whyRank->setToolTip(tr("The selected rank's part in the verdict, its state, progress and evidence"));
    m_whyPair->setObjectName(QStringLiteral("whyPairButton"));
    m_whyPair->setToolTip(tr("What lies between the two ranks of the selected heatmap cell"));
    m_whoReached->setObjectName(QStringLiteral("whoReachedButton"));
    m_whoReached->setToolTip(tr("Which ranks completed, entered or never reached the selected collective"));
    m_answer->setObjectName(QStringLiteral("questionAnswer"));
    m_answer->setOpenLinks(false);
    m_answer->setPlaceholderText(tr("Select a rank, a heatmap cell or a collective and ask, or type a question."));

    // Buttons in two rows: three side by side held the right dock area too wide for a
    // 1024 px window whenever this dock was raised.
    auto* buttons = new QGridLayout;
    buttons->addWidget(m_whyRank, 0, 0);
    buttons->addWidget(m_whyPair, 0, 1);
    buttons->addWidget(m_whoReached, 1, 0);
    buttons->setColumnStretch(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_box);
    layout->addLayout(buttons);
    layout->addWidget(m_answer, 1);

    connect(m_box, &QLineEdit::returnPressed, this, [this] { ask(m_box->text()); });
    connect(m_whyRank, &QPushButton::clicked, this, &QuestionsPanel::askAboutSelectedRank);
    connect(m_whyPair, &QPushButton::clicked, this, &QuestionsPanel::askAboutSelectedPair);
    connect(m_whoReached, &QPushButton::clicked, this, &QuestionsPanel::askAboutSelectedCollective);
    connect(m_answer, &QTextBrowser::anchorClicked, this, &QuestionsPanel::openLink);
    connect(m_selection, &views::SelectionState::rankSelected, this, &QuestionsPanel::updateButtons);
    connect(m_selection, &views::SelectionState::pairSelected, this, &QuestionsPanel::updateButtons);
    connect(m_selection, &views::SelectionState::seqSelected, this, &QuestionsPanel::updateButtons);
    connect(m_selection, &views::SelectionState::documentChanged, this, [this] {
        m_answer->clear();
        updateButtons();
    });
    updateButtons();
}

void QuestionsPanel::updateButtons()
{
    const auto& doc = m_selection->document();
    const bool diagnosed = doc && doc->diagnosis;
    m_box->setEnabled(diagnosed);
    m_whyRank->setEnabled(diagnosed && m_selection->selectedRank() >= 0);
    const QPair<int, int> pair = m_selection->selectedPair();
    m_whyPair->setEnabled(diagnosed && pair.first >= 0 && pair.second >= 0 && pair.first != pair.second);
    m_whoReached->setEnabled(diagnosed && m_selection->selectedSeq() >= 0);
}

bool QuestionsPanel::ask(const QString& question)
{
    const auto& doc = m_selection->document();
    if (!doc || !doc->diagnosis)
        return false;
    const auto parsed = parseQuestion(question.toStdString());
    if (!parsed) {
        show(question, tr("Not understood. Ask about %1.")
                           .arg(QString::fromUtf8(kQuestionForms.data(), static_cast<qsizetype>(kQuestionForms.size())))
                           .toStdString());
        return false;
    }
    show(question, answerQuestion(*doc->bundle, *doc->diagnosis, *parsed));
    return true;
}

void QuestionsPanel::askAboutSelectedRank()
{
    if (m_selection->selectedRank() >= 0)
        ask(tr("rank %1").arg(m_selection->selectedRank()));
}

void QuestionsPanel::askAboutSelectedPair()
{
    const QPair<int, int> pair = m_selection->selectedPair();
    if (pair.first >= 0 && pair.second >= 0)
        ask(tr("pair %1,%2").arg(pair.first).arg(pair.second));
}

void QuestionsPanel::askAboutSelectedCollective()
{
    const auto& doc = m_selection->document();
    if (!doc || !doc->diagnosis || m_selection->selectedSeq() < 0)
        return;
    // The process group the views step through: the chosen one, else the stuck one's.
    QString pg = m_selection->processGroup();
    if (pg.isEmpty() && doc->diagnosis->stuckCollective)
        pg = QString::fromStdString(doc->diagnosis->stuckCollective->processGroup);
    ask(QStringLiteral("%1:%2").arg(pg.isEmpty() ? QStringLiteral("0") : pg).arg(m_selection->selectedSeq()));
}

QString QuestionsPanel::answerText() const
{
    return m_answer->toPlainText();
}

void QuestionsPanel::show(const QString& heading, const std::string& text)
{
    // Plain text from the core, escaped, with every "rank N" a link that selects the rank.
    QString body = QString::fromStdString(text).toHtmlEscaped();
    static const QRegularExpression rankWord(QStringLiteral("\\brank (\\d+)\\b"));
    body.replace(rankWord, QStringLiteral("<a href=\"rank:\\1\">rank \\1</a>"));
    m_answer->setHtml(QStringLiteral("<p><b>%1</b></p><pre style=\"white-space: pre-wrap\">%2</pre>")
                          .arg(heading.toHtmlEscaped(), body));
    Q_EMIT answered();
}

void QuestionsPanel::openLink(const QUrl& url)
{
    const QString target = url.toString();
    if (target.startsWith(QStringLiteral("rank:")))
        m_selection->selectRank(target.mid(5).toInt());
}

} // namespace rankscope::app
