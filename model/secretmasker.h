#pragma once
// Masks secrets in log lines before anything else reads them (issue 5): the scanner runs
// every line through a SecretMasker before prefix stripping and parsing, so no parser, no
// interned string and no export ever holds a raw token; the log viewer masks the raw lines
// it displays the same way. A secret is replaced by "‹masked:KIND›" (U+2039/U+203A).
//
// One input line → what it becomes, per kind:
//   hf-token        export HF_TOKEN=hf_AbCd…(30+ alnum)
//                   → export HF_TOKEN=‹masked:hf-token›
//   wandb-key       WANDB_API_KEY=0123…(40 hex), + wandb login 0123…(40 hex)
//                   → WANDB_API_KEY=‹masked:wandb-key›, + wandb login ‹masked:wandb-key›
//   aws-access-key  aws_access_key_id = AKIAIOSFODNN7EXAMPLE (AKIA/ASIA + 16 [A-Z0-9])
//                   → aws_access_key_id = ‹masked:aws-access-key›
//   aws-secret      aws_secret_access_key = wJalr…, AWS_SECRET_ACCESS_KEY=wJalr…
//                   → aws_secret_access_key = ‹masked:aws-secret›
//   github-token    git clone https://ghp_…(30+)@github.com/org/repo, github_pat_…
//                   → git clone https://‹masked:github-token›@github.com/org/repo
//   bearer-token    > Authorization: Bearer eyJhbGciOi…
//                   → > Authorization: Bearer ‹masked:bearer-token›
//                   ("Bearer"/"BEARER" + a token of 16+ chars, or 8+ with a digit, anywhere;
//                   after "Authorization:" any Bearer/Basic credential, however short)
//   private-key     -----BEGIN RSA PRIVATE KEY----- and every key line up to -----END
//                   → ‹masked:private-key› (what precedes the key on a line is kept)
//   url-password    MASTER_URL=postgres://alice:s3cret@db:5432/runs
//                   → MASTER_URL=postgres://alice:‹masked:url-password›@db:5432/runs
//   env-secret      DB_PASSWORD=hunter2 MY_SERVICE_TOKEN=abc
//                   → DB_PASSWORD=‹masked:env-secret› MY_SERVICE_TOKEN=‹masked:env-secret›
//   slack-token     xoxb-123456789012-…  → ‹masked:slack-token›
//   openai-key      OPENAI_API_KEY=sk-proj-…(32+) → OPENAI_API_KEY=‹masked:openai-key›
//   password        mysql password: hunter2 / passwd=hunter2 → password: ‹masked:password›
//
// Assignments (NAME=value, NAME = value, NAME: value, "NAME": "value"): the name decides
// whether the value is a secret, the value decides whether it is worth hiding.
// - Secret names, case-insensitive: ending in _TOKEN, _KEY, _SECRET, _PASSWORD or PASSWORD,
//   or exactly TOKEN, SECRET, APIKEY. "KEY" alone, KEY_PATH, NCCL_IB_TIMEOUT are not.
//   "NAME: value" counts only when the name has an underscore or a dash, or is a password
//   name: prose such as "invalid token: the token expired" is not a secret. A bare TOKEN,
//   SECRET or APIKEY needs its '=' right after the name (TOKEN=x).
// - Values that are never secrets: empty, numbers (22, 1.5, -1, 0x1f; except under a
//   password name: a PIN is a password), paths (/…, ~/…, ./…, ../…, C:\…), placeholders
//   (<pad>, [PAD], {…}, (…), $VAR, ${VAR}, %VAR%, ***, xxx), words with no information
//   (true, false, none, null, nil, yes, no, on, off, unset) and values already masked.
//   A tokenizer's pad_token=<pad> or a SSH_KEY=/path stays readable.
//
// Speed: mightContainSecret() is a SIMD prefilter (2-byte fingerprints, one pass, no
// branches per byte) that rejects almost every ordinary line; only lines that pass it are
// parsed by the detectors. Every detector needs one of the prefilter's fingerprints, so the
// prefilter never hides a secret from them.
//
// Multi-line private keys: a masker carries a small state from line to line (inside a
// "-----BEGIN … PRIVATE KEY-----" block), so feed it the lines of ONE stream in order; the
// scanner keeps one masker per source. The block ends at "-----END", after three lines in
// a row that are not key material (an interleaved writer, or a truncated key), or after
// kMaxPrivateKeyLines lines. To mask a window of lines out of order (a viewer scrolled to
// line N), feed the kMaxPrivateKeyLines lines before N first and discard their output.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

enum class SecretKind : std::uint8_t {
    HfToken,
    WandbKey,
    AwsAccessKey,
    AwsSecret,
    GithubToken,
    BearerToken,
    PrivateKey,
    UrlPassword,
    EnvSecret,
    SlackToken,
    OpenAiKey,
    Password,
    Count
};

inline constexpr std::size_t kSecretKindCount = static_cast<std::size_t>(SecretKind::Count);

// "hf-token", "url-password", …: the KIND in ‹masked:KIND›.
std::string_view secretKindName(SecretKind kind);

// "‹masked:hf-token›"
std::string maskedMarker(SecretKind kind);

struct SecretMaskerDetectors;

class SecretMasker {
public:
    static constexpr std::size_t kMaxPrivateKeyLines = 128;

    // The cheap test: false means the line certainly holds no secret this class masks.
    static bool mightContainSecret(std::string_view line) { return fingerprints(line) != 0; }
    // The prefilter's fingerprint buckets seen in the line (bit i = bucket i; see the .cpp).
    static std::uint8_t fingerprints(std::string_view line);
    // Masks `line` into `out` and returns true when it held a secret; otherwise returns
    // false and leaves `out` untouched (use the line as it is). Stateful for private keys.
    bool mask(std::string_view line, std::string& out)
    {
        const std::uint8_t buckets = fingerprints(line);
        if (m_keyLines == 0 && buckets == 0)
            return false;
        return maskSlow(line, out, buckets);
    }

    // True while inside a multi-line private key block.
    bool inPrivateKey() const { return m_keyLines > 0; }
    void reset();

    // Secrets masked since construction, per kind, and the kinds of the last masked line
    // (bit i = SecretKind i).
    const std::array<std::uint64_t, kSecretKindCount>& counts() const { return m_counts; }
    std::uint32_t lastKinds() const { return m_lastKinds; }

private:
    friend struct SecretMaskerDetectors;
    struct Span {
        std::size_t begin = 0;
        std::size_t end = 0;
        SecretKind kind = SecretKind::EnvSecret;
    };

    bool maskSlow(std::string_view line, std::string& out, std::uint8_t buckets);
    bool maskKeyBlockLine(std::string_view line, std::string& out);
    void emit(std::string_view line, std::string& out);

    std::vector<Span> m_spans; // reused between lines; only the slow path touches it
    std::size_t m_keyLines = 0; // lines since BEGIN while inside a key block, else 0
    std::size_t m_foreignLines = 0; // consecutive non-key lines inside a key block
    std::array<std::uint64_t, kSecretKindCount> m_counts {};
    std::uint32_t m_lastKinds = 0;
};

// One line, no state: what a viewer shows for a single line (a private key's body lines
// are only recognised by a SecretMasker fed the lines in order).
std::string maskSecrets(std::string_view line);

namespace detail {
// The portable prefilter the SIMD versions must agree with (tests compare them).
std::uint8_t fingerprintsScalar(std::string_view line);
// The 16-byte version (the scalar one where the CPU lacks SSSE3), tested on AVX2 machines.
std::uint8_t fingerprintsSsse3(std::string_view line);
} // namespace detail

} // namespace rankscope::model
