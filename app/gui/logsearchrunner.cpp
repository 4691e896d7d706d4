#include "app/gui/logsearchrunner.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace rankscope::app {

namespace {

// Hits are handed to the GUI thread in batches of this many, or after this long, so the
// list fills steadily without one queued call per hit.
constexpr std::size_t kBatchHits = 256;
constexpr qint64 kBatchMs = 100;

} // namespace

LogSearchRunner::LogSearchRunner(QObject* parent)
    : QObject(parent)
{
}

LogSearchRunner::~LogSearchRunner()
{
    if (m_current)
        m_current->cancel = true;
    waitForIdle();
}

void LogSearchRunner::waitForIdle()
{
    for (QFuture<void>& f : m_workers)
        f.waitForFinished();
    m_workers.clear();
}

std::vector<LogSearchRunner::Target> LogSearchRunner::targetsOf(const model::Bundle& bundle)
{
    std::vector<int> rankOf(bundle.sources.size(), -1);
    for (const model::RankInfo& info : bundle.ranks) {
        for (model::SourceId id : info.sources) {
            if (id < rankOf.size() && rankOf[id] < 0)
                rankOf[id] = info.rank;
        }
    }
    std::vector<Target> targets;
    for (const model::Source& s : bundle.sources) {
        if (s.kind == model::SourceKind::Log && !s.stream)
            targets.push_back({ s.id, s.id < rankOf.size() ? rankOf[s.id] : -1 });
    }
    // Rank order, files of no single rank (a launcher's log) last.
    std::stable_sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) {
        return static_cast<unsigned>(a.rank) < static_cast<unsigned>(b.rank);
    });
    return targets;
}

QString LogSearchRunner::start(
    const views::DocumentPtr& document, const views::LogSearchQuery& query)
{
    if (!document || !document->bundle || !document->sources)
        return tr("Open a bundle first");
    auto search = std::make_shared<const views::LogSearch>(query);
    if (!search->error().isEmpty())
        return search->error();
    if (m_current)
        m_current->cancel = true;
    // Drop whatever finished workers hold, keep the running ones to wait for at exit.
    m_workers.erase(std::remove_if(m_workers.begin(), m_workers.end(),
                        [](const QFuture<void>& f) { return f.isFinished(); }),
        m_workers.end());
    const quint64 generation = ++m_generation;
    auto job = std::make_shared<Job>();
    m_current = job;
    const std::vector<Target> targets = targetsOf(*document->bundle);
    const int total = static_cast<int>(targets.size());
    Q_EMIT started(total);
    m_workers.push_back(
        QtConcurrent::run([this, generation, job, document, search, targets, maxHits = m_maxHits] {
            const int count = static_cast<int>(targets.size());
            std::vector<views::LogSearchHit> batch;
            QElapsedTimer sinceFlush;
            sinceFlush.start();
            const auto flush = [&] {
                if (batch.empty())
                    return;
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, hits = std::move(batch)] {
                        if (generation == m_generation)
                            Q_EMIT hitsFound(hits);
                    },
                    Qt::QueuedConnection);
                batch.clear();
                sinceFlush.restart();
            };
            int found = 0;
            bool capped = false;
            for (int i = 0; i < count && !capped && !job->cancel; ++i) {
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, i, count] {
                        if (generation == m_generation)
                            Q_EMIT progress(i, count);
                    },
                    Qt::QueuedConnection);
                const Target& target = targets[static_cast<std::size_t>(i)];
                auto opened = document->sources->open(target.source);
                if (!opened)
                    continue; // gone since loading; the log viewer says why when opened
                // Held for this source only: the next one replaces it.
                const std::shared_ptr<const model::SourceBytes> bytes = opened.value();
                search->search(
                    bytes->bytes(),
                    [&](std::uint64_t line, std::uint64_t lineStart, QString text) {
                        // A hit beyond the cap only proves there are more.
                        if (found >= maxHits) {
                            capped = true;
                            return false;
                        }
                        ++found;
                        batch.push_back(
                            { target.source, target.rank, line, lineStart, std::move(text) });
                        if (batch.size() >= kBatchHits || sinceFlush.elapsed() >= kBatchMs)
                            flush();
                        return true;
                    },
                    job->cancel);
            }
            flush();
            const bool cancelled = job->cancel.load() && !capped;
            QMetaObject::invokeMethod(
                this,
                [this, generation, cancelled, capped, maxHits] {
                    if (generation != m_generation)
                        return;
                    m_current.reset();
                    Q_EMIT finished(cancelled, capped, maxHits);
                },
                Qt::QueuedConnection);
        }));
    return {};
}

void LogSearchRunner::cancel()
{
    if (m_current)
        m_current->cancel = true;
}

} // namespace rankscope::app
