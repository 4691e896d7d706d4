#include "parsers/launcherparser.h"

#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace rankscope::parsers {

using model::EventKind;
using model::Severity;

namespace {

// Keywords of the one-pass prefilter. Every keyword is at least 4 bytes long because the
// filter hashes 4-byte windows.
enum Keyword : unsigned {
    kwAgentFailed,
    kwClosingSignal,
    kwRdzvComplete,
    kwRdzvTimeout,
    kwRdzvClosed,
    kwRdzvConnection,
    kwDistStore,
    kwDistNetwork,
    kwWaitingClients,
    kwListenFailed,
    kwBindFailed,
    kwClientTimedOut,
    kwClientFailed,
    kwConnectTimedOut,
    kwConnRefused,
    kwSocketTimeout,
    kwDsExit,
    kwDsKilling,
    kwDsSuccess,
    kwMpiNoticed,
    kwMpiProcessName,
    kwMpiExitCode,
    kwMpiPeerGone,
    kwMpiNonZero,
    kwMpiPeerHost,
    kwLightning,
    kwDeepSpeedInit,
    kwFailures,
    kwRootCause,
    kwChildFailed,
    kwSrunError,
    kwSlurmStep,
    kwUnableShutdown,
    kwStoreBarrier,
    kwSignalReceived,
    kwRayWorkerFailed,
    kwRayActorDied,
    kwRayWorldRank,
    kwRayMemoryMonitor,
    kwRayWorkerDied,
    kwSlurmCgroupOom,
    kwLoadingBarrier,
    kwRankDisagreement,
    kwMonitoredBarrier,
    kwMonitoredBarrierReached,
    kwPeerAccessUnavailable,
    kwCount
};

constexpr std::array<std::string_view, kwCount> kKeywords = {
    "failed (exitcode: ",
    " closing signal ",
    "Rendezvous complete for workers. Result:",
    "RendezvousTimeoutError",
    "RendezvousClosedError",
    "RendezvousConnectionError",
    "DistStoreError",
    "DistNetworkError",
    "waiting for clients.",
    "failed to listen on any local network address",
    "The server socket has failed to bind to ",
    "The client socket has timed out",
    "The client socket has failed to connect",
    "connect() timed out",
    "Connection refused",
    "Socket Timeout",
    "exits with return code",
    "Killing subprocess ",
    "exits successfully",
    "noticed that process rank ",
    "Process name: [[",
    "Exit code:",
    "peer process has unexpectedly disconnected",
    "terminated normally, but ",
    "Peer host:",
    "GLOBAL_RANK: ",
    "Initializing TorchBackend in DeepSpeed",
    "Failures:",
    "Root Cause (first observed failure)",
    "ChildFailedError",
    "srun: error: ",
    "error: *** ", // slurmstepd, "slurmstepd-<host>" since Slurm 21
    "Unable to shutdown process ",
    " in store based barrier ",
    " received by PID ",
    " has failed.",
    "The actor died unexpectedly before finishing this task.",
    "DistributedContext(world_rank=",
    "killed due to memory pressure (OOM)",
    "because its worker process has died",
    " oom-kill event(s) in StepId=",
    " could finish the model loading, but there are other ranks",
    " between rank0 and rank",
    " failed to pass monitoredBarrier",
    " successfully reached monitoredBarrier, but received errors",
    " peer access Device ",
};

constexpr std::uint64_t bit(Keyword k)
{
    return std::uint64_t { 1 } << k;
}

constexpr std::uint64_t kDeepSpeedBits = bit(kwDsExit) | bit(kwDsKilling) | bit(kwDsSuccess);
constexpr std::uint64_t kMpiBits = bit(kwMpiNoticed) | bit(kwMpiProcessName) | bit(kwMpiExitCode)
    | bit(kwMpiPeerGone) | bit(kwMpiNonZero) | bit(kwMpiPeerHost);
constexpr std::uint64_t kFrameworkBits
    = bit(kwLightning) | bit(kwDeepSpeedInit) | bit(kwLoadingBarrier) | bit(kwRankDisagreement)
    | bit(kwMonitoredBarrier) | bit(kwMonitoredBarrierReached) | bit(kwPeerAccessUnavailable);
constexpr std::uint64_t kRayBits
    = bit(kwRayWorkerFailed) | bit(kwRayActorDied) | bit(kwRayWorldRank) | bit(kwRayMemoryMonitor)
    | bit(kwRayWorkerDied);
constexpr std::uint64_t kExceptionBits = bit(kwRdzvTimeout) | bit(kwRdzvClosed)
    | bit(kwRdzvConnection) | bit(kwDistStore) | bit(kwDistNetwork);
constexpr std::uint64_t kRendezvousErrorBits = kExceptionBits | bit(kwWaitingClients)
    | bit(kwListenFailed) | bit(kwBindFailed) | bit(kwClientTimedOut) | bit(kwClientFailed) | bit(kwConnectTimedOut)
    | bit(kwConnRefused) | bit(kwSocketTimeout) | bit(kwStoreBarrier);
constexpr std::uint64_t kBlockStartBits
    = bit(kwRdzvComplete) | bit(kwFailures) | bit(kwRootCause) | bit(kwChildFailed);

// LauncherExit's detail: DeepSpeed names a local rank, MPI a world rank.
constexpr std::string_view kDeepSpeed = "deepspeed";
// LauncherSignalSent's detail when the SIGKILL follows a SIGTERM the worker survived (an agent
// may also send SIGKILL straight away: "Sending process 78 closing signal SIGKILL").
constexpr std::string_view kSigtermIgnored = "sigterm_ignored";
constexpr std::string_view kMpi = "mpi";
// Ray Train names the world rank of a worker whose process died.
constexpr std::string_view kRay = "ray";
// Lines inside a failure record that are not its fields (a rendered table's loose headers and
// values) before the table is taken to have ended.
constexpr unsigned kMaxStrayTableLines = 4;
// The whole traceback of a table record is kept up to this size (its tail, where the
// exception is); Python tracebacks of a worker are rarely longer.
constexpr std::size_t kMaxTracebackBytes = 64 * 1024;
constexpr std::size_t kMaxListEntries = 4096;
constexpr unsigned kMaxMpiGap = 3; // lines between "Process name:" and "Exit code:"
// Lines between Ray Train's worker description and its actor's "died unexpectedly" error.
constexpr std::uint64_t kMaxRayGap = 16;
// Lines of Open MPI's help message between "peer process has unexpectedly disconnected" and
// its "Peer host:".
constexpr std::uint64_t kMaxMpiHelpLines = 16;

std::optional<std::int32_t> toInt32(std::optional<std::int64_t> v)
{
    if (!v || *v < INT32_MIN || *v > INT32_MAX)
        return std::nullopt;
    return static_cast<std::int32_t>(*v);
}

std::optional<std::int32_t> readInt32(std::string_view s, std::size_t& i)
{
    std::size_t j = i;
    const auto v = toInt32(readSigned(s, j));
    if (v)
        i = j;
    return v;
}

// Ranks one monitored-barrier message may name (a job's whole world at most; the text is cut
// at kMaxEventText anyway).
constexpr std::size_t kMaxMonitoredBarrierRanks = 1024;

// Non-negative only: pids, ranks, world sizes.
std::optional<std::int32_t> readCount(std::string_view s, std::size_t& i)
{
    std::size_t j = i;
    const auto v = readUnsigned(s, j);
    if (!v || *v > static_cast<std::uint64_t>(INT32_MAX))
        return std::nullopt;
    i = j;
    return static_cast<std::int32_t>(*v);
}

bool skip(std::string_view s, std::size_t& i, std::string_view literal)
{
    if (i > s.size() || !s.substr(i).starts_with(literal))
        return false;
    i += literal.size();
    return true;
}

std::size_t find(std::string_view s, std::string_view literal, std::size_t from = 0)
{
    return findLiteral(s, literal, from);
}

// The text from `pos` on; empty for npos (substr would throw).
std::string_view from(std::string_view s, std::size_t pos)
{
    return pos <= s.size() ? s.substr(pos) : std::string_view {};
}

bool isRule(std::string_view s)
{
    if (s.size() < 3 || (s[0] != '=' && s[0] != '-'))
        return false;
    return std::all_of(s.begin(), s.end(), [c = s[0]](char x) { return x == c; });
}

std::int32_t signalNumber(std::string_view name)
{
    struct Named {
        std::string_view name;
        std::int32_t number;
    };
    static constexpr std::array<Named, 10> kSignals = { {
        { "SIGHUP", 1 },
        { "SIGINT", 2 },
        { "SIGQUIT", 3 },
        { "SIGABRT", 6 },
        { "SIGKILL", 9 },
        { "SIGUSR1", 10 },
        { "SIGSEGV", 11 },
        { "SIGUSR2", 12 },
        { "SIGTERM", 15 },
        { "SIGCONT", 18 },
    } };
    for (const auto& s : kSignals)
        if (s.name == name)
            return s.number;
    return -1;
}

// Removes the envelope torch._logging repeats on every line of a multi-line message, so the
// rendezvous result's "  group_rank=0" lines read the same in every dialect:
//   2.1–2.2 "[2024-07-25 06:36:18,293] torch.distributed.elastic.agent.server.api: [INFO] "
//   ≥2.3    "I0618 15:59:02.634000 139633870123008 torch/distributed/…/api.py:525] "
std::string_view stripLoggerEnvelope(std::string_view s)
{
    if (s.size() > 20 && s[0] == '[' && isDigit(s[1])) {
        std::size_t consumed = 0;
        if (!parseIsoTime(s.substr(1), &consumed).valid()
            || !from(s, consumed + 1).starts_with("] "))
            return s;
        const std::string_view rest = s.substr(consumed + 3);
        const std::size_t level
            = find(rest.substr(0, std::min<std::size_t>(rest.size(), 200)), ": [");
        if (level == std::string_view::npos)
            return s;
        const std::size_t close = find(rest, "] ", level + 3);
        return close == std::string_view::npos ? s : rest.substr(close + 2);
    }
    // The same envelope once the scanner took its bracketed time off as a line prefix:
    // "torch.distributed.elastic.agent.server.api: [INFO]   group_rank=0".
    if (const std::size_t level = find(s.substr(0, std::min<std::size_t>(s.size(), 200)), ": [");
        level != std::string_view::npos && level > 0 && s.substr(0, level).find(' ') == std::string_view::npos
        && s.substr(0, level).find('.') != std::string_view::npos) {
        const std::size_t close = find(s, "] ", level + 3);
        if (close != std::string_view::npos)
            return s.substr(close + 2);
    }
    if (!s.empty() && s[0] != '[' && parseTorchEnvelopeTime(s).valid()) {
        const std::size_t close = find(s.substr(0, std::min<std::size_t>(s.size(), 300)), "] ");
        if (close != std::string_view::npos)
            return s.substr(close + 2);
        if (s.back() == ']')
            return {};
    }
    return s;
}

// "[0, 1, 2]" → {0, 1, 2}; nullopt when malformed.
std::optional<std::vector<std::int32_t>> parseIntList(std::string_view s)
{
    s = trim(s);
    if (s.size() < 2 || s.front() != '[' || s.back() != ']')
        return std::nullopt;
    std::vector<std::int32_t> values;
    std::size_t i = 1;
    const std::size_t end = s.size() - 1;
    while (i < end) {
        while (i < end && (s[i] == ' ' || s[i] == ','))
            ++i;
        if (i >= end)
            break;
        const auto v = readInt32(s, i);
        if (!v || values.size() >= kMaxListEntries)
            return std::nullopt;
        values.push_back(*v);
        if (i < end && s[i] != ',' && s[i] != ' ')
            return std::nullopt;
    }
    return values;
}

// True when the exception class named at `pos` starts an exception line ("torch.distributed.
// DistStoreError: …", "…rendezvous.api.RendezvousTimeoutError"), not a source line
// ("raise RendezvousTimeoutError()", "except RendezvousClosedError:"). `start` receives where
// the qualified name begins.
bool exceptionLineAt(std::string_view s, std::size_t pos, std::size_t length, std::size_t& start)
{
    const std::string_view after = trim(from(s, pos + length));
    if (!after.empty() && after.front() != ':')
        return false;
    std::size_t q = pos;
    while (q > 0 && (isAlnum(s[q - 1]) || s[q - 1] == '_' || s[q - 1] == '.'))
        --q;
    const std::string_view before = trim(s.substr(0, q));
    if (!before.empty() && before.back() != ']' && before.back() != ':' && before.back() != '"')
        return false;
    start = q;
    return true;
}

// The address a c10d client socket message names: "… to connect to (host, 29400)." or
// "… to connect to [host]:29500 (errno: 111 - Connection refused)."
std::string_view connectTarget(std::string_view s)
{
    std::size_t pos = find(s, "connect to ");
    if (pos == std::string_view::npos)
        return {};
    std::string_view t = s.substr(pos + 11);
    if (t.starts_with("any network address of "))
        t.remove_prefix(23);
    std::size_t end = t.starts_with("(") ? t.find(')') : t.find(' ');
    if (t.starts_with("(") && end != std::string_view::npos)
        ++end;
    t = t.substr(0, std::min(end, t.size()));
    while (!t.empty() && (t.back() == '.' || t.back() == ','))
        t.remove_suffix(1);
    return t;
}

std::string_view lastLine(std::string_view s)
{
    s = trim(s);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.remove_suffix(1);
    const std::size_t nl = s.rfind('\n');
    return trim(nl == std::string_view::npos ? s : s.substr(nl + 1));
}

// The fields of one failure record (errors/__init__.py `_format_failure`), with the spellings
// a paste copied from a rendered web page gives them: Markdown eats underscores and leading
// blanks, so "error_file" arrives as "error file" and "local_rank" as "local rank".
enum class FailureField : std::uint8_t { None, Time, Host, Rank, ExitCode, ErrorFile, Traceback };

struct FieldName {
    std::string_view name;
    FailureField field;
};

constexpr std::array<FieldName, 7> kFailureFields = { {
    { "time", FailureField::Time },
    { "host", FailureField::Host },
    { "rank", FailureField::Rank },
    { "exitcode", FailureField::ExitCode },
    { "error_file", FailureField::ErrorFile },
    { "error file", FailureField::ErrorFile },
    { "traceback", FailureField::Traceback },
} };

// "exitcode  : -9 (pid: 1)" -> (ExitCode, "-9 (pid: 1)"); "rank2 (local rank: 2)" -> (Rank,
// "2 (local rank: 2)"), the form a rendered table leaves when it drops the column of colons.
std::pair<FailureField, std::string_view> fieldOf(std::string_view t)
{
    for (const FieldName& f : kFailureFields) {
        if (!t.starts_with(f.name))
            continue;
        std::string_view rest = t.substr(f.name.size());
        const std::size_t blanks = rest.find_first_not_of(' ');
        if (blanks != std::string_view::npos && rest[blanks] == ':')
            return { f.field, trim(rest.substr(blanks + 1)) };
        if (f.field == FailureField::Rank && !rest.empty() && rest[0] >= '0' && rest[0] <= '9')
            return { f.field, rest };
    }
    return { FailureField::None, {} };
}

// Where the next field starts in a line that holds several glued together ("rank2 (local rank:
// 2)exitcode: -9 (pid: 36071)error file: <N/A>"): only the fields that follow "rank" in the
// record, so a traceback's text is never cut.
std::size_t nextGluedField(std::string_view t)
{
    std::size_t best = std::string_view::npos;
    for (std::string_view key : { std::string_view("exitcode"), std::string_view("error_file"),
             std::string_view("error file"), std::string_view("traceback") })
        for (std::size_t p = t.find(key, 1); p != std::string_view::npos; p = t.find(key, p + 1))
            if (fieldOf(t.substr(p)).first != FailureField::None) {
                best = std::min(best, p);
                break;
            }
    return best;
}

// The event that stands for a failure record in the timeline and the rules.
void addFailureRecordEvent(const model::LauncherFailure& record, std::uint32_t identity, model::TimePoint time,
    model::StrId text, model::ParsedSource& out)
{
    model::Event& e = out.events.emplace_back();
    e.kind = EventKind::LauncherFailureRecord;
    e.severity = Severity::Error;
    e.evidence = record.evidence;
    e.identity = identity;
    e.time = time;
    e.code = record.exitCode;
    e.peerRank = record.globalRank;
    e.pid = record.pid;
    e.peer = record.host;
    e.text = text;
}

bool isNoOtherFailures(std::string_view t)
{
    return t == "<NO_OTHER_FAILURES>" || t == "<NO OTHER FAILURES>";
}

// "Root Cause (first observed failure):", also with the blank a rendered page puts before the colon.
bool isRootCauseTitle(std::string_view t)
{
    constexpr std::string_view kTitle = "Root Cause (first observed failure)";
    return t.starts_with(kTitle) && trim(t.substr(kTitle.size())) == ":";
}

} // namespace

