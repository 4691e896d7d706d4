#include "model/secretmasker.h"

#include "model/bytescan.h"

#include <algorithm>
#include <cstring>
#include <optional>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RANKSCOPE_MASKER_X86 1
#include <immintrin.h>
#endif

namespace rankscope::model {

std::string_view secretKindName(SecretKind kind)
{
    switch (kind) {
    case SecretKind::HfToken:
        return "hf-token";
    case SecretKind::WandbKey:
        return "wandb-key";
    case SecretKind::AwsAccessKey:
        return "aws-access-key";
    case SecretKind::AwsSecret:
        return "aws-secret";
    case SecretKind::GithubToken:
        return "github-token";
    case SecretKind::BearerToken:
        return "bearer-token";
    case SecretKind::PrivateKey:
        return "private-key";
    case SecretKind::UrlPassword:
        return "url-password";
    case SecretKind::EnvSecret:
        return "env-secret";
    case SecretKind::SlackToken:
        return "slack-token";
    case SecretKind::OpenAiKey:
        return "openai-key";
    case SecretKind::Password:
        return "password";
    case SecretKind::Count:
        break;
    }
    return "secret";
}

std::string maskedMarker(SecretKind kind)
{
    std::string out = "\xE2\x80\xB9masked:"; // ‹
    out += secretKindName(kind);
    out += "\xE2\x80\xBA"; // ›
    return out;
}

// ---------------------------------------------------------------------------------------
// Prefilter: 2-byte fingerprints in 8 buckets (the "Teddy" scheme of Hyperscan). For each
// bucket, a byte pair (a, b) matches when a is in the bucket's first-byte set and b in its
// second-byte set; set membership is looked up by low and high nibble, 16 bytes (SSSE3) or
// 32 bytes (AVX2) at a time. Nibble lookups over-approximate a set (a cross product of
// nibbles), which only costs a few false candidates. Fingerprints are chosen so that no
// pair is made of two hex digits: NCCL lines are full of pointers (0x55bef0201370).
//   bucket 0  '_' + any     hf_, ghp_, github_pat_, *_TOKEN=, *_KEY=, aws_secret_access_key
//   bucket 1  '@' + any     scheme://user:password@host
//   bucket 2  [-kK] + '-'   -----BEGIN … PRIVATE KEY, sk-…
//   bucket 3  [nNyYtT] + [=:] TOKEN=, APIKEY=, SECRET=, Authorization: (any scheme: GitHub's
//                           "Authorization: token …" has no Bearer/Basic word)
//   bucket 4  [xw] + [oa]   xox?-… (Slack), wandb
//   bucket 5  [sS] + [wW]   password, passwd, PASSWORD
//   bucket 6  'A' + [KS]    AKIA…, ASIA…
//   bucket 7  'B' + [eEa]   Bearer, BEARER, Basic (Authorization headers)

namespace {

struct Fingerprints {
    // Each table is repeated twice so one 32-byte load serves both AVX2 lanes.
    alignas(32) std::uint8_t lo0[32] {};
    alignas(32) std::uint8_t hi0[32] {};
    alignas(32) std::uint8_t lo1[32] {};
    alignas(32) std::uint8_t hi1[32] {};
};

constexpr void addBucket(
    Fingerprints& f, int bucket, std::string_view first, std::string_view second)
{
    const auto bit = static_cast<std::uint8_t>(1u << bucket);
    for (char ch : first) {
        const auto c = static_cast<unsigned char>(ch);
        f.lo0[c & 15] |= bit;
        f.hi0[c >> 4] |= bit;
    }
    if (second.empty()) {
        for (int n = 0; n < 16; ++n) {
            f.lo1[n] |= bit;
            f.hi1[n] |= bit;
        }
    }
    for (char ch : second) {
        const auto c = static_cast<unsigned char>(ch);
        f.lo1[c & 15] |= bit;
        f.hi1[c >> 4] |= bit;
    }
}

constexpr Fingerprints makeFingerprints()
{
    Fingerprints f;
    addBucket(f, 0, "_", "");
    addBucket(f, 1, "@", "");
    addBucket(f, 2, "-kK", "-");
    addBucket(f, 3, "nNyYtT", "=:");
    addBucket(f, 4, "xw", "oa");
    addBucket(f, 5, "sS", "wW");
    addBucket(f, 6, "A", "KS");
    addBucket(f, 7, "B", "eEa");
    for (int n = 0; n < 16; ++n) {
        f.lo0[16 + n] = f.lo0[n];
        f.hi0[16 + n] = f.hi0[n];
        f.lo1[16 + n] = f.lo1[n];
        f.hi1[16 + n] = f.hi1[n];
    }
    return f;
}

constexpr Fingerprints kPrints = makeFingerprints();

std::uint8_t pairBuckets(unsigned char a, unsigned char b)
{
    return kPrints.lo0[a & 15] & kPrints.hi0[a >> 4] & kPrints.lo1[b & 15] & kPrints.hi1[b >> 4];
}

// The buckets with at least one matching pair in the line (bit i = bucket i), 0 when none.
std::uint8_t fingerprintsScalar(const char* p, std::size_t n)
{
    std::uint8_t buckets = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto a = static_cast<unsigned char>(p[i]);
        const auto b = i + 1 < n ? static_cast<unsigned char>(p[i + 1]) : 0;
        buckets |= pairBuckets(a, b);
    }
    return buckets;
}

#ifdef RANKSCOPE_MASKER_X86
// The buckets whose second byte may be anything also match at the line's last byte.
std::uint8_t lastByteBuckets(char c)
{
    return c == '_' ? 1u : c == '@' ? 2u : 0u;
}

// The OR of the bucket bytes of all lanes.
__attribute__((target("ssse3"))) std::uint8_t orLanes(__m128i v)
{
    v = _mm_or_si128(v, _mm_srli_si128(v, 8));
    v = _mm_or_si128(v, _mm_srli_si128(v, 4));
    v = _mm_or_si128(v, _mm_srli_si128(v, 2));
    v = _mm_or_si128(v, _mm_srli_si128(v, 1));
    return static_cast<std::uint8_t>(_mm_cvtsi128_si32(v));
}

__attribute__((target("ssse3"))) __m128i blockSsse3(const char* q)
{
    const __m128i nibble = _mm_set1_epi8(0x0f);
    const __m128i lo0 = _mm_load_si128(reinterpret_cast<const __m128i*>(kPrints.lo0));
    const __m128i hi0 = _mm_load_si128(reinterpret_cast<const __m128i*>(kPrints.hi0));
    const __m128i lo1 = _mm_load_si128(reinterpret_cast<const __m128i*>(kPrints.lo1));
    const __m128i hi1 = _mm_load_si128(reinterpret_cast<const __m128i*>(kPrints.hi1));
    const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 1));
    const __m128i a = _mm_and_si128(_mm_shuffle_epi8(lo0, _mm_and_si128(r0, nibble)),
        _mm_shuffle_epi8(hi0, _mm_and_si128(_mm_srli_epi16(r0, 4), nibble)));
    const __m128i b = _mm_and_si128(_mm_shuffle_epi8(lo1, _mm_and_si128(r1, nibble)),
        _mm_shuffle_epi8(hi1, _mm_and_si128(_mm_srli_epi16(r1, 4), nibble)));
    return _mm_and_si128(a, b);
}

