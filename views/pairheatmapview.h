#pragma once
// The rank-pair heatmap: an N×N matrix whose cell (row = from, column = to) holds the
// evidence of trouble between two ranks (PairEvidence: network errors naming the peer,
// stalled ring/tree neighbours, NVLink faults, "waits on", unmatched send/recv, combined).
// Large worlds (N > 512) open aggregated to hosts; a toggle switches between the two.
// The square fills the widget: the legend (colour scale, what a value counts, swatches)
// goes beside the matrix or under it, whichever leaves the larger square.
//
// Click a cell: SelectionState::selectPair(from, to), setRankFilter({from, to}) (the
// timeline then shows only the two ranks; on hosts, every rank of both hosts) and
// selectEvidence(first evidence line) so the log viewer jumps there. Click beside the
// matrix (or clearPairFilter()) to show all ranks again.
//
// Zoom and pan (4096 ranks are a tenth of a pixel each at first): the mouse wheel (with or
// without Ctrl) and +/- zoom about the pointer or the centre, a drag pans, 0 or Home shows
// the whole matrix again, a double-click zooms in on the cell under it. The visible part is
// a square window of the matrix (visibleCells()); it is this view's own viewport, not
// shared selection state, because no other view shows rank pairs. Axis labels are thinned
// to the zoom level (1-2-5 steps that never overlap), so more appear as the cells grow.
// setControlsVisible(false) hides the metric/host controls (report figures show the plot).
//
// Caches (STYLE [formats 11]):
//   - m_image (HeatmapImage, Indexed8, one pixel per visible cell or max-pooled to the
//     device pixels; only the visible window is built): key = (document, hosts/ranks,
//     metric, visible window, resolution R). R only changes with the widget size or the
//     zoom when the window is larger than the device pixels; a pan changes the window.
//   - m_pixmap (the image with the palette's colour table, scaled WITHOUT smoothing to the
//     matrix square at the device pixel ratio): key = (image generation, colour table
//     (palette), square side in device pixels).
//   Hover crosshair, hovered cell, selected pair, the diagnosis's stuck pair (a ring of at
//   least kStuckMarkerDiameter px with guide lines to the axes, found at any size) and the
//   initiating ranks' axis ticks are painted on top each frame and never touch either cache.
// Hover and click are O(1): pixel → matrix index is arithmetic, pixel → cell a table lookup.

#include "model/pairevidence.h"
#include "views/heatmapimage.h"
#include "views/selectionstate.h"

#include <QPixmap>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;

namespace rankscope::views {

class PairHeatmapView : public QWidget {
    Q_OBJECT
public:
    // Above this many ranks the view opens aggregated to hosts.
    static constexpr int kHostDefaultAbove = 512;
    // The stuck pair's ring is never smaller than this on screen (px), however small the
    // cells are.
    static constexpr int kStuckMarkerDiameter = 22;

    explicit PairHeatmapView(SelectionState* selection, QWidget* parent = nullptr);
    ~PairHeatmapView() override;

    model::PairMetric metric() const { return m_metric; }
    bool hostMode() const { return m_hostMode; }
    // Matrix side (ranks or hosts) and the pair data currently drawn.
    std::int32_t matrixSize() const;
    const model::PairEvidence* currentPairs() const;
    const HeatmapImage& image() const { return m_image; }

    // Geometry in widget coordinates.
    QRect matrixRect() const;
    // The legend's box (colour scale, unit, swatches): beside the matrix or under it.
    QRect legendRect() const;
    // What one unit of the current metric counts, as the legend says it.
    QString legendUnit() const;
    // The legend's label for the verdict's ranks (or their hosts) as the matrix marks them;
    // empty when the verdict names none.
    QString initiatorsSwatchLabel() const;
    QRectF cellRect(std::int32_t from, std::int32_t to) const; // matrix indexes of the current mode
    // Matrix (row, column) under a point; nullopt outside the matrix.
    std::optional<std::pair<std::int32_t, std::int32_t>> cellAt(const QPoint& pos) const;
    QString toolTipAt(const QPoint& pos) const;

    // The part of the matrix on screen, in matrix indexes: x = first column (to), y = first
    // row (from), width = height = cells per side. The whole matrix when not zoomed.
    QRect visibleCells() const;
    bool isZoomed() const;
    // Fewest cells per side a zoom shows.
    static constexpr int kMinVisibleCells = 4;

