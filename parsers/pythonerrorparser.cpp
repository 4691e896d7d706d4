#include "parsers/pythonerrorparser.h"

#include "parsers/textscan.h"

#include <algorithm>
#include <cstring>

namespace rankscope::parsers {

using model::EventKind;
using model::Severity;

namespace {

// Keywords of the one-pass prefilter. Every keyword is at least 4 bytes long because the
// filter hashes 4-byte windows.
enum Keyword : unsigned {
    kwTraceback,
    kwCudaOom,
    kwCudaError,
    kwCublas,
    kwIllegalAccess,
    kwEcc,
    kwDeviceAssert,
    kwAdviceAsync,
    kwAdviceBlocking,
    kwAdviceDsa,
    kwFatalPython,
    kwSignalName, // "Signal 6 (SIGABRT) received by PID 2385923"
    kwC10Signal, // "SIGABRT(6), PID: 3154296, Thread 3154392:"
    kwCoreDumped,
    kwKilled,
    kwSegfault,
    kwAborted,
    kwBusError,
    kwKernelAssertion,
    kwIllegalInstruction,
    kwArgparseError,
    kwWorkerBusError, // PyTorch's DataLoader worker reporting its own SIGBUS
    kwCudaCheckExit,  // the CUDACHECK idiom: printf("Failed: Cuda error %s:%d '%s'"), exit(1)
    kwCount
};

constexpr std::array<std::string_view, kwCount> kKeywords = {
    "Traceback (most recent call last):",
    "CUDA out of memory",
    "CUDA error",
    "CUBLAS_STATUS_",
    "an illegal memory access was encountered",
    "uncorrectable ECC error encountered",
    "device-side assert triggered",
    "CUDA kernel errors might be asynchronously reported",
    "CUDA_LAUNCH_BLOCKING",
    "TORCH_USE_CUDA_DSA",
    "Fatal Python error: ",
    "(SIG",
    "), PID: ",
    "(core dumped)",
    "Killed",
    "Segmentation fault",
    "Aborted",
    "Bus error",
    "Assertion `",
    "an illegal instruction was encountered",
    ": error: ",
    "Unexpected bus error encountered in worker",
    "Failed: Cuda error ",
};

constexpr std::uint64_t bit(Keyword k)
{
    return std::uint64_t { 1 } << k;
}

constexpr std::uint64_t kCudaErrorBits = bit(kwCudaError) | bit(kwCublas) | bit(kwIllegalAccess) | bit(kwEcc)
    | bit(kwDeviceAssert) | bit(kwKernelAssertion) | bit(kwIllegalInstruction) | bit(kwCudaCheckExit);
constexpr std::uint64_t kAdviceBits = bit(kwAdviceAsync) | bit(kwAdviceBlocking) | bit(kwAdviceDsa);
constexpr std::uint64_t kSignalWordBits
    = bit(kwCoreDumped) | bit(kwKilled) | bit(kwSegfault) | bit(kwAborted) | bit(kwBusError);
constexpr std::uint64_t kFatalBits
    = bit(kwFatalPython) | bit(kwSignalName) | bit(kwC10Signal) | kSignalWordBits | bit(kwWorkerBusError);

constexpr std::string_view kMarker = "Traceback (most recent call last):";

// Bounds that keep hostile or cut-off input cheap.
constexpr std::size_t kMaxLead = 200; // longer text before a marker is not a lead
constexpr std::size_t kMaxFrames = 256; // outermost half and innermost half are kept
constexpr unsigned kMaxMessageLines = 64; // c10 messages carry ~30 "frame #N" lines
constexpr unsigned kMaxForeignLines = 50; // lines of other output inside one traceback

// The text from `pos` on; empty for npos (substr would throw).
std::string_view from(std::string_view s, std::size_t pos)
{
    return pos <= s.size() ? s.substr(pos) : std::string_view {};
}

// The text from the first `word` on, or nothing. Never hands npos to substr (which throws).
std::string_view tailFrom(std::string_view text, std::string_view word)
{
    const std::size_t pos = findLiteral(text, word);
    return pos == std::string_view::npos ? std::string_view {} : text.substr(pos);
}

std::size_t leadingSpaces(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    return i;
}

bool startsWithAny(std::string_view s, std::initializer_list<std::string_view> prefixes)
{
    for (std::string_view p : prefixes)
        if (s.starts_with(p))
            return true;
    return false;
}

// The lead repeats on every line with only its digits changing (a log envelope's clock).
bool sameLead(std::string_view candidate, std::string_view lead)
{
    if (candidate.size() < lead.size())
        return false;
    for (std::size_t i = 0; i < lead.size(); ++i) {
        const char a = candidate[i];
        const char b = lead[i];
        if (a != b && !(isDigit(a) && isDigit(b)))
            return false;
    }
    return true;
}

// "=====…" and "-----…" rules (torchrun's ChildFailedError table, Open MPI banners).
bool isRule(std::string_view s)
{
    if (s.size() < 5 || (s[0] != '=' && s[0] != '-'))
        return false;
    return std::all_of(s.begin(), s.end(), [c = s[0]](char x) { return x == c; });
}

bool isNcclLine(std::string_view s)
{
    return contains(s, " NCCL WARN ") || contains(s, " NCCL INFO ");
}

bool endsWithWord(std::string_view s, std::string_view word)
{
    return s.size() >= word.size() && s.substr(s.size() - word.size()) == word;
}

// A Python exception type whose class name reads like one: "RuntimeError",
// "torch.OutOfMemoryError".
bool plausibleExceptionType(std::string_view type, bool rightAfterFrames)
{
    if (rightAfterFrames || contains(type, "."))
        return true;
    for (std::string_view suffix :
        { "Error", "Exception", "Interrupt", "Exit", "Iteration", "Warning", "Failure" })
        if (endsWithWord(type, suffix))
            return true;
    return false;
}

struct SignalWord {
    std::string_view word;
    std::int32_t signal;
};

// What shells, faulthandler and srun print for a process killed by a signal.
constexpr std::array<SignalWord, 6> kSignalWords = { {
    { "Segmentation fault", 11 },
    { "Aborted", 6 },
    { "Bus error", 7 },
    { "Killed", 9 },
    { "Floating point exception", 8 },
    { "Illegal instruction", 4 },
} };

std::int32_t signalStartingText(std::string_view s)
{
    for (const auto& w : kSignalWords)
        if (s.starts_with(w.word))
            return w.signal;
    return -1;
}

std::int32_t signalEndingText(std::string_view s, std::size_t& wordStart)
{
    for (const auto& w : kSignalWords)
        if (endsWithWord(s, w.word)) {
            wordStart = s.size() - w.word.size();
            return w.signal;
        }
    return -1;
}

std::int32_t clampToInt32(std::uint64_t v)
{
    return v > 0x7fffffffull ? -1 : static_cast<std::int32_t>(v);
}

// bash's job report "…: line 12: 4242 Killed   python x.py": the pid before the signal word.
std::int32_t bashJobPid(std::string_view text, std::size_t wordStart)
{
    std::size_t i = wordStart;
    if (i == 0 || text[i - 1] != ' ')
        return -1;
    while (i > 0 && text[i - 1] == ' ')
        --i;
    const std::size_t digitsEnd = i;
    while (i > 0 && isDigit(text[i - 1]))
        --i;
    if (i == digitsEnd || i < 2 || text.substr(i - 2, 2) != ": ")
        return -1;
    // "line 12" right before the ": "
    std::size_t j = i - 2;
    const std::size_t lineDigitsEnd = j;
    while (j > 0 && isDigit(text[j - 1]))
        --j;
    if (j == lineDigitsEnd || j < 5 || text.substr(j - 5, 5) != "line ")
        return -1;
    std::size_t k = i;
    const auto pid = readUnsigned(text, k);
    return pid ? clampToInt32(*pid) : -1;
}

// c10's fatal-signal handler: "SIGABRT(6), PID: 3154296, Thread 3154392: "
std::int32_t parseC10Signal(std::string_view text, std::int32_t& pid)
{
    const std::size_t close = findLiteral(text, "), PID: ");
    if (close == std::string_view::npos)
        return -1;
    std::size_t i = close;
    while (i > 0 && isDigit(text[i - 1]))
        --i;
    if (i == close || i < 5 || text[i - 1] != '(')
        return -1;
    std::size_t nameStart = i - 1;
    while (nameStart > 0 && isUpper(text[nameStart - 1]))
        --nameStart;
    if (!text.substr(nameStart).starts_with("SIG"))
        return -1;
    std::size_t j = i;
    const auto signal = readUnsigned(text, j);
    std::size_t k = close + 8;
    const auto p = readUnsigned(text, k);
    if (!signal || !p)
        return -1;
    pid = clampToInt32(*p);
    return clampToInt32(*signal);
}

// torchrun's ProcessFailure message: "Signal 6 (SIGABRT) received by PID 2385923"
std::int32_t parseSignalReceived(std::string_view text, std::int32_t& pid)
{
    for (std::size_t pos = findLiteral(text, "Signal "); pos != std::string_view::npos;
         pos = findLiteral(text, "Signal ", pos + 7)) {
        std::size_t i = pos + 7;
        const auto signal = readUnsigned(text, i);
        if (!signal || !text.substr(i).starts_with(" (SIG"))
            continue;
        i += 5;
        while (i < text.size() && isUpper(text[i]))
            ++i;
        if (!text.substr(i).starts_with(") received by PID "))
            continue;
        i += 18;
        const auto p = readUnsigned(text, i);
        if (!p)
            continue;
        pid = clampToInt32(*p);
        return clampToInt32(*signal);
    }
    return -1;
}

// The shell's or srun's report of a child killed by a signal:
//   "Segmentation fault (core dumped)", "srun: error: n1: task 3: Aborted (core dumped)",
//   "bash: line 1: 4242 Killed                  python train.py", "Killed" alone.
// A DataLoader worker died of SIGBUS (torch/csrc/DataLoader.cpp): its own handler prints "ERROR:
// Unexpected bus error encountered in worker. This might be caused by insufficient shared memory
// (shm).", and the main process raises "DataLoader worker (pid 4242) is killed by signal: Bus
// error. It is possible that dataloader's workers are out of shared memory." Workers hand their
// batches over in /dev/shm, so a full tmpfs there is what kills them. Other signals a worker dies
// of (Killed: the host's OOM killer) name no such cause and are not read here.
std::int32_t parseDataLoaderBusError(std::string_view text, std::int32_t& pid)
{
    if (findLiteral(text, "Unexpected bus error encountered in worker") != std::string_view::npos)
        return 7;
    constexpr std::string_view kWorker = "DataLoader worker (pid ";
    const std::size_t at = findLiteral(text, kWorker);
    if (at == std::string_view::npos)
        return -1;
    std::size_t i = at + kWorker.size();
    const auto worker = readUnsigned(text, i);
    if (!worker || !text.substr(i).starts_with(") is killed by signal: Bus error"))
        return -1;
    pid = clampToInt32(*worker);
    return 7;
}

std::int32_t parseShellReport(std::string_view text, std::int32_t& pid)
{
    const std::string_view trimmed = trim(text);
    if (const std::size_t core = findLiteral(trimmed, "(core dumped)");
        core != std::string_view::npos) {
        std::string_view before = trimmed.substr(0, core);
        while (!before.empty() && before.back() == ' ')
            before.remove_suffix(1);
        std::size_t wordStart = 0;
        const std::int32_t signal = signalEndingText(before, wordStart);
        if (signal >= 0)
            pid = bashJobPid(trimmed, wordStart);
        return signal;
    }
    for (const auto& w : kSignalWords) {
        if (trimmed == w.word)
            return w.signal;
    }
    // UCX's handler (ucs/debug/debug.c), loaded with NCCL's or MPI's UCX plugins: "[host:pid:tid]
    // Caught signal 7 (Bus error: nonexistent physical address)"; its si_code line alone reads
    // "Bus error: nonexistent physical address" / "Segmentation fault: address not mapped …".
    if (const std::size_t caught = findLiteral(trimmed, "Caught signal "); caught != std::string_view::npos) {
        std::size_t i = caught + 14;
        if (const auto number = readUnsigned(trimmed, i); number && *number < 65 && trimmed.substr(i).starts_with(" ("))
            return static_cast<std::int32_t>(*number);
    }
    for (const auto& w : kSignalWords) {
        if (trimmed.starts_with(w.word) && trimmed.substr(w.word.size()).starts_with(": ") && w.signal != 9
            && w.signal != 6)
            return w.signal;
    }
    // bash's report without a core dump: "…: line 12: 4242 Killed   python x.py"
    for (const auto& w : kSignalWords) {
        for (std::size_t pos = findLiteral(trimmed, w.word); pos != std::string_view::npos;
             pos = findLiteral(trimmed, w.word, pos + 1)) {
            const std::int32_t p = bashJobPid(trimmed, pos);
            if (p >= 0) {
                pid = p;
                return w.signal;
            }
        }
    }
    return -1;
}

model::Event& addEventAt(model::ParsedSource& out, const LineContext& ctx, EventKind kind,
    Severity severity, std::string_view text)
{
    return addEvent(out, ctx, kind, severity, trim(text));
}

} // namespace

const KeywordSet& pythonErrorKeywords()
{
    static const KeywordSet set(std::vector<std::string_view>(kKeywords.begin(), kKeywords.end()));
    return set;
}

PythonErrorParser::PythonErrorParser()
    : m_keywords(pythonErrorKeywords())
{
}

bool PythonErrorParser::splitExceptionLine(
    std::string_view line, std::string_view& type, std::string_view& message)
{
    std::string_view s = line;
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    std::size_t i = 0;
    std::size_t lastComponent = 0;
    for (;;) {
        if (i >= s.size() || !(isAlpha(s[i]) || s[i] == '_'))
            return false;
        lastComponent = i;
        while (i < s.size() && (isAlnum(s[i]) || s[i] == '_'))
            ++i;
        if (i + 1 < s.size() && s[i] == '.' && (isAlpha(s[i + 1]) || s[i + 1] == '_')) {
            ++i;
            continue;
        }
        break;
    }
    // Class names are CamelCase: rejects "INFO:", "ERROR:" and "loss: 0.3".
    const std::string_view name = s.substr(lastComponent, i - lastComponent);
    if (!isUpper(name.front()) || std::none_of(name.begin(), name.end(), isLower))
        return false;
    if (i == s.size()) {
        type = s;
        message = {};
        return true;
    }
    if (s[i] != ':' || (i + 1 < s.size() && s[i + 1] != ' '))
        return false;
    type = s.substr(0, i);
    message = trim(s.substr(i + 1));
    return true;
}

bool PythonErrorParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    std::string_view text = body;
    if (!m_blocks.empty()) {
        auto it = m_blocks.find(ctx.identity);
        if (it != m_blocks.end()) {
            bool closeNow = false;
            const BlockLine kind = feedBlock(it->second, ctx, body, text, closeNow, out);
            if (closeNow) {
                closeBlock(it->second, out);
                m_blocks.erase(it);
            }
            if (kind == BlockLine::Frame)
                return true;
            if (kind == BlockLine::Text) {
                scanErrors(ctx, text, findKeywords(text), out);
                return true;
            }
            text = body;
        }
    }

