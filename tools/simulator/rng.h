#pragma once
// Seeded randomness that is identical on every standard library: std::mt19937_64's raw
// output is specified by the standard, its distributions are not, so ranges are mapped
// here. Independent streams (per rank, per purpose) are derived with splitmix64 so that a
// rank's text never depends on the order other ranks were generated in.

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace rankscope::simulator {

class Rng {
public:
    explicit Rng(std::uint64_t seed)
        : m_engine(seed)
    {
    }

    static std::uint64_t mix(std::uint64_t a, std::uint64_t b)
    {
        std::uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    static std::uint64_t hashName(std::string_view s)
    {
        std::uint64_t h = 1469598103934665603ULL;
        for (char c : s)
            h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
        return h;
    }
    // A child stream for (purpose, index).
    Rng fork(std::string_view purpose, std::uint64_t index = 0) const
    {
        return Rng(mix(mix(m_seedBase, hashName(purpose)), index));
    }
    static Rng derived(std::uint64_t seed, std::string_view purpose, std::uint64_t index = 0)
    {
        return Rng(mix(mix(seed, hashName(purpose)), index));
    }

    std::uint64_t next() { return m_engine(); }
    // High 64 bits of a 64x64 product (maps a random word onto [0, span) without modulo bias
    // worth caring about, and without the non-standard __int128).
    static std::uint64_t mulHigh(std::uint64_t a, std::uint64_t b)
    {
        const std::uint64_t aLo = a & 0xffffffffULL, aHi = a >> 32;
        const std::uint64_t bLo = b & 0xffffffffULL, bHi = b >> 32;
        const std::uint64_t lolo = aLo * bLo;
        const std::uint64_t hilo = aHi * bLo;
        const std::uint64_t lohi = aLo * bHi;
        const std::uint64_t hihi = aHi * bHi;
        const std::uint64_t cross = (lolo >> 32) + (hilo & 0xffffffffULL) + lohi;
        return hihi + (hilo >> 32) + (cross >> 32);
    }
    // Inclusive range.
    std::int64_t uniform(std::int64_t lo, std::int64_t hi)
    {
        if (hi <= lo)
            return lo;
        const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(mulHigh(next(), span));
    }
    int uniformInt(int lo, int hi) { return static_cast<int>(uniform(lo, hi)); }
    double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    double real(double lo, double hi) { return lo + (hi - lo) * unit(); }
    bool chance(double p) { return unit() < p; }
    template <typename T> const T& pick(const std::vector<T>& v)
    {
        return v[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(v.size()) - 1))];
    }
    template <typename T, std::size_t N> const T& pick(const T (&v)[N])
    {
        return v[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(N) - 1))];
    }

private:
    std::mt19937_64 m_engine;
    std::uint64_t m_seedBase = m_engine();
};

} // namespace rankscope::simulator
