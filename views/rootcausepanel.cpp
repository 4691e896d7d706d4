#include "views/rootcausepanel.h"

#include "model/countwords.h"
#include "model/ranklist.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPointer>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <map>

namespace rankscope::views {

namespace {

// Rank links listed when the collateral list is expanded; beyond that the compact ranges
// say it all and thousands of links would only slow the panel down.
constexpr std::size_t kMaxRankLinks = 2048;
// Runs of ranks ("3-16", "18") shown per line of the collateral summary: scattered ranks of
// a large job would otherwise fill the panel with numbers (and cost tens of milliseconds of
// text layout on the GUI thread); "Show every rank" lists them all.
constexpr std::size_t kSummaryRankRuns = 24;

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString confidenceText(double confidence)
{
    return QString::number(confidence, 'f', 2);
}

// Long tokens in commands and log quotes (paths, KEY=VALUE, dotted names) may break after
// punctuation, so a narrow dock wraps them instead of cutting them off. The zero-width
// spaces are display-only: Copy uses the original text.
QString breakable(const QString& text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (const QChar c : text) {
        // Before an opening parenthesis, so it starts the next line rather than ends this one.
        if (c == QLatin1Char('(') && !out.isEmpty() && !out.back().isSpace())
            out.append(QChar(0x200B));
        out.append(c);
        if (c == QLatin1Char('/') || c == QLatin1Char('=') || c == QLatin1Char('_')
            || c == QLatin1Char(',') || c == QLatin1Char(':') || c == QLatin1Char('.')
            || c == QLatin1Char('-'))
            out.append(QChar(0x200B));
    }
    return out;
}

// A rank list for one summary line, at most kSummaryRankRuns runs, as HTML.
QString summaryRanks(const std::vector<std::int32_t>& ranks)
{
    std::size_t omitted = 0;
    QString text = breakable(QString::fromStdString(model::formatRanksAtMost(ranks, kSummaryRankRuns, omitted)))
                       .toHtmlEscaped();
    if (omitted == 1)
        text += QCoreApplication::translate("rankscope::views::RootCausePanel", " and 1 more run");
    else if (omitted > 1)
        text += QCoreApplication::translate("rankscope::views::RootCausePanel", " and %1 more runs").arg(omitted);
    return text;
}

// A filled, rounded label: status, class and confidence badges. One line when it fits;
// narrower than its text (a tiny dock, 200 % scaling) it wraps inside the same pill.
class Badge : public QWidget {
public:
    Badge(const QString& text, const QColor& fill, QWidget* parent)
        : QWidget(parent)
        , m_text(text)
        , m_fill(fill)
    {
        QFont f = font();
        f.setBold(true);
        setFont(f);
        setAccessibleName(text); // painted, so say it
        QSizePolicy policy(QSizePolicy::Maximum, QSizePolicy::Fixed);
        policy.setHeightForWidth(true);
        setSizePolicy(policy);
    }
    QSize sizeHint() const override
    {
        // The width the wrapping text layout needs for one line (a few pixels more than the
        // advance: bearings), so a badge given its hint never wraps.
        const QFontMetrics fm = fontMetrics();
        const int oneLine = fm.boundingRect(QRect(0, 0, 1 << 20, 1 << 20), kFlags, m_text).width();
        const int width = oneLine + 2 + 2 * padding();
        return { width, heightForWidth(width) };
    }
    QSize minimumSizeHint() const override
    {
        const int em = fontMetrics().height();
        return { std::min(sizeHint().width(), em * 3), heightForWidth(em * 3) };
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        const QFontMetrics fm = fontMetrics();
        const QRect text = fm.boundingRect(
            QRect(0, 0, std::max(1, width - 2 * padding()), 1 << 20), kFlags, m_text);
        return text.height() + fm.height() / 3;
    }
    QColor fill() const { return m_fill; }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(m_fill);
        const qreal radius = fontMetrics().height() / 2.6;
        p.drawRoundedRect(QRectF(rect()), radius, radius);
        p.setPen(theme::textOn(m_fill));
        p.drawText(rect().adjusted(padding(), 0, -padding(), 0), kFlags, m_text);
    }

private:
    static constexpr int kFlags = Qt::AlignCenter | Qt::TextWordWrap;
    int padding() const { return fontMetrics().height() / 2; }
    QString m_text;
    QColor m_fill;
};

// A clickable rank chip: a tinted box with an accent bar, the rank in bold and who it is.
// The subtitle wraps when the panel is narrower than the chip would like to be.
class Chip : public QWidget {
public:
    Chip(const QString& title, const QString& subtitle, const QColor& accent, QWidget* parent)
        : QWidget(parent)
        , m_title(breakable(title))
        , m_subtitle(breakable(subtitle))
        , m_accent(accent)
    {
        setCursor(Qt::PointingHandCursor);
        QSizePolicy policy(QSizePolicy::Maximum, QSizePolicy::Fixed);
        policy.setHeightForWidth(true);
        setSizePolicy(policy);
        setAttribute(Qt::WA_Hover);
        setAccessibleName(title + QStringLiteral(": ") + subtitle); // painted, so say it
    }
    std::function<void()> onClick;
    QColor background() const { return theme::tint(m_accent, palette()); }
    int accentWidth() const { return std::max(3, fontMetrics().height() / 5); }
    QSize sizeHint() const override
    {
        // One-line widths as the wrapping layout measures them (a little more than the
        // advance: bearings), so a chip given its hint never wraps.
        const QRect wide(0, 0, 1 << 20, 1 << 20);
        const int w = 2
            + std::max(titleFontMetrics().boundingRect(wide, kFlags, m_title).width(),
                fontMetrics().boundingRect(wide, kFlags, m_subtitle).width());
        const int width = textLeft() + w + padding();
        return { width, heightForWidth(width) };
    }
    QSize minimumSizeHint() const override
    {
        const int width = std::min(sizeHint().width(), fontMetrics().height() * 5);
        return { width, heightForWidth(width) };
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override
    {
        const QRect title = titleRect(width);
        return title.bottom() + 1 + subtitleRect(title).height() + padding() * 3 / 4;
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        QColor bg = background();
        if (underMouse())
            bg = theme::isDark(palette()) ? bg.lighter(120) : bg.darker(108);
        p.fillRect(rect(), bg);
        p.fillRect(QRect(0, 0, accentWidth(), height()), m_accent);
        const QRect title = titleRect(width());
        p.setFont(titleFont());
        p.setPen(palette().color(QPalette::Text));
        p.drawText(title, kFlags, m_title);
        p.setFont(font());
        p.drawText(subtitleRect(title), kFlags, m_subtitle);
    }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton && onClick)
            onClick();
    }

private:
    static constexpr int kFlags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    int padding() const { return fontMetrics().height() / 2; }
    int textLeft() const { return accentWidth() + padding(); }
    QFont titleFont() const
    {
        QFont bold = font();
        bold.setBold(true);
        bold.setPointSizeF(bold.pointSizeF() * 1.15);
        return bold;
    }
    QFontMetrics titleFontMetrics() const { return QFontMetrics(titleFont()); }
    // Text rectangles for a chip `width` wide; their heights follow the wrapped text.
    QRect titleRect(int width) const
    {
        const int textWidth = std::max(1, width - textLeft() - padding());
        const QRect r = titleFontMetrics().boundingRect(
            QRect(textLeft(), padding() / 2, textWidth, 1 << 20), kFlags, m_title);
        return { textLeft(), padding() / 2, textWidth, r.height() };
    }
    QRect subtitleRect(const QRect& title) const
    {
        const QRect r = fontMetrics().boundingRect(
            QRect(title.left(), title.bottom() + 1, title.width(), 1 << 20), kFlags, m_subtitle);
        return { title.left(), title.bottom() + 1, title.width(), r.height() };
    }

