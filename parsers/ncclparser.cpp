#include "parsers/ncclparser.h"

#include "model/secretmasker.h"
#include "parsers/ibcompletion.h"

#include "parsers/bytescan.h"
#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

namespace rankscope::parsers {

using model::EventKind;
using model::LinkKind;
using model::Severity;
using model::StrId;

namespace {

// A header's message without the spaces and line-end bytes after it.
std::string_view trimMessageEnd(std::string_view msg)
{
    while (!msg.empty() && (msg.back() == ' ' || msg.back() == '\r' || msg.back() == '\n'))
        msg.remove_suffix(1);
    return msg;
}

constexpr std::string_view kNcclWord = "NCCL ";

// Decimal int32 at s[i...] with optional '-', advancing i; nullopt (i unchanged) when there
// are no digits or the value does not fit. Hand-rolled: it runs several times per COLL line.
std::optional<std::int32_t> readInt32(std::string_view s, std::size_t& i)
{
    std::size_t j = i;
    const bool negative = j < s.size() && s[j] == '-';
    if (negative)
        ++j;
    const std::size_t digitsStart = j;
    std::int64_t v = 0;
    while (j < s.size() && isDigit(s[j])) {
        v = v * 10 + (s[j] - '0');
        if (v > std::int64_t { std::numeric_limits<std::int32_t>::max() } + 1)
            return std::nullopt;
        ++j;
    }
    if (j == digitsStart)
        return std::nullopt;
    if (negative)
        v = -v;
    if (v > std::numeric_limits<std::int32_t>::max())
        return std::nullopt;
    i = j;
    return static_cast<std::int32_t>(v);
}

// "NCCL " inside a message: memchr for 'N' then compare. Messages rarely contain an 'N'
// (hex pointers are lowercase), so this is cheaper than a memmem set-up per line.
std::size_t findNcclWord(std::string_view s, std::size_t from)
{
    while (from + kNcclWord.size() <= s.size()) {
        const char* const last = s.data() + s.size() - (kNcclWord.size() - 1);
        const char* hit = findByte(s.data() + from, last, 'N');
        if (hit == last)
            return std::string_view::npos;
        const std::size_t at = static_cast<std::size_t>(hit - s.data());
        if (bytesEqualShort(hit, kNcclWord.data(), kNcclWord.size()))
            return at;
        from = at + 1;
    }
    return std::string_view::npos;
}

std::int32_t toInt32(std::string_view s, std::int32_t fallback = -1)
{
    std::size_t i = 0;
    const auto v = readInt32(s, i);
    return v && i == s.size() ? *v : fallback;
}

bool isHostChar(char c)
{
    return isAlnum(c) || c == '-' || c == '_' || c == '.';
}

bool allDigits(std::string_view s)
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!isDigit(c))
            return false;
    return true;
}

// The token at s[i...] up to the next space (or the end).
std::string_view tokenAt(std::string_view s, std::size_t i)
{
    if (i >= s.size())
        return {};
    // A plain loop, not find(): tokens are a few bytes long and a memchr call per token was
    // 7% of ingest time on COLL-heavy logs.
    std::size_t end = i;
    while (end < s.size() && s[end] != ' ')
        ++end;
    return s.substr(i, end - i);
}

// The token following `literal` in s, or empty when the literal is absent.
std::string_view tokenAfter(std::string_view s, std::string_view literal, std::size_t from = 0)
{
    const std::size_t at = findLiteral(s, literal, from);
    if (at == std::string_view::npos)
        return {};
    return tokenAt(s, at + literal.size());
}

void skipSpaces(std::string_view s, std::size_t& i)
{
    while (i < s.size() && s[i] == ' ')
        ++i;
}

bool consume(std::string_view s, std::size_t& i, std::string_view literal)
{
    if (s.substr(i).starts_with(literal)) {
        i += literal.size();
        return true;
    }
    return false;
}

// "host:pid:tid" at the end of `token` (anything glued before the host is not part of it).
bool parseHostToken(std::string_view token, std::size_t& hostOffset, std::string_view& host,
    std::int32_t& pid)
{
    std::size_t i = token.size();
    const std::size_t tidEnd = i;
    while (i > 0 && isDigit(token[i - 1]))
        --i;
    if (i == tidEnd || i == 0 || token[i - 1] != ':')
        return false;
    --i;
    const std::size_t pidEnd = i;
    while (i > 0 && isDigit(token[i - 1]))
        --i;
    const std::size_t pidStart = i;
    if (pidStart == pidEnd || i == 0 || token[i - 1] != ':')
        return false;
    --i;
    const std::size_t hostEnd = i;
    while (i > 0 && isHostChar(token[i - 1]))
        --i;
    if (i == hostEnd)
        return false;
    host = token.substr(i, hostEnd - i);
    // "12:00:05" of a timestamp is no header.
    if (allDigits(host))
        return false;
    const auto p = toInt32(token.substr(pidStart, pidEnd - pidStart));
    if (p < 0)
        return false;
    pid = p;
    hostOffset = i;
    return true;
}

// "transport/net_ib.cc:1295" — a path and a line number.
bool isFileLine(std::string_view token)
{
    const std::size_t colon = token.rfind(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    if (!allDigits(token.substr(colon + 1)))
        return false;
    return token.substr(0, colon).find(':') == std::string_view::npos;
}

// "transport/net_ib.cc:1234", "include/socket.h:344": a file:line in NCCL's C/C++/CUDA sources.
bool isNcclSourceLocation(std::string_view token)
{
    if (token.size() < 5 || !isFileLine(token))
        return false;
    const std::string_view file = token.substr(0, token.rfind(':'));
    // .c: the network plugins' sources (ibvwrap.c of nccl-rdma-sharp-plugins and its kin).
    return file.ends_with(".cc") || file.ends_with(".h") || file.ends_with(".cu") || file.ends_with(".cpp")
        || file.ends_with(".c");
}

// TRACE "%f" milliseconds → ns.
bool parseTraceMs(std::string_view token, std::int64_t& ns, model::TimePrecision& precision)
{
    const std::size_t dot = token.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 >= token.size())
        return false;
    const std::string_view whole = token.substr(0, dot);
    const std::string_view frac = token.substr(dot + 1);
    if (!allDigits(whole) || !allDigits(frac) || whole.size() > 12)
        return false;
    std::int64_t value = 0;
    for (char c : whole)
        value = value * 10 + (c - '0');
    std::int64_t fracNs = 0;
    std::size_t used = 0;
    for (; used < frac.size() && used < 6; ++used)
        fracNs = fracNs * 10 + (frac[used] - '0');
    for (std::size_t k = used; k < 6; ++k)
        fracNs *= 10;
    ns = value * 1'000'000 + fracNs;
    precision = frac.size() <= 3 ? model::TimePrecision::Microsecond
                                 : model::TimePrecision::Nanosecond;
    return true;
}

// The level word after "NCCL " at pos; msgStart = first byte of the message.
bool levelAt(std::string_view s, std::size_t pos, std::uint8_t& level, std::size_t& msgStart)
{
    static constexpr std::pair<std::string_view, std::uint8_t> kLevels[] = {
        { "INFO", 0 }, { "WARN", 1 }, { "TRACE", 2 }, { "CALL", 3 } };
    const std::size_t at = pos + kNcclWord.size();
    if (at >= s.size())
        return false;
    for (const auto& [word, value] : kLevels) {
        if (s[at] != word[0] || !s.substr(at).starts_with(word))
            continue;
        const std::size_t end = at + word.size();
        if (end == s.size()) {
            msgStart = end;
        } else if (s[end] == ' ') {
            msgStart = end + 1;
        } else {
            return false;
        }
        level = value;
        return true;
    }
    return false;
}

// int64ToBusId (nccl:src/misc/utils.cc): "7e000" → "0000:7e:00.0".
std::string busIdText(std::uint64_t id)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%04llx:%02llx:%02llx.%01llx",
        static_cast<unsigned long long>(id >> 20),
        static_cast<unsigned long long>((id & 0xff000) >> 12),
        static_cast<unsigned long long>((id & 0xff0) >> 4),
        static_cast<unsigned long long>(id & 0xf));
    return buf;
}

// "[2025-03-01 12:00:05] " right before a header in the middle of a torn line.
model::TimePoint timeBefore(std::string_view body, std::size_t start)
{
    if (start < 4 || body[start - 1] != ' ' || body[start - 2] != ']')
        return {};
    const std::size_t close = start - 2;
    const std::size_t lookFrom = close > 40 ? close - 40 : 0;
    const std::size_t open = body.substr(lookFrom, close - lookFrom).rfind('[');
    if (open == std::string_view::npos)
        return {};
    return parseIsoTime(body.substr(lookFrom + open + 1, close - lookFrom - open - 1));
}

} // namespace

// ---------------------------------------------------------------------------------------
// Header

