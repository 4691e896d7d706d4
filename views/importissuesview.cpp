#include "views/importissuesview.h"

#include "views/importissuesmodel.h"
#include "views/screentooltip.h"
#include "views/selectionstate.h"

#include <QHeaderView>
#include <QPainter>
#include <QSortFilterProxyModel>

namespace rankscope::views {

ImportIssuesView::ImportIssuesView(
    ImportIssuesModel* issues, SelectionState* selection, QWidget* parent)
    : QTableView(parent)
    , m_selection(selection)
{
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(issues);
    proxy->setSortRole(ImportIssuesModel::SortRole);
    setModel(proxy);
    setSortingEnabled(true);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(false);
    keepToolTipsOnScreen(this); // the samples of a kind can be long lines
    const auto repaint = [this] { viewport()->update(); };
    connect(m_selection, &SelectionState::loadingChanged, this, repaint);
    connect(m_selection, &SelectionState::documentChanged, this, repaint);
}

QString ImportIssuesView::emptyText() const
{
    if (m_selection->isLoading())
        return tr("Loading…");
    if (m_selection->document())
        return tr("No import issues: every file was read without trouble.");
    return tr("Open a bundle to see anything Rankscope could not read in it.");
}

void ImportIssuesView::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    if (model() && model()->rowCount() > 0)
        return;
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const int pad = fontMetrics().height();
    p.drawText(viewport()->rect().adjusted(pad, pad, -pad, -pad),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, emptyText());
}

} // namespace rankscope::views