    QString m_title;
    QString m_subtitle;
    QColor m_accent;
};

// A frame that acts as one big button (evidence rows, finding headers).
class ClickableFrame : public QFrame {
public:
    explicit ClickableFrame(QWidget* parent)
        : QFrame(parent)
    {
        setCursor(Qt::PointingHandCursor);
        setAttribute(Qt::WA_Hover);
    }
    std::function<void()> onClick;

protected:
    void paintEvent(QPaintEvent* event) override
    {
        if (underMouse()) {
            QPainter p(this);
            QColor hover = palette().color(QPalette::Highlight);
            hover.setAlphaF(0.12f);
            p.fillRect(rect(), hover);
        }
        QFrame::paintEvent(event);
    }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton && onClick)
            onClick();
    }
};

// Lays its children out left to right and wraps to the next line when the panel is narrow,
// so badges and rank chips never force the panel wider than its dock.
class FlowBox : public QWidget {
public:
    explicit FlowBox(QWidget* parent)
        : QWidget(parent)
    {
        QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        policy.setHeightForWidth(true);
        setSizePolicy(policy);
    }
    void add(QWidget* child)
    {
        child->setParent(this);
        m_items.push_back(child);
        updateGeometry();
    }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return place(width, false); }
    QSize sizeHint() const override
    {
        int w = 0;
        for (QWidget* item : m_items)
            w += item->sizeHint().width() + spacing();
        return { w, heightForWidth(w) };
    }
    QSize minimumSizeHint() const override
    {
        int w = 0;
        for (QWidget* item : m_items)
            w = std::max(w, item->minimumSizeHint().width());
        return { w, heightForWidth(w) };
    }

protected:
    void resizeEvent(QResizeEvent*) override { place(width(), true); }

private:
    int spacing() const { return fontMetrics().height() / 2; }
    int place(int width, bool apply) const
    {
        int x = 0;
        int y = 0;
        int lineHeight = 0;
        for (QWidget* item : m_items) {
            // An item wider than the box gets the box's width and wraps its own text.
            QSize hint = item->sizeHint();
            hint.setWidth(std::min(hint.width(), std::max(1, width)));
            if (item->hasHeightForWidth())
                hint.setHeight(item->heightForWidth(hint.width()));
            if (x > 0 && x + hint.width() > width) {
                x = 0;
                y += lineHeight + spacing();
                lineHeight = 0;
            }
            if (apply)
                item->setGeometry(QRect(QPoint(x, y), hint));
            x += hint.width() + spacing();
            lineHeight = std::max(lineHeight, hint.height());
        }
        return y + lineHeight;
    }

    std::vector<QWidget*> m_items;
};

// Every plain-text label of the panel wraps, and may break inside long tokens too: a
// sentence quoting "ProcessGroupNCCL.cpp:1234" must not widen the panel past its dock.
QLabel* makeLabel(const QString& text, QWidget* parent, bool wrap = true)
{
    auto* label = new QLabel(wrap ? breakable(text) : text, parent);
    label->setWordWrap(wrap);
    label->setTextFormat(Qt::PlainText);
    return label;
}

