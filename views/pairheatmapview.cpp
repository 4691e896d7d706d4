#include "views/pairheatmapview.h"

#include "model/bundle.h"
#include "model/countwords.h"
#include "model/ranklist.h"
#include "views/screentooltip.h"
#include "views/theme.h"
#include "views/timelinecoords.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rankscope::views {

namespace {

constexpr int kMargin = 8;
constexpr int kMaxResolution = 2048; // pooled image side cap (device pixels of a large screen)
// One wheel notch (120 eighths of a degree) zooms by this factor.
constexpr double kWheelZoomPerNotch = 1.25;
// A double-click zooms in this many times further on the cell under it.
constexpr double kCellZoom = 4.0;

QString fromView(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<int>(v.size()));
}

QString metricTitle(model::PairMetric m)
{
    QString name = fromView(model::pairMetricName(m));
    if (!name.isEmpty())
        name[0] = name[0].toUpper();
    return name;
}

QString valueText(float v)
{
    return QString::number(static_cast<double>(v), 'g', 3);
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

} // namespace

PairHeatmapView::PairHeatmapView(SelectionState* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus); // +, -, 0 and Home zoom
    setMinimumSize(260, 220);
    setAttribute(Qt::WA_OpaquePaintEvent);

    m_header = new QWidget(this);
    auto* row = new QHBoxLayout(m_header);
    row->setContentsMargins(kMargin, 4, kMargin, 4);
    auto* metricLabel = new QLabel(tr("Metric:"), m_header);
    m_metricBox = new QComboBox(m_header);
    m_metricBox->setObjectName(QStringLiteral("heatmapMetric"));
    for (int i = 0; i < static_cast<int>(model::PairMetric::Count); ++i)
        m_metricBox->addItem(metricTitle(static_cast<model::PairMetric>(i)), i);
    m_metricBox->setCurrentIndex(
        m_metricBox->findData(static_cast<int>(model::PairMetric::Combined)));
    m_metricBox->setToolTip(tr("Which evidence the cells show"));
    metricLabel->setBuddy(m_metricBox);
    m_hostsBox = new QCheckBox(tr("Hosts"), m_header);
    m_hostsBox->setToolTip(
        tr("Aggregate rank pairs to host pairs (default above %1 ranks)").arg(kHostDefaultAbove));
    m_info = new QLabel(m_header);
    m_info->setForegroundRole(QPalette::PlaceholderText);
    row->addWidget(metricLabel);
    row->addWidget(m_metricBox);
    row->addSpacing(12);
    row->addWidget(m_hostsBox);
    row->addStretch(1);
    row->addWidget(m_info);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_header);
    column->addStretch(1);

    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMetric(static_cast<model::PairMetric>(m_metricBox->itemData(index).toInt()));
    });
    connect(m_hostsBox, &QCheckBox::toggled, this, &PairHeatmapView::setHostMode);
    connect(
        m_selection, &SelectionState::documentChanged, this, &PairHeatmapView::onDocumentChanged);
    connect(m_selection, &SelectionState::pairSelected, this, qOverload<>(&QWidget::update));
    connect(m_selection, &SelectionState::loadingChanged, this, qOverload<>(&QWidget::update));
    onDocumentChanged();
}

PairHeatmapView::~PairHeatmapView() = default;

QColor PairHeatmapView::stuckPairColor(const QPalette& palette)
{
    return theme::colors(palette).initiating;
}

QColor PairHeatmapView::emptyCellColor(const QPalette& palette)
{
    return palette.color(QPalette::Base);
}

void PairHeatmapView::onDocumentChanged()
{
    m_document = m_selection->document();
    m_hostPairs.reset();
    m_ranksOfHost.clear();
    m_hostOfRank.clear();
    m_hover.reset();
    m_imageKey = {};
    m_image = {};
    m_span = 0;
    m_rowOrigin = m_colOrigin = 0;
    if (m_document && m_document->bundle) {
        const model::Bundle& b = *m_document->bundle;
        m_ranksOfHost.resize(b.world.hosts.size());
        m_hostOfRank.assign(b.ranks.size(), -1);
        for (std::size_t r = 0; r < b.ranks.size(); ++r)
            for (std::size_t h = 0; h < b.world.hosts.size(); ++h)
                if (b.ranks[r].host == b.world.hosts[h]) {
                    m_ranksOfHost[h].push_back(static_cast<std::int32_t>(r));
                    m_hostOfRank[r] = static_cast<std::int32_t>(h);
                    break;
                }
    }
    measureHostLabels();
    const bool hosts = m_document && m_document->pairs
        && m_document->pairs->size() > kHostDefaultAbove && !m_ranksOfHost.empty();
    m_hostsBox->setEnabled(!m_ranksOfHost.empty());
    const QSignalBlocker block(m_hostsBox);
    m_hostsBox->setChecked(hosts);
    if (hosts != m_hostMode) {
        m_hostMode = hosts;
        Q_EMIT hostModeChanged(hosts);
    }
    updateInfo();
    update();
}

void PairHeatmapView::measureHostLabels()
{
    // Once per document and font, so layout (and with it every hover) stays O(1).
    m_widestHostLabel = 0;
    if (!m_document || !m_document->bundle)
        return;
    const QFontMetrics fm(font());
    for (model::StrId h : m_document->bundle->world.hosts)
        m_widestHostLabel = std::max(
            m_widestHostLabel, fm.horizontalAdvance(fromView(m_document->bundle->text(h))));
}

void PairHeatmapView::setMetric(model::PairMetric metric)
{
    if (metric == m_metric || metric == model::PairMetric::Count)
        return;
    m_metric = metric;
    const QSignalBlocker block(m_metricBox);
    m_metricBox->setCurrentIndex(m_metricBox->findData(static_cast<int>(metric)));
    updateInfo();
    update();
    Q_EMIT metricChanged(metric);
}

