#include "views/timelinepainter.h"

#include "model/bundle.h"
#include "views/theme.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rankscope::views {

using model::MarkerKind;

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
        static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
        static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

QString fromStd(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<int>(v.size()));
}

constexpr std::array kMarkerKindsInLegendOrder { MarkerKind::Timeout, MarkerKind::Crash,
    MarkerKind::Hardware, MarkerKind::Network, MarkerKind::LauncherKill, MarkerKind::Heartbeat,
    MarkerKind::Error, MarkerKind::Info };

// Inset of bars inside a row, so neighbouring rows stay apart.
constexpr int kBarInset = 3;
constexpr int kHostBarInset = 7;

} // namespace

TimelineStyle TimelineStyle::fromPalette(const QPalette& pal)
{
    TimelineStyle s;
    s.background = pal.color(QPalette::Base);
    s.dark = s.background.lightnessF() < 0.5;
    s.text = pal.color(QPalette::Text);
    s.alternateBackground = mix(s.background, s.text, s.dark ? 0.035 : 0.025);
    s.headerBackground = pal.color(QPalette::Window);
    s.mutedText = mix(s.text, s.background, 0.45);
    s.grid = mix(s.background, s.text, s.dark ? 0.14 : 0.10);
    s.hostRow = mix(pal.color(QPalette::Window), s.text, s.dark ? 0.06 : 0.04);
    s.hostText = s.text;
    // The shared "initiating" colour (theme.h), as a warm row tint that keeps text readable;
    // the exact tint is what RankTimelineView::initiatingRowColor() returns and what the
    // screenshot tests look for.
    const theme::SemanticColors sem = theme::colors(pal);
    s.initiatingAccent = sem.initiating;
    s.initiatingRow = QColor(theme::tint(sem.initiating, pal).rgb()); // 8-bit, as painted
    s.selectedOutline = pal.color(QPalette::Highlight);
    s.span = s.dark ? QColor(0x4a, 0x62, 0x8a) : QColor(0xb4, 0xc7, 0xe6);
    s.stuckOutline = sem.initiating;
    s.completed = s.dark ? QColor(0x5d, 0x6b, 0x7d) : QColor(0xc3, 0xcc, 0xd8);
    s.waiting = s.dark ? QColor(0xc9, 0x9a, 0x2e) : QColor(0xf6, 0xcf, 0x6a);
    s.timedOut = s.dark ? QColor(0xf0, 0x7a, 0x3a) : QColor(0xe8, 0x71, 0x0a);
    s.neverEntered = s.stuckOutline;
    s.frontier = s.dark ? QColor(0xf2, 0xf2, 0xf2) : QColor(0x20, 0x24, 0x2a);
    QColor hl = pal.color(QPalette::Highlight);
    hl.setAlpha(s.dark ? 60 : 45);
    s.columnHighlight = hl;
    QColor band = pal.color(QPalette::Highlight);
    band.setAlpha(50);
    s.rubberBand = band;
    QColor hover = pal.color(QPalette::Highlight);
    hover.setAlpha(s.dark ? 31 : 18); // the old opaque hover tint, 12 % / 7 % of the highlight
    s.hoverOverlay = hover;
    s.inferredHatch = s.dark ? QColor(0xa8, 0xb8, 0xd4) : QColor(0x4a, 0x62, 0x8a);
    s.overviewBackground = s.background;
    QColor shade = s.headerBackground;
    shade.setAlpha(150);
    s.overviewShade = shade;
    return s;
}

int markerPriority(MarkerKind k)
{
    switch (k) {
    case MarkerKind::Crash:
        return 7;
    case MarkerKind::Hardware:
        return 6;
    case MarkerKind::Network:
        return 5;
    case MarkerKind::Timeout:
        return 4;
    case MarkerKind::LauncherKill:
        return 3;
    case MarkerKind::Heartbeat:
        return 2;
    case MarkerKind::Error:
        return 1;
    case MarkerKind::Info:
        break;
    }
    return 0;
}

QColor markerColor(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::Timeout:
        return QColor(0xe8, 0x71, 0x0a);
    case MarkerKind::Crash:
        return QColor(0xc5, 0x22, 0x1f);
    case MarkerKind::Hardware:
        return QColor(0x84, 0x30, 0xce);
    case MarkerKind::Network:
        return QColor(0x1a, 0x73, 0xe8);
    case MarkerKind::LauncherKill:
        return QColor(0x70, 0x75, 0x7a);
    case MarkerKind::Heartbeat:
        return QColor(0xd0, 0x18, 0x84);
    case MarkerKind::Error:
        return QColor(0xe0, 0x3e, 0x36);
    case MarkerKind::Info:
        break;
    }
    return QColor(0x9a, 0xa0, 0xa6);
}

QString markerLabel(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::Timeout:
        return QStringLiteral("timeout");
    case MarkerKind::Crash:
        return QStringLiteral("crash");
    case MarkerKind::Hardware:
        return QStringLiteral("hardware");
    case MarkerKind::Network:
        return QStringLiteral("network");
    case MarkerKind::LauncherKill:
        return QStringLiteral("launcher kill");
    case MarkerKind::Heartbeat:
        return QStringLiteral("heartbeat");
    case MarkerKind::Error:
        return QStringLiteral("error");
    case MarkerKind::Info:
        break;
    }
    return QStringLiteral("info");
}

int opColorIndex(model::OpType op)
{
    using model::OpType;
    switch (model::opFamily(op)) {
    case OpType::AllReduce:
        return 0;
    case OpType::AllGather:
    case OpType::Gather:
        return 1;
    case OpType::ReduceScatter:
    case OpType::Scatter:
        return 2;
    case OpType::Broadcast:
        return 3;
    case OpType::Reduce:
        return 4;
    case OpType::AllToAll:
        return 5;
    case OpType::Send:
    case OpType::Recv:
        return 6;
    default:
        return 7; // barrier, coalesced, unknown
    }
}

QColor opColor(int index)
{
    // Tableau-10 hues without the oranges and reds the timeline uses for waiting/timeouts.
    static const QColor colors[kOpColorCount]
        = { QColor(0x4e, 0x79, 0xa7), QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f),
              QColor(0xb0, 0x7a, 0xa1), QColor(0x9c, 0x75, 0x5f), QColor(0xff, 0x9d, 0xa7),
              QColor(0x8c, 0x8c, 0x8c), QColor(0xba, 0xb0, 0xac) };
    return colors[std::clamp(index, 0, kOpColorCount - 1)];
}

QString opColorLabel(int index)
{
    static const char* const labels[kOpColorCount] = { "allreduce", "allgather", "reduce-scatter",
        "broadcast", "reduce", "all-to-all", "send/recv", "other" };
    return QString::fromLatin1(labels[std::clamp(index, 0, kOpColorCount - 1)]);
}

// ---------------------------------------------------------------------------------------
// Scene

