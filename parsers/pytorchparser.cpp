#include "parsers/pytorchparser.h"

#include "parsers/bytescan.h"

#include "parsers/ibcompletion.h"

#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

namespace rankscope::parsers {

using model::EventKind;
using model::Severity;

namespace {

constexpr std::size_t kNoPos = std::string_view::npos;

// The peer an IB completion error or a socket error in `line` names, as the event's peer
// (with the IB status as its code; -1 for a socket error). Nothing when it names none.
void capturePeer(model::Event& e, std::string_view line, model::ParsedSource& out)
{
    if (const auto ib = parseIbCompletion(line); ib && !ib->peer.empty()) {
        e.peer = out.intern(ib->peer);
        e.code = ib->status;
    } else if (const auto peer = socketErrorPeer(line); !peer.empty()) {
        e.peer = out.intern(peer);
        e.code = -1;
    }
}

// NCCL's last WARN as PyTorch quotes it after "Last error:" (ncclGetLastError()), taken into the
// error event it belongs to, whether it came on the next line or glued to the same one.
void applyLastError(model::Event& e, std::string_view warn, model::ParsedSource& out)
{
    if ((e.kind == EventKind::TorchAsyncNcclError || e.kind == EventKind::TorchNcclApiError)
        && e.detail == model::kNoStr) {
        e.detail = out.intern(warn.substr(0, kMaxEventText));
        // NCCL's last WARN names the peer: keep it structured, it is the only link evidence
        // when NCCL_DEBUG was off.
        capturePeer(e, warn, out);
    } else if (e.kind == EventKind::TorchWatchdogException && e.peer == model::kNoStr) {
        // ≤2.0 rethrows the async NCCL error out of the watchdog ("NCCL watchdog thread
        // terminated with exception: NCCL error: remote process exited ... Last error:
        // NET/IB : Got completion from peer ..."): the same peer evidence as (f).
        // The detail field holds the exception class here, so only peer and status.
        capturePeer(e, warn, out);
    }
}
// A block nobody continued for this many lines was cut off (a killed process).
constexpr std::uint64_t kMaxBlockGap = 256;
// Repeats of a failure (LOG line, what(), Python re-raise) arrive within a few dozen events.
constexpr std::size_t kMaxRecent = 64;
// Words a message may carry before its grammar's anchor ("Exception (either an error or
// timeout) detected by watchdog …").
constexpr std::size_t kMaxLead = 48;
// A desync report or failed-collective stack follows the line with the PG prefix directly.
constexpr std::uint64_t kMarkLines = 3;
// Frames kept per failed-collective stack; the whole stack stays reachable via the evidence.
constexpr std::size_t kMaxFrames = 4 * kMaxEventText;
constexpr std::size_t kMaxRanksPerList = 1 << 16;

bool startsAt(std::string_view s, std::size_t pos, std::string_view literal)
{
    return pos <= s.size() && s.substr(pos).starts_with(literal);
}

std::size_t skipSpaces(std::string_view s, std::size_t i)
{
    while (i < s.size() && s[i] == ' ')
        ++i;
    return i;
}

std::size_t skipBlanks(std::string_view s, std::size_t i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

std::string_view restOfLine(std::string_view s, std::size_t pos)
{
    return trim(s.substr(std::min(pos, s.size())));
}

std::optional<std::int32_t> readRank(std::string_view s, std::size_t& i)
{
    const std::size_t start = i;
    const auto v = readUnsigned(s, i);
    if (!v || *v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
        i = start;
        return std::nullopt;
    }
    return static_cast<std::int32_t>(*v);
}

// The signed number after `label` (searched from `from`): "last enqueued NCCL work: 811".
std::optional<std::int64_t> numberAfter(
    std::string_view s, std::string_view label, std::size_t from = 0)
{
    const std::size_t at = findLiteral(s, label, from);
    if (at == kNoPos)
        return std::nullopt;
    std::size_t i = skipSpaces(s, at + label.size());
    return readSigned(s, i);
}

// "last enqueued NCCL work: 811" (2.2–2.6) or "last enqueued work: 547" (≥2.7).
std::optional<std::int64_t> workCounter(
    std::string_view s, std::string_view which, std::size_t from)
{
    const std::size_t at = findLiteral(s, which, from);
    if (at == kNoPos)
        return std::nullopt;
    const std::size_t colon = s.find("work:", at + which.size());
    if (colon == kNoPos || colon > at + which.size() + 8)
        return std::nullopt;
    std::size_t i = skipSpaces(s, colon + 5);
    return readSigned(s, i);
}

bool isSeverityLetter(char c)
{
    return c == 'F' || c == 'E' || c == 'W' || c == 'I' || c == 'V';
}

// --- PG prefix ([formats 1.2]) --------------------------------------------------------------------

struct PgPrefix {
    std::string_view pgId;
    std::string_view pgGuid;
    std::string_view pgDesc;
    std::int32_t rank = -1;
    bool valid = false;

    bool hasPg() const { return !pgId.empty() || !pgGuid.empty(); }
    std::string_view key() const { return pgGuid.empty() ? pgId : pgGuid; }
};

std::size_t tokenEnd(std::string_view s, std::size_t i)
{
    while (i < s.size() && s[i] != ' ' && s[i] != '(')
        ++i;
    return i;
}

// The text between the brackets of "[Rank 3]", "[PG 0 Rank 25]", "[PG 0 (default_pg) Rank 1]",
// "[PG ID 0 PG GUID 0(default_pg) Rank 1]" or "[PG ID 2 PG GUID 3 Rank 3]".
PgPrefix parsePrefix(std::string_view s)
{
    PgPrefix p;
    std::size_t i = 0;
    if (s.starts_with("PG ")) {
        i = 3;
        if (startsAt(s, i, "ID "))
            i += 3;
        std::size_t end = tokenEnd(s, i);
        p.pgId = s.substr(i, end - i);
        i = end;
        if (startsAt(s, i, " PG GUID ")) {
            i += 9;
            end = tokenEnd(s, i);
            p.pgGuid = s.substr(i, end - i);
            i = end;
        }
        const std::size_t paren = skipSpaces(s, i);
        if (paren < s.size() && s[paren] == '(') {
            const std::size_t close = s.find(')', paren);
            if (close == kNoPos)
                return {};
            p.pgDesc = s.substr(paren + 1, close - paren - 1);
            if (p.pgDesc == "undefined")
                p.pgDesc = {};
            i = close + 1;
        }
        if (p.pgId.empty() || i >= s.size() || s[i] != ' ')
            return {};
        ++i;
    }
    if (!startsAt(s, i, "Rank "))
        return {};
    i += 5;
    const auto rank = readRank(s, i);
    if (!rank || i != s.size())
        return {};
    p.rank = *rank;
    p.valid = true;
    return p;
}

// The contiguous prefixes whose last one closes at body[close] == ']', walking back over
// doubled prefixes. The prefix nearest the message gives the rank; chainStart receives the
// first '[' of the chain.
PgPrefix prefixChainEndingAt(std::string_view body, std::size_t close, std::size_t& chainStart)
{
    PgPrefix merged;
    for (int n = 0; n < 4; ++n) {
        const std::size_t open = close == 0 ? kNoPos : body.rfind('[', close - 1);
        if (open == kNoPos)
            break;
        const PgPrefix p = parsePrefix(body.substr(open + 1, close - open - 1));
        if (!p.valid)
            break;
        if (!merged.valid) {
            merged = p;
        } else if (!merged.hasPg() && p.hasPg()) {
            merged.pgId = p.pgId;
            merged.pgGuid = p.pgGuid;
            merged.pgDesc = p.pgDesc;
        }
        chainStart = open;
        std::size_t k = open;
        while (k > 0 && body[k - 1] == ' ')
            --k;
        if (k == 0 || body[k - 1] != ']')
            break;
        close = k - 1;
    }
    return merged;
}

// --- Envelope ([formats 1.1]) ---------------------------------------------------------------------

struct Envelope {
    std::size_t pos = kNoPos;
    char severity = 0;
};

// "[E ProcessGroupNCCL.cpp:737]" or "[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629]".
bool isBracketEnvelope(std::string_view s, std::size_t open)
{
    if (open + 4 >= s.size() || s[open] != '[' || !isSeverityLetter(s[open + 1]))
        return false;
    if (s[open + 2] != ' ' && !isDigit(s[open + 2]))
        return false;
    const std::size_t close = s.find(']', open + 2);
    if (close == kNoPos || close - open > 96)
        return false;
    std::size_t k = close;
    while (k > open && isDigit(s[k - 1]))
        --k;
    return k < close && s[k - 1] == ':';
}

// glog "E0527 15:16:57.738664 58629 ProcessGroupNCCL.cpp:2183] " at the line start.
bool isGlogEnvelope(std::string_view s)
{
    if (s.size() < 8 || !isSeverityLetter(s[0]) || s[5] != ' ')
        return false;
    for (std::size_t i = 1; i < 5; ++i)
        if (!isDigit(s[i]))
            return false;
    return true;
}

// The last envelope before `limit` (a torn line can hold pieces of several).
Envelope findEnvelope(std::string_view body, std::size_t limit)
{
    std::size_t end = std::min(limit, body.size());
    for (int n = 0; n < 8 && end > 0; ++n) {
        const std::size_t open = body.rfind('[', end - 1);
        if (open == kNoPos)
            break;
        if (isBracketEnvelope(body, open))
            return { open, body[open + 1] };
        end = open;
    }
    if (isGlogEnvelope(body))
        return { 0, body[0] };
    return {};
}

// Where the message text after an envelope starts.
std::size_t envelopeEnd(std::string_view body, const Envelope& env)
{
    if (env.pos == kNoPos)
        return kNoPos;
    const std::size_t close = body.find(']', env.pos + 1);
    return close == kNoPos ? kNoPos : close + 1;
}

// "[rank3]:" glued in front of a mid-line envelope (the scanner only strips it at the start).
std::int32_t rankTagBefore(std::string_view body, std::size_t pos)
{
    if (pos < 8 || body[pos - 1] != ':' || body[pos - 2] != ']')
        return -1;
    const std::size_t open = body.rfind('[', pos - 3);
    if (open == kNoPos || !startsAt(body, open, "[rank"))
        return -1;
    std::size_t i = open + 5;
    const auto rank = readRank(body, i);
    return rank && i == pos - 2 ? *rank : -1;
}

// --- WorkNCCL(...) ([formats 1.3]) ----------------------------------------------------------------

struct WorkRepr {
    bool found = false;
    std::int64_t seq = -1;
    model::OpType op = model::OpType::Unknown;
    std::uint64_t numelIn = 0;
    std::uint64_t numelOut = 0;
    std::int64_t timeoutMs = -1;
    std::size_t end = kNoPos; // after the closing parenthesis
};

bool isWorkKey(std::string_view key)
{
    if (key.empty() || key.size() > 16)
        return false;
    return std::all_of(
        key.begin(), key.end(), [](char c) { return isAlpha(c) || c == '(' || c == ')'; });
}

void assignWorkField(WorkRepr& w, std::string_view key, std::string_view value)
{
    if (key == "SeqNum") {
        if (const auto v = toSigned(value))
            w.seq = *v;
    } else if (key == "OpType") {
        w.op = model::opTypeFromTorchName(value);
    } else if (key == "NumelIn") {
        w.numelIn = toUnsigned(value).value_or(0);
    } else if (key == "NumelOut") {
        w.numelOut = toUnsigned(value).value_or(0);
    } else if (key == "Timeout(ms)") {
        if (const auto v = toSigned(value))
            w.timeoutMs = *v;
    }
}

// "WorkNCCL(SeqNum=880, OpType=BROADCAST, NumelIn=…, NumelOut=…, Timeout(ms)=1800000)" of any
// era: fields are read by name, so missing, extra or reordered fields do not matter.
WorkRepr parseWork(std::string_view s, std::size_t from)
{
    WorkRepr w;
    constexpr std::string_view kOpen = "WorkNCCL(";
    const std::size_t open = findLiteral(s, kOpen, from);
    if (open == kNoPos)
        return w;
    w.found = true;
    std::size_t i = open + kOpen.size();
    for (int n = 0; n < 16 && i < s.size(); ++n) {
        i = skipSpaces(s, i);
        const std::size_t eq = s.find('=', i);
        if (eq == kNoPos || !isWorkKey(s.substr(i, eq - i)))
            break;
        const std::string_view key = s.substr(i, eq - i);
        const std::size_t value = eq + 1;
        std::size_t valueEnd = value;
        if (value < s.size() && s[value] == '[') {
            valueEnd = s.find(']', value);
            if (valueEnd == kNoPos)
                break;
            ++valueEnd;
        } else {
            while (valueEnd < s.size() && s[valueEnd] != ',' && s[valueEnd] != ')')
                ++valueEnd;
        }
        assignWorkField(w, key, s.substr(value, valueEnd - value));
        i = valueEnd;
        if (i >= s.size())
            break;
        if (s[i] == ')') {
            w.end = i + 1;
            break;
        }
        ++i;
    }
    return w;
}

// A WorkNCCL(...) cut before its ')' (a hard-wrapped paste, a torn write) keeps the fields
// read so far; the user learns that some were lost.
void noteTruncatedWork(const LineContext& ctx, const WorkRepr& w, model::ParsedSource& out)
{
    if (w.found && w.end == kNoPos)
        out.issues.add("pytorch_truncated_work", out.sampleAt(ctx.lineNo, ctx.line));
}

void applyWork(model::Event& e, const WorkRepr& w)
{
    e.seq = w.seq;
    e.op = w.op;
    e.numelIn = w.numelIn;
    e.numelOut = w.numelOut;
    e.timeoutMs = w.timeoutMs;
}

// "ran for 600081 milliseconds".
std::int64_t ranForMs(std::string_view s, std::size_t from)
{
    return numberAfter(s, " ran for ", from).value_or(-1);
}

// --- "NAME: value, NAME (description): value" lists ([formats 1.4] n) -----------------------------

template <class OnPair> void forEachPair(std::string_view s, OnPair&& onPair)
{
    std::size_t i = 0;
    for (int n = 0; n < 128 && i < s.size(); ++n) {
        i = skipSpaces(s, i);
        std::size_t k = i;
        int depth = 0;
        for (; k < s.size(); ++k) {
            const char c = s[k];
            if (c == '(')
                ++depth;
            else if (c == ')')
                depth = std::max(0, depth - 1);
            else if (depth == 0 && (c == ',' || (c == ':' && k + 1 < s.size() && s[k + 1] == ' ')))
                break;
        }
        if (k >= s.size())
            break;
        if (s[k] == ',') { // a field without ": " ("ID=…"): skip it
            i = k + 1;
            continue;
        }
        const std::string_view key = trim(s.substr(i, k - i));
        const std::size_t value = k + 2;
        std::size_t valueEnd = s.find(", ", value);
        if (valueEnd == kNoPos)
            valueEnd = s.size();
        std::string_view v = trim(s.substr(value, valueEnd - value));
        if (valueEnd == s.size() && v.ends_with('.'))
            v.remove_suffix(1);
        if (!key.empty())
            onPair(key, v);
        i = valueEnd + 2;
    }
}

// "TORCH_NCCL_ENABLE_MONITORING (Whether to kill program …)" → "TORCH_NCCL_ENABLE_MONITORING".
std::string_view envName(std::string_view key)
{
    const std::size_t paren = key.find(" (");
    return trim(paren == kNoPos ? key : key.substr(0, paren));
}

void addEnvSetting(model::ParsedSource& out, const LineContext& ctx, std::uint32_t identity,
    std::string_view name, std::string_view value)
{
    model::EnvSetting& env = out.envSettings.emplace_back();
    env.identity = identity;
    env.evidence = ctx.evidence();
    env.name = out.intern(name);
    env.value = out.intern(value);
}

// "[5, 6]" at s[i]; advances i past the ']'.
bool readRankList(std::string_view s, std::size_t& i, std::vector<std::int32_t>& ranks)
{
    if (i >= s.size() || s[i] != '[')
        return false;
    ++i;
    while (i < s.size() && s[i] != ']') {
        i = skipSpaces(s, i);
        const auto r = readRank(s, i);
        if (!r)
            return false;
        if (ranks.size() < kMaxRanksPerList)
            ranks.push_back(*r);
        i = skipSpaces(s, i);
        if (i < s.size() && s[i] == ',')
            ++i;
    }
    if (i >= s.size())
        return false;
    ++i;
    return true;
}

// Identities that name the same writer as far as both know.
bool compatible(const model::ParsedSource& out, std::uint32_t a, std::uint32_t b)
{
    if (a == b || a == 0 || b == 0)
        return true;
    if (a >= out.identities.size() || b >= out.identities.size())
        return false;
    const model::RawIdentity& x = out.identities[a];
    const model::RawIdentity& y = out.identities[b];
    auto same = [](auto u, auto v, auto none) { return u == none || v == none || u == v; };
    return same(x.globalRank, y.globalRank, -1) && same(x.localRank, y.localRank, -1)
        && same(x.srunTask, y.srunTask, -1) && same(x.mpiRank, y.mpiRank, -1)
        && same(x.pid, y.pid, -1) && same(x.host, y.host, model::kNoStr)
        && same(x.ip, y.ip, model::kNoStr);
}

// True when `hay` contains `needle`: memchr for its first byte, then a compare. On the short
// lines of a log this is several times cheaper than memmem when the first byte is rare.
bool containsRare(std::string_view hay, std::string_view needle)
{
    const char* p = hay.data();
    const char* const end = hay.data() + hay.size();
    while (static_cast<std::size_t>(end - p) >= needle.size()) {
        const std::size_t span = static_cast<std::size_t>(end - p) - needle.size() + 1;
        p = static_cast<const char*>(std::memchr(p, needle[0], span));
        if (!p)
            return false;
        if (std::memcmp(p, needle.data(), needle.size()) == 0)
            return true;
        ++p;
    }
    return false;
}

// Python's warnings module on torch.distributed's own files: "…/torch/distributed/
// distributed_c10d.py:4807: UserWarning: No device id is provided via `init_process_group` or
// `barrier `. …". PyTorch's notices, like its "[W … .cpp:N]" lines: read, and no failure.
// Found from the rare byte pair "g:" of "Warning:" so other lines cost one vector scan.
bool isTorchDistributedWarning(std::string_view body)
{
    const char* const begin = body.data();
    const char* const end = begin + body.size();
    for (const char* p = findBytePair(begin, end, 'g', ':'); p != end; p = findBytePair(p + 1, end, 'g', ':')) {
        const auto colon = static_cast<std::size_t>(p - begin) + 1;
        if (colon < 8 || body.substr(colon - 7, 7) != "Warning")
            continue;
        // "<path>.py:<line>: <Category>Warning:": the path before the category is torch's.
        const std::size_t py = body.rfind(".py:", colon);
        if (py == std::string_view::npos)
            return false;
        std::size_t i = py + 4;
        const std::size_t digits = i;
        while (i < body.size() && isDigit(body[i]))
            ++i;
        if (i == digits || body.substr(i, 2) != ": ")
            return false;
        const std::string_view path = body.substr(0, py);
        return path.find("torch/distributed/") != std::string_view::npos
            || path.ends_with("distributed_c10d") || path.ends_with("c10d_logger");
    }
    return false;
}

} // namespace

// ------------------------------------------------------------------------------------------

struct PytorchParser::Message {
    std::size_t start = 0; // first byte of the message text (after its prefixes)
    PgPrefix prefix;
    Envelope envelope;
    std::uint32_t identity = 0;
    model::TimePoint time; // the envelope's time when it sits mid-line
};

// The literal every grammar of [formats 1.4] is found by. AnchorSearch finds the leftmost of them in one
// pass over the line instead of one memmem per grammar.
struct PytorchParser::Anchor {
    enum class Kind : std::uint8_t {
        WatchdogException,
        WatchdogTimeout,
        StatusDetected,
        StatusTimeout,
        AsyncError,
        BlockingWait,
        FailedStack,
        TeardownFirst,
        TeardownSecond,
        CommAborted,
        ApiError,
        ApiErrorBare, // "NCCL error: <ncclGetErrorString text>": checked against those texts
        HeartbeatStuck,
        HeartbeatTimedOut,
        HeartbeatTerminate,
        GilProbe,
        DumpSignal,
        RemoteError,
        DumpHung,
        DumpStage,
        DumpStageWithPath, // "… to <path>": the path becomes the detail
        DesyncFailure,
        Mismatch,
        Options,
        Environment,
        HeartbeatEnvironment,
        BlockingWaitEnabled,
        CommCreated,
        StoreError,
        UniqueIdBroadcast,
        WorkUpdate,
        ExitWithoutDestroy,
    };
    std::string_view text;
    Kind kind;
};

// Every position's first four bytes are hashed into buckets of the anchors' first four bytes;
// only a bucket hit compares whole literals. ~1.5 ns per byte, a third of an RE2 DFA pass over
// the same alternation, and the first verified hit is the leftmost anchor.
class PytorchParser::AnchorSearch {
public:
    AnchorSearch()
    {
        std::array<std::uint16_t, kBuckets + 1> count {};
        for (const Anchor& anchor : kAnchors)
            ++count[hash(anchor.text.data())];
        std::uint16_t sum = 0;
        for (std::size_t b = 0; b <= kBuckets; ++b) {
            m_bucketStart[b] = sum;
            sum = static_cast<std::uint16_t>(sum + count[b]);
        }
        std::array<std::uint16_t, kBuckets + 1> fill = m_bucketStart;
        for (std::size_t i = 0; i < std::size(kAnchors); ++i)
            m_order[fill[hash(kAnchors[i].text.data())]++] = static_cast<std::uint8_t>(i);
    }

