#include "parsers/stackdumpparser.h"

#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace rankscope::parsers {

using model::StackActivity;
using model::StackTool;

namespace {

constexpr std::size_t kMaxThreads = 1024;
constexpr std::size_t kMaxFrames = 256;
// Lines of other output tolerated inside a dump before it is taken as over (interleaved
// writers in one stream); a blank line followed by other output ends it at once.
constexpr int kMaxForeignLines = 3;
// A dump that saw no line of its stream for this long is over (its stream went quiet in a
// combined file); checked every kStaleCheckEvery lines.
constexpr std::uint64_t kStaleLines = 5000;
constexpr std::uint64_t kStaleCheckEvery = 1024;

enum class FunctionMatch : std::uint8_t { Any, Equals, Prefix, Contains };

// Where a main thread sits ([formats 8], [formats 11] F). Frames are tried innermost first and the
// first frame matching any rule decides, so a collective called from inside a data loader
// reads as InCollective. `file` matches a path component suffix ("torch/utils/data/" matches
// "/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py" and py-spy's short
// "torch/utils/data/dataloader.py"); an empty `file` matches any file, native frames included.
struct ActivityRule {
    std::string_view file;
    std::string_view function;
    FunctionMatch match;
    StackActivity activity;
};

constexpr auto kCollective = StackActivity::InCollective;
constexpr auto kData = StackActivity::DataLoading;
constexpr auto kCheckpoint = StackActivity::CheckpointIo;
constexpr auto kSleep = StackActivity::Sleeping;
using enum FunctionMatch;

constexpr auto kNcclInit = StackActivity::InNcclInit;

constexpr ActivityRule kActivityRules[] = {
    // Creating a communicator: ncclCommInitRank blocks in bootstrap until every rank joined
    // (src/init.cc, src/bootstrap.cc), so a process here waits for a peer that never came.
    { "", "ncclCommInitRank", Prefix, kNcclInit },
    { "", "ncclCommInitAll", Prefix, kNcclInit },
    { "", "ncclCommSplit", Prefix, kNcclInit },
    { "", "bootstrap", Prefix, kNcclInit },
    { "", "initTransportsRank", Equals, kNcclInit },
    // Waiting on peers: the victims of a hang.
    { "distributed_c10d.py", "all_reduce", Prefix, kCollective },
    { "distributed_c10d.py", "all_gather", Prefix, kCollective },
    { "distributed_c10d.py", "_all_gather_base", Equals, kCollective },
    { "distributed_c10d.py", "reduce", Prefix, kCollective },
    { "distributed_c10d.py", "_reduce_scatter_base", Equals, kCollective },
    { "distributed_c10d.py", "all_to_all", Prefix, kCollective },
    { "distributed_c10d.py", "broadcast", Prefix, kCollective },
    { "distributed_c10d.py", "barrier", Equals, kCollective },
    { "distributed_c10d.py", "monitored_barrier", Equals, kCollective },
    { "distributed_c10d.py", "_store_based_barrier", Equals, kCollective },
    { "distributed_c10d.py", "send", Prefix, kCollective },
    { "distributed_c10d.py", "recv", Prefix, kCollective },
    { "distributed_c10d.py", "isend", Equals, kCollective },
    { "distributed_c10d.py", "irecv", Equals, kCollective },
    { "distributed_c10d.py", "batch_isend_irecv", Equals, kCollective },
    { "distributed_c10d.py", "gather", Prefix, kCollective },
    { "distributed_c10d.py", "scatter", Prefix, kCollective },
    { "torch/cuda/", "synchronize", Equals, kCollective }, // torch.cuda / Event / Stream
    { "torch/nn/parallel/distributed.py", "_sync", Prefix, kCollective }, // DDP buckets, buffers
    { "fsdp/", "all_gather", Contains, kCollective },
    { "fsdp/", "allgather", Contains, kCollective },
    { "fsdp/", "reduce_scatter", Contains, kCollective },
    { "deepspeed/comm/", "", Any, kCollective },
    { "", "Reducer", Contains, kCollective }, // native c10d::Reducer
    { "", "ProcessGroupNCCL", Contains, kCollective }, // native c10d::ProcessGroupNCCL
    { "", "nccl", Prefix, kCollective }, // native ncclAllReduce, ncclGroupEnd
    { "", "Synchronize", Contains, kCollective }, // cudaStreamSynchronize, cuEvent…
    { "", "_local_scalar_dense", Contains, kCollective }, // tensor.item() after a collective
    // Feeding the model: a straggler.
    { "torch/utils/data/", "", Any, kData },
    { "queue.py", "get", Equals, kData },
    { "queues.py", "get", Equals, kData },
    { "multiprocessing/connection.py", "", Any, kData }, // DataLoader result pipe poll
    { "datasets/", "", Any, kData },
    { "tokenizers/", "", Any, kData },
    { "tokenization_", "", Any, kData },
    // Writing or reading a checkpoint.
    { "torch/serialization.py", "", Any, kCheckpoint },
    { "safetensors/", "", Any, kCheckpoint },
    { "torch/distributed/checkpoint/", "", Any, kCheckpoint },
    { "shutil.py", "copy", Prefix, kCheckpoint },
    { "", "fsync", Contains, kCheckpoint },
    { "", "fdatasync", Contains, kCheckpoint },
    // time.sleep() and input() are builtins: only native frames (py-spy --native) show them.
    { "", "pysleep", Equals, kSleep },
    { "", "time_sleep", Equals, kSleep },
    { "", "builtin_input", Equals, kSleep },
};

bool fileMatches(std::string_view file, std::string_view pattern)
{
    if (pattern.empty())
        return true;
    for (std::size_t at = findLiteral(file, pattern); at != std::string_view::npos;
         at = findLiteral(file, pattern, at + 1))
        if (at == 0 || file[at - 1] == '/' || file[at - 1] == '\\')
            return true;
    return false;
}

bool functionMatches(std::string_view function, const ActivityRule& rule)
{
    switch (rule.match) {
    case Any:
        return true;
    case Equals:
        return function == rule.function;
    case Prefix:
        return function.starts_with(rule.function);
    case Contains:
        return contains(function, rule.function);
    }
    return false;
}

std::string_view toolName(StackTool tool)
{
    switch (tool) {
    case StackTool::PySpy:
        return "py-spy";
    case StackTool::Faulthandler:
        return "faulthandler";
    case StackTool::C10Signal:
        return "c10 signal handler";
    case StackTool::Gdb:
        return "gdb";
    }
    return "stack dump";
}

std::size_t indentation(std::string_view s)
{
    std::size_t n = 0;
    while (n < s.size() && (s[n] == ' ' || s[n] == '\t'))
        ++n;
    return n;
}

std::optional<std::int32_t> toInt32(std::uint64_t v)
{
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
        return std::nullopt;
    return static_cast<std::int32_t>(v);
}

// The body without the leading timestamp the scanner already read ("Apr 14 21:02:39 " of a CI
// log), so the indentation of frames and the line-start grammars line up.
std::string_view withoutLeadingTime(const LineContext& ctx, std::string_view body)
{
    if (!ctx.time.valid())
        return body;
    const SniffedTime sniffed = sniffLeadingTime(body);
    if (sniffed.length == 0 || sniffed.length > body.size())
        return body;
    body.remove_prefix(sniffed.length);
    if (!body.empty() && body.front() == ' ')
        body.remove_prefix(1);
    return body;
}

std::string_view trimEnd(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// "0x7F3C5A1FF700" or "12345" (at most 64 bits either way); returns its length at s[i], 0 when
// neither.
std::size_t threadIdAt(std::string_view s, std::size_t i)
{
    std::size_t j = i;
    if (s.substr(i).starts_with("0x") || s.substr(i).starts_with("0X")) {
        j += 2;
        while (j < s.size() && isHexDigit(s[j]))
            ++j;
        return j > i + 2 && j - i <= 18 ? j - i : 0;
    }
    while (j < s.size() && isDigit(s[j]))
        ++j;
    return j - i <= 20 ? j - i : 0;
}

struct ThreadHeader {
    std::string_view id;
    std::string_view name;
    bool current = false;
};

// py-spy: 'Thread 12345 (active+gil): "MainThread"' / 'Thread 0x7F12 (idle)'.
std::optional<ThreadHeader> pySpyThread(std::string_view s)
{
    if (!s.starts_with("Thread "))
        return std::nullopt;
    const std::size_t idLength = threadIdAt(s, 7);
    if (idLength == 0)
        return std::nullopt;
    ThreadHeader header;
    header.id = s.substr(7, idLength);
    std::string_view rest = s.substr(7 + idLength);
    bool matched = false;
    for (std::string_view status : { " (active+gil)", " (active)", " (idle)" }) {
        if (rest.starts_with(status)) {
            rest.remove_prefix(status.size());
            matched = true;
            break;
        }
    }
    if (!matched)
        return std::nullopt;
    rest = trimEnd(rest);
    if (rest.empty())
        return header;
    if (!rest.starts_with(": \"") || rest.back() != '"' || rest.size() < 4)
        return std::nullopt;
    header.name = rest.substr(3, rest.size() - 4);
    return header;
}

// faulthandler: "Thread 0x00007f… (most recent call first):", "Current thread 0x… (…):",
// "Stack (most recent call first):".
std::optional<ThreadHeader> faultThread(std::string_view s)
{
    constexpr std::string_view kTail = " (most recent call first):";
    s = trimEnd(s);
    if (!s.ends_with(kTail))
        return std::nullopt;
    s.remove_suffix(kTail.size());
    ThreadHeader header;
    if (s == "Stack")
        return header;
    if (s.starts_with("Current thread ")) {
        header.current = true;
        s.remove_prefix(15);
    } else if (s.starts_with("Thread ")) {
        s.remove_prefix(7);
    } else {
        return std::nullopt;
    }
    if (threadIdAt(s, 0) != s.size() || !s.starts_with("0x"))
        return std::nullopt;
    header.id = s;
    return header;
}

struct C10Header {
    std::int32_t pid = -1;
    std::string_view tid;
};

// "SIGABRT(6), PID: 3154296, Thread 3154392: "
std::optional<C10Header> c10Thread(std::string_view s)
{
    if (!s.starts_with("SIG"))
        return std::nullopt;
    std::size_t i = 3;
    while (i < s.size() && isUpper(s[i]))
        ++i;
    if (i == 3 || i >= s.size() || s[i] != '(')
        return std::nullopt;
    ++i;
    if (!readUnsigned(s, i) || !s.substr(i).starts_with("), PID: "))
        return std::nullopt;
    i += 8;
    const auto pid = readUnsigned(s, i);
    if (!pid || !toInt32(*pid) || !s.substr(i).starts_with(", Thread "))
        return std::nullopt;
    i += 9;
    const std::size_t start = i;
    if (!readUnsigned(s, i) || i >= s.size() || s[i] != ':')
        return std::nullopt;
    return C10Header { *toInt32(*pid), s.substr(start, i - start) };
}

// py-spy: "    all_reduce (torch/distributed/distributed_c10d.py:2050)", native
// "    cuStreamSynchronize (libcuda.so.1)".
template <typename FrameT> bool pySpyFrame(std::string_view s, FrameT& frame)
{
    s = trimEnd(trim(s));
    if (s.size() < 4 || s.back() != ')')
        return false;
    const std::size_t open = s.rfind(" (");
    if (open == std::string_view::npos || open == 0)
        return false;
    const std::string_view inner = s.substr(open + 2, s.size() - open - 3);
    if (inner.empty())
        return false;
    frame.function = s.substr(0, open);
    frame.file = inner;
    frame.line = -1;
    if (const std::size_t colon = inner.rfind(':'); colon != std::string_view::npos) {
        std::size_t i = colon + 1;
        const auto line = readUnsigned(inner, i);
        if (line && i == inner.size()) {
            frame.file = inner.substr(0, colon);
            frame.line = toInt32(*line).value_or(-1);
        }
    }
    return !frame.file.empty();
}

// faulthandler: '  File "/path/x.py", line 320 in wait' (no comma before "in", unlike a
// Python traceback); line and names may be "???".
template <typename FrameT> bool faultFrame(std::string_view s, FrameT& frame)
{
    s = trimEnd(trim(s));
    if (!s.starts_with("File "))
        return false;
    s.remove_prefix(5);
    std::string_view file;
    if (s.starts_with("\"")) {
        const std::size_t close = s.find("\", line ", 1);
        if (close == std::string_view::npos)
            return false;
        file = s.substr(1, close - 1);
        s.remove_prefix(close + 8);
    } else if (s.starts_with("???, line ")) {
        file = "???";
        s.remove_prefix(10);
    } else {
        return false;
    }
    std::int32_t line = -1;
    std::size_t i = 0;
    if (const auto value = readUnsigned(s, i))
        line = toInt32(*value).value_or(-1);
    else if (s.starts_with("???"))
        i = 3;
    else
        return false;
    if (!s.substr(i).starts_with(" in "))
        return false;
    frame.file = file;
    frame.line = line;
    frame.function = s.substr(i + 4);
    return !frame.function.empty();
}

// c10: "frame #0: c10::Fn(bool) + 0x8b (0x7fd198b7651b in /…/libc10.so)"; older
// "[18] _PyFunction_Vectorcall+0x10b(0x56428432c4bb) in /opt/conda/bin/python".
template <typename FrameT> bool c10Frame(std::string_view s, FrameT& frame)
{
    s = trimEnd(trim(s));
    std::size_t i = 0;
    if (s.starts_with("frame #")) {
        i = 7;
        if (!readUnsigned(s, i) || !s.substr(i).starts_with(": "))
            return false;
        std::string_view rest = s.substr(i + 2);
        frame.file = {};
        frame.line = -1;
        if (rest.ends_with(")")) {
            if (const std::size_t open = rest.rfind(" (0x"); open != std::string_view::npos) {
                const std::string_view inner = rest.substr(open + 2, rest.size() - open - 3);
                if (const std::size_t in = inner.find(" in "); in != std::string_view::npos)
                    frame.file = inner.substr(in + 4);
                rest = rest.substr(0, open);
            }
        }
        if (const std::size_t plus = rest.rfind(" + 0x"); plus != std::string_view::npos)
            rest = rest.substr(0, plus);
        frame.function = rest;
        return !rest.empty();
    }
    // "[18] fn+0x10b(0x…) in /lib", or the same without "[18] " (a log viewer's line-number
    // prefix has the same shape, and the scanner strips it).
    std::string_view rest = s;
    if (s.starts_with("[")) {
        i = 1;
        if (!readUnsigned(s, i) || !s.substr(i).starts_with("] "))
            return false;
        rest = s.substr(i + 2);
    } else if (!contains(s, "(0x") && !s.ends_with("(0)")) {
        return false;
    }
    frame.file = {};
    frame.line = -1;
    if (const std::size_t in = rest.rfind(") in "); in != std::string_view::npos) {
        frame.file = rest.substr(in + 5);
        rest = rest.substr(0, in);
    }
    if (const std::size_t open = rest.rfind('('); open != std::string_view::npos)
        rest = rest.substr(0, open);
    if (const std::size_t plus = rest.find("+0x"); plus != std::string_view::npos)
        rest = rest.substr(0, plus);
    frame.function = rest;
    return !rest.empty();
}

struct FrameView {
    std::string_view function;
    std::string_view file;
    std::int32_t line = -1;
};

// gdb: "#1  0x00007fff86bdb958 in ncclSocketAccept (listenComm=0x1b0, …) at net_socket.cc:153",
// "#3  bootstrapRecv (…) at bootstrap.cc:332", "#0  0x… in accept () from /lib/libpthread.so.0".
// A frame cut before its arguments end still names its function.
bool gdbFrame(std::string_view s, FrameView& frame)
{
    s = trimEnd(trim(s));
    if (!s.starts_with("#"))
        return false;
    std::size_t i = 1;
    if (!readUnsigned(s, i) || i == 1 || i >= s.size() || s[i] != ' ')
        return false;
    while (i < s.size() && s[i] == ' ')
        ++i;
    std::string_view rest = s.substr(i);
    if (rest.starts_with("0x")) {
        const std::size_t in = rest.find(" in ");
        if (in == std::string_view::npos)
            return false;
        rest = rest.substr(in + 4);
    }
    frame.file = {};
    frame.line = -1;
    if (const std::size_t at = rest.rfind(") at "); at != std::string_view::npos) {
        std::string_view location = rest.substr(at + 5);
        if (const std::size_t colon = location.rfind(':'); colon != std::string_view::npos) {
            std::size_t j = colon + 1;
            if (const auto line = readUnsigned(location, j); line && j == location.size())
                frame.line = toInt32(*line).value_or(-1);
            location = location.substr(0, colon);
        }
        frame.file = location;
    } else if (const std::size_t from = rest.rfind(") from "); from != std::string_view::npos) {
        frame.file = rest.substr(from + 7);
    }
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != ' ' && rest[end] != '(')
        ++end;
    frame.function = rest.substr(0, end);
    return !frame.function.empty();
}

// "Timeout (0:05:00)!" — faulthandler.dump_traceback_later.
bool faultTimeout(std::string_view s)
{
    s = trimEnd(s);
    return s.starts_with("Timeout (") && s.ends_with(")!") && s.size() < 32;
}

} // namespace

