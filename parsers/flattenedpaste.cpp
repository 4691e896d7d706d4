#include "parsers/flattenedpaste.h"

#include "parsers/textscan.h"

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

constexpr std::array<std::string_view, 8> kPhrases = {
    "Traceback (most recent call last):",
    "terminate called after throwing",
    "ERROR:torch.distributed.",
    "WARNING:torch.distributed.",
    "INFO:torch.distributed.",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
    // Lightning's announcement of each process's rank (old and new wording).
    "initializing ddp: GLOBAL_RANK: ",
    "Initializing distributed: GLOBAL_RANK: ",
};

// Open MPI's --tag-output label: "[1,3]<stdout>:" (job, rank, stream).
bool mpiTag(std::string_view s)
{
    std::size_t i = s.find(',');
    if (i == std::string_view::npos || i > 8 || !numberedTag(s, "[", ","))
        return false;
    const std::string_view rest = s.substr(i);
    return numberedTag(rest, ",", "]<stdout>:") || numberedTag(rest, ",", "]<stderr>:");
}

bool recordStart(std::string_view s)
{
    switch (s.front()) {
    case '[':
        return numberedTag(s, "[rank", "]:") || numberedTag(s, "[default", "]:") || cppEnvelope(s) || mpiTag(s);
    case 'T':
    case 't':
    case 'E':
    case 'W':
    case 'I':
    case 'i':
        for (std::string_view phrase : kPhrases)
            if (s.starts_with(phrase))
                return true;
        [[fallthrough]];
    default:
        return ncclHeader(s);
    }
}

} // namespace

std::vector<std::size_t> gluedRecordStarts(std::string_view line)
{
    std::vector<std::size_t> starts;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i - 1] != ' ' || line[i] == ' ')
            continue;
        if (recordStart(line.substr(i)))
            starts.push_back(i);
    }
    return starts;
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
        if (line.size() >= 200 && gluedRecordStarts(line).size() >= 2)
            return true;
    }
    return false;
}

} // namespace rankscope::parsers
