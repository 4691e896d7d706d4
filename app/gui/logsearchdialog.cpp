#include "app/gui/logsearchdialog.h"

#include "app/gui/logsearchrunner.h"
#include "views/logsearchmodel.h"
#include "views/logsearchpanel.h"
#include "views/logtextview.h"
#include "views/logviewer.h"
#include "views/selectionstate.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QVBoxLayout>

namespace rankscope::app {

LogSearchDialog::LogSearchDialog(
    views::SelectionState* selection, views::LogViewer* viewer, QWidget* parent)
    : QDialog(parent)
    , m_selection(selection)
    , m_viewer(viewer)
    , m_panel(new views::LogSearchPanel(this))
    , m_runner(new LogSearchRunner(this))
{
    setObjectName(QStringLiteral("logSearchDialog"));
    setWindowTitle(tr("Search All Logs"));
    setModal(false);
    resize(900, 480);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_panel);

    connect(m_panel, &views::LogSearchPanel::searchRequested, this,
        [this](const views::LogSearchQuery& query) {
            const views::DocumentPtr& doc = m_selection->document();
            m_panel->model()->setBundle(doc ? doc->bundle : nullptr);
            const QString error = m_runner->start(doc, query);
            if (!error.isEmpty())
                m_panel->showError(error);
        });
    connect(m_panel, &views::LogSearchPanel::cancelRequested, m_runner, &LogSearchRunner::cancel);
    connect(m_runner, &LogSearchRunner::started, m_panel, &views::LogSearchPanel::searchStarted);
    connect(m_runner, &LogSearchRunner::hitsFound, m_panel, &views::LogSearchPanel::appendHits);
    connect(m_runner, &LogSearchRunner::progress, m_panel, &views::LogSearchPanel::searchProgress);
    connect(m_runner, &LogSearchRunner::finished, m_panel, &views::LogSearchPanel::searchFinished);
    connect(
        m_panel, &views::LogSearchPanel::hitActivated, this, [this](const model::EvidenceRef& ref) {
            if (auto* dock = qobject_cast<QDockWidget*>(m_viewer->parentWidget())) {
                dock->show();
                dock->raise();
            }
            m_viewer->showEvidence(ref);
        });
    connect(m_selection, &views::SelectionState::documentChanged, this, [this] {
        m_runner->cancel();
        m_panel->clear();
        m_panel->model()->setBundle(nullptr);
    });
}

void LogSearchDialog::showAndFocus()
{
    // A selection within one line of the log is the likeliest thing to look for.
    const QString selected = m_viewer->textView()->selectedText();
    if (!selected.isEmpty() && !selected.contains(QLatin1Char('\n')) && !m_panel->running())
        m_panel->patternEdit()->setText(selected);
    show();
    raise();
    activateWindow();
    m_panel->patternEdit()->setFocus();
    m_panel->patternEdit()->selectAll();
}

} // namespace rankscope::app