bool StackDumpParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::string_view text = withoutLeadingTime(ctx, body);
    if (m_open.empty()) {
        // Every dump starts with a header at the line start: one byte rejects most lines.
        if (text.empty())
            return false;
        const char c = text.front();
        if (c != 'P' && c != 'T' && c != 'F' && c != 'C' && c != 'S' && c != 'W' && c != '#')
            return false;
    } else {
        closeStale(ctx, out);
    }

    if (header(ctx, text, out))
        return true;
    auto it = m_open.find(ctx.identity);
    if (it == m_open.end())
        return false;
    Dump& dump = it->second;
    if (trim(text).empty()) {
        dump.blankPending = true;
        dump.lastLine = ctx.lineNo;
        return true;
    }
    if (continuation(dump, text)) {
        dump.blankPending = false;
        dump.foreignLines = 0;
        dump.lastLine = ctx.lineNo;
        return true;
    }
    if (dump.blankPending || ++dump.foreignLines > kMaxForeignLines)
        close(ctx.identity, out);
    return false;
}

void StackDumpParser::finish(model::ParsedSource& out)
{
    std::vector<std::uint32_t> streams;
    streams.reserve(m_open.size());
    for (const auto& [stream, dump] : m_open)
        streams.push_back(stream);
    // Report in input order, not hash order.
    std::sort(streams.begin(), streams.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_open.at(a).evidence.line < m_open.at(b).evidence.line;
    });
    for (std::uint32_t stream : streams)
        close(stream, out);
}