// NCCL 2.0–2.2 (closed-source builds; 2.3 added the word) printed the level without "NCCL ":
// "host:pid:tid [dev] INFO …" and "host:pid:tid [dev] file:line WARN …". Without the word a
// line is taken only with the whole header at its start, so a Python logger's "INFO" or a
// "host:port" in a message never reads as NCCL.
bool NcclParser::headerWithoutNcclWord(std::string_view body, Header& header)
{
    const std::size_t hostEnd = body.find(' ');
    if (hostEnd == std::string_view::npos || hostEnd + 1 >= body.size() || body[hostEnd + 1] != '[')
        return false;
    std::size_t hostOffset = 0;
    if (!parseHostToken(body.substr(0, hostEnd), hostOffset, header.host, header.pid) || hostOffset != 0)
        return false;
    const std::size_t devEnd = body.find("] ", hostEnd + 2);
    if (devEnd == std::string_view::npos)
        return false;
    const std::string_view digits = body.substr(hostEnd + 2, devEnd - hostEnd - 2);
    if (digits.empty() || digits.size() > 3 || !allDigits(digits))
        return false;
    header.device = toInt32(digits);
    std::size_t at = devEnd + 2;
    auto levelWord = [&](std::string_view word, Level level) {
        if (!body.substr(at).starts_with(word) || (at + word.size() < body.size() && body[at + word.size()] != ' '))
            return false;
        header.level = level;
        header.msg = trimMessageEnd(body.substr(std::min(body.size(), at + word.size() + 1)));
        return true;
    };
    if (levelWord("INFO", Level::Info))
        return true;
    const std::size_t fileEnd = body.find(' ', at);
    if (fileEnd == std::string_view::npos || !isFileLine(body.substr(at, fileEnd - at)))
        return false;
    header.file = body.substr(at, body.find(':', at) - at);
    at = fileEnd + 1;
    return levelWord("WARN", Level::Warn) || levelWord("INFO", Level::Info);
}

bool NcclParser::headerBefore(std::string_view body, std::size_t ncclPos, Header& header)
{
    // A paste may lose the host:pid:tid (XLA's and some launchers' builds print only
    // "[10] NCCL INFO …", others cut it off: "include/shm.h:28 NCCL WARN …", "NCCL WARN …"):
    // the optional fields reaching back to the line's start make a header without a process.
    if (ncclPos == 0) {
        header.start = 0;
        return true;
    }
    if (ncclPos < 2 || body[ncclPos - 1] != ' ')
        return false;
    // Going backwards the optional fields must appear in reverse order of the format:
    // (func) < file:line < trace ms < [dev] < host:pid:tid.
    int stage = 5;
    std::size_t end = ncclPos - 1;
    for (int k = 0; k < 5; ++k) {
        std::size_t start = end;
        while (start > 0 && body[start - 1] != ' ')
            --start;
        const std::string_view token = body.substr(start, end - start);
        if (token.empty())
            return false;
        std::size_t hostOffset = 0;
        if (parseHostToken(token, hostOffset, header.host, header.pid)) {
            header.start = start + hostOffset;
            return true;
        }
        if (token.front() == '(' && token.back() == ')' && stage > 4) {
            stage = 4;
        } else if (stage > 3 && isFileLine(token)) {
            header.file = token.substr(0, token.rfind(':'));
            stage = 3;
        } else if (stage > 2 && isDigit(token.front())
            && parseTraceMs(token, header.traceNs, header.tracePrecision)) {
            stage = 2;
        } else if (stage > 1 && token.size() >= 3 && token.front() == '[' && token.back() == ']') {
            // [dev] may be garbage ([909195890]) once the CUDA context is gone: kept only when
            // it is a plausible device index, never a reason to reject the header.
            const std::string_view digits = token.substr(1, token.size() - 2);
            if (digits.size() <= 3 && allDigits(digits))
                header.device = toInt32(digits);
            stage = 1;
        } else {
            return false;
        }
        if (start == 0) {
            header.start = 0;
            return true;
        }
        end = start - 1;
    }
    return false;
}

bool NcclParser::findHeader(std::string_view body, std::size_t pos, Header& header,
    std::size_t& firstStart)
{
    bool found = false;
    while (pos != std::string_view::npos) {
        std::uint8_t level = 0;
        std::size_t msgStart = 0;
        Header candidate;
        if (levelAt(body, pos, level, msgStart) && headerBefore(body, pos, candidate)) {
            candidate.level = static_cast<Level>(level);
            candidate.msg = trimMessageEnd(body.substr(msgStart));
            if (!found)
                firstStart = candidate.start;
            header = candidate;
            found = true;
            pos = msgStart;
        } else {
            pos += kNcclWord.size();
        }
        pos = findNcclWord(body, pos);
    }
    return found;
}

bool NcclParser::parseBanner(const LineContext& ctx, std::string_view body,
    model::ParsedSource& out)
{
    // Bare "NCCL version 2.21.5+cuda12.4": nothing else on the line, or PyTorch's
    // "NCCL error: …, NCCL version 2.21.5" would be swallowed here.
    const std::string_view line = trim(body);
    constexpr std::string_view kBanner = "NCCL version ";
    if (!line.starts_with(kBanner))
        return false;
    const std::string_view version = line.substr(kBanner.size());
    if (version.empty() || !isDigit(version.front()) || version.find(' ') != std::string_view::npos)
        return false;
    model::Event& e = addEvent(out, ctx, EventKind::NcclVersion, Severity::Info, line);
    e.detail = out.intern(version);
    return true;
}

// ---------------------------------------------------------------------------------------
// Entry

// body starts with m_headerCache.text (startsWithCachedHeader).
void NcclParser::headerFromCache(std::string_view body, Header& header) const
{
    const std::string& text = m_headerCache.text;
    // The caller still checks the message for a second header (a torn line).
    header.start = 0;
    header.host = body.substr(0, m_headerCache.hostSize);
    header.pid = m_headerCache.pid;
    header.device = m_headerCache.device;
    header.level = m_headerCache.level;
    header.msg = trimMessageEnd(body.substr(text.size()));
}

void NcclParser::rememberHeader(std::string_view body, const Header& header, std::size_t firstStart)
{
    // Only a header that is the whole line start, with no per-line fields (file:line, trace
    // time), can be matched byte for byte on the next line.
    if (firstStart != 0 || header.start != 0 || !header.file.empty() || header.traceNs >= 0
        || header.host.data() != body.data())
        return;
    const std::size_t msgStart = static_cast<std::size_t>(header.msg.data() - body.data());
    if (msgStart == 0 || msgStart > body.size() || body[msgStart - 1] != ' ')
        return;
    m_headerCache.text.assign(body.substr(0, msgStart));
    m_headerCache.fingerprintFree = !model::SecretMasker::mightContainSecret(m_headerCache.text);
    m_headerCache.identityFor = kNoIdentity;
    m_headerCache.hostSize = header.host.size();
    m_headerCache.pid = header.pid;
    m_headerCache.device = header.device;
    m_headerCache.level = header.level;
}

// body starts with the cached header, `header` is read from it. COLL lines are most of a big
// bundle: read first, so the search for a second header (a torn line, where the last header
// wins and the full search is needed) only covers what the COLL walk did not see.
NcclParser::CachedColl NcclParser::cachedColl(
    const LineContext& ctx, std::string_view body, const Header& header, model::ParsedSource& out)
{
    const std::size_t msgStart = static_cast<std::size_t>(header.msg.data() - body.data());
    CollLine coll;
    const bool isColl = (header.level == Level::Info || header.level == Level::Trace)
        && !header.msg.empty() && isUpper(header.msg.front())
        && readColl(header.msg, coll, &m_collMemo);
    const std::size_t clean = isColl ? coll.fields.cleanEnd : 0;
    if (findNcclWord(body, msgStart + clean) != std::string_view::npos)
        return CachedColl::Torn;
    if (!isColl)
        return CachedColl::NotColl;
    m_lastMessage = header.msg;
    // Same header bytes and same prefix identity as the line that set the cache's
    // identity: the same process.
    if (m_headerCache.identityFor != ctx.identity) {
        m_headerCache.identity = processIdentity(out, ctx, header.host, header.pid);
        m_headerCache.identityFor = ctx.identity;
    }
    const Line line { ctx, body, header, m_headerCache.identity };
    m_lineIsChain = false;
    const bool kept = recordColl(line, coll, out);
    const bool memoIsLine = rememberColl(header.msg, coll);
    finishLine(line);
    // A later line starting with this line's launcher prefix and header, then its head and
    // tail, may take recordRepeatedColl, into the trace this call went to (m_lastColl's).
    if (kept && memoIsLine)
        armLane(ctx, body, line.identity);
    return CachedColl::Recorded;
}

namespace {

// The lane table's key: the first kLaneKeyBytes of a line. They hold the launcher label
// ("[default3]:", "0123: ") or the NCCL header's host and pid, which tell the processes of
// one file apart; a collision costs only a line on the full path.
constexpr std::size_t kLaneKeyBytes = 16;
constexpr std::size_t kMinLanes = 16;
constexpr std::size_t kMaxLanes = 8192;

std::uint64_t laneKey(const char* p)
{
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + 8, 8);
    const std::uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
    return h ^ (h >> 29);
}

} // namespace

