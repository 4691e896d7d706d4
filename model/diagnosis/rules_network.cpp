// Network rules ([formats 3.7], [formats 3.8], [formats 11] B): the first IB/RoCE completion error that is
// not a flush names the broken pair; the same signature on many hosts at once is a
// configuration problem (MTU, GID index, ACS/GDR, timeouts), not one link.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

// ibv_wc_status 5 (WR_FLUSH_ERR) is what every queued request gets once a QP is already in
// error: fallout, never the first cause.
bool isPrimaryStatus(std::int32_t status)
{
    return status != 5;
}

// A host's name, or the rule's words for a host no line names.
std::string hostText(const RuleContext& ctx, std::string_view rule, StrId host)
{
    return host == kNoStr ? ctx.say(rule, "unknown_host") : std::string(ctx.bundle.text(host));
}

// Positive evidence that the job never got past its first collective ([formats 1.5], [formats 11] G): the
// process group the hang sits on timed out in its SeqNum 1 (another group, e.g. an
// intra-node one over NVLink, may well have completed collectives: its transport is not
// the one that failed), a communicator whose init started and never completed, a watchdog
// status line with "last completed work: -1". No progress line at all (PyTorch ≤2.0 dying
// of an async error prints no SeqNum) is not evidence either way.
bool stuckBeforeFirstCollective(const RuleContext& ctx)
{
    if (const PgFacts* pg = ctx.stuckPg(); pg && pg->stuckSeq == 1)
        return true;
    if (ctx.facts.anyCollectiveCompleted)
        return false;
    if (ctx.facts.initIncomplete)
        return true;
    for (const auto& p : ctx.bundle.progress)
        if ((p.hasStatus && p.lastCompleted < 0) || p.timeoutSeq == 1)
            return true;
    return false;
}

} // namespace

