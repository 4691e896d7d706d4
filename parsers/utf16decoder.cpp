#include "parsers/utf16decoder.h"

namespace rankscope::parsers {

Utf16Decoder::Utf16Decoder(Start start)
    : m_started(start != Start::Bom)
    , m_bigEndian(start == Start::BigEndian)
{
}

void Utf16Decoder::emit(std::uint32_t cp, std::string& out)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

void Utf16Decoder::decode(std::string_view chunk, std::string& out)
{
    std::size_t i = 0;
    if (!m_started) {
        if (chunk.size() < 2)
            return; // wait for the BOM (callers feed ≥2 bytes first in practice)
        m_bigEndian = static_cast<unsigned char>(chunk[0]) == 0xfe;
        i = 2;
        m_started = true;
    }
    auto unitAt = [&](unsigned char a, unsigned char b) -> std::uint32_t {
        return m_bigEndian ? (static_cast<std::uint32_t>(a) << 8) | b
                           : (static_cast<std::uint32_t>(b) << 8) | a;
    };
    auto consume = [&](std::uint32_t unit) {
        if (unit >= 0xd800 && unit <= 0xdbff) {
            if (m_highSurrogate)
                emit(0xfffd, out);
            m_highSurrogate = unit;
            return;
        }
        if (unit >= 0xdc00 && unit <= 0xdfff) {
            if (m_highSurrogate) {
                emit(0x10000 + ((m_highSurrogate - 0xd800) << 10) + (unit - 0xdc00), out);
                m_highSurrogate = 0;
            } else {
                emit(0xfffd, out);
            }
            return;
        }
        if (m_highSurrogate) {
            emit(0xfffd, out);
            m_highSurrogate = 0;
        }
        emit(unit, out);
    };
    if (m_pendingByte >= 0 && i < chunk.size()) {
        consume(unitAt(static_cast<unsigned char>(m_pendingByte), static_cast<unsigned char>(chunk[i])));
        m_pendingByte = -1;
        ++i;
    }
    for (; i + 1 < chunk.size(); i += 2)
        consume(unitAt(static_cast<unsigned char>(chunk[i]), static_cast<unsigned char>(chunk[i + 1])));
    if (i < chunk.size())
        m_pendingByte = static_cast<unsigned char>(chunk[i]);
}

} // namespace rankscope::parsers
