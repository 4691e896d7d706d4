#include "parsers/rasparser.h"

#include "parsers/flightrecorderparser.h"
#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>

namespace rankscope::parsers {

namespace {

using model::EventKind;
using model::Severity;

constexpr std::size_t kMaxJsonNesting = 32; // the RAS JSON nests 5 deep

// Who a report line names: "Process P on node H managing GPU G" or "-- GPU G managed by
// process P on node H". Node is the RAS/OOB IP ([formats 4]).
struct ProcessRef {
    std::int32_t pid = -1;
    std::string_view node;
    std::string_view gpu;
};

std::int32_t toInt32(std::optional<std::uint64_t> v)
{
    return v && *v <= static_cast<std::uint64_t>(INT32_MAX) ? static_cast<std::int32_t>(*v) : -1;
}

std::int32_t clampInt32(std::int64_t v)
{
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX));
}

bool consume(std::string_view& s, std::string_view prefix)
{
    if (!s.starts_with(prefix))
        return false;
    s.remove_prefix(prefix.size());
    return true;
}

// "Process 3487984 on node 172.16.64.213 managing GPU 5" / "… managing GPUs 0,1 (NVML 2,3)"
bool readProcessPhrase(std::string_view t, ProcessRef& ref)
{
    if (!consume(t, "Process "))
        return false;
    std::size_t i = 0;
    ref.pid = toInt32(readUnsigned(t, i));
    t.remove_prefix(i);
    if (ref.pid < 0 || !consume(t, " on node "))
        return false;
    const std::size_t managing = t.find(" managing GPU");
    if (managing == std::string_view::npos) {
        ref.node = trim(t);
        return !ref.node.empty();
    }
    ref.node = t.substr(0, managing);
    t.remove_prefix(managing + std::string_view(" managing GPU").size());
    consume(t, "s");
    ref.gpu = trim(t);
    return !ref.node.empty();
}

// " -- GPU 0 managed by process 483072 on node 172.16.64.210" after a rank phrase.
void readManagedBy(std::string_view tail, ProcessRef& ref)
{
    const std::size_t dash = tail.find("-- GPU ");
    if (dash == std::string_view::npos)
        return;
    tail.remove_prefix(dash + 7);
    const std::size_t managed = tail.find(" managed by process ");
    if (managed == std::string_view::npos)
        return;
    ref.gpu = tail.substr(0, managed);
    tail.remove_prefix(managed + std::string_view(" managed by process ").size());
    std::size_t i = 0;
    ref.pid = toInt32(readUnsigned(tail, i));
    tail.remove_prefix(i);
    if (consume(tail, " on node "))
        ref.node = trim(tail);
}

// "#0-0 (cf264af53edbe986) INCOMPLETE"
bool readCommHeader(std::string_view t, std::string_view& hash, std::string_view& kind)
{
    if (!consume(t, "#"))
        return false;
    std::size_t i = 0;
    if (!readUnsigned(t, i) || i >= t.size() || t[i] != '-')
        return false;
    ++i;
    if (!readUnsigned(t, i))
        return false;
    t.remove_prefix(i);
    if (!consume(t, " ("))
        return false;
    const std::size_t close = t.find(')');
    if (close == 0 || close == std::string_view::npos)
        return false;
    hash = t.substr(0, close);
    if (!std::all_of(hash.begin(), hash.end(), isHexDigit))
        return false;
    t.remove_prefix(close + 1);
    kind = trim(t);
    return !kind.empty();
}

bool allOf(std::string_view t, char c)
{
    return t.size() >= 3 && std::all_of(t.begin(), t.end(), [c](char x) { return x == c; });
}

model::Event& rasEvent(model::ParsedSource& out, const LineContext& ctx, EventKind kind,
    Severity severity, std::string_view text, const ProcessRef& ref)
{
    model::Event& e = addEvent(out, ctx, kind, severity, text);
    e.pid = ref.pid;
    if (!ref.node.empty())
        e.peer = out.intern(ref.node);
    return e;
}

} // namespace

// ---------------------------------------------------------------------------------------
// Text report

RasTextParser::Stream* RasTextParser::findStream(std::uint32_t identity)
{
    for (Stream& s : m_streams)
        if (s.identity == identity)
            return &s;
    return nullptr;
}

RasTextParser::Stream& RasTextParser::stream(std::uint32_t identity)
{
    if (Stream* s = findStream(identity))
        return *s;
    Stream& s = m_streams.emplace_back();
    s.identity = identity;
    return s;
}

bool RasTextParser::anyStreamOpen() const
{
    return std::any_of(
        m_streams.begin(), m_streams.end(), [](const Stream& s) { return s.open(); });
}

