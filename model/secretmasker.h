#pragma once
// Masks secrets in every string before the model holds it (issues 5 and 21): the scanner
// runs every log line through a SecretMasker before prefix stripping and parsing, and
// ParsedSource masks every other string that enters it (interned dump fields, error.json
// messages, file and folder names, import-issue samples), so no parser, no interned string
// and no export ever holds a raw token. A secret is replaced by "‹masked:KIND›"
// (U+2039/U+203A). The catalogue of forms, their sources and their limits:
// docs/secret-masking.md.
//
// The forms are data: one table in secretmasker.cpp (kCatalogue) names, for each form, its
// kind, the prefilter bucket every match holds a pair of, the keywords every match holds and
// its matcher (an RE2 pattern compiled once, or one of the few structured detectors whose
// rule is more than a pattern: NAME=value assignments, URL passwords, Authorization headers,
// private-key blocks). One input line → what it becomes, for a few kinds:
//   hf-token        export HF_TOKEN=hf_AbCd…(30+ alnum) → export HF_TOKEN=‹masked:hf-token›
//   jwt             Cookie: session=eyJhbGciOi….eyJzdWIi….SflKx → Cookie: session=‹masked:jwt›
//   password        mysql -u root -pHunter2 runs → mysql -u root -p‹masked:password› runs
//   aws-secret      a bare wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY → ‹masked:aws-secret›
//   url-password    postgres://alice:s3cret@db:5432/runs → postgres://alice:‹masked:url-password›@db…
//   env-secret      DB_PASSWORD=hunter2 MY_SERVICE_TOKEN=abc
//                   → DB_PASSWORD=‹masked:env-secret› MY_SERVICE_TOKEN=‹masked:env-secret›
//   private-key     -----BEGIN RSA PRIVATE KEY----- and every key line up to -----END
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
// Speed: mightContainSecret() is the prefilter every line meets first. It looks for 2-byte
// fingerprints in 8 buckets (a SIMD pass, no branches per byte) and, only when it finds
// none, for a run of kLongTokenRun base64 bytes (the shape of a bare AWS secret key). Every
// catalogue row names the bucket (or the run) each of its matches holds, so the prefilter
// never hides a secret from the detectors; test_secretmasker.cpp proves it row by row.
//
// What the prefilter promises to callers that skip the masker on a line it would pass
// (NcclParser::recordRepeatedColl tells a repeated COLL line clean from its pieces: the
// writer's line start — launcher label and NCCL header, tested whole, ending in a space —
// the op's head, the counters, and the tail from " datatype " on); each claim is checked
// against the prefilter itself in test_secretmasker.cpp:
//   1. A space is the first byte of no pair, nor the second byte of a pair whose first
//      byte is a letter or a digit, and no base64 run crosses it: two clean strings joined
//      by a space next to a letter or digit are clean.
//   2. A run of lowercase hex digits or decimal digits shorter than kLongTokenRun is clean,
//      and so is "0x" followed by one that does not start with 'a' ("xa" is a pair), and
//      "(nil)".
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
#include <utility>
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
    Jwt,
    GoogleApiKey,
    GitlabToken,
    NpmToken,
    StripeKey,
    AzureKey,
    AzureSas,
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
    // Bytes [begin, end) of a line that one detector claims.
    struct Span {
        std::size_t begin = 0;
        std::size_t end = 0;
        SecretKind kind = SecretKind::EnvSecret;
    };

    static constexpr std::size_t kMaxPrivateKeyLines = 128;
    // A run of this many base64 bytes ([A-Za-z0-9+/]) may be a bare secret key.
    static constexpr std::size_t kLongTokenRun = 40;

    // The cheap test: false means the line certainly holds no secret this class masks.
    static bool mightContainSecret(std::string_view line)
    {
        return fingerprints(line) != 0 || hasLongTokenRun(line);
    }
    // The prefilter's fingerprint buckets seen in the line (bit i = bucket i; see the .cpp).
    static std::uint8_t fingerprints(std::string_view line);
    // True when the line holds kLongTokenRun base64 bytes in a row.
    static bool hasLongTokenRun(std::string_view line);
    // Masks `line` into `out` and returns true when it held a secret; otherwise returns
    // false and leaves `out` untouched (use the line as it is). Stateful for private keys.
    bool mask(std::string_view line, std::string& out)
    {
        const std::uint8_t buckets = fingerprints(line);
        if (m_keyLines == 0 && buckets == 0 && !hasLongTokenRun(line))
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

// Masks a string that may hold several lines (an error.json message, a dump field, a path)
// line by line with one masker, so a private key spread over its lines is masked too.
// Returns false and leaves `out` untouched when nothing was masked.
bool maskText(std::string_view text, std::string& out);

namespace detail {
// The portable prefilter the SIMD versions must agree with (tests compare them).
std::uint8_t fingerprintsScalar(std::string_view line);
bool hasLongTokenRunScalar(std::string_view line);

// One row of the catalogue, as the tests see it: every row must mask its example line, and
// every line it masks must pass the prefilter.
struct SecretPatternInfo {
    SecretKind kind;
    int bucket; // prefilter bucket each match holds a pair of; kRunBucket: a long run; -1: any
    std::string_view keywords; // '|'-separated, lowercase; one is in every match
    std::string_view regex; // empty for a structured detector
    std::string_view example; // a line the row masks
};
inline constexpr int kRunBucket = 8;
std::vector<SecretPatternInfo> secretCatalogue();
// The spans one row alone masks in `line`, as [begin, end) pairs (empty when none).
std::vector<std::pair<std::size_t, std::size_t>> matchRow(std::size_t row, std::string_view line);
// The 16-byte version (the scalar one where the CPU lacks SSSE3), tested on AVX2 machines.
std::uint8_t fingerprintsSsse3(std::string_view line);
} // namespace detail

} // namespace rankscope::model
