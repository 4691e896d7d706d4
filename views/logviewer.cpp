#include "views/logviewer.h"

#include "model/evidencelocation.h"
#include "views/lineindex.h"
#include "views/logtextview.h"
#include "views/placeholderwidth.h"
#include "views/selectionstate.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rankscope::views {

namespace {

QToolButton* makeButton(QWidget* parent, const QIcon& icon, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setIcon(icon);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

} // namespace

LogViewer::LogViewer(SelectionState* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_text(new LogTextView(this))
    , m_sourcePicker(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_findBar(new QWidget(this))
    , m_findEdit(new QLineEdit(m_findBar))
    , m_findStatus(new QLabel(m_findBar))
    , m_severity(new QComboBox(this))
    , m_wrapButton(new QToolButton(this))
{
    m_sourcePicker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sourcePicker->setMinimumContentsLength(12);
    m_sourcePicker->setToolTip(tr("Source file (the selected rank's files are listed first)"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_sourcePicker, 3);
    // Shares the row with the picker rather than claiming its whole text's width: the dock
    // must fit a 1024 px window. Cut short when narrow; the tooltip holds all of it.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    top->addWidget(m_status, 2);
    auto* findButton = makeButton(
        this, style()->standardIcon(QStyle::SP_FileDialogContentsView), tr("Find (Ctrl+F)"));
    top->addWidget(findButton);
    // Severity comes from the events the parsers read off each line: the viewer never
    // guesses it from the text.
    m_severity->setObjectName(QStringLiteral("severityFilter"));
    m_severity->setToolTip(tr("Show only the lines that hold an event of this severity"));
    m_severity->addItem(tr("All lines"), -1);
    m_severity->addItem(tr("Errors"), static_cast<int>(model::Severity::Error));
    m_severity->addItem(tr("Warnings and errors"), static_cast<int>(model::Severity::Warning));
    m_severity->addItem(tr("Info and above"), static_cast<int>(model::Severity::Info));
    // Sized for a few characters, not for its longest item: the dock must fit a 1024 px window.
    m_severity->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_severity->setMinimumContentsLength(8);
    top->addWidget(m_severity);
    m_wrapButton->setObjectName(QStringLiteral("wrapLinesButton"));
    m_wrapButton->setText(tr("Wrap"));
    m_wrapButton->setToolTip(tr("Wrap long lines"));
    m_wrapButton->setCheckable(true);
    m_wrapButton->setChecked(m_text->wrapLines());
    m_wrapButton->setAutoRaise(true);
    top->addWidget(m_wrapButton);

    // Short enough to show whole beside its buttons in a 1024 px window (keepPlaceholderVisible
    // below); the tooltip says the rest.
    m_findEdit->setPlaceholderText(tr("Find in this file"));
    m_findEdit->setToolTip(
        tr("Find in this file, ignoring case (Enter: next, Shift+Enter: previous)"));
    m_findEdit->setClearButtonEnabled(true);
    keepPlaceholderVisible(m_findEdit);
    auto* previous = makeButton(
        m_findBar, style()->standardIcon(QStyle::SP_ArrowUp), tr("Previous match (Shift+F3)"));
    auto* next
        = makeButton(m_findBar, style()->standardIcon(QStyle::SP_ArrowDown), tr("Next match (F3)"));
    auto* close = makeButton(
        m_findBar, style()->standardIcon(QStyle::SP_DialogCloseButton), tr("Close (Esc)"));
    auto* findLayout = new QHBoxLayout(m_findBar);
    findLayout->setContentsMargins(0, 0, 0, 0);
    findLayout->addWidget(m_findEdit, 1);
    findLayout->addWidget(previous);
    findLayout->addWidget(next);
    findLayout->addWidget(m_findStatus);
    findLayout->addWidget(close);
    m_findBar->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_findBar);
    layout->addWidget(m_text, 1);

    // Actions with shortcuts (listed by Help → Keyboard shortcuts through their text).
    auto* findAction = new QAction(tr("Find in log"), this);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    auto* nextAction = new QAction(tr("Find next in log"), this);
    nextAction->setShortcut(QKeySequence::FindNext);
    nextAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    auto* previousAction = new QAction(tr("Find previous in log"), this);
    previousAction->setShortcut(QKeySequence::FindPrevious);
    previousAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(findAction);
    addAction(nextAction);
    addAction(previousAction);
    connect(findAction, &QAction::triggered, this, &LogViewer::showFind);
    connect(nextAction, &QAction::triggered, this, &LogViewer::findNext);
    connect(previousAction, &QAction::triggered, this, &LogViewer::findPrevious);
    connect(findButton, &QToolButton::clicked, this, &LogViewer::showFind);
    connect(next, &QToolButton::clicked, this, &LogViewer::findNext);
    connect(previous, &QToolButton::clicked, this, &LogViewer::findPrevious);
    auto* closeAction = new QAction(tr("Close the find bar"), m_findBar);
    closeAction->setShortcut(Qt::Key_Escape);
    closeAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_findBar->addAction(closeAction);
    const auto closeFind = [this] {
        m_findBar->hide();
        m_text->cancelFind();
        m_text->setSearchHighlight({});
        m_text->setFocus();
    };
    connect(close, &QToolButton::clicked, this, closeFind);
    connect(closeAction, &QAction::triggered, this, closeFind);
    connect(m_findEdit, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
    });
    connect(m_findEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_text->setSearchHighlight(text);
        m_findFound = false;
        m_findStatus->clear();
    });

    connect(m_text, &LogTextView::searchFinished, this, [this](bool found, bool wrapped) {
        m_findFound = found;
        m_findWrapped = wrapped;
        updateFindStatus();
    });
    connect(m_text, &LogTextView::matchCountChanged, this, [this] {
        if (m_findFound)
            updateFindStatus();
    });
    connect(m_wrapButton, &QToolButton::toggled, m_text, &LogTextView::setWrapLines);
    connect(m_text, &LogTextView::wrapLinesChanged, m_wrapButton, &QToolButton::setChecked);
    connect(m_severity, &QComboBox::currentIndexChanged, this, &LogViewer::applySeverityFilter);
    connect(m_severity, &QComboBox::activated, this,
        [this] { Q_EMIT severityFilterChosen(severityFilter()); });
    // The filter stays the user's choice when a jump opens a line it hides (the evidence line
    // of a verdict is often an info line); the status says why that line is there.
    connect(m_text, &LogTextView::lineShownDespiteFilterChanged, this, &LogViewer::updateStatus);
    connect(m_text, &LogTextView::linkToLineRequested, this, &LogViewer::copyLinkToLine);
    connect(m_text, &LogTextView::explainLineRequested, this, &LogViewer::explainLineRequested);
    connect(m_text, &LogTextView::selectionCopied, this, [this](qsizetype chars, bool truncated) {
        m_note = truncated ? tr("copied the first %1 characters").arg(QLocale().toString(chars))
                           : QString();
        updateStatus();
    });
    connect(m_text, &LogTextView::indexProgress, this, &LogViewer::updateStatus);
    connect(m_text, &LogTextView::currentLineChanged, this, &LogViewer::updateStatus);
    connect(m_text, &LogTextView::lineActivated, this, &LogViewer::onLineActivated);
    connect(m_sourcePicker, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_fillingPicker || index < 0)
            return;
        const QVariant id = m_sourcePicker->itemData(index);
        if (id.isValid())
            openSource(static_cast<model::SourceId>(id.toUInt()));
    });

    connect(m_selection, &SelectionState::documentChanged, this, &LogViewer::onDocumentChanged);
    connect(m_selection, &SelectionState::rankSelected, this, &LogViewer::onRankSelected);
    connect(m_selection, &SelectionState::evidenceSelected, this, &LogViewer::showEvidence);
    onDocumentChanged();
}

