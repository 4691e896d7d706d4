#include "app/gui/mainwindow.h"

#include "app/about/version.h"
#include "app/core/explainline.h"
#include "app/gui/appearance.h"
#include "app/gui/chartspanel.h"
#include "app/gui/documentloader.h"
#include "app/gui/errorhub.h"
#include "app/gui/exportdialog.h"
#include "app/gui/logsearchdialog.h"
#include "app/gui/panelnavigator.h"
#include "app/gui/pastedlogs.h"
#include "app/gui/questionspanel.h"
#include "app/gui/rankspanel.h"
#include "app/gui/recentbundles.h"
#include "app/gui/viewpreferences.h"
#include "app/gui/welcomepage.h"
#include "model/countwords.h"
#include "model/ranklist.h"
#include "resources/embeddedresources.h"
#include "views/importissuesmodel.h"
#include "views/importissuesview.h"
#include "views/logviewer.h"
#include "views/pairheatmapview.h"
#include "views/ranktimelineview.h"
#include "views/rootcausepanel.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace rankscope::app {

namespace {

// Bump when docks are added or renamed: an older saved layout is then ignored.
constexpr int kLayoutVersion = 1;
// Percent of the window's width the root-cause dock gets by default and gets back on growing.
constexpr int kRootCauseSharePercent = 30;
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kLastDirKey = QStringLiteral("mainWindow/lastDirectory");

QString formatBytes(quint64 bytes)
{
    return QLocale().formattedDataSize(
        static_cast<qint64>(bytes), 1, QLocale::DataSizeTraditionalFormat);
}

QString formatEta(qint64 ms)
{
    if (ms < 0)
        return {};
    const qint64 s = (ms + 999) / 1000;
    if (s < 60)
        return QObject::tr("%1 s left").arg(s);
    return QObject::tr("%1 min %2 s left").arg(s / 60).arg(s % 60);
}

QString countText(std::size_t count, std::string_view one, std::string_view many)
{
    return QString::fromStdString(model::countWords(count, one, many));
}

// "hung-allreduce" for a folder, "run.tgz" for an archive, "3 files in logs" otherwise.
QString bundleName(const std::vector<std::string>& paths)
{
    QStringList list;
    for (const std::string& p : paths)
        list << QString::fromStdString(p);
    return RecentBundles::displayName(list);
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_selection(new views::SelectionState(this))
    , m_loader(new DocumentLoader(this))
    , m_central(new QStackedWidget(this))
    , m_welcome(new WelcomePage(m_central))
{
    setObjectName(QStringLiteral("rankscopeMainWindow"));
    setWindowTitle(tr("Rankscope"));
    setAcceptDrops(true);
    setDockOptions(
        QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);

    m_timeline = new views::RankTimelineView(m_selection, m_central);
    m_timeline->setObjectName(QStringLiteral("timelineView"));
    m_central->addWidget(m_welcome);
    m_central->addWidget(m_timeline);
    setCentralWidget(m_central);

    m_appearance = new Appearance(this);
    createDocks();
    // The view choices of the last run, before the actions that follow them are synced.
    m_viewPreferences = new ViewPreferences({ m_timeline, m_heatmap, m_logViewer, m_charts }, this);
    createActions();
    createStatusBar();

    connect(m_welcome, &WelcomePage::openSampleRequested, this, &MainWindow::openSampleBundle);
    connect(m_welcome, &WelcomePage::openFolderRequested, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePage::openFilesRequested, this, &MainWindow::chooseFiles);
    connect(m_welcome, &WelcomePage::openArchiveRequested, this, &MainWindow::chooseArchive);
    connect(m_welcome, &WelcomePage::openRecentRequested, this, &MainWindow::openPaths);
    connect(m_welcome, &WelcomePage::pasteRequested, this,
        [this](const QString& text, std::optional<int> rank) { addPastedLog(text, rank); });
    const QString sample = sampleBundlePath();
    m_welcome->setSamplePath(sample, QFileInfo(sample).isDir());

    connect(m_loader, &DocumentLoader::started, this, &MainWindow::onLoadStarted);
    connect(m_loader, &DocumentLoader::progress, this, &MainWindow::onLoadProgress);
    connect(m_loader, &DocumentLoader::summaryReady, this, &MainWindow::onSummary);
    connect(m_loader, &DocumentLoader::documentReady, this, &MainWindow::onDocument);
    connect(m_loader, &DocumentLoader::failed, this, &MainWindow::onLoadFailed);
    connect(m_loader, &DocumentLoader::cancelled, this, &MainWindow::onLoadCancelled);
    connect(
        m_selection, &views::SelectionState::rankSelected, this, &MainWindow::updateTitleAndStatus);

    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) {
        const QRect screen
            = this->screen() ? this->screen()->availableGeometry() : QRect(0, 0, 1280, 800);
        resize(screen.size() * 0.85);
    }
    m_workspaceState = settings.value(kStateKey).toByteArray();
    updateRecentMenu();
    showWelcome();
    updateTitleAndStatus();
}

MainWindow::~MainWindow() = default;

QString MainWindow::sampleBundlePath()
{
    const std::string dir
        = resources::samplesDirectory(QCoreApplication::applicationFilePath().toStdString());
    return QDir(QString::fromStdString(dir)).filePath(QStringLiteral("hung-allreduce"));
}

views::DocumentPtr MainWindow::document() const
{
    return m_selection->document();
}

bool MainWindow::welcomeShown() const
{
    return m_central->currentWidget() == m_welcome;
}

QDockWidget* MainWindow::dock(const QString& objectName) const
{
    for (QDockWidget* d : m_docks) {
        if (d->objectName() == objectName)
            return d;
    }
    return nullptr;
}

QDockWidget* MainWindow::addPanel(const QString& title, const QString& objectName, QWidget* panel)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
        | QDockWidget::DockWidgetFloatable);
    m_docks.append(dock);
    return dock;
}

