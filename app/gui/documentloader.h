#pragma once
// Loads bundles off the GUI thread (STYLE [formats 8], [formats 9]). Each load gets a generation number; a
// newer load supersedes an older one, whose results are dropped when they arrive. Cancel
// sets the flag the loader polls. Progress (bytes, files, ETA) is polled from the
// loader's atomic counters by a timer, so the worker never talks to the GUI per file.
// Results arrive in two stages: the bundle summary, then the diagnosed document.

#include "app/core/bundleloader.h"
#include "views/bundledocument.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <memory>
#include <vector>

namespace rankscope::app {

class DocumentLoader : public QObject {
    Q_OBJECT
public:
    explicit DocumentLoader(QObject* parent = nullptr);
    ~DocumentLoader() override;

    // Starts loading `paths` and the pasted logs, superseding any load in flight.
    void load(const QStringList& paths, const std::vector<parsers::PastedText>& pasted = {});
    // Stops the current load; emits cancelled() once the worker has noticed.
    void cancel();
    bool isLoading() const { return m_current != nullptr; }
    QStringList currentPaths() const { return m_paths; }
    // Waits for every worker (old ones included) to return; for shutdown and tests.
    void waitForIdle();

Q_SIGNALS:
    void started(const QStringList& paths);
    // bytes / files done and total, estimated milliseconds left (-1 unknown).
    void progress(
        quint64 bytesDone, quint64 bytesTotal, quint32 filesDone, quint32 filesTotal, qint64 etaMs);
    void summaryReady(rankscope::views::DocumentPtr document); // bundle loaded, no diagnosis yet
    void documentReady(rankscope::views::DocumentPtr document);
    void failed(const QString& message);
    void cancelled();

private:
    // Shared between the GUI thread and one worker; outlives whichever ends last.
    struct Job {
        LoadProgress progress;
        std::atomic<bool> cancel { false };
    };
    struct Outcome {
        views::DocumentPtr document;
        QString error;
    };

    void pollProgress();
    void finish(quint64 generation, const Outcome& outcome);

    quint64 m_generation = 0;
    std::shared_ptr<Job> m_current;
    QStringList m_paths;
    std::vector<QFuture<void>> m_workers; // superseded ones too, so shutdown can wait
    QTimer m_progressTimer;
    QElapsedTimer m_elapsed;
};

} // namespace rankscope::app