void PairHeatmapView::setHostMode(bool hosts)
{
    if (hosts && m_ranksOfHost.empty())
        hosts = false;
    if (hosts == m_hostMode)
        return;
    m_hostMode = hosts;
    const QSignalBlocker block(m_hostsBox);
    m_hostsBox->setChecked(hosts);
    m_hover.reset();
    resetZoom(); // another matrix: its indexes mean other things
    updateInfo();
    update();
    Q_EMIT hostModeChanged(hosts);
}

void PairHeatmapView::clearPairFilter()
{
    m_selection->selectPair(-1, -1);
    if (!m_selection->rankFilter().isEmpty())
        m_selection->setRankFilter({});
}

const model::PairEvidence* PairHeatmapView::currentPairs() const
{
    if (!m_document || !m_document->pairs)
        return nullptr;
    if (!m_hostMode)
        return m_document->pairs.get();
    if (!m_hostPairs && m_document->bundle)
        const_cast<PairHeatmapView*>(this)->m_hostPairs = std::make_unique<model::PairEvidence>(
            m_document->pairs->aggregateToHosts(*m_document->bundle));
    return m_hostPairs.get();
}

std::int32_t PairHeatmapView::matrixSize() const
{
    const model::PairEvidence* p = currentPairs();
    return p ? p->size() : 0;
}

void PairHeatmapView::updateInfo()
{
    const model::PairEvidence* p = currentPairs();
    if (!p) {
        m_info->clear();
        return;
    }
    const auto m = static_cast<std::size_t>(m_metric);
    const auto withEvidence = std::count_if(p->cells().begin(), p->cells().end(),
        [m](const model::PairCell& c) { return c.value[m] > 0; });
    m_info->setText(tr("%1 %2 · %3 pairs with evidence")
                        .arg(p->size())
                        .arg(m_hostMode ? tr("hosts") : tr("ranks"))
                        .arg(withEvidence));
}

// ---------------------------------------------------------------------------------------
// Geometry

PairHeatmapView::Layout PairHeatmapView::computeLayout() const
{
    Layout l;
    const QFontMetrics fm(font());
    const std::int32_t n = matrixSize();
    const int top = (m_header->isHidden() ? 0 : m_header->geometry().bottom() + 1) + kMargin;
    const int titleH = fm.height() + 2;
    int rowLabelW = fm.horizontalAdvance(QString::number(std::max(9, n - 1))) + 10;
    int colLabelH = fm.height() + 4;
    if (m_hostMode) {
        rowLabelW = std::min(m_widestHostLabel, 120) + 10;
        colLabelH = std::min(m_widestHostLabel, 100) + 8; // rotated
    }
    l.labelLeft = titleH + rowLabelW + 2;
    l.labelTop = titleH + colLabelH;
    // The legend goes beside the matrix or under it, whichever leaves the larger square:
    // a dock is often much taller than wide (or the reverse), and a fixed side legend
    // left the matrix a small square in a large empty dock.
    const int besideW = legendWidthBeside();
    const int underH = legendHeightUnder();
    const int freeW = width() - kMargin - l.labelLeft - kMargin;
    const int freeH = height() - top - l.labelTop - kMargin;
    const int sideBeside = std::min(freeW - besideW, freeH);
    const int sideUnder = std::min(freeW, freeH - underH);
    l.legendUnder = sideUnder > sideBeside;
    int side = std::max(0, std::max(sideBeside, sideUnder));
    // Whole pixels per cell, so every cell is the same size, where cells are big enough for
    // a difference of one pixel to show; denser matrices use the whole square. Decided on
    // the whole matrix, so zooming never resizes the square.
    if (n > 0 && side / n >= 3)
        side = (side / n) * n;
    // Centred across the width, so what is left over is shared by both sides.
    const int used = side + (l.legendUnder ? 0 : besideW);
    const int left = kMargin + l.labelLeft + std::max(0, (freeW - used) / 2);
    l.matrix = QRect(left, top + l.labelTop, side, side);
    if (l.legendUnder)
        l.legend = QRect(l.matrix.left(), l.matrix.bottom() + 1 + kMargin + fm.height(), side,
            underH - kMargin - fm.height());
    else
        l.legend = QRect(l.matrix.right() + 1 + 16, l.matrix.top(), besideW - 16,
            std::max(side, fm.height() * 12));
    return l;
}

int PairHeatmapView::legendWidthBeside() const
{
    const QFontMetrics fm(font());
    int w = fm.horizontalAdvance(QLatin1Char('x')) * 18; // room for the unit, wrapped
    for (const QString& t :
        { initiatorsSwatchLabel(), tr("no evidence"), tr("stuck pair"), metricTitle(m_metric) })
        w = std::max(w, fm.horizontalAdvance(t) + 20);
    return w + 16;
}

int PairHeatmapView::legendHeightUnder() const
{
    // Title, unit (up to two lines), colour bar, its end labels and the swatches.
    const QFontMetrics fm(font());
    return kMargin + fm.height() * 7 + 14 + 4 * 6; // swatches may wrap to a second row
}

int PairHeatmapView::resolutionFor(const Layout& l) const
{
    const std::int32_t n = visibleSpan();
    const int devicePx = static_cast<int>(std::floor(l.matrix.width() * devicePixelRatioF()));
    return std::clamp(std::min(n, devicePx), n > 0 ? 1 : 0, kMaxResolution);
}

QRect PairHeatmapView::matrixRect() const
{
    return computeLayout().matrix;
}

QRect PairHeatmapView::legendRect() const
{
    return computeLayout().legend;
}

std::int32_t PairHeatmapView::visibleSpan() const
{
    const std::int32_t n = matrixSize();
    return m_span > 0 ? std::min(m_span, n) : n;
}

HeatmapWindow PairHeatmapView::window() const
{
    const std::int32_t span = visibleSpan();
    const std::int32_t last = std::max(0, matrixSize() - span);
    return { std::clamp(static_cast<std::int32_t>(std::lround(m_rowOrigin)), 0, last),
        std::clamp(static_cast<std::int32_t>(std::lround(m_colOrigin)), 0, last), span };
}

QRect PairHeatmapView::visibleCells() const
{
    const HeatmapWindow w = window();
    return QRect(w.colFirst, w.rowFirst, w.span, w.span);
}

