#include "views/selectionstate.h"

namespace rankscope::views {

SelectionState::SelectionState(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<rankscope::model::EvidenceRef>();
    qRegisterMetaType<rankscope::views::DocumentPtr>();
}

void SelectionState::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged(loading);
}

void SelectionState::setDocument(DocumentPtr document)
{
    m_document = std::move(document);
    m_rank = -1;
    m_event = -1;
    m_evidence = {};
    m_pair = { -1, -1 };
    m_pg.clear();
    m_seq = -1;
    m_rankFilter.clear();
    m_startNs = 0;
    m_endNs = 0;
    if (m_document && m_document->timeline && m_document->timeline->hasWallClock()) {
        m_startNs = m_document->timeline->minTimeNs();
        m_endNs = m_document->timeline->maxTimeNs();
    }
    if (m_document && m_document->diagnosis && m_document->diagnosis->stuckCollective) {
        m_pg = QString::fromStdString(m_document->diagnosis->stuckCollective->processGroup);
        m_seq = m_document->diagnosis->stuckCollective->seq;
    }
    Q_EMIT documentChanged();
}

void SelectionState::selectRank(int rank)
{
    if (rank == m_rank)
        return;
    m_rank = rank;
    Q_EMIT rankSelected(rank);
}

void SelectionState::selectEvent(int eventIndex)
{
    if (!m_document || !m_document->bundle || eventIndex < 0
        || static_cast<std::size_t>(eventIndex) >= m_document->bundle->events.size()) {
        m_event = -1;
        Q_EMIT eventSelected(-1);
        return;
    }
    m_event = eventIndex;
    const model::Event& e = m_document->bundle->events[static_cast<std::size_t>(eventIndex)];
    Q_EMIT eventSelected(eventIndex);
    if (e.rank >= 0)
        selectRank(e.rank);
    selectEvidence(e.evidence);
}

void SelectionState::selectEvidence(model::EvidenceRef evidence)
{
    m_evidence = evidence;
    Q_EMIT evidenceSelected(evidence);
}

void SelectionState::selectPair(int from, int to)
{
    m_pair = { from, to };
    Q_EMIT pairSelected(from, to);
}

void SelectionState::setProcessGroup(const QString& pg)
{
    if (pg == m_pg)
        return;
    m_pg = pg;
    Q_EMIT processGroupChanged(pg);
}

void SelectionState::selectSeq(qint64 seq)
{
    if (seq == m_seq)
        return;
    m_seq = seq;
    Q_EMIT seqSelected(seq);
}

void SelectionState::setVisibleTimeRange(qint64 startNs, qint64 endNs)
{
    if (endNs < startNs)
        std::swap(startNs, endNs);
    if (startNs == m_startNs && endNs == m_endNs)
        return;
    m_startNs = startNs;
    m_endNs = endNs;
    Q_EMIT visibleTimeRangeChanged(startNs, endNs);
}

void SelectionState::setRankFilter(const QVector<int>& ranks)
{
    m_rankFilter = ranks;
    Q_EMIT rankFilterChanged();
}

void SelectionState::clearSelection()
{
    m_rank = -1;
    m_event = -1;
    m_evidence = {};
    m_pair = { -1, -1 };
    Q_EMIT rankSelected(-1);
    Q_EMIT eventSelected(-1);
    Q_EMIT pairSelected(-1, -1);
}

} // namespace rankscope::views