    // The leftmost anchor at or after `from`; `at` receives its position.
    const Anchor* find(std::string_view body, std::size_t from, std::size_t& at) const
    {
        const char* const p = body.data();
        for (std::size_t i = from; i + kKeyBytes <= body.size(); ++i) {
            const std::uint32_t h = hash(p + i);
            for (std::size_t j = m_bucketStart[h]; j < m_bucketStart[h + 1]; ++j) {
                const Anchor& anchor = kAnchors[m_order[j]];
                if (anchor.text.size() <= body.size() - i
                    && std::memcmp(p + i, anchor.text.data(), anchor.text.size()) == 0) {
                    at = i;
                    return &anchor;
                }
            }
        }
        return nullptr;
    }

private:
    static constexpr std::size_t kKeyBytes = 4;
    static constexpr std::size_t kBuckets = 4096;

    static std::uint32_t hash(const char* p)
    {
        std::uint32_t v = 0;
        std::memcpy(&v, p, kKeyBytes);
        return (v * 2654435761u) >> 20; // Knuth's multiplicative hash, 12 bits
    }

    static constexpr Anchor kAnchors[] = {
        { "atchdog thread terminated with exception: ", Anchor::Kind::WatchdogException },
        { "Watchdog caught collective operation timeout: ", Anchor::Kind::WatchdogTimeout },
        { "detected by watchdog at work", Anchor::Kind::StatusDetected },
        { "Timeout at NCCL work", Anchor::Kind::StatusTimeout },
        { "raised the following async exception: ", Anchor::Kind::AsyncError },
        { " timed out in blocking wait", Anchor::Kind::BlockingWait },
        { "Stack trace of the failed collective", Anchor::Kind::FailedStack },
        { "Some NCCL operations have failed or timed out.", Anchor::Kind::TeardownFirst },
        { "To avoid data inconsistency, we are taking the entire process",
            Anchor::Kind::TeardownSecond },
        { "NCCL communicator was aborted on rank ", Anchor::Kind::CommAborted },
        { "NCCL error in: ", Anchor::Kind::ApiError },
        { "NCCL error: ", Anchor::Kind::ApiErrorBare },
        { "watchdog got stuck for ", Anchor::Kind::HeartbeatStuck },
        { "Heartbeat monitor timed out!", Anchor::Kind::HeartbeatTimedOut },
        { "First PG on this rank that detected no heartbeat", Anchor::Kind::HeartbeatTimedOut },
        { "Terminating the process after attempting to dump debug info",
            Anchor::Kind::HeartbeatTerminate },
        { "Could not acquire GIL within ", Anchor::Kind::GilProbe },
        { "Received a ", Anchor::Kind::DumpSignal },
        { "remote error detected from rank: ", Anchor::Kind::RemoteError },
        { "light recorder dump in heartbeatMonitor", Anchor::Kind::DumpHung },
        { "ProcessGroupNCCL preparing to dump debug info", Anchor::Kind::DumpStage },
        { "dumping nccl trace to ", Anchor::Kind::DumpStageWithPath },
        { "Flight Recorder trace successfully dumped", Anchor::Kind::DumpStage },
        { "Finished writing NCCLPG debug info to ", Anchor::Kind::DumpStageWithPath },
        { "Finished flight recorder successfully", Anchor::Kind::DumpStage },
        { "Observed flight recorder dump signal from another rank", Anchor::Kind::DumpStage },
        { "First PG on this rank to signal dumping", Anchor::Kind::DumpStage },
        { "Broadcasting flight-recorder dump signal", Anchor::Kind::DumpStage },
        { "TORCH_NCCL_DESYNC_DEBUG report", Anchor::Kind::DesyncFailure },
        { "Detected mismatch between collectives on ranks.", Anchor::Kind::Mismatch },
        { "ProcessGroupNCCL initialization options:", Anchor::Kind::Options },
        { "ProcessGroupNCCL environments:", Anchor::Kind::Environment },
        { "HeartbeatMonitor environments:", Anchor::Kind::HeartbeatEnvironment },
        { "TORCH_NCCL_BLOCKING_WAIT is enabled, NO watchdog", Anchor::Kind::BlockingWaitEnabled },
        { "created ncclComm_ ", Anchor::Kind::CommCreated },
        { "] is setting up NCCL communicator and retrieving ncclUniqueId",
            Anchor::Kind::StoreError },
        // PyTorch ≤2.0 spelled it "retreiving" (the typo was fixed later); same message.
        { "] is setting up NCCL communicator and retreiving ncclUniqueId",
            Anchor::Kind::StoreError },
        { "broadcast unique ID through store took ", Anchor::Kind::UniqueIdBroadcast },
        { "NCCL Work update periodically: ", Anchor::Kind::WorkUpdate },
        // ~ProcessGroupNCCL on a group nobody destroyed: this process is exiting (≥2.5's
        // wording, then 2.3's and 2.4's: "… before it is being destructed", "… before we
        // destruct ProcessGroupNCCL").
        { "destroy_process_group() was not called before program exit", Anchor::Kind::ExitWithoutDestroy },
        { "process group has NOT been destroyed before ", Anchor::Kind::ExitWithoutDestroy },
    };