// Sets a label's text colour. Labels on the panel's Base background draw with the Text role
// (the foreground that contrasts with their inherited background role), others with
// WindowText: set both.
void setTextColor(QWidget* widget, const QColor& color)
{
    QPalette pal = widget->palette();
    pal.setColor(QPalette::WindowText, color);
    pal.setColor(QPalette::Text, color);
    widget->setPalette(pal);
}

// Secondary text (headings, rule ids): the text colour faded towards the background.
// PlaceholderText is not used because some palettes give it an alpha the labels ignore.
QColor mutedText(const QPalette& pal)
{
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    const float a = 0.62f;
    return QColor::fromRgbF(text.redF() * a + base.redF() * (1 - a),
        text.greenF() * a + base.greenF() * (1 - a), text.blueF() * a + base.blueF() * (1 - a));
}

QString linkStyle(const QPalette& pal)
{
    return QStringLiteral("style=\"color:%1\"").arg(pal.color(QPalette::Link).name());
}

QLabel* makeHeading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(breakable(text.toUpper()), parent);
    label->setWordWrap(true);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 0.85);
    f.setLetterSpacing(QFont::PercentageSpacing, 108);
    label->setFont(f);
    setTextColor(label, mutedText(parent->palette()));
    return label;
}

QFont monospace(const QFont& base, double scale = 1.0)
{
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setPointSizeF(base.pointSizeF() * scale);
    return f;
}

// "node-03/attempt_0/3/stderr.log" from "bundle/node-03/attempt_0/3/stderr.log": the
// bundle's own folder name says nothing, the rest tells which rank's file it is (torchrun
// names every file stderr.log). Elided in the middle when long; the tooltip has it all.
QString shortPath(const std::string& path, const QFontMetrics& metrics, int width)
{
    QString shown = QString::fromStdString(path);
    const qsizetype slash = shown.indexOf(QLatin1Char('/'));
    if (slash > 0 && slash + 1 < shown.size())
        shown = shown.mid(slash + 1);
    return metrics.elidedText(shown, Qt::ElideMiddle, width);
}

QString rankSubtitle(const model::Bundle& bundle, const model::Diagnosis& d, int rank)
{
    QStringList parts;
    if (const model::RankInfo* info = bundle.rankInfo(rank)) {
        if (info->host != model::kNoStr)
            parts << fromStd(bundle.text(info->host));
        const int gpu = info->cudaDev >= 0 ? info->cudaDev : info->localRank;
        if (gpu >= 0)
            parts << QStringLiteral("GPU %1").arg(gpu);
    }
    for (const model::RankVerdict& v : d.ranks) {
        if (v.rank == rank) {
            parts << theme::initiatorLabel(d.rootCause, v.state);
            break;
        }
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace

RootCausePanel::RootCausePanel(SelectionState* selection, QWidget* parent)
    : QScrollArea(parent)
    , m_selection(selection)
{
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    connect(m_selection, &SelectionState::documentChanged, this, &RootCausePanel::rebuild);
    // Whatever moves the focus into the panel (Tab, Alt+C to a Copy button, a click) shows
    // the focused control: QScrollArea itself scrolls only for Tab.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (now && widget() && widget()->isAncestorOf(now))
            ensureWidgetVisible(now);
    });
    rebuild();
}

QSize RootCausePanel::sizeHint() const
{
    const int em = fontMetrics().height();
    return { em * 30, em * 40 };
}

QSize RootCausePanel::minimumSizeHint() const
{
    const int em = fontMetrics().height();
    return { em * 16, em * 10 };
}

void RootCausePanel::setPendingText(const QString& text)
{
    m_pendingText = text;
    rebuild();
}

void RootCausePanel::setLineExplainer(LineExplainer explainer)
{
    m_explainer = std::move(explainer);
    rebuild();
}

void RootCausePanel::changeEvent(QEvent* event)
{
    QScrollArea::changeEvent(event);
    // Colours are baked into the widgets at build time: rebuild with the new palette.
    if (event->type() == QEvent::PaletteChange && widget())
        QTimer::singleShot(0, this, &RootCausePanel::rebuild);
}

void RootCausePanel::activateEvidence(const model::EvidenceRef& ref)
{
    // The event written on that line, looked up on the click rather than for every evidence
    // line while a bundle opens: one pass over the events, off the path to the verdict.
    const DocumentPtr& doc = m_selection->document();
    if (doc && doc->bundle) {
        const auto& events = doc->bundle->events;
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (events[i].evidence.source == ref.source && events[i].evidence.line == ref.line) {
                m_selection->selectEvent(static_cast<int>(i)); // its rank and evidence too
                return;
            }
        }
    }
    m_selection->selectEvidence(ref);
}