void NcclParser::armLane(const LineContext& ctx, std::string_view body, std::uint32_t identity)
{
    // Only the first segment of a physical line: a piece after a '\r' inherits its line's
    // label, which a whole line starting with the same bytes would not.
    if (!ctx.lineStart || ctx.line.empty() || body.data() < ctx.line.data()
        || body.data() + body.size() > ctx.line.data() + ctx.line.size())
        return;
    const std::size_t prefixSize = static_cast<std::size_t>(body.data() - ctx.line.data());
    const std::string_view lineStart = ctx.line.substr(0, prefixSize + m_headerCache.text.size());
    if (lineStart.size() < kLaneKeyBytes)
        return;
    if (m_lanes.empty())
        m_lanes.resize(kMinLanes);
    const std::uint64_t key = laneKey(lineStart.data());
    CollLane* lane = &m_lanes[key & (m_lanes.size() - 1)];
    if (!sameText(lane->lineStart, lineStart)) {
        // Another process held the slot: a file interleaving more processes than the table
        // has slots (an srun console of a whole job) grows it.
        if (lane->ready && ++m_laneEvictions > m_lanes.size() && m_lanes.size() < kMaxLanes) {
            std::vector<CollLane> old(m_lanes.size() * 4);
            old.swap(m_lanes);
            for (CollLane& l : old)
                if (l.ready)
                    m_lanes[laneKey(l.lineStart.data()) & (m_lanes.size() - 1)] = std::move(l);
            m_laneEvictions = 0;
            lane = &m_lanes[key & (m_lanes.size() - 1)];
        }
        lane->lineStart.assign(lineStart);
        lane->fingerprintFree = !model::SecretMasker::mightContainSecret(lane->lineStart);
    }
    lane->prefixSize = prefixSize;
    lane->memo = m_collMemo;
    lane->trace = m_lastColl.index;
    lane->prefixIdentity = ctx.identity;
    lane->processIdentity = identity;
    lane->ready = true;
}

std::optional<NcclParser::LaneHit> NcclParser::findRepeatedCollLane(std::string_view line) const
{
    if (m_lanes.empty() || line.size() < kLaneKeyBytes)
        return std::nullopt;
    const std::size_t slot = laneKey(line.data()) & (m_lanes.size() - 1);
    const CollLane& lane = m_lanes[slot];
    if (!lane.ready || line.size() <= lane.lineStart.size()
        || !bytesEqual(line.data(), lane.lineStart.data(), lane.lineStart.size()))
        return std::nullopt;
    return LaneHit { static_cast<std::uint32_t>(slot), lane.prefixSize, lane.prefixIdentity };
}

bool NcclParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out, bool headerCached)
{
    m_lastMessage = {};
    m_lastSeveralHeaders = false;
    Header header;
    std::size_t firstStart = 0;
    bool cached = headerCached;
    if (cached) {
        headerFromCache(body, header);
        switch (cachedColl(ctx, body, header, out)) {
        case CachedColl::Recorded:
            return true;
        case CachedColl::Torn:
            cached = false;
            break;
        case CachedColl::NotColl:
            break;
        }
    }
    if (!cached) {
        // The one memmem every non-NCCL line pays.
        const std::size_t ncclPos = findLiteral(body, kNcclWord);
        if (ncclPos == std::string_view::npos) {
            if (!headerWithoutNcclWord(body, header))
                return false;
        } else if (!findHeader(body, ncclPos, header, firstStart)) {
            return parseBanner(ctx, body, out);
        }
        rememberHeader(body, header, firstStart);
        m_lastSeveralHeaders = header.start != firstStart;
        // A clean line whose header was just remembered (a file interleaving processes
        // changes the header on most lines) reads its COLL message as a cached one would,
        // so its process's lane is armed (armLane) for the next line with the same start.
        if (firstStart == 0 && header.start == 0 && startsWithCachedHeader(body)) {
            Header fromCache;
            headerFromCache(body, fromCache);
            if (cachedColl(ctx, body, fromCache, out) == CachedColl::Recorded)
                return true;
        }
    }
    m_lastMessage = header.msg;

    // Only a 2.26+ "[2025-03-01 12:00:05]" timestamp may precede the header of a clean line.
    const std::string_view before = trim(body.substr(0, firstStart));
    const bool cleanLine = before.empty()
        || (before.size() > 2 && before.front() == '[' && before.back() == ']' && isDigit(before[1]));
    // The launcher label of a torn line belongs to the writer of its first part (a progress
    // bar, another process's line); a header after such text is another process's output
    // that only its own host:pid names.
    const bool useLabel = cleanLine && header.start == firstStart;
    const Line line { ctx, body, header,
        useLabel ? processIdentity(out, ctx, header.host, header.pid)
                 : bareProcessIdentity(out, ctx, header.host, header.pid) };
    m_lineIsChain = false;
    switch (header.level) {
    case Level::Info:
    case Level::Trace:
        dispatchInfo(line, out);
        break;
    case Level::Warn:
        dispatchWarn(line, out);
        break;
    case Level::Call:
        break;
    }
    finishLine(line);

    // Text glued in front of the first header (a tqdm bar, a PyTorch line torn by this one)
    // may be another dialect's: let the other parsers look at the line too.
    return cleanLine;
}

// A call into its trace (at collTraces index `index`): the first one kept as such, the last
// kTailSize in a ring (finish() puts them in order).
[[gnu::always_inline]] inline void NcclParser::keepCall(
    model::CollTrace& trace, std::size_t index, const model::CollCall& call, std::int32_t nranks)
{
    if (nranks >= 0)
        trace.nranks = nranks;
    if (trace.calls++ == 0)
        trace.first = call;
    if (trace.tail.size() < model::CollTrace::kTailSize) {
        trace.tail.push_back(call);
    } else {
        std::uint32_t& next = m_collNext[index];
        trace.tail[next] = call;
        next = (next + 1) % static_cast<std::uint32_t>(model::CollTrace::kTailSize);
    }
}

// The line unmasked is the cached header, then the memo's head ("AllReduce: opCount "), the
// middle (opCount, buffers, count) and the memo's tail (" datatype …" to the end). The
// header and memo pieces carry the masker prefilter's verdict taken when they were stored.
// The middle is clean by the masker's promise 2 (secretmasker.h): its opCount is lowercase
// hex of at most 16 digits, its pointers plain (CollCursor::pointer, at most 15 bytes) and
// its count at most 19 decimal digits, each shorter than SecretMasker::kLongTokenRun, and
// NCCL's layout words are clean. The pieces join cleanly by promise 1: each boundary is a
// space next to a letter or digit, and the spaces trimmed after the tail pair with nothing.
// tests/model/test_secretmasker.cpp checks both promises against the prefilter itself.
bool NcclParser::recordRepeatedColl(const LaneHit& hit, std::string_view line,
    const model::EvidenceRef& evidence, model::ParsedSource& out)
{
    const CollLane& lane = m_lanes[hit.slot];
    const CollMemo& memo = lane.memo;
    if (!lane.ready || !lane.fingerprintFree || !memo.headFingerprintFree
        || !memo.tailFingerprintFree)
        return false;
    // The full path would end an error chain of this process (finishLine): take only a line
    // for which that changes nothing.
    if (lane.processIdentity < m_processes.size() && m_processes[lane.processIdentity].inChain)
        return false;
    const std::string& start = lane.lineStart;
    const std::string& head = memo.head;
    if (line.size() <= start.size() + head.size()
        || !bytesEqual(line.data(), start.data(), start.size())
        || !bytesEqual(line.data() + start.size(), head.data(), head.size()))
        return false;
    const std::string_view msg = trimMessageEnd(line.substr(start.size()));
    std::size_t i = head.size();
    const auto opCount = readHex(msg, i);
    for (std::size_t k = head.size(); k < i; ++k)
        if (isUpper(msg[k]))
            return false; // "BE" is a pair; NCCL prints the opCount in lowercase
    CollFields f;
    // The fields in NCCL's layout with the tail from the memo: the walk saw every byte to
    // the end and refused any 'N', so no torn line's second header hides in the line.
    if (!opCount || !collFieldsInNcclLayout(msg, i, f, &memo) || !f.tailFromMemo || !f.count
        || !f.plainPointers)
        return false;
    model::CollCall call;
    call.op = memo.op;
    call.datatype = f.datatype;
    call.root = f.root;
    call.evidence = evidence;
    call.opCount = *opCount;
    call.count = *f.count;
    keepCall(out.collTraces[lane.trace], lane.trace, call, f.nranks);
    m_lastMessage = msg;
    m_lastSeveralHeaders = false;
    return true;
}

void NcclParser::finishLine(const Line& line)
{
    if (!m_lineIsChain)
        process(line.identity).inChain = false;
}

void NcclParser::finish(model::ParsedSource& out)
{
    for (CollLane& lane : m_lanes)
        lane.ready = false;
    // Tails are rings while scanning; hand them out oldest first.
    for (std::size_t i = 0; i < out.collTraces.size() && i < m_collNext.size(); ++i) {
        auto& tail = out.collTraces[i].tail;
        if (tail.size() == model::CollTrace::kTailSize && m_collNext[i] != 0)
            std::rotate(tail.begin(), tail.begin() + m_collNext[i], tail.end());
        m_collNext[i] = 0;
    }
}

