#pragma once
// Interned strings: hosts, process-group keys, op names and message bodies repeat
// thousands of times across ranks, so events hold a 32-bit id instead of a copy.

#include <cstdint>
#include <memory>
#include <string_view>
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
    // intern(other.view(id)) without hashing the text again (merging a source's pool into
    // the bundle's: every pool hashes the same way). kNoStr for kNoStr or an unknown id.
    StrId internFrom(const StringPool& other, StrId id);
    // Id of text if it was interned before, kNoStr otherwise; never allocates.
    StrId find(std::string_view text) const;
    std::string_view view(StrId id) const { return m_views[id]; }
    std::size_t size() const { return m_views.size(); }

private:
    StrId internHashed(std::string_view text, std::uint64_t hash); // text not empty
    const char* store(std::string_view text);
    // The slot holding text's id, or the empty slot where it belongs.
    std::size_t slotFor(std::string_view text, std::uint64_t hash) const;
    void grow();

    // Chunks never move once allocated, so the views below stay valid when the pool moves.
    std::vector<std::unique_ptr<char[]>> m_chunks;
    std::size_t m_chunkUsed = 0;
    std::size_t m_chunkSize = 0;
    std::vector<std::string_view> m_views;
    // Open addressing with linear probing: ids by hash (kNoStr = empty), at most half full,
    // and each id's hash so that probes and rehashing rarely compare text. A node-based
    // map allocated once per string, thousands of times per source.
    std::vector<StrId> m_slots;
    std::vector<std::uint64_t> m_hashes; // by id
};

} // namespace rankscope::model
