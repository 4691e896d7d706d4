#include "parsers/kernelparser.h"

#include "parsers/keywordset.h"
#include "parsers/textscan.h"

#include "model/xidcatalogue.h"

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

namespace rankscope::parsers {

using model::EventKind;
using model::Severity;

namespace {

constexpr std::int32_t kSxidMarker = 1; // Event::pgRank of an NVSwitch SXid (see header)
constexpr int kFallenOffBlockLines = 3; // lines the three-line message may still need
constexpr std::uint64_t kAerPairWindow = 3; // lines between "received" and its Bus Error line
constexpr std::uint64_t kOomLineWindow = 30; // lines one OOM kill spreads over


bool isHostChar(char c)
{
    return isAlnum(c) || c == '.' || c == '-' || c == '_';
}

// "Jun 11 10:00:00 node1 kernel: NVRM: …" → "node1". Empty for dmesg lines.
std::string_view syslogHost(std::string_view body)
{
    const std::size_t tag = findLiteral(body, " kernel: ");
    if (tag == std::string_view::npos)
        return {};
    std::size_t start = tag;
    while (start > 0 && tag - start < 255 && isHostChar(body[start - 1]))
        --start;
    // A time must stand in front of the host: "10:00:00 kernel:" stops at ':' and is rejected.
    if (start == tag || start == 0 || body[start - 1] != ' ')
        return {};
    return body.substr(start, tag - start);
}

// The first PCI address at or after `from`: "0000:10:1c", "(PCI:0000:aa:00.0)", …
std::optional<std::pair<std::size_t, std::string>> findPciAddress(
    std::string_view s, std::size_t from = 0)
{
    std::size_t colon = from;
    while ((colon = s.find(':', colon)) != std::string_view::npos) {
        std::size_t start = colon;
        while (start > from && colon - start < 8 && isHexDigit(s[start - 1]))
            --start;
        if (colon - start >= 4 && (start == 0 || !isAlnum(s[start - 1]))) {
            if (auto normalised = normalisePciAddress(s.substr(start)))
                return std::make_pair(start, std::move(*normalised));
        }
        ++colon;
    }
    return std::nullopt;
}

// The token that ends right before `end` (a device name before ": Port:").
std::string_view tokenBefore(std::string_view s, std::size_t end)
{
    std::size_t start = end;
    while (start > 0 && end - start < 128 && s[start - 1] != ' ')
        --start;
    return s.substr(start, end - start);
}

// "mlx5_core 0000:ab:00.0 mlx5_5: …": the device named before `colon` and its PCI address.
std::pair<std::string_view, std::string> deviceAndPci(std::string_view body, std::size_t colon)
{
    const std::string_view device = tokenBefore(body, colon);
    std::string pci;
    const std::size_t deviceStart = colon - device.size();
    if (deviceStart >= 2 && body[deviceStart - 1] == ' ') {
        const std::string_view token = tokenBefore(body, deviceStart - 1);
        std::size_t used = 0;
        if (auto normalised = normalisePciAddress(token, &used); normalised && used == token.size())
            pci = std::move(*normalised);
    }
    return { device, std::move(pci) };
}

// AER severities: "Corrected", "Correctable", "Uncorrected (Non-Fatal)", "Uncorrectable (Fatal)".
std::optional<Severity> aerSeverity(std::string_view text)
{
    if (contains(text, "Uncorrect") || contains(text, "Fatal"))
        return Severity::Error;
    if (contains(text, "Correct"))
        return Severity::Warning;
    return std::nullopt;
}

// Which grammars a line may hold. Kernel lines are rare in a training log, so this runs on
// nearly every line for nothing: the signal words are found in one pass of the keyword
// prefilter, except "AER", too short for it, looked for by memchr on its rarer 'R'.
enum Signal : unsigned {
    kSignalXid = 1u << 0, // "Xid ("
    kSignalNvrm = 1u << 1, // "NVRM"
    kSignalLink = 1u << 2, // "Link "
    kSignalAer = 1u << 3, // "AER", "PCIe Bus Error"
    kSignalOom = 1u << 4, // "Kill", "oom-kill:"
    kSignalSmi = 1u << 5, // "device handle for GPU"
};

struct SignalWord {
    std::string_view word;
    unsigned signal;
};

constexpr SignalWord kSignalWords[] = {
    { "Xid (", kSignalXid },
    { "NVRM", kSignalNvrm },
    { "Link ", kSignalLink },
    { "Bus Error", kSignalAer },
    { "Kill", kSignalOom },
    { "oom-kill:", kSignalOom },
    { "device handle for GPU", kSignalSmi },
};

const KeywordSet& signalKeywords()
{
    static const KeywordSet set = [] {
        std::vector<std::string_view> words;
        for (const SignalWord& w : kSignalWords)
            words.push_back(w.word);
        return KeywordSet(std::move(words));
    }();
    return set;
}

bool containsAer(std::string_view s)
{
    const char* const begin = s.data();
    const char* const end = begin + s.size();
    for (const char* p = static_cast<const char*>(std::memchr(begin, 'R', s.size())); p;
         p = static_cast<const char*>(
             std::memchr(p + 1, 'R', static_cast<std::size_t>(end - p - 1)))) {
        if (p - begin >= 2 && p[-2] == 'A' && p[-1] == 'E')
            return true;
        if (p + 1 >= end)
            break;
    }
    return false;
}

unsigned scanSignals(std::string_view s)
{
    unsigned found = 0;
    const std::uint64_t words = signalKeywords().find(s);
    for (std::size_t k = 0; k < std::size(kSignalWords); ++k)
        if (words & (std::uint64_t { 1 } << k))
            found |= kSignalWords[k].signal;
    if (!(found & kSignalAer) && containsAer(s))
        found |= kSignalAer;
    return found;
}

std::optional<std::int32_t> toPid(std::uint64_t value)
{
    if (value == 0 || value > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
        return std::nullopt;
    return static_cast<std::int32_t>(value);
}

// Skips "key=value, " at s[i] (values like '<unknown>' have no comma).
void skipField(std::string_view s, std::size_t& i)
{
    const std::size_t comma = s.find(',', i);
    i = comma == std::string_view::npos ? s.size() : comma + 1;
    while (i < s.size() && s[i] == ' ')
        ++i;
}

} // namespace

std::optional<std::string> normalisePciAddress(std::string_view s, std::size_t* consumed)
{
    std::size_t i = 0;
    while (i < s.size() && i < 9 && isHexDigit(s[i]))
        ++i;
    if (i < 4 || i > 8 || i + 6 > s.size() || s[i] != ':' || !isHexDigit(s[i + 1])
        || !isHexDigit(s[i + 2]) || s[i + 3] != ':' || !isHexDigit(s[i + 4])
        || !isHexDigit(s[i + 5]))
        return std::nullopt;
    std::size_t d = 0;
    const auto domain = readHex(s.substr(0, i), d);
    if (!domain)
        return std::nullopt;
    std::size_t end = i + 6;
    char function = '0';
    if (end + 1 < s.size() && s[end] == '.' && s[end + 1] >= '0' && s[end + 1] <= '7') {
        function = s[end + 1];
        end += 2;
    }
    if (end < s.size() && isAlnum(s[end]))
        return std::nullopt;
    auto lower = [](char c) { return isUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; };
    char buffer[32];
    const int n = std::snprintf(buffer, sizeof buffer, "%04" PRIx64 ":%c%c:%c%c.%c", *domain,
        lower(s[i + 1]), lower(s[i + 2]), lower(s[i + 4]), lower(s[i + 5]), function);
    if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buffer)
        return std::nullopt;
    if (consumed)
        *consumed = end;
    return std::string(buffer, static_cast<std::size_t>(n));
}

bool KernelParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (!m_pendingFallenOff.empty() && continueFallenOff(ctx, body, out))
        return true;