__attribute__((target("ssse3"))) std::uint8_t fingerprintsSsse3(const char* p, std::size_t n)
{
    if (n < 17) {
        // Too short for one block: a zero-padded copy (a 0 byte pairs with nothing).
        alignas(16) char tail[32] = {};
        std::memcpy(tail, p, n);
        return orLanes(blockSsse3(tail));
    }
    // A block reads 17 bytes (the last pair's second byte) and tests 16 positions.
    __m128i hits = _mm_setzero_si128();
    std::size_t i = 0;
    for (; i + 17 <= n; i += 16)
        hits = _mm_or_si128(hits, blockSsse3(p + i));
    // The rest by one overlapping block, and the last byte, which has no pair of its own.
    if (i + 1 < n)
        hits = _mm_or_si128(hits, blockSsse3(p + n - 17));
    return orLanes(hits) | lastByteBuckets(p[n - 1]);
}

__attribute__((target("avx2"))) __m256i blockAvx2(const char* q)
{
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    const __m256i lo0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPrints.lo0));
    const __m256i hi0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPrints.hi0));
    const __m256i lo1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPrints.lo1));
    const __m256i hi1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPrints.hi1));
    const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
    const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 1));
    const __m256i a = _mm256_and_si256(_mm256_shuffle_epi8(lo0, _mm256_and_si256(r0, nibble)),
        _mm256_shuffle_epi8(hi0, _mm256_and_si256(_mm256_srli_epi16(r0, 4), nibble)));
    const __m256i b = _mm256_and_si256(_mm256_shuffle_epi8(lo1, _mm256_and_si256(r1, nibble)),
        _mm256_shuffle_epi8(hi1, _mm256_and_si256(_mm256_srli_epi16(r1, 4), nibble)));
    return _mm256_and_si256(a, b);
}

