#include "parsers/sha256.h"

#include <openssl/evp.h>

namespace rankscope::parsers {

struct Sha256::State {
    EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    m_state->ctx = EVP_MD_CTX_new();
    if (m_state->ctx)
        EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256()
{
    if (m_state->ctx)
        EVP_MD_CTX_free(m_state->ctx);
}

void Sha256::update(std::string_view bytes)
{
    if (m_state->ctx && !bytes.empty())
        EVP_DigestUpdate(m_state->ctx, bytes.data(), bytes.size());
}

std::string Sha256::finish()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!m_state->ctx || EVP_DigestFinal_ex(m_state->ctx, digest, &len) != 1)
        return {};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 0xf];
    }
    return out;
}

std::string sha256Hex(std::string_view bytes)
{
    Sha256 h;
    h.update(bytes);
    return h.finish();
}

} // namespace rankscope::parsers
