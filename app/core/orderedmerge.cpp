#include "app/core/orderedmerge.h"

#include <algorithm>

namespace rankscope::app {

OrderedMerge::OrderedMerge(const std::vector<parsers::InputTask>& tasks, model::BundleBuilder& builder)
    : m_tasks(tasks)
    , m_builder(builder)
    , m_similar(tasks)
    , m_queues(tasks.size())
{
}

void OrderedMerge::add(
    std::size_t task, std::uint32_t seq, model::ParsedSource&& source, std::uint64_t diskBytesRead)
{
    {
        const std::lock_guard lock(m_queueMutex);
        auto& sources = m_queues[task].sources;
        if (sources.size() <= seq)
            sources.resize(std::size_t(seq) + 1);
        sources[seq] = Queued { std::move(source), diskBytesRead };
    }
    if (std::unique_lock lock(m_mergeMutex, std::try_to_lock); lock)
        mergeReady();
}

void OrderedMerge::taskDone(std::size_t task, std::uint32_t count)
{
    {
        const std::lock_guard lock(m_queueMutex);
        m_queues[task].count = count;
    }
    if (std::unique_lock lock(m_mergeMutex, std::try_to_lock); lock)
        mergeReady();
}

void OrderedMerge::finish()
{
    const std::lock_guard lock(m_mergeMutex);
    mergeReady();
}

void OrderedMerge::mergeReady()
{
    while (m_next < m_queues.size()) {
        TaskQueue& q = m_queues[m_next];
        // The sources ready in order from the first one not merged, taken out together.
        std::vector<Queued> batch;
        bool complete = false;
        {
            const std::lock_guard lock(m_queueMutex);
            for (std::uint32_t s = q.merged; s < q.sources.size() && q.sources[s]; ++s) {
                batch.push_back(std::move(*q.sources[s]));
                q.sources[s].reset();
            }
            complete = q.count && q.merged + batch.size() == *q.count;
            if (complete)
                std::vector<std::optional<Queued>>().swap(q.sources);
        }
        // A source merged as soon as it was read hands its buffers back to malloc for the
        // next one its reader parses; several at once were all held together, so their pages
        // go back to the system as they are copied.
        const auto memory = batch.size() > 1 ? model::MergedMemory::GiveBack : model::MergedMemory::Reuse;
        for (Queued& s : batch)
            mergeOne(m_next, std::move(s), memory);
        q.merged += static_cast<std::uint32_t>(batch.size());
        if (!complete)
            return;
        ++m_next;
    }
}

void OrderedMerge::mergeOne(std::size_t task, Queued&& queued, model::MergedMemory memory)
{
    TaskQueue& q = m_queues[task];
    const std::uint64_t taskBytes = m_tasks[task].diskBytes;
    const std::uint64_t read = std::min(queued.diskBytesRead, taskBytes);
    // The records still to come, guessed from this task's records per disk byte so far
    // times the disk bytes still to come in it and in the inputs named like it, plus an
    // eighth; nothing when this source brought none.
    auto expected = [&](std::uint64_t mergedSoFar, std::size_t incoming) -> std::size_t {
        const double perByte = static_cast<double>(mergedSoFar) / static_cast<double>(read);
        const double later = static_cast<double>(taskBytes - read + m_similar.bytesAfter(task)) * perByte;
        // Indexes are 32-bit, so no bundle holds more (a corrupt size is no reason to ask
        // for terabytes).
        return static_cast<std::size_t>(
            std::min(static_cast<double>(incoming) + later * 1.125, 4294967295.0));
    };
    const std::size_t entries = queued.source.frEntries.size();
    if (entries > 0) {
        q.frEntries += entries;
        if (read > 0)
            m_builder.expectFrEntries(expected(q.frEntries, entries));
    }
    const std::size_t events = queued.source.events.size();
    if (events > 0) {
        q.events += events;
        if (read > 0)
            m_builder.expectEvents(expected(q.events, events));
    }
    m_builder.add(std::move(queued.source), memory);
}

} // namespace rankscope::app
