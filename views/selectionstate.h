#pragma once
// The one selection and zoom state every view reads and writes (STYLE [formats 10]): the document,
// the selected rank, event, evidence line, rank pair, process group, collective and the
// visible time range. Views never keep their own copy; they connect to these signals.

#include "model/evidence.h"
#include "views/bundledocument.h"

#include <QObject>
#include <QString>
#include <QVector>

namespace rankscope::views {

class SelectionState : public QObject {
    Q_OBJECT
public:
    explicit SelectionState(QObject* parent = nullptr);

    const DocumentPtr& document() const { return m_document; }
    int selectedRank() const { return m_rank; }
    int selectedEvent() const { return m_event; } // index into Bundle::events, -1 none
    model::EvidenceRef selectedEvidence() const { return m_evidence; }
    QPair<int, int> selectedPair() const { return m_pair; } // (-1, -1) none
    QString processGroup() const { return m_pg; }           // PG key, empty = the stuck one
    qint64 selectedSeq() const { return m_seq; }            // -1 none
    qint64 visibleStartNs() const { return m_startNs; }
    qint64 visibleEndNs() const { return m_endNs; }
    // Ranks the timeline shows; empty = all.
    const QVector<int>& rankFilter() const { return m_rankFilter; }
    // A bundle is loading: views with no document yet say "Loading…" rather than that
    // there is nothing to show.
    bool isLoading() const { return m_loading; }

public Q_SLOTS:
    void setDocument(rankscope::views::DocumentPtr document);
    void selectRank(int rank);
    // Selects the event, its rank and its evidence line.
    void selectEvent(int eventIndex);
    void selectEvidence(rankscope::model::EvidenceRef evidence);
    void selectPair(int from, int to);
    void setProcessGroup(const QString& pg);
    void selectSeq(qint64 seq);
    void setVisibleTimeRange(qint64 startNs, qint64 endNs);
    void setRankFilter(const QVector<int>& ranks);
    void clearSelection();
    void setLoading(bool loading);

Q_SIGNALS:
    void documentChanged();
    void rankSelected(int rank);
    void eventSelected(int eventIndex);
    void evidenceSelected(rankscope::model::EvidenceRef evidence);
    void pairSelected(int from, int to);
    void processGroupChanged(const QString& pg);
    void seqSelected(qint64 seq);
    void visibleTimeRangeChanged(qint64 startNs, qint64 endNs);
    void rankFilterChanged();
    void loadingChanged(bool loading);

private:
    DocumentPtr m_document;
    int m_rank = -1;
    int m_event = -1;
    model::EvidenceRef m_evidence;
    QPair<int, int> m_pair { -1, -1 };
    QString m_pg;
    qint64 m_seq = -1;
    qint64 m_startNs = 0;
    qint64 m_endNs = 0;
    QVector<int> m_rankFilter;
    bool m_loading = false;
};

} // namespace rankscope::views

Q_DECLARE_METATYPE(rankscope::model::EvidenceRef)
Q_DECLARE_METATYPE(rankscope::views::DocumentPtr)