std::uint32_t NcclParser::processIdentity(model::ParsedSource& out, const LineContext& ctx,
    std::string_view host, std::int32_t pid)
{
    IdentitySlot& slot = m_identityCache[(static_cast<std::uint32_t>(pid) ^ ctx.identity) & 15u];
    if (slot.used && slot.pid == pid && slot.ctxIdentity == ctx.identity
        && sameText(slot.host, host))
        return slot.identity;
    slot.used = true;
    slot.pid = pid;
    slot.ctxIdentity = ctx.identity;
    slot.host.assign(host);
    slot.identity = identityWithProcess(out, ctx, host, pid);
    return slot.identity;
}

std::uint32_t NcclParser::bareProcessIdentity(model::ParsedSource& out, const LineContext& ctx,
    std::string_view host, std::int32_t pid)
{
    model::RawIdentity id;
    id.source = ctx.source;
    id.host = out.intern(host);
    id.pid = pid;
    return out.identityIndex(id);
}

model::Event& NcclParser::emit(const Line& line, model::ParsedSource& out, EventKind kind,
    Severity severity, std::string_view text)
{
    model::Event& e = addEvent(out, line.ctx, kind, severity, text);
    e.identity = line.identity;
    if (line.header.level == Level::Trace && line.header.traceNs >= 0) {
        e.time = {};
        e.time.ns = line.header.traceNs;
        e.time.domain = model::TimeDomain::ProcessRelative;
        e.time.precision = line.header.tracePrecision;
    } else if (line.header.start > 0) {
        // A second header of a torn line may carry its own 2.26+ timestamp.
        const model::TimePoint t = timeBefore(line.body, line.header.start);
        if (t.valid())
            e.time = t;
    }
    return e;
}

// ---------------------------------------------------------------------------------------
// INFO / TRACE

void NcclParser::dispatchInfo(const Line& line, model::ParsedSource& out)
{
    const std::string_view msg = line.header.msg;
    if (msg.empty())
        return;
    switch (msg.front()) {
    case 'C':
        if (msg.starts_with("Channel ")) {
            parseChannel(line, msg, out);
            return;
        }
        break;
    case 'R':
        if (msg.starts_with("Ring ")) {
            parseRing(line, msg, out);
            return;
        }
        break;
    case 'T':
        if (msg.starts_with("Trees ")) {
            parseTrees(line, msg, out);
            return;
        }
        break;
    case 'c':
    case 'n':
    case '[':
        if (parseCommLine(line, msg, out))
            return;
        break;
    default:
        break;
    }
    if (isUpper(msg.front()) && parseColl(line, msg, out))
        return;
    if (parseBootstrapOrNet(line, msg, out))
        return;
    // The steps of joining the node's NVLink SHARP multicast group (transport/nvls.cc, NCCL
    // 2.17–2.21 words them so): binding memory to it blocks until every rank has joined, so a
    // process whose output ends on one of them stopped there.
    if (msg.starts_with("NVLS ")) {
        for (std::string_view step : { "NVLS Bind mem ", "NVLS Creating Multicast group ", "NVLS importing shareableHandle ",
                 "NVLS group " }) {
            if (msg.starts_with(step)) {
                emit(line, out, EventKind::NcclNvlsSetup, Severity::Info, msg);
                return;
            }
        }
    }
    constexpr std::string_view kVersion = "NCCL version ";
    if (msg.starts_with(kVersion)) {
        const std::string_view version = tokenAt(msg, kVersion.size());
        model::Event& e = emit(line, out, EventKind::NcclVersion, Severity::Info, msg);
        e.detail = out.intern(version);
        return;
    }
    constexpr std::string_view kLocalRankClosed =
        "[Service thread] Connection closed by localRank ";
    if (msg.starts_with(kLocalRankClosed)) {
        std::size_t i = kLocalRankClosed.size();
        const auto rank = readInt32(msg, i);
        model::Event& e = emit(line, out, EventKind::NcclLocalRankClosed, Severity::Warning, msg);
        e.peerRank = rank.value_or(-1);
        return;
    }
    if (parseFileLineMessage(line, msg, out))
        return;
    parseEnv(line, msg, out);
}

namespace {

// 1 to 7 decimal digits at p followed by a non-digit, read 8 bytes at a time (SWAR): the
// count and nranks of most COLL lines. False when 8 bytes cannot be read or the digits run
// on (the caller's loop takes those).
[[gnu::always_inline]] inline bool shortNumber(
    const char* p, const char* end, std::uint64_t& value, unsigned& n)
{
    if (end - p < 8)
        return false;
    std::uint64_t x = 0;
    std::memcpy(&x, p, 8); // p[0] in the low byte
    // A digit byte has high nibble 3, and still has it after adding 6. A carry or borrow
    // only moves toward later bytes, past the first non-digit, which ends the number.
    constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull;
    constexpr std::uint64_t kThrees = 0x3030303030303030ull;
    const std::uint64_t nonDigit
        = ((x & kHigh) ^ kThrees) | (((x + 0x0606060606060606ull) & kHigh) ^ kThrees);
    if (nonDigit == 0)
        return false; // 8 or more digits
    n = static_cast<unsigned>(__builtin_ctzll(nonDigit)) / 8;
    if (n == 0)
        return false;
    // The n digit values as the last n of 8 digits (leading zeros first), then 8 digits to
    // a number in three multiply steps.
    std::uint64_t d = (x - kThrees) & ((std::uint64_t { 1 } << (8 * n)) - 1);
    d <<= 8 * (8 - n);
    d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FFull;
    d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFFull;
    value = (d * 10000 + (d >> 32)) & 0xFFFFFFFFull;
    return true;
}

// A cursor over one COLL line for collFieldsInNcclLayout (its steps always inlined, so the
// position stays in a register): every step either consumes what it expects and returns
// true, or returns false and the caller falls back to the key walk (which also handles the
// rare values these fast steps refuse, such as 20-digit counts).
struct CollCursor {
    const char* p;
    const char* end;

    template <std::size_t N> [[gnu::always_inline]] bool literal(const char (&word)[N])
    {
        static_assert(N - 1 <= 16, "bytesEqualShort compares at most 16 bytes");
        if (static_cast<std::size_t>(end - p) < N - 1 || !bytesEqualShort(p, word, N - 1))
            return false;
        p += N - 1;
        return true;
    }

    // A pointer such as 0x7f3a5c000000 (or "(nil)"): up to the next space. A token holding
    // an 'N' is refused (the key walk takes over) so that the layout walk can vouch that no
    // torn line's second "NCCL " header starts inside what it read. `plain`: the token is
    // glibc's %p, "0x" and lowercase hex digits not starting with 'a', or "(nil)": bytes
    // that hold no pair of the secret masker's prefilter (see recordRepeatedColl). Both are
    // told by one 16-byte load for pointers that fit in it, as 64-bit ones do.
    [[gnu::always_inline]] bool pointer(std::string_view& t, bool& plain)
    {
#if defined(__SSE2__)
        if (end - p >= 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            const auto spaces
                = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))));
            const auto stops = spaces
                | static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('N'))));
            if (stops != 0) {
                const auto n = static_cast<unsigned>(__builtin_ctz(stops));
                // b - lo <= span, unsigned: min(b - lo, span) == b - lo.
                auto inRange = [&v](char lo, char span) {
                    const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
                    return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
                };
                const auto hex = static_cast<unsigned>(
                    _mm_movemask_epi8(_mm_or_si128(inRange('0', 9), inRange('a', 5))));
                const unsigned digits = ((1u << n) - 1) & ~3u; // the token after "0x"
                plain = (n >= 3 && p[0] == '0' && p[1] == 'x' && p[2] != 'a'
                            && (hex & digits) == digits)
                    || (n == 5 && bytesEqualShort(p, "(nil)", 5));
                t = { p, n };
                p += n;
                return (spaces >> n) & 1u;
            }
        }
#endif
        plain = false;
        return token(t);
    }

    [[gnu::always_inline]] bool token(std::string_view& t)
    {
        const char* from = p;
        p = findEitherByte(p, end, ' ', 'N');
        t = { from, static_cast<std::size_t>(p - from) };
        return p == end || *p == ' ';
    }

    // Up to 19 decimal digits (always fits in 64 bits), ended by a space or the line's end.
    [[gnu::always_inline]] bool count(std::uint64_t& v)
    {
        const char* from = p;
        std::uint64_t x = 0;
        unsigned n = 0;
        if (shortNumber(p, end, x, n)) {
            p += n;
        } else {
            const char* stop = end - p > 19 ? p + 19 : end;
            while (p < stop && isDigit(*p))
                x = x * 10 + static_cast<unsigned>(*p++ - '0');
        }
        if (p == from || (p < end && *p != ' '))
            return false;
        v = x;
        return true;
    }

    // An int32 with an optional '-', ended by a space, ']' or the line's end.
    [[gnu::always_inline]] bool int32(std::int32_t& v)
    {
        if (end - p >= 2 && isDigit(p[0]) && p[1] == ' ') {
            v = p[0] - '0'; // datatype, op and root are one digit
            ++p;
            return true;
        }
        const bool negative = p < end && *p == '-';
        const char* from = p + (negative ? 1 : 0);
        const char* q = from;
        std::int64_t x = 0;
        std::uint64_t digits = 0;
        unsigned n = 0;
        if (shortNumber(q, end, digits, n)) {
            x = static_cast<std::int64_t>(digits);
            q += n;
        } else {
            const char* stop = end - from > 10 ? from + 10 : end;
            while (q < stop && isDigit(*q))
                x = x * 10 + (*q++ - '0');
        }
        if (q == from || (q < end && *q != ' ' && *q != ']'))
            return false;
        x = negative ? -x : x;
        if (x < std::numeric_limits<std::int32_t>::min()
            || x > std::numeric_limits<std::int32_t>::max())
            return false;
        v = static_cast<std::int32_t>(x);
        p = q;
        return true;
    }
};

} // namespace

