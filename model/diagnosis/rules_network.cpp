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

std::string hostText(const Bundle& b, StrId host)
{
    return host == kNoStr ? std::string("an unknown host") : std::string(b.text(host));
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
        Placeholders values = ctx.placeholdersFor(primary.front()->localRank);
        values["hosts"] = std::to_string(localHosts.size());
        Finding& f = out.add(ctx, "network.many_hosts", RootCauseClass::Configuration, values);
        if (f.title.empty())
            f.title = "IB completion errors on " + std::to_string(localHosts.size()) + " hosts toward "
                + std::to_string(peers.size()) + " peers";
        for (std::size_t i = 0; i < primary.size() && i < 4; ++i)
            f.evidence.push_back(evidenceOf(b, primary[i]->event));
        f.confidence = 0.75;
        f.explanation = "The same InfiniBand/RoCE completion error (status " + std::to_string(primary.front()->status)
            + ") appears on " + std::to_string(failingRanks.size()) + " ranks on " + std::to_string(localHosts.size())
            + " host(s) toward " + std::to_string(peers.size()) + " peer address(es)"
            + (neverWorked ? ", before any collective ever completed" : "")
            + ". One bad cable or NIC breaks one pair mid-run; transport that fails everywhere, or never worked at all,"
              " points at the fabric's configuration (GID index, MTU, ACS/GDR, IB timeout/retry settings) or a"
              " switch-wide event.";
        out.propose(RootCauseClass::Configuration, {}, 0.75, "network.many_hosts",
            "InfiniBand completion errors hit " + std::to_string(localHosts.size())
                + " hosts at once: a fabric configuration problem, not one broken link.");
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
    Placeholders values = ctx.placeholdersFor(a);
    values["peer_ip"] = first.peerIp;
    if (first.peerHost != kNoStr)
        values["peer_host"] = std::string(b.text(first.peerHost));
    if (peer >= 0)
        values["peer_rank"] = std::to_string(peer);
    const Event& e = b.events[first.event];
    if (e.detail != kNoStr)
        values["hca"] = std::string(b.text(e.detail));
    Finding& f = out.add(ctx, "network.ib_pair", RootCauseClass::NetworkPair, values);
    f.evidence.push_back(evidenceOf(b, first.event));
    for (const auto* le : primary)
        if (le != &first && f.evidence.size() < 4)
            f.evidence.push_back(evidenceOf(b, le->event));
    // Show the bootstrap line that ties the peer address to its host.
    for (const auto& addr : b.bootstrapAddresses)
        if (std::string(b.text(addr.ip)) == first.peerIp) {
            f.evidence.push_back(evidenceOf(b, addr.evidence, "bootstrap address " + first.peerIp + " belongs to "
                    + std::string(b.text(addr.host))));
            break;
        }
    const std::string statusText = "status " + std::to_string(first.status)
        + (first.status == 12 ? " (transport retries exhausted)" : first.status == 4 ? " (local protection error)" : "");
    if (peer < 0) {
        f.ranks = { a };
        if (f.title.empty())
            f.title = "IB completion error on " + ctx.rankLabel(a) + " toward " + hostText(b, first.peerHost);
        f.confidence = 0.55;
        f.explanation = ctx.rankLabel(a) + " got an InfiniBand completion error with " + statusText + " from peer "
            + first.peerIp + " (" + hostText(b, first.peerHost) + "). "
            + (first.peerRanks.empty() ? "No bootstrap line in the bundle maps that address to a rank."
                                        : "That host runs ranks " + formatRanks(first.peerRanks)
                       + "; the ring/channel lines do not say which one talks to it.");
        out.propose(RootCauseClass::NetworkPair, { a }, 0.55, "network.ib_peer_host",
            "The link from " + ctx.rankLabel(a) + " to " + hostText(b, first.peerHost) + " failed (IB " + statusText + ").");
        return;
    }
    f.ranks = { std::min(a, peer), std::max(a, peer) };
    if (f.title.empty())
        f.title = "Link between " + ctx.rankLabel(a) + " and " + ctx.rankLabel(peer) + " failed";
    f.confidence = pairedByMirror ? 0.75 : mirrored ? 0.9 : 0.85;
    f.explanation = pairedByMirror
        ? "Only two ranks report InfiniBand completion errors: " + ctx.rankLabel(a) + " (" + statusText + ") toward "
            + first.peerIp + " and " + ctx.rankLabel(peer) + " toward another address. Without NCCL's bootstrap lines the addresses cannot be mapped to hosts, but two"
              " ranks failing on each other's traffic are the two ends of one link."
        : "The first InfiniBand completion error that is not a flush (" + statusText + ") was logged by "
        + ctx.rankLabel(a) + " about peer " + first.peerIp + ", the bootstrap address of " + hostText(b, first.peerHost)
        + "; of that host's ranks, " + ctx.rankLabel(peer) + " is the one the NCCL ring/channel lines connect to it."
        + (mirrored ? " The peer logged the mirror error toward this side." : "")
        + " Later status-5 (flush) errors and the watchdog timeouts on the other ranks are fallout: every rank entered"
          " the collective and waited on this link.";
    Proposal& p = out.propose(RootCauseClass::NetworkPair, f.ranks, f.confidence, "network.ib_pair",
        "The network link between " + ctx.rankLabel(a) + " and " + ctx.rankLabel(peer) + " failed (IB " + statusText
            + "); the other ranks timed out waiting on it.");
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
        Placeholders values = ctx.placeholdersFor(first->localRank);
        values["peer_ip"] = first->peerIp;
        Finding& f = out.add(ctx, "network.socket_timed_out", RootCauseClass::NetworkPair, values);
        f.ranks = { first->localRank };
        f.evidence.push_back(evidenceOf(b, first->event));
        if (f.title.empty())
            f.title = "TCP connection from " + ctx.rankLabel(first->localRank) + " to " + first->peerIp + " timed out";
        f.confidence = 0.5;
        f.explanation = ctx.rankLabel(first->localRank) + "'s socket to " + first->peerIp
            + " timed out (" + std::string(text.substr(0, 120))
            + "): the peer's host stopped acknowledging, so the network path between them (or that host) failed."
              " No line maps the address to a rank; NCCL_DEBUG=INFO bootstrap lines would.";
        out.propose(RootCauseClass::NetworkPair, { first->localRank }, 0.5, "network.socket_timed_out",
            "The connection from " + ctx.rankLabel(first->localRank) + " to " + first->peerIp
                + " timed out: a network path failure; the peer's rank is not in the logs.");
        return;
    }
    Placeholders values = ctx.placeholdersFor(first->localRank);
    if (first->peerHost != kNoStr)
        values["peer_host"] = std::string(b.text(first->peerHost));
    values["peer_ip"] = first->peerIp;
    Finding& f = out.add(ctx, "network.socket_closed", crashedThere.empty() ? std::optional(RootCauseClass::NetworkPair) : std::optional(RootCauseClass::RankCrashed), values);
    f.evidence.push_back(evidenceOf(b, first->event));
    if (!crashedThere.empty()) {
        f.ranks = crashedThere;
        if (f.title.empty())
            f.title = "Peers saw " + hostText(b, first->peerHost) + " close its connections";
        f.confidence = 0.6;
        f.explanation = ctx.rankLabel(first->localRank) + " reports that " + hostText(b, first->peerHost)
            + " closed the connection; rank(s) " + formatRanks(crashedThere)
            + " on that host failed on their own first, so this is the failure seen from the other side.";
        return;
    }
    const std::int32_t peer = first->peerRanks.front();
    f.ranks = { std::min(first->localRank, peer), std::max(first->localRank, peer) };
    if (f.title.empty())
        f.title = "Socket connection between " + ctx.rankLabel(first->localRank) + " and " + ctx.rankLabel(peer) + " broke";
    f.confidence = 0.6;
    f.explanation = ctx.rankLabel(first->localRank) + " lost its socket connection to " + first->peerIp + " ("
        + ctx.rankLabel(peer) + ") although that rank did not fail on its own: the network path between the two broke.";
    Proposal& p = out.propose(RootCauseClass::NetworkPair, f.ranks, 0.6, "network.socket_closed",
        "The socket connection between " + ctx.rankLabel(first->localRank) + " and " + ctx.rankLabel(peer) + " broke.");
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
    Placeholders values = ctx.placeholdersFor(b.events[samples.front()].rank);
    values["hosts"] = std::to_string(everywhere ? failingHosts.size() : noIbHosts.size());
    Finding& f = out.add(ctx, "network.transport_everywhere", RootCauseClass::Configuration, values);
    if (f.title.empty())
        f.title = everywhere ? "Connections fail from every host (" + std::to_string(failingHosts.size()) + " of "
                + std::to_string(hostsWithRanks.size()) + ")"
                             : "No InfiniBand on " + std::to_string(noIbHosts.size())
                + " hosts, and the socket fallback never connected";
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
    if (everywhere) {
        f.confidence = 0.75;
        f.explanation = "Socket connections between ranks fail on " + std::to_string(failingHosts.size()) + " of the "
            + std::to_string(hostsWithRanks.size()) + " hosts at the same stage, each toward a different peer"
            + (transport.empty() ? std::string() : " (NCCL: \"" + transport + "\")")
            + ". A single bad link breaks one pair of hosts; every host failing the same way means the network setup"
              " itself: firewalled ports, the wrong interface in NCCL_SOCKET_IFNAME, or no InfiniBand inside the container.";
        out.propose(RootCauseClass::Configuration, {}, 0.75, "network.transport_everywhere",
            "Connections between ranks fail from every host while NCCL sets up its transport: a network configuration"
            " problem (interface, firewall or missing InfiniBand), not one rank or link.");
        return;
    }
    f.confidence = 0.65;
    f.explanation = "NCCL found no InfiniBand device on " + std::to_string(noIbHosts.size()) + " of the "
        + std::to_string(hostsWithRanks.size()) + " hosts (\"NET/IB : No device found.\") and fell back to TCP sockets"
        + (transport.empty() ? std::string() : " (NCCL: \"" + transport + "\")") + "; then "
        + std::to_string(failingHosts.size()) + " host(s) failed to open a socket connection to a peer host before any"
          " collective ever completed. The transport never worked once, which is the job's network setup rather than a"
          " link that broke: InfiniBand not visible in the container (devices, NCCL_IB_HCA), and the socket interface in"
          " NCCL_SOCKET_IFNAME not routable or firewalled between hosts. The launcher ended the job after the first"
          " failure, so the other hosts never got to report theirs.";
    out.propose(RootCauseClass::Configuration, {}, 0.65, "network.transport_socket_fallback",
        "No host found its InfiniBand device, NCCL fell back to sockets, and the socket connections between hosts never"
        " came up: a network configuration problem (InfiniBand in the container, NCCL_SOCKET_IFNAME, firewall), not one"
        " rank or link.");
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
    Placeholders values;
    if (!host.empty())
        values["host"] = host;
    Finding& f = out.add(ctx, catastrophic ? "hardware.hca_catastrophic" : "network.port_error", cls, values);
    const std::string hostName = host.empty() ? std::string("one host") : host;
    if (f.title.empty())
        f.title = catastrophic ? "The InfiniBand adapter of " + hostName + " failed" : "The InfiniBand port of " + hostName + " went down";
    for (std::size_t k = 0; k < events.size() && k < 3; ++k)
        f.evidence.push_back(evidenceOf(b, events[k]));
    std::set<std::int32_t> ranks;
    for (std::uint32_t i : events)
        if (b.events[i].rank >= 0)
            ranks.insert(b.events[i].rank);
    f.ranks.assign(ranks.begin(), ranks.end());
    f.confidence = 0.7;
    f.explanation = std::to_string(events.size()) + " process(es) on " + hostName + " report \""
        + std::string(b.text(b.events[events.front()].text)) + "\". "
        + (catastrophic ? "A local catastrophic error is the host channel adapter itself failing: every rank on the host"
                          " loses the fabric at once."
                        : "A port error is the link of that host's InfiniBand port going down (a flapping cable, a"
                          " transceiver or a switch port); every rank using it stalls.")
        + " The ranks elsewhere only wait for them.";
    Proposal& p = out.propose(cls, {}, 0.7,
        catastrophic ? Precedence("hardware.hca_catastrophic") : Precedence("network.port_error"),
        (catastrophic ? "The InfiniBand adapter of " + hostName + " failed (local catastrophic error)"
                      : "The InfiniBand port of " + hostName + " went down (port error)")
            + "; every rank on that host lost the fabric and the others waited.");
    std::vector<std::int32_t> waited;
    for (std::int32_t r : b.world.ranksSeen)
        if (host.empty() || b.text(b.ranks[r].host) != host)
            waited.push_back(r);
    p.collateral = std::move(waited);
}

