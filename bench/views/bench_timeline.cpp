// Paint cost of the per-rank timeline and the rank-pair heatmap on a synthetic 4096-rank
// document (the size the issue asks to stay smooth: paint < 16 ms per frame when panning).
//
// The document is built through the real model code (Bundle → TimelineData::build,
// PairEvidence::build): 4096 ranks on 512 hosts, N markers (timeouts, errors, network,
// hardware, launcher kills) spread over one hour, a 10-minute stuck wait per collateral
// rank, sequence progress per rank with one straggler.
//
//   ./build/bench/views/rankscope_bench_timeline                  (offscreen by default)
//   ./build/bench/views/rankscope_bench_timeline --benchmark_filter=Pan
//
// RANKSCOPE_BENCH_SHOTS=DIR saves each benchmark's last frame as DIR/<benchmark>.png.
//
// Reported time is wall-clock ms per frame (one paintEvent of the 1600×1000 viewport into
// an image, geometry included where the frame changes the visible range).

#include "model/bundle.h"
#include "model/pairevidence.h"
#include "model/timelinedata.h"
#include "views/pairheatmapview.h"
#include "views/ranktimelineview.h"
#include "views/selectionstate.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>

using namespace rankscope;

namespace {

constexpr std::int32_t kRanks = 4096;
constexpr std::int32_t kRanksPerHost = 8;
constexpr std::int64_t kHourNs = 3600 * model::kNsPerSecond;
constexpr std::int64_t kStuckSeq = 5000;
constexpr std::int32_t kStraggler = 1234;

views::DocumentPtr makeDocument(std::int64_t markers)
{
    auto bundle = std::make_shared<model::Bundle>();
    model::Bundle& b = *bundle;
    const std::int64_t t0
        = model::makeLocalWall(2025, 3, 1, 2, 0, 0, 0, model::TimePrecision::Millisecond)->ns;
    b.ranks.resize(kRanks);
    for (std::int32_t h = 0; h < kRanks / kRanksPerHost; ++h)
        b.world.hosts.push_back(b.strings.intern("node-" + std::to_string(1000 + h)));
    for (std::int32_t r = 0; r < kRanks; ++r) {
        model::RankInfo& info = b.ranks[static_cast<std::size_t>(r)];
        info.rank = r;
        info.host = b.world.hosts[static_cast<std::size_t>(r / kRanksPerHost)];
        info.localRank = r % kRanksPerHost;
        info.seen = true;
        b.world.ranksSeen.push_back(r);
        model::RawIdentity id;
        id.globalRank = r;
        id.host = info.host;
        b.identities.push_back(id);
        b.identityRank.push_back(r);
    }
    b.world.worldSize = kRanks;
    model::ProcessGroup pg;
    pg.key = b.strings.intern("0");
    pg.isDefault = true;
    pg.size = kRanks;
    b.processGroups.push_back(pg);

    std::mt19937_64 rng(42);
    const model::EventKind kinds[]
        = { model::EventKind::NcclWarn, model::EventKind::NcclSocketError, model::EventKind::GpuXid,
              model::EventKind::LauncherSignalSent, model::EventKind::PythonException,
              model::EventKind::TorchHeartbeatStuck };
    const model::StrId text = b.strings.intern(
        "NCCL WARN NET/IB : Got completion from peer 10.0.0.7<5321> with status=12");
    b.events.reserve(static_cast<std::size_t>(markers) + kRanks);
    auto event = [&](std::int32_t rank, std::int64_t ns, model::EventKind kind) {
        model::Event& e = b.events.emplace_back();
        e.time.ns = ns;
        e.time.domain = model::TimeDomain::LocalWall;
        e.time.precision = model::TimePrecision::Millisecond;
        e.kind = kind;
        e.severity = model::Severity::Error;
        e.rank = rank;
        e.identity = static_cast<std::uint32_t>(rank);
        e.text = text;
        return static_cast<std::uint32_t>(b.events.size() - 1);
    };
    // Watchdog timeouts close a 10-minute wait on every rank but the straggler.
    for (std::int32_t r = 0; r < kRanks; ++r) {
        model::RankProgress p;
        p.rank = r;
        p.pg = pg.key;
        p.hasStatus = true;
        if (r == kStraggler) {
            p.lastEnqueued = kStuckSeq - 1;
            p.lastCompleted = kStuckSeq - 1;
        } else {
            const std::uint32_t i = event(
                r, t0 + kHourNs - 60 * model::kNsPerSecond, model::EventKind::TorchWatchdogTimeout);
            b.events[i].seq = kStuckSeq;
            b.events[i].op = model::OpType::AllReduce;
            b.events[i].durationMs = 600'000;
            p.lastEnqueued = kStuckSeq + static_cast<std::int64_t>(rng() % 3);
            p.lastCompleted = kStuckSeq - 1;
            p.timeoutSeq = kStuckSeq;
            p.timeoutOp = model::OpType::AllReduce;
            p.timeoutEvent = i;
        }
        b.progress.push_back(p);
    }
    for (std::int64_t i = 0; i < markers; ++i) {
        const auto rank = static_cast<std::int32_t>(rng() % kRanks);
        const auto ns = t0 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(kHourNs));
        event(rank, ns, kinds[rng() % std::size(kinds)]);
    }