void LogViewer::onDocumentChanged()
{
    m_source = model::kNoSource;
    m_evidenceLines.clear();
    m_eventByLine.clear();
    m_openError.clear();
    m_text->clear();
    const DocumentPtr& doc = m_selection->document();
    if (doc && doc->diagnosis) {
        for (const model::Finding& finding : doc->diagnosis->findings) {
            for (const model::EvidenceLine& line : finding.evidence) {
                if (line.ref.valid())
                    m_evidenceLines[line.ref.source].push_back(line.ref.line);
            }
        }
        for (auto& lines : m_evidenceLines) {
            std::sort(lines.begin(), lines.end());
            lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
        }
    }
    fillSourcePicker(-1);
    updateStatus();
}

void LogViewer::fillSourcePicker(int rank)
{
    m_fillingPicker = true;
    m_sourcePicker->clear();
    const DocumentPtr& doc = m_selection->document();
    if (doc && doc->bundle) {
        const model::Bundle& bundle = *doc->bundle;
        std::vector<model::SourceId> first;
        if (const model::RankInfo* info = bundle.rankInfo(rank))
            first = info->sources;
        for (model::SourceId id : first) {
            if (const model::Source* s = bundle.source(id))
                m_sourcePicker->addItem(
                    tr("rank %1 · %2").arg(rank).arg(QString::fromStdString(s->path)), id);
        }
        if (!first.empty())
            m_sourcePicker->insertSeparator(m_sourcePicker->count());
        for (const model::Source& s : bundle.sources) {
            if (std::find(first.begin(), first.end(), s.id) != first.end())
                continue;
            QString label = QString::fromStdString(s.path);
            if (s.kind == model::SourceKind::Skipped)
                label += tr(" (not a log)");
            m_sourcePicker->addItem(label, s.id);
        }
    }
    const int index = m_sourcePicker->findData(m_source);
    m_sourcePicker->setCurrentIndex(index);
    m_fillingPicker = false;
}