void RasTextParser::finish(model::ParsedSource&)
{
    m_streams.clear();
}

bool RasTextParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::string_view t = trim(body);
    if (!m_streams.empty()) {
        if (Stream* s = findStream(ctx.identity); s != nullptr && s->open())
            return continueReport(*s, ctx, body, t, out);
    }
    return startLine(ctx, body, t, out);
}

// Lines that may appear outside any report block: report and monitor headers, a comm block
// or a section heading of a pasted fragment, and the single-line dead-peer messages.
bool RasTextParser::startLine(
    const LineContext& ctx, std::string_view body, std::string_view t, model::ParsedSource& out)
{
    if (t.empty())
        return false;
    switch (t.front()) {
    case 'N': {
        constexpr std::string_view kVersion = "NCCL version ";
        const std::size_t compiled = t.find(" compiled with CUDA ");
        if (!t.starts_with(kVersion) || compiled == std::string_view::npos
            || compiled <= kVersion.size())
            break;
        stream(ctx.identity).reset();
        model::Event& e = addEvent(out, ctx, EventKind::RasReport, Severity::Info, t);
        e.detail = out.intern(t.substr(kVersion.size(), compiled - kVersion.size()));
        return true;
    }
    case 'R':
        if (t.starts_with("RAS Monitor Mode")) {
            model::Event& e = addEvent(out, ctx, EventKind::RasReport, Severity::Info, t);
            e.detail = out.intern("monitor");
            return true;
        }
        break;
    case '#':
    case 'E':
    case 'W':
    case 'T': {
        Stream probe;
        probe.identity = ctx.identity;
        if (heading(probe, t) || (t.starts_with("The missing process") && t.ends_with(":"))) {
            if (probe.block == Block::None && probe.pendingHeading == Section::None)
                probe.block = Block::MissingProcesses;
            stream(ctx.identity) = probe;
            return true;
        }
        break;
    }
    default:
        break;
    }
    return deadLine(ctx, body, out);
}

// "[…] PEER_DEAD: Process P on node N managing GPU G" (2.29 monitor) and the NCCL_DEBUG
// line "RAS declaring peer 10.0.0.5<43210> as DEAD; rasDeadPeersHash 0x…".
bool RasTextParser::deadLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::size_t dead = findLiteral(body, "DEAD");
    if (dead == std::string_view::npos)
        return false;
    constexpr std::string_view kPeerDead = "PEER_DEAD: ";
    if (dead >= 5 && body.substr(dead - 5).starts_with(kPeerDead)) {
        ProcessRef ref;
        const std::string_view rest = trim(body.substr(dead - 5 + kPeerDead.size()));
        if (!readProcessPhrase(rest, ref))
            return false;
        model::Event& e = rasEvent(
            out, ctx, EventKind::RasDeadProcess, Severity::Error, trim(body.substr(dead - 5)), ref);
        e.detail = out.intern(ref.gpu);
        return true;
    }
    constexpr std::string_view kDeclaring = "RAS declaring peer ";
    const std::size_t declaring = findLiteral(body, kDeclaring);
    if (declaring == std::string_view::npos || declaring > dead)
        return false;
    std::string_view addr = body.substr(declaring + kDeclaring.size());
    const std::size_t asDead = addr.find(" as DEAD");
    if (asDead == std::string_view::npos || asDead == 0)
        return false;
    addr = addr.substr(0, asDead);
    ProcessRef ref;
    ref.node = addr.substr(0, addr.find('<'));
    model::Event& e = rasEvent(
        out, ctx, EventKind::RasDeadProcess, Severity::Error, trim(body.substr(declaring)), ref);
    e.detail = out.intern(addr);
    return true;
}

// Section and block headings. Returns false when `t` is not one.
bool RasTextParser::heading(Stream& s, std::string_view t)
{
    if (t == "Errors" || t == "Warnings") {
        s.pendingHeading = t == "Errors" ? Section::Errors : Section::Warnings;
        s.block = Block::None;
        return true;
    }
    std::string_view hash;
    std::string_view kind;
    if (readCommHeader(t, hash, kind)) {
        s.commHash.assign(hash);
        s.detail = Detail::None;
        s.errorName.clear();
        s.block = kind.starts_with("INCOMPLETE") ? Block::CommIncomplete
            : kind.starts_with("ERROR")          ? Block::CommError
            : kind.starts_with("MISMATCH")       ? Block::CommMismatch
                                                 : Block::None;
        return s.block != Block::None;
    }
    if (s.section == Section::None)
        return false;
    const Block block = t == "INCOMPLETE" ? Block::JobIncomplete
        : t == "DEAD"                     ? Block::Dead
        : t == "TIMEOUT"                  ? Block::Timeout
                                          : Block::None;
    if (block == Block::None)
        return false;
    s.block = block;
    s.detail = Detail::None;
    return true;
}

