#pragma once
// Runs a search across every rank's log (views/logsearch.h) off the GUI thread: one source
// at a time is opened through the document's SourceAccess (a mapping, or one decompressed
// member), searched and let go, so a bundle of 4096 logs and a gigabyte of text never sits in
// memory at once. Hits are streamed back in batches; Cancel sets the flag the search checks
// between chunks; each search has a generation number and a superseded one's results are
// dropped. At most maxHits() hits are kept, and the finish says when the cap cut the list.

#include "views/bundledocument.h"
#include "views/logsearch.h"

#include <QFuture>
#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

namespace rankscope::app {

class LogSearchRunner : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultMaxHits = 10000;

    explicit LogSearchRunner(QObject* parent = nullptr);
    ~LogSearchRunner() override;

    // Starts searching `document`'s logs, superseding a search in flight. Returns why it
    // cannot start (a bad pattern, no bundle) without starting; empty when it started.
    QString start(const views::DocumentPtr& document, const views::LogSearchQuery& query);
    void cancel();
    bool running() const { return m_current != nullptr; }
    // Hits kept at most (from the next search on).
    void setMaxHits(int maxHits) { m_maxHits = maxHits; }
    int maxHits() const { return m_maxHits; }
    // Waits for every worker to return; for shutdown and tests.
    void waitForIdle();

Q_SIGNALS:
    void started(int sources);
    void hitsFound(const std::vector<rankscope::views::LogSearchHit>& hits);
    void progress(int sourcesDone, int sources);
    void finished(bool cancelled, bool capped, int maxHits);

private:
    struct Job {
        std::atomic<bool> cancel { false };
    };
    struct Target {
        model::SourceId source;
        int rank;
    };
    static std::vector<Target> targetsOf(const model::Bundle& bundle);

    std::shared_ptr<Job> m_current;
    quint64 m_generation = 0;
    int m_maxHits = kDefaultMaxHits;
    std::vector<QFuture<void>> m_workers;
};

} // namespace rankscope::app
