#include "app/core/memberjobs.h"

namespace rankscope::app {

void MemberJobs::push(MemberJob&& job)
{
    {
        const std::lock_guard lock(m_mutex);
        m_waitingBytes += job.member.bytes.size();
        m_jobs.push_back(std::move(job));
    }
    m_changed.notify_one();
}

void MemberJobs::pushHash(std::shared_ptr<parsers::FileHashJob> job)
{
    {
        const std::lock_guard lock(m_mutex);
        MemberJob hashJob;
        hashJob.hash = std::move(job);
        m_jobs.push_front(std::move(hashJob));
    }
    m_changed.notify_one();
}

std::optional<MemberJob> MemberJobs::popLocked()
{
    if (m_jobs.empty())
        return std::nullopt;
    MemberJob job = std::move(m_jobs.front());
    m_jobs.pop_front();
    m_waitingBytes -= job.member.bytes.size();
    return job;
}

std::optional<MemberJob> MemberJobs::tryPop()
{
    const std::lock_guard lock(m_mutex);
    return popLocked();
}

std::optional<MemberJob> MemberJobs::waitPop()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_jobs.empty() || m_producers == 0; });
    return popLocked();
}

bool MemberJobs::tooFull() const
{
    const std::lock_guard lock(m_mutex);
    return m_waitingBytes > kMaxWaitingBytes;
}

void MemberJobs::producerStarted()
{
    const std::lock_guard lock(m_mutex);
    ++m_producers;
}

void MemberJobs::producerFinished()
{
    {
        const std::lock_guard lock(m_mutex);
        --m_producers;
    }
    m_changed.notify_all();
}

} // namespace rankscope::app
