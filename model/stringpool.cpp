#include "model/stringpool.h"

#include "model/mix64.h"

#include <algorithm>
#include <cstring>

namespace rankscope::model {

namespace {
// Chunks start small and double: a bundle has thousands of per-source pools that each hold
// a few strings, and zeroing 64 KiB for each of them showed up in profiles.
constexpr std::size_t kFirstChunkBytes = 1024;
constexpr std::size_t kChunkBytes = 64 * 1024;
constexpr std::size_t kFirstSlots = 16;

// 8 bytes per step (messages of 100-200 bytes are interned on every source), each word
// mixed in by a multiply, and the murmur3 finaliser so that low bits index the table well.
std::uint64_t hashText(std::string_view text)
{
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = text.size() * kMul;
    const char* p = text.data();
    std::size_t n = text.size();
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * kMul;
        h ^= h >> 32;
    }
    if (n > 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * kMul;
    }
    return mix64(h);
}
}

StringPool::StringPool()
{
    m_views.emplace_back();
    m_hashes.push_back(0);
}

std::size_t StringPool::slotFor(std::string_view text, std::uint64_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const StrId id = m_slots[i];
        if (id == kNoStr || (m_hashes[id] == hash && m_views[id] == text))
            return i;
    }
}

void StringPool::grow()
{
    const std::size_t size = m_slots.empty() ? kFirstSlots : m_slots.size() * 2;
    m_slots.assign(size, kNoStr);
    const std::size_t mask = size - 1;
    for (StrId id = 1; id < m_views.size(); ++id) {
        std::size_t i = m_hashes[id] & mask;
        while (m_slots[i] != kNoStr)
            i = (i + 1) & mask;
        m_slots[i] = id;
    }
}

StrId StringPool::intern(std::string_view text)
{
    if (text.empty())
        return kNoStr;
    return internHashed(text, hashText(text));
}

StrId StringPool::internFrom(const StringPool& other, StrId id)
{
    if (id == kNoStr || id >= other.m_views.size())
        return kNoStr;
    return internHashed(other.m_views[id], other.m_hashes[id]);
}

StrId StringPool::internHashed(std::string_view text, std::uint64_t hash)
{
    if (2 * m_views.size() >= m_slots.size())
        grow(); // at most half full, with room for this string
    const std::size_t slot = slotFor(text, hash);
    if (m_slots[slot] != kNoStr)
        return m_slots[slot];
    const char* stored = store(text);
    const auto id = static_cast<StrId>(m_views.size());
    m_views.emplace_back(stored, text.size());
    m_hashes.push_back(hash);
    m_slots[slot] = id;
    return id;
}

StrId StringPool::find(std::string_view text) const
{
    if (text.empty() || m_slots.empty())
        return kNoStr;
    return m_slots[slotFor(text, hashText(text))];
}

const char* StringPool::store(std::string_view text)
{
    if (text.size() > kChunkBytes / 4) {
        // Big strings get their own allocation so they do not waste a chunk tail.
        auto own = std::make_unique_for_overwrite<char[]>(text.size());
        std::memcpy(own.get(), text.data(), text.size());
        const char* out = own.get();
        // Keep the current chunk last so that appends continue into it.
        m_chunks.insert(m_chunks.empty() ? m_chunks.end() : m_chunks.end() - 1, std::move(own));
        return out;
    }
    if (m_chunks.empty() || m_chunkUsed + text.size() > m_chunkSize) {
        const std::size_t size = std::max(text.size(), m_chunkSize == 0 ? kFirstChunkBytes : std::min(m_chunkSize * 2, kChunkBytes));
        m_chunks.push_back(std::make_unique_for_overwrite<char[]>(size));
        m_chunkSize = size;
        m_chunkUsed = 0;
    }
    char* out = m_chunks.back().get() + m_chunkUsed;
    std::memcpy(out, text.data(), text.size());
    m_chunkUsed += text.size();
    return out;
}

} // namespace rankscope::model