    std::array<std::uint16_t, kBuckets + 1> m_bucketStart {};
    std::array<std::uint8_t, std::size(kAnchors)> m_order {};
};

const PytorchParser::AnchorSearch& PytorchParser::anchorSearch()
{
    // Immutable once built (a function-local static const: thread-safe initialisation).
    static const AnchorSearch search;
    return search;
}

PytorchParser::Message PytorchParser::locate(const LineContext& ctx, std::string_view body,
    std::size_t anchor, std::size_t maxLead, model::ParsedSource& out) const
{
    Message m;
    m.start = anchor;
    m.identity = ctx.identity;
    std::size_t chainStart = anchor;
    if (anchor > 0 && anchor <= body.size()) {
        const std::size_t close = body.rfind(']', anchor - 1);
        if (close != kNoPos) {
            const std::size_t lead = skipSpaces(body, close + 1);
            const bool plausibleLead = lead >= anchor
                || (anchor - lead <= maxLead
                    && body.substr(lead, anchor - lead).find('[') == kNoPos);
            if (plausibleLead) {
                m.start = std::min(lead, anchor);
                m.prefix = prefixChainEndingAt(body, close, chainStart);
                if (!m.prefix.valid)
                    chainStart = close + 1;
            }
        }
    }
    m.envelope = findEnvelope(body, chainStart);
    if (m.envelope.pos != kNoPos && (m.envelope.pos > 0 || !ctx.time.valid()))
        m.time = parseTorchEnvelopeTime(body.substr(m.envelope.pos));
    if (m.envelope.pos != kNoPos && ctx.prefix.globalRank < 0) {
        const std::int32_t tagged = rankTagBefore(body, m.envelope.pos);
        if (tagged >= 0 && ctx.identity < out.identities.size()) {
            model::RawIdentity id = out.identities[ctx.identity];
            id.globalRank = tagged;
            m.identity = out.identityIndex(id);
        }
    }
    return m;
}

void PytorchParser::applyPrefix(model::Event& e, const Message& m, model::ParsedSource& out)
{
    if (m.prefix.hasPg())
        e.pg = out.intern(m.prefix.key());
    if (m.prefix.valid)
        e.pgRank = m.prefix.rank;
    if (!m.prefix.valid)
        return;
    if (e.identity >= m_prefixMarks.size())
        m_prefixMarks.resize(e.identity + 1);
    PrefixMark& mark = m_prefixMarks[e.identity];
    mark = { e.identity, e.evidence.line, e.pg, e.pgRank, true };
    m_lastMark = mark;
}

model::Event& PytorchParser::emit(const LineContext& ctx, const Message& m,
    model::ParsedSource& out, EventKind kind, Severity severity, std::string_view text)
{
    if (m.envelope.severity == 'F')
        severity = Severity::Fatal;
    else if (m.envelope.severity == 'W' && severity < Severity::Warning)
        severity = Severity::Warning;
    model::Event& e = addEvent(out, ctx, kind, severity, text);
    e.identity = m.identity;
    if (m.time.valid())
        e.time = m.time;
    applyPrefix(e, m, out);
    return e;
}

model::Event& PytorchParser::emitAt(const LineContext& ctx, std::string_view body,
    std::size_t start, model::ParsedSource& out, EventKind kind, Severity severity)
{
    const Message m = locate(ctx, body, start, 0, out);
    return emit(ctx, m, out, kind, severity, restOfLine(body, m.start));
}

// --- de-duplication ------------------------------------------------------------------------

std::size_t PytorchParser::findRecent(EventKind kind, std::string_view text, std::uint32_t identity,
    const model::ParsedSource& out) const
{
    const model::StrId id = out.strings.find(text.substr(0, kMaxEventText));
    if (id == model::kNoStr)
        return kNone;
    for (std::size_t i = m_recent.size(); i-- > 0;) {
        const RecentEvent& r = m_recent[i];
        if (r.kind == kind && r.text == id && compatible(out, r.identity, identity))
            return r.event;
    }
    return kNone;
}

void PytorchParser::remember(EventKind kind, std::size_t event, const model::ParsedSource& out)
{
    if (m_recent.size() >= kMaxRecent)
        m_recent.erase(m_recent.begin());
    const model::Event& e = out.events[event];
    m_recent.push_back({ kind, e.identity, e.text, event });
}

PytorchParser::PendingTerminate PytorchParser::takePending(
    const LineContext& ctx, std::uint32_t identity, const model::ParsedSource& out)
{
    PendingTerminate p = m_pending;
    m_pending = {};
    if (!p.valid || ctx.lineNo > p.lineNo + kMarkLines || !compatible(out, p.identity, identity))
        return {};
    return p;
}

const PytorchParser::PrefixMark* PytorchParser::recentMark(
    std::uint32_t identity, std::uint64_t lineNo, const model::ParsedSource& out) const
{
    auto fresh = [&](const PrefixMark& m) {
        return m.valid && lineNo >= m.lineNo && lineNo - m.lineNo <= kMarkLines;
    };
    if (identity < m_prefixMarks.size() && fresh(m_prefixMarks[identity]))
        return &m_prefixMarks[identity];
    if (fresh(m_lastMark) && compatible(out, m_lastMark.identity, identity))
        return &m_lastMark;
    return nullptr;
}

// --- blocks --------------------------------------------------------------------------------

void PytorchParser::openBlock(BlockKind kind, std::uint32_t identity, std::size_t event,
    const LineContext& ctx, model::ParsedSource& out)
{
    for (std::size_t i = m_blocks.size(); i-- > 0;)
        if (m_blocks[i].identity == identity)
            closeBlock(i, out);
    Block& b = m_blocks.emplace_back();
    b.kind = kind;
    b.identity = identity;
    b.event = event;
    b.lastLine = ctx.lineNo;
}

void PytorchParser::closeBlock(std::size_t index, model::ParsedSource& out)
{
    Block& b = m_blocks[index];
    if (b.kind == BlockKind::FailedStack && !b.frames.empty() && b.event != kNone)
        out.events[b.event].text = out.intern(std::string_view(b.frames).substr(0, kMaxEventText));
    if (b.kind == BlockKind::Desync && b.event != kNone) {
        const model::Event& e = out.events[b.event];
        b.report.identity = e.identity;
        b.report.evidence = e.evidence;
        b.report.time = e.time;
        out.desyncReports.push_back(std::move(b.report));
    }
    m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(index));
}

namespace {

// "#0 all_reduce from pytorch/torch/distributed/distributed_c10d.py:2696"
bool isTracebackFrame(std::string_view line)
{
    if (line.size() < 4 || line[0] != '#' || !isDigit(line[1]))
        return false;
    std::size_t i = 1;
    while (i < line.size() && isDigit(line[i]))
        ++i;
    return i < line.size() && line[i] == ' ' && findLiteral(line, " from ", i) != kNoPos;
}

// "frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x… in …/libtorch_cuda.so)"
bool isCppFrame(std::string_view line)
{
    if (!line.starts_with("frame #"))
        return false;
    std::size_t i = 7;
    const std::size_t digits = i;
    while (i < line.size() && isDigit(line[i]))
        ++i;
    return i > digits && i < line.size() && line[i] == ':';
}

bool isBacktraceHeader(std::string_view line)
{
    return line.starts_with("Exception raised from ")
        && findLiteral(line, "(most recent call first)") != kNoPos;
}

// "ncclRemoteError: A call failed …", "ncclSystemError: …" (getNcclErrorDetailStr).
bool isNcclErrorInterpretation(std::string_view line)
{
    return line.size() > 6 && line.starts_with("nccl") && isUpper(line[4])
        && line.find(": ") != kNoPos;
}

// Advice lines c10 appends to CUDA errors raised in the watchdog ([formats 9]).
bool isCudaAdvice(std::string_view line)
{
    return line.starts_with("CUDA kernel errors might be asynchronously reported")
        || line.starts_with("For debugging consider passing CUDA_LAUNCH_BLOCKING")
        || line.starts_with("Compile with `TORCH_USE_CUDA_DSA`");
}

// A line that starts a new log record rather than continuing ncclGetLastError()'s text.
bool looksLikeNewRecord(std::string_view line)
{
    return isBracketEnvelope(line, 0) || isGlogEnvelope(line) || line.starts_with("Traceback (")
        || line.starts_with("terminate called") || isBacktraceHeader(line);
}

} // namespace

bool PytorchParser::continueErrorDetail(
    Block& block, std::string_view line, model::ParsedSource& out)
{
    if (block.afterLastError) {
        block.afterLastError = false;
        // With no exception event to hold it (a paste cut above the exception's first line),
        // the line is left to the scanner, which reads it as NCCL's quoted WARN.
        if (line.empty() || looksLikeNewRecord(line) || block.event == kNone)
            return false;
        applyLastError(out.events[block.event], line, out);
        return true;
    }
    if (line.starts_with("Last error:")) {
        block.afterLastError = true;
        return true;
    }
    return isNcclErrorInterpretation(line) || isCudaAdvice(line) || isBacktraceHeader(line)
        || isCppFrame(line);
}

namespace {

// One "\t - …" item of a desync report (TraceUtils.h retrieveDesyncReport).
void readDesyncItem(std::string_view item, model::DesyncReport& report)
{
    std::size_t i = skipBlanks(item, 0);
    if (startsAt(item, i, "- "))
        i += 2;
    if (startsAt(item, i, "To our best knowledge, ranks [")) {
        i += 29;
        std::vector<std::int32_t> ranks;
        if (readRankList(item, i, ranks) && startsAt(item, i, " are the lagging ranks"))
            report.laggingRanks.insert(report.laggingRanks.end(), ranks.begin(), ranks.end());
        return;
    }
    if (i >= item.size() || item[i] != '[')
        return;
    std::vector<std::int32_t> ranks;
    if (!readRankList(item, i, ranks))
        return;
    const std::string_view rest = item.substr(i);
    if (rest.starts_with(" Timeout at collective: ")) {
        const std::size_t op = 24;
        const std::size_t comma = rest.find(", #", op);
        if (comma == kNoPos || ranks.size() != 1)
            return;
        report.reportingPgRank = ranks.front();
        report.op = model::opTypeFromTorchName(rest.substr(op, comma - op));
        std::size_t s = comma + 3;
        if (const auto seq = readSigned(rest, s))
            report.seq = *seq;
    } else if (rest.starts_with(" joined but didn't finish collective #")) {
        report.joinedNotFinished.insert(report.joinedNotFinished.end(), ranks.begin(), ranks.end());
    } else if (rest.starts_with(" finished collective #")
        && findLiteral(rest, "but didn't join collective") != kNoPos) {
        report.finishedNotJoined.insert(report.finishedNotJoined.end(), ranks.begin(), ranks.end());
    }
}

// An item of a desync report pasted without its leading blanks (a chat or a form that trims
// lines): only the report's own shapes, since a line at the margin is usually the next record
// ("[rank0]:[E …]").
bool unindentedDesyncItem(std::string_view item)
{
    if (item.starts_with("- "))
        return true;
    if (item.starts_with('#'))
        return item.size() > 1 && isDigit(item[1]) && trim(item).ends_with(" ranks:");
    std::size_t i = 0;
    std::vector<std::int32_t> ranks;
    if (!item.starts_with('[') || !readRankList(item, i, ranks))
        return false;
    const std::string_view rest = item.substr(i);
    return rest.starts_with(" finished ") || rest.starts_with(" started ") || rest.starts_with(" joined ");
}

} // namespace

PytorchParser::Continuation PytorchParser::continueBlock(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    for (std::size_t i = m_blocks.size(); i-- > 0;)
        if (ctx.lineNo > m_blocks[i].lastLine + kMaxBlockGap)
            closeBlock(i, out);
    std::size_t index = kNoPos;
    for (std::size_t i = m_blocks.size(); i-- > 0 && index == kNoPos;)
        if (m_blocks[i].identity == ctx.identity)
            index = i;
    for (std::size_t i = m_blocks.size(); i-- > 0 && index == kNoPos;)
        if (compatible(out, m_blocks[i].identity, ctx.identity))
            index = i;
    if (index == kNoPos)
        return Continuation::NotMine;

    Block& block = m_blocks[index];
    bool consumed = false;
    switch (block.kind) {
    case BlockKind::FailedStack: {
        const std::string_view line = trim(body);
        if (isTracebackFrame(line)) {
            if (block.frames.size() < kMaxFrames) {
                if (!block.frames.empty())
                    block.frames += '\n';
                block.frames += line;
            }
            consumed = true;
        }
        break;
    }
    case BlockKind::ErrorDetail:
        consumed = continueErrorDetail(block, trim(body), out);
        break;
    case BlockKind::Desync: {
        // Items start with "\t - "; pastes turn the tab into spaces. Nested lines ("[7] finished
        // collective #182 …", "#315 started ranks:") are indented further.
        std::size_t i = 0;
        while (i < body.size() && (body[i] == ' ' || body[i] == '\t'))
            ++i;
        std::string_view item = body.substr(i);
        bool isItem = i > 0 ? (item.starts_with("- ") || item.starts_with("[") || item.starts_with("#"))
                            : unindentedDesyncItem(item);
        // At the margin, "[7] finished …" reads as a rank tag and its message: the item is the
        // whole line.
        if (!isItem && i == 0 && ctx.line.size() > body.size() && unindentedDesyncItem(ctx.line)) {
            item = ctx.line;
            isItem = true;
        }
        if (isItem) {
            readDesyncItem(item, block.report);
            consumed = true;
        }
        break;
    }
    }
    if (!consumed) {
        closeBlock(index, out);
        return Continuation::NotMine;
    }
    block.lastLine = ctx.lineNo;
    return Continuation::Consumed;
}

// --- entry points --------------------------------------------------------------------------

bool PytorchParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    noteCheckTimeoutFrame(ctx, body, out);
    if (m_wrappedTimeout != kNone && continueWrappedTimeout(ctx, body, out))
        return true;
    if (!m_blocks.empty() && continueBlock(ctx, body, out) == Continuation::Consumed)
        return true;
    bool handled = false;
    const bool recognised = parseStartAnchored(ctx, body, out, handled);
    if (handled)
        return recognised;
    // The watchdog's message alone, cut before its WorkNCCL(…) or quoted without its
    // envelope: it starts the (indented) line, so the check costs nothing on other lines.
    {
        constexpr std::string_view kBareTimeout = "Watchdog caught collective operation timeout";
        const std::size_t start = skipSpaces(body, 0);
        if (startsAt(body, start, kBareTimeout))
            return parseWatchdogTimeout(ctx, body, start, out);
    }
    // The prefilter: every message of [formats 1.4] carries "Rank " (its PG prefix, the mismatch
    // wording) or "NCCL" (its ProcessGroupNCCL.cpp envelope or its own words). Other lines
    // cost two memchr scans for rare capitals.
    const bool rankSeen = containsRare(body, "Rank ");
    if ((rankSeen || containsRare(body, "NCCL")) && parseMessage(ctx, body, out, rankSeen))
        return true;
    if (isTorchDistributedWarning(body))
        return true;
    if (!isC10NoticeEnvelope(body))
        return false;
    // TCPStore (torch/csrc/distributed/c10d/socket.cpp) gives up a client's wait:
    // "[c10d] waitForInput: socket SocketImpl(…) timed out after 1800000ms". The process waited
    // for a store key another rank never wrote.
    const std::size_t wait = findLiteral(body, "[c10d] waitForInput: ");
    if (wait != kNoPos && findLiteral(body, " timed out after ", wait) != kNoPos) {
        model::Event& e = addEvent(out, ctx, EventKind::TorchStoreError, Severity::Warning, trim(body.substr(wait)));
        std::size_t i = findLiteral(body, " timed out after ", wait) + 17;
        if (const auto ms = readUnsigned(body, i); ms && *ms < (std::uint64_t { 1 } << 40))
            e.durationMs = static_cast<std::int64_t>(*ms);
    }
    return true;
}