StackDumpParser::Dump& StackDumpParser::open(
    const LineContext& ctx, StackTool tool, std::int32_t pid)
{
    Dump& dump = m_open[ctx.identity];
    dump = Dump {};
    dump.tool = tool;
    dump.pid = pid;
    dump.evidence = ctx.evidence();
    dump.time = ctx.bestTime();
    dump.identity = ctx.identity;
    dump.lastLine = ctx.lineNo;
    return dump;
}

void StackDumpParser::close(std::uint32_t streamIdentity, model::ParsedSource& out)
{
    auto it = m_open.find(streamIdentity);
    if (it == m_open.end())
        return;
    report(it->second, out);
    m_open.erase(it);
}

void StackDumpParser::closeStale(const LineContext& ctx, model::ParsedSource& out)
{
    if (ctx.lineNo < m_nextStaleCheck)
        return;
    m_nextStaleCheck = ctx.lineNo + kStaleCheckEvery;
    std::vector<std::uint32_t> stale;
    for (const auto& [stream, dump] : m_open)
        if (ctx.lineNo > dump.lastLine + kStaleLines)
            stale.push_back(stream);
    std::sort(stale.begin(), stale.end());
    for (std::uint32_t stream : stale)
        close(stream, out);
}

// Lines that start a dump or a thread of one. Returns true when `text` was one.
bool StackDumpParser::header(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    if (text.empty())
        return false;
    auto current = [&]() -> Dump* {
        auto it = m_open.find(ctx.identity);
        return it == m_open.end() ? nullptr : &it->second;
    };
    auto addThread = [](Dump& dump, std::string_view id, std::string_view name, bool isCurrent) {
        if (dump.threads.size() >= kMaxThreads)
            return;
        Thread& thread = dump.threads.emplace_back();
        thread.id = id;
        thread.name = name;
        thread.current = isCurrent;
        dump.inLocals = false;
        dump.inNativeStack = false;
    };
    // A dump of `tool` to add a thread to: the open one if it is of that tool, else a new one.
    auto dumpFor = [&](StackTool tool) -> Dump& {
        Dump* dump = current();
        if (dump && dump->tool == tool)
            return *dump;
        close(ctx.identity, out);
        return open(ctx, tool, -1);
    };
    auto touch = [&](Dump& dump) {
        dump.blankPending = false;
        dump.foreignLines = 0;
        dump.lastLine = ctx.lineNo;
    };

    switch (text.front()) {
    case 'P': {
        // py-spy "Process 12345: python train.py …"
        if (!text.starts_with("Process "))
            return false;
        std::size_t i = 8;
        const auto pid = readUnsigned(text, i);
        if (!pid || !toInt32(*pid) || !text.substr(i).starts_with(":"))
            return false;
        close(ctx.identity, out);
        open(ctx, StackTool::PySpy, *toInt32(*pid));
        return true;
    }
    case 'T':
        if (const auto thread = pySpyThread(text)) {
            Dump& dump = dumpFor(StackTool::PySpy);
            // The main thread's native id is the pid when py-spy's "Process" line is missing.
            if (dump.pid < 0 && thread->name == "MainThread" && !thread->id.starts_with("0x")) {
                std::size_t i = 0;
                if (const auto id = readUnsigned(thread->id, i))
                    dump.pid = toInt32(*id).value_or(-1);
            }
            addThread(dump, thread->id, thread->name, false);
            touch(dump);
            return true;
        }
        if (const auto thread = faultThread(text)) {
            Dump& dump = dumpFor(StackTool::Faulthandler);
            addThread(dump, thread->id, {}, thread->current);
            touch(dump);
            return true;
        }
        if (faultTimeout(text)) {
            close(ctx.identity, out);
            open(ctx, StackTool::Faulthandler, -1);
            return true;
        }
        return false;
    case 'C':
    case 'S':
        if (const auto thread = faultThread(text)) {
            Dump& dump = dumpFor(StackTool::Faulthandler);
            addThread(dump, thread->id, {}, thread->current);
            touch(dump);
            return true;
        }
        if (const auto c10 = c10Thread(text)) {
            Dump* dump = current();
            if (!dump || dump->tool != StackTool::C10Signal || dump->pid != c10->pid) {
                close(ctx.identity, out);
                dump = &open(ctx, StackTool::C10Signal, c10->pid);
            }
            addThread(*dump, c10->tid, {}, false);
            touch(*dump);
            return true;
        }
        return false;
    case '#': {
        // gdb's innermost frame opens a backtrace (or a thread of "thread apply all bt"
        // whose "Thread N (…):" line opened the dump); later frames are continuations.
        if (!text.starts_with("#0 "))
            return false;
        FrameView view;
        if (!gdbFrame(text, view))
            return false;
        Dump* dump = current();
        if (!dump || dump->tool != StackTool::Gdb) {
            close(ctx.identity, out);
            dump = &open(ctx, StackTool::Gdb, -1);
        }
        if (dump->threads.empty() || !dump->threads.back().frames.empty())
            addThread(*dump, {}, {}, false);
        dump->threads.back().frames.push_back(
            Frame { std::string(view.function), std::string(view.file), view.line });
        touch(*dump);
        return true;
    }
    case 'F':
    case 'W':
        if (text.starts_with("Fatal Python error: ")
            || text.starts_with("Windows fatal exception: ")) {
            close(ctx.identity, out);
            open(ctx, StackTool::Faulthandler, -1);
            return true;
        }
        return false;
    default:
        return false;
    }
}

