#include "views/importissuesmodel.h"

#include "views/theme.h"

#include <QGuiApplication>

namespace rankscope::views {

ImportIssuesModel::ImportIssuesModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ImportIssuesModel::setIssues(std::vector<model::ImportIssue> issues, const QString& loadError)
{
    beginResetModel();
    m_rows.clear();
    if (!loadError.isEmpty())
        m_rows.push_back({ QStringLiteral("load_failed"), tr("Load failed"), 1, { loadError }, true });
    for (const model::ImportIssue& issue : issues) {
        Row row;
        row.kind = QString::fromStdString(issue.kind);
        row.words = QString::fromStdString(model::importIssueWords(issue.kind));
        row.count = issue.count;
        for (const std::string& sample : issue.samples)
            row.samples.append(QString::fromStdString(sample));
        m_rows.push_back(std::move(row));
    }
    endResetModel();
}

std::size_t ImportIssuesModel::totalCount() const
{
    std::size_t total = 0;
    for (const Row& row : m_rows)
        total += row.count;
    return total;
}

int ImportIssuesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ImportIssuesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NumColumns;
}

QVariant ImportIssuesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KindColumn:
            return row.words;
        case CountColumn:
            return row.count;
        case SamplesColumn:
            return row.samples.isEmpty() ? QString() : row.samples.front().simplified();
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case KindColumn:
            return row.words;
        case CountColumn:
            return row.count;
        case SamplesColumn:
            return row.samples.join(QLatin1Char('\n'));
        }
        return {};
    case IsErrorRole:
        return row.error;
    case KindRole:
        return row.kind;
    case Qt::ToolTipRole:
        // The kind's id is what the JSON report and `rankscope-cli summary` print.
        if (index.column() == KindColumn)
            return tr("%1 (in reports: %2)").arg(row.words, row.kind);
        return row.samples.join(QLatin1Char('\n'));
    case Qt::ForegroundRole:
        if (row.error)
            return theme::colors(QGuiApplication::palette()).error;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CountColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant ImportIssuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case CountColumn:
        return tr("Count");
    case SamplesColumn:
        return tr("First sample (hover for all)");
    }
    return {};
}

} // namespace rankscope::views