// "Duplicate GPU detected : rank 2 and rank 0 both on CUDA device 1000" (NCCL init): the
// launcher gave several ranks the same GPU — CUDA_VISIBLE_DEVICES / local-rank mapping.
void ruleDuplicateGpu(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::uint32_t> hits;
    for (std::uint32_t i = 0; i < b.events.size(); ++i)
        if (b.events[i].kind == EventKind::NcclBootstrapError
            && b.text(b.events[i].text).find("Duplicate GPU detected") != std::string_view::npos)
            hits.push_back(i);
    if (hits.empty())
        return;
    Finding& f = out.add(ctx, "configuration.duplicate_gpu", RootCauseClass::Configuration, {});
    if (f.title.empty())
        f.title = "Several ranks were given the same GPU";
    for (std::size_t k = 0; k < hits.size() && k < 3; ++k)
        f.evidence.push_back(evidenceOf(b, hits[k]));
    f.confidence = 0.85;
    f.explanation = "NCCL refused to build the communicator: " + std::to_string(hits.size())
        + " rank(s) report \"Duplicate GPU detected\", i.e. two ranks share one CUDA device. The launch maps ranks to"
          " GPUs wrongly (CUDA_VISIBLE_DEVICES, --gpus-per-task, or torch.cuda.set_device(local_rank) missing).";
    out.propose(RootCauseClass::Configuration, {}, 0.85, "configuration.duplicate_gpu",
        "Ranks share a GPU (\"Duplicate GPU detected\"): the launcher's rank-to-GPU mapping is wrong, so NCCL cannot set"
        " up the communicator.");
}

} // namespace rankscope::model
