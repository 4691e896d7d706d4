#include "views/logsearchpanel.h"

#include "views/logsearchmodel.h"
#include "views/placeholderwidth.h"
#include "views/screentooltip.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace rankscope::views {

LogSearchPanel::LogSearchPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new LogSearchModel(this))
    , m_pattern(new QLineEdit(this))
    , m_regex(new QCheckBox(tr("Regular e&xpression"), this))
    , m_searchButton(new QPushButton(tr("&Search"), this))
    , m_status(new QLabel(this))
    , m_hits(new QTreeView(this))
{
    m_pattern->setObjectName(QStringLiteral("logSearchPattern"));
    m_pattern->setPlaceholderText(tr("Search every rank's log (case-insensitive text)"));
    m_pattern->setClearButtonEnabled(true);
    keepPlaceholderVisible(m_pattern);
    m_regex->setObjectName(QStringLiteral("logSearchRegex"));
    m_regex->setToolTip(tr("Perl-compatible regular expression, case-sensitive; (?i) ignores "
                           "case. ^ and $ match at each line."));
    m_searchButton->setObjectName(QStringLiteral("logSearchButton"));
    // Enter in the pattern starts the search; in a dialog it would also "click" a default
    // button, which cancels the search it just started.
    m_searchButton->setAutoDefault(false);
    m_status->setObjectName(QStringLiteral("logSearchStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);

    m_hits->setModel(m_model);
    m_hits->setRootIsDecorated(false);
    m_hits->setUniformRowHeights(true); // fast with tens of thousands of rows
    keepToolTipsOnScreen(m_hits);
    m_hits->setAlternatingRowColors(true);
    m_hits->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_hits->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_hits->header()->setStretchLastSection(true);
    m_hits->header()->setSectionResizeMode(
        LogSearchModel::RankColumn, QHeaderView::ResizeToContents);
    m_hits->setColumnWidth(LogSearchModel::LocationColumn, 320);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_pattern, 1);
    row->addWidget(m_regex);
    row->addWidget(m_searchButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addWidget(m_hits, 1);

    connect(m_pattern, &QLineEdit::returnPressed, this, &LogSearchPanel::requestSearch);
    connect(m_searchButton, &QPushButton::clicked, this, [this] {
        if (m_running)
            Q_EMIT cancelRequested();
        else
            requestSearch();
    });
    connect(m_hits, &QTreeView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT hitActivated(m_model->evidenceOf(index.row()));
    });
    connect(m_hits, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT hitActivated(m_model->evidenceOf(index.row()));
    });
}

LogSearchQuery LogSearchPanel::query() const
{
    return { m_pattern->text(), m_regex->isChecked() };
}

QString LogSearchPanel::statusText() const
{
    return m_status->text();
}

void LogSearchPanel::requestSearch()
{
    Q_EMIT searchRequested(query());
}

void LogSearchPanel::setRunning(bool running)
{
    m_running = running;
    m_searchButton->setText(running ? tr("&Cancel") : tr("&Search"));
}

void LogSearchPanel::searchStarted(int sources)
{
    m_model->clear();
    setRunning(true);
    m_status->setText(tr("Searching %n file(s)…", nullptr, sources));
}

void LogSearchPanel::appendHits(const std::vector<LogSearchHit>& hits)
{
    m_model->appendHits(hits);
}

void LogSearchPanel::searchProgress(int sourcesDone, int sources)
{
    const QLocale locale;
    m_status->setText(tr("Searching file %1 of %2… %3 hit(s) so far")
                          .arg(locale.toString(sourcesDone + 1), locale.toString(sources),
                              locale.toString(m_model->rowCount())));
}

void LogSearchPanel::searchFinished(bool cancelled, bool capped, int maxHits)
{
    setRunning(false);
    const QLocale locale;
    const QString hits = locale.toString(m_model->rowCount());
    if (capped)
        m_status->setText(tr("First %1 hits shown; there are more. Narrow the search to see "
                             "the rest.")
                              .arg(locale.toString(maxHits)));
    else if (cancelled)
        m_status->setText(tr("Cancelled: %1 hit(s) found before stopping").arg(hits));
    else if (m_model->rowCount() == 0)
        m_status->setText(tr("No hits"));
    else
        m_status->setText(tr("%1 hit(s)").arg(hits));
}

void LogSearchPanel::showError(const QString& message)
{
    setRunning(false);
    m_status->setText(message);
}

void LogSearchPanel::clear()
{
    m_model->clear();
    setRunning(false);
    m_status->clear();
}

} // namespace rankscope::views
