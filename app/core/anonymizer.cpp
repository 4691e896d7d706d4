#include "app/core/anonymizer.h"

#include <algorithm>
#include <cstdio>

namespace rankscope::app {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isAlpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isAlnum(char c)
{
    return isDigit(c) || isAlpha(c);
}
bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// Characters of a host name, a dotted address, a job id or a user name.
bool isTokenChar(char c)
{
    return isAlnum(c) || c == '.' || c == '-' || c == '_';
}
char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iStartsWith(std::string_view s, std::size_t at, std::string_view prefix)
{
    if (s.size() - std::min(at, s.size()) < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lower(s[at + i]) != lower(prefix[i]))
            return false;
    return true;
}

bool isOneToken(std::string_view s)
{
    return !s.empty() && isAlnum(s.front()) && std::all_of(s.begin(), s.end(), isTokenChar);
}

// "node2" < "node10": digit runs compare by value, so host-02 is node2.
bool naturalLess(std::string_view a, std::string_view b)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            std::size_t ie = i;
            std::size_t je = j;
            while (ie < a.size() && isDigit(a[ie]))
                ++ie;
            while (je < b.size() && isDigit(b[je]))
                ++je;
            std::string_view da = a.substr(i, ie - i);
            std::string_view db = b.substr(j, je - j);
            while (da.size() > 1 && da.front() == '0')
                da.remove_prefix(1);
            while (db.size() > 1 && db.front() == '0')
                db.remove_prefix(1);
            if (da.size() != db.size())
                return da.size() < db.size();
            if (da != db)
                return da < db;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

// A dotted quad at s[at]: its length, or 0. Bounded by characters that cannot continue an
// address (a version "1.2.3.4.5" or "v1.2.3.4" is not one).
std::size_t ipv4At(std::string_view s, std::size_t at)
{
    if (at > 0 && (isAlnum(s[at - 1]) || s[at - 1] == '.'))
        return 0;
    std::size_t i = at;
    for (int part = 0; part < 4; ++part) {
        if (part > 0) {
            if (i >= s.size() || s[i] != '.')
                return 0;
            ++i;
        }
        const std::size_t start = i;
        unsigned value = 0;
        while (i < s.size() && isDigit(s[i]) && i - start < 4)
            value = value * 10 + static_cast<unsigned>(s[i++] - '0');
        if (i == start || i - start > 3 || value > 255)
            return 0;
    }
    if (i < s.size() && (isAlnum(s[i]) || (s[i] == '.' && i + 1 < s.size() && isDigit(s[i + 1]))))
        return 0;
    return i - at;
}

bool keepIp(std::string_view ip)
{
    return ip.starts_with("127.") || ip == "0.0.0.0" || ip == "255.255.255.255" || ip == "::1"
        || ip == "::";
}

// An IPv6 address at s[at] ("fe80::1", "2001:db8::5", a full 8-group form): its length, or 0.
// C++ names ("c10d::ProcessGroup") and clock times ("20:27:21") are not addresses.
std::size_t ipv6At(std::string_view s, std::size_t at)
{
    if (at > 0 && (isAlnum(s[at - 1]) || s[at - 1] == ':' || s[at - 1] == '.'))
        return 0;
    std::size_t i = at;
    int colons = 0;
    bool doubleColon = false;
    int hexDigits = 0;
    int groupLength = 0;
    while (i < s.size() && (isHex(s[i]) || s[i] == ':')) {
        if (s[i] == ':') {
            ++colons;
            if (i + 1 < s.size() && s[i + 1] == ':') {
                if (doubleColon)
                    return 0;
                doubleColon = true;
            }
            groupLength = 0;
        } else {
            ++hexDigits;
            if (++groupLength > 4)
                return 0;
        }
        ++i;
    }
    if (i < s.size() && (isAlnum(s[i]) || s[i] == '.'))
        return 0; // a word, or the IPv4 tail of ::ffff:10.0.0.1 (the IPv4 part is found on its own)
    const std::string_view candidate = s.substr(at, i - at);
    if (candidate.ends_with(":") && !candidate.ends_with("::"))
        return 0;
    if (hexDigits == 0 || colons < 2 || colons > 7 || (!doubleColon && colons != 7))
        return 0;
    return i - at;
}

// The value after NAME= / NAME: / NAME (space): a run of token characters.
std::string_view valueAfter(std::string_view s, std::size_t i)
{
    while (
        i < s.size() && (s[i] == ' ' || s[i] == '"' || s[i] == '\'' || s[i] == '=' || s[i] == ':'))
        ++i;
    std::size_t end = i;
    while (end < s.size() && isTokenChar(s[end]))
        ++end;
    return s.substr(i, end - i);
}

std::string numbered(std::string_view prefix, unsigned n)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*s-%02u", static_cast<int>(prefix.size()), prefix.data(), n);
    return buf;
}

} // namespace