TimelineScene TimelineScene::build(
    DocumentPtr document, const QString& processGroup, std::uint64_t generation)
{
    TimelineScene s;
    s.document = document;
    s.generation = generation;
    if (!document || !document->bundle)
        return s;
    const model::Bundle& b = *document->bundle;
    const model::TimelineData* t = document->timeline.get();
    const model::Diagnosis* d = document->diagnosis.get();
    const std::int32_t n = t ? t->rankCount() : static_cast<std::int32_t>(b.ranks.size());
    const auto un = static_cast<std::size_t>(n);

    // Host groups ordered by their lowest rank; ranks without a host go last.
    std::map<model::StrId, std::int32_t> groupOfHost;
    std::vector<model::StrId> hostOfGroup;
    s.groupOfRank.assign(un, -1);
    std::int32_t unknownGroup = -1;
    for (std::int32_t r = 0; r < n; ++r) {
        const model::RankInfo* info = b.rankInfo(r);
        const model::StrId host = info ? info->host : model::kNoStr;
        if (host == model::kNoStr)
            continue;
        auto [it, added]
            = groupOfHost.try_emplace(host, static_cast<std::int32_t>(hostOfGroup.size()));
        if (added)
            hostOfGroup.push_back(host);
        s.groupOfRank[static_cast<std::size_t>(r)] = it->second;
    }
    s.ranksByGroup.resize(hostOfGroup.size());
    for (model::StrId h : hostOfGroup)
        s.groupNames.push_back(
            QString::fromUtf8(b.text(h).data(), static_cast<int>(b.text(h).size())));
    for (std::int32_t r = 0; r < n; ++r) {
        std::int32_t& g = s.groupOfRank[static_cast<std::size_t>(r)];
        if (g < 0) {
            if (unknownGroup < 0) {
                unknownGroup = static_cast<std::int32_t>(s.ranksByGroup.size());
                s.ranksByGroup.emplace_back();
                s.groupNames.push_back(QStringLiteral("unknown host"));
            }
            g = unknownGroup;
        }
        s.ranksByGroup[static_cast<std::size_t>(g)].push_back(r);
    }

    s.role.assign(un, RankRole::Other);
    s.rankLabels.reserve(un);
    for (std::int32_t r = 0; r < n; ++r)
        s.rankLabels.push_back(QStringLiteral("rank %1").arg(r));
    std::vector<std::int32_t> initiating;
    if (d) {
        initiating = d->initiatingRanks;
        if (d->stuckPair) {
            initiating.push_back(d->stuckPair->first);
            initiating.push_back(d->stuckPair->second);
        }
        for (std::int32_t r : d->collateralRanks)
            if (r >= 0 && r < n)
                s.role[static_cast<std::size_t>(r)] = RankRole::Collateral;
        for (std::int32_t r : initiating)
            if (r >= 0 && r < n)
                s.role[static_cast<std::size_t>(r)] = RankRole::Initiating;
        s.rankNotes.assign(un, {});
        for (const auto& v : d->ranks)
            if (v.rank >= 0 && v.rank < n
                && s.role[static_cast<std::size_t>(v.rank)] == RankRole::Initiating) {
                QString note = theme::initiatorLabel(d->rootCause, v.state);
                if (v.state == model::RankState::NeverEntered && d->stuckCollective)
                    note = QStringLiteral("never entered ")
                        + fromStd(model::torchName(d->stuckCollective->op))
                        + QStringLiteral(" #%1 — no timeout logged").arg(d->stuckCollective->seq);
                s.rankNotes[static_cast<std::size_t>(v.rank)] = note;
            }
    }

    if (t && t->hasWallClock()) {
        s.hasTime = true;
        s.originNs = t->minTimeNs();
        s.timeLo = 0;
        s.timeHi = std::max<std::int64_t>(t->maxTimeNs() - t->minTimeNs(), model::kNsPerSecond);
        s.timeSpread = TimeSpread(s.timeLo, s.timeHi); // the span the axis draws
        for (std::int32_t r = 0; r < n; ++r) {
            // The row's extent on the wall clock, for the default-axis rule.
            std::int64_t first = std::numeric_limits<std::int64_t>::max();
            std::int64_t last = std::numeric_limits<std::int64_t>::min();
            auto extend = [&](std::int64_t a, std::int64_t b) {
                first = std::min(first, a);
                last = std::max(last, b);
            };
            for (const auto& m : t->markers(r)) {
                s.markerKinds |= 1u << static_cast<unsigned>(m.kind);
                s.hasInferred = s.hasInferred || m.inferredTime;
                extend(m.timeNs, m.timeNs);
            }
            for (const auto& sp : t->spans(r)) {
                s.hasSpans = true;
                s.hasInferred = s.hasInferred || sp.inferredTime;
                extend(sp.startNs, sp.endNs);
            }
            for (const auto& c : t->collectives(r)) {
                s.timeOpColors |= 1u << opColorIndex(c.op);
                extend(c.startNs, c.endNs);
            }
            if (first <= last) {
                ++s.ranksWithTime;
                s.timeSpread.addRow(first - s.originNs, last - s.originNs);
            }
        }
    }

    // The process group: the one asked for, else the stuck one, else the default group.
    std::string stuckKey;
    if (d && d->stuckCollective)
        stuckKey = d->stuckCollective->processGroup;
    std::string key = processGroup.isEmpty() ? stuckKey : processGroup.toStdString();
    auto axisFor = [&](const std::string& k) -> const model::SeqAxis* {
        if (!t)
            return nullptr;
        if (const model::StrId id = b.strings.find(k); id != model::kNoStr)
            if (const model::SeqAxis* a = t->seqAxis(id))
                return a;
        // Pre-2.2 lines name no PG; their progress is filed under "no key" = PG 0.
        return k == "0" ? t->seqAxis(model::kNoStr) : nullptr;
    };
    s.seqAxis = key.empty() ? nullptr : axisFor(key);
    if (!s.seqAxis && t) {
        for (const auto& g : b.processGroups)
            if (g.isDefault)
                s.seqAxis = t->seqAxis(g.key);
        if (!s.seqAxis && !t->seqAxes().empty())
            s.seqAxis = &t->seqAxes().front();
    }
    if (s.seqAxis) {
        const model::StrId pg = s.seqAxis->pg;
        const std::string_view pgText = pg == model::kNoStr ? std::string_view("0") : b.text(pg);
        s.pgKey = QString::fromUtf8(pgText.data(), static_cast<int>(pgText.size()));
        s.pgLabel = QStringLiteral("PG ") + s.pgKey;
        if (const model::ProcessGroup* g = b.processGroup(pg); g && g->desc != model::kNoStr)
            s.pgLabel += QStringLiteral(" (")
                + QString::fromUtf8(
                    b.text(g->desc).data(), static_cast<int>(b.text(g->desc).size()))
                + QLatin1Char(')');
        if (d && d->stuckCollective && stuckKey == std::string(pgText)) {
            s.stuckSeq = d->stuckCollective->seq;
            s.stuckOp = d->stuckCollective->op;
        }
        s.progress.assign(un, {});
        std::int64_t hi = s.seqAxis->maxSeq;
        for (const auto& row : s.seqAxis->rows) {
            if (row.rank < 0 || row.rank >= n)
                continue;
            std::int64_t recentMax = -1;
            for (const auto& [seq, op] : row.recent) {
                recentMax = std::max(recentMax, seq);
                s.opColors |= 1u << opColorIndex(op);
            }
            SeqProgress p
                = effectiveSeqProgress(row.lastCompleted, row.lastEnqueued, row.timeoutSeq);
            // A COLL line proves the rank called NCCL for that collective.
            p.enqueued = std::max(p.enqueued, recentMax);
            s.progress[static_cast<std::size_t>(row.rank)] = p;
            hi = std::max(hi, p.enqueued);
        }
        if (s.stuckSeq >= 0) {
            hi = std::max(hi, s.stuckSeq);
            if (d)
                for (const auto& v : d->ranks)
                    if (v.state == model::RankState::NeverEntered && v.rank >= 0 && v.rank < n
                        && !s.progress[static_cast<std::size_t>(v.rank)].known())
                        s.neverEnteredStuck.push_back(v.rank);
        }
        s.seqLo = s.seqAxis->minSeq;
        s.seqHi = std::max(hi + 1, s.seqLo + 1);
    }
    return s;
}

TimelineAxisFacts TimelineScene::axisFacts() const
{
    TimelineAxisFacts f;
    f.hasTime = hasTime;
    f.hasSequence = seqAxis != nullptr;
    f.rankCount = rankCount();
    f.ranksWithTime = ranksWithTime;
    f.spread = timeSpread;
    return f;
}

StepState TimelineScene::state(std::int32_t rank, std::int64_t seq) const
{
    if (rank < 0 || static_cast<std::size_t>(rank) >= progress.size())
        return StepState::Unknown;
    const StepState st = stepState(progress[static_cast<std::size_t>(rank)], seq);
    // No progress line at all, but the diagnosis established the rank never reached the
    // stuck collective (e.g. from its last COLL line or py-spy): then it reached no later one.
    if (st == StepState::Unknown && stuckSeq >= 0 && seq >= stuckSeq
        && std::find(neverEnteredStuck.begin(), neverEnteredStuck.end(), rank)
            != neverEnteredStuck.end())
        return StepState::NeverEntered;
    return st;
}

// ---------------------------------------------------------------------------------------
// Lane geometry

void TimelinePainter::checkKey(const TimelineScene& scene, const TimelineFrame& frame)
{
    const LaneKey key { frame.axis, frame.map.start, frame.map.end,
        static_cast<int>(std::lround(frame.map.width)), frame.rankRowHeight, scene.generation };
    const auto ranks = static_cast<std::size_t>(scene.rankCount());
    const std::size_t groups = scene.ranksByGroup.size();
    if (key == m_key && m_rankLanes.size() == ranks && m_hostLanes.size() == groups)
        return;
    m_key = key;
    m_rankLanes.resize(ranks);
    m_rankLaneValid.assign(ranks, 0);
    m_hostLanes.resize(groups);
    m_hostLaneValid.assign(groups, 0);
}

const LaneGeometry& TimelinePainter::rankLane(
    const TimelineScene& scene, const TimelineFrame& frame, std::int32_t rank)
{
    checkKey(scene, frame);
    const auto i = static_cast<std::size_t>(rank);
    if (!m_rankLaneValid[i]) {
        LaneGeometry& lane = m_rankLanes[i];
        lane.boxes.clear();
        lane.glyphs.clear();
        lane.frontierX = -1;
        if (frame.axis == TimelineAxis::Time)
            buildTimeLane(scene, frame, rank, lane);
        else
            buildSeqLane(scene, frame, rank, lane);
        m_rankLaneValid[i] = 1;
    }
    return m_rankLanes[i];
}

