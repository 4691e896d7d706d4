#include "picklewriter.h"

#include <bit>
#include <climits>

namespace rankscope::simulator {

void PickleWriter::begin()
{
    m_out.clear();
    m_memoNext = 0;
    m_memo.clear();
    m_pendingShared.clear();
    if (python()) {
        m_out += "\x80\x04";
        openFrame();
    } else {
        m_out += "\x80\x02";
    }
}

std::string& PickleWriter::finish()
{
    m_out += '.';
    if (python())
        closeFrame();
    return m_out;
}

void PickleWriter::maybeCommitFrame()
{
    if (python() && m_out.size() - m_frameStart >= 64 * 1024) {
        closeFrame();
        openFrame();
    }
}

// Both producers pick the smallest of BININT1 / BININT2 / BININT, and LONG1 with 8 bytes
// beyond 32 bits (torch always writes 8 bytes; Python would write the minimal length, but
// FR's nanosecond timestamps need 8 anyway).
void PickleWriter::integer(std::int64_t v)
{
    if (v >= 0 && v < 256) {
        m_out += 'K';
        m_out += static_cast<char>(v);
    } else if (v >= 0 && v < 65536) {
        m_out += 'M';
        le(static_cast<std::uint64_t>(v), 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        m_out += 'J';
        le(static_cast<std::uint32_t>(v), 4);
    } else {
        m_out += '\x8a';
        m_out += '\x08';
        le(static_cast<std::uint64_t>(v), 8);
    }
}

void PickleWriter::real(double v)
{
    m_out += 'G'; // BINFLOAT, big-endian
    const auto bits = std::bit_cast<std::uint64_t>(v);
    for (int i = 7; i >= 0; --i)
        m_out += static_cast<char>(bits >> (8 * i));
}

void PickleWriter::str(std::string_view s, bool shared)
{
    const bool byValue = shared || !python();
    if (byValue) {
        auto it = m_memo.find(std::string(s));
        if (it != m_memo.end()) {
            get(it->second);
            return;
        }
    }
    if (python() && s.size() < 256) {
        m_out += '\x8c'; // SHORT_BINUNICODE
        m_out += static_cast<char>(s.size());
    } else {
        m_out += 'X'; // BINUNICODE
        le(s.size(), 4);
    }
    m_out += s;
    std::uint32_t id = 0;
    if (python()) {
        id = memoize();
    } else {
        id = m_memoNext;
        put();
    }
    if (byValue)
        m_memo.emplace(std::string(s), id);
}

void PickleWriter::emptyList()
{
    m_out += ']';
    if (python())
        memoize();
}

void PickleWriter::emptyDict()
{
    m_out += '}';
    if (python())
        memoize();
}

void PickleWriter::tuple2()
{
    m_out += '\x86';
    if (python())
        memoize();
}

bool PickleWriter::sharedObject(const std::string& key)
{
    auto it = m_memo.find(key);
    if (it == m_memo.end())
        return false;
    get(it->second);
    return true;
}

void PickleWriter::openShared(const std::string& key)
{
    if (python())
        m_memo.emplace(key, m_memoNext - 1); // memoized when it was opened
    else
        m_pendingShared = key;
}

// torch::jit::Pickler::pushIValue memoizes a container whose use count is > 1 after
// writing it (BINPUT), so later references are BINGETs.
void PickleWriter::closeShared()
{
    if (python() || m_pendingShared.empty())
        return;
    m_memo.emplace(m_pendingShared, m_memoNext);
    put();
    m_pendingShared.clear();
}

std::uint32_t PickleWriter::memoize()
{
    m_out += '\x94'; // MEMOIZE
    return m_memoNext++;
}

void PickleWriter::put()
{
    const std::uint32_t id = m_memoNext++;
    if (id < 256) {
        m_out += 'q'; // BINPUT
        m_out += static_cast<char>(id);
    } else {
        m_out += 'r'; // LONG_BINPUT
        le(id, 4);
    }
}

void PickleWriter::get(std::uint32_t id)
{
    if (id < 256) {
        m_out += 'h'; // BINGET
        m_out += static_cast<char>(id);
    } else {
        m_out += 'j'; // LONG_BINGET
        le(id, 4);
    }
}

void PickleWriter::le(std::uint64_t v, int n)
{
    for (int i = 0; i < n; ++i)
        m_out += static_cast<char>(v >> (8 * i));
}

void PickleWriter::openFrame()
{
    m_out += '\x95';
    m_out.append(8, '\0');
    m_frameStart = m_out.size();
}

void PickleWriter::closeFrame()
{
    const std::uint64_t length = m_out.size() - m_frameStart;
    for (int i = 0; i < 8; ++i)
        m_out[m_frameStart - 8 + static_cast<std::size_t>(i)]
            = static_cast<char>(length >> (8 * i));
}

} // namespace rankscope::simulator
