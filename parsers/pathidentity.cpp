#include "parsers/pathidentity.h"

#include "parsers/textscan.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rankscope::parsers {

namespace {

std::vector<std::string_view> splitPath(std::string_view path)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/' || path[i] == '\\' || path[i] == '!') {
            if (i > start)
                parts.push_back(path.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (isUpper(c))
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view stem(std::string_view name)
{
    // Strip known extensions, repeatedly ("rank3.log.gz").
    for (;;) {
        const auto dot = name.rfind('.');
        if (dot == std::string_view::npos || dot == 0)
            return name;
        const std::string ext = lower(name.substr(dot + 1));
        static const char* kExts[] = { "log", "txt", "out", "err", "gz", "zst", "json", "stdout", "dmesg", "csv", "kmsg", "syslog",
            "stderr", "pkl", "pickle" };
        if (std::find_if(std::begin(kExts), std::end(kExts), [&](const char* e) { return ext == e; })
            == std::end(kExts))
            return name;
        name = name.substr(0, dot);
    }
}

// Number right after `word` (optionally separated by '_', '-' or nothing), e.g.
// "rank_0003" → 3. The word must start the name or follow a separator.
int numberAfterWord(std::string_view name, std::string_view word)
{
    const std::string low = lower(name);
    std::size_t pos = 0;
    while ((pos = low.find(word, pos)) != std::string::npos) {
        const bool boundary = pos == 0 || !isAlpha(low[pos - 1]);
        std::size_t i = pos + word.size();
        if (boundary && i < low.size() && (low[i] == '_' || low[i] == '-' || low[i] == '.'))
            ++i;
        if (boundary && i < low.size() && isDigit(low[i])) {
            std::size_t j = i;
            const auto v = readUnsigned(low, j);
            if (v && *v < 10'000'000 && (j == low.size() || !isAlpha(low[j]) || low[j] == 'x'))
                return static_cast<int>(*v);
        }
        pos += word.size();
    }
    return -1;
}

bool allDigits(std::string_view s)
{
    return !s.empty() && s.size() <= 7 && std::all_of(s.begin(), s.end(), isDigit);
}

// Folder names that are hosts: "node-07", "gpu003", "worker-3", "host12", or anything with a
// digit that is not a torchrun or attempt folder.
bool looksLikeHostFolder(std::string_view part)
{
    if (part.empty() || allDigits(part) || part.starts_with("attempt_") || part.size() > 64)
        return false;
    const std::string low = lower(part);
    for (std::string_view word : { "node", "host", "gpu", "worker", "compute", "server", "ip-", "dgx", "nid",
             "cn", "hgx", "a100", "h100", "h200", "b200", "trn", "p4d", "p5" })
        if (low.starts_with(word))
            return true;
    return false;
}

// "part2", "chunk-3", "split_1": one piece of a capture cut in several, not a host.
bool isPieceOfCapture(std::string_view rest)
{
    const std::string low = lower(rest);
    for (std::string_view word : { "part", "chunk", "split", "piece" }) {
        if (!low.starts_with(word))
            continue;
        std::string_view number = std::string_view(low).substr(word.size());
        if (!number.empty() && (number.front() == '-' || number.front() == '_' || number.front() == '.'))
            number.remove_prefix(1);
        if (!number.empty() && allDigits(number))
            return true;
    }
    return false;
}

// The host part of a per-node capture's name, with the capture word removed.
std::string hostFromCaptureName(std::string_view base)
{
    const std::string low = lower(base);
    for (std::string_view word : { "dmesg", "kern", "kernel", "syslog", "journal", "messages", "nvidia-smi", "nvidia_smi",
             "nvsmi", "dcgm", "dcgmi", "gpu-util", "gpu_util", "ibstat", "console", "agent", "torchrun" }) {
        std::size_t pos = low.find(word);
        if (pos == std::string::npos)
            continue;
        std::string rest = std::string(base.substr(0, pos)) + std::string(base.substr(pos + word.size()));
        while (!rest.empty() && (rest.front() == '-' || rest.front() == '_' || rest.front() == '.'))
            rest.erase(0, 1);
        while (!rest.empty() && (rest.back() == '-' || rest.back() == '_' || rest.back() == '.'))
            rest.pop_back();
        const bool hasDigit = std::any_of(rest.begin(), rest.end(), isDigit);
        const bool hasAlpha = std::any_of(rest.begin(), rest.end(), isAlpha);
        if (isPieceOfCapture(rest))
            continue;
        if (!rest.empty() && rest.size() <= 64 && ((hasDigit && hasAlpha) || looksLikeHostFolder(rest)))
            return rest;
    }
    return {};
}

bool isArchiveName(std::string_view name)
{
    const std::string low = lower(name);
    for (std::string_view ext : { ".tgz", ".tar", ".zip", ".gz", ".zst", ".tar.gz", ".tar.zst", ".bz2", ".xz" })
        if (low.ends_with(ext))
            return true;
    return false;
}

// "<anything>-0003" / "<anything>_12" at the end of a stem: a Slurm %t task id.
int trailingTaskNumber(std::string_view s)
{
    std::size_t end = s.size();
    std::size_t i = end;
    while (i > 0 && isDigit(s[i - 1]))
        --i;
    if (i == end || i == 0 || end - i > 6)
        return -1;
    if (s[i - 1] != '-' && s[i - 1] != '_')
        return -1;
    const std::string low = lower(s.substr(0, i - 1));
    // slurm-1234.out is a job id, not a task id.
    if (low.ends_with("slurm") || low.ends_with("job"))
        return -1;
    std::size_t j = i;
    return static_cast<int>(*readUnsigned(s, j));
}

} // namespace

model::PathIdentity identityFromPath(std::string_view path)
{
    model::PathIdentity id;
    const auto parts = splitPath(path);
    if (parts.empty())
        return id;
    const std::string_view file = parts.back();
    const std::string_view base = stem(file);
    const std::string lowBase = lower(base);

    if (lowBase == "stdout" || lowBase == "stderr")
        id.stream = lowBase;
    else if (lowBase.ends_with("stdout") || lowBase.ends_with(".out"))
        id.stream = "stdout";

    // torchrun --log-dir: <run>/attempt_N/<local_rank>/{stdout,stderr}.log|error.json
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (parts[i].starts_with("attempt_")) {
            std::size_t k = 8;
            if (auto a = readUnsigned(parts[i], k); a && k == parts[i].size())
                id.attempt = static_cast<int>(*a);
            if (allDigits(parts[i + 1]) && i + 2 == parts.size() - 1) {
                std::size_t k2 = 0;
                id.localRank = static_cast<int>(*readUnsigned(parts[i + 1], k2));
            }
            // <node>/<run_id>/attempt_N/<local_rank>/: the folder above the run folder is the
            // node when the logs were collected per node, whatever its name.
            if (i >= 2 && id.host.empty() && !isArchiveName(parts[i - 2]) && !parts[i - 2].starts_with("attempt_")) {
                const std::string_view candidate = parts[i - 2];
                const bool hasDigit = std::any_of(candidate.begin(), candidate.end(), isDigit);
                if (hasDigit || looksLikeHostFolder(candidate))
                    id.host = std::string(candidate);
            }
        }
    }