Anonymizer::Anonymizer(const model::Bundle& b)
{
    // Hosts: the bundle's host list in natural order first (so the numbering is the order
    // people read the host list in), then every other place a host is named.
    auto sortedNames = [&](std::vector<std::string> names) {
        std::sort(names.begin(), names.end(), naturalLess);
        names.erase(std::unique(names.begin(), names.end()), names.end());
        return names;
    };
    std::vector<std::string> worldHosts;
    for (auto h : b.world.hosts)
        worldHosts.emplace_back(b.text(h));
    std::vector<std::string> otherHosts;
    auto other = [&](model::StrId id) {
        if (id != model::kNoStr)
            otherHosts.emplace_back(b.text(id));
    };
    for (const auto& r : b.ranks)
        other(r.host);
    for (const auto& id : b.identities)
        other(id.host);
    for (const auto& c : b.commInits)
        other(c.host);
    for (const auto& a : b.bootstrapAddresses)
        other(a.host);
    for (const auto& l : b.commLinks)
        other(l.host);
    for (const auto& t : b.collTraces)
        other(t.host);
    for (const auto& f : b.launcherFailures)
        other(f.host);
    for (const auto& w : b.workerGroups)
        other(w.host);
    for (const auto& g : b.gpuUtil)
        other(g.host);
    for (const auto& s : b.sources)
        if (!s.pathIdentity.host.empty())
            otherHosts.push_back(s.pathIdentity.host);
    for (const auto& h : sortedNames(std::move(worldHosts)))
        addHost(h);
    for (const auto& h : sortedNames(std::move(otherHosts)))
        addHost(h);

    // Addresses the parsers tied to processes, in rank order.
    for (const auto& r : b.ranks)
        for (auto ip : r.ips)
            addIp(b.text(ip));
    for (const auto& a : b.bootstrapAddresses)
        addIp(b.text(a.ip));
    for (const auto& id : b.identities)
        if (id.ip != model::kNoStr)
            addIp(b.text(id.ip));
    for (const auto& s : b.sources) {
        learn(s.path);
        learn(s.containerPath);
    }
}

std::string_view Anonymizer::pseudonymOf(std::string_view original) const
{
    const auto it = m_index.find(std::string(original));
    return it == m_index.end() ? std::string_view()
                               : std::string_view(m_entries[it->second].pseudonym);
}

const std::string& Anonymizer::add(Kind kind, std::string_view original, std::string_view reuse)
{
    const auto it = m_index.find(std::string(original));
    if (it != m_index.end())
        return m_entries[it->second].pseudonym;
    static constexpr std::string_view kPrefix[] = { "host", "ip", "user", "job" };
    Entry e;
    e.kind = kind;
    e.original = std::string(original);
    const auto k = static_cast<std::size_t>(kind);
    e.pseudonym = reuse.empty() ? numbered(kPrefix[k], ++m_next[k]) : std::string(reuse);
    m_entries.push_back(std::move(e));
    const std::size_t index = m_entries.size() - 1;
    m_index.emplace(m_entries.back().original, index);
    if (isOneToken(original))
        m_longestToken = std::max(m_longestToken, original.size());
    else
        m_literals.push_back(index);
    return m_entries[index].pseudonym;
}