// WorkNCCL::checkTimeout throws only when a collective ran past its timeout, so its frame in
// a c10 backtrace ("Exception raised from checkTimeout at …ProcessGroupNCCL.cpp:609", "frame
// #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(…)") is a watchdog timeout even when
// the excerpt lost the "Watchdog caught collective operation timeout" line itself. One event
// per backtrace, and none when a timeout event was read just before.
void PytorchParser::noteCheckTimeoutFrame(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    // Quoted in an issue, the lines come indented, and a paste may keep only the location
    // part of the exception line ("checkTimeout at ProcessGroupNCCL.cpp:733").
    std::string_view line = body;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    const bool header = line.starts_with("Exception raised from checkTimeout")
        || (line.starts_with("checkTimeout at ") && findLiteral(line, "ProcessGroupNCCL.cpp:") != kNoPos);
    if (!header && !(line.starts_with("frame #") && findLiteral(line, "WorkNCCL::checkTimeout") != kNoPos))
        return;
    // The backtrace follows its message (on the writer's prefixed line or in a what() block,
    // whose continuation lines carry no prefix): any recent timeout event is its message.
    for (std::size_t n = 0, i = out.events.size(); i > 0 && n < 64; --i, ++n) {
        const model::Event& e = out.events[i - 1];
        if (e.kind == EventKind::TorchWatchdogTimeout
            || (e.kind == EventKind::TorchWatchdogException && contains(out.text(e.text), "timeout")))
            return;
    }
    model::Event& e = addEvent(out, ctx, EventKind::TorchWatchdogTimeout, Severity::Error,
        "a collective timed out (the watchdog's message is not in the input; its backtrace shows "
        "WorkNCCL::checkTimeout)");
    e.code = 1;
}