bool PairHeatmapView::isZoomed() const
{
    return visibleSpan() < matrixSize();
}

QRectF PairHeatmapView::cellRect(std::int32_t from, std::int32_t to) const
{
    const Layout l = computeLayout();
    const HeatmapWindow w = window();
    HeatmapImage map; // only its index arithmetic
    map.size = w.span;
    map.resolution = resolutionFor(l);
    const std::int32_t row = from - w.rowFirst, col = to - w.colFirst;
    if (map.resolution <= 0 || from < 0 || to < 0 || row < 0 || col < 0 || row >= map.size
        || col >= map.size)
        return {}; // not in the matrix, or scrolled out of view
    const double px = static_cast<double>(l.matrix.width()) / map.resolution;
    return QRectF(
        l.matrix.left() + map.pixelOf(col) * px, l.matrix.top() + map.pixelOf(row) * px, px, px);
}

std::optional<std::pair<std::int32_t, std::int32_t>> PairHeatmapView::cellAt(
    const QPoint& pos) const
{
    const Layout l = computeLayout();
    if (!l.matrix.contains(pos) || l.matrix.width() <= 0)
        return std::nullopt;
    const HeatmapWindow w = window();
    HeatmapImage map;
    map.size = w.span;
    map.resolution = resolutionFor(l);
    if (map.resolution <= 0)
        return std::nullopt;
    const auto px = static_cast<std::int32_t>(
        static_cast<std::int64_t>(pos.x() - l.matrix.left()) * map.resolution / l.matrix.width());
    const auto py = static_cast<std::int32_t>(
        static_cast<std::int64_t>(pos.y() - l.matrix.top()) * map.resolution / l.matrix.width());
    // A pooled pixel stands for the strongest cell inside it.
    if (m_image.resolution == map.resolution && m_imageKey.pairs == currentPairs()
        && m_imageKey.metric == m_metric && m_image.rowFirst == w.rowFirst
        && m_image.colFirst == w.colFirst && m_image.size == w.span) {
        const std::int32_t cell = m_image.cellAtPixel(px, py);
        if (cell >= 0) {
            const model::PairCell& c = currentPairs()->cells()[static_cast<std::size_t>(cell)];
            return std::make_pair(c.from, c.to);
        }
    }
    return std::make_pair(w.rowFirst + map.firstIndex(py), w.colFirst + map.firstIndex(px));
}

// ---------------------------------------------------------------------------------------
// Caches

void PairHeatmapView::ensureImage(const Layout& l)
{
    const model::PairEvidence* pairs = currentPairs();
    const HeatmapWindow w = window();
    const ImageKey key { pairs, m_metric, w.rowFirst, w.colFirst, w.span, resolutionFor(l) };
    if (key == m_imageKey)
        return;
    m_imageKey = key;
    m_image = pairs ? HeatmapImage::build(*pairs, m_metric, key.resolution, w) : HeatmapImage {};
    ++m_imageGeneration;
}

void PairHeatmapView::ensurePixmap(const Layout& l)
{
    const qreal dpr = devicePixelRatioF();
    const QColor background = emptyCellColor(palette());
    const PixmapKey key { m_imageGeneration, background.rgb(), theme::isDark(palette()),
        static_cast<int>(std::lround(l.matrix.width() * dpr)) };
    if (key == m_pixmapKey && !m_pixmap.isNull())
        return;
    m_pixmapKey = key;
    if (m_image.image.isNull() || key.sidePx <= 0) {
        m_pixmap = {};
        return;
    }
    QImage indexed = m_image.image;
    indexed.setColorTable(heatmapColorTable(background, key.dark));
    // Nearest neighbour: a cell is a crisp square, never a blur into its neighbours.
    m_pixmap = QPixmap::fromImage(scaledNearest(indexed, key.sidePx));
    m_pixmap.setDevicePixelRatio(dpr);
}

// ---------------------------------------------------------------------------------------
// Painting

QString PairHeatmapView::labelOf(std::int32_t index) const
{
    if (m_hostMode && m_document && m_document->bundle) {
        const auto& hosts = m_document->bundle->world.hosts;
        return index >= 0 && static_cast<std::size_t>(index) < hosts.size()
            ? fromView(m_document->bundle->text(hosts[static_cast<std::size_t>(index)]))
            : QString();
    }
    return QString::number(index);
}

QString PairHeatmapView::describeIndexRange(std::int32_t first, std::int32_t end) const
{
    if (end - first <= 1)
        return m_hostMode ? labelOf(first) : QStringLiteral("rank %1").arg(first);
    if (m_hostMode)
        return tr("hosts %1 … %2").arg(labelOf(first), labelOf(end - 1));
    return tr("ranks %1-%2").arg(first).arg(end - 1);
}

void PairHeatmapView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const Layout l = computeLayout();
    const model::PairEvidence* pairs = currentPairs();
    if (!pairs || pairs->size() == 0 || l.matrix.width() <= 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(0, m_header->height(), 0, 0), Qt::AlignCenter,
            m_document                     ? tr("No rank pairs in this bundle.")
                : m_selection->isLoading() ? tr("Loading…")
                                           : tr("Open a bundle to see rank pairs."));
        return;
    }
    ensureImage(l);
    ensurePixmap(l);
    p.fillRect(l.matrix, emptyCellColor(palette()));
    if (!m_pixmap.isNull())
        p.drawPixmap(l.matrix.topLeft(), m_pixmap);
    p.setPen(theme::isDark(palette()) ? palette().color(QPalette::Midlight)
                                      : palette().color(QPalette::Mid));
    p.drawRect(l.matrix.adjusted(-1, -1, 0, 0));
    paintAxes(p, l);
    paintOverlays(p, l);
    paintLegend(p, l);
    if (m_image.cellsWithEvidence == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(l.matrix, Qt::AlignCenter | Qt::TextWordWrap,
            isZoomed() ? tr("No evidence in this part of the matrix for this metric.")
                       : tr("No evidence between rank pairs for this metric."));
    }
}