const LaneGeometry& TimelinePainter::hostLane(
    const TimelineScene& scene, const TimelineFrame& frame, std::int32_t group)
{
    checkKey(scene, frame);
    const auto gi = static_cast<std::size_t>(group);
    if (m_hostLaneValid[gi])
        return m_hostLanes[gi];
    LaneGeometry host;
    const auto& ranks = scene.ranksByGroup[gi];
    if (frame.axis == TimelineAxis::Time) {
        // Union of the ranks' spans and their markers, merged again at glyph width.
        std::vector<LaneBox> boxes;
        std::vector<LaneGlyph> glyphs;
        for (std::int32_t r : ranks) {
            const LaneGeometry& lane = rankLane(scene, frame, r);
            boxes.insert(boxes.end(), lane.boxes.begin(), lane.boxes.end());
            glyphs.insert(glyphs.end(), lane.glyphs.begin(), lane.glyphs.end());
        }
        std::sort(boxes.begin(), boxes.end(),
            [](const LaneBox& a, const LaneBox& b) { return a.x0 < b.x0; });
        for (const LaneBox& box : boxes) {
            if (!host.boxes.empty() && box.x0 <= host.boxes.back().x1 + 1) {
                LaneBox& last = host.boxes.back();
                // The stuck style wins; otherwise the wider box names the run's op.
                const bool wider = box.x1 - box.x0 > last.x1 - last.x0;
                const bool stuck
                    = box.style == LaneBox::Style::StuckSpan || box.style == LaneBox::Style::OpStuck;
                const bool lastStuck = last.style == LaneBox::Style::StuckSpan
                    || last.style == LaneBox::Style::OpStuck;
                if (stuck || (wider && !lastStuck)) {
                    last.style = box.style;
                    last.op = box.op;
                }
                last.x1 = std::max(last.x1, box.x1);
                last.inferred = last.inferred && box.inferred; // one measured wait is a fact
            } else {
                host.boxes.push_back(box);
            }
        }
        std::sort(glyphs.begin(), glyphs.end(),
            [](const LaneGlyph& a, const LaneGlyph& b) { return a.x < b.x; });
        const float merge = static_cast<float>(glyphSize(frame.rankRowHeight)) / 2.0f;
        for (const LaneGlyph& g : glyphs) {
            if (!host.glyphs.empty() && g.x - host.glyphs.back().x < merge) {
                LaneGlyph& last = host.glyphs.back();
                last.merged = static_cast<std::uint16_t>(std::min(0xffff, last.merged + g.merged));
                if (markerPriority(g.kind) > markerPriority(last.kind))
                    last.kind = g.kind;
                last.inferred = last.inferred && g.inferred;
            } else {
                host.glyphs.push_back(g);
            }
        }
    } else if (scene.seqAxis) {
        // The group's spread: everything up to its slowest rank completed, waiting up to its
        // furthest enqueue; the frontier sits at the slowest rank.
        std::int64_t minDone = std::numeric_limits<std::int64_t>::max();
        std::int64_t maxEnq = -1;
        for (std::int32_t r : ranks) {
            const SeqProgress& p = scene.progress[static_cast<std::size_t>(r)];
            if (!p.known())
                continue;
            minDone = std::min(minDone, p.completed);
            maxEnq = std::max(maxEnq, p.enqueued);
        }
        if (maxEnq >= 0) {
            const AxisMap& m = frame.map;
            const double lo = m.left - 4, hi = m.left + m.width + 4;
            auto x = [&](std::int64_t seq) {
                return static_cast<float>(std::clamp(m.toX(static_cast<double>(seq)), lo, hi));
            };
            if (minDone >= scene.seqLo)
                host.boxes.push_back(
                    { x(scene.seqLo), x(minDone + 1), LaneBox::Style::Completed, 0 });
            if (maxEnq > minDone)
                host.boxes.push_back({ x(std::max(minDone + 1, scene.seqLo)), x(maxEnq + 1),
                    LaneBox::Style::Waiting, 0 });
            host.frontierX = x(minDone + 1);
        }
    }
    m_hostLanes[gi] = std::move(host);
    m_hostLaneValid[gi] = 1;
    return m_hostLanes[gi];
}

void TimelinePainter::buildTimeLane(const TimelineScene& scene, const TimelineFrame& frame,
    std::int32_t rank, LaneGeometry& out) const
{
    if (!scene.hasTime || !scene.document || !scene.document->timeline)
        return;
    const model::TimelineData& t = *scene.document->timeline;
    const AxisMap& m = frame.map;
    const double lo = m.left - 4, hi = m.left + m.width + 4;
    for (const model::TimelineSpan& s : t.spans(rank)) {
        const double s0 = static_cast<double>(s.startNs - scene.originNs);
        const double s1 = static_cast<double>(s.endNs - scene.originNs);
        if (s1 < m.start || s0 > m.end)
            continue;
        float x0 = static_cast<float>(std::clamp(m.toX(s0), lo, hi));
        float x1 = static_cast<float>(std::clamp(m.toX(s1), lo, hi));
        if (x1 - x0 < 1.0f)
            x1 = x0 + 1.0f;
        out.boxes.push_back({ x0, x1, s.stuck ? LaneBox::Style::StuckSpan : LaneBox::Style::Span, 0,
            s.inferredTime });
    }
    // Flight Recorder collectives over the watchdog spans (FR knows the op and the real
    // times, the span only the wait), coloured by op. Only the visible ones are looked at
    // (binary search on the running end time); bars that land on the same pixel merge,
    // keeping the first one's colour, so a dense trace costs O(pixels).
    const auto& bars = t.collectives(rank);
    const auto visibleFrom = scene.originNs + static_cast<std::int64_t>(std::floor(m.start));
    for (std::size_t i = t.firstCollectiveEndingAtOrAfter(rank, visibleFrom); i < bars.size(); ++i) {
        const model::TimelineCollective& c = bars[i];
        const double s0 = static_cast<double>(c.startNs - scene.originNs);
        if (s0 > m.end)
            break;
        const double s1 = static_cast<double>(c.endNs - scene.originNs);
        if (s1 < m.start)
            continue;
        const float x0 = static_cast<float>(std::clamp(m.toX(s0), lo, hi));
        const float x1 = std::max(x0 + 1.0f, static_cast<float>(std::clamp(m.toX(s1), lo, hi)));
        const auto op = static_cast<std::uint8_t>(opColorIndex(c.op));
        const auto style = c.stuck ? LaneBox::Style::OpStuck : LaneBox::Style::Op;
        if (!out.boxes.empty()) {
            LaneBox& last = out.boxes.back();
            const bool tiny = x1 - x0 < 1.5f;
            if (x0 <= last.x1 + 0.5f && last.style == style && (tiny || last.op == op)) {
                last.x1 = std::max(last.x1, x1);
                continue;
            }
        }
        out.boxes.push_back({ x0, x1, style, op });
    }
    std::vector<std::pair<int, LaneGlyph>> buckets;
    addMarkers(scene, frame, rank, buckets);
    out.glyphs.reserve(buckets.size());
    for (auto& [bucket, g] : buckets)
        out.glyphs.push_back(g);
}

void TimelinePainter::addMarkers(const TimelineScene& scene, const TimelineFrame& frame,
    std::int32_t rank, std::vector<std::pair<int, LaneGlyph>>& buckets) const
{
    const model::TimelineData& t = *scene.document->timeline;
    const AxisMap& m = frame.map;
    const int g = glyphSize(frame.rankRowHeight);
    // Buckets are aligned to the axis value, not to the left edge, so panning does not make
    // merged glyphs jump between neighbours.
    const double bucketUnits = g * m.unitsPerPixel();
    const double margin = g * m.unitsPerPixel();
    const auto& markers = t.markers(rank);
    std::size_t i = t.firstMarkerAtOrAfter(
        rank, scene.originNs + static_cast<std::int64_t>(std::floor(m.start - margin)));
    const std::size_t end = t.endMarkerAtOrBefore(
        rank, scene.originNs + static_cast<std::int64_t>(std::ceil(m.end + margin)));
    int scannedInBucket = 0;
    // At most this many markers are looked at per bucket; beyond, the rest of the bucket is
    // skipped with a binary search, so a dense lane costs O(buckets · log n), not O(markers).
    constexpr int kScanPerBucket = 48;
    while (i < end) {
        const model::TimelineMarker& mk = markers[i];
        const double rel = static_cast<double>(mk.timeNs - scene.originNs);
        const int bucket = static_cast<int>(std::floor(rel / bucketUnits));
        if (!buckets.empty() && buckets.back().first == bucket) {
            LaneGlyph& last = buckets.back().second;
            last.merged = static_cast<std::uint16_t>(std::min(0xffff, last.merged + 1));
            if (markerPriority(mk.kind) > markerPriority(last.kind))
                last.kind = mk.kind;
            last.inferred = last.inferred && mk.inferredTime;
            if (++scannedInBucket >= kScanPerBucket) {
                const auto next = static_cast<std::int64_t>(std::ceil((bucket + 1) * bucketUnits));
                const std::size_t j = t.firstMarkerAtOrAfter(rank, scene.originNs + next);
                if (j > i + 1) {
                    last.merged = static_cast<std::uint16_t>(
                        std::min<std::size_t>(0xffff, last.merged + (j - i - 1)));
                    // The skipped ones are not looked at: the glyph claims no inference.
                    last.inferred = false;
                    i = j;
                    continue;
                }
            }
        } else {
            LaneGlyph glyph;
            glyph.x = static_cast<float>(m.toX(rel));
            glyph.kind = mk.kind;
            glyph.inferred = mk.inferredTime;
            // Two glyphs in neighbouring buckets closer than half a glyph read as one.
            if (!buckets.empty() && glyph.x - buckets.back().second.x < g / 2.0f) {
                LaneGlyph& last = buckets.back().second;
                last.merged = static_cast<std::uint16_t>(std::min(0xffff, last.merged + 1));
                if (markerPriority(mk.kind) > markerPriority(last.kind))
                    last.kind = mk.kind;
                last.inferred = last.inferred && mk.inferredTime;
                buckets.back().first = bucket;
            } else {
                buckets.emplace_back(bucket, glyph);
            }
            scannedInBucket = 1;
        }
        ++i;
    }
}