const KeywordSet& launcherKeywords()
{
    static const KeywordSet set(std::vector<std::string_view>(kKeywords.begin(), kKeywords.end()));
    return set;
}

LauncherParser::LauncherParser()
    : m_keywords(launcherKeywords())
{
}

bool LauncherParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (m_openBlocks > 0 || m_pendingMpi > 0) {
        auto it = m_streams.find(ctx.identity);
        if (it != m_streams.end()) {
            Stream& stream = it->second;
            if (stream.block != Block::None && feedBlock(stream, ctx, body, out))
                return true;
            if (stream.mpiRank >= 0 && ++stream.mpiLinesSince > kMaxMpiGap) {
                stream.mpiRank = -1;
                --m_pendingMpi;
            }
        }
    }

    const std::uint64_t found = findKeywords(body);
    if (found == 0)
        return false;
    bool recognised = false;
    if (found & bit(kwAgentFailed))
        recognised |= parseAgentFailed(ctx, body, out);
    if (found & (bit(kwSrunError) | bit(kwSlurmStep) | bit(kwSlurmCgroupOom)))
        recognised |= parseSlurm(ctx, body, found, out);
    if (found & (bit(kwClosingSignal) | bit(kwUnableShutdown)))
        recognised |= parseClosingSignal(ctx, body, out);
    if (found & kDeepSpeedBits)
        recognised |= parseDeepSpeed(ctx, body, found, out);
    if (found & kMpiBits)
        recognised |= parseMpi(ctx, body, found, out);
    if (found & kFrameworkBits)
        recognised |= parseFramework(ctx, body, found, out);
    if (found & kRayBits)
        recognised |= parseRay(ctx, body, found, out);
    if (found & kRendezvousErrorBits)
        recognised |= parseRendezvousError(ctx, body, found, out);
    if (found & kBlockStartBits)
        recognised |= startBlocks(ctx, body, found, out);
    if ((found & bit(kwSignalReceived)) && !recognised)
        recognised |= parseSignalReceived(ctx, body, out);
    return recognised;
}