void PairHeatmapView::paintAxes(QPainter& p, const Layout& l)
{
    const QFontMetrics fm(font());
    const std::int32_t n = matrixSize();
    const HeatmapWindow w = window();
    const double cell = static_cast<double>(l.matrix.width()) / w.span;
    const QColor text = palette().color(QPalette::WindowText);
    const QColor muted = palette().color(QPalette::PlaceholderText);
    const QColor initiating = theme::colors(palette()).initiating;
    // Centre of matrix index i along the row / column axis; only indexes in the window are
    // ever drawn.
    const auto rowCentre
        = [&](std::int32_t i) { return l.matrix.top() + (i - w.rowFirst + 0.5) * cell; };
    const auto colCentre
        = [&](std::int32_t i) { return l.matrix.left() + (i - w.colFirst + 0.5) * cell; };
    const auto rowVisible
        = [&](std::int32_t i) { return i >= w.rowFirst && i < w.rowFirst + w.span; };
    const auto colVisible
        = [&](std::int32_t i) { return i >= w.colFirst && i < w.colFirst + w.span; };
    std::vector<std::int32_t> marked; // initiating ranks (or their hosts), sorted, unique
    if (m_document && m_document->diagnosis)
        for (std::int32_t r : m_document->diagnosis->initiatingRanks) {
            const std::int32_t i = m_hostMode ? (static_cast<std::size_t>(r) < m_hostOfRank.size()
                                           ? m_hostOfRank[static_cast<std::size_t>(r)]
                                           : -1)
                                              : r;
            if (i >= 0 && i < n)
                marked.push_back(i);
        }
    std::sort(marked.begin(), marked.end());
    marked.erase(std::unique(marked.begin(), marked.end()), marked.end());

    // Axis titles: "to" above the columns, "from" rotated left of the rows; with the range
    // shown when zoomed.
    const QString what = m_hostMode ? tr("host") : tr("rank");
    const QString range = isZoomed()
        ? tr(" (%1 of %2)").arg(describeIndexRange(w.colFirst, w.colFirst + w.span)).arg(n)
        : QString();
    const QString rowRange = isZoomed()
        ? tr(" (%1 of %2)").arg(describeIndexRange(w.rowFirst, w.rowFirst + w.span)).arg(n)
        : QString();
    p.setPen(muted);
    const int titleH = fm.height() + 2;
    p.drawText(QRect(l.matrix.left(), l.matrix.top() - l.labelTop, l.matrix.width(), titleH),
        Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(tr("to %1 →").arg(what) + range, Qt::ElideRight, l.matrix.width()));
    p.save();
    p.translate(l.matrix.left() - l.labelLeft, l.matrix.top());
    p.rotate(90);
    p.drawText(QRect(0, -titleH, l.matrix.height(), titleH), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(tr("from %1 →").arg(what) + rowRange, Qt::ElideRight, l.matrix.height()));
    p.restore();

    // Labels at readable intervals (1-2-5 steps of the zoom level's cell size), the
    // initiating ones always; a regular label never crowds an initiating one, and two
    // initiating labels closer than a label's size keep the first only (its tick still
    // marks the other).
    const int rowSpacing = fm.height() + 2;
    const int colSpacing = m_hostMode
        ? fm.height() + 2
        : fm.horizontalAdvance(QString::number(std::max(9, n - 1))) + 10;
    const std::int64_t rowStep = niceSeqStep(rowSpacing / std::max(cell, 1e-9));
    const std::int64_t colStep = niceSeqStep(colSpacing / std::max(cell, 1e-9));
    const int rowLabelW = l.labelLeft - titleH - 6;
    const int colLabelH = l.labelTop - titleH - 4;
    auto drawRowLabel = [&](std::int32_t i, bool strong) {
        const double y = rowCentre(i);
        p.setPen(strong ? initiating : text);
        p.drawText(
            QRectF(l.matrix.left() - 8 - rowLabelW, y - rowSpacing / 2.0, rowLabelW, rowSpacing),
            Qt::AlignRight | Qt::AlignVCenter,
            fm.elidedText(labelOf(i), Qt::ElideMiddle, rowLabelW));
    };
    auto drawColLabel = [&](std::int32_t i, bool strong) {
        const double x = colCentre(i);
        p.setPen(strong ? initiating : text);
        if (m_hostMode) {
            p.save();
            p.translate(x, l.matrix.top() - 7);
            p.rotate(-90);
            p.drawText(QRectF(0, -rowSpacing / 2.0, colLabelH, rowSpacing),
                Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(labelOf(i), Qt::ElideMiddle, colLabelH));
            p.restore();
        } else {
            p.drawText(QRectF(x - colSpacing / 2.0, l.matrix.top() - 6 - fm.height(), colSpacing,
                           fm.height()),
                Qt::AlignCenter, labelOf(i));
        }
    };
    // The initiating labels that get drawn on each axis, thinned so they never overlap.
    auto thinMarked = [&](auto visible, double spacing) {
        std::vector<std::int32_t> kept;
        for (std::int32_t m : marked)
            if (visible(m) && (kept.empty() || (m - kept.back()) * cell >= spacing))
                kept.push_back(m);
        return kept;
    };
    const std::vector<std::int32_t> markedRows = thinMarked(rowVisible, rowSpacing);
    const std::vector<std::int32_t> markedCols = thinMarked(colVisible, colSpacing);
    auto crowds = [&](const std::vector<std::int32_t>& kept, std::int32_t idx, double spacing) {
        for (std::int32_t m : kept)
            if (std::abs(m - idx) * cell < spacing)
                return true;
        return false;
    };
    // Only the visible stretch of each axis: the first multiple of the step in the window
    // up to its end.
    for (std::int64_t i = (w.rowFirst + rowStep - 1) / rowStep * rowStep; i < w.rowFirst + w.span;
         i += rowStep) {
        const auto idx = static_cast<std::int32_t>(i);
        if (!crowds(markedRows, idx, rowSpacing))
            drawRowLabel(idx, false);
    }
    for (std::int64_t i = (w.colFirst + colStep - 1) / colStep * colStep; i < w.colFirst + w.span;
         i += colStep) {
        const auto idx = static_cast<std::int32_t>(i);
        if (!crowds(markedCols, idx, colSpacing))
            drawColLabel(idx, false);
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    for (std::int32_t m : markedRows)
        drawRowLabel(m, true);
    for (std::int32_t m : markedCols)
        drawColLabel(m, true);
    p.setFont(font());
    // Ticks for the initiating rank(s) at both matrix edges.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(initiating);
    for (std::int32_t m : marked) {
        if (rowVisible(m)) {
            const double y = rowCentre(m);
            p.drawPolygon(QPolygonF({ QPointF(l.matrix.left() - 5, y - 3.5),
                QPointF(l.matrix.left() - 1, y), QPointF(l.matrix.left() - 5, y + 3.5) }));
        }
        if (colVisible(m)) {
            const double x = colCentre(m);
            p.drawPolygon(QPolygonF({ QPointF(x - 3.5, l.matrix.top() - 5),
                QPointF(x, l.matrix.top() - 1), QPointF(x + 3.5, l.matrix.top() - 5) }));
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);

    // A faint cell grid where cells are big enough to count.
    if (cell >= 10) {
        p.setPen(withAlpha(palette().color(QPalette::WindowText), 16));
        for (std::int32_t i = 1; i < w.span; ++i) {
            const int c = static_cast<int>(std::lround(l.matrix.left() + i * cell));
            const int r = static_cast<int>(std::lround(l.matrix.top() + i * cell));
            p.drawLine(c, l.matrix.top(), c, l.matrix.bottom());
            p.drawLine(l.matrix.left(), r, l.matrix.right(), r);
        }
    }
    // Host boundaries in the rank matrix, where they are far enough apart to help.
    if (!m_hostMode && m_ranksOfHost.size() > 1
        && cell * n / static_cast<double>(m_ranksOfHost.size()) >= 8) {
        p.setPen(withAlpha(palette().color(QPalette::WindowText), 40));
        const auto isBoundary = [this](std::int32_t i) {
            return i > 0 && static_cast<std::size_t>(i) < m_hostOfRank.size()
                && m_hostOfRank[static_cast<std::size_t>(i)]
                != m_hostOfRank[static_cast<std::size_t>(i - 1)];
        };
        for (std::int32_t k = 1; k < w.span; ++k) {
            if (isBoundary(w.colFirst + k)) {
                const int c = static_cast<int>(std::lround(l.matrix.left() + k * cell));
                p.drawLine(c, l.matrix.top(), c, l.matrix.bottom());
            }
            if (isBoundary(w.rowFirst + k)) {
                const int r = static_cast<int>(std::lround(l.matrix.top() + k * cell));
                p.drawLine(l.matrix.left(), r, l.matrix.right(), r);
            }
        }
    }
}

void PairHeatmapView::outlineCell(QPainter& p, const Layout& l, std::int32_t from, std::int32_t to,
    const QColor& color, qreal width)
{
    QRectF r = cellRect(from, to);
    if (r.isNull())
        return;
    // Tiny cells get an outline of at least 7 px, centred, so the mark stays visible.
    constexpr double kMin = 7.0;
    if (r.width() < kMin)
        r = QRectF(r.center().x() - kMin / 2, r.center().y() - kMin / 2, kMin, kMin);
    p.setPen(QPen(color, width));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(width / 2, width / 2, -width / 2, -width / 2)
                   .intersected(QRectF(l.matrix).adjusted(-kMin, -kMin, kMin, kMin)));
}

void PairHeatmapView::markStuckCell(
    QPainter& p, const Layout& l, std::int32_t from, std::int32_t to)
{
    const QRectF cell = cellRect(from, to);
    if (cell.isNull())
        return;
    // At 4096 ranks a cell is a fraction of a pixel: a ring of a fixed minimum size, and
    // guide lines from the axes to it, keep the verdict's pair findable at any size. A halo
    // in the background colour keeps the ring visible on dark cells too.
    const QColor stuck = stuckPairColor(palette());
    const QColor halo = emptyCellColor(palette());
    const QPointF c = cell.center();
    const qreal radius = std::max(kStuckMarkerDiameter / 2.0, cell.width() * 0.75 + 2);
    p.save();
    // A small ring may reach past the matrix edge (a cell in the first row stays ringed);
    // the big ring of a zoomed-in cell stays inside the matrix, off the axis labels.
    const qreal overhang = cell.width() < kStuckMarkerDiameter ? radius : 0;
    p.setClipRect(QRectF(l.matrix).adjusted(-overhang, -overhang, overhang, overhang));
    p.setPen(QPen(withAlpha(stuck, 150), 1, Qt::DashLine));
    if (c.x() - radius > l.matrix.left())
        p.drawLine(QPointF(l.matrix.left(), c.y()), QPointF(c.x() - radius, c.y()));
    if (c.y() - radius > l.matrix.top())
        p.drawLine(QPointF(c.x(), l.matrix.top()), QPointF(c.x(), c.y() - radius));
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(halo, 5));
    p.drawEllipse(c, radius, radius);
    p.setPen(QPen(stuck, 2.5));
    p.drawEllipse(c, radius, radius);
    p.restore();
}