void TimelinePainter::buildSeqLane(const TimelineScene& scene, const TimelineFrame& frame,
    std::int32_t rank, LaneGeometry& out) const
{
    if (!scene.seqAxis || static_cast<std::size_t>(rank) >= scene.progress.size())
        return;
    const SeqProgress& p = scene.progress[static_cast<std::size_t>(rank)];
    if (!p.known())
        return;
    const AxisMap& m = frame.map;
    const double lo = m.left - 4, hi = m.left + m.width + 4;
    auto x = [&](std::int64_t seq) {
        return static_cast<float>(std::clamp(m.toX(static_cast<double>(seq)), lo, hi));
    };
    // Wide cells are drawn one by one with a pixel of air between them, so collectives can be
    // counted; narrow ones merge into runs.
    const bool separate = 1.0 / m.unitsPerPixel() >= 8.0;
    auto box = [&](std::int64_t from, std::int64_t to, LaneBox::Style style, std::uint8_t op = 0) {
        // [from, to] inclusive seq cells.
        if (to < from || static_cast<double>(to + 1) < m.start || static_cast<double>(from) > m.end)
            return;
        if (separate) {
            const std::int64_t a = std::max(from, static_cast<std::int64_t>(std::floor(m.start)));
            const std::int64_t b = std::min(to, static_cast<std::int64_t>(std::ceil(m.end)));
            for (std::int64_t seq = a; seq <= b; ++seq)
                out.boxes.push_back({ x(seq), x(seq + 1) - 1.0f, style, op });
            return;
        }
        float x0 = x(from), x1 = x(to + 1);
        if (x1 - x0 < 1.0f)
            x1 = x0 + 1.0f;
        // Adjacent cells of the same style that land on the same pixel merge.
        if (!out.boxes.empty()) {
            LaneBox& last = out.boxes.back();
            if (last.style == style && last.op == op && x0 <= last.x1 + 0.5f) {
                last.x1 = std::max(last.x1, x1);
                return;
            }
        }
        out.boxes.push_back({ x0, x1, style, op });
    };
    const std::int64_t first
        = std::max(scene.seqLo, static_cast<std::int64_t>(std::floor(m.start)));
    if (p.completed >= first)
        box(first, p.completed, LaneBox::Style::Completed);
    // Ops of the completed collectives where COLL lines named them.
    const model::SeqRow& row = scene.seqAxis->rows[static_cast<std::size_t>(rank)];
    if (!row.recent.empty() && p.completed >= first) {
        std::vector<std::pair<std::int64_t, model::OpType>> recent = row.recent;
        std::sort(recent.begin(), recent.end());
        for (const auto& [seq, op] : recent)
            if (seq >= first && seq <= p.completed)
                box(seq, seq, LaneBox::Style::Op, static_cast<std::uint8_t>(opColorIndex(op)));
    }
    if (p.enqueued > p.completed)
        box(std::max(p.completed + 1, first), p.enqueued, LaneBox::Style::Waiting);
    if (row.timeoutSeq >= 0)
        box(row.timeoutSeq, row.timeoutSeq, LaneBox::Style::TimedOut);
    if (p.completed >= 0)
        out.frontierX = x(p.completed + 1);
}

// ---------------------------------------------------------------------------------------
// Painting

const QPixmap& TimelinePainter::glyph(MarkerKind kind, int size, qreal dpr, bool inferred)
{
    if (size != m_glyphSize || dpr != m_glyphDpr) {
        m_glyphs = {};
        m_glyphSize = size;
        m_glyphDpr = dpr;
    }
    const std::size_t kinds = m_glyphs.size() / 2;
    QPixmap& pm = m_glyphs[static_cast<std::size_t>(kind) % kinds + (inferred ? kinds : 0)];
    if (!pm.isNull())
        return pm;
    const int px = static_cast<int>(std::ceil(size * dpr));
    pm = QPixmap(px, px);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor c = markerColor(kind);
    // A marker placed by an inferred time is hollow with a dotted edge: the same shape and
    // hue say what happened, the missing fill says the position is not measured.
    const double stroke = std::max(2.0, size / 5.0);
    QPen outline(c.darker(150), 1.0);
    QBrush fill(c);
    if (inferred) {
        outline = QPen(c, 1.4, Qt::DotLine);
        fill = Qt::NoBrush;
    }
    p.setPen(outline);
    p.setBrush(fill);
    const double s = size;
    const double a = 1.0, b = s - 1.0, mid = s / 2.0;
    switch (kind) {
    case MarkerKind::Timeout: // ▼
        p.drawPolygon(QPolygonF({ QPointF(a, a + 1), QPointF(b, a + 1), QPointF(mid, b) }));
        break;
    case MarkerKind::Heartbeat: // ▲
        p.drawPolygon(QPolygonF({ QPointF(a, b - 1), QPointF(b, b - 1), QPointF(mid, a) }));
        break;
    case MarkerKind::Crash: { // ✕
        p.setPen(QPen(c, inferred ? stroke * 0.6 : stroke, inferred ? Qt::DotLine : Qt::SolidLine,
            Qt::RoundCap));
        p.drawLine(QPointF(a + 1, a + 1), QPointF(b - 1, b - 1));
        p.drawLine(QPointF(a + 1, b - 1), QPointF(b - 1, a + 1));
        break;
    }
    case MarkerKind::Hardware: // ◆
        p.drawPolygon(
            QPolygonF({ QPointF(mid, a), QPointF(b, mid), QPointF(mid, b), QPointF(a, mid) }));
        break;
    case MarkerKind::Network: // ●
        p.drawEllipse(QRectF(a, a, b - a, b - a));
        break;
    case MarkerKind::LauncherKill: // ■
        p.drawRect(QRectF(a + 1, a + 1, b - a - 2, b - a - 2));
        break;
    case MarkerKind::Error: // ring
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(c, inferred ? stroke * 0.6 : stroke, inferred ? Qt::DotLine : Qt::SolidLine));
        p.drawEllipse(QRectF(a + 1, a + 1, b - a - 2, b - a - 2));
        break;
    case MarkerKind::Info:
        p.drawEllipse(QRectF(mid - s / 5, mid - s / 5, 2 * s / 5, 2 * s / 5));
        break;
    }
    return pm;
}