    const unsigned signals = scanSignals(body);
    if (signals == 0)
        return false;
    if (signals & kSignalXid) {
        for (std::size_t at = findLiteral(body, "Xid ("); at != std::string_view::npos;
             at = findLiteral(body, "Xid (", at + 1)) {
            const bool sxid = at > 0 && body[at - 1] == 'S';
            const bool nvrm = at >= 6 && body.substr(at - 6, 6) == "NVRM: ";
            if ((sxid || nvrm) && parseXid(ctx, body, at, out))
                return true;
        }
    }
    if ((signals & kSignalNvrm) && parseFallenOff(ctx, body, out))
        return true;
    if ((signals & kSignalLink) && parseLinkState(ctx, body, out))
        return true;
    if ((signals & kSignalAer) && parseAer(ctx, body, out))
        return true;
    if ((signals & kSignalOom) && parseOom(ctx, body, out))
        return true;
    if ((signals & kSignalSmi) && parseSmiUnknownError(ctx, body, out))
        return true;
    return false;
}

// nvidia-smi (NVML) on a GPU the driver lost: "Unable to determine the device handle for
// GPU0000:03:00.0: Unknown Error" (also "GPU is lost"). NVML cannot reach the device at all,
// which is what a GPU fallen off the bus or hung in firmware looks like from user space.
bool KernelParser::parseSmiUnknownError(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    constexpr std::string_view kHead = "Unable to determine the device handle for GPU";
    const std::size_t at = findLiteral(body, kHead);
    if (at == std::string_view::npos)
        return false;
    std::size_t i = at + kHead.size();
    while (i < body.size() && body[i] == ' ')
        ++i;
    const std::size_t start = i;
    while (i < body.size() && (isHexDigit(body[i]) || body[i] == ':' || body[i] == '.'))
        ++i;
    std::string_view bus = body.substr(start, i - start);
    while (!bus.empty() && bus.back() == ':')
        bus.remove_suffix(1);
    const std::string_view reason = trim(body.substr(i));
    if (!(contains(reason, "Unknown Error") || contains(reason, "GPU is lost")))
        return false;
    model::Event& e = addEvent(out, ctx, EventKind::GpuInaccessible, Severity::Error, trim(body.substr(at)));
    e.detail = out.intern(bus);
    return true;
}