void Anonymizer::addHost(std::string_view host)
{
    while (!host.empty() && (host.back() == '.' || host.back() == ' '))
        host.remove_suffix(1);
    if (host.empty() || host == "localhost" || host == "?")
        return;
    if (ipv4At(host, 0) == host.size() || ipv6At(host, 0) == host.size()) {
        addIp(host); // pdsh "10.1.2.3: " prefixes name hosts by address
        return;
    }
    // node-07.cluster.example.org and node-07 are one machine: one pseudonym for both.
    const std::size_t dot = host.find('.');
    if (dot != std::string_view::npos && dot > 0) {
        const std::string pseudonym = add(Kind::Host, host.substr(0, dot));
        add(Kind::Host, host, pseudonym);
        return;
    }
    add(Kind::Host, host);
}

void Anonymizer::addIp(std::string_view ip)
{
    if (!ip.empty() && !keepIp(ip))
        add(Kind::Ip, ip);
}

void Anonymizer::addUser(std::string_view user)
{
    if (user.size() >= 2 && isOneToken(user))
        add(Kind::User, user);
}

void Anonymizer::addJob(std::string_view job)
{
    // Short values would rewrite rank numbers and counts all over the report.
    const bool digits = std::all_of(job.begin(), job.end(), isDigit);
    if (job.size() < (digits ? 4u : 3u) || !isOneToken(job) || job == "none" || job == "default")
        return;
    add(Kind::Job, job);
}

void Anonymizer::learn(std::string_view text)
{
    learnIps(text);
    learnUsers(text);
    learnJobs(text);
}

void Anonymizer::learnIps(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (isDigit(s[i])) {
            if (const std::size_t n = ipv4At(s, i)) {
                addIp(s.substr(i, n));
                i += n - 1;
                continue;
            }
        }
        if (isHex(s[i]) || s[i] == ':') {
            if (const std::size_t n = ipv6At(s, i)) {
                addIp(s.substr(i, n));
                i += n - 1;
            }
        }
    }
}

void Anonymizer::learnUsers(std::string_view s)
{
    static constexpr std::string_view kHomes[]
        = { "/home/", "/Users/", "/homes/", "/scratch/", "\\Users\\" };
    for (std::string_view home : kHomes) {
        for (std::size_t at = s.find(home); at != std::string_view::npos;
             at = s.find(home, at + 1)) {
            const std::size_t begin = at + home.size();
            std::size_t end = begin;
            while (end < s.size() && isTokenChar(s[end]))
                ++end;
            if (end < s.size() && s[end] != '/' && s[end] != '\\' && s[end] != ' ' && s[end] != '\''
                && s[end] != '"' && s[end] != ':')
                continue;
            addUser(s.substr(begin, end - begin));
        }
    }
}