bool RasTextParser::continueReport(Stream& s, const LineContext& ctx, std::string_view body,
    std::string_view t, model::ParsedSource& out)
{
    if (s.pendingHeading != Section::None) {
        const Section pending = s.pendingHeading;
        s.pendingHeading = Section::None;
        if (allOf(t, '=')) {
            s.section = pending;
            return true;
        }
    }
    if (t.empty()) {
        // A blank line ends a block; the section goes on until a foreign line.
        s.block = Block::None;
        s.detail = Detail::None;
        return false;
    }
    if (heading(s, t))
        return true;
    if (s.block != Block::None && detailLine(s, ctx, t, out))
        return true;
    // Lines of the report that carry nothing for the diagnosis.
    if (s.section != Section::None && !body.empty() && isSpace(body.front()))
        return false;
    // A foreign line: the report is over.
    s.reset();
    return startLine(ctx, body, t, out);
}

// One line inside a block. Returns false for lines the block does not know.
bool RasTextParser::detailLine(
    Stream& s, const LineContext& ctx, std::string_view t, model::ParsedSource& out)
{
    if (t.starts_with("Rank "))
        return rankLine(s, ctx, t, out);
    if (t.starts_with("Process "))
        return processLine(s, ctx, t, out);
    if (t.starts_with("Missing communicator data from ") || t.starts_with("Encountered ")
        || t.starts_with("[could not find information")
        || t.find(" considered dead") != std::string_view::npos)
        return true;
    if (t.starts_with("The missing rank")) {
        // 2.24–2.25: "The missing rank: 21" / "The missing ranks: 3,5,7".
        const std::size_t colon = t.find(':');
        if (colon == std::string_view::npos || s.block != Block::CommIncomplete)
            return colon != std::string_view::npos;
        const std::string_view list = t.substr(colon + 1);
        for (std::size_t i = 0; i < list.size();) {
            if (!isDigit(list[i])) {
                ++i;
                continue;
            }
            const std::int32_t rank = toInt32(readUnsigned(list, i));
            while (i < list.size() && isDigit(list[i]))
                ++i;
            if (rank < 0)
                continue;
            model::Event& e = addEvent(out, ctx, EventKind::RasMissingRank, Severity::Warning, t);
            e.peerRank = rank;
            e.detail = out.intern(s.commHash);
        }
        return true;
    }
    if (t.starts_with("Communicator ranks have different ")) {
        std::string_view what
            = t.substr(std::string_view("Communicator ranks have different ").size());
        if (what.starts_with("status")) {
            s.detail = Detail::Status;
            return true;
        }
        const std::size_t counts = what.find(" operation counts");
        if (counts == std::string_view::npos)
            return false;
        s.detail = Detail::Counts;
        // "collective" before 2.26; a per-type name ("AllReduce") from 2.26 on.
        s.op = model::opTypeFromNcclName(what.substr(0, counts));
        s.majority = -1;
        s.groupCount = -1;
        s.expectMajority = true;
        return true;
    }
    if (t.starts_with("Initialization error") || t.starts_with("Asynchronous error")) {
        s.detail = t.front() == 'I' ? Detail::InitErrors : Detail::AsyncErrors;
        s.errorName.clear();
        return true;
    }
    // "26 ranks have launched up to operation 6650", "4 ranks have not launched any
    // operations", "26 ranks have status RUNNING", "2 ranks reported Remote process error".
    if (isDigit(t.front())) {
        std::size_t i = 0;
        if (!readUnsigned(t, i))
            return false;
        std::string_view rest = t.substr(i);
        if (consume(rest, " ranks have launched up to operation ")) {
            std::size_t k = 0;
            const auto count = readUnsigned(rest, k);
            s.groupCount = count && *count <= INT64_MAX ? static_cast<std::int64_t>(*count) : -1;
        } else if (rest.starts_with(" ranks have not launched any operations")) {
            s.groupCount = 0;
        } else if (consume(rest, " ranks reported ")) {
            s.errorName.assign(trim(rest));
            return true;
        } else {
            return rest.starts_with(" ranks have status ");
        }
        if (s.expectMajority)
            s.majority = s.groupCount;
        s.expectMajority = false;
        return true;
    }
    return false;
}