// "AllReduce: opCount 28c sendbuff 0x… recvbuff 0x… count 9984512 datatype 7 op 0 root 0
//  comm 0x55bef0201370 [nranks=4] stream 0x…" (%zi ≤2.23, %zu 2.24+; RCCL appends fields).
bool NcclParser::collFieldsInNcclLayout(
    std::string_view msg, std::size_t i, CollFields& f, const CollMemo* memo)
{
    // "… sendbuff %p recvbuff %p count %zu datatype %d op %d root %d comm %p [nranks=%d]
    // stream %p" (enqueue.cc); RCCL and later versions append fields, which are ignored.
    // The hottest line of a big bundle: walked once, left to right, with no calls.
    CollCursor c { msg.data() + i, msg.data() + msg.size() };
    std::uint64_t count = 0;
    std::int32_t op = 0;
    std::string_view buffer;
    bool sendPlain = false;
    bool recvPlain = false;
    if (!c.literal(" sendbuff ") || !c.pointer(buffer, sendPlain) || !c.literal(" recvbuff ")
        || !c.pointer(buffer, recvPlain))
        return false;
    f.plainPointers = sendPlain && recvPlain;
    if (!c.literal(" count ") || !c.count(count))
        return false;
    f.tailStart = static_cast<std::size_t>(c.p - msg.data());
    const std::size_t tailSize = static_cast<std::size_t>(c.end - c.p);
    if (memo && tailSize == memo->tail.size() && tailSize != 0
        && bytesEqual(c.p, memo->tail.data(), tailSize)) {
        f.datatype = memo->datatype;
        f.root = memo->root;
        f.nranks = memo->nranks;
        f.comm = { c.p + memo->commAt, memo->commSize };
        f.count = count;
        f.cleanEnd = msg.size();
        f.tailFromMemo = true;
        return true;
    }
    if (!c.literal(" datatype ") || !c.int32(f.datatype) || !c.literal(" op ") || !c.int32(op)
        || !c.literal(" root ") || !c.int32(f.root) || !c.literal(" comm ") || !c.token(f.comm))
        return false;
    if (!c.literal(" [nranks=") || !c.int32(f.nranks) || !c.literal("]"))
        return false;
    f.count = count;
    f.cleanEnd = static_cast<std::size_t>(c.p - msg.data());
    return true;
}

void NcclParser::collFieldsByKey(std::string_view msg, std::size_t i, CollFields& f)
{
    // Any other layout: walk "key value" pairs in whatever order they come.
    while (i < msg.size() && msg[i] == ' ') {
        ++i;
        const std::string_view key = tokenAt(msg, i);
        i += key.size();
        if (key.starts_with("[nranks=")) {
            std::size_t j = 8;
            f.nranks = readInt32(key, j).value_or(-1);
            continue;
        }
        if (i >= msg.size() || msg[i] != ' ')
            break;
        ++i;
        const std::string_view value = tokenAt(msg, i);
        i += value.size();
        if (key.size() < 4)
            continue; // "op"
        std::size_t j = 0;
        switch (key[0]) {
        case 'c':
            if (key == "count")
                f.count = readUnsigned(value, j);
            else if (key == "comm")
                f.comm = value;
            break;
        case 'd':
            if (key == "datatype")
                f.datatype = readInt32(value, j).value_or(-1);
            break;
        case 'r':
            if (key == "root")
                f.root = readInt32(value, j).value_or(-1);
            break;
        default:
            break;
        }
    }
}

// The op name, opCount and fields of a COLL line (the layout is shown at parseColl).
bool NcclParser::readColl(std::string_view msg, CollLine& coll, const CollMemo* memo)
{
    std::size_t i = 0;
    if (memo && !memo->head.empty() && msg.size() > memo->head.size()
        && bytesEqual(msg.data(), memo->head.data(), memo->head.size())) {
        coll.call.op = memo->op;
        i = memo->head.size();
        coll.headFromMemo = true;
    } else {
        const std::size_t nameLimit = std::min<std::size_t>(msg.size(), 32);
        while (i < nameLimit && isAlnum(msg[i]))
            ++i;
        constexpr std::string_view kOpCount = ": opCount ";
        if (i == 0 || msg.size() - i < kOpCount.size()
            || !bytesEqualShort(msg.data() + i, kOpCount.data(), kOpCount.size()))
            return false;
        coll.call.op = model::opTypeFromNcclName(msg.substr(0, i));
        i += kOpCount.size();
    }
    coll.headSize = i;
    coll.opCount = readHex(msg, i);

    // This is the hottest line type of a big bundle: NCCL's own layout is matched word by
    // word, anything else is walked key by key.
    if (!collFieldsInNcclLayout(msg, i, coll.fields, memo)) {
        coll.fields = {};
        collFieldsByKey(msg, i, coll.fields);
    } else if (coll.call.op == model::OpType::Unknown) {
        coll.fields.cleanEnd = 0; // NCCL's own op names hold no 'N'; another name may
    }
    coll.call.datatype = coll.fields.datatype;
    coll.call.root = coll.fields.root;
    return true;
}

// True when the memo then holds this line's head and tail (kept now or taken from it).
bool NcclParser::rememberColl(std::string_view msg, const CollLine& coll)
{
    bool headIsLine = coll.headFromMemo;
    if (!coll.headFromMemo && coll.call.op != model::OpType::Unknown) {
        m_collMemo.head.assign(msg.substr(0, coll.headSize));
        m_collMemo.op = coll.call.op;
        m_collMemo.headFingerprintFree = !model::SecretMasker::mightContainSecret(m_collMemo.head);
        headIsLine = true;
    }
    const CollFields& f = coll.fields;
    if (f.tailFromMemo)
        return headIsLine;
    if (f.cleanEnd == 0 || f.tailStart == 0 || f.tailStart >= msg.size())
        return false;
    const std::string_view tail = msg.substr(f.tailStart);
    m_collMemo.tail.assign(tail);
    m_collMemo.datatype = f.datatype;
    m_collMemo.root = f.root;
    m_collMemo.nranks = f.nranks;
    m_collMemo.commAt = static_cast<std::size_t>(f.comm.data() - tail.data());
    m_collMemo.commSize = f.comm.size();
    m_collMemo.tailFingerprintFree = !model::SecretMasker::mightContainSecret(tail);
    return headIsLine;
}

// False when the line was too incomplete to keep (an import issue says so).
bool NcclParser::recordColl(const Line& line, const CollLine& coll, model::ParsedSource& out)
{
    const CollFields& fields = coll.fields;
    if (!coll.opCount || !fields.count || fields.comm.size() < 3) {
        // Torn or cut at 1024 bytes: the call cannot be placed in a communicator.
        out.issues.add("nccl_incomplete_coll_line", out.sampleAt(line.ctx.lineNo, line.ctx.line));
        return false;
    }
    model::CollCall call = coll.call;
    call.evidence = line.ctx.evidence();
    call.opCount = *coll.opCount;
    call.count = *fields.count;

    std::size_t index = 0;
    model::CollTrace& trace = collTraceFor(line, fields.comm, out, index); // sets index
    keepCall(trace, index, call, fields.nranks);
    return true;
}

// "AllReduce: opCount 28c sendbuff 0x… recvbuff 0x… count 9984512 datatype 7 op 0 root 0
//  comm 0x55bef0201370 [nranks=4] stream 0x…" (%zi ≤2.23, %zu 2.24+; RCCL appends fields).
bool NcclParser::parseColl(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    CollLine coll;
    if (!readColl(msg, coll))
        return false;
    recordColl(line, coll, out);
    return true;
}