bool LogViewer::openSource(model::SourceId source)
{
    if (source == m_source && m_text->hasSource())
        return true;
    const DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->sources || !doc->bundle || !doc->bundle->source(source))
        return false;
    auto opened = doc->sources->open(source);
    if (!opened) {
        m_openError = QString::fromStdString(opened.error().message);
        m_source = model::kNoSource;
        m_text->clear();
        updateStatus();
        return false;
    }
    m_openError.clear();
    m_source = source;
    m_text->setSource(opened.value());
    m_text->setMarkedLines(m_evidenceLines.value(source));
    m_note.clear();
    applySeverityFilter();
    if (m_findBar->isVisible())
        m_text->setSearchHighlight(m_findEdit->text());
    m_eventByLine.clear();
    const auto& events = doc->bundle->events;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].evidence.source == source)
            m_eventByLine.insert(events[i].evidence.line, static_cast<int>(i));
    }
    m_fillingPicker = true;
    m_sourcePicker->setCurrentIndex(m_sourcePicker->findData(source));
    m_fillingPicker = false;
    updateStatus();
    Q_EMIT sourceOpened(source);
    return true;
}

void LogViewer::showEvidence(const model::EvidenceRef& ref)
{
    if (!ref.valid() || !openSource(ref.source))
        return;
    // Offset 0 is only meaningful for line 1; otherwise it means "not recorded".
    const bool hasOffset = ref.offset != 0 || ref.line <= 1;
    m_text->goToLine(std::max<std::uint64_t>(1, ref.line),
        hasOffset ? std::optional<std::uint64_t>(ref.offset) : std::nullopt);
}