void KernelParser::finish(model::ParsedSource&)
{
    m_pendingFallenOff.clear();
    m_recentAer.clear();
    m_recentOom.clear();
}

model::Event& KernelParser::emit(model::ParsedSource& out, const LineContext& ctx,
    std::string_view body, EventKind kind, Severity severity, std::string_view text)
{
    const std::string_view host = syslogHost(body);
    const std::uint32_t identity
        = host.empty() ? ctx.identity : identityWithProcess(out, ctx, host, -1);
    model::Event& e = addEvent(out, ctx, kind, severity, text);
    e.identity = identity;
    return e;
}

// "NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, name=python3, text" and
// "nvidia-nvswitch1: SXid (PCI:0000:aa:00.0): 24007, text"; `at` points at "Xid (".
bool KernelParser::parseXid(
    const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out)
{
    const bool sxid = at > 0 && body[at - 1] == 'S';
    std::size_t i = at + 5;
    if (body.substr(i).starts_with("PCI:"))
        i += 4;
    std::size_t used = 0;
    std::optional<std::string> busId = normalisePciAddress(body.substr(i), &used);
    i += used;
    if (!busId) {
        // A paste that blanked the address ("Xid (PCI:...): 145, …", "Xid (PCI:xxxx:xx:xx):")
        // still says which Xid happened on this host; only the GPU is unknown.
        const std::size_t close = body.find("): ", i);
        if (close != std::string_view::npos && close - i <= 16
            && body.substr(i, close - i).find_first_of("0123456789abcdefABCDEF") == std::string_view::npos) {
            busId = std::string();
            i = close;
        }
    }
    if (!busId || !body.substr(i).starts_with("): ")) {
        out.issues.add("malformed_xid_line", out.sampleAt(ctx.lineNo, ctx.line));
        return false;
    }
    i += 3;
    const auto code = readUnsigned(body, i);
    if (!code || *code > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
        out.issues.add("malformed_xid_line", out.sampleAt(ctx.lineNo, ctx.line));
        return false;
    }
    if (i < body.size() && body[i] == ',')
        ++i;
    while (i < body.size() && body[i] == ' ')
        ++i;

    std::int32_t pid = -1;
    if (!sxid && body.substr(i).starts_with("pid=")) {
        std::size_t j = i + 4;
        if (const auto value = readUnsigned(body, j))
            pid = toPid(*value).value_or(-1);
        skipField(body, i);
    }
    if (!sxid && body.substr(i).starts_with("name="))
        skipField(body, i);
    const std::string_view description = trim(body.substr(i));

    const std::string text = sxid ? "SXid: " + std::string(description) : std::string(description);
    model::Event& e = emit(
        out, ctx, body, EventKind::GpuXid, sxid ? Severity::Error : model::xidSeverity(*code), text);
    e.code = static_cast<std::int32_t>(*code);
    e.detail = busId->empty() ? model::kNoStr : out.intern(*busId);
    e.pid = pid;
    if (sxid)
        e.pgRank = kSxidMarker;
    else if (*code == 79 && !busId->empty())
        m_fallenOffReported.emplace(e.identity, *busId);
    return true;
}