model::CollTrace& NcclParser::collTraceFor(const Line& line, std::string_view comm,
    model::ParsedSource& out, std::size_t& index)
{
    if (line.identity == m_lastColl.identity && m_lastColl.index < out.collTraces.size()
        && sameText(m_lastColl.comm, comm)) {
        index = m_lastColl.index;
        return out.collTraces[index];
    }
    ProcessState& ps = process(line.identity);
    if (ps.lastCollTrace < out.collTraces.size() && sameText(ps.lastCollComm, comm)) {
        index = ps.lastCollTrace;
    } else {
        const StrId commId = out.intern(comm);
        const std::uint64_t key = (static_cast<std::uint64_t>(line.identity) << 32) | commId;
        auto [it, inserted]
            = m_collIndex.try_emplace(key, static_cast<std::uint32_t>(out.collTraces.size()));
        if (inserted) {
            model::CollTrace& trace = out.collTraces.emplace_back();
            const model::RawIdentity& id = out.identities[line.identity];
            trace.identity = line.identity;
            trace.host = id.host;
            trace.pid = id.pid;
            trace.device = line.header.device;
            trace.commPtr = commId;
            trace.tail.reserve(model::CollTrace::kTailSize);
        }
        index = it->second;
        if (m_collNext.size() < out.collTraces.size())
            m_collNext.resize(out.collTraces.size(), 0);
        ps.lastCollTrace = index;
        ps.lastCollComm.assign(comm);
    }
    m_lastColl.identity = line.identity;
    m_lastColl.index = static_cast<std::uint32_t>(index);
    m_lastColl.comm.assign(comm);
    return out.collTraces[index];
}

void NcclParser::addLink(const Line& line, model::ParsedSource& out, LinkKind kind,
    std::int32_t channel, std::int32_t from, std::int32_t to, StrId transport)
{
    const StrId comm = process(line.identity).comm;
    const std::uint64_t key = (static_cast<std::uint64_t>(line.identity) << 32) | comm;
    std::uint32_t& count = m_linkCount[key];
    if (count >= kMaxLinksPerComm) {
        ++m_droppedLinks;
        return;
    }
    ++count;
    model::CommLink& link = out.commLinks.emplace_back();
    const model::RawIdentity& id = out.identities[line.identity];
    link.identity = line.identity;
    link.evidence = line.ctx.evidence();
    link.host = id.host;
    link.pid = id.pid;
    link.commPtr = comm;
    link.kind = kind;
    link.channel = channel;
    link.fromRank = from;
    link.toRank = to;
    link.transport = transport;
}

// "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA", "Channel 00 : 2[1] -> 0[0] via
// SHM/direct/direct", or the ring listing "Channel 00/02 :    0   1   2   3" (rank 0 only).
void NcclParser::parseChannel(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    std::size_t i = 8;
    const auto channel = readInt32(msg, i);
    if (!channel)
        return;
    if (i < msg.size() && msg[i] == '/') {
        ++i;
        if (!readUnsigned(msg, i))
            return;
    }
    if (!consume(msg, i, " :"))
        return;
    const std::string_view rest = msg.substr(i);
    if (findLiteral(rest, "->") != std::string_view::npos) {
        parseConnection(line, rest, *channel, out);
        return;
    }
    // Ring listing: at most 20 ranks are printed; only wrap around when the list is whole.
    std::array<std::int32_t, 256> ranks {};
    std::size_t n = 0;
    std::size_t j = 0;
    while (n < ranks.size()) {
        skipSpaces(rest, j);
        if (j >= rest.size())
            break;
        const auto r = readInt32(rest, j);
        if (!r || (j < rest.size() && rest[j] != ' '))
            return; // not a listing
        ranks[n++] = *r;
    }
    if (n < 2)
        return;
    for (std::size_t k = 0; k + 1 < n; ++k)
        addLink(line, out, LinkKind::RingNeighbour, *channel, ranks[k], ranks[k + 1],
            model::kNoStr);
    const std::int32_t commRanks = process(line.identity).commRanks;
    if (commRanks < 0 || static_cast<std::size_t>(commRanks) == n)
        addLink(line, out, LinkKind::RingNeighbour, *channel, ranks[n - 1], ranks[0],
            model::kNoStr);
}

// " 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA" (also ≤2.6 "Ring 00 : 0 -> 1 [send] via …").
void NcclParser::parseConnection(const Line& line, std::string_view rest, std::int32_t channel,
    model::ParsedSource& out)
{
    std::size_t i = 0;
    skipSpaces(rest, i);
    const auto from = readInt32(rest, i);
    if (!from)
        return;
    if (i < rest.size() && rest[i] == '[') {
        const std::size_t close = rest.find(']', i);
        if (close == std::string_view::npos)
            return;
        i = close + 1;
    }
    if (!consume(rest, i, " -> "))
        return;
    const auto to = readInt32(rest, i);
    if (!to)
        return;
    if (i < rest.size() && rest[i] == '[') {
        const std::size_t close = rest.find(']', i);
        if (close == std::string_view::npos)
            return;
        i = close + 1;
    }
    skipSpaces(rest, i);
    LinkKind kind = LinkKind::ChannelSend;
    if (consume(rest, i, "[receive]"))
        kind = LinkKind::ChannelReceive;
    else
        consume(rest, i, "[send]");
    skipSpaces(rest, i);
    StrId transport = model::kNoStr;
    if (consume(rest, i, "via "))
        transport = out.intern(tokenAt(rest, i));
    addLink(line, out, kind, channel, *from, *to, transport);
}

// "Ring 00 : 3 -> 0 -> 1" (prev -> me -> next).
void NcclParser::parseRing(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    std::size_t i = 5;
    const auto channel = readInt32(msg, i);
    if (!channel || !consume(msg, i, " :"))
        return;
    const std::string_view rest = msg.substr(i);
    if (findLiteral(rest, " via ") != std::string_view::npos) {
        parseConnection(line, rest, *channel, out);
        return;
    }
    std::size_t j = 0;
    skipSpaces(rest, j);
    const auto prev = readInt32(rest, j);
    if (!prev || !consume(rest, j, " -> "))
        return;
    const auto me = readInt32(rest, j);
    if (!me || !consume(rest, j, " -> "))
        return;
    const auto next = readInt32(rest, j);
    if (!next)
        return;
    addLink(line, out, LinkKind::RingNeighbour, *channel, *prev, *me, model::kNoStr);
    addLink(line, out, LinkKind::RingNeighbour, *channel, *me, *next, model::kNoStr);
}

// "Trees [0] 3/-1/-1->2->1 [1] 3/-1/-1->2->1": per channel down0/down1/down2->rank->up.
void NcclParser::parseTrees(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    std::size_t i = 6;
    while (i < msg.size()) {
        const std::size_t open = msg.find('[', i);
        if (open == std::string_view::npos)
            return;
        i = open + 1;
        const auto channel = readInt32(msg, i);
        if (!channel || !consume(msg, i, "] "))
            continue;
        std::array<std::int32_t, 3> down { -1, -1, -1 };
        bool ok = true;
        for (std::size_t k = 0; k < down.size() && ok; ++k) {
            const auto d = readInt32(msg, i);
            ok = d.has_value() && (k == 2 || consume(msg, i, "/"));
            if (d)
                down[k] = *d;
        }
        if (!ok || !consume(msg, i, "->"))
            continue;
        const auto rank = readInt32(msg, i);
        if (!rank || !consume(msg, i, "->"))
            continue;
        const auto up = readInt32(msg, i);
        if (!up)
            continue;
        for (std::int32_t child : down)
            if (child >= 0)
                addLink(line, out, LinkKind::TreeParent, *channel, child, *rank, model::kNoStr);
        if (*up >= 0)
            addLink(line, out, LinkKind::TreeParent, *channel, *rank, *up, model::kNoStr);
    }
}

