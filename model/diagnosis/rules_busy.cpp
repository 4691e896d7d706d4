// A rank busy with non-collective work while the others gave up waiting for it
// ([formats 11] F): the pattern behind most "NCCL timeout" reports from data-preparation and
// evaluation code. The mechanism: `main_process_first()`, `barrier()` or the first collective
// of a step blocks every rank until the slowest reaches it; a rank still tokenizing a
// dataset, saving a checkpoint or running rank-0-only evaluation keeps the others waiting
// until their watchdog (ProcessGroupNCCL's checkTimeout) or their c10d store wait
// (TCPStore waitForInput, broadcastUniqueNCCLID's store->get) raises, or the collective call
// itself raises into Python. The waiters print the error; the busy rank prints only its own
// progress.

#include "model/diagnosis/rules.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace rankscope::model {

namespace {

struct BusyEvidence {
    std::uint32_t event = kNoIndex;
    StackActivity activity = StackActivity::Unknown;
    std::int64_t elapsedMs = -1;
    bool byConvention = false; // an unprefixed line taken as the main process's
};

// A host label alone (pdsh's "node7: ", a collector's node name) names a machine, not a
// process: a line under it can be rank 0's when rank 0 runs on that host, or when the bundle
// names that one host and places rank 0 nowhere.
bool hostMayHoldRankZero(const Bundle& b, const std::set<std::string_view>& hosts, StrId host)
{
    if (!b.ranks.empty() && b.ranks.front().host != kNoStr)
        return b.text(b.ranks.front().host) == b.text(host);
    return hosts.size() == 1;
}

bool identityHasWriter(const Bundle& b, const std::set<std::string_view>& hosts, std::uint32_t identity)
{
    if (identity >= b.identities.size())
        return false;
    const RawIdentity& id = b.identities[identity];
    return id.statesRank() || id.pid >= 0 || (id.host != kNoStr && !hostMayHoldRankZero(b, hosts, id.host));
}

constexpr const char* kRule = "straggler.busy_while_others_waited";

// What the busy line says the step is: a bar's description ("Running tokenizer on dataset")
// with its elapsed time, else the line itself, short enough for a verdict sentence.
std::string stepName(const RuleContext& ctx, const Event& e)
{
    const Bundle& b = ctx.bundle;
    const std::string_view text = b.text(e.text);
    const std::size_t bar = text.find("%|");
    if (bar == std::string_view::npos)
        return std::string(text.substr(0, 100));
    std::size_t end = bar;
    while (end > 0 && (isdigit(static_cast<unsigned char>(text[end - 1])) || text[end - 1] == ' ' || text[end - 1] == ':'))
        --end;
    std::string name(text.substr(0, std::min<std::size_t>(end, 100)));
    if (e.durationMs >= 0) {
        const std::int64_t minutes = e.durationMs / 60000;
        name += minutes > 0 ? ctx.say(kRule, "step_minutes", { { "minutes", std::to_string(minutes) } })
                            : ctx.say(kRule, "step_seconds", { { "seconds", std::to_string(e.durationMs / 1000) } });
    }
    return name;
}

// The longest a waiter waited (its timeout), 0 when no line says: a watchdog's Timeout(ms), or a
// store client's "timed out after 1800s".
std::int64_t waitersTimeoutMs(const Bundle& b)
{
    std::int64_t timeout = 0;
    for (const Event& e : b.events)
        if (e.kind == EventKind::TorchWatchdogTimeout || e.kind == EventKind::TorchBlockingWaitTimeout)
            timeout = std::max(timeout, e.timeoutMs);
        else if (e.kind == EventKind::LauncherRendezvousError || e.kind == EventKind::TorchStoreError)
            timeout = std::max(timeout, e.durationMs);
    return timeout;
}

// A tqdm bar drawn at 100 % ("38/38 [00:33<00:00, …]"): its step is over.
bool finishedBar(std::string_view text)
{
    const std::size_t bar = text.find("%|");
    return bar != std::string_view::npos && bar >= 3 && text.substr(bar - 3, 3) == "100";
}

} // namespace