    model::Diagnosis d;
    d.status = model::DiagnosisStatus::HangDiagnosed;
    d.rootCause = model::RootCauseClass::StragglerStall;
    d.initiatingRanks = { kStraggler };
    for (std::int32_t r = 0; r < kRanks; ++r)
        if (r != kStraggler)
            d.collateralRanks.push_back(r);
    d.stuckCollective = model::StuckCollective { "0", model::OpType::AllReduce, kStuckSeq };

    auto doc = std::make_shared<views::BundleDocument>();
    doc->timeline = std::make_shared<model::TimelineData>(model::TimelineData::build(b, d));
    doc->pairs = std::make_shared<model::PairEvidence>(model::PairEvidence::build(b, d));
    doc->diagnosis = std::make_shared<model::Diagnosis>(std::move(d));
    doc->bundle = std::move(bundle);
    return doc;
}

void saveShot(const QImage& image, const benchmark::State& state, const char* name)
{
    if (const char* dir = std::getenv("RANKSCOPE_BENCH_SHOTS"))
        image.save(QString::fromLocal8Bit(dir)
            + QStringLiteral("/%1-%2.png").arg(QLatin1String(name)).arg(state.range(0)));
}

const views::DocumentPtr& document(std::int64_t markers)
{
    static std::map<std::int64_t, views::DocumentPtr> docs;
    auto& doc = docs[markers];
    if (!doc)
        doc = makeDocument(markers);
    return doc;
}

struct TimelineRig {
    views::SelectionState selection;
    views::RankTimelineView view { &selection };
    QImage target;

