#include "parsers/flattenedpaste.h"

#include "parsers/textscan.h"

#include <algorithm>
#include <array>

namespace rankscope::parsers {

namespace {

// `s` starts with `open`, then digits, then `close`.
bool numberedTag(std::string_view s, std::string_view open, std::string_view close)
{
    if (!s.starts_with(open))
        return false;
    std::size_t i = open.size();
    const std::size_t digits = i;
    while (i < s.size() && i - digits < 7 && isDigit(s[i]))
        ++i;
    return i > digits && s.substr(i).starts_with(close);
}

// "[E ProcessGroupNCCL.cpp:455]", "[W1206 18:44:13.275158817 ProcessGroupNCCL.cpp:632]": the
// severity letter, an optional time, a C++ file and its line.
bool cppEnvelope(std::string_view s)
{
    if (s.size() < 10 || s[0] != '['
        || std::string_view("EWIF").find(s[1]) == std::string_view::npos
        || !(s[2] == ' ' || isDigit(s[2])))
        return false;
    const std::string_view head = s.substr(0, 64);
    const std::size_t close = head.find(']');
    const std::size_t cpp = head.find(".cpp:");
    if (close == std::string_view::npos || cpp == std::string_view::npos || cpp > close)
        return false;
    std::size_t i = cpp + 5;
    const std::size_t digits = i;
    while (i < close && isDigit(head[i]))
        ++i;
    return i > digits && i == close;
}

// "node-3:4122:4180 [2] NCCL INFO …": host, pid and thread, the device, NCCL's level. A WARN
// names its source line between the device and the level ("[2] init.cc:840 NCCL WARN …").
bool ncclHeader(std::string_view s)
{
    const std::size_t space = s.substr(0, 256).find(' ');
    if (space == std::string_view::npos)
        return false;
    const std::string_view token = s.substr(0, space);
    const std::size_t second = token.rfind(':');
    const std::size_t first = second == std::string_view::npos || second == 0
        ? std::string_view::npos
        : token.rfind(':', second - 1);
    if (first == std::string_view::npos || first == 0 || second == first + 1
        || second + 1 == token.size())
        return false;
    for (std::size_t i = first + 1; i < token.size(); ++i)
        if (i != second && !isDigit(token[i]))
            return false;
    std::string_view rest = s.substr(space + 1);
    if (numberedTag(rest, "[", "] NCCL ")) {
        rest = rest.substr(rest.find("] NCCL ") + 7);
        return rest.starts_with("INFO") || rest.starts_with("WARN") || rest.starts_with("TRACE");
    }
    if (!numberedTag(rest, "[", "] "))
        return false;
    // The source location: a path ending in ":<line>", then " NCCL WARN".
    rest = rest.substr(rest.find("] ") + 2);
    const std::size_t end = rest.substr(0, 128).find(' ');
    if (end == std::string_view::npos || !rest.substr(end).starts_with(" NCCL WARN"))
        return false;
    const std::string_view where = rest.substr(0, end);
    const std::size_t colon = where.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == where.size())
        return false;
    for (std::size_t i = colon + 1; i < where.size(); ++i)
        if (!isDigit(where[i]))
            return false;
    return true;
}

constexpr std::array<std::string_view, 6> kPhrases = {
    "Traceback (most recent call last):",
    "terminate called after throwing",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
    // Lightning's announcement of each process's rank (old and new wording).
    "initializing ddp: GLOBAL_RANK: ",
    "Initializing distributed: GLOBAL_RANK: ",
    // nvidia-smi's first line when a GPU stopped answering (often after the command's prompt).
    "Unable to determine the device handle for GPU",
};

// Python logging's default format (logging.basicConfig, "%(levelname)s:%(name)s:%(message)s"):
// "INFO:root:", "WARNING:torch.distributed.run:", "ERROR:mlpf:" — a level name, a logger name
// (dotted identifiers), a colon.
bool pythonLoggingHeader(std::string_view s)
{
    static constexpr std::string_view kLevels[] = { "DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:" };
    for (std::string_view level : kLevels) {
        if (!s.starts_with(level))
            continue;
        const std::string_view name = s.substr(level.size(), 80);
        std::size_t i = 0;
        while (i < name.size() && (isAlpha(name[i]) || name[i] == '_' || name[i] == '.' || (i > 0 && isDigit(name[i]))))
            ++i;
        return i > 0 && i < name.size() && name[i] == ':';
    }
    return false;
}

// vLLM's and SGLang's logger ("%(levelname)s %(asctime)s [%(filename)s:%(lineno)d]", the date
// as "%m-%d %H:%M:%S"): "ERROR 07-07 15:19:51 [core.py:515] …".
bool vllmLoggerHeader(std::string_view s)
{
    static constexpr std::string_view kLevels[] = { "DEBUG ", "INFO ", "WARNING ", "ERROR ", "CRITICAL " };
    for (std::string_view level : kLevels) {
        if (!s.starts_with(level))
            continue;
        const std::string_view t = s.substr(level.size());
        static constexpr std::string_view kShape = "00-00 00:00:00 [";
        if (t.size() < kShape.size())
            return false;
        for (std::size_t i = 0; i < kShape.size(); ++i)
            if (kShape[i] == '0' ? !isDigit(t[i]) : t[i] != kShape[i])
                return false;
        return true;
    }
    return false;
}

// A kernel log's time as dmesg prints it: seconds since boot ("[ 8421.103417] "), or the time
// since the line before with --reltime/-H ("[  +0.000316] ").
bool kernelTimeStamp(std::string_view s)
{
    std::size_t i = 1;
    while (i < s.size() && i < 8 && s[i] == ' ')
        ++i;
    if (i < s.size() && s[i] == '+')
        ++i;
    const std::size_t digits = i;
    while (i < s.size() && i - digits < 10 && isDigit(s[i]))
        ++i;
    if (i == digits || i + 8 > s.size() || s[i] != '.')
        return false;
    for (std::size_t k = i + 1; k < i + 7; ++k)
        if (!isDigit(s[k]))
            return false;
    return s[i + 7] == ']';
}

// A gdb backtrace frame: "#0  0x00007f… in accept () from …", "#3  bootstrapRecv (…) at
// bootstrap.cc:332" — '#', the frame number, two blanks (gdb's own column), the address or
// the function.
bool gdbFrame(std::string_view s)
{
    std::size_t i = 1;
    while (i < s.size() && i < 6 && isDigit(s[i]))
        ++i;
    return i > 1 && s.substr(i).starts_with("  ") && i + 2 < s.size()
        && (isAlpha(s[i + 2]) || s[i + 2] == '_' || s[i + 2] == '0');
}

// Open MPI's --tag-output label: "[1,3]<stdout>:" (job, rank, stream).
bool mpiTag(std::string_view s)
{
    std::size_t i = s.find(',');
    if (i == std::string_view::npos || i > 8 || !numberedTag(s, "[", ","))
        return false;
    const std::string_view rest = s.substr(i);
    return numberedTag(rest, ",", "]<stdout>:") || numberedTag(rest, ",", "]<stderr>:");
}

// A launcher's per-process label ending in a colon: TorchX's "[trainer3]:" and "[trainer0|0]:"
// (role, replica, the line's stream), as "[rank3]:" and "[default3]:" are torchrun's.
bool roleLabel(std::string_view s)
{
    std::size_t i = 1;
    while (i < s.size() && i < 24 && (isAlpha(s[i]) || s[i] == '_'))
        ++i;
    const std::size_t digits = i;
    while (i < s.size() && i - digits < 7 && isDigit(s[i]))
        ++i;
    if (i == digits || digits == 1)
        return false;
    if (i < s.size() && s[i] == '|') {
        const std::size_t stream = ++i;
        while (i < s.size() && i - stream < 3 && isDigit(s[i]))
            ++i;
        if (i == stream)
            return false;
    }
    return s.substr(i).starts_with("]:");
}

// Ray's prefix before every line a worker or actor prints: "(raylet) ", "(pid=4711) ",
// "(RayTrainWorker pid=4711, ip=10.0.0.3) ", "(VllmWorker rank=5 pid=50999) ".
bool rayPrefix(std::string_view s)
{
    if (s.starts_with("(raylet) "))
        return true;
    const std::size_t close = s.substr(0, 160).find(") ");
    if (close == std::string_view::npos)
        return false;
    const std::string_view inside = s.substr(1, close - 1);
    const std::size_t pid = inside.find("pid=");
    if (pid == std::string_view::npos || (pid > 0 && inside[pid - 1] != ' ')
        || inside.find_first_of("()") != std::string_view::npos)
        return false;
    std::size_t i = pid + 4;
    const std::size_t digits = i;
    while (i < inside.size() && isDigit(inside[i]))
        ++i;
    return i > digits && (i == inside.size() || inside[i] == ',');
}

// A Python exception's last line, "RuntimeError: …", "torch.OutOfMemoryError: …": a (dotted)
// class name ending in Error or Exception, a colon, a blank. Prose names exceptions too
// ("raised RuntimeError: …"), so this start splits a paste already known to be flattened but
// does not make one look flattened.
bool exceptionLine(std::string_view s)
{
    const std::size_t colon = s.substr(0, 96).find(": ");
    if (colon == std::string_view::npos || colon < 5)
        return false;
    const std::string_view name = s.substr(0, colon);
    if (!(name.ends_with("Error") || name.ends_with("Exception")))
        return false;
    for (char c : name)
        if (!(isAlpha(c) || isDigit(c) || c == '_' || c == '.'))
            return false;
    return isUpper(name[name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1]);
}

// "[3]<stderr>:" (horovodrun's and mpirun's per-rank label), or "[15]" glued to an NCCL header
// ("[15]worker-23:83:2526 [0] NCCL WARN …"): a rank's label before its own line.
bool rankLabel(std::string_view s)
{
    if (numberedTag(s, "[", "]<stdout>:") || numberedTag(s, "[", "]<stderr>:"))
        return true;
    if (!numberedTag(s, "[", "]"))
        return false;
    const std::string_view rest = s.substr(s.find(']') + 1);
    return !rest.empty() && rest.front() != ' ' && ncclHeader(rest);
}

bool recordStart(std::string_view s)
{
    switch (s.front()) {
    case '[':
        return numberedTag(s, "[rank", "]:") || numberedTag(s, "[default", "]:") || cppEnvelope(s)
            || mpiTag(s) || rankLabel(s) || roleLabel(s) || kernelTimeStamp(s);
    case '(':
        return rayPrefix(s);
    case '#':
        return gdbFrame(s);
    case 'D':
    case 'C':
        return pythonLoggingHeader(s) || vllmLoggerHeader(s) || ncclHeader(s);
    case 'T':
    case 't':
    case 'E':
    case 'W':
    case 'I':
    case 'i':
    case 'U':
        for (std::string_view phrase : kPhrases)
            if (s.starts_with(phrase))
                return true;
        if (pythonLoggingHeader(s) || vllmLoggerHeader(s))
            return true;
        [[fallthrough]];
    default:
        return ncclHeader(s);
    }
}

} // namespace

