#include "views/heatmapimage.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rankscope::views {

std::int32_t HeatmapImage::firstIndex(std::int32_t pixel) const
{
    if (resolution <= 0)
        return 0;
    // Ceil so that pixelOf(firstIndex(p)) == p.
    return static_cast<std::int32_t>(
        (static_cast<std::int64_t>(pixel) * size + resolution - 1) / resolution);
}

std::int32_t HeatmapImage::pixelOf(std::int32_t index) const
{
    if (size <= 0)
        return 0;
    return static_cast<std::int32_t>(static_cast<std::int64_t>(index) * resolution / size);
}

std::int32_t HeatmapImage::cellAtPixel(std::int32_t x, std::int32_t y) const
{
    if (x < 0 || y < 0 || x >= resolution || y >= resolution)
        return -1;
    return cellAt[static_cast<std::size_t>(y) * static_cast<std::size_t>(resolution)
        + static_cast<std::size_t>(x)];
}

int heatmapColorIndex(float value, float maxValue)
{
    if (!(value > 0.0f) || !(maxValue > 0.0f))
        return 0;
    const double t = std::clamp(static_cast<double>(value) / maxValue, 0.0, 1.0);
    return 1 + static_cast<int>(std::lround((0.12 + 0.88 * t) * 254.0));
}

HeatmapImage HeatmapImage::build(const model::PairEvidence& pairs, model::PairMetric metric,
    int maxResolution, HeatmapWindow window)
{
    HeatmapImage h;
    const std::int32_t n = std::max(0, pairs.size());
    h.size = window.span > 0 ? std::min(window.span, n) : n;
    h.rowFirst = std::clamp(window.rowFirst, 0, n - h.size);
    h.colFirst = std::clamp(window.colFirst, 0, n - h.size);
    h.resolution = std::clamp(maxResolution, 1, std::max(1, h.size));
    if (h.size == 0)
        h.resolution = 0;
    const auto m = static_cast<std::size_t>(metric);
    const auto& cells = pairs.cells();
    for (const auto& c : cells)
        h.maxValue = std::max(h.maxValue, c.value[m]);
    if (h.resolution == 0)
        return h;
    const auto r = static_cast<std::size_t>(h.resolution);
    h.image = QImage(h.resolution, h.resolution, QImage::Format_Indexed8);
    h.image.setColorCount(256);
    h.image.fill(0);
    h.cellAt.assign(r * r, -1);
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const model::PairCell& c = cells[i];
        const float v = c.value[m];
        const std::int32_t row = c.from - h.rowFirst;
        const std::int32_t col = c.to - h.colFirst;
        if (!(v > 0.0f) || row < 0 || col < 0 || row >= h.size || col >= h.size)
            continue;
        ++h.cellsWithEvidence;
        const auto y = static_cast<std::size_t>(h.pixelOf(row));
        const auto x = static_cast<std::size_t>(h.pixelOf(col));
        std::int32_t& slot = h.cellAt[y * r + x];
        if (slot >= 0 && cells[static_cast<std::size_t>(slot)].value[m] >= v)
            continue; // max pooling: the strongest cell wins the pixel
        slot = static_cast<std::int32_t>(i);
        h.image.scanLine(static_cast<int>(y))[x]
            = static_cast<uchar>(heatmapColorIndex(v, h.maxValue));
    }
    return h;
}

QImage scaledNearest(const QImage& indexed, int side)
{
    if (indexed.isNull() || side <= 0 || indexed.format() != QImage::Format_Indexed8)
        return {};
    const int r = indexed.width();
    QImage out(side, side, QImage::Format_Indexed8);
    out.setColorTable(indexed.colorTable());
    std::vector<int> column(static_cast<std::size_t>(side));
    for (int d = 0; d < side; ++d)
        column[static_cast<std::size_t>(d)]
            = static_cast<int>(static_cast<std::int64_t>(d) * r / side);
    int lastSource = -1;
    for (int y = 0; y < side; ++y) {
        const int sy = static_cast<int>(static_cast<std::int64_t>(y) * indexed.height() / side);
        uchar* dst = out.scanLine(y);
        if (sy == lastSource) {
            std::copy_n(out.constScanLine(y - 1), side, dst); // same source row as above
            continue;
        }
        const uchar* src = indexed.constScanLine(sy);
        for (int x = 0; x < side; ++x)
            dst[x] = src[column[static_cast<std::size_t>(x)]];
        lastSource = sy;
    }
    return out;
}

namespace {

struct Stop {
    double t;
    QColor color;
};

QColor interpolate(const std::array<Stop, 4>& stops, double t)
{
    for (std::size_t i = 1; i < stops.size(); ++i) {
        if (t <= stops[i].t) {
            const double u = (t - stops[i - 1].t) / (stops[i].t - stops[i - 1].t);
            const QColor& a = stops[i - 1].color;
            const QColor& b = stops[i].color;
            return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * u),
                static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * u),
                static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * u));
        }
    }
    return stops.back().color;
}

} // namespace

QVector<QRgb> heatmapColorTable(const QColor& background, bool dark)
{
    // Both maps rise in contrast against their background, so "more evidence" always reads
    // as "stands out more".
    const std::array<Stop, 4> light { { { 0.0, QColor(0xfd, 0xe7, 0x8a) },
        { 0.4, QColor(0xf4, 0x8c, 0x2a) }, { 0.75, QColor(0xc8, 0x1e, 0x3a) },
        { 1.0, QColor(0x5b, 0x0f, 0x4f) } } };
    const std::array<Stop, 4> darkStops { { { 0.0, QColor(0x6a, 0x17, 0x6e) },
        { 0.4, QColor(0xc2, 0x36, 0x4f) }, { 0.75, QColor(0xf7, 0x8a, 0x2a) },
        { 1.0, QColor(0xfc, 0xf5, 0xa8) } } };
    QVector<QRgb> table(256);
    table[0] = background.rgb();
    for (int i = 1; i < 256; ++i)
        table[i] = interpolate(dark ? darkStops : light, (i - 1) / 254.0).rgb();
    return table;
}

} // namespace rankscope::views