// A line inside an open dump that is not a header: a frame or one of the tool's other lines.
bool StackDumpParser::continuation(Dump& dump, std::string_view text)
{
    const std::size_t indent = indentation(text);
    const std::string_view trimmed = trimEnd(text.substr(indent));
    Thread* thread = dump.threads.empty() ? nullptr : &dump.threads.back();
    auto push = [&](const FrameView& view) {
        if (thread && thread->frames.size() < kMaxFrames)
            thread->frames.push_back(
                Frame { std::string(view.function), std::string(view.file), view.line });
    };
    FrameView view;

    switch (dump.tool) {
    case StackTool::PySpy:
        if (indent == 0) {
            if (trimmed.starts_with("Python v") || trimmed.starts_with("Parent Process ")
                || (trimmed.size() >= 10 && trimmed.find_first_not_of('-') == std::string_view::npos))
                return true;
            // A paste that lost its leading blanks (a chat or a form that trims lines): py-spy
            // indents every frame, so a frame at the margin right under its thread's header,
            // and the ones after it, are that paste's.
            if (thread && (thread->frames.empty() || dump.framesUnindented) && !dump.inLocals
                && pySpyFrame(trimmed, view)) {
                dump.framesUnindented = true;
                push(view);
                return true;
            }
            return false;
        }
        if (trimmed.starts_with("Arguments:") || trimmed.starts_with("Locals:")) {
            dump.inLocals = true;
            return true;
        }
        if (indent >= 8 && dump.inLocals)
            return true;
        if (thread && indent < 8 && pySpyFrame(trimmed, view)) {
            dump.inLocals = false;
            push(view);
            return true;
        }
        return false;
    case StackTool::Faulthandler:
        if (indent == 0) {
            if (trimmed == "...") {
                dump.threadListCut = true;
                return true;
            }
            if (trimmed.starts_with("Current thread's C stack trace")) {
                dump.inNativeStack = true;
                return true;
            }
            return trimmed.starts_with("Python runtime state:")
                || trimmed.starts_with("Extension modules:")
                || trimmed.starts_with("<Cannot show all threads");
        }
        if (dump.inNativeStack)
            return trimmed.starts_with("Binary file ") || trimmed.starts_with("<");
        if (thread && faultFrame(trimmed, view)) {
            push(view);
            return true;
        }
        return trimmed == "..." || trimmed == "Garbage-collecting" || trimmed == "<no Python frame>"
            || trimmed == "<tstate is freed>";
    case StackTool::C10Signal:
        if (thread && c10Frame(trimmed, view)) {
            push(view);
            return true;
        }
        return trimmed.starts_with("signal lost waiting for stacktrace");
    case StackTool::Gdb:
        if (thread && gdbFrame(trimmed, view)) {
            push(view);
            return true;
        }
        return false;
    }
    return false;
}

