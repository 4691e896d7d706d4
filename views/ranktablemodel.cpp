#include "views/ranktablemodel.h"

#include "views/theme.h"

#include <QFont>
#include <QGuiApplication>

#include <algorithm>

namespace rankscope::views {

namespace {

QString seqText(qint64 seq)
{
    return seq >= 0 ? QString::number(seq) : QStringLiteral("—");
}

// The time of an event on a comparable axis, or -1 (then source order decides).
qint64 comparableTime(const model::Event& e)
{
    return e.time.valid() && !e.time.inferred ? e.time.ns : -1;
}

} // namespace

RankTableModel::RankTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RankTableModel::setDocument(DocumentPtr document)
{
    beginResetModel();
    m_document = std::move(document);
    m_rows.clear();
    m_rowOf.clear();
    if (m_document && m_document->bundle) {
        const model::Bundle& bundle = *m_document->bundle;
        const model::Diagnosis* diagnosis = m_document->diagnosis.get();
        std::size_t count = bundle.ranks.size();
        if (bundle.world.worldSize)
            count = std::max<std::size_t>(
                count, static_cast<std::size_t>(std::max(0, *bundle.world.worldSize)));
        if (diagnosis) {
            for (const model::RankVerdict& v : diagnosis->ranks)
                count = std::max<std::size_t>(count, static_cast<std::size_t>(v.rank + 1));
        }
        m_rows.resize(count);
        for (std::size_t r = 0; r < count; ++r) {
            Row& row = m_rows[r];
            row.rank = static_cast<int>(r);
            row.description = QString::fromStdString(bundle.describeRank(row.rank));
            if (const model::RankInfo* info = bundle.rankInfo(row.rank)) {
                row.host = QString::fromUtf8(bundle.text(info->host));
                row.localRank = info->localRank;
                row.cudaDev = info->cudaDev;
                row.busId = QString::fromUtf8(bundle.text(info->busId));
                row.seen = info->seen;
            }
        }
        m_rootCause = diagnosis ? diagnosis->rootCause : model::RootCauseClass::Unknown;
        if (diagnosis) {
            for (const model::RankVerdict& v : diagnosis->ranks) {
                if (v.rank < 0)
                    continue;
                Row& row = m_rows[static_cast<std::size_t>(v.rank)];
                row.state = v.state;
                row.lastEnqueued = v.lastEnqueued;
                row.lastCompleted = v.lastCompleted;
            }
            for (std::int32_t r : diagnosis->initiatingRanks) {
                if (r >= 0 && static_cast<std::size_t>(r) < count)
                    m_rows[static_cast<std::size_t>(r)].initiating = true;
            }
            if (diagnosis->stuckPair) {
                for (std::int32_t r :
                    { diagnosis->stuckPair->first, diagnosis->stuckPair->second }) {
                    if (r >= 0 && static_cast<std::size_t>(r) < count)
                        m_rows[static_cast<std::size_t>(r)].initiating = true;
                }
            }
        }
        // First error per rank: the earliest in time, source order when times are missing.
        std::vector<qint64> firstTime(count, -1);
        for (std::size_t i = 0; i < bundle.events.size(); ++i) {
            const model::Event& e = bundle.events[i];
            if (e.rank < 0 || static_cast<std::size_t>(e.rank) >= count
                || e.severity < model::Severity::Error)
                continue;
            Row& row = m_rows[static_cast<std::size_t>(e.rank)];
            const qint64 t = comparableTime(e);
            const bool earlier = row.firstErrorEvent < 0
                || (t >= 0 && firstTime[static_cast<std::size_t>(e.rank)] >= 0
                    && t < firstTime[static_cast<std::size_t>(e.rank)]);
            if (earlier) {
                row.firstErrorEvent = static_cast<int>(i);
                row.firstError = QString::fromUtf8(bundle.text(e.text)).simplified();
                firstTime[static_cast<std::size_t>(e.rank)] = t;
            }
        }
        m_rowOf.assign(count, -1);
        for (std::size_t r = 0; r < count; ++r)
            m_rowOf[r] = static_cast<int>(r);
    }
    endResetModel();
}

int RankTableModel::rowOfRank(int rank) const
{
    if (rank < 0 || static_cast<std::size_t>(rank) >= m_rowOf.size())
        return -1;
    return m_rowOf[static_cast<std::size_t>(rank)];
}

int RankTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RankTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NumColumns;
}