void Anonymizer::learnJobs(std::string_view s)
{
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool wordStart = i == 0 || !isAlnum(s[i - 1]);
        if (!wordStart)
            continue;
        // slurm-1234567.out, slurm-1234567_4.out (array tasks)
        if (s.compare(i, 6, "slurm-") == 0 && i + 6 < s.size() && isDigit(s[i + 6])) {
            std::size_t end = i + 6;
            while (end < s.size() && isDigit(s[end]))
                ++end;
            addJob(s.substr(i + 6, end - i - 6));
            continue;
        }
        // slurmstepd: "*** STEP 6059952.0 ON node CANCELLED", "*** JOB 6059952 ON node …",
        // srun: "job 6059952 queued and waiting for resources"
        for (std::string_view word : { "STEP ", "JOB ", "job ", "Job " }) {
            if (s.compare(i, word.size(), word) == 0 && i + word.size() < s.size()
                && isDigit(s[i + word.size()])) {
                std::size_t end = i + word.size();
                while (end < s.size() && isDigit(s[end]))
                    ++end;
                addJob(s.substr(i + word.size(), end - i - word.size()));
            }
        }
        // SLURM_JOB_ID=, SLURM_JOBID=, SLURM_ARRAY_JOB_ID=, PBS_JOBID=, LSB_JOBID=, JobId=
        for (std::string_view name : { "job_id", "jobid" }) {
            std::size_t at = i;
            while (at < s.size() && (isAlnum(s[at]) || s[at] == '_'))
                ++at;
            const std::string_view word = s.substr(i, at - i);
            if (word.size() >= name.size() && iStartsWith(word, word.size() - name.size(), name)
                && at < s.size() && (s[at] == '=' || s[at] == ':')) {
                addJob(valueAfter(s, at));
                break;
            }
        }
        // torchrun: "run_id: 1234abcd", --rdzv_id=…, --rdzv-id …, rdzv_run_id='…'
        for (std::string_view name : { "rdzv_run_id", "run_id", "rdzv_id", "rdzv-id", "run-id" }) {
            if (iStartsWith(s, i, name)) {
                const std::size_t after = i + name.size();
                if (after < s.size()
                    && (s[after] == '=' || s[after] == ':' || s[after] == ' ' || s[after] == '\''
                        || s[after] == '"'))
                    addJob(valueAfter(s, after));
            }
        }
    }
    // <log dir>/<rdzv run id>/attempt_0/3/stderr.log ([formats 5.4])
    for (std::size_t at = s.find("/attempt_"); at != std::string_view::npos;
         at = s.find("/attempt_", at + 1)) {
        std::size_t begin = at;
        while (begin > 0 && isTokenChar(s[begin - 1]))
            --begin;
        addJob(s.substr(begin, at - begin));
    }
}

std::string Anonymizer::apply(std::string_view s) const
{
    std::string out;
    out.reserve(s.size() + 16);
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isAlnum(s[i]) || (i > 0 && isAlnum(s[i - 1])) || m_longestToken == 0) {
            out += s[i++];
            continue;
        }
        std::size_t runEnd = i;
        while (runEnd < s.size() && runEnd - i < m_longestToken && isTokenChar(s[runEnd]))
            ++runEnd;
        // Longest candidate first; a candidate ends where the next character cannot
        // continue a name (so node-1 does not match inside node-10).
        bool replaced = false;
        for (std::size_t k = runEnd; k > i; --k) {
            const bool boundary = k == s.size() || !isAlnum(s[k]);
            if (!boundary)
                continue;
            const auto it = m_index.find(std::string(s.substr(i, k - i)));
            if (it == m_index.end())
                continue;
            out += m_entries[it->second].pseudonym;
            i = k;
            replaced = true;
            break;
        }
        if (!replaced)
            out += s[i++];
    }
    return m_literals.empty() ? out : applyLiterals(std::move(out));
}

std::string Anonymizer::applyLiterals(std::string text) const
{
    // Longest first, so an address is not partly replaced by a shorter one it contains.
    std::vector<std::size_t> order = m_literals;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return m_entries[a].original.size() > m_entries[b].original.size();
    });
    for (std::size_t index : order) {
        const Entry& e = m_entries[index];
        std::string out;
        std::size_t pos = 0;
        for (std::size_t at = text.find(e.original); at != std::string::npos;
             at = text.find(e.original, at + 1)) {
            if (at < pos)
                continue;
            const std::size_t end = at + e.original.size();
            const bool addressLike = e.kind == Kind::Ip;
            auto continues = [&](char c) { return isAlnum(c) || (addressLike && c == ':'); };
            if ((at > 0 && continues(text[at - 1])) || (end < text.size() && continues(text[end])))
                continue;
            out.append(text, pos, at - pos);
            out += e.pseudonym;
            pos = end;
        }
        if (pos == 0)
            continue;
        out.append(text, pos, std::string::npos);
        text = std::move(out);
    }
    return text;
}

} // namespace rankscope::app
