#pragma once
// The output of one process (or one launcher, or one host's kernel) as timed chunks of
// text in one arena: every chunk carries the time it was written and the stream it went
// to. Chunks are whole lines ("…\n"), several lines (a traceback), or a tqdm update
// ("\r…" without a newline, so the next write to that stream is glued to it).

#include "calendar.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rankscope::simulator {

enum class Stream : std::uint8_t { Out, Err };

struct Chunk {
    Micros t = 0;
    std::uint32_t order = 0;
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    Stream stream = Stream::Out;
};

class RankStream {
public:
    // Appends into the arena; close() records the chunk written since open().
    std::string& open(Micros t, Stream s)
    {
        m_open = Chunk { t, m_order++, static_cast<std::uint32_t>(arena.size()), 0, s };
        return arena;
    }
    void close()
    {
        m_open.length = static_cast<std::uint32_t>(arena.size()) - m_open.offset;
        if (m_open.length > 0)
            chunks.push_back(m_open);
    }
    // Time order (stable for equal times), nothing after `end`.
    void finalize(Micros end)
    {
        std::stable_sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) {
            return a.t != b.t ? a.t < b.t : a.order < b.order;
        });
        auto cut = std::find_if(
            chunks.begin(), chunks.end(), [end](const Chunk& c) { return c.t > end; });
        chunks.erase(cut, chunks.end());
    }
    std::string_view text(const Chunk& c) const
    {
        return std::string_view(arena).substr(c.offset, c.length);
    }
    std::size_t bytes() const
    {
        std::size_t n = 0;
        for (const Chunk& c : chunks)
            n += c.length;
        return n;
    }

    std::string arena;
    std::vector<Chunk> chunks;

private:
    Chunk m_open;
    std::uint32_t m_order = 0;
};

} // namespace rankscope::simulator
