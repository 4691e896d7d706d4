#include "model/secretmasker.h"

#include "model/bytescan.h"

#include <re2/re2.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <cstring>
#include <optional>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RANKSCOPE_MASKER_X86 1
#include <immintrin.h>
#endif

namespace rankscope::model {

namespace {

// Each kind's name (the KIND in ‹masked:KIND›) and its rank when two rows claim the same
// bytes: lower wins, for a token's own format names it better than the header or the
// variable it sits in (an Authorization header's JWT is a bearer-token, named by the header).
struct KindInfo {
    SecretKind kind;
    std::string_view name;
    int rank;
};

constexpr KindInfo kKinds[] = {
    { SecretKind::HfToken, "hf-token", 0 },
    { SecretKind::WandbKey, "wandb-key", 1 },
    { SecretKind::AwsAccessKey, "aws-access-key", 0 },
    { SecretKind::AwsSecret, "aws-secret", 1 },
    { SecretKind::GithubToken, "github-token", 0 },
    { SecretKind::BearerToken, "bearer-token", 2 },
    { SecretKind::PrivateKey, "private-key", 0 },
    { SecretKind::UrlPassword, "url-password", 2 },
    { SecretKind::EnvSecret, "env-secret", 4 },
    { SecretKind::SlackToken, "slack-token", 0 },
    { SecretKind::OpenAiKey, "openai-key", 0 },
    { SecretKind::Password, "password", 4 },
    { SecretKind::Jwt, "jwt", 3 },
    { SecretKind::GoogleApiKey, "google-api-key", 0 },
    { SecretKind::GitlabToken, "gitlab-token", 0 },
    { SecretKind::NpmToken, "npm-token", 0 },
    { SecretKind::StripeKey, "stripe-key", 0 },
    { SecretKind::AzureKey, "azure-key", 1 },
    { SecretKind::AzureSas, "azure-sas", 1 },
};
static_assert(std::size(kKinds) == kSecretKindCount, "one row per SecretKind");

constexpr bool kindsInOrder()
{
    for (std::size_t i = 0; i < std::size(kKinds); ++i)
        if (static_cast<std::size_t>(kKinds[i].kind) != i)
            return false;
    return true;
}
static_assert(kindsInOrder(), "kKinds is indexed by SecretKind");

int kindRank(SecretKind kind)
{
    return kind < SecretKind::Count ? kKinds[static_cast<std::size_t>(kind)].rank : 9;
}

} // namespace

std::string_view secretKindName(SecretKind kind)
{
    return kind < SecretKind::Count ? kKinds[static_cast<std::size_t>(kind)].name : "secret";
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
// The buckets are data (kBuckets); the catalogue rows below name the bucket they need.

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

struct Bucket {
    std::string_view first;
    std::string_view second; // empty: any byte, also none (the line's last byte)
};

// What each bucket is for (the rows of kCatalogue that rely on it):
constexpr Bucket kBuckets[8] = {
    { "_", "" }, // 0  hf_, gh?_, github_pat_, npm_, sk_live_, *_TOKEN=, *_KEY=
    { "@", "" }, // 1  scheme://user:password@host
    { "-kKt", "-" }, // 2  -----BEGIN … PRIVATE KEY, sk-…, glpat-/glrt-/gldt-…
    { "nNyYtTg", "=:" }, // 3  TOKEN=, APIKEY=, SECRET=, AccountKey=, sig=, Authorization:
    { "xwq", "oal" }, // 4  xox?- (Slack), wandb, mysql
    { "sSpP", "wW" }, // 5  password, passwd, PASSWORD, pwd
    { "Ay", "KSIJ" }, // 6  AKIA…, ASIA…, AIza…, eyJ… (JWT)
    { "B", "eEa" }, // 7  Bearer, BEARER, Basic (Authorization headers)
};

constexpr Fingerprints makeFingerprints()
{
    Fingerprints f;
    for (int b = 0; b < 8; ++b)
        addBucket(f, b, kBuckets[b].first, kBuckets[b].second);
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
    std::uint8_t bits = 0;
    for (int b = 0; b < 8; ++b)
        if (kBuckets[b].second.empty() && kBuckets[b].first.find(c) != std::string_view::npos)
            bits |= static_cast<std::uint8_t>(1u << b);
    return bits;
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
    // An empty line has no pair; its data() may be null, which memcpy must not be given.
    if (n == 0)
        return 0;
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
    if (n == 0) // as in fingerprintsSsse3: no pair, and maybe a null data()
        return 0;
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

// A run of kLongTokenRun base64 bytes ([A-Za-z0-9+/]): a bare secret key has no fixed
// bytes a pair could find. SSE2 (every x86-64 CPU) classifies 16 bytes at a time; a run
// that long cannot fit inside one block's mask, so only the run carried over block
// boundaries is counted.
bool base64Byte(unsigned char c)
{
    const unsigned folded = c | 0x20u;
    return (folded >= 'a' && folded <= 'z') || (c >= '0' && c <= '9') || (c | 4u) == '/';
}

bool longTokenRunScalar(const char* p, std::size_t n, std::size_t run = 0)
{
    for (std::size_t i = 0; i < n; ++i) {
        run = base64Byte(static_cast<unsigned char>(p[i])) ? run + 1 : 0;
        if (run >= SecretMasker::kLongTokenRun)
            return true;
    }
    return false;
}

bool longTokenRun(const char* p, std::size_t n)
{
    constexpr std::size_t kRun = SecretMasker::kLongTokenRun;
    static_assert(kRun > 16, "a run must span a block boundary for the carry below");
    if (n < kRun)
        return false;
    std::size_t i = 0;
    std::size_t run = 0;
#if defined(__SSE2__)
    // b - lo <= span, unsigned: min(b - lo, span) == b - lo.
    auto inRange = [](__m128i v, char lo, char span) {
        const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
        return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
    };
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i letter = inRange(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25);
        const __m128i digit = inRange(v, '0', 9);
        const __m128i slashPlus = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(4)), _mm_set1_epi8('/'));
        const auto mask = static_cast<std::uint16_t>(
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), slashPlus)));
        if (mask == 0xffff) {
            run += 16;
        } else {
            if (run + static_cast<std::size_t>(std::countr_one(mask)) >= kRun)
                return true;
            run = static_cast<std::size_t>(std::countl_one(mask));
        }
        if (run >= kRun)
            return true;
    }