void PairHeatmapView::paintOverlays(QPainter& p, const Layout& l)
{
    const QColor highlight = palette().color(QPalette::Highlight);
    if (m_hover) {
        const QRectF c = cellRect(m_hover->first, m_hover->second);
        if (!c.isNull()) {
            const QColor band = withAlpha(highlight, 40);
            p.fillRect(QRectF(l.matrix.left(), c.top(), l.matrix.width(), c.height()), band);
            p.fillRect(QRectF(c.left(), l.matrix.top(), c.width(), l.matrix.height()), band);
            outlineCell(
                p, l, m_hover->first, m_hover->second, palette().color(QPalette::WindowText), 1.0);
        }
    }
    auto toMatrix = [this](std::int32_t rank) {
        if (!m_hostMode)
            return rank;
        return rank >= 0 && static_cast<std::size_t>(rank) < m_hostOfRank.size()
            ? m_hostOfRank[static_cast<std::size_t>(rank)]
            : -1;
    };
    if (m_document && m_document->diagnosis && m_document->diagnosis->stuckPair) {
        const auto [a, b] = *m_document->diagnosis->stuckPair;
        markStuckCell(p, l, toMatrix(a), toMatrix(b));
        markStuckCell(p, l, toMatrix(b), toMatrix(a));
    }
    const auto sel = m_selection->selectedPair();
    if (sel.first >= 0 && sel.second >= 0)
        outlineCell(p, l, toMatrix(sel.first), toMatrix(sel.second), highlight, 2.0);
}