// "Signal 9 (SIGKILL) received by PID 36071": the message torchrun gives a worker that died of
// a signal (errors/__init__.py, ProcessFailure), pasted without the table it belongs to (which
// is read as a whole above). A failure record with the exit code and pid and no rank.
bool LauncherParser::parseSignalReceived(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    const std::size_t by = find(text, " received by PID ");
    const std::size_t open = text.substr(0, by).rfind(" (SIG");
    if (open == std::string_view::npos)
        return false;
    const std::size_t word = text.substr(0, open).rfind(' ');
    const std::string_view signal = text.substr(word == std::string_view::npos ? 0 : word + 1, open - (word + 1));
    std::size_t i = 0;
    const std::optional<std::int32_t> number = readCount(signal, i);
    if (!number || i != signal.size() || *number == 0 || *number > 64)
        return false;
    i = by + 17;
    const std::optional<std::int32_t> pid = readCount(text, i);
    if (!pid)
        return false;
    model::LauncherFailure& record = out.launcherFailures.emplace_back();
    record.evidence = ctx.evidence();
    record.exitCode = -*number;
    record.pid = *pid;
    // The message without the "traceback :" field name it usually carries.
    const auto [field, value] = fieldOf(trim(text));
    record.traceback = out.intern(field == FailureField::Traceback ? value : trim(text));
    addFailureRecordEvent(record, ctx.identity, ctx.bestTime(), record.traceback, out);
    return true;
}

void LauncherParser::finish(model::ParsedSource& out)
{
    // Close in file order so the output does not depend on hash-map iteration.
    std::vector<Stream*> open;
    for (auto& [identity, stream] : m_streams)
        if (stream.block != Block::None)
            open.push_back(&stream);
    std::sort(open.begin(), open.end(),
        [](const Stream* a, const Stream* b) { return a->blockOffset < b->blockOffset; });
    for (Stream* stream : open)
        closeBlock(*stream, out);
    m_streams.clear();
    m_pendingMpi = 0;
}

// ---- multi-line blocks ------------------------------------------------------------------

bool LauncherParser::startBlocks(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    const std::string_view trimmed = trim(text);
    Block block = Block::None;
    bool rootCause = false;
    if (found & bit(kwRdzvComplete)) {
        block = Block::RendezvousResult;
    } else if ((found & bit(kwChildFailed)) && trimmed.ends_with("ChildFailedError:")) {
        block = Block::FailureTable;
    } else if (trimmed == "Failures:") {
        block = Block::FailureTable;
    } else if (isRootCauseTitle(trimmed)) {
        block = Block::FailureTable;
        rootCause = true;
    }
    if (block == Block::None)
        return false;

    Stream& stream = m_streams[ctx.identity];
    if (stream.block != Block::None)
        closeBlock(stream, out);
    openBlock(stream, block);
    stream.rootCauseSection = rootCause;
    stream.blockOffset = ctx.offset;
    if (block == Block::RendezvousResult) {
        model::WorkerGroupLayout& layout = stream.layout;
        layout = {};
        layout.identity = ctx.identity;
        layout.evidence = ctx.evidence();
        // The agent's own host: a pdsh prefix, else what the file path says.
        layout.host = !ctx.prefix.host.empty() ? out.intern(ctx.prefix.host)
                                               : out.intern(out.source.pathIdentity.host);
    }
    return true;
}