    // The program argparse names in its usage line, for the error line after it.
    if (text.starts_with("usage: ")) {
        const std::string_view rest = text.substr(7);
        m_usageProg[ctx.identity] = std::string(rest.substr(0, rest.find(' ')));
        return false;
    }
    const std::uint64_t found = findKeywords(text);
    if (found & bit(kwTraceback)) {
        const std::size_t pos = findLiteral(text, kMarker);
        // Only a marker that ends the line opens a block: "…\"py_callstack\": \"Traceback (most
        // recent call last):\\n  File…" in a printed error.json does not.
        const std::string_view before = text.substr(0, pos);
        if (trim(from(text, pos + kMarker.size())).empty()
            && !endsWithWord(before, "Exception Group ")) {
            openBlock(ctx, text, pos, out);
            return true;
        }
    }
    if (found & bit(kwArgparseError))
        if (emitArgparseError(ctx, trim(text), out))
            return true;
    return scanErrors(ctx, text, found, out);
}

// argparse's error(): "usage: train.py [-h] [--local_rank LOCAL_RANK]" then "train.py: error:
// unrecognized arguments: --local-rank=0", and the process exits with status 2 (Lib/argparse.py).
// The script refused the command line it was started with: every worker started the same way
// does the same. The program is a script ("….py") or the one the usage line before named.
bool PythonErrorParser::emitArgparseError(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    const std::size_t colon = findLiteral(text, ": error: ");
    const std::string_view prog = text.substr(0, colon);
    if (prog.empty() || prog.find(' ') != std::string_view::npos)
        return false;
    auto usage = m_usageProg.find(ctx.identity);
    const bool known = usage != m_usageProg.end() && usage->second == prog;
    if (!prog.ends_with(".py") && !known)
        return false;
    model::Event& e = addEventAt(out, ctx, EventKind::PythonException, Severity::Error, text.substr(colon + 2));
    e.detail = out.intern(model::kArgparseRefusal);
    e.code = 2;
    return true;
}

