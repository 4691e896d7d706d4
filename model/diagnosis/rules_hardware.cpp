// Hardware rules ([formats 7.1], [formats 9], [formats 11] A): an Xid on the GPU a rank uses (PCI address
// → NCCL init line busId → rank), an NVLink Xid between two GPUs of one host (a pair), and a
// watchdog that died on a sticky CUDA error.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"
#include "model/xidcatalogue.h"

#include <algorithm>
#include <map>

namespace rankscope::model {

namespace {

// Whether an Xid alone says a GPU broke comes from the catalogue (model/xidcatalogue.h): 13
// and 31 are the application's own kernels faulting, 43 and 45 follow another error, 63/92
// are advisories; none of them alone is a hardware fault.
bool isHangRelevantXid(std::int32_t xid)
{
    return xid >= 0 && isHardwareXid(static_cast<std::uint64_t>(xid));
}

// A follow-on Xid names the one that caused it ("45, … Ch 00000001 caused by previous Xid
// 149"): that one is what happened to the GPU.
std::int32_t effectiveXid(const Bundle& b, const Event& e)
{
    const std::string_view text = b.text(e.text);
    constexpr std::string_view kCause = "caused by previous Xid ";
    const std::size_t at = text.find(kCause);
    if (at == std::string_view::npos)
        return e.code;
    std::int32_t xid = 0;
    std::size_t i = at + kCause.size();
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 6)
        xid = xid * 10 + (text[i++] - '0');
    return i > start ? xid : e.code;
}

} // namespace