// "[W712 17:30:52.153232081 ProcessGroupNCCL.cpp:4715] …", "[W ProcessGroupNCCL.cpp:1117] …",
// "[I socket.cpp:480] …", "[W Utils.hpp:135] Warning: …": a warning or notice from PyTorch's
// C++ logger whose message no grammar reads (device-unknown warnings, "process group has NOT
// been destroyed" at exit, c10d's notices for deprecated NCCL_* variable names).
// It is PyTorch's output, so the input is not of an unknown format; it yields no event, as
// a notice is no evidence of a hang.
bool PytorchParser::isC10NoticeEnvelope(std::string_view body)
{
    if (body.size() < 12 || body[0] != '[' || (body[1] != 'W' && body[1] != 'I'))
        return false;
    const std::size_t close = body.find(']');
    if (close == std::string_view::npos || close > 64)
        return false;
    const std::string_view envelope = body.substr(0, close);
    for (const std::string_view ext : { std::string_view(".cpp:"), std::string_view(".hpp:"), std::string_view(".h:") }) {
        const std::size_t at = envelope.rfind(ext);
        if (at != std::string_view::npos && at + ext.size() < envelope.size() && isDigit(envelope[at + ext.size()]))
            return true;
    }
    return false;
}

void PytorchParser::finish(model::ParsedSource& out)
{
    while (!m_blocks.empty())
        closeBlock(m_blocks.size() - 1, out);
    m_recent.clear();
    m_pending = {};
}

// Lines libstdc++/c10 print at their start: cheap first-character checks.
bool PytorchParser::parseStartAnchored(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out, bool& handled)
{
    const std::size_t start = skipSpaces(body, 0);
    if (start >= body.size())
        return false;
    const std::string_view line = body.substr(start);
    switch (line[0]) {
    case '\t':
        if (line.starts_with("\t - ")) {
            handled = parseDesyncStart(ctx, body, line, out);
            return handled;
        }
        return false;
    case '-':
        // A pasted desync report: the leading tab became spaces and was skipped above, or was
        // trimmed away. Only its own first items open one (parseDesyncStart).
        if (line.starts_with("- ")) {
            handled = parseDesyncStart(ctx, body, line, out);
            return handled;
        }
        return false;
    case 't':
        if (line.starts_with("terminate called after throwing an instance of ")) {
            handled = true;
            return parseTerminate(ctx, line, out);
        }
        return false;
    case 'w':
        if (line.starts_with("what():")) {
            handled = true;
            return parseWhat(ctx, body, start + 7, out);
        }
        return false;
    case 'E':
        if (isBacktraceHeader(line)) {
            handled = true;
            openBlock(BlockKind::ErrorDetail, ctx.identity, kNone, ctx, out);
            return true;
        }
        return false;
    case 'f':
        if (isCppFrame(line)) {
            handled = true;
            return true;
        }
        return false;
    default:
        return false;
    }
}

bool PytorchParser::parseMessage(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out, bool rankSeen)
{
    const AnchorSearch& search = anchorSearch();
    std::size_t from = 0;
    // An anchor whose grammar does not hold ("Received a letter …") lets a later one try.
    for (int n = 0; n < 4; ++n) {
        std::size_t at = 0;
        const Anchor* anchor = search.find(body, from, at);
        if (!anchor)
            break;
        if (parseAnchored(ctx, body, at, *anchor, out))
            return true;
        from = at + 1;
    }
    return rankSeen && parseBareHeader(ctx, body, out);
}

namespace {

// `at` when `owner` ("ProcessGroupNCCL ") immediately precedes it: where the message starts.
std::size_t withOwner(std::string_view body, std::size_t at, std::string_view owner)
{
    return at >= owner.size() && startsAt(body, at - owner.size(), owner) ? at - owner.size() : at;
}

} // namespace