void LauncherParser::openBlock(Stream& stream, Block block)
{
    stream.block = block;
    stream.haveFailure = false;
    stream.rootCauseSection = false;
    ++m_openBlocks;
}

void LauncherParser::closeBlock(Stream& stream, model::ParsedSource& out)
{
    if (stream.block == Block::FailureTable) {
        closeFailure(stream, out);
    } else if (stream.block == Block::RendezvousResult) {
        model::WorkerGroupLayout& layout = stream.layout;
        if (layout.groupRank >= 0 || !layout.globalRanks.empty())
            out.workerGroups.push_back(std::move(layout));
        layout = {};
    }
    stream.block = Block::None;
    --m_openBlocks;
}

bool LauncherParser::feedBlock(
    Stream& stream, const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (stream.block == Block::FailureTable) {
        const TableLine line = feedFailureTable(stream, ctx, body, out);
        if (line == TableLine::End)
            closeBlock(stream, out);
        // The border that ends the table is the table's own line.
        return line == TableLine::Consumed || (line == TableLine::End && isRule(trim(body)));
    }
    const bool consumed = feedRendezvousResult(stream, body);
    if (!consumed)
        closeBlock(stream, out);
    return consumed;
}

LauncherParser::TableLine LauncherParser::feedFailureTable(
    Stream& stream, const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    PendingFailure& f = stream.failure;
    // py_callstack lines, re-indented by two spaces (errors/__init__.py `_format_failure`).
    if (stream.haveFailure && f.inTraceback && body.starts_with("  ")) {
        std::string_view line = body.substr(2);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.remove_suffix(1);
        if (f.traceback.size() + line.size() < kMaxTracebackBytes) {
            f.traceback += '\n';
            f.traceback.append(line);
        }
        return TableLine::Consumed;
    }
    const std::string_view t = trim(body);
    if (isRule(t)) {
        const bool end = t[0] == '=' && stream.rootCauseSection;
        closeFailure(stream, out);
        if (end)
            return TableLine::End;
        return TableLine::Consumed;
    }
    if (t == "Failures:" || isRootCauseTitle(t)) {
        closeFailure(stream, out);
        stream.rootCauseSection = t != "Failures:";
        return TableLine::Consumed;
    }
    if (isNoOtherFailures(t))
        return TableLine::Consumed;
    if (t.size() >= 4 && t.front() == '[' && t.back() == ':' && t[t.size() - 2] == ']') {
        std::size_t i = 1;
        if (readCount(t, i) && i == t.size() - 2) {
            closeFailure(stream, out);
            stream.haveFailure = true;
            f = {};
            f.identity = ctx.identity;
            f.lineTime = ctx.bestTime();
            f.record.evidence = ctx.evidence();
            f.record.reportedAsRootCause = stream.rootCauseSection;
            return TableLine::Consumed;
        }
    }
    // The title "tools/train.py FAILED" between the top border and "Failures:".
    if (!stream.haveFailure)
        return t.ends_with(" FAILED") ? TableLine::Consumed : TableLine::End;
    // A record's fields, indented as torchrun prints them or not (a paste that lost its
    // leading blanks), one per line or glued together.
    bool any = false;
    std::string_view rest = t;
    while (!rest.empty()) {
        const auto [field, value0] = fieldOf(rest);
        if (field == FailureField::None)
            break;
        any = true;
        // Only the fields after "rank" can follow it on the same line; the others take the line.
        std::string_view value = value0;
        std::string_view next;
        if (field == FailureField::Rank || field == FailureField::ExitCode) {
            if (const std::size_t g = nextGluedField(value); g != std::string_view::npos) {
                next = value.substr(g);
                value = trim(value.substr(0, g));
            }
        }
        std::size_t i = 0;
        switch (field) {
        case FailureField::Time:
            f.record.time = parseIsoTime(value);
            break;
        case FailureField::Host:
            f.record.host = out.intern(value);
            break;
        case FailureField::Rank:
            f.record.globalRank = readCount(value, i).value_or(-1);
            for (std::string_view local : { std::string_view("(local_rank: "), std::string_view("(local rank: ") })
                if (const std::size_t p = find(value, local); p != std::string_view::npos) {
                    i = p + local.size();
                    f.record.localRank = readCount(value, i).value_or(-1);
                }
            break;
        case FailureField::ExitCode:
            f.record.exitCode = readInt32(value, i).value_or(0);
            if (const std::size_t p = find(value, "(pid: "); p != std::string_view::npos) {
                i = p + 6;
                f.record.pid = readCount(value, i).value_or(-1);
            }
            break;
        case FailureField::ErrorFile:
            if (value != "<N/A>")
                f.record.errorFile = out.intern(value);
            break;
        case FailureField::Traceback:
            f.traceback.assign(value.substr(0, kMaxTracebackBytes));
            f.inTraceback = true;
            break;
        case FailureField::None:
            break;
        }
        rest = next;
    }
    if (any) {
        f.strayLines = 0;
        return TableLine::Consumed;
    }
    // A rendered table's column headers and values on lines of their own ("time", "host",
    // "2023-09-14 01:45:50"): passed on to the other parsers, the record stays open for a
    // few such lines before the block is taken to have ended.
    return ++f.strayLines <= kMaxStrayTableLines ? TableLine::Stray : TableLine::End;
}

void LauncherParser::closeFailure(Stream& stream, model::ParsedSource& out)
{
    if (!stream.haveFailure)
        return;
    stream.haveFailure = false;
    PendingFailure& f = stream.failure;
    std::string_view traceback = f.traceback;
    if (traceback.size() > kMaxEventText) {
        // Keep the end, where the exception is, starting at a line boundary.
        traceback = traceback.substr(traceback.size() - kMaxEventText);
        if (const std::size_t nl = traceback.find('\n'); nl != std::string_view::npos)
            traceback.remove_prefix(nl + 1);
    }
    model::LauncherFailure& record = out.launcherFailures.emplace_back(f.record);
    record.traceback = out.intern(traceback);

    addFailureRecordEvent(record, f.identity, record.time.valid() ? record.time : f.lineTime,
        out.intern(lastLine(traceback)), out);
    f = {};
}

bool LauncherParser::feedRendezvousResult(Stream& stream, std::string_view body)
{
    const std::string_view s = trim(stripLoggerEnvelope(body));
    const std::size_t eq = s.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return false;
    const std::string_view key = s.substr(0, eq);
    const std::string_view value = s.substr(eq + 1);
    model::WorkerGroupLayout& layout = stream.layout;
    std::size_t i = 0;
    if (key == "group_rank") {
        layout.groupRank = readCount(value, i).value_or(-1);
    } else if (key == "group_world_size") {
        layout.groupWorldSize = readCount(value, i).value_or(-1);
    } else if (key == "local_ranks") {
        layout.localRanks = parseIntList(value).value_or(std::vector<std::int32_t> {});
    } else if (key == "global_ranks") {
        layout.globalRanks = parseIntList(value).value_or(std::vector<std::int32_t> {});
    } else if (key == "global_world_sizes") {
        const auto sizes = parseIntList(value);
        layout.worldSize = sizes && !sizes->empty() ? sizes->front() : -1;
    } else if (key != "restart_count" && key != "master_addr" && key != "master_port"
        && key != "role_ranks" && key != "role_world_sizes") {
        return false;
    }
    return true;
}

// ---- one-line grammars --------------------------------------------------------------------

