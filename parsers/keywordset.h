#pragma once
// A one-pass multi-keyword prefilter: which of up to 64 keywords occur in a line, in one
// scan. Keywords are spread over 8 buckets; every position of the line is tested for "could
// a keyword of bucket b start here" by its first 4 bytes, 32 positions at a time with AVX2
// (16 with SSSE3), each byte looked up by its low and high nibble (the "Teddy" scheme of
// Hyperscan, as in model/secretmasker.cpp). Only the rare positions that pass are compared
// with the bucket's keywords. Every keyword must be at least 4 bytes long. Built once,
// immutable, cheap on lines that contain none of the words.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

class KeywordSet {
public:
    static constexpr std::size_t kMaxKeywords = 64;
    static constexpr std::size_t kMinLength = 4;

    // Keyword i (in the given order) is bit i of find()'s result.
    explicit KeywordSet(std::vector<std::string_view> keywords);

    std::uint64_t find(std::string_view text) const;
    std::string_view keyword(unsigned index) const { return m_keywords[index]; }
    std::size_t size() const { return m_keywords.size(); }

    // The bytes of a keyword's start that pick candidate positions.
    static constexpr std::size_t kPrefix = 4;
    // Bucket bits (bit b = bucket b) by the low and the high nibble of prefix byte j; each
    // 16-entry table is written twice so that one 32-byte load serves both AVX2 lanes.
    struct Tables {
        alignas(32) std::uint8_t lo[kPrefix][32] {};
        alignas(32) std::uint8_t hi[kPrefix][32] {};
    };

private:
    // Compares the keywords of `buckets` with the text at `pos`.
    std::uint64_t verify(std::string_view text, std::size_t pos, unsigned buckets) const;

    std::vector<std::string_view> m_keywords;
    Tables m_tables;
    std::array<std::uint64_t, 8> m_bucketKeywords {};
    std::vector<std::uint32_t> m_firstWord; // each keyword's first 4 bytes
};

} // namespace rankscope::parsers