model::SourceId LogViewer::bestSourceOfRank(int rank) const
{
    const DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->bundle)
        return model::kNoSource;
    const model::RankInfo* info = doc->bundle->rankInfo(rank);
    if (!info || info->sources.empty())
        return model::kNoSource;
    // A source holding diagnosis evidence first, then the log with the most recognised lines.
    model::SourceId best = model::kNoSource;
    std::uint64_t bestScore = 0;
    for (model::SourceId id : info->sources) {
        const model::Source* s = doc->bundle->source(id);
        if (!s)
            continue;
        std::uint64_t score = s->recognisedLines + 1;
        if (s->kind == model::SourceKind::Log)
            score += 1'000'000'000ull;
        if (m_evidenceLines.contains(id))
            score += 2'000'000'000ull;
        if (best == model::kNoSource || score > bestScore) {
            best = id;
            bestScore = score;
        }
    }
    return best;
}

std::uint64_t LogViewer::firstInterestingLine(model::SourceId source, int rank) const
{
    const auto it = m_evidenceLines.constFind(source);
    if (it != m_evidenceLines.constEnd() && !it->empty())
        return it->front();
    const DocumentPtr& doc = m_selection->document();
    std::uint64_t warning = 0;
    for (const model::Event& e : doc->bundle->events) {
        if (e.evidence.source != source || (e.rank != rank && e.rank >= 0))
            continue;
        if (e.severity >= model::Severity::Error)
            return e.evidence.line;
        if (e.severity == model::Severity::Warning && warning == 0)
            warning = e.evidence.line;
    }
    return warning;
}

void LogViewer::onRankSelected(int rank)
{
    if (rank < 0)
        return;
    const DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->bundle)
        return;
    fillSourcePicker(rank);
    const model::RankInfo* info = doc->bundle->rankInfo(rank);
    if (info
        && std::find(info->sources.begin(), info->sources.end(), m_source) != info->sources.end())
        return; // already showing one of this rank's files
    const model::SourceId source = bestSourceOfRank(rank);
    if (source == model::kNoSource || !openSource(source))
        return;
    if (const std::uint64_t line = firstInterestingLine(source, rank))
        m_text->goToLine(line);
}

void LogViewer::onLineActivated(quint64 line)
{
    const auto it = m_eventByLine.constFind(line);
    if (it != m_eventByLine.constEnd())
        m_selection->selectEvent(*it);
}

void LogViewer::showFind()
{
    m_findBar->show();
    m_findEdit->setFocus();
    m_findEdit->selectAll();
    m_text->setSearchHighlight(m_findEdit->text());
}

void LogViewer::findNext()
{
    if (!m_findBar->isVisible() || m_findEdit->text().isEmpty())
        return showFind();
    m_findStatus->setText(tr("Searching…"));
    m_findFound = false;
    m_text->find(m_findEdit->text(), false);
}

void LogViewer::findPrevious()
{
    if (!m_findBar->isVisible() || m_findEdit->text().isEmpty())
        return showFind();
    m_findStatus->setText(tr("Searching…"));
    m_findFound = false;
    m_text->find(m_findEdit->text(), true);
}

QString LogViewer::statusText() const
{
    return m_status->text();
}

QString LogViewer::findStatusText() const
{
    return m_findStatus->text();
}

void LogViewer::updateFindStatus()
{
    if (!m_findFound) {
        m_findStatus->setText(m_text->searching() ? tr("Searching…") : tr("Not found"));
        return;
    }
    const QLocale locale;
    const auto ordinal = m_text->currentMatchOrdinal();
    const QString count = locale.toString(static_cast<qulonglong>(m_text->matchCount()));
    QString text = m_text->matchCountComplete()
        ? tr("match %1 of %2")
              .arg(ordinal ? locale.toString(static_cast<qulonglong>(*ordinal)) : tr("?"), count)
        : tr("match %1 of %2+ (counting…)")
              .arg(ordinal ? locale.toString(static_cast<qulonglong>(*ordinal)) : tr("?"), count);
    if (m_findWrapped)
        text += tr(" · wrapped");
    m_findStatus->setText(text);
}