// "Process P on node H managing GPU G" in INCOMPLETE, DEAD and the missing-process list.
bool RasTextParser::processLine(
    Stream& s, const LineContext& ctx, std::string_view t, model::ParsedSource& out)
{
    ProcessRef ref;
    if (!readProcessPhrase(t, ref))
        return false;
    if (s.block == Block::Dead) {
        model::Event& e = rasEvent(out, ctx, EventKind::RasDeadProcess, Severity::Error, t, ref);
        e.detail = out.intern(ref.gpu);
    } else if (s.block == Block::JobIncomplete || s.block == Block::MissingProcesses) {
        rasEvent(out, ctx, EventKind::RasMissingRank, Severity::Warning, t, ref);
    }
    return true;
}

// "Rank R …" lines: what they mean depends on the block and detail they are in.
bool RasTextParser::rankLine(
    Stream& s, const LineContext& ctx, std::string_view t, model::ParsedSource& out)
{
    std::string_view rest = t.substr(5);
    std::size_t i = 0;
    const std::int32_t rank = toInt32(readUnsigned(rest, i));
    if (rank < 0)
        return false;
    rest.remove_prefix(i);
    ProcessRef ref;
    readManagedBy(rest, ref);

    switch (s.block) {
    case Block::CommIncomplete: {
        model::Event& e = rasEvent(out, ctx, EventKind::RasMissingRank, Severity::Warning, t, ref);
        e.peerRank = rank;
        e.detail = out.intern(s.commHash);
        return true;
    }
    case Block::CommMismatch: {
        if (s.detail != Detail::Counts)
            return true;
        std::int64_t count = s.groupCount;
        if (consume(rest, " has launched up to operation ")) {
            std::size_t k = 0;
            const auto v = readUnsigned(rest, k);
            count = v && *v <= INT64_MAX ? static_cast<std::int64_t>(*v) : -1;
        } else if (rest.starts_with(" has not launched any operations")) {
            count = 0;
        }
        if (s.expectMajority) {
            // A one-rank group printed first: the majority is not known (all groups are
            // single ranks), so every rank listed is reported.
            s.expectMajority = false;
        }
        if (count < 0 || (s.majority >= 0 && count == s.majority))
            return true;
        model::Event& e
            = rasEvent(out, ctx, EventKind::RasCountMismatch, Severity::Warning, t, ref);
        e.peerRank = rank;
        e.seq = count;
        e.code = s.majority >= 0 ? clampInt32(s.majority) : -1;
        e.op = s.op;
        e.detail = out.intern(s.commHash);
        return true;
    }
    case Block::CommError: {
        std::string_view error = s.errorName;
        if (consume(rest, " reported ")) {
            const std::size_t dash = rest.find(" -- ");
            error = trim(rest.substr(0, dash));
        }
        model::Event& e = rasEvent(out, ctx, EventKind::RasReport, Severity::Error, t, ref);
        e.peerRank = rank;
        e.detail = out.intern(error);
        e.code = s.detail == Detail::InitErrors ? 1 : s.detail == Detail::AsyncErrors ? 2 : 0;
        e.text = out.intern(t);
        return true;
    }
    default:
        return true;
    }
}

// ---------------------------------------------------------------------------------------
// JSON