    // Global rank from the file name.
    int rank = numberAfterWord(base, "rank");
    if (rank < 0)
        rank = numberAfterWord(base, "proc");
    // "<name>-<task>" only for names that mean a task: a trailing number on anything else
    // (checkpoint-500.log) is not a rank.
    if (rank < 0) {
        for (std::string_view word : { "task", "train", "worker", "out", "output", "log", "proc" })
            if (lowBase.starts_with(word)) {
                rank = trailingTaskNumber(base);
                break;
            }
    }
    id.globalRank = rank;

    // NCCL_DEBUG_FILE=nccl.%h.%p → "<prefix>.<host>.<pid>"
    {
        const auto lastDot = file.rfind('.');
        if (lastDot != std::string_view::npos && allDigits(file.substr(lastDot + 1))) {
            const auto prevDot = file.rfind('.', lastDot - 1);
            if (prevDot != std::string_view::npos && prevDot + 1 < lastDot) {
                std::size_t k = lastDot + 1;
                id.pid = static_cast<int>(*readUnsigned(file, k));
                id.host = std::string(file.substr(prevDot + 1, lastDot - prevDot - 1));
                if (id.globalRank >= 0 && lower(file).starts_with("nccl"))
                    id.globalRank = -1;
            }
        }
    }

    // Host from a folder name, innermost first; or from a file named after the host.
    if (id.host.empty()) {
        for (std::size_t i = parts.size() - 1; i-- > 0;) {
            if (looksLikeHostFolder(parts[i])) {
                id.host = std::string(parts[i]);
                break;
            }
        }
    }
    if (id.host.empty() && id.globalRank < 0 && looksLikeHostFolder(base))
        id.host = std::string(base);
    // Per-node captures named after the node: "dmesg-node07.log", "node07.dmesg", "kern_gpu3.log".
    if (id.host.empty() && id.globalRank < 0) {
        const std::string host = hostFromCaptureName(base);
        if (!host.empty())
            id.host = host;
    }

    if (lowBase.starts_with("slurm") || lowBase.starts_with("job") || lowBase == "console"
        || lowBase == "combined" || lowBase == "all")
        id.combined = true;
    return id;
}

} // namespace rankscope::parsers
