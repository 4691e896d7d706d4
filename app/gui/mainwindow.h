#pragma once
// The Rankscope main window: a welcome page until a bundle is open, then the timeline in
// the centre with the root cause, heatmap, ranks, log, charts and import-issue docks around
// it. Bundles load in the background (DocumentLoader) with progress and Cancel in the
// status bar; the title and status bar name the bundle, its world and the verdict.

#include "app/gui/pastedlogs.h"
#include "views/bundledocument.h"

#include <QByteArray>
#include <QMainWindow>
#include <QStringList>

#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace rankscope::views {
class ImportIssuesModel;
class RankTimelineView;
class LogViewer;
class PairHeatmapView;
class RootCausePanel;
class SelectionState;
} // namespace rankscope::views

namespace rankscope::app {

class ChartsPanel;
class Appearance;
class ViewPreferences;
class ErrorHub;
class QuestionsPanel;
class DocumentLoader;
class RanksPanel;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a new bundle: the pasted logs of the one before are let go.
    void openPaths(const QStringList& paths);
    // Adds `text` to the open bundle as a pasted log (or diagnoses it alone when nothing is
    // open) and reloads; returns the name it is shown under, or nothing for blank text.
    std::optional<QString> addPastedLog(const QString& text, std::optional<int> rank = std::nullopt);
    // Edit → Paste Log: the clipboard's text as a pasted log.
    void pasteLog();
    void pasteLogAsRank();
    // Opens the NCCL Error Hub on the entries that explain `line` (all of them for none).
    void explainLine(const QString& line);
    ErrorHub* errorHub() const { return m_errorHub; }
    QuestionsPanel* questionsPanel() const { return m_questions; }
    Appearance* appearance() const { return m_appearance; }
    const PastedLogs& pastedLogs() const { return m_pasted; }
    void openSampleBundle();
    // Where the built-in sample bundle lives (it may be missing).
    static QString sampleBundlePath();

    views::SelectionState* selection() const { return m_selection; }
    DocumentLoader* loader() const { return m_loader; }
    views::DocumentPtr document() const;
    bool welcomeShown() const;
    QString bundleInfoText() const;
    QString verdictText() const;
    QDockWidget* dock(const QString& objectName) const;
    views::LogViewer* logViewer() const { return m_logViewer; }
    views::RootCausePanel* rootCausePanel() const { return m_rootCause; }
    RanksPanel* ranksPanel() const { return m_ranks; }
    views::RankTimelineView* timeline() const { return m_timeline; }
    ChartsPanel* chartsPanel() const { return m_charts; }
    // Enabled once a diagnosed bundle is on screen.
    QAction* exportAction() const { return m_exportAction; }
    // Every action with a shortcut, as (text, shortcut) rows for the Help dialog.
    QList<QPair<QString, QString>> shortcutList() const;

public Q_SLOTS:
    // File → Export Report…: the export dialog for the document on screen (issue 5).
    virtual void exportReport();
    void resetLayout();
    void showShortcuts();

Q_SIGNALS:
    // The full document (with its diagnosis) is on screen.
    void documentShown(rankscope::views::DocumentPtr document);
    void loadFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createDocks();
    void createStatusBar();
    void applyDefaultLayout();
    void applyDefaultSizes();
    void keepRootCauseShare();
    void showWelcome();
    void showWorkspace();
    void setWorkspaceActionsEnabled(bool enabled);
    void updateRecentMenu();
    void updateTitleAndStatus();
    void chooseFolder();
    void chooseFiles();
    void chooseArchive();
    void onLoadStarted(const QStringList& paths);
    void onLoadProgress(
        quint64 bytesDone, quint64 bytesTotal, quint32 filesDone, quint32 filesTotal, qint64 etaMs);
    void onSummary(views::DocumentPtr summary);
    void onDocument(views::DocumentPtr document);
    void onLoadFailed(const QString& message);
    void onLoadCancelled();
    void selectFirstEvidence();
    QDockWidget* addPanel(const QString& title, const QString& objectName, QWidget* panel);
    QString lastDirectory() const;
    void rememberDirectory(const QString& path);

    views::SelectionState* m_selection;
    DocumentLoader* m_loader;
    QStackedWidget* m_central;
    WelcomePage* m_welcome;
    views::RankTimelineView* m_timeline = nullptr;
    views::RootCausePanel* m_rootCause = nullptr;
    views::LogViewer* m_logViewer = nullptr;
    RanksPanel* m_ranks = nullptr;
    ChartsPanel* m_charts = nullptr;
    ErrorHub* m_errorHub = nullptr;
    QuestionsPanel* m_questions = nullptr;
    Appearance* m_appearance = nullptr;
    ViewPreferences* m_viewPreferences = nullptr;
    views::PairHeatmapView* m_heatmap = nullptr;
    views::ImportIssuesModel* m_issues = nullptr;
    QTableView* m_issuesTable = nullptr;
    QList<QDockWidget*> m_docks;
    QMenu* m_recentMenu = nullptr;
    QAction* m_exportAction = nullptr;
    QMenu* m_viewMenu = nullptr;
    QActionGroup* m_timelineMode = nullptr;
    QLabel* m_bundleLabel = nullptr;
    QLabel* m_verdictLabel = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
    QToolButton* m_cancelButton = nullptr;
    views::DocumentPtr m_summary; // the loading bundle before its diagnosis
    QString m_loadingName; // what is loading, for the status bar
    PastedLogs m_pasted; // logs pasted into the open bundle, read from memory
    QByteArray m_workspaceState; // dock layout while the welcome page hides the docks
    bool m_workspaceShown = false;
};

} // namespace rankscope::app