PythonErrorParser::BlockLine PythonErrorParser::feedBlock(Block& block, const LineContext& ctx,
    std::string_view body, std::string_view& text, bool& closeNow, model::ParsedSource& out)
{
    bool leadMatched = false;
    text = body;
    if (!block.lead.empty()) {
        if (sameLead(body, block.lead)) {
            leadMatched = true;
            block.leadRepeats = true;
            text = body.substr(block.lead.size());
        } else if (block.leadIndent > 0 && leadingSpaces(body) >= block.leadIndent) {
            text = body.substr(block.leadIndent);
        }
    }

    const std::size_t marker = findLiteral(text, kMarker);
    if (marker != std::string_view::npos && trim(text.substr(marker + kMarker.size())).empty()) {
        closeNow = true; // a new traceback starts (the scanner's fresh path opens it)
        return BlockLine::NotMine;
    }
    const std::string_view trimmed = trim(text);
    if (trimmed.starts_with("During handling of the above exception")
        || trimmed.starts_with("The above exception was the direct cause")) {
        closeNow = true;
        return BlockLine::Frame;
    }

    if (block.stage == Stage::Frames) {
        if (block.leadRepeats && !leadMatched) {
            // Another writer's line inside a prefixed traceback.
            if (++block.foreignLines > kMaxForeignLines)
                closeNow = true;
            return BlockLine::NotMine;
        }
        const std::size_t indent = leadingSpaces(text);
        const std::string_view rest = text.substr(indent);
        // Pasted tracebacks often lost their indentation: "File \"…\", line 94, in main" at the
        // line's start is still a frame.
        if (rest.starts_with("File \"")) {
            addFrame(block, rest, out);
            block.foreignLines = 0;
            return BlockLine::Frame;
        }
        if (indent >= 2 && !rest.empty()) {
            // Source line, caret line, "[Previous line repeated 996 more times]".
            block.foreignLines = 0;
            return BlockLine::Frame;
        }
        std::string_view type;
        std::string_view message;
        if (indent == 0 && splitExceptionLine(text, type, message)
            && plausibleExceptionType(type, block.foreignLines == 0)) {
            block.stage = Stage::Message;
            block.exceptionType.assign(type);
            block.message.assign(message.substr(0, kMaxEventText));
            block.record.exceptionLine = ctx.evidence();
            block.exceptionTime = ctx.bestTime();
            return BlockLine::Text;
        }
        if (++block.foreignLines > kMaxForeignLines)
            closeNow = true;
        return BlockLine::NotMine;
    }

    // Stage::Message: the exception message may go on over further lines until something
    // that is clearly not part of it.
    // A logger that repeats its header on every line of a record (vLLM) starts another
    // record with another header: "INFO … [launcher.py:80] Shutting down." after the error.
    const bool otherRecord = !block.loggerHeader.empty() && !ctx.prefix.loggerHeader.empty()
        && !sameLead(ctx.prefix.loggerHeader, block.loggerHeader);
    const bool ends = trimmed.empty() || (block.leadRepeats && !leadMatched) || otherRecord
        || (!leadMatched && ctx.time.valid()) || isRule(trimmed)
        || startsWithAny(trimmed,
            { "INFO:", "WARNING:", "ERROR:", "DEBUG:", "CRITICAL:", "[E ", "[W ", "[I ", "[F " })
        || isNcclLine(text);
    if (ends) {
        closeNow = true;
        return BlockLine::NotMine;
    }
    if (block.message.size() + 1 + trimmed.size() <= kMaxEventText) {
        if (!block.message.empty())
            block.message += '\n';
        block.message.append(trimmed);
    } else {
        closeNow = true;
    }
    if (++block.messageLines >= kMaxMessageLines)
        closeNow = true;
    return BlockLine::Text;
}

