#include "app/core/bundleloader.h"

#include "app/core/similarinputs.h"
#include "model/bundlebuilder.h"
#include "parsers/inputreader.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
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

} // namespace

model::Result<BundlePtr> loadBundle(const LoadRequest& request, LoadProgress* progress,
    const std::atomic<bool>* cancel)
{
    auto plan = parsers::planInputs(request.paths);
    if (!plan)
        return plan.error();
    const auto& tasks = plan->tasks;
    if (progress) {
        progress->bytesTotal = plan->totalDiskBytes;
        progress->filesTotal = static_cast<std::uint32_t>(tasks.size());
    }

    std::vector<parsers::TaskResult> results(tasks.size());
    const auto parsed = std::make_unique<std::atomic<bool>[]>(tasks.size());
    std::atomic<std::size_t> next { 0 };
    parsers::ReadControl control;
    control.cancel = cancel;
    control.hashContent = request.hashInputs;
    if (progress)
        control.onBytes = [progress](std::uint64_t n) { progress->bytesDone += n; };

    // Sources are merged in path order while later ones are still parsed: by whichever
    // thread finds the merge free (a parser never waits for it), up to the first result not
    // parsed yet. The first Flight Recorder dump merged tells how many entries a byte of dump
    // holds; the dumps named like it still to come are expected to hold as many, so the
    // bundle's entry array is sized once (a guess too high costs address space, not memory).
    model::BundleBuilder builder;
    const SimilarInputs similar(tasks);
    std::mutex mergeMutex;
    std::size_t nextToMerge = 0; // guarded by mergeMutex
    auto mergeParsed = [&]() {
        for (; nextToMerge < results.size() && parsed[nextToMerge].load(std::memory_order_acquire);
             ++nextToMerge) {
            auto& sources = results[nextToMerge].sources;
            std::size_t frEntries = 0;
            for (const auto& s : sources)
                frEntries += s.frEntries.size();
            const std::uint64_t taskBytes = tasks[nextToMerge].diskBytes;
            if (frEntries > 0 && taskBytes > 0) {
                const double perByte
                    = static_cast<double>(frEntries) / static_cast<double>(taskBytes);
                const double later = static_cast<double>(similar.bytesAfter(nextToMerge)) * perByte;
                // Entry indexes are 32-bit, so no bundle holds more (a corrupt size is no reason
                // to ask for terabytes).
                const double expected
                    = std::min(static_cast<double>(frEntries) + later * 1.125, 4294967295.0);
                builder.expectFrEntries(static_cast<std::size_t>(expected));
            }
            for (auto& s : sources)
                builder.add(std::move(s));
            std::vector<model::ParsedSource>().swap(sources);
        }
    };
    auto worker = [&]() {
        parsers::ReadBuffer buffer;
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= tasks.size() || control.cancelled())
                return;
            results[i] = parsers::readInput(tasks[i], request.limits, control, buffer);
            parsed[i].store(true, std::memory_order_release);
            if (progress)
                ++progress->filesDone;
            if (std::unique_lock lock(mergeMutex, std::try_to_lock); lock)
                mergeParsed();
        }
    };
    unsigned threads = request.threads ? request.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(1, tasks.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    if (cancel && cancel->load())
        return model::Error { "loading cancelled" };

    mergeParsed(); // what the threads left: each merges only when it finds the merge free

    model::ImportIssues issues = std::move(plan->issues);
    for (auto& r : results)
        issues.merge(r.issues);
    auto bundle = std::make_shared<model::Bundle>(std::move(builder).finish(std::move(issues)));

    std::uint64_t recognised = 0;
    for (const auto& s : bundle->sources)
        recognised += s.recognisedLines;
    if (recognised == 0 && bundle->events.empty() && bundle->tracebacks.empty())
        return model::Error { "no recognisable log lines in the input: " + describeWhatWasSeen(*bundle)
            + ". Rankscope reads PyTorch, NCCL_DEBUG, torchrun, Python traceback, dmesg and py-spy output." };
    return BundlePtr(std::move(bundle));
}

} // namespace rankscope::app