bool PytorchParser::parseAnchored(const LineContext& ctx, std::string_view body, std::size_t at,
    const Anchor& anchor, model::ParsedSource& out)
{
    const std::size_t after = at + anchor.text.size();
    switch (anchor.kind) {
    case Anchor::Kind::WatchdogException:
        return parseWatchdogException(ctx, body, at, out);
    case Anchor::Kind::WatchdogTimeout:
        return parseWatchdogTimeout(ctx, body, at, out);
    case Anchor::Kind::StatusDetected:
    case Anchor::Kind::StatusTimeout:
        return parseWatchdogStatus(ctx, body, at, after, out);
    case Anchor::Kind::AsyncError:
        return parseAsyncError(ctx, body, at, out);
    case Anchor::Kind::BlockingWait:
        return parseBlockingWait(ctx, body, at, out);
    case Anchor::Kind::FailedStack:
        return parseFailedStack(ctx, body, at, out);
    case Anchor::Kind::TeardownFirst:
    case Anchor::Kind::TeardownSecond:
        return parseTeardown(ctx, body, at, anchor.kind == Anchor::Kind::TeardownFirst, out);
    case Anchor::Kind::CommAborted:
        return parseCommAborted(ctx, body, at, out);
    case Anchor::Kind::ApiError:
        return parseApiError(ctx, body, at, out);
    case Anchor::Kind::ApiErrorBare:
        return startsWithNcclResultText(body.substr(after)) && parseApiError(ctx, body, at, out);
    case Anchor::Kind::HeartbeatStuck: {
        std::size_t i = after;
        const auto seconds = readUnsigned(body, i);
        model::Event& e = emitAt(ctx, body, withOwner(body, at, "ProcessGroupNCCL's "), out,
            EventKind::TorchHeartbeatStuck, Severity::Error);
        if (seconds && *seconds < (std::uint64_t { 1 } << 40))
            e.durationMs = static_cast<std::int64_t>(*seconds) * 1000;
        return true;
    }
    case Anchor::Kind::HeartbeatTimedOut:
        emitAt(ctx, body, at, out, EventKind::TorchHeartbeatStuck, Severity::Error);
        return true;
    case Anchor::Kind::HeartbeatTerminate:
        emitAt(ctx, body, at, out, EventKind::TorchHeartbeatTerminate, Severity::Fatal);
        return true;
    case Anchor::Kind::GilProbe:
        emitAt(ctx, body, at, out, EventKind::TorchHeartbeatStuck, Severity::Warning).code = 1;
        return true;
    case Anchor::Kind::DumpSignal:
        return parseDumpSignal(ctx, body, at, out);
    case Anchor::Kind::RemoteError: {
        std::size_t i = after;
        const auto peer = readRank(body, i);
        if (!peer)
            return false;
        emitAt(ctx, body, at, out, EventKind::TorchRemoteError, Severity::Error).peerRank = *peer;
        return true;
    }
    case Anchor::Kind::DumpHung: {
        // "Future for Flight recorder dump … timed out after 15000 ms" / "Exception thrown
        // when waiting for future Flight recorder dump …: …": the dump itself hung or failed.
        const std::size_t future = body.rfind("Future for ", at);
        const std::size_t thrown = body.rfind("Exception thrown when wait", at);
        std::size_t start = at;
        for (const std::size_t lead : { future, thrown })
            if (lead != kNoPos && (start == at || lead > start))
                start = lead;
        model::Event& e
            = emitAt(ctx, body, start, out, EventKind::TorchDumpProgress, Severity::Warning);
        e.code = 1;
        e.durationMs = numberAfter(body, "timed out after ", at).value_or(-1);
        return true;
    }
    case Anchor::Kind::DumpStage:
    case Anchor::Kind::DumpStageWithPath: {
        model::Event& e = emitAt(ctx, body, withOwner(body, at, "ProcessGroupNCCL "), out,
            EventKind::TorchDumpProgress, Severity::Info);
        if (anchor.kind == Anchor::Kind::DumpStageWithPath) {
            const std::string_view path = restOfLine(body, after);
            e.detail = out.intern(path.substr(0, path.find(' ')));
        }
        return true;
    }
    case Anchor::Kind::DesyncFailure:
        return parseDesyncFailure(ctx, body, at, out);
    case Anchor::Kind::Mismatch:
        return parseMismatch(ctx, body, at, out);
    case Anchor::Kind::Options:
        return parseOptions(ctx, body, at, out);
    case Anchor::Kind::Environment:
    case Anchor::Kind::HeartbeatEnvironment:
        return parseEnvironment(ctx, body, at, after, out);
    case Anchor::Kind::BlockingWaitEnabled: {
        const std::uint32_t identity
            = emitAt(ctx, body, at, out, EventKind::TorchPgEnvironment, Severity::Info).identity;
        addEnvSetting(out, ctx, identity, "TORCH_NCCL_BLOCKING_WAIT", "1");
        return true;
    }
    case Anchor::Kind::CommCreated:
        return parseCommCreated(ctx, body, at, out);
    case Anchor::Kind::StoreError:
        return parseStoreError(ctx, body, at, out);
    case Anchor::Kind::UniqueIdBroadcast: {
        std::size_t i = after;
        const auto ms = readUnsigned(body, i);
        model::Event& e = emitAt(ctx, body, withOwner(body, at, "ProcessGroupNCCL "), out,
            EventKind::TorchUniqueIdBroadcast, Severity::Info);
        if (ms && *ms < (std::uint64_t { 1 } << 62))
            e.durationMs = static_cast<std::int64_t>(*ms);
        return true;
    }
    case Anchor::Kind::ExitWithoutDestroy:
        emitAt(ctx, body, at, out, EventKind::TorchExitWithoutDestroy, Severity::Warning);
        return true;
    case Anchor::Kind::WorkUpdate: {
        model::Event& e = emitAt(ctx, body, at, out, EventKind::TorchWorkUpdate, Severity::Info);
        e.lastEnqueued = workCounter(body, "last enqueued", at).value_or(-1);
        e.lastCompleted = workCounter(body, "last completed", at).value_or(-1);
        return true;
    }
    }
    return false;
}

// --- (a) watchdog timeout -------------------------------------------------------------------

bool PytorchParser::parseWatchdogTimeout(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    const Message m = locate(ctx, body, at, 0, out);
    const std::string_view text = restOfLine(body, m.start);
    // The same line printed twice by one writer is one timeout.
    if (findRecent(EventKind::TorchWatchdogTimeout, text, m.identity, out) != kNone)
        return true;
    const WorkRepr w = parseWork(body, at);
    noteTruncatedWork(ctx, w, out);
    model::Event& e = emit(ctx, m, out, EventKind::TorchWatchdogTimeout, Severity::Error, text);
    applyWork(e, w);
    e.durationMs = ranForMs(body, w.end == kNoPos ? at : w.end);
    remember(EventKind::TorchWatchdogTimeout, out.events.size() - 1, out);
    // A terminal hard-wraps the long line right after "timeout: ": the WorkNCCL(…) part
    // comes as the next line, with no prefix of its own.
    m_wrappedTimeout = kNone;
    if (!w.found && trim(body.substr(at)).ends_with("timeout:")) {
        m_wrappedTimeout = out.events.size() - 1;
        m_wrappedTimeoutLine = ctx.lineNo;
    }
    return true;
}

// The second half of a hard-wrapped watchdog timeout line (see parseWatchdogTimeout).
bool PytorchParser::continueWrappedTimeout(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::size_t event = m_wrappedTimeout;
    m_wrappedTimeout = kNone;
    if (event >= out.events.size() || ctx.lineBefore != m_wrappedTimeoutLine)
        return false;
    const std::string_view line = trim(body);
    if (!line.starts_with("WorkNCCL("))
        return false;
    const WorkRepr w = parseWork(line, 0);
    model::Event& e = out.events[event];
    applyWork(e, w);
    e.durationMs = ranForMs(line, w.end == kNoPos ? 0 : w.end);
    return true;
}

// --- (b) detection / PG status --------------------------------------------------------------

bool PytorchParser::parseWatchdogStatus(const LineContext& ctx, std::string_view body,
    std::size_t at, std::size_t afterAnchor, model::ParsedSource& out)
{
    std::size_t i = afterAnchor;
    if (startsAt(body, i, " sequence id:"))
        i += 13;
    else if (startsAt(body, i, ":"))
        i += 1;
    i = skipSpaces(body, i);
    const auto seq = readSigned(body, i);
    if (!seq)
        return false;
    const Message m = locate(ctx, body, at, kMaxLead, out);
    model::Event& e = emit(
        ctx, m, out, EventKind::TorchWatchdogStatus, Severity::Error, restOfLine(body, m.start));
    e.seq = *seq;
    const auto enqueued = workCounter(body, "last enqueued", i);
    const auto completed = workCounter(body, "last completed", i);
    e.lastEnqueued = enqueued.value_or(-1);
    e.lastStarted = workCounter(body, "last started", i).value_or(-1);
    e.lastCompleted = completed.value_or(-1);
    // A line cut (or hard-wrapped) before its counters says where the rank timed out, not
    // where it stands: -1 would read as "never enqueued anything".
    if (!enqueued && !completed)
        e.code = 1;
    if (!m.prefix.pgDesc.empty())
        e.detail = out.intern(m.prefix.pgDesc);
    return true;
}

// --- (c) failed collective stack ------------------------------------------------------------

bool PytorchParser::parseFailedStack(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "Stack trace of the failed collective";
    const Message m = locate(ctx, body, at, 0, out);
    const bool notFound = startsAt(body, at + kAnchor.size(), " not found");
    model::Event& e = emit(ctx, m, out, EventKind::TorchFailedCollectiveStack, Severity::Error,
        restOfLine(body, m.start));
    e.code = notFound ? 0 : 1;
    if (!m.prefix.valid) {
        if (const PrefixMark* mark = recentMark(e.identity, ctx.lineNo, out)) {
            e.pg = mark->pg;
            e.pgRank = mark->pgRank;
        }
    }
    if (!notFound)
        openBlock(BlockKind::FailedStack, e.identity, out.events.size() - 1, ctx, out);
    return true;
}

// --- (d) teardown ---------------------------------------------------------------------------
// WorkNCCL::handleException prints these lines only once a collective failed or timed out:
// an error, even when the failed collective's own lines were cut from the paste.

bool PytorchParser::parseTeardown(const LineContext& ctx, std::string_view body, std::size_t at,
    bool first, model::ParsedSource& out)
{
    const Message m = locate(ctx, body, at, 0, out);
    if (!first && m_lastTeardown != 0 && ctx.lineNo <= m_lastTeardownLine + kMarkLines
        && compatible(out, out.events[m_lastTeardown - 1].identity, m.identity))
        return true; // the second line of the 2-line variant
    emit(ctx, m, out, EventKind::TorchTeardown, Severity::Error, restOfLine(body, m.start));
    m_lastTeardown = out.events.size();
    m_lastTeardownLine = ctx.lineNo;
    return true;
}

// --- (e) watchdog thread death ----------------------------------------------------------------

namespace {

// The start of "Process group watchdog thread …" / "NCCL watchdog thread …" given the
// position of "atchdog thread terminated".
std::size_t watchdogExceptionStart(std::string_view body, std::size_t at)
{
    constexpr std::string_view kProcessGroup = "Process group w";
    constexpr std::string_view kNccl = "NCCL w";
    // `at` points behind the 'w' of "watchdog", where both literals end.
    for (const std::string_view owner : { kProcessGroup, kNccl })
        if (at >= owner.size() && startsAt(body, at - owner.size(), owner))
            return at - owner.size();
    return at > 0 ? at - 1 : at;
}

void fillException(model::Event& e, std::string_view what)
{
    const WorkRepr w = parseWork(what, 0);
    if (w.found) {
        applyWork(e, w);
        e.durationMs = ranForMs(what, w.end == kNoPos ? 0 : w.end);
    }
}

} // namespace

bool PytorchParser::parseWatchdogException(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "atchdog thread terminated with exception: ";
    const Message m = locate(ctx, body, watchdogExceptionStart(body, at), 0, out);
    return recordWatchdogException(ctx, m, restOfLine(body, at + kAnchor.size()), out);
}

bool PytorchParser::recordWatchdogException(
    const LineContext& ctx, const Message& m, std::string_view what, model::ParsedSource& out)
{
    const PendingTerminate pending = takePending(ctx, m.identity, out);
    std::size_t event = findRecent(EventKind::TorchWatchdogException, what, m.identity, out);
    if (event == kNone && pending.valid && pending.placeholder != kNone) {
        event = pending.placeholder;
        model::Event& e = out.events[event];
        e.text = out.intern(what.substr(0, kMaxEventText));
        applyPrefix(e, m, out);
        fillException(e, what);
        remember(EventKind::TorchWatchdogException, event, out);
    } else if (event == kNone) {
        model::Event& e
            = emit(ctx, m, out, EventKind::TorchWatchdogException, Severity::Fatal, what);
        fillException(e, what);
        event = out.events.size() - 1;
        remember(EventKind::TorchWatchdogException, event, out);
    }
    model::Event& e = out.events[event];
    if (pending.valid && e.detail == model::kNoStr)
        e.detail = pending.exceptionClass;
    openBlock(BlockKind::ErrorDetail, m.identity, event, ctx, out);
    return true;
}

