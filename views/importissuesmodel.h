#pragma once
// The "Import issues" table: the bundle's recoverable oddities (kind, count, samples) and,
// first, a fatal load error when the bundle could not be loaded at all.

#include "model/importissues.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace rankscope::views {

class ImportIssuesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { KindColumn, CountColumn, SamplesColumn, NumColumns };
    enum Roles {
        SortRole = Qt::UserRole + 1, // raw value (count as a number)
        IsErrorRole, // bool: the fatal load error row
        KindRole, // the kind's id ("unattributed_events"); the Kind column shows its words
    };

    explicit ImportIssuesModel(QObject* parent = nullptr);

    void setIssues(std::vector<model::ImportIssue> issues, const QString& loadError = {});
    std::size_t totalCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString kind;
        QString words;
        qulonglong count = 0;
        QStringList samples;
        bool error = false;
    };
    std::vector<Row> m_rows;
};

} // namespace rankscope::views