bool LauncherParser::parseAgentFailed(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    // "failed (exitcode: -6) local_rank: 0 (pid: 218624) of binary: /home/…/bin/python"
    const std::size_t pos = find(text, "failed (exitcode: ");
    std::size_t i = pos + 18;
    const auto code = readInt32(text, i);
    if (!code)
        return false;
    std::int32_t localRank = -1;
    std::int32_t pid = -1;
    if (skip(text, i, ") local_rank: ")) {
        localRank = readCount(text, i).value_or(-1);
        if (skip(text, i, " (pid: "))
            pid = readCount(text, i).value_or(-1);
    }
    model::Event& e = addEvent(
        out, ctx, EventKind::LauncherWorkerFailed, Severity::Error, trim(text.substr(pos)));
    e.code = *code;
    e.peerRank = localRank;
    e.pid = pid;
    return true;
}

bool LauncherParser::parseClosingSignal(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    // "Unable to shutdown process 754025 via Signals.SIGTERM, forcefully exiting via
    // Signals.SIGKILL" (Python ≥3.11 prints the numbers: "via 15, … via 9"): the worker was
    // still alive when the SIGTERM grace period (30 s) ran out, so the agent sends SIGKILL.
    if (const std::size_t unable = find(text, "Unable to shutdown process "); unable != std::string_view::npos) {
        std::size_t i = unable + 27;
        const auto pid = readCount(text, i);
        if (!pid || !skip(text, i, " via "))
            return false;
        model::Event& e = addEvent(
            out, ctx, EventKind::LauncherSignalSent, Severity::Warning, trim(text.substr(unable)));
        e.pid = *pid;
        e.code = 9;
        e.detail = out.intern(kSigtermIgnored);
        return true;
    }
    // "Sending process 153929 closing signal SIGTERM"
    const std::size_t pos = find(text, "Sending process ");
    if (pos == std::string_view::npos)
        return false;
    std::size_t i = pos + 16;
    const auto pid = readCount(text, i);
    if (!pid || !skip(text, i, " closing signal "))
        return false;
    const std::size_t nameStart = i;
    while (i < text.size() && (isUpper(text[i]) || isDigit(text[i])))
        ++i;
    model::Event& e = addEvent(
        out, ctx, EventKind::LauncherSignalSent, Severity::Warning, trim(text.substr(pos)));
    e.pid = *pid;
    e.code = signalNumber(text.substr(nameStart, i - nameStart));
    return true;
}

bool LauncherParser::parseDeepSpeed(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    bool recognised = false;
    if (found & bit(kwDsExit)) {
        // "['…/python3.9', '-u', 'x.py', '--local_rank=1', …] exits with return code = -6"
        const std::size_t pos = find(text, "exits with return code");
        std::size_t i = pos + 22;
        skip(text, i, " =");
        skip(text, i, " ");
        if (const auto code = readInt32(text, i)) {
            // The argv is not the failed worker's: launch.py's sigkill_handler prints `cmd`, the
            // variable left over from the loop that spawned the workers, so its '--local_rank='
            // is always the last-spawned local rank whichever worker failed. The line gives the
            // exit code, not the rank.
            model::Event& e = addEvent(out, ctx, EventKind::LauncherExit,
                *code == 0 ? Severity::Info : Severity::Error, trim(text));
            e.code = *code;
            e.peerRank = -1;
            e.detail = out.intern(kDeepSpeed);
            recognised = true;
        }
    }
    if (found & bit(kwDsKilling)) {
        // "Killing subprocess 748089": DeepSpeed terminates the process tree (SIGTERM first).
        const std::size_t pos = find(text, "Killing subprocess ");
        std::size_t i = pos + 19;
        if (const auto pid = readCount(text, i)) {
            model::Event& e = addEvent(
                out, ctx, EventKind::LauncherSignalSent, Severity::Warning, trim(text.substr(pos)));
            e.pid = *pid;
            e.code = 15;
            recognised = true;
        }
    }
    if (found & bit(kwDsSuccess)) {
        // "Process 748090 exits successfully."
        const std::size_t pos = find(text, "exits successfully");
        const std::size_t proc = find(text.substr(0, pos), "Process ");
        if (proc != std::string_view::npos) {
            std::size_t i = proc + 8;
            const auto pid = readCount(text, i);
            if (pid && i + 1 == pos && text[i] == ' ') {
                model::Event& e = addEvent(
                    out, ctx, EventKind::LauncherExit, Severity::Info, trim(text.substr(proc)));
                e.code = 0;
                e.pid = *pid;
                e.detail = out.intern(kDeepSpeed);
                recognised = true;
            }
        }
    }
    return recognised;
}

bool LauncherParser::parseMpi(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    // Open MPI's help messages for a process that ended badly, in words and no rank:
    //   "An MPI communication peer process has unexpectedly disconnected. …" then, a few lines
    //   on, "  Peer host:  node316" (the host of the process that failed);
    //   "Primary job  terminated normally, but 1 process returned\na non-zero exit code."
    // Each is a launcher exit with no rank and no exit code.
    if (found & (bit(kwMpiPeerGone) | bit(kwMpiNonZero))) {
        if ((found & bit(kwMpiNonZero)) && !contains(text, " process returned") && !contains(text, " processes returned"))
            return false;
        model::Event& e = addEvent(out, ctx, EventKind::LauncherExit, Severity::Error, trim(text));
        e.code = model::kExitCodeUnknown;
        e.detail = out.intern(kMpi);
        if (found & bit(kwMpiPeerGone)) {
            Stream& stream = m_streams[ctx.identity];
            stream.mpiPeerGoneEvent = static_cast<std::uint32_t>(out.events.size() - 1);
            stream.mpiPeerGoneLine = ctx.lineNo;
        }
        return true;
    }
    if (found & bit(kwMpiPeerHost)) {
        auto it = m_streams.find(ctx.identity);
        if (it == m_streams.end() || it->second.mpiPeerGoneEvent == kNoPendingEvent
            || ctx.lineNo - it->second.mpiPeerGoneLine > kMaxMpiHelpLines)
            return false;
        const std::string_view host = trim(text.substr(find(text, "Peer host:") + 10));
        if (host.empty() || host.find(' ') != std::string_view::npos)
            return false;
        out.events[it->second.mpiPeerGoneEvent].peer = out.intern(host);
        it->second.mpiPeerGoneEvent = kNoPendingEvent;
        return true;
    }
    if (found & bit(kwMpiNoticed)) {
        // "prterun noticed that process rank 7 with PID 0 on node gpu0304 exited on signal 6
        // (Aborted)."
        const std::size_t pos = find(text, "noticed that process rank ");
        std::size_t i = pos + 26;
        const auto rank = readCount(text, i);
        if (!rank || !skip(text, i, " with PID "))
            return false;
        const auto pid = readCount(text, i);
        if (!pid || !skip(text, i, " on node "))
            return false;
        const std::size_t nodeStart = i;
        while (i < text.size() && text[i] != ' ')
            ++i;
        const std::string_view node = text.substr(nodeStart, i - nodeStart);
        if (!skip(text, i, " exited on signal "))
            return false;
        const auto signal = readCount(text, i);
        if (!signal)
            return false;
        model::Event& e = addEvent(out, ctx, EventKind::LauncherExit, Severity::Error, trim(text));
        e.code = -*signal;
        e.peerRank = *rank;
        e.pid = *pid > 0 ? *pid : -1; // PRRTE prints "PID 0" when it does not know
        e.peer = out.intern(node);
        e.detail = out.intern(kMpi);
        return true;
    }
    if (found & bit(kwMpiProcessName)) {
        // Open MPI 4 abort summary: "  Process name: [[11192,1],8]" (jobid, step, rank)
        std::size_t i = find(text, "Process name: [[") + 16;
        if (!readCount(text, i) || !skip(text, i, ","))
            return false;
        if (!readCount(text, i) || !skip(text, i, "],"))
            return false;
        const auto rank = readCount(text, i);
        if (!rank || !skip(text, i, "]"))
            return false;
        Stream& stream = m_streams[ctx.identity];
        if (stream.mpiRank < 0)
            ++m_pendingMpi;
        stream.mpiRank = *rank;
        stream.mpiLinesSince = 0;
        return true;
    }
    if (found & bit(kwMpiExitCode)) {
        // "  Exit code:    3", right after the "Process name:" line.
        auto it = m_streams.find(ctx.identity);
        if (it == m_streams.end() || it->second.mpiRank < 0)
            return false;
        std::size_t i = find(text, "Exit code:") + 10;
        while (i < text.size() && text[i] == ' ')
            ++i;
        const auto code = readInt32(text, i);
        if (!code)
            return false;
        model::Event& e = addEvent(out, ctx, EventKind::LauncherExit,
            *code == 0 ? Severity::Info : Severity::Error, trim(text));
        e.code = *code;
        e.peerRank = it->second.mpiRank;
        e.detail = out.intern(kMpi);
        it->second.mpiRank = -1;
        --m_pendingMpi;
        return true;
    }
    return false;
}