__attribute__((target("avx2"))) std::uint8_t orLanes(__m256i v)
{
    return orLanes(_mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}

__attribute__((target("avx2"))) std::uint8_t fingerprintsAvx2(const char* p, std::size_t n)
{
    if (n < 33) {
        alignas(32) char tail[64] = {};
        std::memcpy(tail, p, n);
        return orLanes(blockAvx2(tail));
    }
    __m256i hits = _mm256_setzero_si256();
    std::size_t i = 0;
    for (; i + 33 <= n; i += 32)
        hits = _mm256_or_si256(hits, blockAvx2(p + i));
    if (i + 1 < n)
        hits = _mm256_or_si256(hits, blockAvx2(p + n - 33));
    return orLanes(hits) | lastByteBuckets(p[n - 1]);
}
#endif

using FingerprintFinder = std::uint8_t (*)(const char*, std::size_t);

FingerprintFinder chooseFinder()
{
#ifdef RANKSCOPE_MASKER_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return fingerprintsAvx2;
    if (__builtin_cpu_supports("ssse3"))
        return fingerprintsSsse3;
#endif
    return fingerprintsScalar;
}

// ---------------------------------------------------------------------------------------
// Detectors. Locale-free character classes: logs are full of bytes >= 0x80.

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isUpper(char c)
{
    return c >= 'A' && c <= 'Z';
}
bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}
bool isAlpha(char c)
{
    return isUpper(c) || isLower(c);
}
bool isAlnum(char c)
{
    return isAlpha(c) || isDigit(c);
}
bool isWord(char c)
{
    return isAlnum(c) || c == '_';
}
bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}
bool isBase64(char c)
{
    return isAlnum(c) || c == '+' || c == '/' || c == '=';
}
char lower(char c)
{
    return isUpper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}
// strchr() also finds the terminating NUL, and logs do contain NUL bytes.
bool oneOf(char c, const char* set)
{
    return c != '\0' && std::strchr(set, c) != nullptr;
}

bool iEquals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

bool iEndsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && iEquals(s.substr(s.size() - suffix.size()), suffix);
}

// Case-insensitive search for a needle of lowercase letters ("authorization", "wandb"):
// c | 0x20 equals a lowercase letter only for that letter and its capital, so the first two
// bytes are tested without branches before the whole needle is compared.
std::size_t iFind(std::string_view s, std::string_view needle, std::size_t from = 0)
{
    if (needle.size() < 2 || s.size() < needle.size())
        return std::string_view::npos;
    const char n0 = needle[0];
    const char n1 = needle[1];
    const std::size_t last = s.size() - needle.size(); // the last possible start
    std::size_t i = from;
#if defined(__SSE2__)
    // 16 starts at a time; a block reads 17 bytes, so it runs while 17 are left.
    const __m128i case20 = _mm_set1_epi8(0x20);
    const __m128i v0 = _mm_set1_epi8(n0);
    const __m128i v1 = _mm_set1_epi8(n1);
    for (; i + 17 <= s.size() && i <= last; i += 16) {
        const __m128i a
            = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i)), case20);
        const __m128i b = _mm_or_si128(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i + 1)), case20);
        auto mask = static_cast<unsigned>(
            _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, v0), _mm_cmpeq_epi8(b, v1))));
        while (mask != 0) {
            const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(mask));
            if (at > last)
                return std::string_view::npos;
            if (iEquals(s.substr(at, needle.size()), needle))
                return at;
            mask &= mask - 1;
        }
    }
#endif
    for (; i <= last; ++i)
        if (static_cast<char>(s[i] | 0x20) == n0 && static_cast<char>(s[i + 1] | 0x20) == n1
            && iEquals(s.substr(i, needle.size()), needle))
            return i;
    return std::string_view::npos;
}

template <class Pred> std::size_t runEnd(std::string_view s, std::size_t i, Pred pred)
{
    while (i < s.size() && pred(s[i]))
        ++i;
    return i;
}