void PythonErrorParser::addFrame(Block& block, std::string_view rest, model::ParsedSource& out)
{
    // rest = `File "/x/train.py", line 120, in train_step` (faulthandler omits the comma,
    // SyntaxError frames omit the function).
    const std::string_view s = rest.substr(6);
    std::size_t pathEnd = findLiteral(s, "\", line ");
    if (pathEnd == std::string_view::npos)
        pathEnd = std::min(s.find('"'), s.size());
    model::StackFrame frame;
    frame.file = out.intern(s.substr(0, pathEnd));
    std::size_t i = pathEnd;
    if (s.substr(i).starts_with("\", line ")) {
        i += 8;
        if (const auto line = readUnsigned(s, i))
            frame.line = clampToInt32(*line);
        std::string_view tail = s.substr(i);
        if (tail.starts_with(", in "))
            frame.function = out.intern(trim(tail.substr(5)));
        else if (tail.starts_with(" in "))
            frame.function = out.intern(trim(tail.substr(4)));
    }
    auto& frames = block.record.frames;
    // Deep recursion: keep the outermost and the innermost frames, drop the middle.
    if (frames.size() >= kMaxFrames)
        frames.erase(frames.begin() + kMaxFrames / 2);
    frames.push_back(frame);
}

void PythonErrorParser::openBlock(
    const LineContext& ctx, std::string_view text, std::size_t markerPos, model::ParsedSource& out)
{
    Block block;
    block.record.identity = ctx.identity;
    block.record.evidence = ctx.evidence();
    block.record.time = ctx.bestTime();
    block.truncationSample = out.sampleAt(ctx.lineNo, ctx.line);
    block.loggerHeader.assign(ctx.prefix.loggerHeader);
    if (markerPos > 0 && markerPos <= kMaxLead) {
        block.lead.assign(text.substr(0, markerPos));
        block.leadIndent = leadingSpaces(block.lead);
    }
    m_blocks.insert_or_assign(ctx.identity, std::move(block));
}