// Ray Train's driver on a worker whose process died (a RayActorError):
//   "Worker 0 has failed."  (Train v1, utils.check_for_failure: the index in the worker
//                            group, which is the worker's world rank)
//   "  distributed_context=DistributedContext(world_rank=1, world_size=2, …),"
//   "The actor died unexpectedly before finishing this task."   (Train v2: the worker's
//                            description, then Ray's error for its actor, a few lines on)
// → LauncherExit, world rank, exit code unknown (Ray says the process died, not how).
bool LauncherParser::parseRay(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    if (found & bit(kwRayMemoryMonitor)) {
        // The raylet's memory monitor (node_manager.cc) killing workers because the node's
        // host memory passed RAY_memory_usage_threshold: "(raylet) node_manager.cc:3069: 1
        // Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due
        // to other reasons at node (ID: …, IP: 10.95.143.76) …". It names a node, not a worker;
        // a hard-wrapped paste may hold the count on the line before.
        model::Event& e = addEvent(out, ctx, EventKind::HostOutOfMemory, Severity::Error, trim(text));
        e.detail = out.intern(model::kOomByRayMonitor);
        return true;
    }
    if (found & bit(kwRayWorldRank)) {
        std::size_t i = find(text, "DistributedContext(world_rank=") + 30;
        const auto rank = readCount(text, i);
        if (!rank || i >= text.size() || text[i] != ',')
            return false;
        Stream& stream = m_streams[ctx.identity];
        stream.rayWorldRank = *rank;
        stream.rayWorldRankLine = ctx.lineNo;
        return true;
    }
    std::int32_t rank = -1;
    const std::string_view trimmed = trim(text);
    if ((found & bit(kwRayWorkerDied)) && !(found & bit(kwRayActorDied))) {
        // Ray core's RayActorError for an actor whose process went away ("The actor is dead
        // because its worker process has died. Worker exit type: SYSTEM_ERROR … (1) The process
        // is killed by SIGKILL by OOM killer …"): a worker died, which one is not said unless
        // Ray Train described it just before (below).
        auto it = m_streams.find(ctx.identity);
        if (it != m_streams.end() && it->second.rayWorldRank >= 0
            && ctx.lineNo - it->second.rayWorldRankLine <= kMaxRayGap) {
            rank = it->second.rayWorldRank;
            it->second.rayWorldRank = -1;
        }
    } else if (found & bit(kwRayWorkerFailed)) {
        if (!trimmed.starts_with("Worker ") || !trimmed.ends_with(" has failed."))
            return false;
        std::size_t i = 7;
        const auto worker = readCount(trimmed, i);
        if (!worker || i + 12 != trimmed.size())
            return false;
        rank = *worker;
    } else if (found & bit(kwRayActorDied)) {
        auto it = m_streams.find(ctx.identity);
        if (it == m_streams.end() || it->second.rayWorldRank < 0
            || ctx.lineNo - it->second.rayWorldRankLine > kMaxRayGap)
            return false;
        rank = it->second.rayWorldRank;
        it->second.rayWorldRank = -1;
    } else {
        return false;
    }
    model::Event& e = addEvent(out, ctx, EventKind::LauncherExit, Severity::Error, trimmed);
    e.code = model::kExitCodeUnknown;
    e.peerRank = rank;
    e.detail = out.intern(kRay);
    return true;
}

// Slurm's own messages when tasks end (srun --label output, slurm-%j.out):
//   "srun: error: node-39: task 17: Killed"                  → LauncherExit rank 17, code -9
//   "srun: error: node-3: tasks 0-3,6: Exited with exit code 1" → one LauncherExit per task
//   "slurmstepd: error: *** STEP 6059952.0 ON node-39 CANCELLED AT 2024-05-05T10:11:12 ***"
// Task ids are global ranks when srun launches one task per GPU; detail = "srun" lets the
// diagnosis decide (under `srun torchrun` a task is a node).
bool LauncherParser::parseSlurm(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    if (found & bit(kwSlurmCgroupOom)) {
        // slurmstepd's task/cgroup plugin: "slurmstepd-gpu20-15: error: Detected 1 oom-kill
        // event(s) in StepId=9411285.0. Some of your processes may have been killed by the
        // cgroup out-of-memory handler." The step's memory limit (host RAM) was reached.
        model::Event& e = addEvent(out, ctx, EventKind::HostOutOfMemory, Severity::Error, trim(text));
        e.detail = out.intern(model::kOomBySlurmCgroup);
        return true;
    }
    if (found & bit(kwSlurmStep)) {
        // "… error: *** STEP 6059952.0 ON node-39 CANCELLED AT …" (or "*** JOB …"); the
        // "slurmstepd-<host>: " before it may have been taken as a host label.
        if (find(text, " CANCELLED AT ") == std::string_view::npos
            || (find(text, "*** STEP ") == std::string_view::npos && find(text, "*** JOB ") == std::string_view::npos))
            return false;
        model::Event& e = addEvent(out, ctx, EventKind::LauncherExit, Severity::Warning, trim(text));
        e.code = -15;
        e.detail = out.intern("srun");
        return true;
    }
    const std::size_t pos = find(text, "srun: error: ");
    std::size_t i = pos + 13;
    const std::size_t nodeEnd = text.find(": task", i);
    if (nodeEnd == std::string_view::npos)
        return false;
    const std::string_view node = text.substr(i, nodeEnd - i);
    i = nodeEnd + 6;
    if (i < text.size() && text[i] == 's')
        ++i;
    if (!skip(text, i, " "))
        return false;
    // Task list "0-3,6".
    std::vector<std::pair<std::int32_t, std::int32_t>> ranges;
    for (;;) {
        const auto first = readCount(text, i);
        if (!first)
            return false;
        std::int32_t last = *first;
        if (i < text.size() && text[i] == '-') {
            ++i;
            const auto end = readCount(text, i);
            if (!end || *end < *first || *end - *first > 65536)
                return false;
            last = *end;
        }
        ranges.emplace_back(*first, last);
        if (i < text.size() && text[i] == ',') {
            ++i;
            continue;
        }
        break;
    }
    if (!skip(text, i, ": "))
        return false;
    const std::string_view what = trim(text.substr(i));
    std::int32_t code = 0;
    // "Out Of Memory": the cgroup's OOM handler killed the task (SIGKILL).
    if (what.starts_with("Killed") || what.starts_with("Out Of Memory"))
        code = -9;
    else if (what.starts_with("Segmentation fault"))
        code = -11;
    else if (what.starts_with("Aborted"))
        code = -6;
    else if (what.starts_with("Bus error"))
        code = -7;
    else if (what.starts_with("Terminated"))
        code = -15;
    else if (what.starts_with("Exited with exit code ")) {
        std::size_t k = 22;
        const auto v = readInt32(what, k);
        if (!v)
            return false;
        code = *v;
    } else {
        return false;
    }
    for (const auto& [first, last] : ranges)
        for (std::int32_t task = first; task <= last; ++task) {
            model::Event& e = addEvent(out, ctx, EventKind::LauncherExit, code == 0 ? Severity::Info : Severity::Error, trim(text));
            e.code = code;
            e.peerRank = task;
            e.peer = out.intern(node);
            e.detail = out.intern("srun");
        }
    return true;
}

