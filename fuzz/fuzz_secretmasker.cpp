// The secret masker's promise as a property: a known secret placed anywhere in arbitrary
// text, set apart by spaces, never survives masking, through both the stateful masker and
// the one-line function. Public API only (model/secretmasker.h).
//
// Input: byte 0 picks the secret, bytes 1-2 where it goes, the rest is the text around it
// (line breaks removed: one line at a time is what the masker is given).

#include "fuzzinput.h"
#include "model/secretmasker.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

using namespace rankscope;

namespace {

struct KnownSecret {
    std::string_view text; // what is placed in the line
    std::string_view secret; // what must not be in the output
};

// Each as the masker's header documents it masks it, whatever surrounds it.
constexpr std::array<KnownSecret, 8> kSecrets { {
    { "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789" },
    { "ghp_0123456789abcdefghijABCDEFGHIJ012345", "ghp_0123456789abcdefghijABCDEFGHIJ012345" },
    { "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE" },
    { "xoxb-123456789012-123456789012-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-123456789012-123456789012-AbCdEfGhIjKlMnOpQrStUvWx" },
    { "HF_TOKEN=hf_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210", "hf_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210" },
    { "WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567",
        "0123456789abcdef0123456789abcdef01234567" },
    { "postgres://alice:Sup3rS3cretPw@db:5432/runs", "Sup3rS3cretPw" },
    { "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl" },
} };

std::size_t occurrences(std::string_view text, std::string_view what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 3)
        return 0;
    const KnownSecret& known = kSecrets[data[0] % kSecrets.size()];
    std::string text(fuzz::bytesOf(data + 3, size - 3));
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    const std::size_t at = text.empty() ? 0 : (data[1] | data[2] << 8) % (text.size() + 1);
    const std::string line
        = text.substr(0, at) + " " + std::string(known.text) + " " + text.substr(at);

    // The fuzzer copies the secret's bytes into the text too (libFuzzer's dictionary of
    // compared strings holds it), where, inside a longer word or without its name, they are
    // nothing the masker promises to mask (a 42-byte hex word is no wandb key). The placed
    // secret is set apart by spaces and holds none, so it is gone exactly when the output
    // holds the secret no more often than the text around it does.
    const std::size_t around = occurrences(text, known.secret);
    model::SecretMasker masker;
    std::string masked;
    if (!masker.mask(line, masked) || occurrences(masked, known.secret) > around)
        std::abort();
    if (occurrences(model::maskSecrets(line), known.secret) > around)
        std::abort();
    return 0;
}
