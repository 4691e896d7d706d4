#include "parsers/lineprefix.h"

#include "parsers/pathidentity.h"
#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

namespace rankscope::parsers {

namespace {

// "[80746] " — a viewer's line number. Must not eat "[12345.678] " (dmesg time).
bool stripLineNumber(std::string_view& s)
{
    if (s.size() < 4 || s[0] != '[')
        return false;
    std::size_t i = 1;
    while (i < s.size() && isDigit(s[i]))
        ++i;
    if (i == 1 || i > 12 || i + 1 >= s.size() || s[i] != ']' || s[i + 1] != ' ')
        return false;
    s.remove_prefix(i + 2);
    return true;
}

// "]<stdout>:", "]<stderr>:", "]<stddiag>:" closing a launcher's rank tag: its length, 0 if none.
std::size_t streamTagLength(std::string_view rest)
{
    for (std::string_view tag : { "]<stdout>:", "]<stderr>:", "]<stddiag>:" })
        if (rest.starts_with(tag))
            return tag.size();
    return 0;
}

// "[1,3]<stdout>:" (Open MPI --tag-output: job, then rank) or "[3]<stderr>:" (horovodrun's
// Gloo launcher: the rank alone): the rank is the last number before the stream tag. SageMaker's
// MPI launcher names both and adds the host: "[1,mpirank:3,algo-2]<stdout>:". A paste copied
// from a rendered Markdown page has lost "<stdout>" as an HTML tag: "[1,3]:" is still the tag
// when it holds both numbers ("[3]:" alone is too common a shape to be one).
bool stripLauncherTag(std::string_view& s, LinePrefix& p)
{
    if (s.size() < 11 || s[0] != '[')
        return false;
    std::size_t i = 1;
    auto rank = readUnsigned(s, i);
    if (!rank || i == 1 || i > 12)
        return false;
    std::string_view host;
    if (i < s.size() && s[i] == ',') {
        ++i;
        constexpr std::string_view kMpiRank = "mpirank:";
        const bool named = s.substr(i).starts_with(kMpiRank);
        if (named)
            i += kMpiRank.size();
        const std::size_t rankStart = i;
        rank = readUnsigned(s, i);
        if (!rank || i == rankStart)
            return false;
        if (named && i < s.size() && s[i] == ',') {
            const std::size_t hostStart = ++i;
            while (i < s.size() && i - hostStart < 64 && (isAlnum(s[i]) || s[i] == '-' || s[i] == '.' || s[i] == '_'))
                ++i;
            host = s.substr(hostStart, i - hostStart);
            if (host.empty() || i >= s.size() || s[i] != ']')
                return false;
        } else if (named) {
            return false;
        }
    }
    std::size_t len = streamTagLength(s.substr(i));
    if (len == 0 && s.substr(i).starts_with("]:") && s.substr(0, i).find(',') != std::string_view::npos)
        len = 2;
    if (len == 0 || *rank > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
        return false;
    p.mpiRank = static_cast<std::int32_t>(*rank);
    if (!host.empty())
        p.host = host;
    s.remove_prefix(i + len);
    return true;
}

// "[pod/trainer-worker-0/pytorch] " (kubectl logs --prefix: the pod, then the container). A
// pod is one machine's share of the job, as a node is: its name is kept as the host.
bool stripKubectlPrefix(std::string_view& s, LinePrefix& p)
{
    constexpr std::string_view kPod = "[pod/";
    if (!s.starts_with(kPod))
        return false;
    const std::size_t close = s.substr(0, 320).find("] ");
    if (close == std::string_view::npos)
        return false;
    const std::string_view inside = s.substr(kPod.size(), close - kPod.size());
    const std::size_t slash = inside.find('/');
    if (slash == 0 || slash == std::string_view::npos || slash + 1 == inside.size()
        || inside.find_first_of(" []") != std::string_view::npos)
        return false;
    p.host = inside.substr(0, slash);
    s.remove_prefix(close + 2);
    return true;
}

// "[15]worker-23:83:2526 [0] … NCCL WARN …": a launcher's rank label glued to NCCL's own
// host:pid:tid header (horovodrun and mpirun wrappers that print "[rank]" before each line).
// Only taken when an NCCL header follows directly, so "[80746]text" stays text.
// Whether NCCL's "host:pid:tid " header starts `s` at `from`.
bool ncclHeaderAt(std::string_view s, std::size_t from)
{
    std::size_t j = from;
    const std::size_t hostStart = j;
    while (j < s.size() && j - hostStart < 128 && s[j] != ':' && s[j] != ' ')
        ++j;
    if (j == hostStart || j >= s.size() || s[j] != ':' || !isAlnum(s[hostStart]))
        return false;
    ++j;
    const std::size_t pidStart = j;
    if (!readUnsigned(s, j) || j == pidStart || j >= s.size() || s[j] != ':')
        return false;
    ++j;
    const std::size_t tidStart = j;
    return readUnsigned(s, j) && j != tidStart && j < s.size() && s[j] == ' ';
}

bool stripRankBeforeNcclHeader(std::string_view& s, LinePrefix& p)
{
    if (s.size() < 8 || s[0] != '[')
        return false;
    std::size_t i = 1;
    const auto rank = readUnsigned(s, i);
    if (!rank || i == 1 || i > 7 || i >= s.size() || s[i] != ']' || !ncclHeaderAt(s, i + 1))
        return false;
    p.mpiRank = static_cast<std::int32_t>(*rank);
    s.remove_prefix(i + 1);
    return true;
}

// Open MPI --timestamp-output: "Fri Aug 11 12:31:45 2023" directly followed by the tag.
bool stripMpiTimestamp(std::string_view& s)
{
    if (s.size() < 25 || !isUpper(s[0]) || s[3] != ' ' || s[7] != ' ')
        return false;
    // "Www Mmm dd hh:mm:ss yyyy" with day padded by space: positions are fixed.
    if (s[13] != ':' || s[16] != ':' || s[19] != ' ')
        return false;
    for (std::size_t i = 20; i < 24; ++i)
        if (!isDigit(s[i]))
            return false;
    if (s[24] != '[')
        return false;
    s.remove_prefix(24);
    return true;
}

// "[rank3]:" (PyTorch ≥2.2) — global rank.
bool stripTorchRank(std::string_view& s, LinePrefix& p)
{
    if (!s.starts_with("[rank") || s.size() < 8)
        return false;
    std::size_t i = 5;
    if (i < s.size() && s[i] == ':') {
        // Lightning "[rank: 1] "
        ++i;
        if (i < s.size() && s[i] == ' ')
            ++i;
        const std::size_t start = i;
        const auto rank = readUnsigned(s, i);
        if (!rank || i == start || i + 1 >= s.size() || s[i] != ']')
            return false;
        ++i;
        if (i < s.size() && s[i] == ' ')
            ++i;
        p.globalRank = static_cast<std::int32_t>(*rank);
        s.remove_prefix(i);
        return true;
    }
    const std::size_t start = i;
    const auto rank = readUnsigned(s, i);
    if (!rank || i == start || i + 1 >= s.size() || s[i] != ']' || s[i + 1] != ':')
        return false;
    p.globalRank = static_cast<std::int32_t>(*rank);
    s.remove_prefix(i + 2);
    return true;
}

// "[default3]:" — torchrun tee prefix: role name then the LOCAL rank. A custom
// log_line_prefix_template may append more after a bar ("[trainer3|11]:"); what follows the
// bar is the template's own choice and is not read.
bool stripTorchrunTee(std::string_view& s, LinePrefix& p)
{
    if (s.size() < 5 || s[0] != '[' || !(isAlpha(s[1]) || s[1] == '_'))
        return false;
    std::size_t i = 1;
    while (i < s.size() && i < 64 && (isAlnum(s[i]) || s[i] == '_'))
        ++i;
    std::size_t close = i;
    if (close < s.size() && s[close] == '|') {
        ++close;
        const std::size_t digits = close;
        while (close < s.size() && close < 80 && isDigit(s[close]))
            ++close;
        if (close == digits)
            return false;
    }
    if (close + 1 >= s.size() || s[close] != ']' || s[close + 1] != ':')
        return false;
    // The role is the name part; the trailing digits are the local rank.
    std::size_t digitsStart = i;
    while (digitsStart > 1 && isDigit(s[digitsStart - 1]))
        --digitsStart;
    if (digitsStart == i || digitsStart == 1)
        return false;
    std::size_t j = digitsStart;
    const auto local = readUnsigned(s, j);
    if (!local)
        return false;
    p.role = s.substr(1, digitsStart - 1);
    p.localRank = static_cast<std::int32_t>(*local);
    s.remove_prefix(close + 2);
    return true;
}

// An IPv4 or IPv6 address at `i` (digits, dots, colons, hex letters), at most 46 bytes; `i`
// moves past it.
std::string_view readAddress(std::string_view s, std::size_t& i)
{
    const std::size_t start = i;
    while (i < s.size() && i - start < 46 && (isDigit(s[i]) || s[i] == '.' || s[i] == ':' || isHexAlpha(s[i])))
        ++i;
    return s.substr(start, i - start);
}

// The ')' that closes a "(…)" tag at `i`, and the blank after it when there is one.
bool closeTag(std::string_view s, std::size_t& i)
{
    if (i >= s.size() || s[i] != ')')
        return false;
    ++i;
    if (i < s.size() && s[i] == ' ')
        ++i;
    return true;
}

// "(RayTrainWorker pid=270291, ip=10.175.94.190) "
bool stripRay(std::string_view& s, LinePrefix& p)
{
    if (s.size() < 10 || s[0] != '(' || !isAlpha(s[1]))
        return false;
    std::size_t i = 1;
    while (i < s.size() && i < 80 && (isAlnum(s[i]) || s[i] == '_' || s[i] == ':'))
        ++i;
    // vLLM's worker processes put their rank in the world of the engine before the pid:
    // "(VllmWorker rank=1 pid=97) ".
    std::optional<std::uint64_t> rank;
    if (s.substr(i).starts_with(" rank=")) {
        i += 6;
        const std::size_t rankStart = i;
        rank = readUnsigned(s, i);
        if (!rank || i == rankStart || *rank > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
            return false;
    }
    if (!s.substr(i).starts_with(" pid="))
        return false;
    i += 5;
    const std::size_t start = i;
    const auto pid = readUnsigned(s, i);
    if (!pid || i == start)
        return false;
    std::string_view ip;
    if (s.substr(i).starts_with(", ip=")) {
        i += 5;
        ip = readAddress(s, i);
    }
    if (!closeTag(s, i))
        return false;
    p.pid = static_cast<std::int32_t>(*pid);
    p.ip = ip;
    if (rank)
        p.globalRank = static_cast<std::int32_t>(*rank);
    s.remove_prefix(i);
    return true;
}

// "(head, rank=0, pid=2338) " / "(worker1, rank=1, pid=2090, ip=10.128.0.6) " / "(task,
// pid=77) ": SkyPilot's tag on every line a node's run command prints. The rank is the node's,
// and the pid is the run command's, which every worker of the node writes through: neither
// names a process of the job, so the node's name (and its address) is kept as the host.
bool stripSkyPilot(std::string_view& s, LinePrefix& p)
{
    if (s.size() < 12 || s[0] != '(' || !isAlpha(s[1]))
        return false;
    std::size_t i = 1;
    while (i < s.size() && i < 64 && (isAlnum(s[i]) || s[i] == '_' || s[i] == '-'))
        ++i;
    const std::string_view name = s.substr(1, i - 1);
    const auto field = [&s, &i](std::string_view key) {
        if (!s.substr(i).starts_with(", ") || !s.substr(i + 2).starts_with(key))
            return false;
        i += 2 + key.size();
        return true;
    };
    if (field("rank=")) {
        const std::size_t start = i;
        if (!readUnsigned(s, i) || i == start)
            return false;
    }
    if (!field("pid="))
        return false;
    const std::size_t pidStart = i;
    if (!readUnsigned(s, i) || i == pidStart)
        return false;
    std::string_view ip;
    if (field("ip="))
        ip = readAddress(s, i);
    if (!closeTag(s, i))
        return false;
    p.host = name;
    p.ip = ip;
    s.remove_prefix(i);
    return true;
}

// "12:00:07 " / "[12:00:07] " / "12:00:07.123 ": a clock with no date in front of the line, as
// CI runners (Jenkins' timestamper) and `ts '%H:%M:%S'` put it. Nothing the job writes starts
// with a bare clock; it says no more than the time of day, so it is dropped.
bool stripBareClock(std::string_view& s)
{
    const std::size_t open = s.starts_with('[') ? 1 : 0;
    auto two = [&s](std::size_t at) { return at + 1 < s.size() && isDigit(s[at]) && isDigit(s[at + 1]); };
    if (!two(open) || s.size() < open + 9 || s[open + 2] != ':' || !two(open + 3) || s[open + 5] != ':' || !two(open + 6))
        return false;
    std::size_t i = open + 8;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
        const std::size_t fraction = ++i;
        while (i < s.size() && i - fraction < 9 && isDigit(s[i]))
            ++i;
        if (i == fraction)
            return false;
    }
    if (open == 1) {
        if (i >= s.size() || s[i] != ']')
            return false;
        ++i;
    }
    if (i >= s.size() || s[i] != ' ')
        return false;
    s.remove_prefix(i + 1);
    return true;
}

// vLLM's logger header: "ERROR 03-20 23:26:06 [multiproc_executor.py:375] " (level, month-day,
// time, then the file and line, bracketed since 0.7; "… worker_base.py:382] " before). It says
// nothing about the writer, but the message after it is what the parsers read.
bool stripVllmLoggerHeader(std::string_view& s, LinePrefix& p)
{
    constexpr std::array<std::string_view, 5> kLevels { "DEBUG ", "INFO ", "WARNING ", "ERROR ", "CRITICAL " };
    std::size_t i = 0;
    for (std::string_view level : kLevels)
        if (s.starts_with(level)) {
            i = level.size();
            break;
        }
    // "MM-DD hh:mm:ss" at fixed places after the level.
    constexpr std::string_view kShape = "00-00 00:00:00 ";
    if (i == 0 || s.size() < i + kShape.size() + 6)
        return false;
    for (std::size_t k = 0; k < kShape.size(); ++k) {
        const char c = s[i + k];
        if (kShape[k] == '0' ? !isDigit(c) : c != kShape[k])
            return false;
    }
    i += kShape.size();
    const bool bracketed = s[i] == '[';
    if (bracketed)
        ++i;
    // "file.py:123]" with no space inside; a path may lead ("v1/executor/multiproc_executor.py").
    const std::size_t close = s.find(']', i);
    if (close == std::string_view::npos || close - i > 160)
        return false;
    const std::string_view where = s.substr(i, close - i);
    const std::size_t colon = where.rfind(':');
    if (where.find(' ') != std::string_view::npos || colon == std::string_view::npos || colon < 4
        || !where.substr(0, colon).ends_with(".py") || colon + 1 == where.size())
        return false;
    for (char c : where.substr(colon + 1))
        if (!isDigit(c))
            return false;
    i = close + 1;
    if (i < s.size() && s[i] == ' ')
        ++i;
    p.loggerHeader = s.substr(0, i);
    s.remove_prefix(i);
    return true;
}

bool looksLikeIpv4(std::string_view t)
{
    int dots = 0;
    for (char c : t) {
        if (c == '.')
            ++dots;
        else if (!isDigit(c))
            return false;
    }
    return dots == 3;
}

bool endsWithWord(std::string_view t, std::string_view word)
{
    return t.size() >= word.size() && t.substr(t.size() - word.size()) == word;
}

// "03: " (srun --label, digits only) or "node12: " (pdsh, host name). A Python exception
// line "ValueError: ..." has the same shape, so a host must contain a digit (or be an IPv4
// address) and must not end like an exception or a log level.
bool stripLabelOrHost(std::string_view& s, LinePrefix& p)
{
    // Runs on every line that starts with a letter or digit (every NCCL line: "host:pid:tid"
    // is followed by a digit, not ": "), so the token is walked once before anything else.
    static constexpr auto kTokenChar = [] {
        std::array<bool, 256> t {};
        for (int c = 0; c < 256; ++c)
            t[c] = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
                || c == '_' || c == '.' || c == '-';
        return t;
    }();
    const char* const data = s.data();
    const std::size_t limit = std::min<std::size_t>(s.size(), 64);
    std::size_t i = 0;
    while (i < limit && kTokenChar[static_cast<unsigned char>(data[i])])
        ++i;
    if (i == 0 || i + 1 >= s.size() || s[i] != ':' || s[i + 1] != ' ')
        return false;
    const std::string_view token = s.substr(0, i);
    const bool allDigits = std::all_of(token.begin(), token.end(), isDigit);
    const bool anyDigit = std::any_of(token.begin(), token.end(), isDigit);
    if (allDigits) {
        if (i > 6)
            return false;
        std::size_t j = 0;
        p.srunTask = static_cast<std::int32_t>(*readUnsigned(token, j));
        s.remove_prefix(i + 2);
        return true;
    }
    if (!anyDigit)
        return false;
    if (!looksLikeIpv4(token)) {
        if (!isAlpha(token.front()) || token.back() == '.' || token.back() == '-')
            return false;
        for (std::string_view word : { "Error", "Exception", "Warning", "Interrupt", "Exit" })
            if (endsWithWord(token, word))
                return false;
        // Training scripts print "rank0: loss ..." or "step100: ..." themselves.
        for (std::string_view word : { "rank", "Rank", "RANK", "step", "Step", "epoch", "Epoch",
                 "iter", "Iter", "batch", "Batch", "layer", "Layer" })
            if (token.starts_with(word))
                return false;
    }
    p.host = token;
    s.remove_prefix(i + 2);
    return true;
}

// "logs/rank3.log:…" or "LOG1.0.txt:12:…": grep -H (and -n) run over several files puts the
// file name, and the line number, before each matching line. Taken only when the name ends in
// an extension log files have, so "host:pid:tid" and "Error: …" never match; what the name
// says about its writer (rank3.log) is kept as for a file in the bundle.
bool stripGrepFileName(std::string_view& s, LinePrefix& p)
{
    static constexpr std::string_view kExtensions[] = { ".log", ".txt", ".out", ".err", ".stdout", ".stderr" };
    std::size_t i = 0;
    const std::size_t limit = std::min<std::size_t>(s.size(), 256);
    while (i < limit && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-' || s[i] == '/'))
        ++i;
    if (i < 5 || i >= s.size() || s[i] != ':')
        return false;
    const std::string_view name = s.substr(0, i);
    if (std::none_of(std::begin(kExtensions), std::end(kExtensions),
            [&](std::string_view ext) { return name.size() > ext.size() && name.ends_with(ext); }))
        return false;
    ++i;
    // grep -n: the line number and its own colon.
    std::size_t j = i;
    if (readUnsigned(s, j) && j > i && j < s.size() && s[j] == ':')
        i = j + 1;
    const model::PathIdentity fromName = identityFromPath(name);
    if (fromName.globalRank >= 0 && p.globalRank < 0)
        p.globalRank = fromName.globalRank;
    s.remove_prefix(i);
    return true;
}

// The length of "2024-05-01T10:00:00.123" (date, time, fraction; timesniff's ISO reader) and
// of a zone after it ("Z", "+02:00", "+0200"), 0 when `s` does not start with a date and time.
std::size_t dateTimeLength(std::string_view s, bool& zoned)
{
    std::size_t i = 0;
    if (!parseIsoTime(s, &i).valid() || s[10] == '_')
        return 0;
    zoned = true;
    if (i < s.size() && s[i] == 'Z')
        return i + 1;
    auto digits = [&s](std::size_t at) { return at + 1 < s.size() && isDigit(s[at]) && isDigit(s[at + 1]); };
    if (i < s.size() && (s[i] == '+' || s[i] == '-') && digits(i + 1)) {
        const std::size_t minutes = i + 3 < s.size() && s[i + 3] == ':' ? i + 4 : i + 3;
        return digits(minutes) ? minutes + 2 : i + 3;
    }
    zoned = false;
    return i;
}

// "2024-05-01T10:00:00.123456789Z " or "…+02:00\t": an RFC 3339 time with its 'T' and its
// zone, the form container runtimes and log exporters stamp lines with; the programs that
// write training logs print local times without a zone. CRI log files add the stream and a
// partial/full tag ("stderr F ").
bool stripCollectorTimestamp(std::string_view& s, LinePrefix& p)
{
    bool zoned = false;
    std::size_t i = dateTimeLength(s, zoned);
    if (i == 0 || !zoned || s[10] != 'T' || i >= s.size() || (s[i] != ' ' && s[i] != '\t'))
        return false;
    p.collectorTime = s.substr(0, i);
    ++i;
    for (std::string_view cri : { std::string_view("stdout F "), std::string_view("stderr F "),
             std::string_view("stdout P "), std::string_view("stderr P ") })
        if (s.substr(i).starts_with(cri)) {
            i += cri.size();
            break;
        }
    s.remove_prefix(i);
    return true;
}

// "2024-11-20 14:37:16 [rank3]: …": a local time without a zone is usually the program's own
// (Python logging's "2024-11-20 14:37:16,123 - INFO - …"), but before a prefix a launcher puts
// on the line (PyTorch's rank, torchrun's tee label, an MPI tag, a rank glued to NCCL's header)
// or before NCCL's own "host:pid:tid [dev]" header it can only have been put there by whatever
// collected the line (a `ts`-style filter, a job portal's log view): those are written first.
bool stripPlainTimeBeforeRank(std::string_view& s, LinePrefix& p)
{
    bool zoned = false;
    const std::size_t i = dateTimeLength(s, zoned);
    if (i == 0 || i + 1 >= s.size() || s[i] != ' ')
        return false;
    std::string_view rest = s.substr(i + 1);
    LinePrefix probe;
    const bool launcherPrefix = rest.starts_with('[')
        && (stripTorchRank(rest, probe) || stripTorchrunTee(rest, probe) || stripLauncherTag(rest, probe)
            || stripRankBeforeNcclHeader(rest, probe));
    if (!launcherPrefix && !ncclHeaderAt(rest, 0))
        return false;
    p.collectorTime = s.substr(0, i);
    s.remove_prefix(i + 1);
    return true;
}

// "[2024-05-01 10:00:00] " / "[2024-05-01T10:00:00.123+0200] ": a bracketed date and time
// in front of whatever else the line holds, as `ts`, log shippers and NCCL's own
// NCCL_DEBUG_TIMESTAMP_FORMAT put it. The time is the line's; the rest is parsed as usual.
bool stripBracketedTime(std::string_view& s, LinePrefix& p)
{
    if (!s.starts_with('['))
        return false;
    bool zoned = false;
    const std::size_t n = dateTimeLength(s.substr(1), zoned);
    if (n == 0 || n + 2 >= s.size() || s[n + 1] != ']' || s[n + 2] != ' ')
        return false;
    p.collectorTime = s.substr(1, n);
    s.remove_prefix(n + 3);
    return true;
}

// "fa88a9df [rank=3] || " (Determined AI, after its bracketed time): the container's short id
// (blank on the master's own lines), the worker's rank when a worker wrote the line, and the
// "|| " that ends the tag. Taken only up to that "|| ".
bool stripDeterminedTag(std::string_view& s, LinePrefix& p)
{
    std::size_t i = 0;
    while (i < s.size() && i < 24 && s[i] == ' ')
        ++i;
    std::size_t hex = i;
    while (hex < s.size() && hex - i < 16 && (isDigit(s[hex]) || (s[hex] >= 'a' && s[hex] <= 'f')))
        ++hex;
    if (hex > i && hex < s.size() && s[hex] == ' ')
        i = hex + 1;
    std::int32_t rank = -1;
    constexpr std::string_view kRank = "[rank=";
    if (s.substr(i).starts_with(kRank)) {
        std::size_t j = i + kRank.size();
        const auto value = readUnsigned(s, j);
        if (!value || j == i + kRank.size() || j + 1 >= s.size() || s[j] != ']' || s[j + 1] != ' '
            || *value > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
            return false;
        rank = static_cast<std::int32_t>(*value);
        i = j + 2;
    }
    if (!s.substr(i).starts_with("|| "))
        return false;
    if (rank >= 0)
        p.globalRank = rank;
    s.remove_prefix(i + 3);
    return true;
}

// "trainer-1  | " / "proj_worker_2  | ": docker compose's prefix (the container's name, padded
// to the longest, then "| "). Compose names a container after its service and replica number,
// so the name must end in "-N" or "_N": a table row ("epoch  | loss") does not. The container
// is one machine's share of the job: its name is kept as the host.
bool stripComposePrefix(std::string_view& s, LinePrefix& p)
{
    // Most lines fail within their first word: NCCL's header stops at its ':', a log message's
    // first word has no replica number after it.
    std::size_t i = 0;
    const std::size_t limit = std::min<std::size_t>(s.size(), 128);
    while (i < limit && (isAlnum(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-'))
        ++i;
    if (i >= s.size() || s[i] != ' ')
        return false;
    std::size_t digits = i;
    while (digits > 0 && isDigit(s[digits - 1]))
        --digits;
    if (digits == i || digits < 2 || (s[digits - 1] != '-' && s[digits - 1] != '_'))
        return false;
    std::size_t j = i;
    while (j < s.size() && j - i < 64 && s[j] == ' ')
        ++j;
    if (j == i || j >= s.size() || s[j] != '|' || (j + 1 < s.size() && s[j + 1] != ' '))
        return false;
    p.host = s.substr(0, i);
    s.remove_prefix(std::min(s.size(), j + 2));
    return true;
}

// "Dec 04 12:00:00 gpu-node-3 python[4242]: " (journalctl, syslog; "Dec  4", "12:00:00.123456"
// with -o short-precise) and "2024-12-04T12:00:00+0000 gpu-node-3 python[4242]: " (-o
// short-iso): the time and the host. The pid is required to tell the header from the kernel's
// own lines ("… host kernel: NVRM: Xid …", the kernel log reader's), but not kept: journald
// records the process that opened the stream, the launcher whose workers all write to it.
bool stripSyslogHeader(std::string_view& s, LinePrefix& p)
{
    // "Dec 04 " or "2024-": most lines fail here, before any time is read.
    if (s.size() < 24 || (isUpper(s[0]) ? !(isLower(s[1]) && isLower(s[2]) && s[3] == ' ') : s[4] != '-'))
        return false;
    std::size_t i = 0;
    if (isUpper(s[0])) {
        const SniffedTime t = sniffLeadingTime(s);
        if (!t.time.valid() || t.length < 15 || t.length >= s.size())
            return false;
        i = t.length;
        if (i < s.size() && s[i] == '.')
            for (++i; i < s.size() && isDigit(s[i]);)
                ++i;
    } else {
        bool zoned = false;
        i = dateTimeLength(s, zoned);
        if (i == 0 || !zoned)
            return false;
    }
    if (i >= s.size() || s[i] != ' ')
        return false;
    const std::size_t hostStart = ++i;
    while (i < s.size() && i - hostStart < 64 && (isAlnum(s[i]) || s[i] == '-' || s[i] == '.' || s[i] == '_'))
        ++i;
    if (i == hostStart || i >= s.size() || s[i] != ' ')
        return false;
    const std::string_view host = s.substr(hostStart, i - hostStart);
    const std::size_t identStart = ++i;
    while (i < s.size() && i - identStart < 64 && s[i] != '[' && s[i] != ' ' && s[i] != ':')
        ++i;
    if (i == identStart || i >= s.size() || s[i] != '[')
        return false;
    std::size_t j = i + 1;
    const auto pid = readUnsigned(s, j);
    if (!pid || j == i + 1 || *pid > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())
        || j + 2 >= s.size() || s[j] != ']' || s[j + 1] != ':' || s[j + 2] != ' ')
        return false;
    p.collectorTime = s.substr(0, hostStart - 1);
    p.host = host;
    s.remove_prefix(j + 3);
    return true;
}

} // namespace

std::string_view stripLineEmphasis(std::string_view line)
{
    if (line.size() < 3 || (line[0] != '*' && line[0] != '_' && line[0] != '`'))
        return line;
    std::string_view body = line;
    while (!body.empty() && (body.back() == ' ' || body.back() == '\t' || body.back() == '\r'))
        body.remove_suffix(1);
    for (const std::string_view marker : { std::string_view("**"), std::string_view("__"), std::string_view("`") }) {
        if (body.size() > 2 * marker.size() && body.starts_with(marker) && body.ends_with(marker)) {
            const std::string_view inner = body.substr(marker.size(), body.size() - 2 * marker.size());
            // "***" rules, "`` ` ``" and the like: a marker run, not a wrapped line.
            if (inner.front() == marker.front() || inner.back() == marker.back() || inner.front() == ' ')
                return line;
            return inner;
        }
    }
    return line;
}

std::string_view stripPrefixes(std::string_view line, LinePrefix& prefix)
{
    // Bounded: a hostile line of a million "[rank1]:" prefixes costs a few iterations only.
    for (int round = 0; round < 8 && !line.empty(); ++round) {
        const char c = line.front();
        bool stripped = false;
        if (round > 0 && !prefix.collectorTime.empty() && stripDeterminedTag(line, prefix)) {
            stripped = true;
        } else if (c == '[') {
            stripped = (round == 0 && (stripBracketedTime(line, prefix) || stripBareClock(line))) || stripTorchRank(line, prefix) || stripLauncherTag(line, prefix)
                || stripKubectlPrefix(line, prefix)
                || stripRankBeforeNcclHeader(line, prefix)
                || stripTorchrunTee(line, prefix) || stripLineNumber(line);
        } else if (c == '(') {
            stripped = stripRay(line, prefix) || stripSkyPilot(line, prefix);
        } else if (c == '*' || c == '_' || c == '`') {
            const std::string_view inner = stripLineEmphasis(line);
            stripped = inner.size() != line.size();
            line = inner;
        } else if (isUpper(c)) {
            stripped = stripMpiTimestamp(line) || stripVllmLoggerHeader(line, prefix) || stripLabelOrHost(line, prefix)
                || (round == 0 && stripGrepFileName(line, prefix)) || stripComposePrefix(line, prefix)
                || (round == 0 && stripSyslogHeader(line, prefix));
        } else if (isAlnum(c) || c == '.' || c == '/') {
            stripped = (round == 0 && isDigit(c)
                           && (stripSyslogHeader(line, prefix) || stripBareClock(line) || stripCollectorTimestamp(line, prefix)))
                || (isDigit(c) && stripPlainTimeBeforeRank(line, prefix))
                || stripLabelOrHost(line, prefix) || (round == 0 && stripGrepFileName(line, prefix))
                || stripComposePrefix(line, prefix);
        }
        if (!stripped)
            break;
    }
    return line;
}

} // namespace rankscope::parsers