bool LauncherParser::parseFramework(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    if (found & bit(kwLightning)) {
        // "Initializing distributed: GLOBAL_RANK: 3, MEMBER: 4/8" (≤1.x: "initializing ddp: …",
        // "initializing distributed: …")
        const std::size_t key = find(text, "GLOBAL_RANK: ");
        std::size_t pos = std::string_view::npos;
        for (std::string_view lead : { "Initializing distributed: ", "initializing distributed: ", "initializing ddp: " })
            if (key >= lead.size() && text.substr(key - lead.size(), lead.size()) == lead)
                pos = key - lead.size();
        if (pos == std::string_view::npos)
            return false;
        std::size_t i = key + 13;
        const auto rank = readCount(text, i);
        if (!rank || !skip(text, i, ", MEMBER: ") || !readCount(text, i) || !skip(text, i, "/"))
            return false;
        const auto worldSize = readCount(text, i);
        if (!worldSize)
            return false;
        model::Event& e
            = addEvent(out, ctx, EventKind::FrameworkInfo, Severity::Info, trim(text.substr(pos)));
        e.peerRank = *rank;
        e.code = *worldSize;
        return true;
    }
    if (found & bit(kwLoadingBarrier)) {
        // SGLang (model_runner.py): after loading its weights each TP rank waits in a monitored
        // barrier; one that timed out raises "TP rank 1 could finish the model loading, but
        // there are other ranks that didn't finish loading. It is likely due to unexpected
        // failures (e.g., OOM) or a slow node." The rank it names arrived; some other did not.
        std::size_t pos = find(text, kKeywords[kwLoadingBarrier]);
        const std::size_t start = text.substr(0, pos).rfind("TP rank ");
        std::int32_t arrived = -1;
        if (start != std::string_view::npos) {
            std::size_t i = start + 8;
            if (const auto rank = readCount(text, i); rank && i == pos)
                arrived = *rank;
            pos = start;
        }
        model::Event& e = addEvent(out, ctx, EventKind::FrameworkCheck, Severity::Error, trim(text.substr(pos)));
        e.detail = out.intern("loading_barrier");
        e.peerRank = arrived;
        return true;
    }
    if (found & bit(kwMonitoredBarrier)) {
        // Gloo's monitored barrier (ProcessGroupGloo::monitoredBarrier, also run before every
        // collective by TORCH_DISTRIBUTED_DEBUG=DETAIL's wrapper): rank 0 waits for every other
        // rank to check in and names those that did not within the timeout — "[Rank 0]: Rank 3
        // failed to pass monitoredBarrier in 30000 ms", or with wait_all_ranks "[Rank 0]: Ranks
        // 1, 4 failed to pass …". One event per rank named.
        const std::size_t pos = find(text, kKeywords[kwMonitoredBarrier]);
        const std::string_view before = text.substr(0, pos);
        // The list starts at the last "Rank " or "Ranks " before the words (not at "[Rank 0]: ").
        const std::size_t plural = before.rfind("Ranks ");
        const std::size_t singular = before.rfind("Rank ");
        const std::size_t list = plural == std::string_view::npos ? singular
            : singular == std::string_view::npos                  ? plural
                                                                  : std::max(plural, singular);
        if (list == std::string_view::npos)
            return false;
        std::size_t i = before.find(' ', list) + 1;
        std::vector<std::int32_t> ranks;
        while (i < pos && ranks.size() < kMaxMonitoredBarrierRanks) {
            const auto rank = readCount(text, i);
            if (!rank)
                break;
            ranks.push_back(*rank);
            if (!skip(text, i, ", "))
                break;
        }
        if (ranks.empty() || i != pos)
            return false;
        const std::size_t coordinator = before.rfind("[Rank 0]: ");
        const std::string_view message
            = trim(text.substr(coordinator == std::string_view::npos ? list : coordinator)).substr(0, kMaxEventText);
        for (std::int32_t rank : ranks) {
            model::Event& e = addEvent(out, ctx, EventKind::FrameworkCheck, Severity::Error, message);
            e.detail = out.intern("monitored_barrier");
            e.peerRank = rank;
        }
        return true;
    }
    if (found & bit(kwMonitoredBarrierReached)) {
        // Every other rank's side of the same barrier ("Rank 1 successfully reached
        // monitoredBarrier, but received errors while waiting for send/recv from rank 0"): only
        // rank 0 enforces the timeout, so this rank's exchange with rank 0 failed because rank
        // 0's side ended (it raised, or its process went away). peerRank = the rank that arrived.
        const std::size_t pos = find(text, kKeywords[kwMonitoredBarrierReached]);
        const std::size_t start = text.substr(0, pos).rfind("Rank ");
        if (start == std::string_view::npos)
            return false;
        std::size_t i = start + 5;
        const auto rank = readCount(text, i);
        if (!rank || i != pos)
            return false;
        model::Event& e = addEvent(out, ctx, EventKind::FrameworkCheck, Severity::Error, trim(text.substr(start)).substr(0, kMaxEventText));
        e.detail = out.intern("monitored_barrier_reached");
        e.peerRank = *rank;
        return true;
    }
    if (found & bit(kwPeerAccessUnavailable)) {
        // TensorRT-LLM's IPC set-up (runtime/ipcUtils.cpp) and LMDeploy's TurboMind, which
        // shares it, check every pair of the node's GPUs: "[TensorRT-LLM][WARNING] Device 2 peer
        // access Device 5 is not available." ("[TM][WARNING] …"). A warning: only the custom
        // all-reduce needs peer access, and it fails when it is on. code = the first device,
        // peerRank stays -1 (devices, not ranks).
        const std::size_t pos = find(text, kKeywords[kwPeerAccessUnavailable]);
        const std::size_t start = text.substr(0, pos).rfind("Device ");
        if (start == std::string_view::npos)
            return false;
        std::size_t i = start + 7;
        const auto device = readCount(text, i);
        if (!device || i != pos)
            return false;
        i += kKeywords[kwPeerAccessUnavailable].size();
        if (!readCount(text, i) || !skip(text, i, " is not available")
            || trim(text.substr(i)).find_first_not_of('.') != std::string_view::npos)
            return false;
        model::Event& e = addEvent(out, ctx, EventKind::FrameworkCheck, Severity::Warning,
            trim(text.substr(start)).substr(0, kMaxEventText));
        e.detail = out.intern("peer_access_unavailable");
        e.code = *device;
        return true;
    }
    if (found & bit(kwRankDisagreement)) {
        // DeepSpeed ZeRO-3 (runtime/zero/utils.py) checks that every rank fetches the same
        // parameters in the same order: "disagreement between rank0 and rank6: rank0: […]",
        // "Detected a disagreement on list length between rank0 and rank7: rank0: 30815 …".
        // The source line quoting the f-string ("… rank{dist.get_rank()}") is not the error.
        const std::size_t pos = find(text, kKeywords[kwRankDisagreement]);
        std::size_t i = pos + kKeywords[kwRankDisagreement].size();
        const auto rank = readCount(text, i);
        const std::size_t word = text.substr(0, pos).rfind("disagreement");
        if (!rank || i >= text.size() || text[i] != ':' || word == std::string_view::npos || pos - word > 40)
            return false;
        const std::size_t start = text.substr(0, pos).rfind("RuntimeError: ");
        model::Event& e = addEvent(out, ctx, EventKind::FrameworkCheck, Severity::Error,
            trim(text.substr(start == std::string_view::npos ? pos : start + 14)).substr(0, kMaxEventText));
        e.detail = out.intern("rank_disagreement");
        e.peerRank = *rank;
        return true;
    }
    // "Initializing TorchBackend in DeepSpeed with backend nccl": who the rank is comes later.
    const std::size_t pos = find(text, "Initializing TorchBackend in DeepSpeed");
    model::Event& e
        = addEvent(out, ctx, EventKind::FrameworkInfo, Severity::Info, trim(text.substr(pos)));
    e.code = -1;
    return true;
}