#endif
    return longTokenRunScalar(p + i, n - i, run);
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

    static bool bearerChar(char c) { return isAlnum(c) || oneOf(c, "._~+/=-_"); }

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

// ---------------------------------------------------------------------------------------
// The catalogue: every form of secret the masker knows, one row each. The shapes follow
// the maintained catalogues of the field (gitleaks' rules, detect-secrets' plugins) and the
// issuers' own documentation of their token formats; docs/secret-masking.md lists them in
// prose. A row runs on a line only when the prefilter saw its bucket and the line holds one
// of its keywords (case-insensitive), so the ordinary line never reaches RE2.

namespace {

using detail::kRunBucket;

enum class ValueCheck : std::uint8_t {
    None,
    Bearer, // 16+ characters, or 8+ with a digit: prose says "Bearer token"
    Argument, // a password given as an argument: anything but a placeholder, a path, …
    CredentialWord, // after the bare word "password": quoted, or shaped like a credential
    AwsSecretShape, // upper, lower and digit, and the entropy of random base64
};

using StructuredDetector = bool (*)(std::string_view, std::vector<SecretMasker::Span>&);

struct SecretPattern {
    SecretKind kind;
    int bucket; // the prefilter bucket every match holds a pair of; kRunBucket; -1: any
    std::string_view keywords; // '|'-separated, lowercase; every match holds one; "": none
    std::string_view regex; // RE2 (Latin-1); group 1 is masked
    ValueCheck check;
    StructuredDetector detector; // instead of a regex
    std::string_view example;
};

// Token boundaries: a token starts where no word byte precedes it ("use_hf_transfer" holds
// no hf_ token); a dash may ("job-glpat-…", a folder named after a token).
#define RS_START "(?:^|\\W)"

constexpr SecretPattern kCatalogue[] = {
    // Issuer-prefixed tokens: the prefix names the issuer, the length rules out words.
    { SecretKind::HfToken, 0, "hf_", RS_START "(hf_[A-Za-z0-9]{30,})", ValueCheck::None, nullptr,
        "export HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567" },
    { SecretKind::GithubToken, 0, "ghp_|gho_|ghu_|ghs_|ghr_", RS_START "(gh[pousr]_[A-Za-z0-9]{30,})",
        ValueCheck::None, nullptr, "git clone https://ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789@github.com/o/r" },
    { SecretKind::GithubToken, 0, "github_pat_", RS_START "(github_pat_\\w{22,})", ValueCheck::None,
        nullptr, "token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH" },
    { SecretKind::AwsAccessKey, 6, "akia|asia", RS_START "((?:AKIA|ASIA)[A-Z0-9]{16})(?:$|[^A-Za-z0-9])",
        ValueCheck::None, nullptr, "aws_access_key_id = AKIAIOSFODNN7EXAMPLE" },
    { SecretKind::SlackToken, 4, "xox", RS_START "(xox[bpars]-[A-Za-z0-9-]{10,})", ValueCheck::None,
        nullptr, "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx posted" },
    { SecretKind::OpenAiKey, 2, "sk-", RS_START "(sk-[\\w-]{32,})", ValueCheck::None, nullptr,
        "OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789" },
    { SecretKind::StripeKey, 0, "live_|test_|prod_",
        RS_START "((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,})", ValueCheck::None, nullptr,
        "stripe.api_key = sk_live_51HqLyjWDarjtT1zdp7dcXN4fQ2r8aB3c" },
    { SecretKind::NpmToken, 0, "npm_", RS_START "(npm_[A-Za-z0-9]{36})(?:$|[^A-Za-z0-9])",
        ValueCheck::None, nullptr,
        "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" },
    { SecretKind::GitlabToken, 2, "glpat-|glptt-|glrt-|gldt-|glft-|glsoat-|glcbt-",
        RS_START "((?:glpat|glptt|glrt|gldt|glft|glsoat|glcbt)-[\\w-]{20,})", ValueCheck::None,
        nullptr, "git clone https://oauth2:glpat-x8Fz3kQ2mN7pR1sT5vWy@gitlab.com/g/p" },
    { SecretKind::GoogleApiKey, 6, "aiza", "(AIza[\\w-]{35})", ValueCheck::None, nullptr,
        "GOOGLE_KEY AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe" },
    // A JSON Web Token: base64url of '{"' is "eyJ", header and payload alike. Session
    // cookies, Bearer headers and bare tokens pasted into a log.
    { SecretKind::Jwt, 6, "eyj",
        RS_START "(eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*)", ValueCheck::None,
        nullptr, "Cookie: session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3" },
    // Azure: a storage connection string's key, and a SAS URL's signature.
    { SecretKind::AzureKey, 3, "accountkey=|sharedaccesskey=",
        "(?i)(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,}={0,2})", ValueCheck::None, nullptr,
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6==;" },
    { SecretKind::AzureSas, 3, "sig=", "(?:^|[?&;\\s\"'])sig=([A-Za-z0-9%+/=]{16,})",
        ValueCheck::None, nullptr,
        "https://acct.blob.core.windows.net/c/f?sv=2021-06-08&sig=AbCdEfGhIjKlMnOp%2BQr%3D" },
    // "Bearer <token>" anywhere: only tokens that look like one (prose says "Bearer token").
    { SecretKind::BearerToken, 7, "bearer", "(?:^|[^A-Za-z])(?:Bearer|BEARER)[ \\t]+([A-Za-z0-9._~+/=-]+)",
        ValueCheck::Bearer, nullptr, "requests: Bearer 0a1b2c3d4e5f6a7b" },
    // Passwords given on a command line: --password X, --db-passwd X, mysql -pX, and the
    // bare word "password X" (a netrc line, a prompt echoed with its answer).
    { SecretKind::Password, 5, "password|passwd|pwd",
        "(?i)(?:^|[\\s\"'])--?[\\w-]*(?:password|passwd|pwd)[ \\t]+(\"[^\"]*\"|'[^']*'|[^\\s\"'|;&]+)",
        ValueCheck::Argument, nullptr, "python train.py --password Sup3rS3cretPw --lr 0.1" },
    { SecretKind::Password, 5, "password|passwd",
        "(?i)(?:^|[^\\w-])(?:password|passwd)[ \\t]+(\"[^\"]*\"|'[^']*'|[^\\s\"',;|&]+)",
        ValueCheck::CredentialWord, nullptr, "machine api.wandb.ai login user password Hunter2x" },
    { SecretKind::Password, 4, "mysql", "(?:^|[\\s/'\"])mysql\\w*[^|;&]*?[ \\t]-p([^\\s\"'|;&]+)",
        ValueCheck::Argument, nullptr, "mysql -h db -u root -pHunter2Pass42 runs" },
    // A bare AWS secret access key: 40 base64 bytes with no prefix; the run and the shape of
    // random base64 (both cases, a digit, high entropy) tell it from paths and hex digests.
    { SecretKind::AwsSecret, kRunBucket, "",
        "(?:^|[^A-Za-z0-9+/])([A-Za-z0-9+/]{40})(?:$|[^A-Za-z0-9+/])", ValueCheck::AwsSecretShape,
        nullptr, "aws configure set aws_secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
    // The structured detectors (SecretMaskerDetectors above).
    { SecretKind::BearerToken, -1, "authorization", "", ValueCheck::None,
        [](std::string_view s, std::vector<SecretMasker::Span>& spans) {
            SecretMaskerDetectors::authorizationHeaders(s, spans);
            return false;
        },
        "curl -H 'Authorization: token 0123456789abcdef0123' https://api.github.com" },
    { SecretKind::UrlPassword, 1, "://", "", ValueCheck::None,
        [](std::string_view s, std::vector<SecretMasker::Span>& spans) {
            SecretMaskerDetectors::urlPasswords(s, spans);
            return false;
        },
        "MASTER_DB=postgres://alice:s3cret@db.internal:5432/runs" },
    { SecretKind::EnvSecret, -1, "", "", ValueCheck::None,
        [](std::string_view s, std::vector<SecretMasker::Span>& spans) {
            SecretMaskerDetectors::assignments(s, spans);
            return false;
        },
        "DB_PASSWORD=hunter2 MY_SERVICE_TOKEN=abc" },
    { SecretKind::WandbKey, -1, "wandb", "", ValueCheck::None,
        [](std::string_view s, std::vector<SecretMasker::Span>& spans) {
            SecretMaskerDetectors::wandbBareKeys(s, spans);
            return false;
        },
        "+ wandb login 0123456789abcdef0123456789abcdef01234567" },
    // Returns true when the key goes on over the next lines.
    { SecretKind::PrivateKey, 2, "-----begin", "", ValueCheck::None,
        [](std::string_view s, std::vector<SecretMasker::Span>& spans) {
            return SecretMaskerDetectors::privateKeyStart(s, spans);
        },
        "-----BEGIN RSA PRIVATE KEY-----" },
};
#undef RS_START

// Shannon entropy in bits per byte.
double entropy(std::string_view s)
{
    std::array<int, 256> counts {};
    for (char c : s)
        ++counts[static_cast<unsigned char>(c)];
    double bits = 0;
    for (int n : counts)
        if (n > 0) {
            const double p = static_cast<double>(n) / static_cast<double>(s.size());
            bits -= p * std::log2(p);
        }
    return bits;
}

bool passesCheck(ValueCheck check, std::string_view v, bool quoted)
{
    switch (check) {
    case ValueCheck::None:
        return true;
    case ValueCheck::Bearer:
        return v.size() >= 16 || (v.size() >= 8 && std::any_of(v.begin(), v.end(), isDigit));
    case ValueCheck::Argument:
        return !harmlessValue(v, true);
    case ValueCheck::CredentialWord: {
        if (harmlessValue(v, true))
            return false;
        if (quoted)
            return true;
        // "password authentication failed", "password for alice": words are prose.
        const bool shaped = std::any_of(v.begin(), v.end(), [](char c) { return !isLower(c); })
            && !std::all_of(v.begin() + 1, v.end(), isLower);
        return v.size() >= 4 && shaped;
    }
    case ValueCheck::AwsSecretShape: {
        // A path or a URL's tail of exactly 40 characters ("com/Owner/Repo/issues/2") has the
        // same alphabet. A random key rarely begins or ends with a slash or holds three
        // (40 draws of 64 symbols: about 0.6 slashes on average); a key named as one
        // (aws_secret_access_key=…) is masked by the assignment rule whatever its shape.
        const auto slashes = std::count(v.begin(), v.end(), '/');
        if (v.front() == '/' || v.back() == '/' || slashes >= 3)
            return false;
        return std::any_of(v.begin(), v.end(), isUpper) && std::any_of(v.begin(), v.end(), isLower)
            && std::any_of(v.begin(), v.end(), isDigit) && entropy(v) >= 4.2;
    }
    }
    return false;
}

bool holdsKeyword(std::string_view line, std::string_view keywords)
{
    if (keywords.empty())
        return true;
    while (!keywords.empty()) {
        const std::size_t bar = keywords.find('|');
        if (iFind(line, keywords.substr(0, bar)) != std::string_view::npos)
            return true;
        keywords = bar == std::string_view::npos ? std::string_view {} : keywords.substr(bar + 1);
    }
    return false;
}

// Rows whose every keyword ends in '_' (the issuer prefixes "hf_", "ghp_", "npm_", "live_"):
// bucket 0 sends every line with an underscore to them, a Python path or "train_loss" as
// much as a token. Their keywords are found together from the line's underscores, one pass
// instead of one search per keyword. The answer is holdsKeyword's by construction: a keyword
// that ends in '_' occurs exactly when it ends at one of the line's underscores.
struct UnderscoreKeywords {
    struct Word {
        std::string_view text; // lowercase, ends in '_'
        std::size_t row;
    };
    std::vector<Word> words;
    std::uint64_t rows = 0; // bit i: kCatalogue[i] is one of these rows

    UnderscoreKeywords()
    {
        static_assert(std::size(kCatalogue) <= 64, "one bit per row");
        for (std::size_t i = 0; i < std::size(kCatalogue); ++i) {
            std::vector<std::string_view> split;
            for (std::string_view k = kCatalogue[i].keywords; !k.empty();) {
                const std::size_t bar = k.find('|');
                split.push_back(k.substr(0, bar));
                k = bar == std::string_view::npos ? std::string_view {} : k.substr(bar + 1);
            }
            const bool allUnderscore = !split.empty()
                && std::all_of(split.begin(), split.end(), [](std::string_view w) { return w.size() >= 2 && w.back() == '_'; });
            if (!allUnderscore)
                continue;
            rows |= std::uint64_t { 1 } << i;
            for (std::string_view w : split)
                words.push_back({ w, i });
        }
    }

    // The rows (bit i) one of whose keywords the line holds.
    std::uint64_t rowsHeld(std::string_view line) const
    {
        std::uint64_t held = 0;
        for (std::size_t p = line.find('_'); p != std::string_view::npos; p = line.find('_', p + 1))
            for (const Word& w : words)
                if (p + 1 >= w.text.size() && !(held >> w.row & 1)
                    && iEquals(line.substr(p + 1 - w.text.size(), w.text.size()), w.text))
                    held |= std::uint64_t { 1 } << w.row;
        return held;
    }
};

const UnderscoreKeywords& underscoreKeywords()
{
    static const UnderscoreKeywords table;
    return table;
}

// The regexes, compiled once for the process (RE2 objects are safe to share between
// threads). A pattern that does not compile is a programming error the tests catch; here it
// only disables its row.
const std::vector<std::unique_ptr<re2::RE2>>& compiledCatalogue()
{
    static const std::vector<std::unique_ptr<re2::RE2>> compiled = [] {
        std::vector<std::unique_ptr<re2::RE2>> out;
        re2::RE2::Options options;
        options.set_encoding(re2::RE2::Options::EncodingLatin1);
        options.set_log_errors(false);
        for (const SecretPattern& row : kCatalogue) {
            std::unique_ptr<re2::RE2> re;
            if (!row.regex.empty()) {
                re = std::make_unique<re2::RE2>(
                    re2::StringPiece(row.regex.data(), row.regex.size()), options);
                if (!re->ok())
                    re.reset();
            }
            out.push_back(std::move(re));
        }
        return out;
    }();
    return compiled;
}

// Runs one row on a line, appending what it claims; true when a private key block opens.
bool runRow(std::size_t index, std::string_view line, std::vector<SecretMasker::Span>& spans)
{
    const SecretPattern& row = kCatalogue[index];
    if (row.detector != nullptr)
        return row.detector(line, spans);
    const re2::RE2* re = compiledCatalogue()[index].get();
    if (re == nullptr)
        return false;
    const re2::StringPiece text(line.data(), line.size());
    re2::StringPiece groups[2];
    std::size_t pos = 0;
    while (pos <= line.size()
        && re->Match(text, pos, line.size(), re2::RE2::UNANCHORED, groups, 2)) {
        const auto matchBegin = static_cast<std::size_t>(groups[0].data() - line.data());
        std::size_t next = matchBegin + 1;
        if (groups[1].data() != nullptr) {
            std::size_t begin = static_cast<std::size_t>(groups[1].data() - line.data());
            std::size_t end = begin + groups[1].size();
            next = std::max(next, end);
            const bool quoted = end - begin >= 2 && (line[begin] == '"' || line[begin] == '\'')
                && line[end - 1] == line[begin];
            if (quoted) {
                ++begin;
                --end;
            }
            if (passesCheck(row.check, line.substr(begin, end - begin), quoted))
                SecretMaskerDetectors::add(spans, begin, end, row.kind);
        }
        pos = next;
    }
    return false;
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

bool SecretMasker::hasLongTokenRun(std::string_view line)
{
    return longTokenRun(line.data(), line.size());
}

bool SecretMasker::maskSlow(std::string_view line, std::string& out, std::uint8_t buckets)
{
    m_lastKinds = 0;
    if (m_keyLines > 0 && maskKeyBlockLine(line, out))
        return true;
    // The run is looked for only when no pair was: mask() knows it is there when buckets is 0.
    int run = buckets == 0 ? 1 : -1; // -1: not looked for yet
    if (buckets == 0 && !hasLongTokenRun(line))
        return false;
    m_spans.clear();
    bool opensKeyBlock = false;
    const UnderscoreKeywords& underscore = underscoreKeywords();
    std::optional<std::uint64_t> underscoreHeld; // looked for once, when a row needs it
    for (std::size_t i = 0; i < std::size(kCatalogue); ++i) {
        const SecretPattern& row = kCatalogue[i];
        if (row.bucket == kRunBucket) {
            if (run < 0)
                run = hasLongTokenRun(line) ? 1 : 0;
            if (run == 0)
                continue;
        } else if (row.bucket >= 0 ? !(buckets & (1u << row.bucket)) : buckets == 0) {
            continue;
        }
        if (underscore.rows >> i & 1) {
            if (!underscoreHeld)
                underscoreHeld = underscore.rowsHeld(line);
            if (!(*underscoreHeld >> i & 1))
                continue;
        } else if (!holdsKeyword(line, row.keywords)) {
            continue;
        }
        opensKeyBlock |= runRow(i, line, m_spans);
    }
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

bool maskText(std::string_view text, std::string& out)
{
    SecretMasker masker;
    std::string masked;
    std::string result;
    bool any = false;
    std::size_t done = 0; // text[0, done) is in result (only once something was masked)
    for (std::size_t from = 0; from <= text.size();) {
        std::size_t nl = text.find('\n', from);
        if (nl == std::string_view::npos)
            nl = text.size();
        std::string_view line = text.substr(from, nl - from);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (masker.mask(line, masked)) {
            if (!any) {
                result.reserve(text.size() + 32);
                any = true;
            }
            result.append(text.substr(done, from - done));
            result += masked;
            done = from + line.size();
        }
        from = nl + 1;
    }
    if (!any)
        return false;
    result.append(text.substr(done));
    out = std::move(result);
    return true;
}

namespace detail {

bool hasLongTokenRunScalar(std::string_view line)
{
    return longTokenRunScalar(line.data(), line.size());
}

std::vector<SecretPatternInfo> secretCatalogue()
{
    std::vector<SecretPatternInfo> rows;
    for (const SecretPattern& row : kCatalogue)
        rows.push_back({ row.kind, row.bucket, row.keywords, row.regex, row.example });
    return rows;
}

std::vector<std::pair<std::size_t, std::size_t>> matchRow(std::size_t row, std::string_view line)
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    if (row >= std::size(kCatalogue))
        return out;
    if (!kCatalogue[row].regex.empty() && compiledCatalogue()[row] == nullptr)
        return { { 0, 0 } }; // a pattern RE2 refused: the tests name it
    std::vector<SecretMasker::Span> spans;
    runRow(row, line, spans);
    for (const auto& s : spans)
        out.emplace_back(s.begin, s.end);
    return out;
}

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
