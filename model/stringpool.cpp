#include "model/stringpool.h"

#include <algorithm>
#include <cstring>

namespace rankscope::model {

namespace {
// Chunks start small and double: a bundle has thousands of per-source pools that each hold
// a few strings, and zeroing 64 KiB for each of them showed up in profiles.
constexpr std::size_t kFirstChunkBytes = 1024;
constexpr std::size_t kChunkBytes = 64 * 1024;
}

StringPool::StringPool()
{
    m_views.emplace_back();
}

StrId StringPool::intern(std::string_view text)
{
    if (text.empty())
        return kNoStr;
    if (auto it = m_index.find(text); it != m_index.end())
        return it->second;
    const char* stored = store(text);
    const auto id = static_cast<StrId>(m_views.size());
    std::string_view view(stored, text.size());
    m_views.push_back(view);
    m_index.emplace(view, id);
    return id;
}

StrId StringPool::find(std::string_view text) const
{
    if (text.empty())
        return kNoStr;
    auto it = m_index.find(text);
    return it == m_index.end() ? kNoStr : it->second;
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