void MainWindow::createDocks()
{
    m_rootCause = new views::RootCausePanel(m_selection, this);
    addPanel(tr("Root cause"), QStringLiteral("rootCauseDock"), m_rootCause);
    m_heatmap = new views::PairHeatmapView(m_selection, this);
    addPanel(tr("Pairs"), QStringLiteral("heatmapDock"), m_heatmap);
    m_ranks = new RanksPanel(m_selection, this);
    addPanel(tr("Ranks"), QStringLiteral("ranksDock"), m_ranks);
    m_logViewer = new views::LogViewer(m_selection, this);
    addPanel(tr("Log"), QStringLiteral("logDock"), m_logViewer);
    m_charts = new ChartsPanel(m_selection, this);
    addPanel(tr("Charts"), QStringLiteral("chartsDock"), m_charts);

    m_issues = new views::ImportIssuesModel(this);
    m_issuesTable = new views::ImportIssuesView(m_issues, m_selection, this);
    m_issuesTable->setObjectName(QStringLiteral("importIssuesTable"));
    addPanel(tr("Issues"), QStringLiteral("issuesDock"), m_issuesTable);
    m_errorHub = new ErrorHub(builtInErrorCatalogue(), this);
    addPanel(tr("Errors"), QStringLiteral("errorHubDock"), m_errorHub);
    m_questions = new QuestionsPanel(m_selection, this);
    addPanel(tr("Ask"), QStringLiteral("questionsDock"), m_questions);
    connect(m_questions, &QuestionsPanel::answered, this, [this] {
        if (QDockWidget* d = dock(QStringLiteral("questionsDock"))) {
            d->show();
            d->raise();
        }
    });
    // "What does this line mean?" on the lines the catalogue has an entry for.
    const views::LineExplainer explainer = [](const QString& line) {
        const parsers::ErrorCatalogue* catalogue = builtInErrorCatalogue();
        return catalogue && !catalogue->match(line.toStdString()).empty();
    };
    m_rootCause->setLineExplainer(explainer);
    m_logViewer->setLineExplainer(explainer);
    connect(m_rootCause, &views::RootCausePanel::explainLineRequested, this, &MainWindow::explainLine);
    connect(m_logViewer, &views::LogViewer::explainLineRequested, this, &MainWindow::explainLine);
    applyDefaultLayout();
}

void MainWindow::applyDefaultLayout()
{
    // Left: the answer. Centre: the timeline. Right: charts and pairs. Bottom: the log next
    // to the ranks table (the evidence and who is who), import issues behind the ranks.
    QDockWidget* rootCause = dock(QStringLiteral("rootCauseDock"));
    QDockWidget* heatmap = dock(QStringLiteral("heatmapDock"));
    QDockWidget* ranks = dock(QStringLiteral("ranksDock"));
    QDockWidget* log = dock(QStringLiteral("logDock"));
    QDockWidget* charts = dock(QStringLiteral("chartsDock"));
    QDockWidget* issues = dock(QStringLiteral("issuesDock"));
    QDockWidget* errorHub = dock(QStringLiteral("errorHubDock"));
    QDockWidget* questions = dock(QStringLiteral("questionsDock"));
    for (QDockWidget* d : m_docks) {
        d->setFloating(false);
        d->show();
    }
    addDockWidget(Qt::LeftDockWidgetArea, rootCause);
    addDockWidget(Qt::RightDockWidgetArea, charts);
    addDockWidget(Qt::RightDockWidgetArea, heatmap);
    tabifyDockWidget(charts, heatmap);
    tabifyDockWidget(heatmap, errorHub); // behind the charts until asked for (Help, a link)
    tabifyDockWidget(errorHub, questions); // raised by an answer
    addDockWidget(Qt::BottomDockWidgetArea, log);
    addDockWidget(Qt::BottomDockWidgetArea, ranks);
    splitDockWidget(log, ranks, Qt::Horizontal);
    tabifyDockWidget(ranks, issues);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    charts->raise();
    ranks->raise();
    applyDefaultSizes();
}