constexpr std::string_view kMarkerOpen = "\xE2\x80\xB9"; // ‹
constexpr std::string_view kMarkerClose = "\xE2\x80\xBA"; // ›

bool startsMasked(std::string_view s, std::size_t i)
{
    return s.substr(i, kMarkerOpen.size()) == kMarkerOpen;
}

// "key" as a word of the line, not the end of a marker such as ‹masked:openai-key›.
bool mentionsKey(std::string_view s)
{
    for (std::size_t at = iFind(s, "key"); at != std::string_view::npos;
         at = iFind(s, "key", at + 1))
        if (s.substr(at + 3, kMarkerClose.size()) != kMarkerClose)
            return true;
    return false;
}

// A token starts at a word boundary: "use_hf_transfer" is not an "hf_" token.
bool tokenStart(std::string_view s, std::size_t i)
{
    return i == 0 || !(isWord(s[i - 1]) || s[i - 1] == '-');
}

// Values that carry no secret even under a secret name (see the header). A password of
// digits is still a password; a MAX_TOKEN of 2048 is a setting.
bool harmlessValue(std::string_view v, bool password)
{
    if (v.empty() || startsMasked(v, 0))
        return true;
    // Placeholders and markup: <pad>, [PAD], {…}, (…), $VAR, ${VAR}, %VAR%.
    if (oneOf(v.front(), "<[{($%"))
        return true;
    // Paths.
    if (v.front() == '/' || v.front() == '~' || v.substr(0, 2) == "./" || v.substr(0, 3) == "../")
        return true;
    if (v.size() >= 3 && isAlpha(v[0]) && v[1] == ':' && (v[2] == '\\' || v[2] == '/'))
        return true;
    // Numbers: 22, -1, 1.5e-3, 0x1f.
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')
        && runEnd(v, 2, isHex) == v.size())
        return true;
    bool digit = false;
    bool number = true;
    for (char c : v) {
        digit |= isDigit(c);
        if (!(isDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' || c == '_'))
            number = false;
    }
    if (number && digit && !password)
        return true;
    // Redacted already, or no information at all.
    if (std::all_of(v.begin(), v.end(), [](char c) { return c == '*' || c == '.'; }))
        return true;
    if (v.size() >= 3
        && std::all_of(v.begin(), v.end(), [](char c) { return c == 'x' || c == 'X'; }))
        return true;
    for (std::string_view word :
        { "true", "false", "none", "null", "nil", "yes", "no", "on", "off", "unset", "undefined" })
        if (iEquals(v, word))
            return true;
    return false;
}

} // namespace

// The detectors: each appends the byte ranges it claims; SecretMasker::emit merges them.
struct SecretMaskerDetectors {
    using Span = SecretMasker::Span;
    using Spans = std::vector<Span>;

    static void add(Spans& spans, std::size_t begin, std::size_t end, SecretKind kind)
    {
        if (end > begin)
            spans.push_back({ begin, end, kind });
    }

