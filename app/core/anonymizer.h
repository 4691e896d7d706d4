#pragma once
// Stable pseudonyms for sharing a report outside the team (issue 5, --anonymize): host
// names, IP addresses, user names and job ids are replaced consistently across the whole
// report, so the diagnosis still reads correctly ("the link between host-01 and host-02").
//
//   host names      node-07, ip-10-0-20-78.ec2.internal → host-01, host-02 … numbered in the
//                   order of the bundle's sorted host list (natural order: node2 < node10),
//                   then hosts named elsewhere (NCCL headers, file names, launcher tables);
//                   a fully qualified name and its short name share one pseudonym
//   IP addresses    10.0.20.78, fe80::1 → ip-01 … (loopback and 0.0.0.0 stay: they identify
//                   nothing and say where a process listened)
//   user names      /home/alice/…, /Users/bob/…, /scratch/carol/… → user-01 … wherever the name
//                   appears afterwards (alice@node-07 too)
//   job ids         slurm-1234567.out, "*** STEP 6059952.0 ON …", SLURM_JOB_ID=…, PBS_JOBID=…,
//                   torchrun run_id / --rdzv_id, <log-dir>/<run id>/attempt_0/ → job-01 …
//
// Use: construct from the bundle (learns its hosts and addresses), learn() every string
// that will be written (finds IPs, users and job ids in free text), then apply() to each.
// Replacement is token-wise: a name matches only between non-alphanumeric characters, so
// node-1 never rewrites node-10. When in doubt a word is replaced: a garbled word is a
// smaller harm than a leaked name.

#include "model/bundle.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope::app {

class Anonymizer {
public:
    enum class Kind : std::uint8_t { Host, Ip, User, Job };

    struct Entry {
        Kind kind = Kind::Host;
        std::string original;
        std::string pseudonym;
    };

    explicit Anonymizer(const model::Bundle& bundle);

    // Finds IP addresses, user names in home-directory paths and job ids in `text`.
    void learn(std::string_view text);
    std::string apply(std::string_view text) const;

    // Everything replaced, in the order pseudonyms were given.
    const std::vector<Entry>& entries() const { return m_entries; }
    // The pseudonym of an original value, or "" when it is not replaced.
    std::string_view pseudonymOf(std::string_view original) const;

private:
    void addHost(std::string_view host);
    void addIp(std::string_view ip);
    void addUser(std::string_view user);
    void addJob(std::string_view job);
    const std::string& add(Kind kind, std::string_view original, std::string_view reuse = {});
    void learnIps(std::string_view text);
    void learnUsers(std::string_view text);
    void learnJobs(std::string_view text);
    std::string applyLiterals(std::string text) const;

    std::vector<Entry> m_entries;
    std::unordered_map<std::string, std::size_t> m_index; // original → entry
    // Entries that are not one token of [A-Za-z0-9._-] (IPv6 addresses, odd host names):
    // replaced by plain substring search after the token pass.
    std::vector<std::size_t> m_literals;
    std::size_t m_longestToken = 0;
    unsigned m_next[4] = { 0, 0, 0, 0 };
};

} // namespace rankscope::app