void MainWindow::applyDefaultSizes()
{
    QDockWidget* rootCause = dock(QStringLiteral("rootCauseDock"));
    QDockWidget* ranks = dock(QStringLiteral("ranksDock"));
    QDockWidget* log = dock(QStringLiteral("logDock"));
    QDockWidget* charts = dock(QStringLiteral("chartsDock"));
    const int w = std::max(width(), fontMetrics().height() * 60);
    const int h = std::max(height(), fontMetrics().height() * 40);
    resizeDocks(
        { rootCause, charts }, { w * kRootCauseSharePercent / 100, w * 24 / 100 }, Qt::Horizontal);
    resizeDocks({ log }, { h * 36 / 100 }, Qt::Vertical);
    resizeDocks({ log, ranks }, { w * 26 / 100, w * 20 / 100 }, Qt::Horizontal);
}

void MainWindow::keepRootCauseShare()
{
    // QMainWindow gives a growing window's width to the timeline only: a root-cause dock
    // squeezed by a small window or by another dock would stay squeezed. Give it back its
    // default share (as far as it wants: its size hint) whenever there is room again.
    QDockWidget* rootCause = dock(QStringLiteral("rootCauseDock"));
    if (!m_workspaceShown || !rootCause || rootCause->isFloating() || !rootCause->isVisible())
        return;
    const int share
        = std::min(rootCause->sizeHint().width(), width() * kRootCauseSharePercent / 100);
    if (rootCause->width() < share)
        resizeDocks({ rootCause }, { share }, Qt::Horizontal);
}