    // hf_…, ghp_…/gho_…/ghu_…/ghs_…/ghr_…, github_pat_…, AKIA…/ASIA…, xox?-…, sk-….
    // Each kind is looked for only where a byte it must hold occurs ('_', 'A', 'x', "k-"),
    // and only when the prefilter saw its bucket (bit i = bucket i, see the table above).
    static void prefixedTokens(std::string_view s, std::uint8_t buckets, Spans& spans)
    {
        const char* const end = s.data() + s.size();
        auto each = [&](char c, auto&& at) {
            for (const char* p = findByte(s.data(), end, c); p != end; p = findByte(p + 1, end, c))
                at(static_cast<std::size_t>(p - s.data()));
        };
        auto startsAt = [&](std::size_t i, std::string_view word) {
            return i + word.size() <= s.size() && s.compare(i, word.size(), word) == 0
                && tokenStart(s, i);
        };
        if (buckets & 1u) {
            each('_', [&](std::size_t u) {
                // The byte before the '_' rules out most underscores of code and paths
                // before any comparison: hf_ (f), gh?_ (p o u s r), github_pat_ (b).
                if (u == 0 || !oneOf(s[u - 1], "fpousrb"))
                    return;
                if (u >= 2 && startsAt(u - 2, "hf_")) {
                    const std::size_t end = runEnd(s, u + 1, isAlnum);
                    if (end - (u + 1) >= 30)
                        add(spans, u - 2, end, SecretKind::HfToken);
                }
                if (u >= 3 && s[u - 3] == 'g' && s[u - 2] == 'h' && oneOf(s[u - 1], "pousr")
                    && tokenStart(s, u - 3)) {
                    const std::size_t end = runEnd(s, u + 1, isAlnum);
                    if (end - (u + 1) >= 30)
                        add(spans, u - 3, end, SecretKind::GithubToken);
                }
                if (u >= 6 && startsAt(u - 6, "github_pat_")) {
                    const std::size_t end = runEnd(s, u + 5, isWord);
                    if (end - (u + 5) >= 22)
                        add(spans, u - 6, end, SecretKind::GithubToken);
                }
            });
        }
        if (buckets & (1u << 6)) {
            each('A', [&](std::size_t i) {
                if (!startsAt(i, "AKIA") && !startsAt(i, "ASIA"))
                    return;
                const std::size_t end
                    = runEnd(s, i + 4, [](char ch) { return isUpper(ch) || isDigit(ch); });
                if (end - (i + 4) == 16 && (end == s.size() || !isAlnum(s[end])))
                    add(spans, i, end, SecretKind::AwsAccessKey);
            });
        }
        if (buckets & (1u << 4)) {
            each('x', [&](std::size_t i) {
                if (!startsAt(i, "xox") || i + 4 >= s.size() || !oneOf(s[i + 3], "bpars")
                    || s[i + 4] != '-')
                    return;
                const std::size_t end
                    = runEnd(s, i + 5, [](char ch) { return isAlnum(ch) || ch == '-'; });
                if (end - (i + 5) >= 10)
                    add(spans, i, end, SecretKind::SlackToken);
            });
        }
        if (buckets & (1u << 2)) {
            each('-', [&](std::size_t d) {
                if (d < 2 || !startsAt(d - 2, "sk-"))
                    return;
                const std::size_t end
                    = runEnd(s, d + 1, [](char ch) { return isWord(ch) || ch == '-'; });
                if (end - (d + 1) >= 32)
                    add(spans, d - 2, end, SecretKind::OpenAiKey);
            });
        }
    }

    static bool bearerChar(char c) { return isAlnum(c) || oneOf(c, "._~+/=-_"); }

    // "Bearer <token>" anywhere: only tokens that look like one (prose says "Bearer token").
    static void bearerTokens(std::string_view s, Spans& spans)
    {
        for (std::string_view word : { std::string_view("Bearer"), std::string_view("BEARER") }) {
            for (std::size_t at = s.find(word); at != std::string_view::npos;
                 at = s.find(word, at + 1)) {
                if (at > 0 && isAlpha(s[at - 1]))
                    continue;
                std::size_t v = at + word.size();
                if (v >= s.size() || !isSpace(s[v]))
                    continue;
                v = runEnd(s, v, isSpace);
                const std::size_t end = runEnd(s, v, bearerChar);
                const std::string_view token = s.substr(v, end - v);
                const bool hasDigit = std::any_of(token.begin(), token.end(), isDigit);
                if (token.size() >= 16 || (token.size() >= 8 && hasDigit))
                    add(spans, v, end, SecretKind::BearerToken);
            }
        }
    }

    // "Authorization: <scheme> <credential>" (curl -v, requests debug logs): any length.
    static void authorizationHeaders(std::string_view s, Spans& spans)
    {
        for (std::size_t at = iFind(s, "authorization"); at != std::string_view::npos;
             at = iFind(s, "authorization", at + 1)) {
            std::size_t i = at + 13;
            if (i < s.size() && (s[i] == '"' || s[i] == '\''))
                ++i;
            i = runEnd(s, i, isSpace);
            if (i >= s.size() || (s[i] != ':' && s[i] != '='))
                continue;
            i = runEnd(s, i + 1, [](char c) { return isSpace(c) || c == '"' || c == '\''; });
            const std::size_t schemeEnd = runEnd(s, i, isAlpha);
            std::size_t v = i;
            if (schemeEnd < s.size() && isSpace(s[schemeEnd]) && schemeEnd > i)
                v = runEnd(s, schemeEnd, isSpace);
            const std::size_t end = runEnd(s, v, bearerChar);
            if (end > v && !startsMasked(s, v))
                add(spans, v, end, SecretKind::BearerToken);
        }
    }

