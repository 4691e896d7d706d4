#include "model/stringpool.h"

#include <cstring>

namespace rankscope::model {

namespace {
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
        auto own = std::make_unique<char[]>(text.size());
        std::memcpy(own.get(), text.data(), text.size());
        const char* out = own.get();
        // Keep the current chunk last so that appends continue into it.
        m_chunks.insert(m_chunks.empty() ? m_chunks.end() : m_chunks.end() - 1, std::move(own));
        return out;
    }
    if (m_chunks.empty() || m_chunkUsed + text.size() > m_chunkSize) {
        m_chunks.push_back(std::make_unique<char[]>(kChunkBytes));
        m_chunkSize = kChunkBytes;
        m_chunkUsed = 0;
    }
    char* out = m_chunks.back().get() + m_chunkUsed;
    std::memcpy(out, text.data(), text.size());
    m_chunkUsed += text.size();
    return out;
}

} // namespace rankscope::model
