#pragma once
// Splits a byte stream into line segments without copying. Lines end at \n; a \r inside a
// line (tqdm progress bars, [formats 0]) starts a new segment of the same line, so a
// watchdog message glued to a progress bar is still found on its own. Chunks may end
// mid-line: the partial tail is carried over in a small buffer.

#include "parsers/bytescan.h"
#include "parsers/linebreaks.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace rankscope::parsers {

struct LineSegment {
    std::string_view text;
    std::uint64_t lineNo = 0; // 1-based, counting \n
    std::uint64_t offset = 0; // byte offset of the segment in the stream
    // A whole \n-ended line of one chunk whose end came from a batch of line breaks: the
    // bulk of a big input, which the scanner may give a shorter path (LogScanner).
    bool batched = false;
};

class LineSplitter {
public:
    explicit LineSplitter(std::size_t maxLineBytes = 1 << 20)
        : m_maxLineBytes(maxLineBytes)
    {
    }

    template <class OnSegment>
    void feed(std::string_view chunk, OnSegment&& onSegment)
    {
        const char* p = chunk.data();
        const char* end = p + chunk.size();
        m_breaks.count = m_breaks.next = 0; // they point into the previous chunk
        if (!m_carry.empty() || m_skippingOverlong) {
            const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
            const char* stop = nl ? nl : end;
            if (!m_skippingOverlong) {
                const std::size_t room = m_maxLineBytes - m_carry.size();
                const std::size_t take = std::min<std::size_t>(room, stop - p);
                m_carry.append(p, take);
                if (take < static_cast<std::size_t>(stop - p))
                    m_skippingOverlong = true;
            }
            if (!nl) {
                m_streamOffset += chunk.size();
                return;
            }
            emitLine(m_carry, m_carryOffset, onSegment);
            m_carry.clear();
            m_skippingOverlong = false;
            const auto consumed = static_cast<std::uint64_t>(nl + 1 - chunk.data());
            m_streamOffset += consumed;
            p = nl + 1;
        }
        while (p < end) {
            // Line ends come in batches found for many lines at once (a \r among them sends
            // the line to emitLine), line by line where a batch cannot reach.
            if (m_breaks.next == m_breaks.count)
                findLineBreaks(p, end, m_breaks);
            const bool batched = m_breaks.next < m_breaks.count;
            const char* brk
                = batched ? m_breaks.at[m_breaks.next++] : findEitherByte(p, end, '\n', '\r');
            if (brk != end && *brk == '\n' && brk - p <= static_cast<std::ptrdiff_t>(m_maxLineBytes)) {
                ++m_lineNo;
                onSegment(LineSegment {
                    std::string_view(p, brk - p), m_lineNo, m_streamOffset, batched });
                m_streamOffset += (brk - p) + 1;
                p = brk + 1;
                continue;
            }
            const char* nl = brk == end ? nullptr
                : static_cast<const char*>(std::memchr(brk, '\n', end - brk));
            // p jumps to the line's '\n': the batch's breaks up to it are used up, the rest
            // still serve the lines after it. (Finding the batch again from there cost a
            // scan of up to kCapacity lines for every line holding a '\r', a progress bar.)
            while (m_breaks.next < m_breaks.count && (!nl || m_breaks.at[m_breaks.next] <= nl))
                ++m_breaks.next;
            if (!nl) {
                // Keep the tail for the next chunk (or finish()).
                m_carryOffset = m_streamOffset;
                const std::size_t take = std::min<std::size_t>(m_maxLineBytes, end - p);
                m_carry.assign(p, take);
                m_skippingOverlong = take < static_cast<std::size_t>(end - p);
                m_streamOffset += end - p;
                return;
            }
            std::string_view line(p, nl - p);
            if (line.size() > m_maxLineBytes) {
                ++m_overlongLines;
                line = line.substr(0, m_maxLineBytes);
            }
            emitLine(line, m_streamOffset, onSegment);
            m_streamOffset += (nl - p) + 1;
            p = nl + 1;
        }
    }

    template <class OnSegment>
    void finish(OnSegment&& onSegment)
    {
        if (!m_carry.empty() || m_skippingOverlong) {
            emitLine(m_carry, m_carryOffset, onSegment);
            m_carry.clear();
            m_skippingOverlong = false;
            m_unterminatedLastLine = true;
        }
    }

    std::uint64_t lines() const { return m_lineNo; }
    std::uint64_t overlongLines() const { return m_overlongLines; }
    std::uint64_t bytes() const { return m_streamOffset; }
    bool unterminatedLastLine() const { return m_unterminatedLastLine; }

private:
    template <class OnSegment>
    void emitLine(std::string_view line, std::uint64_t offset, OnSegment& onSegment)
    {
        ++m_lineNo;
        if (m_skippingOverlong)
            ++m_overlongLines;
        // Split on \r; a trailing \r (CRLF) gives no extra segment.
        const char* p = line.data();
        const char* end = p + line.size();
        for (;;) {
            const char* cr = static_cast<const char*>(std::memchr(p, '\r', end - p));
            const char* stop = cr ? cr : end;
            if (stop > p || !cr)
                onSegment(LineSegment { std::string_view(p, stop - p), m_lineNo,
                    offset + static_cast<std::uint64_t>(p - line.data()) });
            if (!cr)
                break;
            p = cr + 1;
            if (p == end)
                break;
        }
    }

    std::size_t m_maxLineBytes;
    LineBreaks m_breaks;
    std::string m_carry;
    std::uint64_t m_carryOffset = 0;
    std::uint64_t m_streamOffset = 0;
    std::uint64_t m_lineNo = 0;
    std::uint64_t m_overlongLines = 0;
    bool m_skippingOverlong = false;
    bool m_unterminatedLastLine = false;
};

} // namespace rankscope::parsers
