#pragma once
// Filters and sorts the ranks table: a text filter (a rank list such as "0-3,7" selects
// those ranks; any other text matches host, state, GPU or first error), a state filter
// (one RankState, or the initiating ranks only) and a rank set from the shared selection
// (the heatmap's pair filter). Sorting uses RankTableModel::SortRole (raw values).

#include "model/diagnosis/diagnosis.h"

#include <QSet>
#include <QSortFilterProxyModel>

#include <optional>

namespace rankscope::views {

class RankFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RankFilterProxy(QObject* parent = nullptr);

    void setTextFilter(const QString& text);
    void setStateFilter(std::optional<model::RankState> state);
    void setInitiatingOnly(bool initiatingOnly);
    // Only these ranks (empty = all).
    void setRankSet(const QVector<int>& ranks);

    // "0-3,7" → {0,1,2,3,7}; nullopt when the text is not a rank list.
    static std::optional<QSet<int>> parseRankList(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    std::optional<QSet<int>> m_textRanks;
    std::optional<model::RankState> m_state;
    bool m_initiatingOnly = false;
    QSet<int> m_rankSet;
};

} // namespace rankscope::views