// Communicator lines of [formats 3.3], every version row:
//   comm %p rank %d nranks %d cudaDev %d busId %lx - Init COMPLETE                (≤2.15)
//   … busId %lx commId 0x%llx - Init COMPLETE                                       (2.16–2.17)
//   … cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init START|COMPLETE           (2.18–2.21)
//   ncclCommSplit comm %p … parent %p color %d key %d commId 0x%llx - Init START    (2.22)
//   %s comm %p … parent %p [splitCount|childCount %d] color %d key %d- Init START   (2.23+)
//   [Rank %d] %s comm %p … commId 0x%llx - Init START                               (2.29+)
//   comm %p rank %d nranks %d cudaDev %d busId %lx [commId …] - Destroy|Abort COMPLETE
//   comm %p rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL %d
bool NcclParser::parseCommLine(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    std::size_t i = 0;
    if (consume(msg, i, "[Rank ")) {
        if (!readUnsigned(msg, i) || !consume(msg, i, "] "))
            return false;
    }
    if (msg.substr(i).starts_with("nccl")) {
        const std::size_t space = msg.find(' ', i);
        if (space == std::string_view::npos)
            return false;
        i = space + 1;
    }
    if (!consume(msg, i, "comm "))
        return false;
    const std::string_view commPtr = tokenAt(msg, i);
    if (!commPtr.starts_with("0x"))
        return false;
    i += commPtr.size();

    model::CommInit init;
    std::string_view commId, parent, phase;
    std::uint64_t busId = 0;
    bool haveBusId = false;
    bool hasNodes = false;
    while (i < msg.size()) {
        skipSpaces(msg, i);
        if (i >= msg.size())
            break;
        if (msg[i] == '-') {
            phase = trim(msg.substr(i + 1));
            break;
        }
        const std::string_view key = tokenAt(msg, i);
        i += key.size();
        skipSpaces(msg, i);
        std::string_view value = tokenAt(msg, i);
        i += value.size();
        // "key 0- Init START" (2.23+ splits): the dash is glued to the value.
        bool phaseFollows = false;
        if (value.size() > 1 && value.back() == '-') {
            value.remove_suffix(1);
            phaseFollows = true;
        }
        if (key == "rank")
            init.commRank = toInt32(value);
        else if (key == "nranks" || key == "nRanks")
            init.nranks = toInt32(value);
        else if (key == "cudaDev")
            init.cudaDev = toInt32(value);
        else if (key == "nvmlDev")
            init.nvmlDev = toInt32(value);
        else if (key == "busId") {
            std::size_t j = 0;
            const auto id = readHex(value, j);
            haveBusId = id && j == value.size();
            busId = id.value_or(0);
        } else if (key == "commId")
            commId = value;
        else if (key == "parent")
            parent = value;
        else if (key == "color")
            init.color = toInt32(value);
        else if (key == "nNodes")
            hasNodes = true;
        if (phaseFollows) {
            phase = trim(msg.substr(i));
            break;
        }
    }

    ProcessState& ps = process(line.identity);
    const StrId commPtrId = out.intern(commPtr);
    const bool start = phase == "Init START";
    const bool complete = phase == "Init COMPLETE";
    if (start || complete) {
        const model::RawIdentity& id = out.identities[line.identity];
        init.identity = line.identity;
        init.evidence = line.ctx.evidence();
        init.time = line.ctx.bestTime();
        init.host = id.host;
        init.pid = id.pid;
        init.commPtr = commPtrId;
        init.commId = out.intern(commId);
        init.parentComm = out.intern(parent);
        if (haveBusId)
            init.busId = out.intern(busIdText(busId));
        init.complete = complete;
        out.commInits.push_back(init);
        ps.comm = commPtrId;
        ps.commRanks = init.nranks;
        model::Event& e = emit(line, out,
            complete ? EventKind::NcclInitComplete : EventKind::NcclInitStart, Severity::Info, msg);
        e.detail = init.commId;
        e.pgRank = init.commRank;
        e.code = init.nranks;
        return true;
    }
    if (phase.starts_with("Destroy") || phase.starts_with("Abort")) {
        model::Event& e = emit(line, out, EventKind::NcclCommTeardown,
            phase.starts_with("Abort") ? Severity::Warning : Severity::Info, msg);
        e.detail = commPtrId;
        e.pgRank = init.commRank;
        return true;
    }
    if (hasNodes && phase.empty()) {
        ps.comm = commPtrId;
        ps.commRanks = init.nranks;
    }
    return true;
}

// "NCCL_IB_TIMEOUT set by environment to 22." / "NCCL_SOCKET_IFNAME set by environment to eth0"
bool NcclParser::parseEnv(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    constexpr std::string_view kSet = " set by environment to ";
    const std::size_t at = findLiteral(msg, kSet);
    if (at == std::string_view::npos || at == 0)
        return false;
    const std::string_view name = msg.substr(0, at);
    if (name.find(' ') != std::string_view::npos)
        return false;
    std::string_view value = trim(msg.substr(at + kSet.size()));
    if (!value.empty() && value.back() == '.')
        value.remove_suffix(1);
    model::EnvSetting& env = out.envSettings.emplace_back();
    env.identity = line.identity;
    env.evidence = line.ctx.evidence();
    env.name = out.intern(name);
    env.value = out.intern(value);
    return true;
}

// "enp45s0f0:146.155.155.83<0>", "[0]eth0:11.130.1.53<0> [1]…", IPv6 "ib0:fe80::1%ib0<0>".
void NcclParser::addAddresses(const Line& line, std::string_view list, model::ParsedSource& out,
    model::Event* event)
{
    std::size_t i = 0;
    while (i < list.size()) {
        skipSpaces(list, i);
        std::string_view token = tokenAt(list, i);
        if (token.empty())
            break;
        i += token.size();
        if (token.front() == '[') {
            const std::size_t close = token.find(']');
            if (close == std::string_view::npos)
                continue;
            token.remove_prefix(close + 1);
        }
        const std::size_t colon = token.find(':');
        const std::size_t lt = token.find('<');
        if (colon == std::string_view::npos || lt == std::string_view::npos || lt <= colon + 1)
            continue;
        const model::RawIdentity& id = out.identities[line.identity];
        model::BootstrapAddress& addr = out.bootstrapAddresses.emplace_back();
        addr.identity = line.identity;
        addr.evidence = line.ctx.evidence();
        addr.host = id.host;
        addr.pid = id.pid;
        addr.interfaceName = out.intern(token.substr(0, colon));
        addr.ip = out.intern(token.substr(colon + 1, lt - colon - 1));
        if (event && event->peer == model::kNoStr) {
            event->detail = addr.interfaceName;
            event->peer = addr.ip;
        }
    }
}

bool NcclParser::parseBootstrapOrNet(const Line& line, std::string_view msg,
    model::ParsedSource& out)
{
    switch (msg.front()) {
    case 'B': {
        std::size_t i = 9;
        if (!msg.starts_with("Bootstrap"))
            return false;
        skipSpaces(msg, i);
        if (!consume(msg, i, ": Using "))
            return false;
        model::Event& e = emit(line, out, EventKind::NcclBootstrap, Severity::Info, msg);
        addAddresses(line, msg.substr(i), out, &e);
        return true;
    }
    case 'U':
        if (!msg.starts_with("Using network "))
            return false;
        emit(line, out, EventKind::NcclNetSelect, Severity::Info, msg);
        return true;
    case 'N': {
        if (!msg.starts_with("NET/"))
            return false;
        const std::size_t space = msg.find(' ');
        std::size_t i = space == std::string_view::npos ? msg.size() : space;
        skipSpaces(msg, i);
        const bool colon = consume(msg, i, ": ");
        if (!colon) {
            // "NET/IB: Using" / "NET/Plugin: No plugin found" spell it without the space.
            const std::size_t c = msg.find(':');
            if (c == std::string_view::npos || c > 16)
                return false;
            i = c + 1;
            skipSpaces(msg, i);
        }
        const std::string_view rest = msg.substr(i);
        if (rest.starts_with("Using ")) {
            model::Event& e = emit(line, out, EventKind::NcclNetSelect, Severity::Info, msg);
            const std::size_t oob = findLiteral(rest, "OOB ");
            if (oob != std::string_view::npos)
                addAddresses(line, rest.substr(oob + 4), out, &e);
            else if (msg.starts_with("NET/Socket"))
                addAddresses(line, rest.substr(6), out, &e);
            return true;
        }
        if (rest.starts_with("No device found") || rest.starts_with("No plugin found")) {
            emit(line, out, EventKind::NcclNetSelect, Severity::Info, msg);
            return true;
        }
        return false;
    }
    default:
        return false;
    }
}