// "NVRM: GPU 0000:01:00.0: GPU has fallen off the bus." or the first line of the three-line
// "NVRM: The NVIDIA GPU 0000:b3:00.0" message.
bool KernelParser::parseFallenOff(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::size_t nvrm = findLiteral(body, "NVRM: ");
    if (nvrm == std::string_view::npos)
        return false;
    const std::string_view message = body.substr(nvrm + 6);
    const auto pci = findPciAddress(message);
    if (!pci)
        return false;
    const std::string_view host = syslogHost(body);
    const std::uint32_t identity
        = host.empty() ? ctx.identity : identityWithProcess(out, ctx, host, -1);
    if (contains(message, "fallen off the bus")) {
        reportFallenOff(out, ctx.evidence(), ctx.bestTime(), identity, pci->second);
        return true;
    }
    if (!message.starts_with("The NVIDIA GPU "))
        return false;
    PendingFallenOff& pending = m_pendingFallenOff[ctx.identity];
    pending.busId = pci->second;
    pending.evidence = ctx.evidence();
    pending.time = ctx.bestTime();
    pending.identity = identity;
    pending.linesLeft = kFallenOffBlockLines;
    return true;
}

// The second and third lines of the three-line message; they carry no time in dmesg.
bool KernelParser::continueFallenOff(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    auto it = m_pendingFallenOff.find(ctx.identity);
    if (it == m_pendingFallenOff.end())
        return false;
    const std::size_t nvrm = findLiteral(body, "NVRM: ");
    const std::string_view message
        = nvrm == std::string_view::npos ? std::string_view {} : body.substr(nvrm + 6);
    // A line naming a GPU of its own starts a new message.
    const bool namesGpu = !message.empty() && findPciAddress(message).has_value();
    if (!message.empty() && !namesGpu && contains(message, "fallen off the bus")) {
        const PendingFallenOff pending = std::move(it->second);
        m_pendingFallenOff.erase(it);
        reportFallenOff(out, pending.evidence, pending.time, pending.identity, pending.busId);
        return true;
    }
    const bool middleLine = !namesGpu && contains(message, "installed in this system");
    if (--it->second.linesLeft <= 0 || namesGpu)
        m_pendingFallenOff.erase(it);
    return middleLine;
}