bool LauncherParser::parseRendezvousError(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    std::string_view message;
    std::string_view exceptionClass;
    std::string_view peer;
    std::int32_t code = 0;
    std::int64_t seq = -1;
    std::int64_t durationMs = -1;

    if (found & kExceptionBits) {
        for (const Keyword k :
            { kwDistStore, kwDistNetwork, kwRdzvTimeout, kwRdzvClosed, kwRdzvConnection }) {
            if (!(found & bit(k)))
                continue;
            const std::size_t pos = find(text, kKeywords[k]);
            std::size_t start = 0;
            if (exceptionLineAt(text, pos, kKeywords[k].size(), start)) {
                message = text.substr(start);
                exceptionClass = kKeywords[k];
                break;
            }
        }
    }
    if (found & bit(kwStoreBarrier)) {
        // distributed_c10d.py _store_based_barrier (PyTorch ≤1.13), every ~10 s while ranks
        // are missing, then the timeout:
        //   "Waiting in store based barrier to initialize process group for rank: 0, key:
        //    store_based_barrier_key:1 (world_size=8, worker_count=7, timeout=0:30:00)"
        //   "Timed out initializing process group in store based barrier on rank: 3, for key:
        //    … (world_size=4, worker_count=12, timeout=0:01:00)"  (later: num_workers_joined=)
        // → code = workers joined, seq = world size, peerRank = the rank that says it waits.
        const std::size_t waiting = find(text, "Waiting in store based barrier");
        const std::size_t timedOut = find(text, "Timed out initializing process group in store based barrier");
        const std::size_t pos = timedOut != std::string_view::npos ? timedOut : waiting;
        if (pos != std::string_view::npos) {
            auto numberAfter = [&](std::string_view key) -> std::int64_t {
                std::size_t i = find(text, key);
                if (i == std::string_view::npos || i < pos)
                    return -1;
                i += key.size();
                const auto v = readCount(text, i);
                return v ? static_cast<std::int64_t>(*v) : -1;
            };
            const std::int64_t rank = numberAfter("rank: ");
            const std::int64_t world = numberAfter("world_size=");
            std::int64_t joined = numberAfter("worker_count=");
            if (joined < 0)
                joined = numberAfter("num_workers_joined=");
            model::Event& e = addEvent(out, ctx, EventKind::LauncherRendezvousError,
                timedOut != std::string_view::npos ? Severity::Error : Severity::Warning,
                trim(text.substr(pos)));
            e.detail = out.intern("store_based_barrier");
            e.code = joined >= 0 && joined < (1 << 30) ? static_cast<std::int32_t>(joined) : -1;
            e.seq = world;
            e.peerRank = rank >= 0 && rank < (1 << 30) ? static_cast<std::int32_t>(rank) : -1;
            return true;
        }
    }
    if (found & bit(kwWaitingClients)) {
        // pt:c10d/TCPStore.cpp waitForWorkers: "Timed out after {} seconds waiting for
        // clients. {}/{} clients joined."
        const std::size_t pos = find(text, "Timed out after ");
        std::size_t i = pos + 16;
        if (pos != std::string_view::npos) {
            const auto seconds = readCount(text, i);
            if (seconds && skip(text, i, " seconds waiting for clients. ")) {
                const auto joined = readCount(text, i);
                if (joined && skip(text, i, "/")) {
                    const auto expected = readCount(text, i);
                    if (expected && skip(text, i, " clients joined")) {
                        code = *joined;
                        seq = *expected;
                        durationMs = std::int64_t { *seconds } * 1000;
                        if (message.empty())
                            message = text.substr(pos);
                    }
                }
            }
        }
    }
    if (message.empty()) {
        // c10d socket.cpp and older TCPStore messages, logged or thrown. A bind failure is a
        // warning before the listen failure; it alone carries the errno ("errno: 98 - Address
        // already in use") in releases whose listen failure does not.
        static constexpr std::array<Keyword, 6> kPhrases = { kwListenFailed, kwBindFailed, kwClientTimedOut,
            kwClientFailed, kwConnectTimedOut, kwSocketTimeout };
        for (const Keyword k : kPhrases) {
            if (!(found & bit(k)))
                continue;
            // Only EADDRINUSE: "errno: 97 - Address family not supported" on [::] is the
            // harmless try before 0.0.0.0 on hosts without IPv6.
            if (k == kwBindFailed && !contains(text, "errno: 98"))
                continue;
            std::size_t pos = find(text, kKeywords[k]);
            if (k == kwListenFailed) {
                const std::size_t server = find(text, "The server socket has ");
                if (server != std::string_view::npos && server < pos)
                    pos = server;
            }
            message = text.substr(pos);
            break;
        }
    }
    if (message.empty() && (found & bit(kwConnRefused))
        && (contains(text, "TCPStore") || contains(text, "c10d") || contains(text, "store")))
        message = text;
    message = trim(message);
    if (message.empty())
        return false;
    if (found & (bit(kwClientTimedOut) | bit(kwClientFailed)))
        peer = connectTarget(message);

    // Connect retries repeat the same line; one event per writer and text is enough.
    Stream& stream = m_streams[ctx.identity];
    const model::StrId textId = out.intern(message.substr(0, kMaxEventText));
    if (stream.lastRendezvousText == textId)
        return true;
    stream.lastRendezvousText = textId;

    model::Event& e
        = addEvent(out, ctx, EventKind::LauncherRendezvousError, Severity::Error, message);
    e.detail = out.intern(exceptionClass);
    e.peer = out.intern(peer);
    e.code = code;
    e.seq = seq;
    e.durationMs = durationMs;
    return true;
}

} // namespace rankscope::parsers