namespace {

const nlohmann::json* member(const nlohmann::json& j, const char* key)
{
    if (!j.is_object())
        return nullptr;
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::int64_t integerOf(const nlohmann::json* j, std::int64_t fallback = -1)
{
    if (j == nullptr)
        return fallback;
    if (j->is_number_unsigned()) {
        const auto v = j->get<std::uint64_t>();
        return v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(v);
    }
    if (j->is_number_integer())
        return j->get<std::int64_t>();
    return fallback;
}

std::string stringOf(const nlohmann::json* j)
{
    return j != nullptr && j->is_string() ? j->get<std::string>() : std::string {};
}

bool boolOf(const nlohmann::json* j)
{
    return j != nullptr && j->is_boolean() && j->get<bool>();
}

struct JsonContext {
    model::ParsedSource& out;
    model::TimePoint time;
};

model::Event& jsonEvent(JsonContext& c, EventKind kind, Severity severity, const std::string& text)
{
    model::Event& e = c.out.events.emplace_back();
    e.kind = kind;
    e.severity = severity;
    e.evidence = { c.out.source.id, 1, 0 };
    e.time = c.time;
    e.text = c.out.intern(std::string_view(text).substr(0, kMaxEventText));
    return e;
}

void setProcess(JsonContext& c, model::Event& e, const nlohmann::json& rank)
{
    e.peerRank = clampInt32(integerOf(member(rank, "rank")));
    e.pid = clampInt32(integerOf(member(rank, "pid")));
    const std::string host = stringOf(member(rank, "host"));
    if (!host.empty() && host != "unknown")
        e.peer = c.out.intern(host);
}

// Per op type: the ranks that launched fewer operations than the most advanced rank.
void countMismatches(JsonContext& c, const nlohmann::json& ranks, const std::string& hash)
{
    std::map<std::string, std::int64_t> maxCount;
    for (const auto& rank : ranks) {
        const auto* counts = member(rank, "collective_counts");
        if (counts == nullptr || !counts->is_object())
            continue;
        for (auto it = counts->begin(); it != counts->end(); ++it) {
            const std::int64_t n = integerOf(&*it);
            auto [slot, inserted] = maxCount.try_emplace(it.key(), n);
            if (!inserted)
                slot->second = std::max(slot->second, n);
        }
    }
    for (const auto& rank : ranks) {
        const auto* counts = member(rank, "collective_counts");
        if (counts == nullptr || !counts->is_object())
            continue;
        for (auto it = counts->begin(); it != counts->end(); ++it) {
            const std::int64_t n = integerOf(&*it);
            const std::int64_t max = maxCount[it.key()];
            if (n < 0 || n >= max)
                continue;
            const std::string text = "Rank " + std::to_string(integerOf(member(rank, "rank")))
                + " has launched up to " + it.key() + " operation " + std::to_string(n)
                + " (others up to " + std::to_string(max) + ") in communicator " + hash;
            model::Event& e = jsonEvent(c, EventKind::RasCountMismatch, Severity::Warning, text);
            setProcess(c, e, rank);
            e.seq = n;
            e.code = clampInt32(max);
            e.op = model::opTypeFromNcclName(it.key());
            e.detail = c.out.intern(hash);
        }
    }
}

void missingRanks(JsonContext& c, const nlohmann::json& missing, const std::string& hash)
{
    for (const auto& rank : missing) {
        if (!rank.is_object())
            continue;
        const auto* status = member(rank, "status");
        const bool dead = status != nullptr && boolOf(member(*status, "considered_dead"));
        const std::string gpu = std::to_string(integerOf(member(rank, "cuda_dev")));
        const std::string text = "Rank " + std::to_string(integerOf(member(rank, "rank")))
            + " of communicator " + hash + (dead ? " is considered dead" : " sent no data")
            + " (process " + std::to_string(integerOf(member(rank, "pid"))) + " on node "
            + stringOf(member(rank, "host")) + " managing GPU " + gpu + ")";
        model::Event& e = jsonEvent(c, dead ? EventKind::RasDeadProcess : EventKind::RasMissingRank,
            dead ? Severity::Error : Severity::Warning, text);
        setProcess(c, e, rank);
        e.detail = c.out.intern(dead ? gpu : hash);
    }
}

} // namespace

void parseRasJson(std::string_view bytes, model::ParsedSource& out)
{
    try {
        if (!jsonNestingWithin(bytes, kMaxJsonNesting)) {
            out.issues.add("bad_ras_report", out.source.path + ": JSON nested too deep, refused");
            return;
        }
        const auto j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            out.issues.add(
                "bad_ras_report", out.source.path + ": not a valid NCCL RAS JSON report");
            return;
        }
        // "2025-12-19 13:06:53": the client's local wall clock.
        JsonContext c { out, parseIsoTime(stringOf(member(j, "timestamp"))) };
        const auto* comms = member(j, "communicators");
        const std::size_t count = comms != nullptr && comms->is_array() ? comms->size() : 0;
        const std::string version = stringOf(member(j, "nccl_version"));
        model::Event& report = jsonEvent(c, EventKind::RasReport, Severity::Info,
            "NCCL RAS report (NCCL " + version + "): " + std::to_string(count) + " communicators");
        report.detail = out.intern(version);
        if (count == 0)
            return;
        for (const auto& comm : *comms) {
            if (!comm.is_object())
                continue;
            const std::string hash = stringOf(member(comm, "hash"));
            if (const auto* ranks = member(comm, "ranks"); ranks != nullptr && ranks->is_array())
                countMismatches(c, *ranks, hash);
            if (const auto* missing = member(comm, "missing_ranks");
                missing != nullptr && missing->is_array())
                missingRanks(c, *missing, hash);
        }
    } catch (const std::exception& ex) {
        out.issues.add(
            "bad_ras_report", out.source.path + ": could not be read (" + ex.what() + ")");
    }
}

bool looksLikeRasJson(std::string_view head)
{
    const std::size_t start = head.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos || head[start] != '{')
        return false;
    return contains(head, "\"nccl_version\"") && contains(head, "\"communicators\"");
}

} // namespace rankscope::parsers
