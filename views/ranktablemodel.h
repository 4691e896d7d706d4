#pragma once
// One row per global rank: who it is (host, local rank, GPU), what the diagnosis says about
// it (state, last enqueued / completed on the stuck collective's process group) and the
// first error it logged. Initiating rows carry the theme's initiating tint.

#include "model/diagnosis/diagnosis.h"
#include "views/bundledocument.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace rankscope::views {

class RankTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        RankColumn,
        HostColumn,
        LocalRankColumn,
        GpuColumn,
        StateColumn,
        LastEnqueuedColumn,
        LastCompletedColumn,
        FirstErrorColumn,
        NumColumns
    };
    enum Roles {
        SortRole = Qt::UserRole + 1, // raw value of the cell (numbers sort as numbers)
        RankRole, // global rank of the row
        StateRole, // model::RankState as int
        InitiatingRole, // bool: the diagnosis names this rank as the cause
        FirstErrorEventRole, // index into Bundle::events, -1 none
    };

    explicit RankTableModel(QObject* parent = nullptr);

    void setDocument(DocumentPtr document);
    // Row of `rank`, -1 when absent.
    int rowOfRank(int rank) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        int rank = -1;
        QString host;
        int localRank = -1;
        int cudaDev = -1;
        QString busId;
        model::RankState state = model::RankState::Unknown;
        bool seen = false;
        bool initiating = false;
        qint64 lastEnqueued = -1;
        qint64 lastCompleted = -1;
        int firstErrorEvent = -1;
        QString firstError;
        QString description; // "rank 3 (node-01, GPU 3)"
    };

    QVariant displayValue(const Row& row, int column) const;
    QVariant sortValue(const Row& row, int column) const;

    DocumentPtr m_document;
    std::vector<Row> m_rows; // by rank
    model::RootCauseClass m_rootCause = model::RootCauseClass::Unknown; // names the culprits' role
    std::vector<int> m_rowOf; // rank → row, -1 absent
};

} // namespace rankscope::views
