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

#include "model/pairevidence.h"

#include <QColor>
#include <QImage>
#include <QVector>

#include <cstdint>
#include <vector>

namespace rankscope::views {

struct HeatmapImage {
    QImage image; // Indexed8, resolution × resolution; rows = from, columns = to
    std::vector<std::int32_t> cellAt; // per pixel: index into PairEvidence::cells(), -1 none
    std::int32_t size = 0; // N, matrix side (ranks or hosts)
    std::int32_t resolution = 0; // R, image side in pixels (R <= N)
    float maxValue = 0; // of the metric over all cells
    std::size_t cellsWithEvidence = 0;

    bool pooled() const { return resolution < size; }
    // Matrix indexes [first, last) shown by one pixel along an axis, and the pixel of an index.
    std::int32_t firstIndex(std::int32_t pixel) const;
    std::int32_t endIndex(std::int32_t pixel) const { return firstIndex(pixel + 1); }
    std::int32_t pixelOf(std::int32_t index) const;
    // Cell (index into cells()) shown at a pixel, -1 when the pixel has no evidence.
    std::int32_t cellAtPixel(std::int32_t x, std::int32_t y) const;

    static HeatmapImage build(
        const model::PairEvidence& pairs, model::PairMetric metric, int maxResolution);
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
