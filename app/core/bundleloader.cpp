#include "app/core/bundleloader.h"

#include "app/core/memberjobs.h"
#include "app/core/orderedmerge.h"
#include "model/bundlebuilder.h"
#include "model/helperthreads.h"
#include "parsers/inputreader.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

namespace rankscope::app {

namespace {

// "nothing recognisable" must still tell the user what was there.
std::string describeWhatWasSeen(const model::Bundle& b)
{
    std::map<std::string, std::size_t> kinds;
    for (const auto& s : b.sources)
        ++kinds[std::string(model::sourceKindName(s.kind))];
    std::string out = std::to_string(b.sources.size()) + " file(s)";
    if (!kinds.empty()) {
        out += " (";
        bool first = true;
        for (const auto& [kind, n] : kinds) {
            out += (first ? "" : ", ") + std::to_string(n) + " " + kind;
            first = false;
        }
        out += ")";
    }
    std::uint64_t lines = 0;
    for (const auto& s : b.sources)
        lines += s.lines;
    out += ", " + std::to_string(lines) + " line(s)";
    const auto issues = b.issues.list();
    if (!issues.empty()) {
        out += "; import issues:";
        for (const auto& i : issues)
            out += " " + i.kind + " ×" + std::to_string(i.count)
                + (i.samples.empty() ? "" : " (e.g. " + i.samples.front() + ")");
    }
    return out;
}

// Allocation failures are errors, not aborts: a bundle too big for this machine, or a claim
// the model did not bound. Caught on every loader thread (an exception leaving a std::thread
// terminates the process) and once more around the whole load.
constexpr const char* kOutOfMemory = "out of memory while loading the inputs; load fewer of them "
                                     "at once, or on a machine with more memory";

model::Result<BundlePtr> load(
    const LoadRequest& request, LoadProgress* progress, const std::atomic<bool>* cancel)
{
    auto plan = parsers::planInputs(request.paths, request.pasted);
    if (!plan)
        return plan.error();
    const auto& tasks = plan->tasks;
    if (progress) {
        progress->bytesTotal = plan->totalDiskBytes;
        progress->filesTotal = static_cast<std::uint32_t>(tasks.size());
    }

    std::vector<model::ImportIssues> taskIssues(tasks.size());
    std::atomic<std::size_t> next { 0 };
    parsers::ReadControl control;
    control.cancel = cancel;
    control.hashContent = request.hashInputs;
    if (progress)
        control.onBytes = [progress](std::uint64_t n) { progress->bytesDone += n; };

    // Each source is merged into the bundle as soon as it and everything before it in path
    // order are read, by whichever thread finds the merge free (see OrderedMerge). Small
    // archive members are handed out unparsed (MemberJobs): a thread with no file left to
    // read parses them, so an archive of thousands of dumps is not parsed by one thread.
    model::BundleBuilder builder;
    OrderedMerge merge(tasks, builder);
    MemberJobs jobs;
    std::atomic<bool> outOfMemory { false };
    // Ends a thread's turn as a producer even when reading throws, or the threads waiting for
    // its member jobs would wait forever.
    struct ProducerTurn {
        MemberJobs& jobs;
        explicit ProducerTurn(MemberJobs& j)
            : jobs(j)
        {
            jobs.producerStarted();
        }
        ~ProducerTurn() { jobs.producerFinished(); }
        ProducerTurn(const ProducerTurn&) = delete;
        ProducerTurn& operator=(const ProducerTurn&) = delete;
    };
    auto work = [&]() {
        parsers::ReadBuffer buffer;
        auto parse = [&](MemberJob&& job) {
            if (job.hash) {
                job.hash->run(); // returns at once when its reader already did it
                return;
            }
            if (control.cancelled() || outOfMemory)
                return;
            merge.add(job.task, job.seq,
                parsers::parseMember(std::move(job.member), request.limits, control, buffer.source),
                job.diskBytesRead);
        };
        for (;;) {
            if (auto job = jobs.tryPop()) {
                parse(std::move(*job));
                continue;
            }
            // Before taking a task: idle threads must wait for its jobs.
            std::optional<ProducerTurn> turn(std::in_place, jobs);
            const std::size_t i = next.fetch_add(1);
            if (i >= tasks.size() || control.cancelled() || outOfMemory) {
                turn.reset();
                // No file left: parse what the threads still reading archives hand out.
                while (auto job = jobs.waitPop())
                    parse(std::move(*job));
                return;
            }
            parsers::SourceSinks sinks;
            sinks.parsed = [&merge, i](std::uint32_t seq, model::ParsedSource&& s,
                               std::uint64_t read) { merge.add(i, seq, std::move(s), read); };
            sinks.unparsed
                = [&](std::uint32_t seq, parsers::UnparsedMember&& m, std::uint64_t read) {
                      jobs.push(MemberJob { i, seq, std::move(m), read, nullptr });
                      // Reading runs ahead of parsing no further than the queue's byte budget.
                      while (jobs.tooFull())
                          if (auto job = jobs.tryPop())
                              parse(std::move(*job));
                  };
            auto result = parsers::readInput(tasks[i], request.limits, control, buffer, &sinks);
            taskIssues[i] = std::move(result.issues);
            merge.taskDone(i, result.delivered);
            turn.reset();
            if (progress)
                ++progress->filesDone;
        }
    };
    auto worker = [&]() {
        try {
            work();
        } catch (const std::bad_alloc&) {
            outOfMemory = true;
        }
    };
    const unsigned threads = request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
    // A big file's hash goes to another thread once no file is left for the others to take
    // (a bundle that is one srun console, the last big file of a bundle): they would wait
    // idle, and the reader parses while they hash.
    if (threads > 1)
        control.offloadHash = [&](const std::shared_ptr<parsers::FileHashJob>& job) {
            if (next.load() < tasks.size())
                return false;
            jobs.pushHash(job);
            return true;
        };
    // Not capped by the number of files: one archive keeps every thread busy (MemberJobs).
    model::HelperThreads helpers(threads - 1, [&worker](unsigned) { worker(); });
    worker();
    helpers.join();
    if (outOfMemory)
        return model::Error { kOutOfMemory };
    if (cancel && cancel->load())
        return model::Error { "loading cancelled" };

    merge.finish(); // what the threads left queued

    model::ImportIssues issues = std::move(plan->issues);
    for (auto& i : taskIssues)
        issues.merge(i);
    auto bundle = std::make_shared<model::Bundle>(std::move(builder).finish(std::move(issues)));

    // Text of a format no parser reads still loads: the diagnosis says it is inconclusive and
    // what was read, instead of refusing the input (a pasted excerpt is the commonest input).
    if (!bundle->recognisedAnything())
        bundle->issues.add("nothing_recognised", describeWhatWasSeen(*bundle));
    return BundlePtr(std::move(bundle));
}

} // namespace

model::Result<BundlePtr> loadBundle(
    const LoadRequest& request, LoadProgress* progress, const std::atomic<bool>* cancel)
{
    try {
        return load(request, progress, cancel);
    } catch (const std::bad_alloc&) {
        return model::Error { kOutOfMemory };
    }
}

} // namespace rankscope::app