void PythonErrorParser::closeBlock(Block& block, model::ParsedSource& out)
{
    model::PythonTraceback& record = out.tracebacks.emplace_back(std::move(block.record));
    if (block.stage == Stage::Frames) {
        out.issues.add("truncated_traceback", std::move(block.truncationSample));
        return;
    }
    record.exceptionType = out.intern(block.exceptionType);
    record.message = out.intern(block.message);

    model::Event& e = out.events.emplace_back();
    e.kind = EventKind::PythonException;
    e.severity = Severity::Error;
    e.evidence = record.exceptionLine;
    e.identity = record.identity;
    e.time = block.exceptionTime;
    e.detail = record.exceptionType;
    e.text = record.message;

    // Raised by torch.distributed's rendezvous itself (rendezvous.py creating the TCPStore:
    // "store = TCPStore(master_addr, master_port, …)"): the process could not reach or set up
    // the store. Releases before DistStoreError raised it as a plain exception ("ValueError:
    // host not found: Name or service not known", "RuntimeError: Address already in use"),
    // which the launcher's keywords do not name: it is the same rendezvous failure.
    if (!record.frames.empty()) {
        const model::StackFrame& innermost = record.frames.back();
        if (out.text(innermost.file).ends_with("distributed/rendezvous.py")) {
            model::Event copy = e; // e is invalidated by the next emplace
            copy.kind = EventKind::LauncherRendezvousError;
            out.events.push_back(copy);
        }
    }
}

