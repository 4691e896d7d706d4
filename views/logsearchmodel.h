#pragma once
// The hits of a search across every rank's log, one row each: rank · path:line · text. Rows
// arrive in batches while the search runs (appendHits), so the list fills as it goes.

#include "model/bundle.h"
#include "views/logsearch.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace rankscope::views {

class LogSearchModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { RankColumn, LocationColumn, TextColumn, ColumnCount };
    enum Roles {
        SortRole = Qt::UserRole + 1, // raw value: rank, (path, line), text
        SourceRole, // model::SourceId
        LineRole, // 1-based line
        LineStartRole, // byte offset of the line
    };

    explicit LogSearchModel(QObject* parent = nullptr);

    // The bundle the hits' sources belong to (for their paths); clears the hits.
    void setBundle(std::shared_ptr<const model::Bundle> bundle);
    void clear();
    void appendHits(const std::vector<LogSearchHit>& hits);
    const LogSearchHit& hit(int row) const { return m_hits[static_cast<std::size_t>(row)]; }
    model::EvidenceRef evidenceOf(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const model::Bundle> m_bundle;
    std::vector<LogSearchHit> m_hits;
};

} // namespace rankscope::views