void LogViewer::copyLinkToLine(quint64 line)
{
    const DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->bundle || m_source == model::kNoSource || line == 0)
        return;
    const QString link = QString::fromStdString(
        model::evidenceLocation(*doc->bundle, model::EvidenceRef { m_source, line, 0 }));
    QGuiApplication::clipboard()->setText(link);
    // Short, so the status keeps its place next to the picker; the link is in the tooltip.
    m_note = tr("link copied");
    updateStatus();
    m_status->setToolTip(tr("Copied %1").arg(link));
}

void LogViewer::setSeverityFilter(std::optional<model::Severity> atLeast)
{
    const int index = atLeast ? m_severity->findData(static_cast<int>(*atLeast)) : 0;
    if (index >= 0)
        m_severity->setCurrentIndex(index);
}

std::optional<model::Severity> LogViewer::severityFilter() const
{
    const int threshold = m_severity->currentData().toInt();
    if (threshold < 0)
        return std::nullopt;
    return static_cast<model::Severity>(threshold);
}

void LogViewer::applySeverityFilter()
{
    const int threshold = m_severity->currentData().toInt();
    const DocumentPtr& doc = m_selection->document();
    if (threshold < 0 || !doc || !doc->bundle || !m_text->hasSource()) {
        m_text->setLineFilter(std::nullopt);
        updateStatus();
        return;
    }
    const std::string_view bytes = m_text->bytes();
    std::vector<LogLineRef> lines;
    for (const model::Event& e : doc->bundle->events) {
        if (e.evidence.source != m_source || static_cast<int>(e.severity) < threshold
            || e.evidence.line == 0)
            continue;
        // Offset 0 is only meaningful for line 1; otherwise the index finds the line.
        std::uint64_t start = 0;
        if (e.evidence.offset != 0 || e.evidence.line == 1)
            start = LineIndex::lineStartAtOrBefore(bytes, e.evidence.offset);
        else if (e.evidence.line <= m_text->knownLines())
            start = m_text->index().offsetOfLine(e.evidence.line - 1);
        else
            continue;
        lines.push_back({ e.evidence.line, start });
    }
    std::sort(lines.begin(), lines.end(),
        [](const LogLineRef& a, const LogLineRef& b) { return a.line < b.line; });
    lines.erase(std::unique(lines.begin(), lines.end(),
                    [](const LogLineRef& a, const LogLineRef& b) { return a.line == b.line; }),
        lines.end());
    m_text->setLineFilter(std::move(lines));
    updateStatus();
}

void LogViewer::updateStatus()
{
    if (!m_openError.isEmpty()) {
        m_status->setText(tr("Cannot read this file: %1").arg(m_openError));
        return;
    }
    if (!m_text->hasSource()) {
        m_status->setText(
            m_selection->document() ? tr("Select a rank or an evidence line") : QString());
        return;
    }
    const QLocale locale;
    QString text;
    if (m_text->indexComplete()) {
        text = tr("%1 lines").arg(locale.toString(static_cast<qulonglong>(m_text->knownLines())));
    } else {
        const auto total = static_cast<double>(std::max<std::size_t>(1, m_text->bytes().size()));
        text = tr("indexing %1%")
                   .arg(static_cast<int>(
                       100.0 * static_cast<double>(m_text->index().indexedBytes()) / total));
    }
    if (m_text->currentLine() > 0)
        text = tr("line %1 · %2")
                   .arg(locale.toString(static_cast<qulonglong>(m_text->currentLine())), text);
    if (const auto shown = m_text->lineShownDespiteFilter(); shown && m_text->lineFiltered())
        text += QStringLiteral(" · ")
            + tr("line %1 shown though “%2” hides it")
                  .arg(locale.toString(static_cast<qulonglong>(*shown)), m_severity->currentText());
    if (!m_note.isEmpty())
        text += QStringLiteral(" · ") + m_note;
    m_status->setText(text);
    m_status->setToolTip(text);
}

void LogViewer::setLineExplainer(LineExplainer explainer)
{
    m_text->setLineExplainer(std::move(explainer));
}

} // namespace rankscope::views