// Messages that start with the reporting code's "file:line":
//   "transport/net.cc:1298 -> 6 [Progress Thread]"  (NCCLCHECK chain, [formats 3.6])
//   "include/alloc.h:250 Cuda failure 'driver shutting down'"  (CUDACHECKIGNORE, [formats 3.10])
bool NcclParser::parseFileLineMessage(const Line& line, std::string_view msg,
    model::ParsedSource& out)
{
    const std::string_view where = tokenAt(msg, 0);
    if (where.size() < 3 || !isFileLine(where))
        return false;
    std::size_t i = where.size();
    if (consume(msg, i, " -> ")) {
        const auto rc = readInt32(msg, i);
        if (!rc)
            return false;
        ProcessState& ps = process(line.identity);
        m_lineIsChain = true;
        if (ps.inChain && ps.chainRc == *rc) {
            ++m_collapsedChainLines;
            return true;
        }
        ps.inChain = true;
        ps.chainRc = *rc;
        model::Event& e = emit(line, out, EventKind::NcclErrorChain, Severity::Error, msg);
        e.code = *rc;
        e.detail = out.intern(where);
        return true;
    }
    if (consume(msg, i, " Cuda failure")) {
        emit(line, out, EventKind::NcclCudaFailure, Severity::Warning, msg);
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------
// WARN

void NcclParser::dispatchWarn(const Line& line, model::ParsedSource& out)
{
    const std::string_view msg = line.header.msg;
    const std::string_view file = line.header.file;
    if (msg.empty())
        return;
    auto has = [msg](std::string_view literal) { return contains(msg, literal); };

    if (has("Got completion from peer") || has("Got completion with ")) {
        parseIbCompletion(line, msg, out);
        return;
    }
    if (msg.starts_with("NET/IB") && has("async ") && has("event")) {
        parseIbAsync(line, msg, out);
        return;
    }
    if (msg.starts_with("Bootstrap") || msg.starts_with("bootstrap")
        || has("has already checked in") || has("Mismatched NCCL version")
        || has("Message truncated") || has("Duplicate GPU detected")) {
        emit(line, out, EventKind::NcclBootstrapError, Severity::Error, msg);
        return;
    }
    if (msg.starts_with("[Service thread]") || msg.starts_with("[Proxy Service")
        || msg.starts_with("[Proxy Thread]") || has("Proxy Call to rank")
        || has("Socket recv failed while polling") || has("is in abort state")) {
        emit(line, out, EventKind::NcclProxyError, Severity::Error, msg);
        return;
    }
    // NCCL ≥2.27 words its NVLS bind failure itself (transport/nvls.cc, cuMulticastBindMem):
    // "Failed to bind NVLink SHARP (NVLS) Multicast memory of size N : CUDA error 401 '…'",
    // where older releases printed CUCHECK's "Cuda failure 401 '…'" from the same file.
    if (has("Cuda failure") || has("CUDA failure") || has("Failed to CUDA ")
        || (has("cudaMalloc") && has("failed")) || (has("(NVLS)") && has("CUDA error"))) {
        // Where NCCL was (transport/nvls.cc, include/alloc.h, enqueue.cc) tells what it was
        // doing: allocating, launching, setting up NVLS.
        emit(line, out, EventKind::NcclCudaFailure, Severity::Error, msg).detail = out.intern(file);
        return;
    }
    // src/include/shm.h (≤2.12) and src/misc/shmutils.cc: "Call to posix_fallocate failed :
    // No space left on device" when /dev/shm cannot hold the segment.
    if (has("/dev/shm") || has("failed to extend") || has("shared memory segment")
        || has("unable to allocate shared memory") || has("posix_fallocate")
        || contains(file, "shmutils") || contains(file, "/shm.")) {
        emit(line, out, EventKind::NcclShmError, Severity::Error, msg);
        return;
    }
    // Socket errors, every era ([formats 3.8]): the peer is printed right after one of these.
    static constexpr std::string_view kPeerBefore[] = { "Connection closed by remote peer ",
        "Call to recv from ", "Call to send to ", "Connect to ", "connect to " };
    for (std::string_view literal : kPeerBefore) {
        std::string_view peer = tokenAfter(msg, literal);
        if (peer.empty())
            continue;
        while (!peer.empty() && (peer.back() == ',' || peer.back() == ':'))
            peer.remove_suffix(1);
        model::Event& e = emit(line, out, EventKind::NcclSocketError, Severity::Error, msg);
        e.peer = out.intern(peer);
        return;
    }
    if (msg.starts_with("socket") || msg.starts_with("ncclSocket") || msg.starts_with("Net : ")
        || msg.starts_with("NET/Socket") || has("exceeded retries")
        || has("exceeded error retry count") || contains(file, "socket")) {
        emit(line, out, EventKind::NcclSocketError, Severity::Error, msg);
        return;
    }
    if (contains(file, "proxy")) {
        emit(line, out, EventKind::NcclProxyError, Severity::Error, msg);
        return;
    }
    if (contains(file, "bootstrap")) {
        emit(line, out, EventKind::NcclBootstrapError, Severity::Error, msg);
        return;
    }
    // A network plugin's request that completed with an error (aws-ofi-nccl's "NET/OFI
    // Request 0x… completed with error. RC: 5. Error: Invalid receiver queue pair number"),
    // or a call that says it failed with an error: a transfer or setup failed, which a
    // warning about a missing plugin or library is not.
    const bool failed = has("completed with error") || has("failed with error");
    emit(line, out, EventKind::NcclWarn, failed ? Severity::Error : Severity::Warning, msg);
}

// Every [formats 3.7] row, e.g.
//   NET/IB : Got completion from peer fe80::…%ib0<53249> with error 4, opcode 32564, len …
//   NET/IB: Got completion from peer 10.0.0.2<5> with status=IBV_WC_RETRY_EXC_ERR(12) … hca mlx5_0
//   NET/IBP:Got completion from peer 7.6.13.83<36315> with status=12 opcode=32698 …
namespace {

// Peer, status and local HCA of an IB completion warning, as far as the text was not cut.
void describeIbCompletion(model::Event& e, std::string_view text, model::ParsedSource& out)
{
    const auto c = parsers::parseIbCompletion(text);
    if (!c)
        return; // cut right after "peer"
    e.peer = out.intern(c->peer);
    e.code = c->status < 0 ? 0 : c->status;
    if (!c->hca.empty())
        e.detail = out.intern(c->hca);
}

} // namespace

namespace {

// NCCL WARN texts that identify themselves without their header (see parseBareWarn).
constexpr std::string_view kBareWarnOpenings[] = {
    "Duplicate GPU detected : rank ",
    "Failed to CUDA calloc ",
    "Failed to CUDA malloc ",
    "Cuda failure 'out of memory'",
    "Call to posix_fallocate failed",
    "Error while creating shared memory segment",
};

} // namespace

// The IB completion warning pasted without its "host:pid:tid [dev] … NCCL WARN" header: the
// status and peer still say what failed; the writer is whatever the line's prefix says.
bool NcclParser::parseBareWarn(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::string_view text = trim(body);
    if (isBareIbCompletion(text)) {
        describeIbCompletion(
            addEvent(out, ctx, EventKind::NcclIbCompletionError, Severity::Error, text), text, out);
        return true;
    }
    // "include/socket.h:344 WARN …", "misc/socket.cc:518 NCCL WARN …": the source location
    // NCCL prints before a WARN's text (an NCCL source file, so no other tool's "file:line").
    const std::string_view where = tokenAt(text, 0);
    if (isNcclSourceLocation(where)) {
        std::size_t i = where.size();
        skipSpaces(text, i);
        consume(text, i, "NCCL ");
        if (consume(text, i, "WARN "))
            return parseQuotedWarn(ctx, trim(text.substr(i)), where.substr(0, where.rfind(':')), out);
        return false;
    }
    // A header the paste redacted ("host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN …"):
    // the source location right before "NCCL WARN" still says NCCL printed what follows.
    if (const std::size_t warn = findLiteral(text, " NCCL WARN "); warn != std::string_view::npos) {
        const std::size_t start = text.rfind(' ', warn - 1);
        const std::string_view location = text.substr(start == std::string_view::npos ? 0 : start + 1,
            start == std::string_view::npos ? warn : warn - start - 1);
        if (isNcclSourceLocation(location))
            return parseQuotedWarn(ctx, trim(text.substr(warn + 11)), location.substr(0, location.rfind(':')), out);
    }
    // A WARN's text alone, as PyTorch quotes it after "Last error:", on a line of its own in
    // a paste cut or reordered around it (a traceback pasted innermost line first): only the
    // openings no other tool prints (init.cc, alloc.h, shmutils.cc).
    for (const std::string_view opening : kBareWarnOpenings)
        if (text.starts_with(opening))
            return parseQuotedWarn(ctx, text, {}, out);
    // XLA (nccl_utils.cc / nccl_errors.cc): "… Last NCCL warning(error) log entry (may be
    // unrelated) 'TEXT'." — NCCL's own last WARN, quoted.
    const std::size_t quoted = findLiteral(text, "Last NCCL warning(error)");
    if (quoted == std::string_view::npos)
        return false;
    const std::size_t open = text.find('\'', quoted);
    const std::size_t close = text.rfind('\'');
    if (open == std::string_view::npos || close <= open + 1)
        return false;
    return parseQuotedWarn(ctx, trim(text.substr(open + 1, close - open - 1)), {}, out);
}

bool NcclParser::parseQuotedWarn(
    const LineContext& ctx, std::string_view text, std::string_view file, model::ParsedSource& out)
{
    if (text.empty())
        return false;
    Header header;
    header.level = Level::Warn;
    header.file = file;
    header.msg = text;
    const std::size_t before = out.events.size();
    dispatchWarn({ ctx, text, header, ctx.identity }, out);
    return out.events.size() > before;
}

void NcclParser::parseIbCompletion(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    describeIbCompletion(emit(line, out, EventKind::NcclIbCompletionError, Severity::Error, msg), msg, out);
}

//   NET/IB : Got async event : port error                                  (≤2.19)
//   NET/IB : mlx5_0:1 Got async event : port error                         (2.20–2.22)
//   NET/IB : mlx5_0:1 Got async error event: port error                    (2.23+)
//   NET/IB : mlx5_3:1 async fatal event on QP (0x732d78661238): invalid request …
void NcclParser::parseIbAsync(const Line& line, std::string_view msg, model::ParsedSource& out)
{
    std::size_t i = msg.find(' ');
    if (i == std::string_view::npos)
        i = msg.find(':');
    std::string_view device;
    if (i != std::string_view::npos) {
        skipSpaces(msg, i);
        if (i < msg.size() && msg[i] == ':')
            ++i;
        skipSpaces(msg, i);
        const std::string_view token = tokenAt(msg, i);
        if (token != "Got" && token != "async")
            device = token;
    }
    std::string_view text = msg;
    const std::size_t event = findLiteral(msg, "event");
    const std::size_t colon = findLiteral(msg, ": ", event);
    if (colon != std::string_view::npos)
        text = trim(msg.substr(colon + 2));
    const bool fatal = contains(msg, "fatal");
    model::Event& e = emit(line, out, EventKind::NcclIbAsyncEvent,
        fatal ? Severity::Error : Severity::Warning, text);
    e.detail = out.intern(device);
}

} // namespace rankscope::parsers
