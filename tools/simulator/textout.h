#pragma once
// Locale-free, allocation-light text appending for the generator's hot loops: a GB-sized
// bundle is tens of millions of lines, so no iostreams and no printf parsing per line.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace rankscope::simulator {

// Right-aligned integer in `width` columns, filled with `fill` ("%5d", "%04d").
struct Pad {
    std::int64_t value;
    int width;
    char fill = ' ';
};

// Lower-case hex without "0x" ("%lx"), zero-padded to `width` when given.
struct Hex {
    std::uint64_t value;
    int width = 0;
};

// Fixed-point decimal ("%.2f").
struct Fixed {
    double value;
    int decimals;
};

class Text {
public:
    explicit Text(std::string& out)
        : m_out(out)
    {
    }

    Text& operator<<(std::string_view v)
    {
        m_out.append(v);
        return *this;
    }
    Text& operator<<(const char* v)
    {
        m_out.append(v);
        return *this;
    }
    Text& operator<<(const std::string& v)
    {
        m_out.append(v);
        return *this;
    }
    Text& operator<<(char c)
    {
        m_out.push_back(c);
        return *this;
    }
    template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>) Text&
    operator<<(T v)
    {
        char buf[24];
        auto res = std::to_chars(buf, buf + sizeof buf, v);
        m_out.append(buf, res.ptr);
        return *this;
    }
    Text& operator<<(Pad p)
    {
        char buf[24];
        auto res = std::to_chars(buf, buf + sizeof buf, p.value);
        const int len = static_cast<int>(res.ptr - buf);
        for (int i = len; i < p.width; ++i)
            m_out.push_back(p.fill);
        m_out.append(buf, res.ptr);
        return *this;
    }
    Text& operator<<(Hex h)
    {
        char buf[24];
        auto res = std::to_chars(buf, buf + sizeof buf, h.value, 16);
        const int len = static_cast<int>(res.ptr - buf);
        for (int i = len; i < h.width; ++i)
            m_out.push_back('0');
        m_out.append(buf, res.ptr);
        return *this;
    }
    Text& operator<<(Fixed f)
    {
        char buf[64];
        auto res
            = std::to_chars(buf, buf + sizeof buf, f.value, std::chars_format::fixed, f.decimals);
        m_out.append(buf, res.ptr);
        return *this;
    }

private:
    std::string& m_out;
};

inline std::string toHex(std::uint64_t v, int width = 0)
{
    std::string s;
    Text(s) << Hex { v, width };
    return s;
}

} // namespace rankscope::simulator
