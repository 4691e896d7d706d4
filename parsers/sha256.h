#pragma once
// Streaming SHA-256 of each source, for the report's input list (reproducibility: a
// teammate can check they look at the same bytes). OpenSSL's implementation uses the
// CPU's SHA extensions, so hashing costs little next to parsing.

#include <memory>
#include <string>
#include <string_view>

namespace rankscope::parsers {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view bytes);
    // Lowercase hex digest; the object must not be updated afterwards.
    std::string finish();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

std::string sha256Hex(std::string_view bytes);

} // namespace rankscope::parsers