    // scheme://user:PASSWORD@host: keep the user, mask the password.
    static void urlPasswords(std::string_view s, Spans& spans)
    {
        for (std::size_t at = s.find("://"); at != std::string_view::npos;
             at = s.find("://", at + 3)) {
            if (at == 0 || !isAlpha(s[at - 1]))
                continue;
            std::size_t colon = std::string_view::npos;
            std::size_t j = at + 3;
            for (; j < s.size(); ++j) {
                const char c = s[j];
                if (isSpace(c) || oneOf(c, "/?#@\"'<>\\"))
                    break;
                if (startsMasked(s, j)) {
                    // A user already masked: its marker's own ':' separates nothing.
                    const std::size_t close = s.find(kMarkerClose, j);
                    if (close == std::string_view::npos)
                        break;
                    j = close + kMarkerClose.size() - 1;
                    continue;
                }
                if (c == ':' && colon == std::string_view::npos)
                    colon = j;
            }
            if (j < s.size() && s[j] == '@' && colon != std::string_view::npos && colon + 1 < j
                && !startsMasked(s, colon + 1))
                add(spans, colon + 1, j, SecretKind::UrlPassword);
        }
    }

    static bool nameChar(char c) { return isWord(c) || c == '-' || c == '.'; }

    static bool passwordName(std::string_view name)
    {
        return iEquals(name, "password") || iEquals(name, "passwd") || iEquals(name, "pwd");
    }

    // The kind of secret a variable of this name holds, if any (rules in the header).
    static std::optional<SecretKind> kindForName(std::string_view name)
    {
        // Every name below ends in password/passwd/pwd, key, token or secret: one test
        // turns away the "work:", "Rank 3:", "frame #6:" of ordinary log lines.
        if (name.size() < 3 || !oneOf(lower(name.back()), "dynt"))
            return std::nullopt;
        if (passwordName(name))
            return SecretKind::Password;
        const bool separated = name.find_first_of("_-") != std::string_view::npos;
        auto endsWithPart = [&](std::string_view word) {
            if (!iEndsWith(name, word))
                return false;
            if (name.size() == word.size())
                return true;
            const char before = name[name.size() - word.size() - 1];
            return before == '_' || before == '-';
        };
        if (endsWithPart("key") && iFind(name, "wandb") != std::string_view::npos)
            return SecretKind::WandbKey;
        if (iEndsWith(name, "secret_access_key") || iEndsWith(name, "secret-access-key"))
            return SecretKind::AwsSecret;
        if (iEndsWith(name, "password") || iEndsWith(name, "passwd"))
            return SecretKind::EnvSecret;
        if (separated && (endsWithPart("token") || endsWithPart("key") || endsWithPart("secret")))
            return SecretKind::EnvSecret;
        if (iEquals(name, "token") || iEquals(name, "secret") || iEquals(name, "apikey"))
            return SecretKind::EnvSecret;
        return std::nullopt;
    }

    static bool valueEnd(char c) { return isSpace(c) || c == '\0' || oneOf(c, ",;)}]&|\"'\r"); }

