#pragma once
// Merges the sources of a load into one BundleBuilder in task order (path order) while the
// tasks are still being read on several threads: each source as soon as it and everything
// before it are read, an archive's members one by one. A reader never waits for a merge in
// progress: its source is queued and merged by whichever thread merges next.
//
// Flight Recorder entries are merged into one array sized from a guess: the entries per disk
// byte of the dumps merged so far, times the disk bytes still to come in the same task and in
// the tasks named like it (SimilarInputs), plus an eighth. A guess too high costs address
// space, not memory; too low, the array grows by half (BundleBuilder::expectFrEntries).

#include "app/core/similarinputs.h"
#include "model/bundlebuilder.h"
#include "parsers/inputplan.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace rankscope::app {

class OrderedMerge {
public:
    OrderedMerge(const std::vector<parsers::InputTask>& tasks, model::BundleBuilder& builder);

    // Source `seq` (0, 1, …) of `task` is complete. Sources of a task may come in any order
    // and from any thread (archive members parsed by other threads).
    void add(std::size_t task, std::uint32_t seq, model::ParsedSource&& source,
        std::uint64_t diskBytesRead);
    // `task` has `count` sources in all (some may still be added after this).
    void taskDone(std::size_t task, std::uint32_t count);
    // Once every reader has stopped: merges what is still queued.
    void finish();

private:
    struct Queued {
        model::ParsedSource source;
        std::uint64_t diskBytesRead = 0;
    };
    struct TaskQueue {
        std::vector<std::optional<Queued>> sources; // by seq; guarded by m_queueMutex
        std::optional<std::uint32_t> count; // known once done; guarded by m_queueMutex
        std::uint32_t merged = 0; // sources merged; guarded by m_mergeMutex
        std::uint64_t frEntries = 0; // merged so far; guarded by m_mergeMutex
        std::uint64_t events = 0; // the same
    };

    void mergeReady(); // holding m_mergeMutex
    void mergeOne(std::size_t task, Queued&& queued, model::MergedMemory memory);

    const std::vector<parsers::InputTask>& m_tasks;
    model::BundleBuilder& m_builder;
    const SimilarInputs m_similar;
    std::vector<TaskQueue> m_queues;
    std::mutex m_queueMutex; // held briefly; never while merging
    std::mutex m_mergeMutex; // taken with try_lock by readers
    std::size_t m_next = 0;  // first task not merged completely; guarded by m_mergeMutex
};

} // namespace rankscope::app