void ruleBusyWhileOthersWaited(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const DiagnosisFacts& facts = ctx.facts;
    std::set<std::int32_t> waiters;
    std::uint32_t waitEvidence = kNoIndex;
    for (const RankFacts& rf : facts.ranks)
        if (rf.waited) {
            waiters.insert(rf.rank);
            if (waitEvidence == kNoIndex)
                waitEvidence = rf.firstTimeoutEvent != kNoIndex ? rf.firstTimeoutEvent
                                                                 : (rf.storeErrors.empty() ? rf.primaryFailure : rf.storeErrors.front());
        }
    if (waiters.empty() && facts.unrankedTimeouts == 0 && facts.unrankedCollectiveRaises == 0)
        return;

    // Who is busy: a progress bar or an announced long step, by a rank that did not wait and
    // did not fail on its own. Scripts print progress from the main process only (tqdm is
    // disabled elsewhere, loggers are rank-zero-only), so an unprefixed line among prefixed
    // or self-naming waiters is rank 0's.
    std::map<std::int32_t, BusyEvidence> busy;
    const std::set<std::string_view> hosts = b.hostNames();
    const std::int64_t waitTimeoutMs = waitersTimeoutMs(b);
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        if (e.kind != EventKind::TrainingProgress)
            continue;
        const auto activity = static_cast<StackActivity>(e.code);
        const bool bar = e.durationMs >= 0;
        if (activity == StackActivity::Unknown && !bar)
            continue; // an iteration line says the rank trained, not that it was elsewhere
        // A bar that finished (100 %) in a small part of the waiters' timeout ended long before
        // they gave up: whatever held them, it was not this step.
        if (bar && finishedBar(b.text(e.text)) && waitTimeoutMs > 0 && e.durationMs * 4 < waitTimeoutMs)
            continue;
        BusyEvidence ev { i, activity, e.durationMs, false };
        // A bar with neither a prefix nor a rank in its file name has no writer of its own,
        // whatever rank another message in the same stream stated: a pasted terminal mixes
        // the output of every local rank, and tqdm redraws with no prefix.
        const bool ownWriter = identityHasWriter(b, hosts, e.identity)
            || b.sources[e.evidence.source].pathIdentity.globalRank >= 0;
        std::int32_t r = e.peerRank >= 0 ? e.peerRank : ((ownWriter || !bar) ? e.rank : -1);
        if (r < 0) {
            if (ownWriter)
                continue;
            r = 0;
            ev.byConvention = true;
        }
        if (waiters.count(r) || (static_cast<std::size_t>(r) < facts.ranks.size() && facts.ranks[r].primaryFailure != kNoIndex))
            continue;
        BusyEvidence& kept = busy[r];
        // Keep the line that shows the longest stretch of a named step: a bar redrawn from 0%
        // (the next map of the same dataset) says less than the one at 29:55 before it.
        const bool knownNew = activity != StackActivity::Unknown;
        const bool knownKept = kept.activity != StackActivity::Unknown;
        if (kept.event == kNoIndex || (knownNew && !knownKept)
            || (knownNew == knownKept && ev.elapsedMs >= kept.elapsedMs))
            kept = ev;
    }
    if (busy.size() != 1)
        return; // nobody busy, or several: the logs do not single one out
    const auto& [rank, ev] = *busy.begin();
    const bool ranAsLong = ev.elapsedMs >= 0 && waitTimeoutMs > 0 && ev.elapsedMs * 4 >= waitTimeoutMs * 3;
    const bool knownStep = ev.activity != StackActivity::Unknown;
    // An unlabelled bar is most often the training loop's own ("Epoch 3: 45%|…"): its elapsed
    // time counts the whole epoch, not the time since the others began to wait, so it says
    // nothing about being elsewhere. Only a named non-collective step does.
    if (!knownStep)
        return;

    double confidence = 0.65 + (ranAsLong ? 0.15 : 0.0) - (ev.byConvention ? 0.05 : 0.0);
    Placeholders values = ctx.placeholdersFor(rank);
    values["who"] = ctx.rankLabel(rank);
    values["step"] = stepName(ctx, b.events[ev.event]);
    values["count"] = std::to_string(waiters.size());
    values["waiters"] = ctx.say(kRule, waiters.empty() ? "waiters_unknown" : "waiters_counted", values);
    if (ranAsLong)
        values["as_long"] = ctx.say(kRule, "as_long");
    if (ev.byConvention)
        values["by_convention"] = ctx.say(kRule, "by_convention");
    Finding& f = out.add(ctx, std::string(kRule), RootCauseClass::StragglerStall, values);
    f.ranks = { rank };
    f.confidence = confidence;
    f.evidence.push_back(evidenceOf(b, ev.event));
    if (waitEvidence != kNoIndex)
        f.evidence.push_back(evidenceOf(b, waitEvidence));
    f.explanation = ctx.explain(kRule, values);
    out.propose(RootCauseClass::StragglerStall, { rank }, confidence, kRule, ctx.verdict(kRule, values));
}

} // namespace rankscope::model