    static QColor stuckPairColor(const QPalette& palette);
    static QColor emptyCellColor(const QPalette& palette);

public Q_SLOTS:
    void setMetric(rankscope::model::PairMetric metric);
    void setHostMode(bool hosts);
    void clearPairFilter();
    // Zoom by `factor` (> 1 in, < 1 out) keeping the cell under `anchor` (widget
    // coordinates; the matrix centre when null) where it is.
    void zoomBy(double factor, QPointF anchor = {});
    void zoomIn() { zoomBy(2.0); }
    void zoomOut() { zoomBy(0.5); }
    void resetZoom();
    // Centres the view on a cell, zoomed in four times further.
    void zoomToCell(std::int32_t from, std::int32_t to);
    // Moves the window by whole cells (clamped to the matrix).
    void panByCells(double columns, double rows);
    void setControlsVisible(bool visible);

Q_SIGNALS:
    void metricChanged(rankscope::model::PairMetric metric);
    void hostModeChanged(bool hosts);
    void visibleCellsChanged(const QRect& cells);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout {
        QRect matrix;
        QRect legend;
        bool legendUnder = false; // else beside the matrix
        int labelLeft = 0;
        int labelTop = 0;
    };

    void onDocumentChanged();
    void updateInfo();
    void measureHostLabels();
    Layout computeLayout() const;
    int legendWidthBeside() const;
    int legendHeightUnder() const;
    int resolutionFor(const Layout& layout) const;
    void ensureImage(const Layout& layout);
    void ensurePixmap(const Layout& layout);
    QString labelOf(std::int32_t index) const;
    QString describeIndexRange(std::int32_t first, std::int32_t end) const;
    void paintAxes(QPainter& p, const Layout& l);
    void paintOverlays(QPainter& p, const Layout& l);
    void paintLegend(QPainter& p, const Layout& l);
    void outlineCell(QPainter& p, const Layout& l, std::int32_t from, std::int32_t to,
        const QColor& color, qreal width);
    // The verdict's stuck pair: a ring around the cell and guide lines from the axes.
    void markStuckCell(QPainter& p, const Layout& l, std::int32_t from, std::int32_t to);
    void selectCell(std::int32_t from, std::int32_t to);
    // Cells per side on screen, and the window as HeatmapImage takes it.
    std::int32_t visibleSpan() const;
    HeatmapWindow window() const;
    // Clamps the origin to the matrix and repaints when the visible window moved.
    void setWindow(double rowOrigin, double colOrigin, std::int32_t span);

    SelectionState* m_selection;
    DocumentPtr m_document;
    model::PairMetric m_metric = model::PairMetric::Combined;
    bool m_hostMode = false;
    std::unique_ptr<model::PairEvidence> m_hostPairs; // per document, on first use
    std::vector<std::vector<std::int32_t>> m_ranksOfHost; // index = bundle.world.hosts
    std::vector<std::int32_t> m_hostOfRank;
    int m_widestHostLabel = 0; // px, per document and font

    HeatmapImage m_image;
    // Zoom: cells per side (0 = whole matrix) and the window's first row and column as
    // fractions, so a slow drag accumulates into whole cells; the image shows them rounded.
    std::int32_t m_span = 0;
    double m_rowOrigin = 0;
    double m_colOrigin = 0;
    // A left-button press: where, and the origin then; a drag beyond the start distance pans
    // and the release then selects nothing.
    std::optional<QPoint> m_pressPos;
    double m_pressRowOrigin = 0;
    double m_pressColOrigin = 0;
    bool m_panning = false;

    struct ImageKey {
        const void* pairs = nullptr;
        model::PairMetric metric = model::PairMetric::Count;
        std::int32_t rowFirst = 0;
        std::int32_t colFirst = 0;
        std::int32_t span = 0;
        int resolution = -1;
        bool operator==(const ImageKey&) const = default;
    } m_imageKey;
    std::uint64_t m_imageGeneration = 0;
    QPixmap m_pixmap;
    struct PixmapKey {
        std::uint64_t image = ~std::uint64_t { 0 };
        QRgb background = 0;
        bool dark = false;
        int sidePx = -1;
        bool operator==(const PixmapKey&) const = default;
    } m_pixmapKey;

    std::optional<std::pair<std::int32_t, std::int32_t>> m_hover;
    QWidget* m_header = nullptr;
    QComboBox* m_metricBox = nullptr;
    QCheckBox* m_hostsBox = nullptr;
    QLabel* m_info = nullptr;
};

} // namespace rankscope::views
