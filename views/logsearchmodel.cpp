#include "views/logsearchmodel.h"

#include "model/evidencelocation.h"

namespace rankscope::views {

LogSearchModel::LogSearchModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void LogSearchModel::setBundle(std::shared_ptr<const model::Bundle> bundle)
{
    beginResetModel();
    m_bundle = std::move(bundle);
    m_hits.clear();
    endResetModel();
}

void LogSearchModel::clear()
{
    if (m_hits.empty())
        return;
    beginResetModel();
    m_hits.clear();
    endResetModel();
}

void LogSearchModel::appendHits(const std::vector<LogSearchHit>& hits)
{
    if (hits.empty())
        return;
    const int first = static_cast<int>(m_hits.size());
    beginInsertRows({}, first, first + static_cast<int>(hits.size()) - 1);
    m_hits.insert(m_hits.end(), hits.begin(), hits.end());
    endInsertRows();
}

model::EvidenceRef LogSearchModel::evidenceOf(int row) const
{
    const LogSearchHit& h = hit(row);
    return { h.source, h.line, h.lineStart };
}

int LogSearchModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_hits.size());
}

int LogSearchModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LogSearchModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const LogSearchHit& h = hit(index.row());
    switch (role) {
    case SourceRole:
        return static_cast<uint>(h.source);
    case LineRole:
        return static_cast<qulonglong>(h.line);
    case LineStartRole:
        return static_cast<qulonglong>(h.lineStart);
    default:
        break;
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case RankColumn:
        if (role == SortRole)
            return h.rank;
        return h.rank >= 0 ? QString::number(h.rank) : QStringLiteral("–");
    case LocationColumn:
        if (!m_bundle)
            return {};
        return QString::fromStdString(model::evidenceLocation(*m_bundle, evidenceOf(index.row())));
    case TextColumn:
        return h.text;
    default:
        return {};
    }
}

QVariant LogSearchModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case LocationColumn:
        return tr("File:line");
    case TextColumn:
        return tr("Text");
    default:
        return {};
    }
}

} // namespace rankscope::views
