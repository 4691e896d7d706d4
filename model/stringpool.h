#pragma once
// Interned strings: hosts, process-group keys, op names and message bodies repeat
// thousands of times across ranks, so events hold a 32-bit id instead of a copy.

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope::model {

using StrId = std::uint32_t;
inline constexpr StrId kNoStr = 0;

class StringPool {
public:
    StringPool();
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;
    StringPool(const StringPool&) = delete;
    StringPool& operator=(const StringPool&) = delete;

    // Returns kNoStr for the empty string, so "absent" and "empty" read the same.
    StrId intern(std::string_view text);
    // Id of text if it was interned before, kNoStr otherwise; never allocates.
    StrId find(std::string_view text) const;
    std::string_view view(StrId id) const { return m_views[id]; }
    std::size_t size() const { return m_views.size(); }

private:
    const char* store(std::string_view text);

    // Chunks never move once allocated, so the views below stay valid when the pool moves.
    std::vector<std::unique_ptr<char[]>> m_chunks;
    std::size_t m_chunkUsed = 0;
    std::size_t m_chunkSize = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, StrId> m_index;
};

} // namespace rankscope::model