void MainWindow::resetLayout()
{
    applyDefaultLayout();
    // Sizes again once the docks have been laid out at their new places (and the window
    // has its final size when this runs right after show()).
    QTimer::singleShot(0, this, [this] {
        if (m_workspaceShown)
            applyDefaultSizes();
    });
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &Folder…"), this, &MainWindow::chooseFolder);
    openFolder->setShortcut(QKeySequence::Open);
    QAction* openFiles = file->addAction(tr("Open F&iles…"), this, &MainWindow::chooseFiles);
    openFiles->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* openArchive = file->addAction(tr("Open &Archive…"), this, &MainWindow::chooseArchive);
    openArchive->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    file->addAction(tr("Open the &Sample Bundle"), this, &MainWindow::openSampleBundle);
    m_recentMenu = file->addMenu(tr("&Recent"));
    file->addSeparator();
    m_exportAction = file->addAction(tr("&Export Report…"), this, &MainWindow::exportReport);
    m_exportAction->setObjectName(QStringLiteral("exportReportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setEnabled(false); // until a diagnosed bundle is on screen
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    // Ctrl+V / Shift+Insert anywhere in the window; a text field with the focus still
    // takes its own paste first (line edits claim the standard paste keys).
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* paste = edit->addAction(tr("&Paste Log"), this, &MainWindow::pasteLog);
    paste->setObjectName(QStringLiteral("pasteLogAction"));
    paste->setShortcuts(QKeySequence::keyBindings(QKeySequence::Paste));
    paste->setToolTip(tr("Add the clipboard's text to the bundle as a log and diagnose it"));
    QAction* pasteAsRank = edit->addAction(tr("Paste Log as &Rank…"), this, &MainWindow::pasteLogAsRank);
    pasteAsRank->setObjectName(QStringLiteral("pasteLogAsRankAction"));
    pasteAsRank->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));

    // Follow-up questions on what the views have selected (a rank in any view, a heatmap
    // cell, the stepped collective), or typed.
    QMenu* ask = menuBar()->addMenu(tr("&Ask"));
    QAction* whyRank = ask->addAction(tr("Why This &Rank?"), m_questions, &QuestionsPanel::askAboutSelectedRank);
    whyRank->setObjectName(QStringLiteral("whyRankAction"));
    whyRank->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    QAction* whyPair = ask->addAction(tr("Why This &Pair?"), m_questions, &QuestionsPanel::askAboutSelectedPair);
    whyPair->setObjectName(QStringLiteral("whyPairAction"));
    QAction* whoReached = ask->addAction(tr("&Who Reached This Collective?"), m_questions, &QuestionsPanel::askAboutSelectedCollective);
    whoReached->setObjectName(QStringLiteral("whoReachedAction"));
    QAction* askBox = ask->addAction(tr("&Ask a Question…"), this, [this] {
        if (QDockWidget* d = dock(QStringLiteral("questionsDock"))) {
            d->show();
            d->raise();
        }
        m_questions->questionBox()->setFocus(Qt::ShortcutFocusReason);
    });
    askBox->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // The toggles show and hide; Alt+N (Go to Panel) shows and focuses, never hides.
    for (QDockWidget* d : m_docks)
        m_viewMenu->addAction(d->toggleViewAction());
    (new PanelNavigator(this, m_central, m_docks))->addMenuTo(m_viewMenu);
    m_viewMenu->addSeparator();
    QMenu* mode = m_viewMenu->addMenu(tr("Timeline &axis"));
    m_timelineMode = new QActionGroup(this);
    QAction* byTime = mode->addAction(tr("&Wall-clock time"));
    QAction* bySeq = mode->addAction(tr("Collective &sequence number"));
    byTime->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    bySeq->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    for (QAction* a : { byTime, bySeq }) {
        a->setCheckable(true);
        m_timelineMode->addAction(a);
    }
    // The timeline owns its axis mode (it starts on the sequence axis when the logs carry
    // no wall-clock times); the menu follows it.
    const auto syncMode = [byTime, bySeq](views::RankTimelineView::AxisMode mode) {
        (mode == views::RankTimelineView::AxisMode::Time ? byTime : bySeq)->setChecked(true);
    };
    syncMode(m_timeline->axisMode());
    byTime->setObjectName(QStringLiteral("timeAxisAction"));
    bySeq->setObjectName(QStringLiteral("sequenceAxisAction"));
    connect(byTime, &QAction::triggered, m_timeline, &views::RankTimelineView::showTimeAxis);
    connect(bySeq, &QAction::triggered, m_timeline, &views::RankTimelineView::showSequenceAxis);
    connect(m_timeline, &views::RankTimelineView::axisModeChanged, this, syncMode);

    auto* timelineBar = addToolBar(tr("Timeline"));
    timelineBar->setObjectName(QStringLiteral("timelineToolBar"));
    timelineBar->addActions(m_timeline->toolBarActions());
    m_viewMenu->addAction(timelineBar->toggleViewAction());
    connect(m_timeline, &views::RankTimelineView::stepChanged, this,
        [this](const views::StepInfo& step) {
            m_stepLabel->setText(step.seq >= 0 ? step.summary() : QString());
        });
    m_viewMenu->addSeparator();
    auto* logSearch = new LogSearchDialog(m_selection, m_logViewer, this);
    QAction* searchLogs = m_viewMenu->addAction(
        tr("Search All &Logs…"), logSearch, &LogSearchDialog::showAndFocus);
    searchLogs->setObjectName(QStringLiteral("searchAllLogsAction"));
    searchLogs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    m_viewMenu->addMenu(m_appearance->createMenu(this));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts
        = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    QAction* about = help->addAction(tr("&About Rankscope"), this, [this] {
        QMessageBox::about(this, tr("About Rankscope"),
            tr("<h3>Rankscope %1</h3><p>Why did my multi-GPU training run hang? Rankscope reads "
               "the logs of a "
               "PyTorch/NCCL job, names the rank, GPU or link that stopped the others, and shows "
               "the lines "
               "that prove it.</p>"
               "<p>Documentation: <a href=\"%2\">%2</a>, <code>man rankscope</code>, "
               "<code>man rankscope-cli</code>; Help → Keyboard Shortcuts.</p>"
               "<p>Everything is read and diagnosed on this machine; nothing is uploaded.</p>")
                .arg(QString::fromStdString(rankscope::about::versionLine("Rankscope"))
                         .section(QLatin1Char(' '), 1),
                    QString::fromUtf8(rankscope::about::homepage().data(),
                        static_cast<qsizetype>(rankscope::about::homepage().size()))));
    });
    about->setMenuRole(QAction::AboutRole);
    QAction* hub = help->addAction(tr("NCCL &Error Hub"), this, [this] { explainLine({}); });
    hub->setObjectName(QStringLiteral("errorHubAction"));
    hub->setShortcut(QKeySequence(Qt::Key_F1));
    hub->setToolTip(tr("What the messages of a failed job mean, and what they do not"));
}

