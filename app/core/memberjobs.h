#pragma once
// Archive members read but not parsed yet (parsers::SourceSinks::unparsed), waiting for a
// loader thread to parse them: the thread decompressing an archive of thousands of dumps
// hands them out instead of parsing every one itself. Also the hashes of big files whose
// readers gave them away (parsers::FileHashJob). Thread-safe.
//
// Memory is bounded: once the members waiting hold more than kMaxWaitingBytes, the thread
// reading the archive parses waiting members itself before it reads on (see tooFull()).

#include "parsers/inputreader.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>

namespace rankscope::app {

struct MemberJob {
    std::size_t task = 0;
    std::uint32_t seq = 0; // the member's place among its task's sources
    parsers::UnparsedMember member;
    std::uint64_t diskBytesRead = 0;
    // Set instead of a member: a big file's hash for a thread with nothing else to do
    // (parsers::ReadControl::offloadHash).
    std::shared_ptr<parsers::FileHashJob> hash;
};

class MemberJobs {
public:
    static constexpr std::uint64_t kMaxWaitingBytes = 4u << 20;

    void push(MemberJob&& job);
    // Ahead of the members: the reader of a big file waits for its hash when it is done.
    void pushHash(std::shared_ptr<parsers::FileHashJob> job);
    std::optional<MemberJob> tryPop();
    // Waits for a job while some task may still add one; nothing once none can.
    std::optional<MemberJob> waitPop();
    bool tooFull() const;

    // A thread is about to read a task (it may push jobs) / has finished it.
    void producerStarted();
    void producerFinished();

private:
    std::optional<MemberJob> popLocked();

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<MemberJob> m_jobs;
    std::uint64_t m_waitingBytes = 0;
    unsigned m_producers = 0;
};

} // namespace rankscope::app