void ruleIbPair(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::vector<const LinkError*> primary;
    std::set<StrId> localHosts;
    std::set<std::string> peers;
    for (const auto& le : ctx.facts.linkErrors) {
        if (le.status < 0 || !isPrimaryStatus(le.status))
            continue;
        primary.push_back(&le);
        localHosts.insert(le.localHost);
        peers.insert(le.peerIp);
    }
    if (primary.empty())
        return;

    std::set<std::int32_t> failingRanks;
    for (const auto* le : primary)
        failingRanks.insert(le->localRank);
    // The fabric never worked: transport errors from several ranks before any collective
    // completed (a wrong GID index, MTU, ACS setting) rather than a link that broke mid-run.
    // Without a line placing the job at its first collective (PyTorch ≤2.0 dies of the async
    // error with no SeqNum), more failing ranks than the two ends of one link, on both sides,
    // and nothing showing a collective completed say the same.
    const bool neverWorked = (failingRanks.size() >= 2 && stuckBeforeFirstCollective(ctx))
        || (failingRanks.size() >= 3 && localHosts.size() >= 2 && !ctx.facts.anyCollectiveCompleted);
    if ((localHosts.size() >= 3 && peers.size() >= 3) || neverWorked) {
        // Same failure everywhere at once.
        static constexpr const char* kRule = "network.many_hosts";
        Placeholders values = ctx.placeholdersFor(primary.front()->localRank);
        values["hosts"] = std::to_string(localHosts.size());
        values["peer_count"] = std::to_string(peers.size());
        values["rank_count"] = std::to_string(failingRanks.size());
        values["status"] = std::to_string(primary.front()->status);
        if (neverWorked)
            values["never_worked"] = ctx.say(kRule, "never_worked");
        Finding& f = out.add(ctx, kRule, RootCauseClass::Configuration, values);
        for (std::size_t i = 0; i < primary.size() && i < 4; ++i)
            f.evidence.push_back(evidenceOf(b, primary[i]->event));
        f.confidence = 0.75;
        f.explanation = ctx.explain(kRule, values);
        out.propose(RootCauseClass::Configuration, {}, 0.75, kRule, ctx.verdict(kRule, values));
        return;
    }

    const LinkError& first = *primary.front();
    const std::int32_t a = first.localRank;
    std::int32_t peer = first.peerRanks.size() == 1 ? first.peerRanks.front() : -1;
    // No bootstrap lines to map the address: when exactly one other rank reports the same
    // kind of failure toward a different address, the two ends of one link reported each other.
    bool pairedByMirror = false;
    if (peer < 0 && first.peerRanks.empty()) {
        // Any IB error counts here, a flush (status 5) included: the far end of a broken
        // link often only sees its queue flushed.
        std::set<std::int32_t> others;
        std::set<std::int32_t> reporters;
        for (const auto& le : ctx.facts.linkErrors) {
            if (le.status < 0)
                continue;
            reporters.insert(le.localRank);
            if (le.localRank != a && le.peerIp != first.peerIp)
                others.insert(le.localRank);
        }
        if (others.size() == 1 && reporters.size() == 2) {
            peer = *others.begin();
            pairedByMirror = true;
        }
    }
    // A mirrored error on the peer that names this side confirms the pair.
    bool mirrored = false;
    for (const auto* le : primary)
        if (le->localRank == peer && std::find(le->peerRanks.begin(), le->peerRanks.end(), a) != le->peerRanks.end())
            mirrored = true;
    static constexpr const char* kRule = "network.ib_pair";
    Placeholders values = ctx.placeholdersFor(a);
    values["peer_ip"] = first.peerIp;
    if (first.peerHost != kNoStr)
        values["peer_host"] = std::string(b.text(first.peerHost));
    if (peer >= 0)
        values["peer_rank"] = std::to_string(peer);
    const Event& e = b.events[first.event];
    if (e.detail != kNoStr)
        values["hca"] = std::string(b.text(e.detail));
    // The words' own values: the fix lines fill {peer_host} only when a line names the host.
    values["who"] = ctx.rankLabel(a);
    if (peer >= 0)
        values["peer_who"] = ctx.rankLabel(peer);
    values["peer_host_name"] = hostText(ctx, kRule, first.peerHost);
    values["status"] = std::to_string(first.status);
    if (first.status == 12 || first.status == 4)
        values["status_note"] = ctx.say(kRule, first.status == 12 ? "status_retries" : "status_protection");
    Finding& f = out.add(ctx, kRule, RootCauseClass::NetworkPair, values);
    f.evidence.push_back(evidenceOf(b, first.event));
    for (const auto* le : primary)
        if (le != &first && f.evidence.size() < 4)
            f.evidence.push_back(evidenceOf(b, le->event));
    // Show the bootstrap line that ties the peer address to its host.
    for (const auto& addr : b.bootstrapAddresses)
        if (std::string(b.text(addr.ip)) == first.peerIp) {
            f.evidence.push_back(evidenceOf(b, addr.evidence,
                ctx.say(kRule, "bootstrap_address",
                    { { "peer_ip", first.peerIp }, { "addr_host", std::string(b.text(addr.host)) } })));
            break;
        }
    if (peer < 0) {
        // Only the peer's host is known: a form of its own, under its own precedence row.
        f.ranks = { a };
        f.title = ctx.say(kRule, "peer_host_title", values);
        f.confidence = 0.55;
        values["peer_ranks_note"] = first.peerRanks.empty()
            ? ctx.say(kRule, "peer_unmapped")
            : ctx.say(kRule, "peer_host_ranks", { { "host_ranks", formatRanks(first.peerRanks) } });
        f.explanation = ctx.say(kRule, "peer_host_summary", values);
        out.propose(RootCauseClass::NetworkPair, { a }, 0.55, "network.ib_peer_host",
            ctx.say(kRule, "peer_host_verdict", values));
        return;
    }
    f.ranks = { std::min(a, peer), std::max(a, peer) };
    f.confidence = pairedByMirror ? 0.75 : mirrored ? 0.9 : 0.85;
    if (mirrored)
        values["mirrored"] = ctx.say(kRule, "mirrored");
    f.explanation = pairedByMirror ? ctx.say(kRule, "mirror_summary", values) : ctx.explain(kRule, values);
    Proposal& p = out.propose(RootCauseClass::NetworkPair, f.ranks, f.confidence, kRule, ctx.verdict(kRule, values));
    p.pair = std::make_pair(f.ranks[0], f.ranks[1]);
}

