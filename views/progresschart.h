#pragma once
// Last completed collective (sequence number) per rank as bars for one process group, the
// initiating rank(s) in the initiating colour, with the collectives a rank enqueued but never
// completed stacked on top in the "stuck" tint: the rank that fell behind is the short bar.
// Every rank of the group has a slot: one that logged no sequence number gets a hatched
// "no data" column (in the initiating colour for an initiating rank), never a gap.
// The y axis starts just below the lowest known value so a difference of one collective
// shows; ranks without a value do not pull it down to zero.
// Above charts::kMaxBars ranks, ranks are bucketed and a bucket shows its lowest value (the
// laggard is what matters). Follows SelectionState::processGroupChanged; a click on a bar
// selects its rank.

#include <QChartView>

#include <vector>

QT_BEGIN_NAMESPACE
class QBarSet;
class QCategoryAxis;
class QStackedBarSeries;
QT_END_NAMESPACE

namespace rankscope::views {

class SelectionState;

class ProgressChart : public QChartView {
    Q_OBJECT
public:
    explicit ProgressChart(SelectionState* selection, QWidget* parent = nullptr);

    // For tests and hit testing: bar index of a rank (-1 when not shown), the bar's value,
    // and the set drawn in the initiating colour.
    int barOfRank(int rank) const;
    qreal barValue(int bar) const;
    bool barHasData(int bar) const;
    int barCount() const { return static_cast<int>(m_buckets.size()); }
    QBarSet* initiatingSet() const { return m_initiating; }
    QBarSet* inFlightSet() const { return m_inFlight; }
    QBarSet* noDataSet() const { return m_noData; }
    QBarSet* initiatingNoDataSet() const { return m_initiatingNoData; }
    QStackedBarSeries* series() const { return m_series; }
    bool hasData() const { return !m_buckets.empty(); }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Bucket {
        int firstRank = 0;
        int lastRank = 0;
        qint64 lastCompleted = -1; // of the laggard
        qint64 lastEnqueued = -1; // of the laggard (timed-out seq counts as enqueued)
        int laggard = -1; // the rank shown: an initiating one, else the furthest behind
        bool initiating = false;
        bool hasData = false; // any sequence number logged for the rank shown
    };

    // Whether `candidate` is the rank a bucket shows instead of `current`.
    static bool showsBefore(const Bucket& candidate, const Bucket& current);

    void rebuild();
    int labelStepForWidth() const;
    // Rank labels under the bars, as many as fit the width (every initiating bar labelled).
    void updateRankAxis();

    SelectionState* m_selection;
    std::vector<Bucket> m_buckets;
    std::vector<int> m_bucketOfRank;
    QStackedBarSeries* m_series = nullptr;
    QBarSet* m_initiating = nullptr;
    QBarSet* m_others = nullptr;
    QBarSet* m_inFlight = nullptr;
    QBarSet* m_noData = nullptr;
    QBarSet* m_initiatingNoData = nullptr;
    QCategoryAxis* m_rankAxis = nullptr;
    int m_labelStep = 0; // bars per rank label; rebuilt when the width changes it
};

} // namespace rankscope::views