void KernelParser::reportFallenOff(model::ParsedSource& out, const model::EvidenceRef& evidence,
    const model::TimePoint& time, std::uint32_t identity, const std::string& busId)
{
    if (!m_fallenOffReported.emplace(identity, busId).second)
        return;
    model::Event& e = out.events.emplace_back();
    e.kind = EventKind::GpuXid;
    e.severity = Severity::Error;
    e.evidence = evidence;
    e.identity = identity;
    e.time = time;
    e.code = 79;
    e.detail = out.intern(busId);
    e.text = out.intern("GPU has fallen off the bus");
}

// "mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link DOWN" (IB core port state, any driver) and
// "mlx5_core 0000:53:00.0 enp83s0f0np0: Link down" (the port's netdev).
bool KernelParser::parseLinkState(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    std::size_t colon = findLiteral(body, ": Port: ");
    std::string state;
    if (colon != std::string_view::npos) {
        std::size_t i = colon + 8;
        if (!readUnsigned(body, i) || !body.substr(i).starts_with(" Link "))
            return false;
        i += 6;
        const std::size_t start = i;
        while (i < body.size() && (isUpper(body[i]) || body[i] == '_'))
            ++i;
        if (i == start || (i < body.size() && !isSpace(body[i]) && body[i] != '\r'))
            return false;
        state = body.substr(start, i - start);
    } else {
        colon = findLiteral(body, ": Link ");
        if (colon == std::string_view::npos || !contains(body.substr(0, colon), "mlx5_core "))
            return false;
        const std::string_view word = body.substr(colon + 7);
        auto isWord = [&](std::string_view w) {
            return word.starts_with(w) && (word.size() == w.size() || !isAlnum(word[w.size()]));
        };
        if (isWord("up"))
            state = "UP";
        else if (isWord("down"))
            state = "DOWN";
        else
            return false;
    }
    auto [device, pci] = deviceAndPci(body, colon);
    if (device.empty())
        return false;
    const bool up = state == "ACTIVE" || state == "UP";
    model::Event& e = emit(
        out, ctx, body, EventKind::NicLinkState, up ? Severity::Info : Severity::Warning, state);
    e.detail = out.intern(device);
    if (!pci.empty())
        e.peer = out.intern(pci);
    return true;
}

// "pcieport 0000:00:03.0: AER: Corrected error received: 0000:00:03.0" and
// "pcieport 0000:00:03.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (…)".
bool KernelParser::parseAer(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (const std::size_t bus = findLiteral(body, "PCIe Bus Error: ");
        bus != std::string_view::npos) {
        const std::size_t sevAt = findLiteral(body, "severity=", bus);
        if (sevAt == std::string_view::npos)
            return false;
        const std::size_t sevEnd = body.find(',', sevAt);
        const auto severity = aerSeverity(body.substr(sevAt + 9,
            sevEnd == std::string_view::npos ? std::string_view::npos : sevEnd - sevAt - 9));
        if (!severity)
            return false;
        const auto device = findPciAddress(body.substr(0, bus));
        const std::string address = device ? device->second : std::string();
        const std::string_view text = trim(body.substr(bus));

        // The kernel printed the root port's "received" line just before: one error, one event.
        auto recent = m_recentAer.find(ctx.identity);
        if (recent != m_recentAer.end() && ctx.lineNo > recent->second.lineNo
            && ctx.lineNo - recent->second.lineNo <= kAerPairWindow
            && recent->second.address == address && recent->second.eventIndex < out.events.size()) {
            model::Event& e = out.events[recent->second.eventIndex];
            std::string merged(out.text(e.text));
            merged += "; ";
            merged += text;
            e.text = out.intern(std::string_view(merged).substr(0, kMaxEventText));
            if (*severity > e.severity)
                e.severity = *severity;
            m_recentAer.erase(recent);
            return true;
        }
        model::Event& e = emit(out, ctx, body, EventKind::PcieError, *severity, text);
        if (!address.empty())
            e.detail = out.intern(address);
        return true;
    }

    const std::size_t aer = findLiteral(body, "AER: ");
    if (aer == std::string_view::npos)
        return false;
    const std::size_t received = findLiteral(body, " received", aer);
    if (received == std::string_view::npos)
        return false;
    const auto severity = aerSeverity(body.substr(aer + 5, received - aer - 5));
    if (!severity)
        return false;
    auto source = findPciAddress(body, received);
    if (!source)
        source = findPciAddress(body.substr(0, aer));
    const std::string address = source ? source->second : std::string();
    model::Event& e = emit(out, ctx, body, EventKind::PcieError, *severity, trim(body.substr(aer)));
    if (!address.empty())
        e.detail = out.intern(address);
    m_recentAer[ctx.identity] = { out.events.size() - 1, ctx.lineNo, address };
    return true;
}