void ruleSocketClosed(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const LinkError* first = nullptr;
    std::set<StrId> closedHosts;
    for (const auto& le : ctx.facts.linkErrors)
        if (le.status < 0) {
            if (!first)
                first = &le;
            closedHosts.insert(le.peerHost);
        }
    if (!first)
        return;
    // The host named by "Connection closed by remote peer" is the side that went away. If a
    // rank there failed on its own, this is the crash seen from outside.
    std::vector<std::int32_t> crashedThere;
    for (std::int32_t r : first->peerRanks)
        if (ctx.facts.ranks[r].primaryFailure != kNoIndex)
            crashedThere.push_back(r);
    // Neither a crash on the far side nor one peer rank to pair with: only a timed-out TCP
    // connection still says something. ETIMEDOUT on an established socket means the peer's
    // host never acknowledged the retransmissions: the path (or the host) is gone. A peer
    // process that died would have had its kernel close or reset the connection instead.
    if (crashedThere.empty() && (first->peerRanks.size() != 1 || closedHosts.size() > 2)) {
        const std::string_view text = b.text(b.events[first->event].text);
        const bool timedOut = text.find("Connection timed out") != std::string_view::npos
            || text.find("No route to host") != std::string_view::npos;
        if (!timedOut || first->localRank < 0)
            return;
        static constexpr const char* kRule = "network.socket_timed_out";
        Placeholders values = ctx.placeholdersFor(first->localRank);
        values["peer_ip"] = first->peerIp;
        values["who"] = ctx.rankLabel(first->localRank);
        values["message"] = std::string(text.substr(0, 120));
        Finding& f = out.add(ctx, kRule, RootCauseClass::NetworkPair, values);
        f.ranks = { first->localRank };
        f.evidence.push_back(evidenceOf(b, first->event));
        f.confidence = 0.5;
        f.explanation = ctx.explain(kRule, values);
        out.propose(RootCauseClass::NetworkPair, { first->localRank }, 0.5, kRule, ctx.verdict(kRule, values));
        return;
    }
    static constexpr const char* kRule = "network.socket_closed";
    Placeholders values = ctx.placeholdersFor(first->localRank);
    if (first->peerHost != kNoStr)
        values["peer_host"] = std::string(b.text(first->peerHost));
    values["peer_ip"] = first->peerIp;
    values["who"] = ctx.rankLabel(first->localRank);
    if (crashedThere.empty())
        values["peer_who"] = ctx.rankLabel(first->peerRanks.front());
    Finding& f = out.add(ctx, kRule, crashedThere.empty() ? std::optional(RootCauseClass::NetworkPair) : std::optional(RootCauseClass::RankCrashed), values);
    f.evidence.push_back(evidenceOf(b, first->event));
    if (!crashedThere.empty()) {
        // The far side crashed: the finding backs the crash rules and proposes nothing.
        f.ranks = crashedThere;
        values["peer_host_name"] = hostText(ctx, kRule, first->peerHost);
        values["crashed_ranks"] = formatRanks(crashedThere);
        f.title = ctx.say(kRule, "crashed_title", values);
        f.confidence = 0.6;
        f.explanation = ctx.say(kRule, "crashed_summary", values);
        return;
    }
    const std::int32_t peer = first->peerRanks.front();
    f.ranks = { std::min(first->localRank, peer), std::max(first->localRank, peer) };
    f.confidence = 0.6;
    f.explanation = ctx.explain(kRule, values);
    Proposal& p = out.propose(RootCauseClass::NetworkPair, f.ranks, 0.6, kRule, ctx.verdict(kRule, values));
    p.pair = std::make_pair(f.ranks[0], f.ranks[1]);
}

} // namespace rankscope::model

