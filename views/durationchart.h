#pragma once
// How long each rank waited in the stuck collective before its watchdog gave up (the
// TimelineSpan of the stuck wait, or the watchdog's "ran for" when the logs have no wall
// clock; with Flight Recorder dumps alone, the estimate of model/frwaits.h), one point per
// rank; or, in the other mode, when each rank's timeout fired
// relative to the first one. Initiating ranks sit at zero in the initiating colour: the
// cause did not wait, and where its watchdog fired anyway (both ends of a failed link) the
// legend says it is shown at 0 s rather than at the timeout. Points stay readable at 4096
// ranks (small markers, no labels).

#include <QChartView>

#include <vector>

QT_BEGIN_NAMESPACE
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace rankscope::views {

class SelectionState;

class DurationChart : public QChartView {
    Q_OBJECT
public:
    enum class Mode { WaitDuration, TimeoutTime };

    explicit DurationChart(SelectionState* selection, QWidget* parent = nullptr);

    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    // Seconds plotted for `rank`, or a negative value when the rank has no point.
    double valueOfRank(int rank) const;
    QScatterSeries* initiatingSeries() const { return m_initiating; }
    QScatterSeries* waitingSeries() const { return m_waiting; }
    bool hasData() const { return m_hasData; }
    // Some waits are estimated from Flight Recorder entry times (the title says so).
    bool estimatedFromDumps() const { return m_estimatedFromDumps; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    // Rank ticks as dense as the width allows.
    void updateRankTicks();

    SelectionState* m_selection;
    Mode m_mode = Mode::WaitDuration;
    std::vector<double> m_values; // by rank, -1 = none
    QScatterSeries* m_waiting = nullptr;
    QScatterSeries* m_initiating = nullptr;
    bool m_hasData = false;
    bool m_estimatedFromDumps = false;
    QValueAxis* m_rankAxis = nullptr;
    int m_rankCount = 0;
};

} // namespace rankscope::views
