#include "app/gui/rankspanel.h"

#include "model/countwords.h"
#include "model/ranklist.h"
#include "views/placeholderwidth.h"
#include "views/rankfilterproxy.h"
#include "views/ranktablemodel.h"
#include "views/screentooltip.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace rankscope::app {

using views::RankTableModel;

namespace {
// Special entries of the state filter (real states use their enum value).
constexpr int kAllStates = -1;
constexpr int kInitiatingOnly = -2;
// Fitting a column to its contents lays out the text of the rows it reads, on the GUI thread
// while a bundle opens: it reads the visible rows and this many more, so a table of 16k ranks
// costs what one of 200 does (a long host name further down is elided, and its column can
// be widened by hand).
constexpr int kFitSampleRows = 128;
} // namespace

RanksPanel::RanksPanel(views::SelectionState* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_model(new RankTableModel(this))
    , m_proxy(new views::RankFilterProxy(this))
    , m_filter(new QLineEdit(this))
    , m_state(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_pairFilter(new QLabel(this))
    , m_clearPairFilter(new QToolButton(this))
    , m_table(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    // A hint short enough to show whole (keepPlaceholderVisible) beside the states box in a
    // 1024 px window, where the dock is ~190 px wide; the tooltip says what it takes.
    m_filter->setPlaceholderText(tr("Filter"));
    m_filter->setToolTip(tr("Filter: ranks (0-3,7) or text (host, state, error)"));
    m_filter->setClearButtonEnabled(true);
    views::keepPlaceholderVisible(m_filter);
    m_state->setToolTip(tr("Show only ranks in one state"));
    // Sized for a few characters, not its longest state: the dock must fit a 1024 px window
    // beside the log (the open list is as wide as it needs).
    m_state->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_state->setMinimumContentsLength(4);
    m_clearPairFilter->setText(tr("Show all"));
    m_clearPairFilter->setToolTip(tr("Clear the rank filter set from the heatmap"));
    m_pairFilter->hide();
    m_clearPairFilter->hide();

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RankTableModel::RankColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    views::keepToolTipsOnScreen(m_table);
    m_table->verticalHeader()->setDefaultSectionSize(
        fontMetrics().height() + fontMetrics().height() / 2);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setResizeContentsPrecision(kFitSampleRows);
    m_table->verticalHeader()->setResizeContentsPrecision(kFitSampleRows);
    m_table->setWordWrap(false);
    // Tab leaves the table for the next control: walking the cells would change the
    // selected rank in every view and trap the keyboard here.
    m_table->setTabKeyNavigation(false);
    m_table->setObjectName(QStringLiteral("ranksTable"));

    // The count sits on the second row, beside the heatmap's filter when there is one: one
    // row of filter, states and count held the dock too wide for a 1024 px window.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter, 2);
    bar->addWidget(m_state, 1);
    auto* pairBar = new QHBoxLayout;
    pairBar->setContentsMargins(0, 0, 0, 0);
    pairBar->addWidget(m_count);
    pairBar->addWidget(m_pairFilter, 1);
    pairBar->addWidget(m_clearPairFilter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addLayout(pairBar);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setTextFilter(text);
        updateCount();
    });
    connect(m_state, &QComboBox::currentIndexChanged, this, &RanksPanel::applyStateFilter);
    connect(
        m_clearPairFilter, &QToolButton::clicked, this, [this] { m_selection->setRankFilter({}); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (m_syncing || !current.isValid())
                return;
            m_selection->selectRank(current.data(RankTableModel::RankRole).toInt());
        });
    // Double-clicking the first error jumps to it (timeline and log viewer follow).
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const int event = index.data(RankTableModel::FirstErrorEventRole).toInt();
        if (index.column() == RankTableModel::FirstErrorColumn && event >= 0)
            m_selection->selectEvent(event);
    });
    connect(
        m_selection, &views::SelectionState::documentChanged, this, &RanksPanel::onDocumentChanged);
    connect(m_selection, &views::SelectionState::rankSelected, this, &RanksPanel::onRankSelected);
    connect(m_selection, &views::SelectionState::loadingChanged, this, &RanksPanel::updateCount);
    connect(m_selection, &views::SelectionState::rankFilterChanged, this,
        &RanksPanel::onRankFilterChanged);
    onDocumentChanged();
}

void RanksPanel::showSummary(views::DocumentPtr summary)
{
    m_model->setDocument(std::move(summary));
    fillStateFilter();
    fitColumns();
    updateCount();
}

void RanksPanel::onDocumentChanged()
{
    m_model->setDocument(m_selection->document());
    fillStateFilter();
    fitColumns();
    onRankFilterChanged();
    onRankSelected(m_selection->selectedRank());
}

void RanksPanel::fillStateFilter()
{
    const QVariant previous = m_state->currentData();
    m_state->blockSignals(true);
    m_state->clear();
    m_state->addItem(tr("All states"), kAllStates);
    m_state->addItem(tr("Initiating (the cause)"), kInitiatingOnly);
    std::set<int> present;
    for (int row = 0; row < m_model->rowCount(); ++row)
        present.insert(m_model->index(row, 0).data(RankTableModel::StateRole).toInt());
    for (int state : present)
        m_state->addItem(views::theme::rankStateLabel(static_cast<model::RankState>(state)), state);
    const int index = m_state->findData(previous);
    m_state->setCurrentIndex(index < 0 ? 0 : index);
    m_state->blockSignals(false);
    applyStateFilter();
}

void RanksPanel::applyStateFilter()
{
    const int value
        = m_state->currentData().isValid() ? m_state->currentData().toInt() : kAllStates;
    m_proxy->setInitiatingOnly(value == kInitiatingOnly);
    m_proxy->setStateFilter(value >= 0
            ? std::optional<model::RankState>(static_cast<model::RankState>(value))
            : std::nullopt);
    updateCount();
}

void RanksPanel::onRankSelected(int rank)
{
    const int sourceRow = m_model->rowOfRank(rank);
    const QModelIndex index
        = sourceRow < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    m_syncing = true;
    if (index.isValid()) {
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    } else {
        m_table->selectionModel()->clearSelection();
    }
    m_syncing = false;
}

void RanksPanel::onRankFilterChanged()
{
    const QVector<int>& ranks = m_selection->rankFilter();
    m_proxy->setRankSet(ranks);
    const bool filtered = !ranks.isEmpty();
    m_pairFilter->setVisible(filtered);
    m_clearPairFilter->setVisible(filtered);
    if (filtered) {
        std::vector<std::int32_t> list(ranks.begin(), ranks.end());
        m_pairFilter->setText(tr("Filtered to ranks %1 (from the heatmap)")
                                  .arg(QString::fromStdString(model::formatRanks(list))));
    }
    updateCount();
}

QString RanksPanel::countText() const
{
    return m_count->text();
}

void RanksPanel::updateCount()
{
    if (m_model->rowCount() == 0) {
        m_count->setText(m_selection->isLoading() ? tr("Loading…") : QString());
        return;
    }
    m_count->setText(tr("%1 of %2").arg(m_proxy->rowCount()).arg(QString::fromStdString(model::countWords(
        static_cast<std::size_t>(m_model->rowCount()), "rank", "ranks"))));
}

void RanksPanel::fitColumns()
{
    for (int c = 0; c < RankTableModel::FirstErrorColumn; ++c)
        m_table->resizeColumnToContents(c);
}

} // namespace rankscope::app