namespace rankscope::model {

// The same socket failure from every host at once while communicators connect ([formats 3.8],
// [formats 11] G): blocked ports, a wrong NCCL_SOCKET_IFNAME, no IB in the container. One broken
// path fails between two hosts; failures from every host are the job's configuration.
// So is a job that fell back to TCP sockets because no host found its InfiniBand device
// ("NET/IB : No device found.") and whose first socket connection between hosts timed out
// before any collective ever completed: a path that never worked once is the setup, even
// when the launcher killed the job after the first rank reported it (srun
// --kill-on-bad-exit), so that only one host got to say so.
void ruleTransportEverywhere(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::set<StrId> failingHosts;
    std::vector<std::uint32_t> samples;
    for (const auto& le : ctx.facts.linkErrors) {
        if (le.status >= 0)
            continue;
        const std::string_view text = b.text(b.events[le.event].text);
        // "Connection closed by remote peer" is a peer going away, not a path that never worked.
        if (text.find("closed by remote peer") != std::string_view::npos)
            continue;
        if (failingHosts.insert(le.localHost).second && samples.size() < 3)
            samples.push_back(le.event);
    }
    if (samples.empty())
        return;
    std::set<StrId> hostsWithRanks;
    for (const auto& info : b.ranks)
        if (info.host != kNoStr && info.seen)
            hostsWithRanks.insert(info.host);
    // Hosts on which NCCL found no InfiniBand device and fell back to sockets.
    std::set<StrId> noIbHosts;
    std::uint32_t noIbSample = kNoIndex;
    std::uint32_t transportLine = kNoIndex;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::NcclNetSelect)
            continue;
        if (transportLine == kNoIndex)
            transportLine = i;
        const std::string_view text = b.text(e.text);
        if (text.starts_with("NET/IB") && text.find("No device found") != std::string_view::npos
            && e.rank >= 0 && b.ranks[e.rank].host != kNoStr) {
            noIbHosts.insert(b.ranks[e.rank].host);
            if (noIbSample == kNoIndex)
                noIbSample = i;
        }
    }
    const bool everywhere = failingHosts.size() >= 2 && failingHosts.size() * 2 >= hostsWithRanks.size();
    const bool socketFallbackNeverWorked = !everywhere && stuckBeforeFirstCollective(ctx)
        && hostsWithRanks.size() >= 2 && noIbHosts.size() >= 2 && noIbHosts.size() * 2 >= hostsWithRanks.size();
    if (!everywhere && !socketFallbackNeverWorked)
        return;
    for (const auto& rf : ctx.facts.ranks)
        if (rf.primaryFailure != kNoIndex)
            return; // a rank that died of its own explains the broken connections better
    static constexpr const char* kRule = "network.transport_everywhere";
    Placeholders values = ctx.placeholdersFor(b.events[samples.front()].rank);
    values["hosts"] = std::to_string(everywhere ? failingHosts.size() : noIbHosts.size());
    values["failing_hosts"] = std::to_string(failingHosts.size());
    values["no_ib_hosts"] = std::to_string(noIbHosts.size());
    values["rank_hosts"] = std::to_string(hostsWithRanks.size());
    Finding& f = out.add(ctx, kRule, RootCauseClass::Configuration, values);
    if (!everywhere) // the socket fallback that never worked: a form of its own
        f.title = ctx.say(kRule, "fallback_title", values);
    for (std::uint32_t i : samples)
        f.evidence.push_back(evidenceOf(b, i));
    if (socketFallbackNeverWorked && noIbSample != kNoIndex)
        f.evidence.push_back(evidenceOf(b, noIbSample));
    std::string transport;
    for (const auto& e : b.events)
        if (e.kind == EventKind::NcclNetSelect && b.text(e.text).starts_with("Using network")) {
            transport = std::string(b.text(e.text));
            f.evidence.push_back(evidenceOf(b, static_cast<std::uint32_t>(&e - b.events.data())));
            break;
        }
    if (transport.empty() && transportLine != kNoIndex && transportLine != noIbSample) {
        transport = std::string(b.text(b.events[transportLine].text));
        f.evidence.push_back(evidenceOf(b, transportLine));
    }
    if (!transport.empty())
        values["transport"] = ctx.say(kRule, "transport", { { "line", transport } });
    if (everywhere) {
        f.confidence = 0.75;
        f.explanation = ctx.explain(kRule, values);
        out.propose(RootCauseClass::Configuration, {}, 0.75, kRule, ctx.verdict(kRule, values));
        return;
    }
    f.confidence = 0.65;
    f.explanation = ctx.say(kRule, "fallback_summary", values);
    out.propose(RootCauseClass::Configuration, {}, 0.65, "network.transport_socket_fallback",
        ctx.say(kRule, "fallback_verdict", values));
}

} // namespace rankscope::model