void PythonErrorParser::finish(model::ParsedSource& out)
{
    // Close in file order so the output does not depend on hash-map iteration.
    std::vector<std::uint32_t> open;
    open.reserve(m_blocks.size());
    for (const auto& [identity, block] : m_blocks)
        open.push_back(identity);
    std::sort(open.begin(), open.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_blocks.at(a).record.evidence.offset < m_blocks.at(b).record.evidence.offset;
    });
    for (const std::uint32_t identity : open)
        closeBlock(m_blocks.at(identity), out);
    m_blocks.clear();
}

bool PythonErrorParser::scanErrors(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    if ((found & ~bit(kwTraceback)) == 0)
        return false;
    bool recognised = false;
    if (found & bit(kwCudaOom))
        recognised |= emitOutOfMemory(ctx, text, out);
    if ((found & kCudaErrorBits) && !(found & bit(kwCudaOom)))
        recognised |= emitCudaError(ctx, text, found, out);
    if (found & kAdviceBits)
        recognised = true; // follow-up advice of a CUDA error already reported
    if (found & kFatalBits)
        recognised |= emitFatalSignal(ctx, text, found, out);
    return recognised;
}

bool PythonErrorParser::emitOutOfMemory(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    const std::string_view oom = tailFrom(text, "CUDA out of memory");
    // "(GPU 0; 15.78 GiB total capacity" (≤2.0), ". GPU 3 has a total capacty of" (2.1),
    // ". GPU 3 has a total capacity of" (≥2.2): the first "GPU <digits>" after the phrase.
    std::int32_t ordinal = -1;
    for (std::size_t p = findLiteral(oom, "GPU "); p != std::string_view::npos;
         p = findLiteral(oom, "GPU ", p + 4)) {
        std::size_t i = p + 4;
        if (const auto n = readUnsigned(oom, i)) {
            ordinal = clampToInt32(*n);
            break;
        }
    }
    model::Event& e = addEventAt(out, ctx, EventKind::CudaOutOfMemory, Severity::Error, oom);
    e.code = ordinal;
    return true;
}