void MainWindow::explainLine(const QString& line)
{
    QDockWidget* hubDock = dock(QStringLiteral("errorHubDock"));
    if (!hubDock)
        return;
    hubDock->show();
    hubDock->raise();
    if (!line.isEmpty())
        m_errorHub->explain(line);
    m_errorHub->searchBox()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::createStatusBar()
{
    m_bundleLabel = new QLabel(this);
    m_verdictLabel = new QLabel(this);
    m_verdictLabel->setObjectName(QStringLiteral("verdictLabel"));
    m_stepLabel = new QLabel(this);
    m_progressLabel = new QLabel(this);
    m_progressBar = new QProgressBar(this);
    m_progressBar->setRange(0, 1000); // per mille, like heaptrack: smooth and cheap
    m_progressBar->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 30);
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop loading this bundle"));
    connect(m_cancelButton, &QToolButton::clicked, m_loader, &DocumentLoader::cancel);
    // Long bundle names and verdicts are cut in the status bar rather than holding the window
    // wider than a 1024 px screen; the title bar and the root-cause panel say it all.
    for (QLabel* label : { m_bundleLabel, m_verdictLabel, m_stepLabel })
        label->setMinimumWidth(fontMetrics().height());
    statusBar()->addWidget(m_bundleLabel);
    statusBar()->addWidget(m_verdictLabel);
    statusBar()->addWidget(m_stepLabel, 1);
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_progressBar);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_progressLabel->hide();
    m_progressBar->hide();
    m_cancelButton->hide();
}

void MainWindow::showWelcome()
{
    if (m_workspaceShown)
        m_workspaceState = saveState(kLayoutVersion);
    m_workspaceShown = false;
    for (QDockWidget* d : m_docks)
        d->hide();
    m_welcome->setRecent(RecentBundles::load());
    m_central->setCurrentWidget(m_welcome);
    setWorkspaceActionsEnabled(false);
}

void MainWindow::setWorkspaceActionsEnabled(bool enabled)
{
    // Stepping, zooming and asking need a bundle: on the welcome page they would do nothing.
    for (QAction* a : m_timeline->toolBarActions())
        a->setEnabled(enabled);
    for (const char* name : { "whyRankAction", "whyPairAction", "whoReachedAction" })
        if (QAction* a = findChild<QAction*>(QLatin1String(name)))
            a->setEnabled(enabled);
}

void MainWindow::showWorkspace()
{
    if (m_workspaceShown)
        return;
    m_workspaceShown = true;
    m_central->setCurrentWidget(m_timeline);
    setWorkspaceActionsEnabled(true);
    if (m_workspaceState.isEmpty() || !restoreState(m_workspaceState, kLayoutVersion))
        resetLayout();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QList<QStringList> recent = RecentBundles::load();
    for (const QStringList& paths : recent) {
        QAction* a = m_recentMenu->addAction(RecentBundles::displayName(paths));
        a->setToolTip(paths.join(QLatin1Char('\n')));
        a->setStatusTip(paths.join(QStringLiteral(", ")));
        connect(a, &QAction::triggered, this, [this, paths] { openPaths(paths); });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("&Clear"), this, [this] {
        RecentBundles::clear();
        updateRecentMenu();
        m_welcome->setRecent({});
    });
    clear->setEnabled(!recent.isEmpty());
}

QString MainWindow::lastDirectory() const
{
    return QSettings().value(kLastDirKey, QDir::homePath()).toString();
}

void MainWindow::rememberDirectory(const QString& path)
{
    QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
}

void MainWindow::chooseFolder()
{
    const QString dir
        = QFileDialog::getExistingDirectory(this, tr("Open a log folder"), lastDirectory());
    if (dir.isEmpty())
        return;
    QSettings().setValue(kLastDirKey, dir);
    openPaths({ dir });
}

void MainWindow::chooseFiles()
{
    const QStringList files
        = QFileDialog::getOpenFileNames(this, tr("Open log files"), lastDirectory(),
            tr("Logs (*.log *.txt *.out *.err *.json *.csv *.gz *.zst);;All files (*)"));
    if (files.isEmpty())
        return;
    rememberDirectory(files.front());
    openPaths(files);
}

void MainWindow::chooseArchive()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open an archive of logs"),
        lastDirectory(),
        tr("Archives (*.tar *.tar.gz *.tgz *.tar.zst *.tar.xz *.tar.bz2 *.zip);;All files (*)"));
    if (file.isEmpty())
        return;
    rememberDirectory(file);
    openPaths({ file });
}