    explicit TimelineRig(std::int64_t markers)
    {
        selection.setDocument(document(markers));
        view.resize(1600, 1000);
        view.show();
        QApplication::processEvents();
        target = QImage(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    }
    void frame() { view.viewport()->render(&target); }
};

// Horizontal panning at a zoom level (fraction of the whole hour visible): every frame has a
// new visible range, so lane geometry is rebuilt for the visible rows, then painted.
void BM_TimelinePanTime(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    const std::int64_t lo = rig.selection.visibleStartNs();
    const std::int64_t full = rig.selection.visibleEndNs() - lo;
    const std::int64_t span = full / state.range(1);
    rig.view.verticalScrollBar()->setValue(
        rig.view.verticalScrollBar()->maximum() / 3); // mid-world, stuck rank near
    const std::int64_t step = span / 150; // ~10 px
    std::int64_t start = lo;
    for (auto _ : state) {
        start += step;
        if (start + span > lo + full)
            start = lo;
        rig.selection.setVisibleTimeRange(start, start + span);
        rig.frame();
    }
    saveShot(rig.target, state, ("pan-time-1of" + std::to_string(state.range(1))).c_str());
    state.SetLabel(std::to_string(state.range(0)) + " markers, 1/" + std::to_string(state.range(1))
        + " of the range visible");
}
BENCHMARK(BM_TimelinePanTime)
    ->Args({ 100'000, 1 })
    ->Args({ 100'000, 10 })
    ->Args({ 100'000, 100 })
    ->Args({ 1'000'000, 1 })
    ->Args({ 1'000'000, 10 })
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Vertical scrolling: lanes of rows already seen come from the cache, new rows are built.
void BM_TimelineScrollRows(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    QScrollBar* v = rig.view.verticalScrollBar();
    int value = 0;
    for (auto _ : state) {
        value = (value + 40) % std::max(1, v->maximum());
        v->setValue(value);
        rig.frame();
    }
    state.SetLabel(std::to_string(state.range(0)) + " markers");
}
BENCHMARK(BM_TimelineScrollRows)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A repaint with nothing moved (hover, selection): all lanes from the cache.
void BM_TimelineRepaintCached(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    rig.frame();
    for (auto _ : state)
        rig.frame();
    state.SetLabel(std::to_string(state.range(0)) + " markers");
}
BENCHMARK(BM_TimelineRepaintCached)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// Sequence axis, panning by a few collectives per frame.
void BM_TimelinePanSequence(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    rig.view.setAxisMode(views::RankTimelineView::AxisMode::Sequence);
    rig.view.verticalScrollBar()->setValue(rig.view.verticalScrollBar()->maximum() / 3);
    bool left = true;
    for (auto _ : state) {
        // Alternate, so the range never runs into the clamp at the edge.
        QKeyEvent key(QEvent::KeyPress, left ? Qt::Key_Left : Qt::Key_Right, Qt::NoModifier);
        QApplication::sendEvent(&rig.view, &key);
        left = !left;
        rig.frame();
    }
    saveShot(rig.target, state, "pan-sequence");
}
BENCHMARK(BM_TimelinePanSequence)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// Zooming by keys about the selection (+ then -, alternating so the range stays inside the
// bounds): a new visible range per frame, lanes rebuilt for the visible rows, the painted
// plot rebuilt, the overview image reused.
void BM_TimelineZoomKeys(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    rig.view.verticalScrollBar()->setValue(rig.view.verticalScrollBar()->maximum() / 3);
    for (int i = 0; i < 8; ++i) { // start mid-zoom: a few minutes of the hour
        QKeyEvent in(QEvent::KeyPress, Qt::Key_Plus, Qt::NoModifier);
        QApplication::sendEvent(&rig.view, &in);
    }
    bool zoomIn = true;
    for (auto _ : state) {
        QKeyEvent key(QEvent::KeyPress, zoomIn ? Qt::Key_Plus : Qt::Key_Minus, Qt::NoModifier);
        QApplication::sendEvent(&rig.view, &key);
        zoomIn = !zoomIn;
        rig.frame();
    }
    saveShot(rig.target, state, "zoom-keys");
    state.SetLabel(std::to_string(state.range(0)) + " markers");
}
BENCHMARK(BM_TimelineZoomKeys)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Dragging the overview window across the strip: each frame a pan by the overview's scale.
void BM_TimelineOverviewDrag(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    for (int i = 0; i < 10; ++i) {
        QKeyEvent in(QEvent::KeyPress, Qt::Key_Plus, Qt::NoModifier);
        QApplication::sendEvent(&rig.view, &in);
    }
    const QRect strip = rig.view.overviewRect();
    const QPoint start = rig.view.overviewWindowRect().center();
    QMouseEvent press(QEvent::MouseButtonPress, start, rig.view.viewport()->mapToGlobal(start),
        Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(rig.view.viewport(), &press);
    int x = start.x();
    int step = 7;
    for (auto _ : state) {
        x += step;
        if (x > strip.right() - 20 || x < strip.left() + 20)
            step = -step;
        const QPointF at(x, start.y());
        QMouseEvent move(QEvent::MouseMove, at, rig.view.viewport()->mapToGlobal(at), Qt::NoButton,
            Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(rig.view.viewport(), &move);
        rig.frame();
    }
    QMouseEvent release(QEvent::MouseButtonRelease, QPointF(x, start.y()),
        rig.view.viewport()->mapToGlobal(QPointF(x, start.y())), Qt::LeftButton, Qt::NoButton,
        Qt::NoModifier);
    QApplication::sendEvent(rig.view.viewport(), &release);
    saveShot(rig.target, state, "overview-drag");
    state.SetLabel(std::to_string(state.range(0)) + " markers");
}
BENCHMARK(BM_TimelineOverviewDrag)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// The overview image of the whole hour for 4096 ranks, built on a resize (alternating widths
// so every frame rebuilds it and the painted plot).
void BM_TimelineOverviewBuild(benchmark::State& state)
{
    TimelineRig rig(state.range(0));
    bool wide = false;
    for (auto _ : state) {
        rig.view.resize(wide ? 1600 : 1590, 1000);
        wide = !wide;
        rig.frame();
    }
    state.SetLabel(std::to_string(state.range(0)) + " markers");
}
BENCHMARK(BM_TimelineOverviewBuild)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

struct HeatmapRig {
    views::SelectionState selection;
    views::PairHeatmapView view { &selection };
    QImage target;

    explicit HeatmapRig(bool hosts)
    {
        selection.setDocument(document(100'000));
        view.setHostMode(hosts);
        view.resize(1000, 900);
        view.show();
        QApplication::processEvents();
        target = QImage(view.size(), QImage::Format_ARGB32_Premultiplied);
    }
};

// First frame of the 4096 × 4096 matrix after a metric change: image build + scale + paint.
void BM_HeatmapRebuild(benchmark::State& state)
{
    HeatmapRig rig(state.range(0) != 0);
    int i = 0;
    for (auto _ : state) {
        rig.view.setMetric(++i % 2 ? model::PairMetric::WaitsOn : model::PairMetric::Combined);
        rig.view.render(&rig.target);
    }
    saveShot(rig.target, state, "heatmap");
    state.SetLabel(state.range(0) ? "512 hosts" : "4096 ranks");
}
BENCHMARK(BM_HeatmapRebuild)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Hover: hit test + a frame with the crosshair; the image and pixmap stay cached.
void BM_HeatmapHover(benchmark::State& state)
{
    HeatmapRig rig(false);
    rig.view.render(&rig.target);
    const QRect m = rig.view.matrixRect();
    int x = 0;
    for (auto _ : state) {
        x = (x + 7) % m.width();
        const QPoint pos(m.left() + x, m.top() + m.height() / 2);
        QMouseEvent move(QEvent::MouseMove, pos, rig.view.mapToGlobal(pos), Qt::NoButton,
            Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&rig.view, &move);
        rig.view.render(&rig.target);
    }
}
BENCHMARK(BM_HeatmapHover)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM") && !std::getenv("DISPLAY"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