void RootCausePanel::rebuild()
{
    const int scroll = verticalScrollBar()->value();
    // Created inside the viewport so every child inherits the panel's palette from the start.
    auto* content = new QWidget(viewport());
    content->setBackgroundRole(QPalette::Base);
    content->setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(content);
    const int gap = fontMetrics().height();
    layout->setContentsMargins(gap, gap, gap, gap);
    layout->setSpacing(gap);

    const DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->bundle || !doc->diagnosis) {
        layout->addWidget(buildEmpty(content));
        layout->addStretch(1);
        setWidget(content);
        return;
    }
    const model::Diagnosis& d = *doc->diagnosis;

    layout->addWidget(buildVerdict(content));
    if (QWidget* culprits = buildCulprits(content))
        layout->addWidget(culprits);
    if (QWidget* collateral = buildCollateral(content))
        layout->addWidget(collateral);
    if (d.status == model::DiagnosisStatus::NoHangFound && doc->reach)
        layout->addWidget(buildReach(content));
    if (!d.missingEvidence.empty())
        layout->addWidget(buildMissingEvidence(content));
    if (!d.findings.empty()) {
        layout->addWidget(makeHeading(
            tr("Findings (%1) — click a line to open it").arg(d.findings.size()), content));
        for (std::size_t i = 0; i < d.findings.size(); ++i)
            layout->addWidget(buildFinding(content, i));
    }
    layout->addStretch(1);
    setWidget(content);
    QTimer::singleShot(0, this, [this, scroll] { verticalScrollBar()->setValue(scroll); });
}

QWidget* RootCausePanel::buildEmpty(QWidget* parent)
{
    auto* label = makeLabel(
        m_pendingText.isEmpty() ? tr("Open a bundle to see why the run hung.") : m_pendingText,
        parent);
    label->setAlignment(Qt::AlignCenter);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 1.2);
    label->setFont(f);
    return label;
}

QWidget* RootCausePanel::buildVerdict(QWidget* parent)
{
    const DocumentPtr& doc = m_selection->document();
    const model::Diagnosis& d = *doc->diagnosis;
    const QPalette pal = palette();
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(fontMetrics().height() / 2);

    auto* badges = new FlowBox(box);
    auto* status = new Badge(
        theme::statusLabel(d.status).toUpper(), theme::statusColor(d.status, pal), badges);
    status->setObjectName(QStringLiteral("statusBadge"));
    badges->add(status);
    if (d.rootCause != model::RootCauseClass::None) {
        auto* cls = new Badge(theme::rootCauseLabel(d.rootCause), pal.color(QPalette::Mid), badges);
        cls->setObjectName(QStringLiteral("classBadge"));
        badges->add(cls);
    }
    const theme::SemanticColors c = theme::colors(pal);
    const QColor confidenceColor
        = d.confidence >= 0.75 ? c.ok : (d.confidence >= 0.5 ? c.warning : c.neutral);
    auto* confidence
        = new Badge(tr("confidence %1").arg(confidenceText(d.confidence)), confidenceColor, badges);
    confidence->setObjectName(QStringLiteral("confidenceBadge"));
    confidence->setToolTip(
        tr("How sure the diagnosis is (0–1), from the strength of the evidence its rules found"));
    badges->add(confidence);
    layout->addWidget(badges);

    // The sentence only: the class and confidence the engine appends for text readers are the
    // badges just above.
    auto* summary = makeLabel(fromStd(model::summarySentence(d)), box);
    summary->setObjectName(QStringLiteral("verdictSummary"));
    summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = summary->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setWeight(QFont::DemiBold);
    summary->setFont(big);
    layout->addWidget(summary);

    if (d.stuckCollective) {
        const model::StuckCollective& s = *d.stuckCollective;
        QString pgName = QString::fromStdString(s.processGroup);
        if (const model::Bundle* b = doc->bundle.get()) {
            const model::StrId key = b->strings.find(s.processGroup);
            if (const model::ProcessGroup* pg
                = key != model::kNoStr ? b->processGroup(key) : nullptr) {
                if (pg->desc != model::kNoStr)
                    pgName += QStringLiteral(" (%1)").arg(fromStd(b->text(pg->desc)));
            }
        }
        auto* stuck = new QLabel(box);
        stuck->setObjectName(QStringLiteral("stuckCollective"));
        stuck->setTextFormat(Qt::RichText);
        stuck->setWordWrap(true);
        stuck->setText(
            tr("Stuck collective: <a href=\"seq\" %4><b>%1 #%2</b></a> on process group %3")
                .arg(fromStd(model::torchName(s.op)).toHtmlEscaped())
                .arg(s.seq)
                .arg(breakable(pgName).toHtmlEscaped(), linkStyle(pal)));
        stuck->setToolTip(tr("Show this collective in the timeline"));
        const QString pg = QString::fromStdString(s.processGroup);
        const qint64 seq = s.seq;
        connect(stuck, &QLabel::linkActivated, this, [this, pg, seq] {
            m_selection->setProcessGroup(pg);
            m_selection->selectSeq(seq);
        });
        layout->addWidget(stuck);
    }
    return box;
}

