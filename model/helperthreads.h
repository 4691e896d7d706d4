#pragma once
// The helper threads of a parallel loop (the loader, the Flight Recorder matcher): as many as
// asked for, or as many as the system gives. A thread it refuses (std::system_error: ulimit
// -u, a container's pids.max, no address space left for a stack) ends the starting instead
// of aborting the program; the loop's work is shared among the threads that did start and
// the caller's own, which always takes part, so fewer threads only make it slower.

#include <system_error>
#include <thread>
#include <vector>

namespace rankscope::model {

class HelperThreads {
public:
    // Starts up to `count` threads running fn(worker), worker = 1, 2, … (0 is the caller's).
    template <class Fn> HelperThreads(unsigned count, Fn fn)
    {
        m_threads.reserve(count);
        for (unsigned worker = 1; worker <= count; ++worker) {
            try {
                m_threads.emplace_back(fn, worker);
            } catch (const std::system_error&) {
                break;
            }
        }
    }
    ~HelperThreads() { join(); }
    HelperThreads(const HelperThreads&) = delete;
    HelperThreads& operator=(const HelperThreads&) = delete;

    std::size_t started() const { return m_threads.size(); }
    void join()
    {
        for (std::thread& t : m_threads)
            if (t.joinable())
                t.join();
    }

private:
    std::vector<std::thread> m_threads;
};

} // namespace rankscope::model