QString PairHeatmapView::initiatorsSwatchLabel() const
{
    if (!m_document || !m_document->diagnosis || m_document->diagnosis->initiatingRanks.empty())
        return {};
    const model::RootCauseClass cls = m_document->diagnosis->rootCause;
    return m_hostMode ? theme::initiatorHostsLabel(cls) : theme::initiatorsLabel(cls);
}

QString PairHeatmapView::legendUnit() const
{
    return fromView(model::pairMetricUnit(m_metric));
}

void PairHeatmapView::paintLegend(QPainter& p, const Layout& l)
{
    const QFontMetrics fm(font());
    const QColor text = palette().color(QPalette::WindowText);
    const QColor muted = palette().color(QPalette::PlaceholderText);
    const QRect box = l.legend;
    // Title above the legend box, then what a cell's value counts.
    p.setPen(text);
    p.drawText(QRect(box.left(), box.top() - fm.height() - 4, box.width() + kMargin, fm.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(metricTitle(m_metric), Qt::ElideRight, box.width() + kMargin));
    p.setPen(muted);
    const QRect unitBox(box.left(), box.top(), box.width(), fm.height() * (l.legendUnder ? 2 : 4));
    const QRect unitUsed = fm.boundingRect(unitBox, Qt::TextWordWrap | Qt::AlignLeft, legendUnit());
    p.drawText(unitBox, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, legendUnit());
    int y = std::min(unitUsed.bottom(), unitBox.bottom()) + 6;

    const QVector<QRgb> table
        = heatmapColorTable(emptyCellColor(palette()), theme::isDark(palette()));
    const int first = heatmapColorIndex(1e-9f, 1.0f);
    const QString high = valueText(m_image.maxValue);
    const QString low = tr("> 0");
    if (l.legendUnder) {
        // Horizontal colour bar, strongest on the right, its two ends labelled.
        const int barW = std::min(box.width(), fm.horizontalAdvance(QLatin1Char('x')) * 40);
        for (int i = 0; i < barW; ++i) {
            const int idx = first
                + static_cast<int>(
                    std::lround(static_cast<double>(i) / std::max(1, barW - 1) * (255 - first)));
            p.fillRect(QRect(box.left() + i, y, 1, 12), QColor(table[idx]));
        }
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(box.left() - 1, y - 1, barW + 1, 13));
        y += 14;
        p.drawText(QRect(box.left(), y, barW, fm.height()), Qt::AlignLeft | Qt::AlignTop, low);
        p.drawText(QRect(box.left(), y, barW, fm.height()), Qt::AlignRight | Qt::AlignTop, high);
        y += fm.height() + 6;
    } else {
        // Vertical colour bar, strongest at the top.
        const int barH = std::clamp(l.matrix.height() / 2, 60, 160);
        for (int i = 0; i < barH; ++i) {
            const int idx = 255
                - static_cast<int>(
                    std::lround(static_cast<double>(i) / std::max(1, barH - 1) * (255 - first)));
            p.fillRect(QRect(box.left(), y + i, 14, 1), QColor(table[idx]));
        }
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(box.left() - 1, y - 1, 15, barH + 1));
        p.drawText(QRect(box.left() + 20, y - 2, box.width() - 20, fm.height()),
            Qt::AlignLeft | Qt::AlignTop, high);
        p.drawText(
            QRect(box.left() + 20, y + barH - fm.height() + 2, box.width() - 20, fm.height()),
            Qt::AlignLeft | Qt::AlignBottom, low);
        y += barH + 10;
    }
    // Swatches: one per line beside the matrix, side by side under it.
    int x = box.left();
    auto swatch = [&](const QString& label, auto drawSwatch) {
        const int labelW = std::min(fm.horizontalAdvance(label), box.width() - 20 + kMargin);
        if (l.legendUnder && x > box.left() && x + 20 + labelW > box.right()) {
            x = box.left();
            y += fm.height() + 6;
        }
        p.setBrush(Qt::NoBrush);
        drawSwatch(QRect(x, y + (fm.height() - 12) / 2, 14, 12));
        p.setPen(muted);
        p.drawText(QRect(x + 20, y, labelW + 1, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(label, Qt::ElideRight, labelW + 1));
        if (l.legendUnder)
            x += 20 + labelW + 16;
        else
            y += fm.height() + 6;
    };
    swatch(tr("no evidence"), [&](const QRect& r) {
        p.fillRect(r, emptyCellColor(palette()));
        p.setPen(muted);
        p.drawRect(r.adjusted(0, 0, -1, -1));
    });
    if (m_document && m_document->diagnosis && m_document->diagnosis->stuckPair)
        swatch(tr("stuck pair"), [&](const QRect& r) {
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(QPen(stuckPairColor(palette()), 2));
            p.drawEllipse(QRectF(r).adjusted(1.5, 0.5, -1.5, -0.5));
            p.setRenderHint(QPainter::Antialiasing, false);
        });
    if (const QString initiators = initiatorsSwatchLabel(); !initiators.isEmpty())
        swatch(initiators, [&](const QRect& r) {
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(theme::colors(palette()).initiating);
            p.drawPolygon(QPolygonF(
                { QPointF(r.left() + 3, r.top() + 2), QPointF(r.right() - 3, r.center().y() + 0.5),
                    QPointF(r.left() + 3, r.bottom() - 1) }));
            p.setRenderHint(QPainter::Antialiasing, false);
        });
    swatch(tr("selected"), [&](const QRect& r) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawRect(r.adjusted(1, 1, -1, -1));
    });
}