QWidget* RootCausePanel::buildCulprits(QWidget* parent)
{
    const DocumentPtr& doc = m_selection->document();
    const model::Diagnosis& d = *doc->diagnosis;
    std::vector<std::int32_t> ranks = d.initiatingRanks;
    QString heading
        = ranks.size() == 1 ? tr("Initiating rank") : tr("Initiating ranks (%1)").arg(ranks.size());
    if (d.stuckPair) {
        heading = tr("Stuck pair");
        ranks = { d.stuckPair->first, d.stuckPair->second };
    }
    if (ranks.empty())
        return nullptr;
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(fontMetrics().height() / 3);
    layout->addWidget(makeHeading(heading + tr(" — click to follow"), box));
    auto* chips = new FlowBox(box);
    const QColor accent = theme::colors(palette()).initiating;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const int rank = ranks[i];
        auto* chip
            = new Chip(tr("rank %1").arg(rank), rankSubtitle(*doc->bundle, d, rank), accent, chips);
        chip->setObjectName(QStringLiteral("initiatingRank"));
        chip->setProperty("rank", rank);
        chip->setToolTip(tr("Select rank %1 in every view").arg(rank));
        chip->onClick = [this, rank] { m_selection->selectRank(rank); };
        chips->add(chip);
        if (d.stuckPair && i == 0) {
            auto* arrow = makeLabel(QStringLiteral("⇄"), chips, false);
            QFont f = arrow->font();
            f.setPointSizeF(f.pointSizeF() * 1.5);
            arrow->setFont(f);
            arrow->setMinimumHeight(chip->sizeHint().height());
            chips->add(arrow);
        }
    }
    layout->addWidget(chips);
    return box;
}

QWidget* RootCausePanel::buildCollateral(QWidget* parent)
{
    const DocumentPtr& doc = m_selection->document();
    const model::Diagnosis& d = *doc->diagnosis;
    if (d.collateralRanks.empty())
        return nullptr;
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(fontMetrics().height() / 3);
    layout->addWidget(makeHeading(tr("Collateral — waited on the cause"), box));

    // Group the collateral ranks by state: "timed out waiting" and "stuck in collective"
    // tell different stories.
    std::map<int, std::vector<std::int32_t>> byState;
    std::vector<model::RankState> stateOf(
        doc->bundle->ranks.size() + d.ranks.size() + 1, model::RankState::Unknown);
    for (const model::RankVerdict& v : d.ranks) {
        if (v.rank >= 0 && static_cast<std::size_t>(v.rank) < stateOf.size())
            stateOf[static_cast<std::size_t>(v.rank)] = v.state;
    }
    for (std::int32_t r : d.collateralRanks) {
        const model::RankState s = r >= 0 && static_cast<std::size_t>(r) < stateOf.size()
            ? stateOf[static_cast<std::size_t>(r)]
            : model::RankState::Unknown;
        byState[static_cast<int>(s)].push_back(r);
    }
    auto* summary = new QLabel(box);
    summary->setObjectName(QStringLiteral("collateralSummary"));
    summary->setWordWrap(true);
    summary->setTextFormat(Qt::RichText);
    QStringList lines;
    lines << tr("<b>%1</b>: %2")
                 .arg(d.collateralRanks.size() == 1 ? tr("1 rank")
                                                    : tr("%1 ranks").arg(d.collateralRanks.size()))
                 .arg(summaryRanks(d.collateralRanks));
    for (const auto& [state, ranks] : byState) {
        const QColor color = theme::rankStateColor(static_cast<model::RankState>(state), palette());
        lines << tr("<span style=\"color:%1\">■</span> %2 — %3: %4")
                     .arg(color.name(), theme::rankStateLabel(static_cast<model::RankState>(state)))
                     .arg(ranks.size())
                     .arg(summaryRanks(ranks));
    }
    summary->setText(lines.join(QStringLiteral("<br>")));
    layout->addWidget(summary);

    // The full list, one link per rank, built only when asked for.
    auto* toggle = new QToolButton(box);
    toggle->setObjectName(QStringLiteral("collateralToggle"));
    toggle->setText(tr("Show every rank"));
    toggle->setCheckable(true);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setAutoRaise(true);
    layout->addWidget(toggle);
    auto* full = new QLabel(box);
    full->setObjectName(QStringLiteral("collateralList"));
    full->setWordWrap(true);
    full->setTextFormat(Qt::RichText);
    full->hide();
    layout->addWidget(full);
    std::vector<std::int32_t> all = d.collateralRanks;
    const QString style = linkStyle(palette());
    connect(toggle, &QToolButton::toggled, this, [full, toggle, all, style](bool on) {
        toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        toggle->setText(on ? tr("Hide the list") : tr("Show every rank"));
        if (on && full->text().isEmpty()) {
            QStringList links;
            for (std::size_t i = 0; i < all.size() && i < kMaxRankLinks; ++i)
                links << QStringLiteral("<a href=\"rank:%1\" %2>%1</a>").arg(all[i]).arg(style);
            if (all.size() > kMaxRankLinks)
                links << tr("… and %1 more").arg(all.size() - kMaxRankLinks);
            full->setText(links.join(QStringLiteral(" ")));
        }
        full->setVisible(on);
    });
    connect(full, &QLabel::linkActivated, this,
        [this](const QString& link) { m_selection->selectRank(link.mid(5).toInt()); });
    return box;
}