QVariant RankTableModel::displayValue(const Row& row, int column) const
{
    switch (column) {
    case RankColumn:
        return row.rank;
    case HostColumn:
        return row.host.isEmpty() ? QStringLiteral("—") : row.host;
    case LocalRankColumn:
        return row.localRank >= 0 ? QVariant(row.localRank) : QVariant(QStringLiteral("—"));
    case GpuColumn: {
        QString gpu = row.cudaDev >= 0 ? QString::number(row.cudaDev) : QString();
        if (!row.busId.isEmpty())
            gpu += (gpu.isEmpty() ? QString() : QStringLiteral(" · ")) + row.busId;
        return gpu.isEmpty() ? QStringLiteral("—") : gpu;
    }
    case StateColumn: {
        QString state = !row.seen && row.state == model::RankState::Unknown
            ? tr("no log")
            : theme::rankStateLabel(row.state);
        if (row.initiating)
            state = tr("%1 — cause").arg(theme::initiatorLabel(m_rootCause, row.state));
        return state;
    }
    case LastEnqueuedColumn:
        return seqText(row.lastEnqueued);
    case LastCompletedColumn:
        return seqText(row.lastCompleted);
    case FirstErrorColumn:
        return row.firstError;
    }
    return {};
}

QVariant RankTableModel::sortValue(const Row& row, int column) const
{
    switch (column) {
    case RankColumn:
        return row.rank;
    case HostColumn:
        return row.host;
    case LocalRankColumn:
        return row.localRank;
    case GpuColumn:
        return row.cudaDev;
    case StateColumn:
        // Initiating rows first when sorting by state, then by state order.
        return (row.initiating ? 0 : 100) + static_cast<int>(row.state);
    case LastEnqueuedColumn:
        return row.lastEnqueued;
    case LastCompletedColumn:
        return row.lastCompleted;
    case FirstErrorColumn:
        return row.firstError;
    }
    return {};
}

QVariant RankTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case RankRole:
        return row.rank;
    case StateRole:
        return static_cast<int>(row.state);
    case InitiatingRole:
        return row.initiating;
    case FirstErrorEventRole:
        return row.firstErrorEvent;
    case Qt::BackgroundRole:
        if (row.initiating)
            return theme::tint(
                theme::colors(QGuiApplication::palette()).initiating, QGuiApplication::palette());
        return {};
    case Qt::ForegroundRole:
        if (index.column() == StateColumn)
            return theme::rankStateColor(row.state, QGuiApplication::palette());
        return {};
    case Qt::FontRole:
        if (row.initiating) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == RankColumn || index.column() == LocalRankColumn
            || index.column() == LastEnqueuedColumn || index.column() == LastCompletedColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == FirstErrorColumn && !row.firstError.isEmpty())
            return row.firstError;
        return row.description;
    }
    return {};
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RankColumn:
            return tr("Rank");
        case HostColumn:
            return tr("Host");
        case LocalRankColumn:
            return tr("Local");
        case GpuColumn:
            return tr("GPU");
        case StateColumn:
            return tr("State");
        case LastEnqueuedColumn:
            return tr("Last enqueued");
        case LastCompletedColumn:
            return tr("Last completed");
        case FirstErrorColumn:
            return tr("First error");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case LocalRankColumn:
            return tr("Local rank on its host");
        case GpuColumn:
            return tr("CUDA device · PCI bus id");
        case LastEnqueuedColumn:
        case LastCompletedColumn:
            return tr("Sequence number on the stuck collective's process group");
        case FirstErrorColumn:
            return tr("The rank's earliest error or fatal line");
        }
    }
    return {};
}

} // namespace rankscope::views
