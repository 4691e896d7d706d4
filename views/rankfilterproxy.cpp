#include "views/rankfilterproxy.h"

#include "views/ranktablemodel.h"

namespace rankscope::views {

namespace {
// A rank list longer than this is not expanded (a typo like "0-99999999" must not hang).
constexpr int kMaxListedRanks = 1 << 20;
} // namespace

RankFilterProxy::RankFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RankTableModel::SortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

std::optional<QSet<int>> RankFilterProxy::parseRankList(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    QSet<int> ranks;
    const QStringList parts = trimmed.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& rawPart : parts) {
        const QString part = rawPart.trimmed();
        const qsizetype dash = part.indexOf(QLatin1Char('-'), 1);
        bool okA = false;
        bool okB = false;
        const int a = (dash < 0 ? part : part.left(dash)).trimmed().toInt(&okA);
        const int b = dash < 0 ? a : part.mid(dash + 1).trimmed().toInt(&okB);
        if (!okA || (dash >= 0 && !okB) || a < 0 || b < a || b - a > kMaxListedRanks)
            return std::nullopt;
        for (int r = a; r <= b; ++r)
            ranks.insert(r);
    }
    return ranks;
}

void RankFilterProxy::setTextFilter(const QString& text)
{
    m_text = text.trimmed();
    m_textRanks = parseRankList(m_text);
    invalidateFilter();
}

void RankFilterProxy::setStateFilter(std::optional<model::RankState> state)
{
    m_state = state;
    invalidateFilter();
}

void RankFilterProxy::setInitiatingOnly(bool initiatingOnly)
{
    m_initiatingOnly = initiatingOnly;
    invalidateFilter();
}

void RankFilterProxy::setRankSet(const QVector<int>& ranks)
{
    m_rankSet = QSet<int>(ranks.begin(), ranks.end());
    invalidateFilter();
}

bool RankFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* model = sourceModel();
    const QModelIndex first = model->index(sourceRow, 0, sourceParent);
    const int rank = first.data(RankTableModel::RankRole).toInt();
    if (!m_rankSet.isEmpty() && !m_rankSet.contains(rank))
        return false;
    if (m_initiatingOnly && !first.data(RankTableModel::InitiatingRole).toBool())
        return false;
    if (m_state && first.data(RankTableModel::StateRole).toInt() != static_cast<int>(*m_state))
        return false;
    if (m_text.isEmpty())
        return true;
    if (m_textRanks)
        return m_textRanks->contains(rank);
    for (int column = 0; column < model->columnCount(sourceParent); ++column) {
        if (model->index(sourceRow, column, sourceParent)
                .data()
                .toString()
                .contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace rankscope::views