// ---------------------------------------------------------------------------------------
// Interaction

QString PairHeatmapView::toolTipAt(const QPoint& pos) const
{
    const auto hit = cellAt(pos);
    const model::PairEvidence* pairs = currentPairs();
    if (!hit || !pairs || !m_document || !m_document->bundle)
        return {};
    const auto [from, to] = *hit;
    const model::Bundle& b = *m_document->bundle;
    auto who = [&](std::int32_t i) -> QString {
        if (m_hostMode) {
            const auto& ranks = m_ranksOfHost[static_cast<std::size_t>(i)];
            return QStringLiteral("<b>") + labelOf(i).toHtmlEscaped()
                + QStringLiteral("</b> (ranks ") + QString::fromStdString(model::formatRanks(ranks))
                + QLatin1Char(')');
        }
        return QStringLiteral("<b>") + QString::fromStdString(b.describeRank(i)).toHtmlEscaped()
            + QStringLiteral("</b>");
    };
    QString html = who(from) + QStringLiteral(" → ") + who(to);
    const Layout l = computeLayout();
    if (m_image.pooled() && m_image.resolution == resolutionFor(l)) {
        const auto px
            = static_cast<std::int32_t>(static_cast<std::int64_t>(pos.x() - l.matrix.left())
                * m_image.resolution / l.matrix.width());
        const auto py
            = static_cast<std::int32_t>(static_cast<std::int64_t>(pos.y() - l.matrix.top())
                * m_image.resolution / l.matrix.width());
        const std::int32_t r0 = m_image.rowFirst, c0 = m_image.colFirst;
        html += QStringLiteral("<br><i>")
            + tr("this pixel covers %1 → %2; the strongest pair is shown")
                  .arg(describeIndexRange(r0 + m_image.firstIndex(py), r0 + m_image.endIndex(py)),
                      describeIndexRange(c0 + m_image.firstIndex(px), c0 + m_image.endIndex(px)))
            + QStringLiteral("</i>");
    }
    const model::PairCell* c = pairs->cell(from, to);
    if (!c) {
        html += QStringLiteral("<br>") + tr("no evidence between this pair");
        return html;
    }
    html += QStringLiteral("<table>");
    for (int i = 0; i < static_cast<int>(model::PairMetric::Count); ++i) {
        const auto m = static_cast<model::PairMetric>(i);
        const float v = c->value[static_cast<std::size_t>(i)];
        const bool current = m == m_metric;
        html += QStringLiteral("<tr><td>") + (current ? QStringLiteral("<b>") : QString())
            + metricTitle(m).toHtmlEscaped() + (current ? QStringLiteral("</b>") : QString())
            + QStringLiteral("</td><td align='right'>")
            + (v > 0 ? valueText(v) : QStringLiteral("–")) + QStringLiteral("</td></tr>");
    }
    html += QStringLiteral("</table>")
        + QString::fromStdString(
            model::countWords(c->evidence.size(), "evidence line", "evidence lines"));
    if (!c->evidence.empty())
        if (const model::Source* src = b.source(c->evidence.front().source))
            html += QStringLiteral(", first: <i>")
                + QString::fromStdString(src->path).toHtmlEscaped()
                + QStringLiteral(":%1</i>").arg(c->evidence.front().line);
    html += QStringLiteral("<br><i>")
        + tr("Click to show only these %1 in the timeline")
              .arg(m_hostMode ? tr("hosts") : tr("ranks"))
        + QStringLiteral("</i>");
    return html;
}

void PairHeatmapView::selectCell(std::int32_t from, std::int32_t to)
{
    const model::PairEvidence* pairs = currentPairs();
    if (!pairs || !m_document || !m_document->pairs)
        return;
    const model::PairCell* cell = pairs->cell(from, to);
    QVector<int> filter;
    std::int32_t rankFrom = from, rankTo = to;
    if (m_hostMode) {
        // The pair stands for its strongest rank pair between the two hosts.
        const auto m = static_cast<std::size_t>(m_metric);
        float best = -1;
        rankFrom = m_ranksOfHost[static_cast<std::size_t>(from)].empty()
            ? -1
            : m_ranksOfHost[static_cast<std::size_t>(from)].front();
        rankTo = m_ranksOfHost[static_cast<std::size_t>(to)].empty()
            ? -1
            : m_ranksOfHost[static_cast<std::size_t>(to)].front();
        for (const model::PairCell& c : m_document->pairs->cells()) {
            if (c.from < 0 || c.to < 0 || static_cast<std::size_t>(c.from) >= m_hostOfRank.size()
                || static_cast<std::size_t>(c.to) >= m_hostOfRank.size())
                continue;
            if (m_hostOfRank[static_cast<std::size_t>(c.from)] == from
                && m_hostOfRank[static_cast<std::size_t>(c.to)] == to && c.value[m] > best) {
                best = c.value[m];
                rankFrom = c.from;
                rankTo = c.to;
            }
        }
        for (std::int32_t h : { from, to })
            for (std::int32_t r : m_ranksOfHost[static_cast<std::size_t>(h)])
                if (!filter.contains(r))
                    filter << r;
    } else {
        filter << from;
        if (to != from)
            filter << to;
    }
    std::sort(filter.begin(), filter.end());
    m_selection->selectPair(rankFrom, rankTo);
    m_selection->setRankFilter(filter);
    if (cell && !cell->evidence.empty())
        m_selection->selectEvidence(cell->evidence.front());
    update();
}

void PairHeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressPos && (event->buttons() & Qt::LeftButton)) {
        if (!m_panning && isZoomed()
            && (pos - *m_pressPos).manhattanLength() >= QApplication::startDragDistance())
            m_panning = true;
        if (m_panning) {
            // The cells follow the pointer: the origin moves against the drag.
            const double cell = static_cast<double>(matrixRect().width()) / visibleSpan();
            const QPoint moved = pos - *m_pressPos;
            setWindow(m_pressRowOrigin - moved.y() / cell, m_pressColOrigin - moved.x() / cell,
                visibleSpan());
            setCursor(Qt::ClosedHandCursor);
            return;
        }
    }
    const auto hit = cellAt(pos);
    if (hit != m_hover) {
        m_hover = hit;
        update(); // overlays only: the image and pixmap caches stay valid
    }
    setCursor(hit ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void PairHeatmapView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    // A click selects on release, so that a press that turns into a drag only pans.
    m_pressPos = event->position().toPoint();
    m_pressRowOrigin = window().rowFirst;
    m_pressColOrigin = window().colFirst;
    m_panning = false;
    event->accept();
}

void PairHeatmapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressPos)
        return QWidget::mouseReleaseEvent(event);
    const bool panned = m_panning;
    m_pressPos.reset();
    m_panning = false;
    event->accept();
    if (panned) {
        setCursor(Qt::ArrowCursor);
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (const auto hit = cellAt(pos))
        selectCell(hit->first, hit->second);
    else if (m_header->isHidden() || pos.y() > m_header->geometry().bottom())
        clearPairFilter();
}

void PairHeatmapView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseDoubleClickEvent(event);
    if (const auto hit = cellAt(event->position().toPoint()))
        zoomToCell(hit->first, hit->second);
    event->accept();
}

void PairHeatmapView::wheelEvent(QWheelEvent* event)
{
    // The view does not scroll, so the plain wheel zooms as well as Ctrl+wheel; a wheel over
    // the controls above the matrix does nothing.
    const int delta = event->angleDelta().y();
    if (delta == 0 || !matrixRect().contains(event->position().toPoint()))
        return QWidget::wheelEvent(event);
    zoomBy(std::pow(kWheelZoomPerNotch, delta / 120.0), event->position());
    event->accept();
}

void PairHeatmapView::keyPressEvent(QKeyEvent* event)
{
    // Ctrl and Alt combinations belong to the window's shortcuts (text size, menus).
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))
        return QWidget::keyPressEvent(event);
    const double step = std::max(1.0, visibleSpan() / 8.0);
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        resetZoom();
        break;
    case Qt::Key_Left:
        panByCells(-step, 0);
        break;
    case Qt::Key_Right:
        panByCells(step, 0);
        break;
    case Qt::Key_Up:
        panByCells(0, -step);
        break;
    case Qt::Key_Down:
        panByCells(0, step);
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    event->accept();
}

// ---------------------------------------------------------------------------------------
// Zoom and pan

void PairHeatmapView::setWindow(double rowOrigin, double colOrigin, std::int32_t span)
{
    const std::int32_t n = matrixSize();
    span = n <= 0 ? 0 : std::clamp(span, std::min<std::int32_t>(n, kMinVisibleCells), n);
    const QRect before = visibleCells();
    const double last = std::max(0, n - span);
    m_span = span >= n ? 0 : span;
    m_rowOrigin = std::clamp(rowOrigin, 0.0, last);
    m_colOrigin = std::clamp(colOrigin, 0.0, last);
    const QRect after = visibleCells();
    if (after == before)
        return;
    m_hover.reset();
    update();
    Q_EMIT visibleCellsChanged(after);
}

void PairHeatmapView::zoomBy(double factor, QPointF anchor)
{
    const std::int32_t n = matrixSize();
    if (n <= 0 || !(factor > 0))
        return;
    const QRect matrix = matrixRect();
    if (matrix.width() <= 0)
        return;
    if (anchor.isNull())
        anchor = QRectF(matrix).center();
    const std::int32_t span = visibleSpan();
    auto next = static_cast<std::int32_t>(std::lround(span / factor));
    // Every step moves at least one cell, however small the factor.
    if (factor > 1 && next >= span)
        next = span - 1;
    else if (factor < 1 && next <= span)
        next = span + 1;
    next = std::clamp(next, std::min<std::int32_t>(n, kMinVisibleCells), n);
    // The matrix position under the anchor stays under it.
    const HeatmapWindow w = window();
    const double fx = std::clamp((anchor.x() - matrix.left()) / matrix.width(), 0.0, 1.0);
    const double fy = std::clamp((anchor.y() - matrix.top()) / matrix.height(), 0.0, 1.0);
    const double col = w.colFirst + fx * span;
    const double row = w.rowFirst + fy * span;
    setWindow(row - fy * next, col - fx * next, next);
}

void PairHeatmapView::resetZoom()
{
    setWindow(0, 0, matrixSize());
}

void PairHeatmapView::zoomToCell(std::int32_t from, std::int32_t to)
{
    const std::int32_t n = matrixSize();
    if (from < 0 || to < 0 || from >= n || to >= n)
        return;
    const auto span = static_cast<std::int32_t>(std::lround(visibleSpan() / kCellZoom));
    const std::int32_t next = std::clamp(span, std::min<std::int32_t>(n, kMinVisibleCells), n);
    setWindow(from + 0.5 - next / 2.0, to + 0.5 - next / 2.0, next);
}

void PairHeatmapView::panByCells(double columns, double rows)
{
    const HeatmapWindow w = window();
    setWindow(w.rowFirst + rows, w.colFirst + columns, w.span);
}

void PairHeatmapView::setControlsVisible(bool visible)
{
    m_header->setVisible(visible);
    update();
}

void PairHeatmapView::leaveEvent(QEvent* event)
{
    if (m_hover) {
        m_hover.reset();
        update();
    }
    QWidget::leaveEvent(event);
}

bool PairHeatmapView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        showToolTip(help->globalPos(), toolTipAt(help->pos()), this);
        return true;
    }
    return QWidget::event(event);
}

void PairHeatmapView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_hover.reset();
}

void PairHeatmapView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        update(); // the pixmap key includes the colour table, so it rebuilds itself
    if (event->type() == QEvent::FontChange) {
        measureHostLabels();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace rankscope::views