bool PythonErrorParser::emitCudaError(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    if (isNcclLine(text))
        return false; // NCCL's "Cuda failure …" lines are the NCCL parser's
    std::string_view error;
    if (found & bit(kwCudaError)) {
        // "CUDA error: …" only; "CUDA errors" in prose is not an error report.
        for (std::string_view t = tailFrom(text, "CUDA error"); !t.empty();
             t = tailFrom(t.substr(1), "CUDA error"))
            if (t.starts_with("CUDA error:")) {
                error = t;
                break;
            }
    }
    if (error.empty() && (found & bit(kwCublas)))
        error = tailFrom(text, "CUBLAS_STATUS_");
    // The CUDACHECK macro of NCCL's examples, vLLM's custom all-reduce and many CUDA extensions:
    // "Failed: Cuda error …/custom_all_reduce.cuh:307 'peer access is not supported between
    // these two devices'", then exit(EXIT_FAILURE): the process ends on it.
    if (error.empty() && (found & bit(kwCudaCheckExit)))
        error = tailFrom(text, "Cuda error ");
    // "cuda runtime error (59) : device-side assert triggered at …"; CUDA's own strings for a
    // faulting kernel on a line of their own ("CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal
    // instruction was encountered" under XLA's "CUDA error: Could not synchronize …").
    if (error.empty()
        && (found & (bit(kwIllegalAccess) | bit(kwEcc) | bit(kwDeviceAssert) | bit(kwIllegalInstruction))))
        error = text;
    if (error.empty() && (found & bit(kwKernelAssertion)))
        return emitKernelAssertion(ctx, text, out);
    if (trim(error).empty())
        return false;
    addEventAt(out, ctx, EventKind::CudaError, Severity::Error, error);
    return true;
}

