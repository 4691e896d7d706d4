#pragma once
// The rank-pair heatmap's picture: one pixel per cell of the N×N PairEvidence matrix, as an
// Indexed8 QImage (index 0 = no evidence, 1..255 = the colour map), plus which matrix cell
// every pixel shows so hover and click are O(1).
//
// When the matrix has more cells per side than the screen has device pixels (4096 ranks in
// a 900 px square), a plain nearest-neighbour downscale would drop most cells, and a sparse
// matrix would look empty. So the image is built at R = min(N, maxResolution) pixels per
// side and every pixel keeps the STRONGEST cell that falls into it (max pooling): building
// is a fill plus one pass over the cells with evidence, O(R² + cells).
//
// A zoomed view asks for a window of the matrix only (rows [rowFirst, rowFirst + span),
// the same number of columns from colFirst): the image then covers just what is visible,
// so a zoom into 4096 ranks reaches one pixel per cell without an image of 4096² pixels.

#include "model/pairevidence.h"

#include <QColor>
#include <QImage>
#include <QVector>

#include <cstdint>
#include <vector>

namespace rankscope::views {

// The square part of the matrix an image shows; span <= 0 means the whole matrix.
struct HeatmapWindow {
    std::int32_t rowFirst = 0;
    std::int32_t colFirst = 0;
    std::int32_t span = 0;
};

struct HeatmapImage {
    QImage image; // Indexed8, resolution × resolution; rows = from, columns = to
    std::vector<std::int32_t> cellAt; // per pixel: index into PairEvidence::cells(), -1 none
    std::int32_t size = 0; // cells per side of the window shown (N when not zoomed)
    std::int32_t rowFirst = 0; // matrix index of the window's first row / column
    std::int32_t colFirst = 0;
    std::int32_t resolution = 0; // R, image side in pixels (R <= size)
    float maxValue = 0; // of the metric over ALL cells, so colours hold still while panning
    std::size_t cellsWithEvidence = 0; // inside the window

    bool pooled() const { return resolution < size; }
    // Window-relative indexes (0 = rowFirst or colFirst) [first, last) shown by one pixel
    // along an axis, and the pixel of a window-relative index.
    std::int32_t firstIndex(std::int32_t pixel) const;
    std::int32_t endIndex(std::int32_t pixel) const { return firstIndex(pixel + 1); }
    std::int32_t pixelOf(std::int32_t index) const;
    // Cell (index into cells()) shown at a pixel, -1 when the pixel has no evidence.
    std::int32_t cellAtPixel(std::int32_t x, std::int32_t y) const;

    static HeatmapImage build(const model::PairEvidence& pairs, model::PairMetric metric,
        int maxResolution, HeatmapWindow window = {});
};

// Nearest-neighbour scaling of an Indexed8 image to side × side with the same integer
// mapping the view's hit testing uses (destination pixel d shows source floor(d·R/side)), so
// cell edges and overlays line up exactly at any size and device pixel ratio.
QImage scaledNearest(const QImage& indexed, int side);

// Colour index (1..255) for a value in (0, max]; 0 for no evidence. The smallest values
// still start a little into the map, so a single weak cell is visible.
int heatmapColorIndex(float value, float maxValue);

// 256 entries: [0] = background (no evidence), [1..255] a sequential map that runs from a
// faint to a strong colour against that background (light: yellow → red → plum; dark:
// plum → red → pale yellow).
QVector<QRgb> heatmapColorTable(const QColor& background, bool dark);

} // namespace rankscope::views