    // NAME=value, NAME = value, NAME: value, "NAME": "value", --name=value.
    static void assignments(std::string_view s, Spans& spans)
    {
        const char* const end = s.data() + s.size();
        for (std::size_t i = 0; i < s.size(); ++i) {
            i = static_cast<std::size_t>(findEitherByte(s.data() + i, end, '=', ':') - s.data());
            if (i == s.size())
                break;
            const char sep = s[i];
            if (sep == '='
                && ((i + 1 < s.size() && s[i + 1] == '=') || (i > 0 && oneOf(s[i - 1], "=!<>"))))
                continue; // ==, !=, <=, >=
            if (sep == ':'
                && (i + 1 >= s.size() || s[i + 1] == '/' || s[i + 1] == ':'
                    || (i > 0 && s[i - 1] == ':')))
                continue; // scheme://, C++ ::
            // host:port, time 12:00:05, file.cpp:607 — "name: value" has a space or a quote.
            // Tested before the name is looked at: most colons of a log line are these.
            if (sep == ':' && i + 1 < s.size() && !isSpace(s[i + 1]) && s[i + 1] != '"'
                && s[i + 1] != '\'')
                continue;
            std::size_t k = i;
            while (k > 0 && isSpace(s[k - 1]) && i - k < 4)
                --k;
            const bool quotedName = k > 0 && (s[k - 1] == '"' || s[k - 1] == '\'');
            if (quotedName)
                --k;
            std::size_t b = k;
            while (b > 0 && nameChar(s[b - 1]))
                --b;
            std::string_view name = s.substr(b, k - b);
            while (!name.empty() && (name.front() == '-' || name.front() == '.'))
                name.remove_prefix(1); // --api-key=, .token=
            if (name.empty())
                continue;
            if (b > 0 && (s[b - 1] == '/' || s[b - 1] == '\\'))
                continue; // /etc/passwd: …
            const auto kind = kindForName(name);
            if (!kind)
                continue;
            if (sep == ':'
                && !(passwordName(name) || name.find_first_of("_-") != std::string_view::npos))
                continue;
            std::size_t v = runEnd(s, i + 1, isSpace);
            if (sep == ':' && v == i + 1 && !(v < s.size() && (s[v] == '"' || s[v] == '\'')))
                continue; // host:port, time 12:00:05 — "name: value" has a space or a quote
            std::size_t end;
            if (v < s.size() && (s[v] == '"' || s[v] == '\'')) {
                const char quote = s[v++];
                end = s.find(quote, v);
                if (end == std::string_view::npos)
                    end = runEnd(s, v, [](char c) { return !valueEnd(c); });
            } else {
                end = runEnd(s, v, [](char c) { return !valueEnd(c); });
            }
            const std::string_view value = s.substr(v, end - v);
            const bool strongName = *kind == SecretKind::AwsSecret || *kind == SecretKind::WandbKey;
            const bool password
                = iEndsWith(name, "password") || iEndsWith(name, "passwd") || passwordName(name);
            if (strongName ? (value.empty() || startsMasked(value, 0))
                           : harmlessValue(value, password))
                continue;
            add(spans, v, end, *kind);
        }
    }

    // "wandb login 0123…(40 hex)": the bare key wandb prints or is given on a command line.
    static void wandbBareKeys(std::string_view s, Spans& spans)
    {
        if (iFind(s, "wandb") == std::string_view::npos
            || (iFind(s, "login") == std::string_view::npos && !mentionsKey(s)))
            return;
        for (std::size_t i = 0; i < s.size();) {
            if (!isHex(s[i]) || (i > 0 && isAlnum(s[i - 1]))) {
                ++i;
                continue;
            }
            const std::size_t end = runEnd(s, i, isHex);
            if (end - i == 40 && (end == s.size() || !isAlnum(s[end])))
                add(spans, i, end, SecretKind::WandbKey);
            i = end;
        }
    }

    // "-----BEGIN … PRIVATE KEY-----" and the rest of the line. True when the key goes on
    // over the next lines (no END on this one).
    static bool privateKeyStart(std::string_view s, Spans& spans)
    {
        const std::size_t at = s.find("-----BEGIN");
        if (at == std::string_view::npos)
            return false;
        const std::size_t words = s.find("PRIVATE KEY", at);
        if (words == std::string_view::npos || words - at > 64)
            return false;
        add(spans, at, s.size(), SecretKind::PrivateKey);
        return s.find("-----END", words) == std::string_view::npos;
    }
};

namespace {

// Lower rank wins when two detectors claim the same bytes: a token's own format names it
// better than the variable it is assigned to.
int kindRank(SecretKind kind)
{
    switch (kind) {
    case SecretKind::PrivateKey:
    case SecretKind::HfToken:
    case SecretKind::GithubToken:
    case SecretKind::AwsAccessKey:
    case SecretKind::SlackToken:
    case SecretKind::OpenAiKey:
        return 0;
    case SecretKind::WandbKey:
    case SecretKind::AwsSecret:
        return 1;
    case SecretKind::UrlPassword:
    case SecretKind::BearerToken:
        return 2;
    default:
        return 3;
    }
}

} // namespace

std::uint8_t SecretMasker::fingerprints(std::string_view line)
{
    static const FingerprintFinder finder = chooseFinder();
    return finder(line.data(), line.size());
}

void SecretMasker::reset()
{
    m_keyLines = 0;
    m_foreignLines = 0;
    m_lastKinds = 0;
}