// "Out of memory: Killed process 1234 (python) …", "Memory cgroup out of memory: Killed process
// 1234 (python) …", older "Out of memory: Kill process 1234 (python) score 900 or sacrifice
// child" and "oom-kill:…,task=python,pid=1234,uid=0".
bool KernelParser::parseOom(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    std::size_t cgroup = findLiteral(body, "Memory cgroup out of memory: ");
    std::size_t global = findLiteral(body, "Out of memory: ");
    const std::size_t phrase = cgroup != std::string_view::npos ? cgroup : global;

    std::int32_t pid = -1;
    std::string_view command;
    std::size_t start = std::string_view::npos;
    auto readKilled = [&](std::size_t at, std::size_t skip) {
        std::size_t i = at + skip;
        const auto value = readUnsigned(body, i);
        if (!value || !body.substr(i).starts_with(" ("))
            return;
        const std::size_t close = body.find(')', i + 2);
        if (close == std::string_view::npos)
            return;
        pid = toPid(*value).value_or(-1);
        command = body.substr(i + 2, close - i - 2);
        start = at;
    };
    if (const std::size_t killed = findLiteral(body, "Killed process ");
        killed != std::string_view::npos) {
        readKilled(killed, 15);
    } else if (const std::size_t kill = findLiteral(body, "Kill process ");
               kill != std::string_view::npos && phrase != std::string_view::npos) {
        readKilled(kill, 13);
    } else if (const std::size_t oomKill = findLiteral(body, "oom-kill:");
               oomKill != std::string_view::npos) {
        const std::size_t pidAt = findLiteral(body, ",pid=", oomKill);
        if (pidAt == std::string_view::npos)
            return false;
        std::size_t i = pidAt + 5;
        if (const auto value = readUnsigned(body, i))
            pid = toPid(*value).value_or(-1);
        if (const std::size_t task = findLiteral(body, ",task=", oomKill);
            task != std::string_view::npos) {
            const std::size_t end = body.find(',', task + 6);
            command = body.substr(
                task + 6, end == std::string_view::npos ? std::string_view::npos : end - task - 6);
        }
        start = oomKill;
    }
    if (pid < 0)
        return false;
    if (phrase != std::string_view::npos && phrase < start)
        start = phrase;

    RecentOom& recent = m_recentOom[ctx.identity];
    if (recent.pid == pid && ctx.lineNo >= recent.lineNo
        && ctx.lineNo - recent.lineNo <= kOomLineWindow) {
        recent.lineNo = ctx.lineNo;
        return true;
    }
    recent = { pid, ctx.lineNo };
    model::Event& e = emit(
        out, ctx, body, EventKind::HostOutOfMemory, Severity::Error, trim(body.substr(start)));
    e.pid = pid;
    if (!command.empty())
        e.detail = out.intern(command);
    return true;
}

} // namespace rankscope::parsers
