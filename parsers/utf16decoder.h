#pragma once
// Streaming UTF-16 (with a BOM, or a byte order sniffed from the text) → UTF-8, for logs saved by Windows tools or PowerShell
// redirection. Invalid surrogates become U+FFFD; a byte or surrogate split across chunks
// is carried over.

#include <cstdint>
#include <string>
#include <string_view>

namespace rankscope::parsers {

class Utf16Decoder {
public:
    enum class Start { Bom, LittleEndian, BigEndian }; // how the byte order is known

    explicit Utf16Decoder(Start start = Start::Bom);
    // Appends the UTF-8 of `chunk` to `out`. With Start::Bom the first two bytes of the
    // stream (the BOM) decide the byte order and are dropped.
    void decode(std::string_view chunk, std::string& out);

private:
    void emit(std::uint32_t cp, std::string& out);

    bool m_started = false;
    bool m_bigEndian = false;
    int m_pendingByte = -1;
    std::uint32_t m_highSurrogate = 0;
};

} // namespace rankscope::parsers