void MainWindow::openSampleBundle()
{
    const QString path = sampleBundlePath();
    if (!QFileInfo(path).isDir()) {
        auto* box = new QMessageBox(QMessageBox::Information, tr("Sample bundle not found"),
            tr("The sample bundle is not installed at\n%1\n\nOpen your own logs with File → Open "
               "Folder…, "
               "or generate a bundle with rankscope-simulate.")
                .arg(QDir::toNativeSeparators(path)),
            QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
        return;
    }
    openPaths({ path });
}

void MainWindow::openPaths(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_pasted.clear();
    m_loader->load(paths); // supersedes a load in flight
}

std::optional<QString> MainWindow::addPastedLog(const QString& text, std::optional<int> rank)
{
    const std::optional<QString> name = m_pasted.add(text, rank);
    if (!name) {
        statusBar()->showMessage(tr("Nothing to paste: there is no text to read."), 5000);
        return std::nullopt;
    }
    // Into whatever is open (or opening): the bundle's paths stay, the pastes are added.
    m_loader->load(m_loader->currentPaths(), m_pasted.list());
    statusBar()->showMessage(tr("Pasted text added as %1.").arg(*name), 5000);
    return name;
}

void MainWindow::pasteLog()
{
    addPastedLog(QGuiApplication::clipboard()->text());
}

void MainWindow::pasteLogAsRank()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("Nothing to paste: the clipboard holds no text."), 5000);
        return;
    }
    bool ok = false;
    const int rank = QInputDialog::getInt(this, tr("Paste Log as Rank"),
        tr("Which rank printed this log?"), 0, 0, 1 << 20, 1, &ok);
    if (ok)
        addPastedLog(text, rank);
}

void MainWindow::onLoadStarted(const QStringList& paths)
{
    RecentBundles::add(paths); // pasted text is not remembered: it has no path to reopen
    updateRecentMenu();
    m_summary.reset();
    m_loadingName = RecentBundles::displayName(paths);
    if (!m_pasted.empty())
        m_loadingName = m_loadingName.isEmpty() ? m_pasted.names().join(QStringLiteral(", "))
                                                : tr("%1 and %n pasted log(s)", nullptr, static_cast<int>(m_pasted.list().size())).arg(m_loadingName);
    showWorkspace();
    m_selection->setLoading(true);
    if (!document())
        m_rootCause->setPendingText(tr("Loading %1…").arg(m_loadingName));
    m_progressBar->setValue(0);
    m_progressBar->show();
    m_progressLabel->show();
    m_cancelButton->show();
    m_progressLabel->setText(tr("Opening %1…").arg(m_loadingName));
}

void MainWindow::onLoadProgress(
    quint64 bytesDone, quint64 bytesTotal, quint32 filesDone, quint32 filesTotal, qint64 etaMs)
{
    if (bytesTotal > 0)
        m_progressBar->setValue(
            static_cast<int>(std::min<quint64>(1000, bytesDone * 1000 / bytesTotal)));
    QString text = m_summary
        ? tr("Diagnosing %1…").arg(m_loadingName)
        : tr("%1: %2 of %3 · %4/%5 files")
              .arg(m_loadingName, formatBytes(bytesDone), formatBytes(bytesTotal))
              .arg(filesDone)
              .arg(filesTotal);
    if (!m_summary && etaMs >= 0)
        text += QStringLiteral(" · ") + formatEta(etaMs);
    m_progressLabel->setText(text);
}

void MainWindow::onSummary(views::DocumentPtr summary)
{
    m_summary = std::move(summary);
    const model::Bundle& b = *m_summary->bundle;
    m_issues->setIssues(b.issues.list());
    if (!document()) {
        m_ranks->showSummary(m_summary);
        m_rootCause->setPendingText(tr("Loaded %1 on %2 from %3.\nDiagnosing…")
                                        .arg(countText(b.world.ranksSeen.size(), "rank", "ranks"),
                                            countText(b.world.hosts.size(), "host", "hosts"),
                                            countText(b.sources.size(), "file", "files")));
    }
    m_progressBar->setValue(1000);
    m_progressLabel->setText(tr("Diagnosing %1…").arg(m_loadingName));
    updateTitleAndStatus();
}

void MainWindow::onDocument(views::DocumentPtr document)
{
    m_summary.reset();
    m_selection->setLoading(false);
    m_progressBar->hide();
    m_progressLabel->hide();
    m_cancelButton->hide();
    m_rootCause->setPendingText({});
    m_selection->setDocument(document);
    const model::Bundle& b = *document->bundle;
    m_issues->setIssues(b.issues.list());
    if (QDockWidget* issues = dock(QStringLiteral("issuesDock")))
        issues->setWindowTitle(
            b.issues.empty() ? tr("Issues") : tr("Issues (%1)").arg(b.issues.total()));
    m_issuesTable->resizeColumnsToContents();
    selectFirstEvidence();
    updateTitleAndStatus();
    m_exportAction->setEnabled(document->diagnosis != nullptr);
    Q_EMIT documentShown(document);
}