// A failed assert() inside a CUDA kernel, printed by the device itself once per failing
// thread: "../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block:
// [949,0,0], thread: [62,0,0] Assertion `srcIndex < srcSelectDimSize` failed." The kernel
// stops, the context is lost ("device-side assert triggered" at the next CUDA call) and the
// process can only exit: one CudaError for a writer's run of such lines, not one per thread.
bool PythonErrorParser::emitKernelAssertion(
    const LineContext& ctx, std::string_view text, model::ParsedSource& out)
{
    const std::size_t assertion = findLiteral(text, "Assertion `");
    const std::size_t cu = findLiteral(text.substr(0, assertion), ".cu:");
    const std::string_view rest = trim(text.substr(assertion));
    if (cu == std::string_view::npos || findLiteral(text.substr(cu, assertion - cu), "block: [") == std::string_view::npos
        || !(rest.ends_with("` failed.") || rest.ends_with("` failed")))
        return false;
    std::string& last = m_lastKernelAssertion[ctx.identity];
    if (last == rest)
        return true;
    last.assign(rest);
    // "Assertion `srcIndex < srcSelectDimSize` failed. (…/Indexing.cu:1290: indexSelectLargeIndex)":
    // the condition first, where it failed after it; the block and thread say nothing more.
    const std::size_t block = findLiteral(text, ": block: [");
    std::string where(trim(text.substr(0, block)));
    const std::string message = std::string(rest) + " (" + where + ")";
    addEventAt(out, ctx, EventKind::CudaError, Severity::Error, message);
    return true;
}

bool PythonErrorParser::emitFatalSignal(
    const LineContext& ctx, std::string_view text, std::uint64_t found, model::ParsedSource& out)
{
    std::int32_t signal = -1;
    std::int32_t pid = -1;
    if (found & bit(kwFatalPython)) {
        // "Fatal Python error: Segmentation fault" (faulthandler)
        const std::string_view tail = tailFrom(text, "Fatal Python error: ");
        signal = signalStartingText(tail.substr(std::min<std::size_t>(20, tail.size())));
    }
    if (signal < 0 && (found & (bit(kwBusError) | bit(kwWorkerBusError))))
        signal = parseDataLoaderBusError(text, pid);
    if (signal < 0 && (found & bit(kwC10Signal)))
        signal = parseC10Signal(text, pid);
    if (signal < 0 && (found & bit(kwSignalName)))
        signal = parseSignalReceived(text, pid);
    if (signal < 0 && (found & kSignalWordBits))
        signal = parseShellReport(text, pid);
    if (signal < 0)
        return false;
    model::Event& e = addEventAt(out, ctx, EventKind::FatalSignal, Severity::Fatal, text);
    e.code = signal;
    e.pid = pid;
    return true;
}

} // namespace rankscope::parsers