namespace rankscope::model {

// NET/IB async events ([formats 3.7]): "port error" repeated on one host is its link flapping;
// "local catastrophic error" is the HCA itself failing. Either takes every rank of that host
// off the fabric.
void ruleIbAsyncEvents(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    if (ctx.facts.ibAsyncEvents.empty())
        return;
    std::map<std::string, std::vector<std::uint32_t>> byHost;
    for (std::uint32_t i : ctx.facts.ibAsyncEvents) {
        const Event& e = b.events[i];
        std::string host = e.rank >= 0 && b.ranks[e.rank].host != kNoStr ? std::string(b.text(b.ranks[e.rank].host))
                                                                         : std::string(b.text(b.identities[e.identity].host));
        byHost[host].push_back(i);
    }
    if (byHost.size() > 2)
        return; // many hosts at once: a fabric event, said by the configuration rules
    const auto& [host, events] = *std::max_element(byHost.begin(), byHost.end(),
        [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
    bool catastrophic = false;
    for (std::uint32_t i : events)
        catastrophic = catastrophic || b.text(b.events[i].text).find("catastrophic") != std::string_view::npos;
    const RootCauseClass cls = catastrophic ? RootCauseClass::HardwareFault : RootCauseClass::NetworkPair;
    const char* const rule = catastrophic ? "hardware.hca_catastrophic" : "network.port_error";
    Placeholders values;
    if (!host.empty())
        values["host"] = host;
    values["host_name"] = host.empty() ? ctx.say(rule, "one_host") : host;
    values["count"] = std::to_string(events.size());
    values["message"] = std::string(b.text(b.events[events.front()].text));
    Finding& f = out.add(ctx, rule, cls, values);
    for (std::size_t k = 0; k < events.size() && k < 3; ++k)
        f.evidence.push_back(evidenceOf(b, events[k]));
    std::set<std::int32_t> ranks;
    for (std::uint32_t i : events)
        if (b.events[i].rank >= 0)
            ranks.insert(b.events[i].rank);
    f.ranks.assign(ranks.begin(), ranks.end());
    f.confidence = 0.7;
    f.explanation = ctx.explain(rule, values);
    Proposal& p = out.propose(cls, {}, 0.7,
        catastrophic ? Precedence("hardware.hca_catastrophic") : Precedence("network.port_error"),
        ctx.verdict(rule, values));
    std::vector<std::int32_t> waited;
    for (std::int32_t r : b.world.ranksSeen)
        if (host.empty() || b.text(b.ranks[r].host) != host)
            waited.push_back(r);
    p.collateral = std::move(waited);
}

// "Duplicate GPU detected : rank 2 and rank 0 both on CUDA device 1000" (NCCL init): the
// launcher gave several ranks the same GPU — CUDA_VISIBLE_DEVICES / local-rank mapping. As
// NCCL's WARN line, or quoted by PyTorch's exception after "Last error:" (ncclGetLastError,
// the text of NCCL's last WARN, printed whether or not NCCL_DEBUG was on).
void ruleDuplicateGpu(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    constexpr std::string_view kWarn = "Duplicate GPU detected";
    std::vector<std::uint32_t> hits;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        const bool warnLine = e.kind == EventKind::NcclBootstrapError && b.text(e.text).find(kWarn) != std::string_view::npos;
        const bool quoted = (e.kind == EventKind::TorchNcclApiError || e.kind == EventKind::TorchAsyncNcclError)
            && e.detail != kNoStr && b.text(e.detail).find(kWarn) != std::string_view::npos;
        if (warnLine || quoted)
            hits.push_back(i);
    }
    if (hits.empty())
        return;
    static constexpr const char* kRule = "configuration.duplicate_gpu";
    const Placeholders values { { "count", std::to_string(hits.size()) } };
    Finding& f = out.add(ctx, kRule, RootCauseClass::Configuration, values);
    for (std::size_t k = 0; k < hits.size() && k < 3; ++k)
        f.evidence.push_back(evidenceOf(b, hits[k]));
    f.confidence = 0.85;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::Configuration, {}, 0.85, kRule, ctx.verdict(kRule, values));
}

} // namespace rankscope::model