void MainWindow::selectFirstEvidence()
{
    // Land the reader on the answer: the cause selected everywhere and the log open at the
    // verdict's first evidence line of that rank.
    const views::DocumentPtr doc = document();
    if (!doc || !doc->diagnosis)
        return;
    const model::Diagnosis& d = *doc->diagnosis;
    std::vector<std::int32_t> culprits = d.initiatingRanks;
    if (d.stuckPair)
        culprits = { d.stuckPair->first, d.stuckPair->second };
    if (!culprits.empty())
        m_selection->selectRank(culprits.front());
    if (d.findings.empty() || d.findings.front().evidence.empty())
        return;
    const auto& evidence = d.findings.front().evidence;
    const model::EvidenceLine* chosen = &evidence.front();
    if (!culprits.empty()) {
        const model::RankInfo* info = doc->bundle->rankInfo(culprits.front());
        for (const model::EvidenceLine& e : evidence) {
            if (info
                && std::find(info->sources.begin(), info->sources.end(), e.ref.source)
                    != info->sources.end()) {
                chosen = &e;
                break;
            }
        }
    }
    m_rootCause->activateEvidence(chosen->ref);
    if (!culprits.empty())
        m_selection->selectRank(culprits.front());
}

void MainWindow::onLoadFailed(const QString& message)
{
    m_summary.reset();
    m_selection->setLoading(false);
    m_progressBar->hide();
    m_progressLabel->hide();
    m_cancelButton->hide();
    m_rootCause->setPendingText(
        document() ? QString() : tr("Could not load %1:\n%2").arg(m_loadingName, message));
    m_issues->setIssues({}, message);
    if (QDockWidget* issues = dock(QStringLiteral("issuesDock"))) {
        issues->show();
        issues->raise();
    }
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not load the bundle"),
        tr("%1 could not be loaded:\n\n%2").arg(m_loadingName, message), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
    updateTitleAndStatus();
    Q_EMIT loadFailed(message);
}

void MainWindow::onLoadCancelled()
{
    m_summary.reset();
    m_selection->setLoading(false);
    m_progressBar->hide();
    m_progressLabel->hide();
    m_cancelButton->hide();
    if (!document()) {
        m_rootCause->setPendingText({});
        showWelcome();
    }
    statusBar()->showMessage(tr("Loading cancelled"), 5000);
    updateTitleAndStatus();
}

QString MainWindow::bundleInfoText() const
{
    const views::DocumentPtr doc = document() ? document() : m_summary;
    if (!doc || !doc->bundle)
        return {};
    const model::WorldInfo& w = doc->bundle->world;
    QString world = w.worldSize ? tr("world %1").arg(*w.worldSize) : tr("world size unknown");
    QString seen = tr("%1 seen").arg(countText(w.ranksSeen.size(), "rank", "ranks"));
    if (!w.ranksMissing.empty()) {
        seen += tr(", %1 missing (%2)")
                    .arg(w.ranksMissing.size())
                    .arg(QString::fromStdString(model::formatRanks(w.ranksMissing)));
    }
    const QString hosts
        = w.hosts.empty() ? tr("hosts unknown") : countText(w.hosts.size(), "host", "hosts");
    return tr("%1 · %2 · %3 · %4").arg(bundleName(doc->inputPaths), world, seen, hosts);
}

QString MainWindow::verdictText() const
{
    const views::DocumentPtr doc = document();
    if (!doc || !doc->diagnosis)
        return {};
    const model::Diagnosis& d = *doc->diagnosis;
    QString text = views::theme::statusLabel(d.status);
    if (d.rootCause != model::RootCauseClass::None)
        text += QStringLiteral(": ") + views::theme::rootCauseLabel(d.rootCause);
    text += tr(" (confidence %1)").arg(QString::number(d.confidence, 'f', 2));
    if (d.stuckPair)
        text += tr(" · pair %1 ⇄ %2").arg(d.stuckPair->first).arg(d.stuckPair->second);
    else if (!d.initiatingRanks.empty())
        text += tr(" · rank %1").arg(QString::fromStdString(model::formatRanks(d.initiatingRanks)));
    return text;
}

