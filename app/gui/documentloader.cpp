#include "app/gui/documentloader.h"

#include "app/gui/documentbuilder.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace rankscope::app {

namespace {
// Progress polling period: often enough for a smooth bar, rare enough to cost nothing.
constexpr int kProgressIntervalMs = 100;
} // namespace

DocumentLoader::DocumentLoader(QObject* parent)
    : QObject(parent)
{
    m_progressTimer.setInterval(kProgressIntervalMs);
    connect(&m_progressTimer, &QTimer::timeout, this, &DocumentLoader::pollProgress);
}

DocumentLoader::~DocumentLoader()
{
    if (m_current)
        m_current->cancel = true;
    // Workers post their results to this object: they must be done before it goes away.
    waitForIdle();
}

void DocumentLoader::waitForIdle()
{
    for (QFuture<void>& worker : m_workers)
        worker.waitForFinished();
    m_workers.clear();
}

void DocumentLoader::load(const QStringList& paths, const std::vector<parsers::PastedText>& pasted)
{
    if (m_current)
        m_current->cancel = true; // the superseded worker stops at its next poll
    std::erase_if(m_workers, [](const QFuture<void>& f) { return f.isFinished(); });

    const quint64 generation = ++m_generation;
    auto job = std::make_shared<Job>();
    m_current = job;
    m_paths = paths;
    LoadRequest request;
    for (const QString& path : paths)
        request.paths.push_back(path.toStdString());
    request.pasted = pasted;

    // Runs on the worker: delivers to the GUI thread by queued calls on this object, which
    // outlives every worker (the destructor waits for them).
    DocumentStages stages;
    stages.onBundleLoaded = [this, generation](views::DocumentPtr summary) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, summary] {
                if (generation == m_generation)
                    Q_EMIT summaryReady(summary);
            },
            Qt::QueuedConnection);
    };
    m_workers.push_back(QtConcurrent::run([this, generation, request, job, stages] {
        Outcome outcome;
        auto result = buildDocument(request, &job->progress, &job->cancel, stages);
        if (result)
            outcome.document = result.value();
        else
            outcome.error = QString::fromStdString(result.error().message);
        QMetaObject::invokeMethod(
            this, [this, generation, outcome] { finish(generation, outcome); },
            Qt::QueuedConnection);
    }));
    m_elapsed.start();
    m_progressTimer.start();
    Q_EMIT started(paths);
    pollProgress();
}

void DocumentLoader::cancel()
{
    if (!m_current)
        return;
    m_current->cancel = true;
    m_current.reset();
    ++m_generation; // whatever the worker still delivers is dropped
    m_progressTimer.stop();
    Q_EMIT cancelled();
}

void DocumentLoader::pollProgress()
{
    if (!m_current)
        return;
    const LoadProgress& p = m_current->progress;
    const quint64 bytesDone = p.bytesDone.load();
    const quint64 bytesTotal = p.bytesTotal.load();
    qint64 eta = -1;
    const qint64 elapsed = m_elapsed.elapsed();
    if (bytesDone > 0 && bytesTotal >= bytesDone && elapsed > 300) {
        const double rate = static_cast<double>(bytesDone) / static_cast<double>(elapsed);
        eta = static_cast<qint64>(static_cast<double>(bytesTotal - bytesDone) / rate);
    }
    Q_EMIT progress(bytesDone, bytesTotal, p.filesDone.load(), p.filesTotal.load(), eta);
}

void DocumentLoader::finish(quint64 generation, const Outcome& outcome)
{
    if (generation != m_generation)
        return; // superseded or cancelled
    m_current.reset();
    m_progressTimer.stop();
    if (outcome.document)
        Q_EMIT documentReady(outcome.document);
    else
        Q_EMIT failed(
            outcome.error.isEmpty() ? tr("The bundle could not be loaded.") : outcome.error);
}

} // namespace rankscope::app