QWidget* RootCausePanel::buildReach(QWidget* parent)
{
    const DocumentPtr& doc = m_selection->document();
    const model::Bundle& b = *doc->bundle;
    const model::JobReach& reach = *doc->reach;
    const QPalette pal = palette();
    const theme::SemanticColors c = theme::colors(pal);
    auto* box = new QWidget(parent);
    box->setObjectName(QStringLiteral("jobReach"));
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(fontMetrics().height() / 3);
    const auto count = [](std::size_t n, std::string_view one, std::string_view many) {
        return QString::fromStdString(model::countWords(n, one, many));
    };
    const auto addText = [&](const QString& html, const QString& objectName) {
        auto* label = new QLabel(html, box);
        label->setObjectName(objectName);
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
        layout->addWidget(label);
        return label;
    };

    // What was checked: every sign of a hang the rules act on, with how often it appeared.
    layout->addWidget(makeHeading(tr("What was checked"), box));
    QStringList checked;
    const auto parsed = std::count_if(b.sources.begin(), b.sources.end(),
        [](const model::Source& source) { return source.kind != model::SourceKind::Skipped; });
    const QString files = count(static_cast<std::size_t>(parsed), "file", "files");
    const QString read = b.world.worldSize
        ? tr("Read %1 from %2 of %3")
              .arg(files)
              .arg(b.world.ranksSeen.size())
              .arg(count(static_cast<std::size_t>(*b.world.worldSize), "rank", "ranks"))
        : tr("Read %1 from %2").arg(files, count(b.world.ranksSeen.size(), "rank", "ranks"));
    checked << read.toHtmlEscaped();
    for (const model::CheckedSignal& signal : reach.checked) {
        const QString what = fromStd(signal.what).toHtmlEscaped();
        checked << (signal.lines == 0
                ? tr("<span style=\"color:%1\">✓</span> %2: none").arg(c.ok.name(), what)
                : tr("<span style=\"color:%1\">●</span> %2: %3, none of them a hang")
                      .arg(c.warning.name(), what, count(signal.lines, "line", "lines")));
    }
    addText(checked.join(QStringLiteral("<br>")), QStringLiteral("reachChecked"));

    // How far the ranks got: the lowest and highest counter across ranks, and who is behind.
    layout->addWidget(makeHeading(tr("How far each rank got"), box));
    const auto spreadText = [&](const model::RankSpread& s) {
        if (s.lowest == s.highest)
            return tr("#%1 on %2").arg(s.highest).arg(s.ranks == 1
                    ? tr("its only rank")
                    : tr("all %1").arg(count(s.ranks, "rank", "ranks")));
        return tr("#%1 to #%2 across %3; rank %4 is furthest behind")
            .arg(s.lowest)
            .arg(s.highest)
            .arg(count(s.ranks, "rank", "ranks"))
            .arg(s.lowestRank);
    };
    QStringList reached;
    for (const model::GroupReach& g : reach.groups) {
        QString name = fromStd(g.processGroup);
        if (!g.description.empty())
            name += QStringLiteral(" (%1)").arg(fromStd(g.description));
        reached << tr("Process group %1: last completed collective %2")
                       .arg(name, spreadText(g.lastCompleted))
                       .toHtmlEscaped();
    }
    if (reach.trainingStep.ranks > 0)
        reached << tr("Training step %1").arg(spreadText(reach.trainingStep)).toHtmlEscaped();
    if (reached.isEmpty())
        reached << tr("These logs carry no collective counters and no training steps: PyTorch "
                      "prints its counters only when a collective times out.")
                       .toHtmlEscaped();
    addText(reached.join(QStringLiteral("<br>")), QStringLiteral("reachProgress"));

    // When the job was last seen making progress (a link opens that line).
    layout->addWidget(makeHeading(tr("Last seen making progress"), box));
    QString last;
    if (reach.lastProgress.valid()) {
        last = tr("<a href=\"last\" %1>%2</a>%3")
                   .arg(linkStyle(pal), QString::fromStdString(model::formatTime(reach.lastProgress)),
                       reach.lastProgressRank >= 0
                           ? tr(" on rank %1").arg(reach.lastProgressRank)
                           : QString());
        if (reach.lastLine.valid() && reach.lastLine.ns > reach.lastProgress.ns)
            last += tr("; its last line at %1")
                        .arg(QString::fromStdString(model::formatTime(reach.lastLine)));
    } else if (reach.lastLine.valid()) {
        last = tr("No recognised line shows a step or a collective with a time; the last "
                  "line with a time of its own is at %1.")
                   .arg(QString::fromStdString(model::formatTime(reach.lastLine)));
    } else {
        last = tr("No recognised line carries a wall-clock time of its own, so when the job "
                  "last moved cannot be told.");
    }
    QLabel* lastLabel = addText(last, QStringLiteral("reachLastProgress"));
    const model::EvidenceRef lastLine = reach.lastProgressLine;
    connect(lastLabel, &QLabel::linkActivated, this, [this, lastLine] { activateEvidence(lastLine); });
    return box;
}

QWidget* RootCausePanel::buildMissingEvidence(QWidget* parent)
{
    const model::Diagnosis& d = *m_selection->document()->diagnosis;
    auto* frame = new QFrame(parent);
    frame->setObjectName(QStringLiteral("missingEvidence"));
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setAutoFillBackground(true);
    QPalette pal = frame->palette();
    pal.setColor(QPalette::Window, theme::tint(theme::colors(palette()).warning, palette()));
    frame->setPalette(pal);
    auto* layout = new QVBoxLayout(frame);
    layout->addWidget(makeHeading(tr("What is missing — collect this next time"), frame));
    QString html = QStringLiteral("<ul style=\"margin-left:0; -qt-list-indent:1\">");
    for (const std::string& item : d.missingEvidence)
        html += QStringLiteral("<li>%1</li>")
                    .arg(breakable(QString::fromStdString(item)).toHtmlEscaped());
    html += QStringLiteral("</ul>");
    auto* list = new QLabel(html, frame);
    list->setTextFormat(Qt::RichText);
    list->setWordWrap(true);
    list->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(list);
    return frame;
}