bool PytorchParser::parseTerminate(
    const LineContext& ctx, std::string_view line, model::ParsedSource& out)
{
    const std::size_t open = line.find('\'');
    const std::size_t close = open == kNoPos ? kNoPos : line.find('\'', open + 1);
    const std::string_view cls
        = close == kNoPos ? std::string_view() : line.substr(open + 1, close - open - 1);
    m_pending = {};
    m_pending.identity = ctx.identity;
    m_pending.lineNo = ctx.lineNo;
    m_pending.exceptionClass = out.intern(cls);
    m_pending.placeholder = kNone;
    m_pending.valid = true;

    for (std::size_t i = m_recent.size(); i-- > 0;) {
        const RecentEvent& r = m_recent[i];
        if (r.kind != EventKind::TorchWatchdogException
            || !compatible(out, r.identity, ctx.identity))
            continue;
        model::Event& e = out.events[r.event];
        if (e.detail != model::kNoStr)
            break; // that one already died of its own terminate: this is another exception
        e.detail = m_pending.exceptionClass;
        return true;
    }
    // Since 2.1 the watchdog throws c10::DistBackendError: the process died of a watchdog
    // exception even when its LOG line was lost. Its what() line fills the text in.
    if (contains(cls, "DistBackendError")) {
        model::Event& e
            = addEvent(out, ctx, EventKind::TorchWatchdogException, Severity::Fatal, trim(line));
        e.detail = m_pending.exceptionClass;
        m_pending.placeholder = out.events.size() - 1;
    }
    return true;
}

bool PytorchParser::parseWhat(
    const LineContext& ctx, std::string_view body, std::size_t afterWhat, model::ParsedSource& out)
{
    const std::size_t at = findLiteral(body, "atchdog thread terminated with exception: ");
    if (at != kNoPos)
        return parseWatchdogException(ctx, body, at, out);

    const std::size_t contentStart = skipSpaces(body, afterWhat);
    const std::string_view content = restOfLine(body, contentStart);
    // ≤2.0 the watchdog rethrew the timeout or the NCCL error itself.
    std::size_t anchor = findLiteral(body, "Watchdog caught collective operation timeout: ");
    if (anchor == kNoPos)
        anchor = findLiteral(body, "NCCL error");
    if (anchor == kNoPos)
        anchor = findLiteral(body, "NCCL communicator was aborted");
    const bool hasPlaceholder = m_pending.valid && m_pending.placeholder != kNone;
    if (anchor == kNoPos && !hasPlaceholder) {
        const bool afterTerminate = takePending(ctx, ctx.identity, out).valid;
        if (afterTerminate)
            openBlock(BlockKind::ErrorDetail, ctx.identity, kNone, ctx, out);
        return afterTerminate;
    }
    const Message m = locate(ctx, body, anchor == kNoPos ? contentStart : anchor, 0, out);
    return recordWatchdogException(ctx, m, content, out);
}

// --- (f) async NCCL error, (g) NCCL API error, (h) aborted communicator ------------------------

bool PytorchParser::parseAsyncError(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "raised the following async exception: ";
    const std::size_t collective = body.rfind("Collective ", at);
    const std::size_t start = collective == kNoPos ? at : collective;
    const Message m = locate(ctx, body, start, 0, out);
    const WorkRepr w = parseWork(body, start);
    noteTruncatedWork(ctx, w, out);
    model::Event& e = emit(ctx, m, out, EventKind::TorchAsyncNcclError, Severity::Error,
        restOfLine(body, at + kAnchor.size()));
    applyWork(e, w);
    openBlock(BlockKind::ErrorDetail, e.identity, out.events.size() - 1, ctx, out);
    takeGluedLastError(out.events.size() - 1, body, at, out);
    return true;
}

// PyTorch ends an NCCL error's message with "Last error:" and NCCL's last WARN on the next line
// (ncclGetLastError()); the error-detail block takes that line. A paste rendered as a paragraph
// glues the two: the WARN is read from the same line, as the block would have read it.
void PytorchParser::takeGluedLastError(
    std::size_t event, std::string_view body, std::size_t from, model::ParsedSource& out)
{
    constexpr std::string_view kLastError = "Last error:";
    const std::size_t at = findLiteral(body.substr(from), kLastError);
    if (at == kNoPos)
        return;
    const std::string_view quoted = trim(body.substr(from + at + kLastError.size()));
    if (quoted.empty()) {
        // Glued only up to "Last error:": the WARN is still the next line.
        if (!m_blocks.empty() && m_blocks.back().event == event)
            m_blocks.back().afterLastError = true;
        return;
    }
    applyLastError(out.events[event], quoted, out);
}

// What ncclGetErrorString() returns for each failed ncclResult_t (src/misc/utils.cc in NCCL),
// up to where the texts differ. Wrappers that raise `f"NCCL error: {ncclGetErrorString(r)}"`
// (vLLM's pynccl, PyTorch 1.x's what()) print only this after "NCCL error: ", with no file and
// line; text that is none of them is someone else's prose, not an NCCL result.
bool PytorchParser::startsWithNcclResultText(std::string_view text)
{
    static constexpr std::string_view kResultTexts[] = {
        "unhandled cuda error",
        "unhandled system error",
        "internal error",
        "invalid argument",
        "invalid usage",
        "remote process exited or there was a network error",
        "NCCL operation in progress",
    };
    return std::any_of(std::begin(kResultTexts), std::end(kResultTexts),
        [&](std::string_view r) { return text.starts_with(r); });
}

bool PytorchParser::parseApiError(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    const Message m = locate(ctx, body, at, 0, out);
    const std::string_view text = restOfLine(body, at);
    std::size_t event = findRecent(EventKind::TorchNcclApiError, text, m.identity, out);
    if (event == kNone) {
        emit(ctx, m, out, EventKind::TorchNcclApiError, Severity::Error, text);
        event = out.events.size() - 1;
        remember(EventKind::TorchNcclApiError, event, out);
    }
    openBlock(BlockKind::ErrorDetail, m.identity, event, ctx, out);
    takeGluedLastError(event, body, at, out);
    return true;
}

bool PytorchParser::parseCommAborted(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "NCCL communicator was aborted on rank ";
    std::size_t i = at + kAnchor.size();
    const auto rank = readRank(body, i);
    if (!rank)
        return false;
    const Message m = locate(ctx, body, at, 0, out);
    const std::string_view text = restOfLine(body, at);
    if (findRecent(EventKind::TorchCommAborted, text, m.identity, out) != kNone)
        return true;
    model::Event& e = emit(ctx, m, out, EventKind::TorchCommAborted, Severity::Error, text);
    e.pgRank = *rank;
    remember(EventKind::TorchCommAborted, out.events.size() - 1, out);
    return true;
}

// --- (j) dump signal ------------------------------------------------------------------------

bool PytorchParser::parseDumpSignal(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    const std::size_t from = findLiteral(body, " from ", at);
    const std::size_t signal = findLiteral(body, " signal ", at);
    if (from == kNoPos || signal == kNoPos || signal > from || from - at > 80)
        return false;
    std::size_t i = skipSpaces(body, from + 6);
    std::int32_t peer = -1;
    if (startsAt(body, i, "rank ")) {
        i += 5;
        peer = readRank(body, i).value_or(-1);
    } else if (!startsAt(body, i, "this local rank")) {
        return false;
    }
    model::Event& e = emitAt(ctx, body, at, out, EventKind::TorchDumpSignal, Severity::Warning);
    e.peerRank = peer;
    e.lastEnqueued = workCounter(body, "enqueued", i).value_or(-1);
    e.lastCompleted = workCounter(body, "completed", i).value_or(-1);
    return true;
}

// --- (k) blocking wait ------------------------------------------------------------------------

bool PytorchParser::parseBlockingWait(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    const std::size_t work = body.rfind("Work WorkNCCL(", at);
    if (work == kNoPos)
        return false;
    const Message m = locate(ctx, body, work, 0, out);
    const std::string_view text = restOfLine(body, m.start);
    if (findRecent(EventKind::TorchBlockingWaitTimeout, text, m.identity, out) != kNone)
        return true;
    model::Event& e = emit(ctx, m, out, EventKind::TorchBlockingWaitTimeout, Severity::Error, text);
    const WorkRepr w = parseWork(body, work);
    noteTruncatedWork(ctx, w, out);
    applyWork(e, w);
    remember(EventKind::TorchBlockingWaitTimeout, out.events.size() - 1, out);
    return true;
}

// --- (l) desync report ------------------------------------------------------------------------

bool PytorchParser::parseDesyncStart(
    const LineContext& ctx, std::string_view body, std::string_view line, model::ParsedSource& out)
{
    model::DesyncReport report;
    readDesyncItem(line, report);
    const bool timeoutItem = report.reportingPgRank >= 0;
    std::string_view item = line;
    while (!item.empty() && (item.front() == '\t' || item.front() == ' '))
        item.remove_prefix(1);
    if (!timeoutItem && !item.starts_with("- To our best knowledge"))
        return false;
    Message m = locate(ctx, body, 0, 0, out);
    const PrefixMark* mark = recentMark(m.identity, ctx.lineNo, out);
    // Behind the C++ logger's "[rankN]:" the items carry no prefix: they belong to the
    // writer of the header line.
    if (mark && m.identity == 0)
        m.identity = mark->identity;
    model::Event& e = emit(ctx, m, out, EventKind::TorchDesyncReport, Severity::Error, trim(line));
    e.code = 1;
    e.seq = report.seq;
    e.op = report.op;
    e.pgRank = report.reportingPgRank;
    if (mark) {
        e.pg = mark->pg;
        if (e.pgRank < 0)
            e.pgRank = mark->pgRank;
    }
    report.reportingPgRank = e.pgRank;
    openBlock(BlockKind::Desync, e.identity, out.events.size() - 1, ctx, out);
    m_blocks.back().report = std::move(report);
    return true;
}