void MainWindow::updateTitleAndStatus()
{
    const QString info = bundleInfoText();
    const QString verdict = verdictText();
    m_bundleLabel->setText(info);
    m_verdictLabel->setText(
        verdict.isEmpty() ? QString() : QStringLiteral("<b>%1</b>").arg(verdict.toHtmlEscaped()));
    if (const views::DocumentPtr doc = document(); doc && doc->diagnosis) {
        QPalette pal = m_verdictLabel->palette();
        pal.setColor(
            QPalette::WindowText, views::theme::statusColor(doc->diagnosis->status, palette()));
        m_verdictLabel->setPalette(pal);
    }
    const int rank = m_selection->selectedRank();
    const views::DocumentPtr doc = document();
    m_stepLabel->setText(rank >= 0 && doc && doc->bundle
            ? tr("selected: %1").arg(QString::fromStdString(doc->bundle->describeRank(rank)))
            : QString());
    QString title = tr("Rankscope");
    if (doc)
        title = tr("%1 — %2").arg(
                    bundleName(doc->inputPaths), verdict.isEmpty() ? tr("loaded") : verdict)
            + QStringLiteral(" — ") + title;
    else if (m_summary)
        title = tr("%1 — diagnosing… — Rankscope").arg(bundleName(m_summary->inputPaths));
    setWindowTitle(title);
}

void MainWindow::exportReport()
{
    const views::DocumentPtr doc = document();
    if (!doc || !doc->diagnosis)
        return; // the action is disabled then; a shortcut can still arrive early
    auto* dialog = new ExportDialog(doc, ExportDialog::defaultOutputPath(doc), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::exported, this, [this](const QString& path) {
        statusBar()->showMessage(
            tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 10000);
    });
    dialog->open();
}

QList<QPair<QString, QString>> MainWindow::shortcutList() const
{
    QList<QPair<QString, QString>> rows;
    QStringList seen;
    const QList<QAction*> actions = findChildren<QAction*>();
    for (const QAction* a : actions) {
        if (a->shortcut().isEmpty())
            continue;
        QString text = a->text();
        text.remove(QLatin1Char('&'));
        text.remove(QStringLiteral("…"));
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        if (seen.contains(text + keys))
            continue;
        seen << text + keys;
        rows.append({ text, keys });
    }
    // Keys handled by the views themselves rather than by actions.
    rows.append({ tr("Log: top / bottom of the file"), QStringLiteral("Ctrl+Home / Ctrl+End") });
    rows.append({ tr("Log: find next / previous from the find bar"),
        QStringLiteral("Enter / Shift+Enter") });
    rows.append({ tr("Tables: sort by a column"), tr("click its header") });
    // The timeline handles its keys while it has focus (views/ranktimelineview.h).
    rows.append({ tr("Timeline: next / previous collective"),
        QStringLiteral("N / P, Alt+Right / Alt+Left") });
    rows.append({ tr("Timeline: zoom in / out, fit all"),
        QStringLiteral("+ / −, Ctrl+wheel, Ctrl+0 (or F)") });
    rows.append({ tr("Timeline: pan"),
        QStringLiteral("Left / Right, Shift+wheel, drag, drag the overview") });
    rows.append({ tr("Timeline: toggle time / sequence axis"), QStringLiteral("T") });
    rows.append({ tr("Timeline: previous / next rank"), QStringLiteral("Up / Down") });
    rows.append({ tr("Timeline: first / last rank"), QStringLiteral("Home / End") });
    rows.append({ tr("Timeline: go to rank"), QStringLiteral("Ctrl+G") });
    rows.append({ tr("Next / previous control (leaves a table)"), QStringLiteral("Tab / Shift+Tab") });
    rows.append({ tr("Timeline: show all ranks again"), QStringLiteral("Esc") });
    std::sort(rows.begin(), rows.end());
    return rows;
}

void MainWindow::showShortcuts()
{
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard shortcuts"));
    const auto rows = shortcutList();
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2, dialog);
    table->setHorizontalHeaderLabels({ tr("Action"), tr("Keys") });
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    const int em = fontMetrics().height();
    dialog->resize(em * 30, em * 28);
    dialog->show();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (event->size().width() > event->oldSize().width())
        QTimer::singleShot(0, this, &MainWindow::keepRootCauseShare);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_loader->cancel();
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, m_workspaceShown ? saveState(kLayoutVersion) : m_workspaceState);
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    const bool local = !urls.isEmpty()
        && std::all_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); });
    // Text dragged from a terminal or a browser is a pasted log.
    if (local || (urls.isEmpty() && event->mimeData()->hasText()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl& url : urls) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (paths.isEmpty()) {
        if (urls.isEmpty() && event->mimeData()->hasText() && addPastedLog(event->mimeData()->text()))
            event->acceptProposedAction();
        return;
    }
    event->acceptProposedAction();
    openPaths(paths);
}

} // namespace rankscope::app