QWidget* RootCausePanel::buildFinding(QWidget* parent, std::size_t index)
{
    const DocumentPtr& doc = m_selection->document();
    const model::Bundle& bundle = *doc->bundle;
    const model::Finding& f = doc->diagnosis->findings[index];
    const QPalette pal = palette();
    const int em = fontMetrics().height();

    auto* card = new QFrame(parent);
    card->setObjectName(QStringLiteral("findingCard"));
    card->setFrameShape(QFrame::StyledPanel);
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(em / 2, em / 2, em / 2, em / 2);
    cardLayout->setSpacing(em / 3);

    // Header: arrow, number and title, confidence; a click folds the card.
    auto* header = new ClickableFrame(card);
    auto* headerLayout = new QHBoxLayout(header);
    headerLayout->setContentsMargins(0, 0, 0, 0);
    auto* arrow = makeLabel(QString(), header, false);
    arrow->setAlignment(Qt::AlignTop);
    auto* title = makeLabel(
        QStringLiteral("%1. %2").arg(index + 1).arg(QString::fromStdString(f.title)), header);
    QFont bold = title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.08);
    title->setFont(bold);
    const theme::SemanticColors c = theme::colors(pal);
    auto* confidence = new Badge(confidenceText(f.confidence),
        f.confidence >= 0.75 ? c.ok : (f.confidence >= 0.5 ? c.warning : c.neutral), header);
    confidence->setToolTip(tr("Confidence of this finding"));
    headerLayout->addWidget(arrow, 0, Qt::AlignTop);
    headerLayout->addWidget(title, 1);
    headerLayout->addWidget(confidence, 0, Qt::AlignTop);
    cardLayout->addWidget(header);

    // The rule id is what reports and the CLI print; here it is only a tooltip, for whoever
    // wants to look the rule up.
    header->setToolTip(tr("Found by rule %1. Click to show or hide the details")
                           .arg(QString::fromStdString(f.rule)));
    if (!f.ranks.empty()) {
        auto* metaLabel = makeLabel(f.ranks.size() == 1
                ? tr("About rank %1").arg(f.ranks.front())
                : tr("About ranks %1").arg(QString::fromStdString(model::formatRanks(f.ranks))),
            card);
        metaLabel->setObjectName(QStringLiteral("findingRanks"));
        setTextColor(metaLabel, mutedText(pal));
        metaLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
        cardLayout->addWidget(metaLabel);
    }

    auto* body = new QWidget(card);
    auto* bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(0, em / 3, 0, 0);
    bodyLayout->setSpacing(em / 3);
    cardLayout->addWidget(body);

    if (!f.explanation.empty()) {
        auto* explanation = makeLabel(QString::fromStdString(f.explanation), body);
        explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
        bodyLayout->addWidget(explanation);
    }

    // Where the program issued the diverging call (Flight Recorder frames, innermost first).
    if (!f.codeLocation.empty()) {
        bodyLayout->addSpacing(em / 3);
        bodyLayout->addWidget(makeHeading(tr("Code location"), body));
        QStringList frames;
        for (const std::string& frame : f.codeLocation)
            frames << QString::fromStdString(frame);
        auto* code = makeLabel(frames.join(QLatin1Char('\n')), body);
        code->setObjectName(QStringLiteral("codeLocation"));
        code->setFont(monospace(font(), 0.9));
        code->setTextInteractionFlags(Qt::TextSelectableByMouse);
        code->setToolTip(tr("Python frames of the call, innermost first"));
        bodyLayout->addWidget(code);
    }

    if (!f.evidence.empty()) {
        bodyLayout->addSpacing(em / 3);
        bodyLayout->addWidget(makeHeading(tr("Evidence"), body));
        for (const model::EvidenceLine& e : f.evidence) {
            auto* row = new ClickableFrame(body);
            row->setObjectName(QStringLiteral("evidenceRow"));
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(em / 4, em / 6, em / 4, em / 6);
            rowLayout->setSpacing(em / 2);
            auto* bar = new QFrame(row);
            bar->setFixedWidth(std::max(2, em / 6));
            bar->setAutoFillBackground(true);
            QPalette barPal = bar->palette();
            barPal.setColor(QPalette::Window, c.warning);
            bar->setPalette(barPal);
            rowLayout->addWidget(bar);
            auto* texts = new QVBoxLayout;
            texts->setSpacing(0);
            const model::Source* source = bundle.source(e.ref.source);
            auto* location = makeLabel(QString(), row);
            QFont locFont = location->font();
            locFont.setBold(true);
            location->setFont(locFont);
            const QString suffix = QStringLiteral(":%1").arg(e.ref.line);
            const QFontMetrics locMetrics(locFont);
            location->setText(source
                    ? breakable(shortPath(source->path, locMetrics, em * 16) + suffix)
                    : tr("(unknown source)"));
            setTextColor(location, pal.color(QPalette::Link));
            auto* quote = makeLabel(QString::fromStdString(e.text), row);
            quote->setFont(monospace(font(), 0.92));
            texts->addWidget(location);
            texts->addWidget(quote);
            const QString quoted = QString::fromStdString(e.text);
            if (m_explainer && m_explainer(quoted)) {
                auto* explain = new QLabel(
                    QStringLiteral("<a href=\"explain\">%1</a>").arg(tr("What does this line mean?")), row);
                explain->setObjectName(QStringLiteral("explainLink"));
                explain->setTextFormat(Qt::RichText);
                explain->setWordWrap(true);
                explain->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
                explain->setToolTip(tr("Open this message in the NCCL Error Hub"));
                connect(explain, &QLabel::linkActivated, this, [this, quoted] { Q_EMIT explainLineRequested(quoted); });
                texts->addWidget(explain);
            }
            rowLayout->addLayout(texts, 1);
            if (source)
                row->setToolTip(tr("Open %1 at line %2")
                                    .arg(QString::fromStdString(source->path))
                                    .arg(e.ref.line));
            const model::EvidenceRef ref = e.ref;
            row->onClick = [this, ref] { activateEvidence(ref); };
            bodyLayout->addWidget(row);
        }
    }

    if (!f.fix.empty()) {
        bodyLayout->addSpacing(em / 3);
        bodyLayout->addWidget(makeHeading(tr("Fix"), body));
        QString html = QStringLiteral("<ol style=\"margin-left:0; -qt-list-indent:1\">");
        for (const std::string& step : f.fix)
            html += QStringLiteral("<li>%1</li>")
                        .arg(breakable(QString::fromStdString(step)).toHtmlEscaped());
        html += QStringLiteral("</ol>");
        auto* fix = new QLabel(html, body);
        fix->setTextFormat(Qt::RichText);
        fix->setWordWrap(true);
        fix->setTextInteractionFlags(Qt::TextSelectableByMouse);
        bodyLayout->addWidget(fix);
    }

    if (!f.verify.empty()) {
        bodyLayout->addSpacing(em / 3);
        bodyLayout->addWidget(makeHeading(tr("Verify"), body));
        for (const model::VerifyStep& step : f.verify) {
            // Only a command gets the Copy button; its note is prose and stays out of it.
            if (step.command.empty()) {
                auto* instruction = makeLabel(QString::fromStdString(step.note), body);
                instruction->setObjectName(QStringLiteral("verifyInstruction"));
                instruction->setTextInteractionFlags(Qt::TextSelectableByMouse);
                bodyLayout->addWidget(instruction);
                continue;
            }
            const std::string& command = step.command;
            auto* row = new QFrame(body);
            row->setAutoFillBackground(true);
            row->setBackgroundRole(QPalette::AlternateBase);
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(em / 3, em / 6, em / 6, em / 6);
            auto* text = makeLabel(QString::fromStdString(command), row);
            text->setFont(monospace(font(), 0.92));
            text->setTextInteractionFlags(Qt::TextSelectableByMouse);
            auto* copy = new QToolButton(row);
            copy->setObjectName(QStringLiteral("copyButton"));
            // Alt+C reaches the Copy buttons from the keyboard (the first, then the next
            // on each press), Space copies.
            copy->setText(tr("&Copy"));
            copy->setToolTip(tr("Copy this command to the clipboard (Alt+C, Space)"));
            const QString commandText = QString::fromStdString(command);
            connect(copy, &QToolButton::clicked, copy, [copy, commandText] {
                QGuiApplication::clipboard()->setText(commandText);
                copy->setText(tr("&Copied ✓")); // Alt+C still reaches it
                QPointer<QToolButton> guard(copy);
                QTimer::singleShot(1500, copy, [guard] {
                    if (guard)
                        guard->setText(tr("&Copy"));
                });
            });
            rowLayout->addWidget(text, 1);
            rowLayout->addWidget(copy, 0, Qt::AlignTop);
            bodyLayout->addWidget(row);
            if (!step.note.empty()) {
                auto* note = makeLabel(QString::fromStdString(step.note), body);
                note->setObjectName(QStringLiteral("verifyNote"));
                note->setIndent(em);
                note->setTextInteractionFlags(Qt::TextSelectableByMouse);
                bodyLayout->addWidget(note);
            }
        }
    }

    if (!f.confirm.empty()) {
        bodyLayout->addSpacing(em / 3);
        bodyLayout->addWidget(makeHeading(tr("How to confirm"), body));
        for (const std::string& item : f.confirm) {
            auto* row = new QHBoxLayout;
            row->setSpacing(em / 3);
            auto* check = new QCheckBox(body);
            check->setObjectName(QStringLiteral("confirmCheck"));
            auto* text = makeLabel(QString::fromStdString(item), body);
            text->setBuddy(check);
            // Clicking the wrapped text toggles the box, as a checkbox label would.
            auto* clickable = new ClickableFrame(body);
            auto* clickableLayout = new QHBoxLayout(clickable);
            clickableLayout->setContentsMargins(0, 0, 0, 0);
            clickableLayout->addWidget(text);
            clickable->onClick = [check] { check->toggle(); };
            row->addWidget(check, 0, Qt::AlignTop);
            row->addWidget(clickable, 1);
            bodyLayout->addLayout(row);
        }
    }

    // The verdict's finding opens expanded; the supporting ones start folded so the panel
    // reads top-down without a wall of text.
    const bool expanded = index == 0;
    body->setVisible(expanded);
    arrow->setText(expanded ? QStringLiteral("▾") : QStringLiteral("▸"));
    header->onClick = [body, arrow] {
        body->setVisible(!body->isVisible());
        arrow->setText(body->isVisible() ? QStringLiteral("▾") : QStringLiteral("▸"));
    };
    return card;
}

} // namespace rankscope::views