bool PytorchParser::parseDesyncFailure(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    const std::size_t failed = body.rfind("Failed to re", at);
    if (failed == kNoPos || at - failed > 20)
        return false;
    const Message m = locate(ctx, body, failed, 0, out);
    model::Event& e = emit(
        ctx, m, out, EventKind::TorchDesyncReport, Severity::Warning, restOfLine(body, failed));
    e.code = 0;
    // ≥2.7 prints "Rank 3 Failed to retrieve …" without brackets.
    if (!m.prefix.valid) {
        const std::size_t rank = body.rfind("Rank ", failed);
        if (rank != kNoPos && failed - rank < 18) {
            std::size_t i = rank + 5;
            if (const auto r = readRank(body, i); r && skipSpaces(body, i) == failed)
                e.pgRank = *r;
        }
    }
    return true;
}

// A line that is only an envelope and a PG prefix ("[E…] [PG 0 Rank 3] ") or "Rank 3": the
// header a desync report's items follow.
bool PytorchParser::parseBareHeader(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    // Cheap shape check first: such a line ends in ']' or in a digit.
    const std::string_view trimmed = trim(body);
    if (trimmed.empty() || (trimmed.back() != ']' && !isDigit(trimmed.back())))
        return false;
    const Envelope env = findEnvelope(body, body.size());
    const std::size_t end = envelopeEnd(body, env);
    if (end == kNoPos)
        return false;
    std::string_view rest = trim(body.substr(end));
    PrefixMark mark;
    if (rest.starts_with("Rank ")) {
        std::size_t i = 5;
        const auto r = readRank(rest, i);
        if (!r || i != rest.size())
            return false;
        mark.pgRank = *r;
    } else {
        PgPrefix merged;
        for (int n = 0; n < 4 && rest.starts_with('['); ++n) {
            const std::size_t close = rest.find(']');
            if (close == kNoPos)
                return false;
            const PgPrefix p = parsePrefix(rest.substr(1, close - 1));
            if (!p.valid)
                return false;
            if (!merged.valid || (!merged.hasPg() && p.hasPg()))
                merged = p;
            rest = trim(rest.substr(close + 1));
        }
        if (!merged.valid || !rest.empty())
            return false;
        mark.pgRank = merged.rank;
        if (merged.hasPg())
            mark.pg = out.intern(merged.key());
    }
    mark.identity = ctx.identity;
    mark.lineNo = ctx.lineNo;
    mark.valid = true;
    if (ctx.identity >= m_prefixMarks.size())
        m_prefixMarks.resize(ctx.identity + 1);
    m_prefixMarks[ctx.identity] = mark;
    m_lastMark = mark;
    return true;
}

// --- (m) fingerprint mismatch -----------------------------------------------------------------

namespace {

struct Fingerprint {
    std::int64_t seq = -1;
    std::string_view opName;
};

// "CollectiveFingerPrint(SequenceNumber=18, OpType=ALLGATHER, TensorShape=[4], …)"
Fingerprint readFingerprint(std::string_view fp)
{
    Fingerprint f;
    if (const auto seq = numberAfter(fp, "SequenceNumber="))
        f.seq = *seq;
    const std::size_t op = findLiteral(fp, "OpType=");
    if (op != kNoPos) {
        std::size_t end = op + 7;
        while (end < fp.size() && (isAlnum(fp[end]) || fp[end] == '_'))
            ++end;
        f.opName = fp.substr(op + 7, end - op - 7);
    }
    return f;
}

} // namespace

bool PytorchParser::parseMismatch(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "Detected mismatch between collectives on ranks.";
    constexpr std::string_view kRunning = " is running collective: ";
    constexpr std::string_view kBut = ", but Rank ";
    std::size_t i = findLiteral(body, "Rank ", at + kAnchor.size());
    if (i == kNoPos)
        return false;
    i += 5;
    // PyTorch ≤1.12 words it "Rank 0 is running inconsistent collective: <its own
    // fingerprint>" and names no other rank; later versions add ", but Rank N is running …".
    // Some builds print the fingerprint pretty-printed over the following lines, so the old
    // wording may end the line at its colon.
    constexpr std::string_view kRunningOld = " is running inconsistent collective:";
    const auto rankA = readRank(body, i);
    if (!rankA || !(startsAt(body, i, kRunning) || startsAt(body, i, kRunningOld)))
        return false;
    const std::size_t fpA
        = std::min(body.size(), i + (startsAt(body, i, kRunning) ? kRunning.size() : kRunningOld.size() + 1));
    const std::size_t but = findLiteral(body, kBut, fpA);
    std::int32_t rankB = -1;
    std::string_view fpB;
    if (but != kNoPos) {
        std::size_t j = but + kBut.size();
        rankB = readRank(body, j).value_or(-1);
        if (startsAt(body, j, kRunning))
            fpB = body.substr(j + kRunning.size());
    }
    const Message m = locate(ctx, body, at, 0, out);
    const std::string_view text = restOfLine(body, at);
    if (findRecent(EventKind::TorchFingerprintMismatch, text, m.identity, out) != kNone)
        return true;
    const Fingerprint a = readFingerprint(body.substr(fpA, but == kNoPos ? kNoPos : but - fpA));
    const Fingerprint b = readFingerprint(fpB);
    model::Event& e = emit(ctx, m, out, EventKind::TorchFingerprintMismatch, Severity::Error, text);
    e.pgRank = *rankA;
    e.peerRank = rankB;
    e.seq = a.seq;
    e.op = model::opTypeFromTorchName(a.opName);
    if (!b.opName.empty())
        e.detail = out.intern(b.opName);
    remember(EventKind::TorchFingerprintMismatch, out.events.size() - 1, out);
    return true;
}

// --- (n) informational lines ------------------------------------------------------------------

bool PytorchParser::parseCommCreated(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "created ncclComm_ ";
    constexpr std::string_view kDevice = "on CUDA device: ";
    model::Event& e = emitAt(ctx, body, withOwner(body, at, "ProcessGroupNCCL "), out,
        EventKind::TorchCommCreated, Severity::Info);
    const std::size_t ptr = at + kAnchor.size();
    std::size_t ptrEnd = ptr;
    while (ptrEnd < body.size() && body[ptrEnd] != ' ')
        ++ptrEnd;
    e.detail = out.intern(body.substr(ptr, ptrEnd - ptr));
    e.code = -1;
    const std::size_t dev = findLiteral(body, kDevice, ptrEnd);
    if (dev != kNoPos && dev + kDevice.size() < body.size()) {
        std::size_t i = dev + kDevice.size();
        const auto c = static_cast<unsigned char>(body[i]);
        if (isDigit(body[i]))
            e.code = readRank(body, i).value_or(-1);
        else if (c < 0x20) // some versions stream the int8 device index as a raw byte
            e.code = c;
    }
    return true;
}

bool PytorchParser::parseStoreError(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kFrom = "ncclUniqueId from [";
    const std::size_t open = body.rfind('[', at);
    if (open == kNoPos)
        return false;
    std::size_t i = open + 1;
    const auto rank = readRank(body, i);
    if (!rank || i != at)
        return false;
    const Message m = locate(ctx, body, open, 0, out);
    const std::string_view text = restOfLine(body, m.start);
    if (findRecent(EventKind::TorchStoreError, text, m.identity, out) != kNone)
        return true;
    model::Event& e = emit(ctx, m, out, EventKind::TorchStoreError, Severity::Error, text);
    e.pgRank = *rank;
    std::size_t j = findLiteral(body, kFrom, at);
    if (j != kNoPos) {
        j += kFrom.size();
        e.peerRank = readRank(body, j).value_or(-1);
    }
    remember(EventKind::TorchStoreError, out.events.size() - 1, out);
    return true;
}

bool PytorchParser::parseOptions(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    constexpr std::string_view kAnchor = "ProcessGroupNCCL initialization options:";
    const Message m = locate(ctx, body, at, 0, out);
    model::ProcessGroupOptions options;
    std::string_view pgName;
    // 2.2-era lines mix the environment into the options: keep those as settings too.
    std::vector<std::pair<std::string_view, std::string_view>> settings;
    auto rankValue = [](std::string_view value) {
        std::size_t i = 0;
        const auto v = readRank(value, i);
        return v && i == value.size() ? *v : -1;
    };
    forEachPair(
        restOfLine(body, at + kAnchor.size()), [&](std::string_view key, std::string_view value) {
            if (key == "size")
                options.size = rankValue(value);
            else if (key == "global rank")
                options.globalRank = rankValue(value);
            else if (key == "TIMEOUT(ms)")
                options.timeoutMs = toSigned(value).value_or(-1);
            else if (key == "PG Name")
                pgName = value;
            else if (key.starts_with("TORCH_") || key.starts_with("NCCL_") || key == "NCCL version")
                settings.emplace_back(envName(key), value);
        });
    model::Event& e
        = emit(ctx, m, out, EventKind::TorchPgOptions, Severity::Info, restOfLine(body, m.start));
    if (e.pg == model::kNoStr && !pgName.empty())
        e.pg = out.intern(pgName);
    e.timeoutMs = options.timeoutMs;
    if (!m.prefix.pgDesc.empty())
        e.detail = out.intern(m.prefix.pgDesc);
    options.identity = e.identity;
    options.evidence = e.evidence;
    options.pg = e.pg;
    options.pgDesc = e.detail;
    options.pgRank = e.pgRank;
    out.pgOptions.push_back(options);
    for (const auto& [name, value] : settings)
        addEnvSetting(out, ctx, m.identity, name, value);
    return true;
}

bool PytorchParser::parseEnvironment(const LineContext& ctx, std::string_view body, std::size_t at,
    std::size_t listStart, model::ParsedSource& out)
{
    const Message m = locate(ctx, body, at, 0, out);
    model::Event& e = emit(
        ctx, m, out, EventKind::TorchPgEnvironment, Severity::Info, restOfLine(body, m.start));
    forEachPair(restOfLine(body, listStart), [&](std::string_view key, std::string_view value) {
        const std::string_view name = envName(key);
        if (name == "NCCL version")
            e.detail = out.intern(value);
        addEnvSetting(out, ctx, m.identity, name, value);
    });
    return true;
}

} // namespace rankscope::parsers