bool SecretMasker::maskKeyBlockLine(std::string_view line, std::string& out)
{
    if (++m_keyLines > kMaxPrivateKeyLines) {
        m_keyLines = 0;
        return false;
    }
    m_spans.clear();
    const std::size_t endMarker = line.find("-----END");
    if (endMarker != std::string_view::npos) {
        std::size_t b = endMarker;
        while (b > 0 && isBase64(line[b - 1]))
            --b;
        m_keyLines = 0;
        SecretMaskerDetectors::add(m_spans, b, line.size(), SecretKind::PrivateKey);
        emit(line, out);
        return true;
    }
    std::size_t n = line.size();
    while (n > 0 && (isSpace(line[n - 1]) || line[n - 1] == '\r'))
        --n;
    if (n == 0)
        return false; // blank line between encrypted-key headers and the body
    for (std::string_view header : { "Proc-Type:", "DEK-Info:" }) {
        const std::size_t at = line.find(header);
        if (at != std::string_view::npos) {
            SecretMaskerDetectors::add(m_spans, at, line.size(), SecretKind::PrivateKey);
            emit(line, out);
            return true;
        }
    }
    std::size_t b = n;
    while (b > 0 && isBase64(line[b - 1]))
        --b;
    if (n - b >= 16 || (b == 0 && n > 0)) {
        m_foreignLines = 0;
        SecretMaskerDetectors::add(m_spans, b, n, SecretKind::PrivateKey);
        emit(line, out);
        return true;
    }
    if (++m_foreignLines >= 3)
        m_keyLines = 0; // an interleaved writer or a truncated key: the block is over
    return false;
}

bool SecretMasker::maskSlow(std::string_view line, std::string& out, std::uint8_t buckets)
{
    m_lastKinds = 0;
    if (m_keyLines > 0 && maskKeyBlockLine(line, out))
        return true;
    if (buckets == 0)
        return false;
    m_spans.clear();
    using D = SecretMaskerDetectors;
    // A detector whose every match holds a pair of some bucket runs only when that bucket
    // was seen (bucket numbers as in the table above); the rest run on every candidate line.
    auto seen = [buckets](std::initializer_list<int> list) {
        for (int b : list)
            if (buckets & (1u << b))
                return true;
        return false;
    };
    if (seen({ 0, 2, 4, 6 })) // hf_ gh?_ github_pat_ | sk- | xox?- | AKIA ASIA
        D::prefixedTokens(line, buckets, m_spans);
    if (seen({ 7 })) // Bearer BEARER
        D::bearerTokens(line, m_spans);
    D::authorizationHeaders(line, m_spans);
    if (seen({ 1 })) // user:password@host
        D::urlPasswords(line, m_spans);
    D::assignments(line, m_spans);
    D::wandbBareKeys(line, m_spans);
    const bool opensKeyBlock = seen({ 2 }) && D::privateKeyStart(line, m_spans); // -----BEGIN
    if (m_spans.empty())
        return false;
    emit(line, out);
    if (opensKeyBlock) {
        m_keyLines = 1;
        m_foreignLines = 0;
    }
    return true;
}

void SecretMasker::emit(std::string_view line, std::string& out)
{
    std::sort(m_spans.begin(), m_spans.end(), [](const Span& a, const Span& b) {
        if (a.begin != b.begin)
            return a.begin < b.begin;
        if (a.end != b.end)
            return a.end > b.end;
        return kindRank(a.kind) < kindRank(b.kind);
    });
    out.clear();
    out.reserve(line.size() + 32);
    std::size_t pos = 0;
    for (std::size_t i = 0; i < m_spans.size();) {
        Span merged = m_spans[i++];
        // Overlapping claims become one mask named after the first (earliest, longest).
        while (i < m_spans.size() && m_spans[i].begin < merged.end)
            merged.end = std::max(merged.end, m_spans[i++].end);
        out.append(line.substr(pos, merged.begin - pos));
        out += maskedMarker(merged.kind);
        pos = merged.end;
        ++m_counts[static_cast<std::size_t>(merged.kind)];
        m_lastKinds |= 1u << static_cast<unsigned>(merged.kind);
    }
    out.append(line.substr(pos));
}

std::string maskSecrets(std::string_view line)
{
    SecretMasker masker;
    std::string out;
    return masker.mask(line, out) ? out : std::string(line);
}

namespace detail {

std::uint8_t fingerprintsScalar(std::string_view line)
{
    return rankscope::model::fingerprintsScalar(line.data(), line.size());
}

std::uint8_t fingerprintsSsse3(std::string_view line)
{
#ifdef RANKSCOPE_MASKER_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("ssse3"))
        return rankscope::model::fingerprintsSsse3(line.data(), line.size());
#endif
    return fingerprintsScalar(line);
}

} // namespace detail

} // namespace rankscope::model