namespace {

// NCCL's "NCCL WARN …" with its header cut off by the paste ("NCCL WARN NET/IB : Got completion
// …" on a line of its own): not after a WARN's source location, which is the same record (nor
// after the device tag, see afterPrefix).
bool bareNcclWarn(std::string_view line, std::size_t at)
{
    if (!line.substr(at).starts_with("NCCL WARN "))
        return false;
    const std::string_view before = line.substr(0, at - 1);
    const std::string_view token = before.substr(before.rfind(' ') + 1);
    std::string_view file = token;
    if (const std::size_t colon = file.rfind(':'); colon != std::string_view::npos
        && std::all_of(file.begin() + static_cast<std::ptrdiff_t>(colon) + 1, file.end(), isDigit))
        file = file.substr(0, colon);
    for (std::string_view extension : { ".cc", ".c", ".cpp", ".h", ".cu" })
        if (file.ends_with(extension))
            return false;
    return true;
}

// The token before `at` ends a prefix of the same record: a tag ("[core.py:515]", "[1]"), a
// label ("[rank3]:", "ERROR:root:"). (A traceback's source line before the exception often
// ends in ')': that is no prefix.)
bool afterPrefix(std::string_view line, std::size_t at)
{
    const std::string_view before = line.substr(0, at - 1);
    return before.ends_with(']') || before.ends_with(':');
}

// The blank before `at` ends a Ray prefix: what follows is that prefix's line.
bool afterRayPrefix(std::string_view line, std::size_t at)
{
    const std::string_view before = line.substr(0, at - 1);
    const std::size_t open = before.rfind('(');
    return before.ends_with(')') && open != std::string_view::npos
        && line.substr(open).find(") ") == at - 2 - open && rayPrefix(line.substr(open));
}

// Record starts after a blank; `weak` ones too (see exceptionLine) when asked.
std::vector<std::size_t> recordStarts(std::string_view line, bool weak)
{
    std::vector<std::size_t> starts;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i - 1] != ' ' || line[i] == ' ')
            continue;
        const std::string_view rest = line.substr(i);
        if (afterRayPrefix(line, i))
            continue;
        if (recordStart(rest) || (weak && !afterPrefix(line, i) && (exceptionLine(rest) || bareNcclWarn(line, i))))
            starts.push_back(i);
    }
    return starts;
}

} // namespace

std::vector<std::size_t> gluedRecordStarts(std::string_view line)
{
    return recordStarts(line, true);
}

bool looksFlattened(std::string_view head)
{
    std::size_t lines = 0;
    for (std::size_t start = 0; start < head.size() && lines < 8;) {
        std::size_t end = head.find('\n', start);
        if (end == std::string_view::npos)
            end = head.size();
        const std::string_view line = head.substr(start, end - start);
        start = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        ++lines;
        if (line.size() >= 200 && recordStarts(line, false).size() >= 2)
            return true;
    }
    return false;
}

} // namespace rankscope::parsers
