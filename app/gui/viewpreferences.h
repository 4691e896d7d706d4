#pragma once
// The view choices kept across runs, as the theme and text size are (appearance.h): the
// timeline's axis, the heatmap's metric, what the wait chart shows, the log viewer's wrap
// toggle and severity filter. Each is read back when the window is built and written when
// the user picks another; a choice a view makes on its own (the timeline's default axis for
// a new bundle) is not the user's and is not kept.

#include <QObject>
#include <QString>

// Forward declarations only: this header is compiled into the moc unit of the GUI library,
// where selectionstate.h (through ranktimelineview.h) would declare DocumentPtr's metatype
// after another moc file has used it.
namespace rankscope::views {
class LogViewer;
class PairHeatmapView;
class RankTimelineView;
} // namespace rankscope::views

namespace rankscope::app {

class ChartsPanel;

class ViewPreferences : public QObject {
    Q_OBJECT
public:
    struct Views {
        views::RankTimelineView* timeline = nullptr;
        views::PairHeatmapView* heatmap = nullptr;
        views::LogViewer* log = nullptr;
        ChartsPanel* charts = nullptr;
    };

    // Applies the saved choices to `views`, then keeps every choice the user makes.
    explicit ViewPreferences(const Views& views, QObject* parent = nullptr);

private:
    void restore();
    void watch();

    Views m_views;
};

} // namespace rankscope::app