void StackDumpParser::report(const Dump& dump, model::ParsedSource& out)
{
    if (dump.threads.empty())
        return;

    // Which thread is the main one (see the header for why per tool).
    int main = -1;
    const auto threadCount = static_cast<int>(dump.threads.size());
    switch (dump.tool) {
    case StackTool::PySpy: {
        const std::string pid = std::to_string(dump.pid);
        for (int i = 0; i < threadCount && main < 0; ++i)
            if (dump.threads[static_cast<std::size_t>(i)].name == "MainThread")
                main = i;
        for (int i = 0; i < threadCount && main < 0; ++i)
            if (dump.pid >= 0 && dump.threads[static_cast<std::size_t>(i)].id == pid)
                main = i;
        if (main < 0)
            main = 0;
        break;
    }
    case StackTool::Faulthandler:
        if (!dump.threadListCut) {
            main = threadCount - 1;
        } else {
            for (int i = 0; i < threadCount && main < 0; ++i)
                if (dump.threads[static_cast<std::size_t>(i)].current)
                    main = i;
        }
        break;
    case StackTool::Gdb:
        main = 0;
        break;
    case StackTool::C10Signal: {
        const std::string pid = std::to_string(dump.pid);
        for (int i = 0; i < threadCount && main < 0; ++i)
            if (dump.threads[static_cast<std::size_t>(i)].id == pid)
                main = i;
        if (main < 0)
            main = 0;
        break;
    }
    }

    std::uint32_t identity = dump.identity;
    if (dump.pid >= 0 && identity < out.identities.size()) {
        model::RawIdentity id = out.identities[identity];
        id.pid = dump.pid;
        identity = out.identityIndex(id);
    }

    model::StackDump& record = out.stackDumps.emplace_back();
    record.identity = identity;
    record.evidence = dump.evidence;
    record.time = dump.time;
    record.tool = dump.tool;
    record.pid = dump.pid;

    StackActivity activity = StackActivity::Unknown;
    const Frame* shown = nullptr;
    if (main >= 0) {
        const Thread& thread = dump.threads[static_cast<std::size_t>(main)];
        record.threadName = out.intern(thread.name.empty() ? thread.id : thread.name);
        record.mainThread.reserve(thread.frames.size());
        for (const Frame& frame : thread.frames)
            record.mainThread.push_back(model::StackFrame {
                out.intern(frame.function), out.intern(frame.file), frame.line });
        // Communicator creation anywhere in the stack decides first: its innermost frames are
        // NCCL's own socket calls (ncclSocketAccept), which read as a collective otherwise,
        // and PyTorch creates communicators lazily inside the first collective.
        for (const bool initPass : { true, false }) {
            for (const Frame& frame : thread.frames) {
                for (const ActivityRule& rule : kActivityRules) {
                    if ((rule.activity == kNcclInit) == initPass && fileMatches(frame.file, rule.file)
                        && functionMatches(frame.function, rule)) {
                        activity = rule.activity;
                        shown = &frame;
                        break;
                    }
                }
                if (shown)
                    break;
            }
            if (shown)
                break;
        }
        if (!shown && !thread.frames.empty()) {
            activity = StackActivity::Other;
            // Skip the signal handler's own frames: they say nothing about the process.
            for (const Frame& frame : thread.frames) {
                if (!contains(frame.function, "SignalHandler")
                    && frame.function != "<unknown function>" && frame.function != "???") {
                    shown = &frame;
                    break;
                }
            }
            if (!shown)
                shown = &thread.frames.front();
        }
    }
    record.activity = activity;

    std::string summary(toolName(dump.tool));
    if (main < 0) {
        summary += ": main thread not found";
    } else if (!shown) {
        summary += ": main thread has no frames";
    } else {
        summary += ": main thread in ";
        summary += shown->function;
        if (!shown->file.empty()) {
            summary += " (";
            summary += shown->file;
            if (shown->line >= 0) {
                summary += ':';
                summary += std::to_string(shown->line);
            }
            summary += ')';
        }
    }

    const bool straggler = activity == StackActivity::DataLoading
        || activity == StackActivity::CheckpointIo || activity == StackActivity::Sleeping
        || activity == StackActivity::Other;
    model::Event& e = out.events.emplace_back();
    e.kind = model::EventKind::StackDump;
    e.severity = straggler ? model::Severity::Warning : model::Severity::Info;
    e.evidence = dump.evidence;
    e.identity = identity;
    e.time = dump.time;
    e.code = static_cast<std::int32_t>(activity);
    e.pid = dump.pid;
    e.text = out.intern(std::string_view(summary).substr(0, kMaxEventText));
}

} // namespace rankscope::parsers
