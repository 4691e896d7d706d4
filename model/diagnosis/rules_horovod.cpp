// Horovod's stall inspector (horovod/common/stall_inspector.cc) lists, for each tensor some
// ranks submitted to a collective 60 s ago, the ranks that did (ready) or did not (missing).
// Horovod itself says what it means: "different ranks are trying to submit different
// tensors or only a subset of ranks is submitting tensors, which will cause deadlock".
// Which of the two tells the class: a rank missing from some tensors that submitted others
// took another code path (collective mismatch); a rank that submitted nothing at all is not
// there yet (straggler, or dead when its own lines say so).

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

// How far past the ranks its lines name the stall inspector's world is filled in.
constexpr std::int64_t kRanksFilledPerRankNamed = 4;
constexpr std::int64_t kRanksFilledAlways = 64;

} // namespace

void ruleHorovodStall(const RuleContext& ctx, RuleOutput& out)
{
    static constexpr const char* kRule = "horovod.stall_inspector";
    const Bundle& b = ctx.bundle;
    std::map<StrId, std::set<std::int32_t>> readyOf;   // tensor -> ranks that submitted it
    std::map<std::int32_t, std::set<StrId>> missingOf; // rank -> tensors it did not submit
    std::set<std::int32_t> everReady;
    std::set<std::int32_t> world(b.world.ranksSeen.begin(), b.world.ranksSeen.end());
    std::vector<std::uint32_t> evidence;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::HorovodStalledTensor || e.peerRank < 0)
            continue;
        if (evidence.size() < 4)
            evidence.push_back(i);
        world.insert(e.peerRank);
        if (e.code == 1) {
            readyOf[e.text].insert(e.peerRank);
            everReady.insert(e.peerRank);
        } else {
            missingOf[e.peerRank].insert(e.text);
        }
    }
    if (evidence.empty())
        return;
    // Horovod numbers ranks 0..size-1: a rank below the highest one named exists even when no
    // line names it (the one that never submitted anything is the one never listed). The
    // inspector lists the ready (or missing) ranks of each tensor, so a real stall names most
    // of them; a highest rank far above the ranks named is a claim, not a world, and filling
    // up to it cost a set insertion per tensor and rank (a mutated "[ready ranks: …, 999999]"
    // took seconds): the world is bounded by what the lines show.
    const auto named = static_cast<std::int64_t>(world.size());
    const std::int64_t shown = kRanksFilledPerRankNamed * named + kRanksFilledAlways;
    std::int64_t size = static_cast<std::int64_t>(*world.rbegin()) + 1;
    if (b.world.worldSize)
        size = std::max<std::int64_t>(size, *b.world.worldSize);
    size = std::min(size, shown);
    for (std::int32_t r = 0; r < static_cast<std::int32_t>(size); ++r)
        world.insert(r);
    for (const auto& [tensor, ready] : readyOf)
        for (std::int32_t r : world)
            if (!ready.count(r))
                missingOf[r].insert(tensor);

    std::vector<std::int32_t> culprits;
    RootCauseClass cls = RootCauseClass::CollectiveMismatch;
    std::string why;
    if (missingOf.size() == world.size()) {
        // Every rank misses something: camps that submitted different tensors. The smaller of
        // exactly two camps is the odd one out when it is clearly smaller.
        std::map<std::set<StrId>, std::vector<std::int32_t>> camps;
        for (const auto& [r, tensors] : missingOf)
            camps[tensors].push_back(r);
        if (camps.size() == 2) {
            const auto& a = camps.begin()->second;
            const auto& c = std::next(camps.begin())->second;
            const auto& small = a.size() < c.size() ? a : c;
            const auto& large = a.size() < c.size() ? c : a;
            if (small.size() * 2 <= large.size())
                culprits = small;
        }
        why = ctx.say(kRule, "why_camps", { { "camps", std::to_string(camps.size()) } });
    } else {
        for (const auto& [r, tensors] : missingOf)
            culprits.push_back(r);
        if (culprits.size() * 2 >= world.size()) {
            culprits.clear();
            why = ctx.say(kRule, "why_too_many");
        } else {
            const bool submittedOthers = std::any_of(culprits.begin(), culprits.end(), [&](std::int32_t r) { return everReady.count(r) > 0; });
            if (!culprits.empty() && !submittedOthers && !everReady.empty())
                cls = RootCauseClass::StragglerStall;
            const char* phrase = cls == RootCauseClass::StragglerStall ? "why_never_reached"
                : submittedOthers                                      ? "why_submitted_others"
                                                                       : "why_did_not_submit";
            why = ctx.say(kRule, phrase, { { "culprits", formatRanks(culprits) } });
        }
    }
    if (culprits.size() > 64)
        culprits.clear();
    Placeholders values = culprits.empty() ? Placeholders {} : ctx.placeholdersFor(culprits.front());
    values["ranks"] = formatRanks(culprits);
    values["holdup"] = ctx.say(kRule, culprits.empty() ? "holdup_unnamed" : "holdup_named", values);
    values["why"] = why;
    Finding& f = out.add(ctx, kRule, cls, values);
    f.ranks = culprits;
    f.confidence = culprits.empty() ? 0.6 : 0.75;
    for (std::uint32_t i : evidence)
        f.evidence.push_back(evidenceOf(b, i));
    f.explanation = ctx.explain(kRule, values);
    // Three verdicts, not one with parts: each reads as a whole sentence in the knowledge base.
    const char* verdict = culprits.empty()      ? "verdict_unnamed"
        : cls == RootCauseClass::StragglerStall ? "verdict_never_submitted"
                                                : "verdict_submitted_different";
    out.propose(cls, culprits, f.confidence,
        cls == RootCauseClass::StragglerStall ? Precedence("horovod.stall_inspector_straggler")
                                              : Precedence("horovod.stall_inspector_mismatch"),
        ctx.say(kRule, verdict, values));
}

} // namespace rankscope::model