void TimelinePainter::paint(QPainter& p, const TimelineScene& scene, const TimelineFrame& frame)
{
    const TimelineStyle& st = m_style;
    m_glyphPx = glyphSize(frame.rankRowHeight);
    p.setRenderHint(QPainter::Antialiasing, false);
    if (!frame.rows) {
        p.fillRect(QRect(QPoint(0, 0), frame.size), st.background);
        paintHeader(p, scene, frame);
        paintLegend(p, scene, frame);
        return;
    }
    const int plotTop = frame.headerHeight;
    const int plotHeight = std::max(0, frame.size.height() - plotTop - frame.footerHeight);
    const auto rows = frame.rows->visibleRows(frame.scrollY, frame.scrollY + plotHeight);
    const QRect plot(0, plotTop, frame.size.width(), plotHeight);

    // The visible rows come from the painted-plot cache (see the top of the header); what
    // follows the mouse is drawn over it.
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
    checkKey(scene, frame);
    const PlotKey key { m_key, frame.size, frame.headerHeight, frame.footerHeight,
        frame.gutterWidth, frame.scrollY, frame.rowsVersion, frame.selectedSeq, dpr,
        m_styleVersion };
    if (!(key == m_plotKey) || m_plot.isNull()) {
        m_plotKey = key;
        ++m_plotBuilds;
        const QSize device(static_cast<int>(std::ceil(plot.width() * dpr)),
            static_cast<int>(std::ceil(std::max(1, plot.height()) * dpr)));
        m_plot = QPixmap(device);
        m_plot.setDevicePixelRatio(dpr);
        m_plot.fill(st.background);
        QPainter pp(&m_plot);
        pp.setFont(p.font());
        pp.setRenderHint(QPainter::Antialiasing, false);
        pp.translate(0, -plotTop); // the drawing code works in viewport coordinates
        paintPlot(pp, scene, frame, rows);
    }
    p.drawPixmap(plot.topLeft(), m_plot);

    // Hover: a tint over the hovered rank row (gutter and lane); the initiating rows keep
    // their own colour.
    if (frame.hoveredRow >= rows.first && frame.hoveredRow < rows.second) {
        const TimelineRow& row = frame.rows->row(frame.hoveredRow);
        if (row.kind == TimelineRow::Kind::Rank
            && scene.role[static_cast<std::size_t>(row.rank)] != RankRole::Initiating) {
            p.save();
            p.setClipRect(plot);
            p.fillRect(QRect(0, plotTop + frame.rows->top(frame.hoveredRow) - frame.scrollY,
                           frame.size.width(), frame.rows->height(frame.hoveredRow)),
                st.hoverOverlay);
            p.restore();
        }
    }
    // The selected rank's outline runs across gutter and lane.
    const int sel = frame.rows->rowOfRank(frame.selectedRank);
    if (sel >= rows.first && sel < rows.second) {
        p.save();
        p.setClipRect(plot);
        p.setPen(QPen(st.selectedOutline, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(1, plotTop + frame.rows->top(sel) - frame.scrollY + 1,
            frame.size.width() - 3, frame.rows->height(sel) - 2));
        p.restore();
    }
    paintHeader(p, scene, frame);
    paintLegend(p, scene, frame);

    if (!frame.rubberBand.isNull()) {
        p.fillRect(frame.rubberBand, st.rubberBand);
        p.setPen(st.selectedOutline);
        p.drawRect(frame.rubberBand.adjusted(0, 0, -1, -1));
    }
}

void TimelinePainter::paintPlot(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, std::pair<int, int> rows)
{
    const int plotTop = frame.headerHeight;
    const int plotHeight = std::max(0, frame.size.height() - plotTop - frame.footerHeight);
    const QRect plot(0, plotTop, frame.size.width(), plotHeight);
    p.save();
    p.setClipRect(plot);
    paintRows(p, scene, frame, rows);
    p.restore();
    p.save();
    p.setClipRect(plot);
    paintGutter(p, scene, frame, rows);
    p.restore();
}

void TimelinePainter::paintRows(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, std::pair<int, int> rows)
{
    const TimelineStyle& st = m_style;
    const RowLayout& layout = *frame.rows;
    const int plotTop = frame.headerHeight;
    const int left = frame.gutterWidth;
    const int right = frame.size.width();
    auto rowRect = [&](int i) {
        return QRect(left, plotTop + layout.top(i) - frame.scrollY, right - left, layout.height(i));
    };

    // Row backgrounds.
    for (int i = rows.first; i < rows.second; ++i) {
        const TimelineRow& row = layout.row(i);
        const QRect r = rowRect(i);
        QColor bg = st.background;
        if (row.kind == TimelineRow::Kind::Host)
            bg = st.hostRow;
        else if (scene.role[static_cast<std::size_t>(row.rank)] == RankRole::Initiating)
            bg = st.initiatingRow;
        else if (row.rank % 2)
            bg = st.alternateBackground;
        p.fillRect(r, bg);
    }
    // Grid under the bars.
    if (frame.axis == TimelineAxis::Time)
        paintTimeTicks(p, scene, frame, plotTop, true);
    else
        paintSeqTicks(p, scene, frame, plotTop, true);
    if (frame.axis == TimelineAxis::Sequence && scene.seqAxis && frame.selectedSeq >= 0) {
        const int x0
            = static_cast<int>(std::floor(frame.map.toX(static_cast<double>(frame.selectedSeq))));
        const int x1 = static_cast<int>(
            std::ceil(frame.map.toX(static_cast<double>(frame.selectedSeq + 1))));
        const int rowsBottom = plotTop + layout.totalHeight() - frame.scrollY;
        p.fillRect(QRect(x0 - 2, plotTop, std::max(1, x1 - x0) + 4, rowsBottom - plotTop),
            st.columnHighlight);
    }

    // Lanes.
    for (int i = rows.first; i < rows.second; ++i) {
        const TimelineRow& row = layout.row(i);
        const QRect r = rowRect(i);
        if (row.kind == TimelineRow::Kind::Host) {
            paintLane(p, hostLane(scene, frame, row.group), r, true);
            continue;
        }
        const RankRole role = scene.role[static_cast<std::size_t>(row.rank)];
        const bool dim = role == RankRole::Collateral;
        if (dim)
            p.setOpacity(0.55);
        const LaneGeometry& lane = rankLane(scene, frame, row.rank);
        paintLane(p, lane, r, false);
        if (dim)
            p.setOpacity(1.0);
        // An empty row is the finding for the rank that caused the hang; say so.
        if (role == RankRole::Initiating && lane.boxes.empty() && lane.glyphs.empty()
            && static_cast<std::size_t>(row.rank) < scene.rankNotes.size()
            && !scene.rankNotes[static_cast<std::size_t>(row.rank)].isEmpty()) {
            QFont italic = p.font();
            italic.setItalic(true);
            p.save();
            p.setFont(italic);
            p.setPen(st.text);
            p.drawText(r.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignLeft,
                scene.rankNotes[static_cast<std::size_t>(row.rank)]);
            p.restore();
        }
    }
    if (frame.axis == TimelineAxis::Sequence) {
        paintFrontier(p, scene, frame, rows);
        paintSeqColumns(p, scene, frame, rows);
    } else if (frame.selectedSeq >= 0 && scene.hasTime && scene.document
        && scene.document->timeline) {
        // Stepping in time mode: outline the waits inside the selected collective.
        p.setPen(QPen(st.selectedOutline, 2));
        p.setBrush(Qt::NoBrush);
        for (int i = rows.first; i < rows.second; ++i) {
            const TimelineRow& row = layout.row(i);
            if (row.kind != TimelineRow::Kind::Rank)
                continue;
            const QRect r = rowRect(i);
            for (const auto& s : scene.document->timeline->spans(row.rank)) {
                if (s.seq != frame.selectedSeq || s.stuck) // the stuck one is outlined already
                    continue;
                const double x0 = std::max(
                    frame.map.toX(static_cast<double>(s.startNs - scene.originNs)), left - 4.0);
                const double x1 = std::min(
                    frame.map.toX(static_cast<double>(s.endNs - scene.originNs)), right + 4.0);
                if (x1 > x0)
                    p.drawRect(QRectF(
                        x0, r.top() + kBarInset - 1, x1 - x0, r.height() - 2 * kBarInset + 1));
            }
        }
    }
}

void TimelinePainter::paintLane(QPainter& p, const LaneGeometry& lane, const QRect& r, bool hostRow)
{
    const TimelineStyle& st = m_style;
    const int inset = hostRow ? kHostBarInset : kBarInset;
    const int y = r.top() + inset;
    const int h = std::max(2, r.height() - 2 * inset);
    for (const LaneBox& b : lane.boxes) {
        // Rounded edges: neighbouring cells share an edge exactly, and a gap of one pixel
        // between separate cells stays one pixel.
        const int x0 = static_cast<int>(std::lround(b.x0));
        const int w = std::max(1, static_cast<int>(std::lround(b.x1)) - x0);
        const QRect br(x0, y, w, h);
        if (b.inferred) {
            // Placed by an inferred time: hatched over the lane, with a dashed edge in the
            // stuck colour when it is the stuck wait, never a solid bar.
            p.fillRect(br, QBrush(st.inferredHatch, Qt::BDiagPattern));
            p.setPen(QPen(b.style == LaneBox::Style::StuckSpan ? st.stuckOutline : st.inferredHatch,
                1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(br.adjusted(0, 0, -1, -1));
            continue;
        }
        switch (b.style) {
        case LaneBox::Style::Span:
            p.fillRect(br, st.span);
            break;
        case LaneBox::Style::StuckSpan:
            p.fillRect(br, st.span);
            p.setPen(st.stuckOutline);
            p.setBrush(Qt::NoBrush);
            p.drawRect(br.adjusted(0, 0, -1, -1));
            break;
        case LaneBox::Style::Completed:
            p.fillRect(br, st.completed);
            break;
        case LaneBox::Style::Waiting:
            p.fillRect(br, st.waiting);
            break;
        case LaneBox::Style::TimedOut:
            p.fillRect(br, st.timedOut);
            break;
        case LaneBox::Style::Op:
            p.fillRect(br, opColor(b.op));
            break;
        case LaneBox::Style::OpStuck:
            p.fillRect(br, opColor(b.op));
            p.setPen(st.stuckOutline);
            p.setBrush(Qt::NoBrush);
            p.drawRect(br.adjusted(0, 0, -1, -1));
            break;
        }
    }
    if (lane.glyphs.empty())
        return;
    const int g = m_glyphPx;
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
    const int gy = r.top() + (r.height() - g) / 2;
    for (const LaneGlyph& gl : lane.glyphs)
        p.drawPixmap(QPointF(std::round(gl.x - g / 2.0), gy), glyph(gl.kind, g, dpr, gl.inferred));
}

void TimelinePainter::paintSeqColumns(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, std::pair<int, int> rows)
{
    if (!scene.seqAxis)
        return;
    const TimelineStyle& st = m_style;
    const RowLayout& layout = *frame.rows;
    const int plotTop = frame.headerHeight;
    const int bottom
        = std::min(frame.size.height(), plotTop + layout.totalHeight() - frame.scrollY);
    auto column = [&](std::int64_t seq) {
        const double x0 = frame.map.toX(static_cast<double>(seq));
        const double x1 = frame.map.toX(static_cast<double>(seq + 1));
        return std::make_pair(x0, std::max(x1, x0 + 3.0));
    };
    // Ranks that never entered the stuck or the selected collective get a dashed cell.
    QPen dashed(st.neverEntered, 1.5, Qt::DashLine);
    for (std::int64_t seq : { scene.stuckSeq, frame.selectedSeq }) {
        if (seq < 0)
            continue;
        const auto [x0, x1] = column(seq);
        p.setPen(dashed);
        p.setBrush(Qt::NoBrush);
        for (int i = rows.first; i < rows.second; ++i) {
            const TimelineRow& row = layout.row(i);
            if (row.kind != TimelineRow::Kind::Rank
                || scene.state(row.rank, seq) != StepState::NeverEntered)
                continue;
            const int top = plotTop + layout.top(i) - frame.scrollY;
            p.drawRect(
                QRectF(x0 + 1, top + kBarInset, x1 - x0 - 2, layout.height(i) - 2 * kBarInset - 1));
        }
    }
    if (scene.stuckSeq >= 0) {
        // Inset, so the frontier line on the column's left edge stays visible next to it.
        const auto [x0, x1] = column(scene.stuckSeq);
        p.setPen(QPen(st.stuckOutline, 2));
        p.drawRect(QRectF(x0 + 2, plotTop + 1, std::max(1.0, x1 - x0 - 4), bottom - plotTop - 2));
    }
}

void TimelinePainter::paintFrontier(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, std::pair<int, int> rows)
{
    const RowLayout& layout = *frame.rows;
    const int plotTop = frame.headerHeight;
    // A step line: vertical through each row at its frontier, horizontal between rows, so a
    // rank that completed less juts out to the left. Unknown rows break the line.
    p.setPen(QPen(m_style.frontier, 2, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    p.setBrush(Qt::NoBrush);
    QPolygonF line;
    auto flush = [&] {
        if (line.size() > 1)
            p.drawPolyline(line);
        line.clear();
    };
    const int first = std::max(0, rows.first - 1);
    const int last = std::min(layout.count(), rows.second + 1);
    for (int i = first; i < last; ++i) {
        const TimelineRow& row = layout.row(i);
        const LaneGeometry& lane = row.kind == TimelineRow::Kind::Host
            ? hostLane(scene, frame, row.group)
            : rankLane(scene, frame, row.rank);
        if (lane.frontierX < 0) {
            flush();
            continue;
        }
        const double top = plotTop + layout.top(i) - frame.scrollY;
        const double x = std::round(lane.frontierX);
        line << QPointF(x, top) << QPointF(x, top + layout.height(i));
    }
    flush();
}

void TimelinePainter::paintGutter(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, std::pair<int, int> rows)
{
    const TimelineStyle& st = m_style;
    const RowLayout& layout = *frame.rows;
    const int plotTop = frame.headerHeight;
    const int w = frame.gutterWidth;
    p.save();
    p.setClipRect(QRect(0, plotTop, w, frame.size.height() - plotTop));
    p.fillRect(QRect(0, plotTop, w, frame.size.height() - plotTop), st.headerBackground);
    const QFont base = p.font();
    QFont bold = base;
    bold.setBold(true);
    const QFontMetrics fm(base);
    for (int i = rows.first; i < rows.second; ++i) {
        const TimelineRow& row = layout.row(i);
        const QRect r(0, plotTop + layout.top(i) - frame.scrollY, w, layout.height(i));
        if (row.kind == TimelineRow::Kind::Host) {
            p.fillRect(r, st.hostRow);
            const bool collapsed = frame.collapsed
                && static_cast<std::size_t>(row.group) < frame.collapsed->size()
                && (*frame.collapsed)[static_cast<std::size_t>(row.group)];
            // Disclosure triangle.
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(st.mutedText);
            const double cx = 10, cy = r.center().y() + 0.5;
            if (collapsed)
                p.drawPolygon(QPolygonF({ QPointF(cx - 2.5, cy - 4.5), QPointF(cx + 3, cy),
                    QPointF(cx - 2.5, cy + 4.5) }));
            else
                p.drawPolygon(QPolygonF({ QPointF(cx - 4.5, cy - 2.5), QPointF(cx + 4.5, cy - 2.5),
                    QPointF(cx, cy + 3) }));
            p.setRenderHint(QPainter::Antialiasing, false);
            const auto& ranks = scene.ranksByGroup[static_cast<std::size_t>(row.group)];
            const QString count = QStringLiteral(" %1").arg(ranks.size());
            const int countW = fm.horizontalAdvance(count);
            p.setFont(bold);
            const QFontMetrics bfm(bold);
            const QString name
                = bfm.elidedText(scene.groupNames[static_cast<std::size_t>(row.group)],
                    Qt::ElideMiddle, w - 22 - countW - 6);
            p.setPen(st.hostText);
            p.drawText(
                QRect(20, r.top(), w - 20, r.height()), Qt::AlignVCenter | Qt::AlignLeft, name);
            p.setFont(base);
            p.setPen(st.mutedText);
            p.drawText(QRect(20 + bfm.horizontalAdvance(name), r.top(), countW + 4, r.height()),
                Qt::AlignVCenter | Qt::AlignLeft, count);
            continue;
        }
        const RankRole role = scene.role[static_cast<std::size_t>(row.rank)];
        if (role == RankRole::Initiating) {
            p.fillRect(r, st.initiatingRow);
            p.fillRect(QRect(0, r.top(), 4, r.height()), st.initiatingAccent);
            p.setFont(bold);
            p.setPen(st.text);
        } else {
            p.setPen(role == RankRole::Collateral ? st.mutedText : st.text);
        }
        p.drawText(QRect(22, r.top(), w - 26, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
            scene.rankLabels[static_cast<std::size_t>(row.rank)]);
        p.setFont(base);
    }
    p.restore();
    p.setPen(st.grid);
    p.drawLine(w - 1, plotTop, w - 1, frame.size.height());
}

int TimelinePainter::paintLegendItem(
    QPainter& p, int x, int y, const QColor& color, const QString& label, int shape)
{
    // shape: as TimelineLegendItem::shape
    const int h = kLegendHeight;
    const int sw = 12;
    const QRect sr(x, y + (h - sw) / 2, sw, sw);
    switch (shape) {
    case 0:
        p.fillRect(sr.adjusted(0, 2, 0, -2), color);
        break;
    case 1:
        p.fillRect(sr.adjusted(0, 2, 0, -2), m_style.span);
        p.setPen(color);
        p.setBrush(Qt::NoBrush);
        p.drawRect(sr.adjusted(0, 2, -1, -3));
        break;
    case 2:
        p.fillRect(QRect(sr.center().x() - 1, sr.top(), 2, sr.height()), color);
        break;
    case 4:
        p.setPen(QPen(color, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(sr.adjusted(1, 1, -1, -1));
        break;
    case 3:
        p.setPen(QPen(color, 1.5, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(sr.adjusted(1, 1, -2, -2));
        break;
    case 5: {
        const QRect box = sr.adjusted(0, 2, 0, -2);
        p.fillRect(box, QBrush(color, Qt::BDiagPattern));
        p.setPen(QPen(color, 1, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box.adjusted(0, 0, -1, -1));
        break;
    }

    default: {
        const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
        const int g = m_glyphPx;
        p.drawPixmap(QPointF(sr.center().x() - g / 2.0 + 0.5, y + (h - g) / 2.0),
            glyph(static_cast<MarkerKind>(shape - 8), g, dpr));
        break;
    }
    }
    p.setPen(m_style.mutedText);
    const QFontMetrics fm(p.font());
    const int tw = fm.horizontalAdvance(label);
    p.drawText(QRect(x + sw + 4, y, tw + 2, h), Qt::AlignVCenter | Qt::AlignLeft, label);
    return sw + 4 + tw + 14;
}

void TimelinePainter::paintHeader(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame)
{
    const TimelineStyle& st = m_style;
    const int w = frame.size.width();
    const QFontMetrics fm(p.font());
    p.fillRect(QRect(0, 0, w, frame.headerHeight), st.headerBackground);
    p.setPen(st.grid);
    p.drawLine(0, frame.headerHeight - 1, w, frame.headerHeight - 1);

    // Title band: what the x axis is, the selected collective's step, the rank filter.
    // With no bundle there is no axis to name (a load in progress must not read as "no
    // times in this bundle").
    QString title;
    if (!scene.document)
        title = QString();
    else if (frame.axis == TimelineAxis::Time)
        title = scene.hasTime ? QStringLiteral("Wall clock")
                              : QStringLiteral("No wall-clock times in this bundle");
    else
        title = scene.seqAxis ? QStringLiteral("Sequence number · ") + scene.pgLabel
                              : QStringLiteral("No sequence numbers in this bundle");
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(st.text);
    const int titleWidth = std::min(QFontMetrics(bold).horizontalAdvance(title), w - 16);
    p.drawText(QRect(8, 0, titleWidth + 2, kTitleHeight), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(bold).elidedText(title, Qt::ElideRight, titleWidth + 2));
    QFont normal = bold;
    normal.setBold(false);
    p.setFont(normal);
    QString extra;
    if (!frame.stepText.isEmpty())
        extra = frame.stepText;
    if (!frame.notice.isEmpty())
        extra += (extra.isEmpty() ? QString() : QStringLiteral("   ·   ")) + frame.notice;
    if (!extra.isEmpty()) {
        const int x = 8 + titleWidth + 18;
        p.setPen(st.mutedText);
        p.drawText(QRect(x, 0, std::max(0, w - x - 8), kTitleHeight),
            Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(extra, Qt::ElideRight, std::max(0, w - x - 8)));
    }

    paintOverview(p, scene, frame);

    // Axis band: the gutter's corner says how many rows there are, the rest are ticks.
    const int axisY = kTitleHeight + kOverviewHeight;
    if (frame.rows && scene.document) {
        p.setPen(st.mutedText);
        const int room = frame.gutterWidth - 12;
        const QString ranks = scene.rankCount() == 1
            ? QStringLiteral("1 rank")
            : QStringLiteral("%1 ranks").arg(scene.rankCount());
        const auto hosts = scene.ranksByGroup.size();
        QString summary = ranks
            + (hosts == 1 ? QStringLiteral(" · 1 host") : QStringLiteral(" · %1 hosts").arg(hosts));
        if (fm.horizontalAdvance(summary) > room)
            summary = ranks;
        p.drawText(QRect(8, axisY, room, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(summary, Qt::ElideRight, room));
    }
    p.save();
    p.setClipRect(QRect(frame.gutterWidth, axisY, w - frame.gutterWidth, kAxisHeight));
    if (frame.axis == TimelineAxis::Time && scene.hasTime)
        paintTimeTicks(p, scene, frame, axisY, false);
    else if (frame.axis == TimelineAxis::Sequence && scene.seqAxis)
        paintSeqTicks(p, scene, frame, axisY, false);
    p.restore();
}

// ---------------------------------------------------------------------------------------
// Overview strip

QRect TimelinePainter::overviewStrip(const TimelineFrame& frame)
{
    constexpr int kMargin = 4;
    return QRect(frame.gutterWidth, kTitleHeight + kMargin,
        std::max(1, frame.size.width() - frame.gutterWidth - 2), kOverviewHeight - 2 * kMargin);
}

QRect TimelinePainter::overviewWindow(const TimelineFrame& frame)
{
    const QRect strip = overviewStrip(frame);
    constexpr int kMinWidth = 6; // a window zoomed to a few ns must still be found and grabbed
    double x0 = frame.overview.toX(frame.map.start);
    double x1 = frame.overview.toX(frame.map.end);
    if (x1 - x0 < kMinWidth) {
        const double mid = (x0 + x1) / 2;
        x0 = mid - kMinWidth / 2.0;
        x1 = mid + kMinWidth / 2.0;
    }
    const int left = std::clamp(static_cast<int>(std::floor(x0)), strip.left(), strip.right());
    const int right = std::clamp(static_cast<int>(std::ceil(x1)), strip.left(), strip.right() + 1);
    return QRect(left, strip.top(), std::max(2, right - left), strip.height());
}

namespace {

// Classes of what a pixel of the overview shows, the more telling one winning a pixel. The
// strip is a miniature of the rows: bars in their lane colours (the waits in the span colour,
// as the rows draw them, so a hang reads as a long light band), the marks in their own
// colours, three pixels wide while they are few so a single timeout is not lost.
enum OverviewClass : std::uint8_t {
    kOvEmpty,
    kOvActivity, // completed collectives, Flight Recorder bars
    kOvInferred, // a wait placed by an inferred time
    kOvWait, // waiting inside a collective (time), enqueued not completed (sequence)
    kOvTimedOut,
    kOvNeverEntered, // sequence: the stuck collective of a rank that never entered it
    kOvMarker, // + markerPriority(kind)
};

} // namespace

QImage TimelinePainter::overviewImage(
    const TimelineScene& scene, const TimelineFrame& frame, QSize size) const
{
    const int w = std::max(1, size.width());
    const int h = std::max(1, size.height());
    std::vector<std::uint8_t> cls(
        static_cast<std::size_t>(w) * static_cast<std::size_t>(h), kOvEmpty);
    std::vector<MarkerKind> kindAt(cls.size(), MarkerKind::Info);
    // Ranks in display order (hosts as the rows show them, none collapsed or filtered) share
    // the strip's height: a rank per pixel row or more, or many ranks per row at 4096.
    std::vector<std::int32_t> order;
    order.reserve(static_cast<std::size_t>(scene.rankCount()));
    for (const auto& group : scene.ranksByGroup)
        order.insert(order.end(), group.begin(), group.end());
    const auto n = static_cast<std::int64_t>(order.size());
    if (n == 0)
        return {};
    AxisMap m = frame.overview;
    m.left = 0;
    m.width = w;
    auto column = [&](double value) {
        return static_cast<int>(std::clamp(std::floor(m.toX(value)), -1.0, static_cast<double>(w)));
    };
    auto mark = [&](int y0, int y1, int c0, int c1, std::uint8_t c, MarkerKind kind) {
        c0 = std::max(c0, 0);
        c1 = std::min(c1, w - 1);
        for (int y = y0; y < y1; ++y)
            for (int x = c0; x <= c1; ++x) {
                const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(w)
                    + static_cast<std::size_t>(x);
                if (c > cls[i]) {
                    cls[i] = c;
                    kindAt[i] = kind;
                }
            }
    };
    const model::TimelineData* t = scene.document ? scene.document->timeline.get() : nullptr;
    // Marks are three pixels wide so a lone timeout is seen; where there are more marks than
    // pixel columns they would cover the strip, and one pixel each shows their density.
    std::size_t markers = 0;
    if (t && frame.axis == TimelineAxis::Time)
        for (std::int32_t rank = 0; rank < t->rankCount(); ++rank)
            markers += t->markers(rank).size();
    const int markHalfWidth = markers <= static_cast<std::size_t>(w) ? 1 : 0;
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int32_t rank = order[static_cast<std::size_t>(k)];
        const int y0 = static_cast<int>(k * h / n);
        const int y1 = std::max(y0 + 1, static_cast<int>((k + 1) * h / n));
        if (frame.axis == TimelineAxis::Time) {
            if (!t || !scene.hasTime)
                continue;
            auto rel = [&](std::int64_t ns) { return static_cast<double>(ns - scene.originNs); };
            // Bars that land on the pixel column the previous one filled cost nothing more.
            int lastColumn = -2;
            for (const auto& c : t->collectives(rank)) {
                const int c0 = column(rel(c.startNs)), c1 = column(rel(c.endNs));
                if (c1 <= lastColumn)
                    continue;
                mark(y0, y1, std::max(c0, lastColumn + 1), c1,
                    c.stillRunning ? kOvWait : kOvActivity, MarkerKind::Info);
                lastColumn = c1;
            }
            for (const auto& sp : t->spans(rank))
                mark(y0, y1, column(rel(sp.startNs)), column(rel(sp.endNs)),
                    sp.inferredTime ? kOvInferred : kOvWait, MarkerKind::Info);
            for (const auto& mk : t->markers(rank)) {
                const int c = column(rel(mk.timeNs));
                mark(y0, y1, c - markHalfWidth, c + markHalfWidth,
                    static_cast<std::uint8_t>(kOvMarker + markerPriority(mk.kind)), mk.kind);
            }
        } else if (scene.seqAxis && static_cast<std::size_t>(rank) < scene.progress.size()) {
            const SeqProgress& pr = scene.progress[static_cast<std::size_t>(rank)];
            if (!pr.known())
                continue;
            auto seqColumns = [&](std::int64_t from, std::int64_t to) {
                return std::pair { column(static_cast<double>(from)),
                    std::max(column(static_cast<double>(from)),
                        column(static_cast<double>(to + 1)) - 1) };
            };
            if (pr.completed >= scene.seqLo) {
                const auto [c0, c1] = seqColumns(scene.seqLo, pr.completed);
                mark(y0, y1, c0, c1, kOvActivity, MarkerKind::Info);
            }
            if (pr.enqueued > pr.completed) {
                const auto [c0, c1] = seqColumns(pr.completed + 1, pr.enqueued);
                mark(y0, y1, c0, c1, kOvWait, MarkerKind::Info);
            }
            const std::int64_t timeout
                = scene.seqAxis->rows[static_cast<std::size_t>(rank)].timeoutSeq;
            if (timeout >= 0) {
                const auto [c0, c1] = seqColumns(timeout, timeout);
                mark(y0, y1, c0, c1, kOvTimedOut, MarkerKind::Info);
            }
        }
        // The rank that never entered the stuck collective: its cell in the stuck colour,
        // the one thing in the strip that points at the culprit.
        if (frame.axis == TimelineAxis::Sequence && scene.stuckSeq >= 0
            && scene.state(rank, scene.stuckSeq) == StepState::NeverEntered) {
            const int c0 = column(static_cast<double>(scene.stuckSeq));
            const int c1 = std::max(c0 + 2, column(static_cast<double>(scene.stuckSeq + 1)) - 1);
            mark(y0, y1, c0, c1, kOvNeverEntered, MarkerKind::Info);
        }
    }
    const TimelineStyle& st = m_style;
    const QColor inferred = mix(st.overviewBackground, st.inferredHatch, 0.35);
    const std::array<QRgb, kOvMarker> colours { st.overviewBackground.rgb(), st.completed.rgb(),
        inferred.rgb(), (frame.axis == TimelineAxis::Time ? st.span : st.waiting).rgb(),
        st.timedOut.rgb(), st.neverEntered.rgb() };
    QImage image(w, h, QImage::Format_RGB32);
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(w)
                + static_cast<std::size_t>(x);
            line[x] = cls[i] >= kOvMarker ? markerColor(kindAt[i]).rgb() : colours[cls[i]];
        }
    }
    return image;
}

void TimelinePainter::paintOverview(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame)
{
    if (!scene.document || frame.overview.span() <= 0
        || (frame.axis == TimelineAxis::Time ? !scene.hasTime : !scene.seqAxis))
        return;
    const TimelineStyle& st = m_style;
    const QRect strip = overviewStrip(frame);
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
    const OverviewKey key { frame.axis, frame.overview.start, frame.overview.end, strip.size(),
        scene.generation, dpr, m_styleVersion };
    if (!(key == m_overviewKey) || m_overview.isNull()) {
        m_overviewKey = key;
        ++m_overviewBuilds;
        // One image pixel per device pixel, scaled 1:1 (no smoothing) when drawn.
        const QSize device(static_cast<int>(std::ceil(strip.width() * dpr)),
            static_cast<int>(std::ceil(strip.height() * dpr)));
        m_overview = QPixmap::fromImage(overviewImage(scene, frame, device));
        m_overview.setDevicePixelRatio(dpr);
    }
    p.save();
    p.drawPixmap(strip.topLeft(), m_overview);
    // Outside the window dimmed, the window outlined: only these move when zooming.
    const QRect window = overviewWindow(frame);
    p.fillRect(QRect(strip.left(), strip.top(), window.left() - strip.left(), strip.height()),
        st.overviewShade);
    p.fillRect(
        QRect(window.right() + 1, strip.top(), strip.right() - window.right(), strip.height()),
        st.overviewShade);
    p.setPen(st.grid);
    p.setBrush(Qt::NoBrush);
    p.drawRect(strip.adjusted(-1, -1, 0, 0));
    p.setPen(QPen(st.selectedOutline, 2));
    p.drawRect(window.adjusted(0, 0, -1, -1));
    p.restore();
    if (!frame.overviewSpan.isEmpty()) {
        // "8.0 s of 42m 3s" where it fits, else the visible span alone.
        const QFontMetrics fm(p.font());
        const int room = frame.gutterWidth - 12;
        QString text = frame.overviewSpan + QStringLiteral(" of ") + frame.overviewWhole;
        if (fm.horizontalAdvance(text) > room)
            text = fm.elidedText(frame.overviewSpan, Qt::ElideRight, room);
        p.setPen(st.mutedText);
        p.drawText(
            QRect(8, kTitleHeight, room, kOverviewHeight), Qt::AlignVCenter | Qt::AlignLeft, text);
    }
}

std::vector<TimelineLegendItem> TimelinePainter::legendItems(
    const TimelineScene& scene, const TimelineFrame& frame) const
{
    const TimelineStyle& st = m_style;
    std::vector<TimelineLegendItem> items;
    if (frame.axis == TimelineAxis::Time) {
        // First after the bars it qualifies, so a narrow window still says it.
        if (scene.hasSpans) {
            items.push_back({ st.span, QStringLiteral("waiting in collective"), 0 });
            items.push_back({ st.stuckOutline, QStringLiteral("stuck collective"), 1 });
        }
        if (scene.hasInferred)
            items.push_back({ st.inferredHatch,
                QStringLiteral("time inferred (hatched bar, hollow mark)"), 5 });
        for (int i = 0; i < kOpColorCount; ++i)
            if (scene.timeOpColors & (1u << i))
                items.push_back({ opColor(i), opColorLabel(i), 0 });
        for (MarkerKind k : kMarkerKindsInLegendOrder)
            if (scene.markerKinds & (1u << static_cast<unsigned>(k)))
                items.push_back({ markerColor(k), markerLabel(k), 8 + static_cast<int>(k) });
    } else if (scene.seqAxis) {
        items.push_back({ st.completed, QStringLiteral("completed"), 0 });
        for (int i = 0; i < kOpColorCount; ++i)
            if (scene.opColors & (1u << i))
                items.push_back({ opColor(i), opColorLabel(i), 0 });
        items.push_back({ st.waiting, QStringLiteral("enqueued, not completed"), 0 });
        items.push_back({ st.timedOut, QStringLiteral("timed out"), 0 });
        items.push_back({ st.neverEntered, QStringLiteral("never entered"), 3 });
        items.push_back({ st.frontier, QStringLiteral("last completed"), 2 });
        if (scene.stuckSeq >= 0)
            items.push_back({ st.stuckOutline, QStringLiteral("stuck collective"), 4 });
    }
    return items;
}

void TimelinePainter::paintLegend(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame)
{
    if (frame.footerHeight <= 0)
        return;
    const TimelineStyle& st = m_style;
    const int w = frame.size.width();
    const int y = frame.size.height() - frame.footerHeight;
    p.fillRect(QRect(0, y, w, frame.footerHeight), st.headerBackground);
    p.setPen(st.grid);
    p.drawLine(0, y, w, y);
    const QFontMetrics fm(p.font());
    int x = 8;
    for (const TimelineLegendItem& it : legendItems(scene, frame)) {
        const int width = 12 + 4 + fm.horizontalAdvance(it.label) + 14;
        if (x + width > w)
            break; // what does not fit is left out rather than overlapped
        x += paintLegendItem(p, x, y, it.color, it.label, it.shape);
    }
}

void TimelinePainter::paintTimeTicks(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, int y, bool gridOnly)
{
    if (!scene.hasTime)
        return;
    const AxisMap& m = frame.map;
    const QFontMetrics fm(p.font());
    const std::int64_t startAbs = scene.originNs + static_cast<std::int64_t>(std::floor(m.start));
    const std::int64_t endAbs = scene.originNs + static_cast<std::int64_t>(std::ceil(m.end));
    const bool spansDays = model::civilFromNs(startAbs).day != model::civilFromNs(endAbs).day
        || endAbs - startAbs > 24 * 3600 * model::kNsPerSecond;
    const int labelWidth = fm.horizontalAdvance(
        spansDays ? QStringLiteral("00-00 00:00:00") : QStringLiteral("00:00:00.000"));
    const std::int64_t step = niceTimeStepNs((labelWidth + 28) * m.unitsPerPixel());
    const auto ticks = ticksBetween(startAbs, endAbs, step);
    if (gridOnly) {
        p.setPen(m_style.grid);
        const int bottom = frame.rows ? std::min(frame.size.height(),
                               frame.headerHeight + frame.rows->totalHeight() - frame.scrollY)
                                      : y;
        for (std::int64_t t : ticks) {
            const int x
                = static_cast<int>(std::round(m.toX(static_cast<double>(t - scene.originNs))));
            if (x >= frame.gutterWidth)
                p.drawLine(x, y, x, bottom);
        }
        return;
    }
    for (std::int64_t t : ticks) {
        const int x = static_cast<int>(std::round(m.toX(static_cast<double>(t - scene.originNs))));
        p.setPen(m_style.grid);
        p.drawLine(x, y + kAxisHeight - 5, x, y + kAxisHeight - 1);
        p.setPen(m_style.mutedText);
        const QString label = QString::fromStdString(formatTimeTick(t, step, spansDays));
        const int tw = fm.horizontalAdvance(label);
        if (x < frame.gutterWidth || x + 4 + tw > frame.size.width())
            continue; // a label is whole or absent
        p.drawText(
            QRect(x + 4, y, tw + 4, kAxisHeight - 2), Qt::AlignVCenter | Qt::AlignLeft, label);
    }
}

void TimelinePainter::paintSeqTicks(
    QPainter& p, const TimelineScene& scene, const TimelineFrame& frame, int y, bool gridOnly)
{
    const AxisMap& m = frame.map;
    const QFontMetrics fm(p.font());
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("#00000"));
    const std::int64_t step = niceSeqStep((labelWidth + 16) * m.unitsPerPixel());
    const auto ticks = ticksBetween(static_cast<std::int64_t>(std::floor(m.start)),
        static_cast<std::int64_t>(std::ceil(m.end)), step);
    const double cell = 1.0 / m.unitsPerPixel();
    if (gridOnly) {
        p.setPen(m_style.grid);
        const int bottom = frame.rows ? std::min(frame.size.height(),
                               frame.headerHeight + frame.rows->totalHeight() - frame.scrollY)
                                      : y;
        for (std::int64_t s : ticks) {
            const int x = static_cast<int>(std::round(m.toX(static_cast<double>(s))));
            if (x >= frame.gutterWidth)
                p.drawLine(x, y, x, bottom);
        }
        return;
    }
    // The stuck collective's cell in the axis is a filled tab, labelled even off-step.
    if (scene.stuckSeq >= 0) {
        const double x0 = m.toX(static_cast<double>(scene.stuckSeq));
        const double x1 = std::max(m.toX(static_cast<double>(scene.stuckSeq + 1)), x0 + 3.0);
        const QString label = QStringLiteral("#%1").arg(scene.stuckSeq);
        const int tw = fm.horizontalAdvance(label);
        const double w = std::max(x1 - x0, tw + 10.0);
        const QRectF tab((x0 + x1 - w) / 2, y + 3, w, kAxisHeight - 4);
        p.fillRect(tab, m_style.stuckOutline);
        p.setPen(theme::textOn(m_style.stuckOutline));
        p.drawText(tab, Qt::AlignCenter, label);
    }
    for (std::int64_t s : ticks) {
        if (s == scene.stuckSeq
            || (scene.stuckSeq >= 0
                && std::abs(
                       m.toX(static_cast<double>(s)) - m.toX(static_cast<double>(scene.stuckSeq)))
                    < labelWidth + 8))
            continue;
        // Labels centre on their cell when cells are wide, else sit at the cell's left edge.
        const double x0 = m.toX(static_cast<double>(s));
        const QString label = QStringLiteral("#%1").arg(s);
        const int tw = fm.horizontalAdvance(label);
        const int lx
            = cell > tw + 8 ? static_cast<int>(x0 + (cell - tw) / 2) : static_cast<int>(x0) + 4;
        if (lx < frame.gutterWidth + 2 || lx + tw > frame.size.width())
            continue;
        p.setPen(m_style.grid);
        p.drawLine(static_cast<int>(std::round(x0)), y + kAxisHeight - 5,
            static_cast<int>(std::round(x0)), y + kAxisHeight - 1);
        p.setPen(m_style.mutedText);
        p.drawText(QRect(lx, y, tw + 4, kAxisHeight - 2), Qt::AlignVCenter | Qt::AlignLeft, label);
    }
}

} // namespace rankscope::views