void ruleXid(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    const PgFacts* pg = ctx.stuckPg();
    std::vector<std::int32_t> faulty;
    std::vector<std::int32_t> nvlink;
    std::map<std::int32_t, std::uint32_t> firstXid;
    for (const auto& rf : facts.ranks) {
        for (std::uint32_t i : rf.xidEvents) {
            const Event& e = b.events[i];
            if (e.pgRank == 1 || !isHangRelevantXid(effectiveXid(b, e))) // pgRank 1 marks an NVSwitch SXid
                continue;
            // An Xid long after the watchdog fired is teardown fallout, not the cause.
            if (facts.firstTimeout.valid() && comparableTimes(e.time, facts.firstTimeout) && !e.time.inferred
                && wholeSeconds(e.time) > wholeSeconds(facts.firstTimeout) + 60)
                continue;
            if (!firstXid.count(rf.rank)) {
                firstXid[rf.rank] = i;
                faulty.push_back(rf.rank);
                if (isNvlinkXid(effectiveXid(b, e)))
                    nvlink.push_back(rf.rank);
            }
        }
    }
    if (faulty.empty()) {
        if (!facts.xidWithoutRank.empty()) {
            // A hardware Xid first, if any: it is the one that can explain a hang.
            std::uint32_t index = facts.xidWithoutRank.front();
            for (std::uint32_t i : facts.xidWithoutRank)
                if (b.events[i].pgRank != 1 && isHangRelevantXid(effectiveXid(b, b.events[i]))) {
                    index = i;
                    break;
                }
            const Event& e = b.events[index];
            const std::int32_t xid = effectiveXid(b, e);
            const bool hardware = e.pgRank != 1 && isHangRelevantXid(xid);
            static constexpr const char* kRule = "hardware.xid_unmapped";
            Placeholders values;
            // A paste may blank the address ("Xid (PCI:...): 145"): say so instead.
            values["bus_id"] = e.detail != kNoStr ? std::string(b.text(e.detail)) : ctx.say(kRule, "bus_unknown");
            values["xid"] = std::to_string(xid);
            if (xid != e.code)
                values["through"]
                    = ctx.say(kRule, "through", { { "reported_xid", std::to_string(e.code) } });
            Finding& f = out.add(ctx, kRule, RootCauseClass::HardwareFault, values);
            f.confidence = hardware ? 0.6 : 0.4;
            f.evidence.push_back(evidenceOf(b, index));
            f.explanation = ctx.explain(kRule, values);
            // A hardware Xid says what broke even when it cannot say on which rank.
            if (hardware)
                out.propose(
                    RootCauseClass::HardwareFault, {}, 0.6, kRule, ctx.verdict(kRule, values));
        }
        return;
    }
    // Two GPUs of one host with NVLink Xids: the link between them.
    std::optional<std::pair<std::int32_t, std::int32_t>> pair;
    if (nvlink.size() == 2 && b.ranks[nvlink[0]].host == b.ranks[nvlink[1]].host)
        pair = std::make_pair(std::min(nvlink[0], nvlink[1]), std::max(nvlink[0], nvlink[1]));

    std::vector<std::int32_t> initiating = pair ? std::vector<std::int32_t> { pair->first, pair->second } : faulty;
    if (!pair && initiating.size() > 2) {
        // Many GPUs at once: keep the earliest, the rest are likely fallout of a node event.
        std::sort(initiating.begin(), initiating.end(), [&](std::int32_t x, std::int32_t y) {
            return earlierThan(b.events[firstXid[x]].time, b.events[firstXid[y]].time);
        });
        initiating.resize(1);
    }
    std::sort(initiating.begin(), initiating.end());
    const std::int32_t r = initiating.front();
    const Event& xid = b.events[firstXid[r]];
    // The sentences both findings share are hardware.xid's phrases, and so are the two verdicts:
    // the proposal's row is hardware.xid (or its weaker variant) whichever finding it rests on.
    // Each finding has its own explanation.
    static constexpr const char* kXid = "hardware.xid";
    const char* rule = pair ? "hardware.nvlink_pair" : kXid;
    Placeholders values = ctx.placeholdersFor(r);
    values["xid"] = std::to_string(xid.code);
    if (pair)
        values["peer_rank"] = std::to_string(pair->second);
    values["who"] = ctx.rankLabel(r);
    if (pair)
        values["peer_who"] = ctx.rankLabel(pair->second);
    values["xid_host"] = std::string(b.text(b.ranks[r].host));
    values["xid_bus_id"] = std::string(b.text(xid.detail));
    values["xid_text"] = ctx.say(kXid, "xid_text",
        { { "xid", values["xid"] }, { "xid_message", std::string(b.text(xid.text)) } });
    Finding& f = out.add(ctx, rule, RootCauseClass::HardwareFault, values);
    f.ranks = initiating;
    for (std::int32_t x : initiating)
        f.evidence.push_back(evidenceOf(b, firstXid[x]));
    // The rank's init line is the link from PCI address to rank: show it.
    for (const auto& c : b.commInits)
        if (b.rankOfIdentity(c.identity) == r && c.busId == b.ranks[r].busId) {
            f.evidence.push_back(evidenceOf(b, c.evidence,
                ctx.say(kXid, "init_line",
                    { { "init_rank", std::to_string(r) },
                        { "init_bus_id", std::string(b.text(c.busId)) },
                        { "init_host", std::string(b.text(c.host)) } })));
            break;
        }
    double confidence = 0.9;
    if (pg && pg->stuckSeq >= 0) {
        const RankFacts& rf = ctx.facts.ranks[r];
        values["timed_out"] = std::to_string(pg->timedOut.size());
        values["stuck_seq"] = std::to_string(pg->stuckSeq);
        values["waiting"]
            = ctx.say(kXid, rf.anyTimeout ? "waiting_peers" : "waiting_silent", values);
        values["verdict_waiting"] = ctx.say(kXid, "verdict_waiting", values);
        // An Xid on a rank that behaves like everyone else while another rank is the odd one
        // out is weaker evidence.
        const bool odd = std::find(pg->neverEntered.begin(), pg->neverEntered.end(), r) != pg->neverEntered.end()
            || std::find(pg->silent.begin(), pg->silent.end(), r) != pg->silent.end();
        if (!odd && !pg->neverEntered.empty())
            confidence = 0.5;
    }
    if (!comparableTimes(xid.time, ctx.facts.firstTimeout))
        values["clock"] = ctx.say(kXid, "clock_unordered");
    f.explanation = ctx.explain(rule, values);
    f.confidence = confidence;
    Proposal& p = out.propose(RootCauseClass::HardwareFault, initiating, confidence,
        confidence >= 0.8 ? Precedence("hardware.xid") : Precedence("hardware.xid_off_odd_rank"),
        ctx.say(kXid, pair ? "verdict_nvlink_failed" : "verdict_gpu_lost", values));
    p.pair = pair;
}

void ruleCudaStickyError(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::int32_t> ranks;
    for (const auto& rf : ctx.facts.ranks)
        if (rf.cudaStickyError != kNoIndex)
            ranks.push_back(rf.rank);
    if (ranks.empty() || ranks.size() * 2 > std::max<std::size_t>(2, b.world.ranksSeen.size()))
        return;
    const std::int32_t r = ranks.front();
    const std::uint32_t index = ctx.facts.ranks[r].cudaStickyError;
    static constexpr const char* kRule = "hardware.cuda_error";
    Placeholders values = ctx.placeholdersFor(r);
    values["who"] = ctx.rankLabel(r);
    values["error"] = std::string(b.text(b.events[index].text));
    Finding& f = out.add(ctx, kRule, RootCauseClass::HardwareFault, values);
    f.ranks = ranks;
    f.evidence.push_back(evidenceOf(b, index));
    if (ctx.facts.ranks[r].heartbeatStuck != kNoIndex)
        f.evidence.push_back(evidenceOf(b, ctx.facts.ranks[r].heartbeatStuck));
    f.confidence = 0.75;
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::HardwareFault, ranks, 0.75, kRule, ctx.verdict(kRule, values));
}

} // namespace rankscope::model
