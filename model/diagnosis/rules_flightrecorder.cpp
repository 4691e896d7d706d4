// Flight Recorder rules ([formats 2.3]–2.4, [formats 11] C/E/F): conclusions from
// the cross-rank matching of FR dumps (model/frmatch.h). FR entries are direct evidence
// of what every rank enqueued, started and completed, so these rules rank above the
// log-only straggler inference and below hardware faults with a direct Xid and crashes with
// a traceback (the fr.* rows of the precedence table, precedence.h).

#include "model/diagnosis/rules.h"
#include "model/frdumptext.h"
#include "model/ranklist.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace rankscope::model {

namespace {

constexpr std::size_t kMaxCodeFrames = 6;
constexpr std::size_t kMaxEvidence = 6;

const FrMatchResult& frOf(const RuleContext& ctx)
{
    return ctx.facts.flightRecorder;
}

const FrPgMatch* firstStuck(const RuleContext& ctx)
{
    const FrMatchResult& fr = frOf(ctx);
    return fr.firstStuck ? &fr.pgs[*fr.firstStuck] : nullptr;
}

const FrCall* callOf(const Bundle& b, std::uint32_t entry)
{
    if (entry >= b.frEntries.size())
        return nullptr;
    const std::uint32_t c = b.frEntries[entry].call;
    return c < b.frCalls.size() ? &b.frCalls[c] : nullptr;
}

std::string pgText(const Bundle& b, const FrPgMatch& pg)
{
    std::string out = "PG " + std::string(b.text(pg.pg));
    if (pg.desc != kNoStr)
        out += " (" + std::string(b.text(pg.desc)) + ")";
    return out;
}

// The dump file as evidence, with the entry it shows: "nccl_trace_rank_3: record 5: …".
EvidenceLine entryEvidence(const Bundle& b, std::uint32_t entry)
{
    const FrEntry& e = b.frEntries[entry];
    const std::uint32_t dump = frDumpOf(b.frCalls, e);
    if (dump >= b.frDumps.size())
        return evidenceOf(b, EvidenceRef {}, "Flight Recorder record_id " + std::to_string(e.recordId));
    const FrDump& d = b.frDumps[dump];
    std::string file = "Flight Recorder dump";
    if (const Source* s = b.source(d.evidence.source))
        file = std::filesystem::path(s->path).filename().string();
    EvidenceRef ref = d.evidence;
    ref.line = frEntryLine(b, entry); // the entry's line in the log viewer's decoded dump
    return evidenceOf(b, ref,
        file + ": record_id " + std::to_string(e.recordId) + ": " + describeFrEntry(b, entry));
}

// "train.py:120 in train_step", innermost first.
std::vector<std::string> codeLocation(const Bundle& b, std::uint32_t entry)
{
    std::vector<std::string> out;
    if (entry >= b.frEntries.size())
        return out;
    const auto [first, last] = b.frStacks.of(frStackOf(b.frCalls, b.frEntries[entry]));
    for (const StackFrame* f = first; f != last && out.size() < kMaxCodeFrames; ++f) {
        std::string line(b.text(f->file));
        if (f->line >= 0)
            line += ":" + std::to_string(f->line);
        if (f->function != kNoStr)
            line += " in " + std::string(b.text(f->function));
        out.push_back(std::move(line));
    }
    return out;
}

// The suspects' entries at the stuck collective as evidence (up to kMaxEvidence), then one
// peer's entry for contrast, and the first suspect's frames as the code location.
void addPositionEvidence(Finding& f, const Bundle& b, const FrPgMatch& pg,
    const std::vector<std::int32_t>& suspects, std::int32_t contrastRank)
{
    for (const std::int32_t r : suspects)
        if (const FrRankAtSeq* s = pg.at(r);
            s && s->entry != kNoFrIndex && f.evidence.size() < kMaxEvidence)
            f.evidence.push_back(entryEvidence(b, s->entry));
    if (contrastRank >= 0)
        if (const FrRankAtSeq* s = pg.at(contrastRank); s && s->entry != kNoFrIndex)
            f.evidence.push_back(entryEvidence(b, s->entry));
    if (!suspects.empty())
        if (const FrRankAtSeq* s = pg.at(suspects.front()); s && s->entry != kNoFrIndex)
            f.codeLocation = codeLocation(b, s->entry);
}

StuckCollective stuckOf(const Bundle& b, const FrPgMatch& pg)
{
    StuckCollective sc;
    sc.processGroup = std::string(b.text(pg.pg));
    sc.seq = pg.stuckSeq;
    if (const FrCall* c = callOf(b, pg.stuckEntry))
        sc.op = c->op;
    return sc;
}

Placeholders placeholders(
    const RuleContext& ctx, std::int32_t rank, const FrPgMatch* pg, std::int64_t seq)
{
    Placeholders p = ctx.placeholdersFor(rank);
    if (rank >= 0)
        p["rank"] = std::to_string(rank);
    if (pg) {
        p["pg"] = std::string(ctx.bundle.text(pg->pg));
        if (seq >= 0)
            p["seq"] = std::to_string(seq);
        if (const FrCall* c = callOf(ctx.bundle, pg->stuckEntry))
            p["op"] = std::string(torchName(c->op));
    }
    const FrMatchResult& fr = frOf(ctx);
    if (rank >= 0 && static_cast<std::size_t>(rank) < fr.dumpOfRank.size()
        && fr.dumpOfRank[static_cast<std::size_t>(rank)] != kNoFrIndex)
        if (const Source* s = ctx.bundle.source(
                ctx.bundle.frDumps[fr.dumpOfRank[static_cast<std::size_t>(rank)]].evidence.source))
            p["dump"] = s->path;
    return p;
}

std::string secondsText(std::int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ns) / 1e9);
    return buf;
}

// The rank failed on its own (traceback, CUDA error, fatal signal; facts.h primaryFailure).
// A launcher exit code alone is not enough: the launcher also reports the ranks it killed.
bool hasOwnFailure(const RuleContext& ctx, std::int32_t rank)
{
    if (rank < 0 || static_cast<std::size_t>(rank) >= ctx.facts.ranks.size())
        return false;
    return ctx.facts.ranks[rank].primaryFailure != kNoIndex;
}

// The logs show the process alive after the hang began: it printed a watchdog timeout of
// its own, a stack dump of its threads was taken, or its script reported an activity.
bool aliveAfterHang(const RuleContext& ctx, std::int32_t rank)
{
    if (rank < 0 || static_cast<std::size_t>(rank) >= ctx.facts.ranks.size())
        return false;
    const RankFacts& rf = ctx.facts.ranks[rank];
    return rf.anyTimeout || rf.stackDump != kNoIndex || rf.lastActivityEvent != kNoIndex;
}

} // namespace

// (a) Different op, size or dtype at one sequence number: the minority took another code
// path ([formats 1.5] rules 6–7). Only the first independent mismatch up to the stuck collective
// decides; the matcher already left out the ones that merely follow from it.
void ruleFrMismatch(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const FrMatchResult& fr = frOf(ctx);
    const FrPgMatch* pg = nullptr;
    const FrMismatch* first = nullptr;
    auto firstCallMismatch = [](const FrPgMatch& p) -> const FrMismatch* {
        for (const FrMismatch& m : p.mismatches)
            if ((m.kind == FrMismatchKind::OpType || m.kind == FrMismatchKind::Size
                    || m.kind == FrMismatchKind::Dtype)
                && (p.stuckSeq < 0 || m.seq <= p.stuckSeq))
                return &m;
        return nullptr;
    };
    if (const FrPgMatch* s = firstStuck(ctx); s && (first = firstCallMismatch(*s)))
        pg = s;
    for (std::size_t i = 0; !first && i < fr.pgs.size(); ++i)
        if ((first = firstCallMismatch(fr.pgs[i])))
            pg = &fr.pgs[i];
    if (!first)
        return;

    std::size_t further = 0;
    for (const FrMismatch& m : pg->mismatches)
        further += &m != first && m.kind != FrMismatchKind::State;

    static constexpr const char* kRule = "fr.mismatch";
    Placeholders values
        = placeholders(ctx, first->evenSplit ? -1 : first->deviating.front(), pg, first->seq);
    values["ranks"] = formatRanks(first->deviating);
    values["who"] = ctx.ranksObject(first->deviating);
    values["coll_seq"] = std::to_string(first->seq);
    values["pg_label"] = pgText(b, *pg);
    values["kind"] = std::string(frMismatchKindName(first->kind));
    values["agreeing"] = formatRanks(first->agreeing);
    values["agreeing_count"] = std::to_string(first->agreeing.size());
    values["agreeing_call"] = describeFrEntry(b, first->agreeingEntry);
    values["deviating_call"] = describeFrEntry(b, first->deviatingEntry);
    if (further || pg->consequencesSuppressed)
        values["continued"] = ctx.say(kRule, "continued",
            { { "further", std::to_string(further) },
                { "suppressed", std::to_string(pg->consequencesSuppressed) } });
    Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
    f.evidence.push_back(entryEvidence(b, first->deviatingEntry));
    f.evidence.push_back(entryEvidence(b, first->agreeingEntry));
    f.codeLocation = codeLocation(b, first->deviatingEntry);
    if (first->evenSplit) {
        f.title = ctx.say(kRule, "even_split_title", values);
        f.confidence = 0.6;
        f.explanation = ctx.say(kRule, "even_split_summary", values);
        Proposal& p = out.propose(RootCauseClass::CollectiveMismatch, {}, 0.6, "fr.mismatch_even_split",
            ctx.say(kRule, "even_split_verdict", values));
        p.stuckCollective = stuckOf(b, *pg);
        return;
    }
    f.ranks = first->deviating;
    f.confidence = 0.9;
    f.explanation = ctx.explain(kRule, values);
    Proposal& p = out.propose(RootCauseClass::CollectiveMismatch, first->deviating, 0.9, kRule,
        ctx.verdict(kRule, values));
    p.stuckCollective = stuckOf(b, *pg);
}

// (b) A rank whose entries stop before #S while its peers enqueued #S never entered it
// ([formats 1.5] rule 3, [formats 11] F); (c) one rank that did not start #S while its peers did, or that
// started #S and never finished it while every peer finished: resolves what PyTorch's
// "last enqueued" cannot ([formats 2.3] states).
void ruleFrStuckPosition(const RuleContext& ctx, RuleOutput& out)
{
    const FrPgMatch* pg = firstStuck(ctx);
    if (!pg)
        return;
    const Bundle& b = ctx.bundle;
    std::vector<std::int32_t> stopped, completed, started, scheduled;
    for (const FrRankAtSeq& a : pg->atStuck) {
        switch (a.position) {
        case FrRankPosition::StoppedBefore:
        case FrRankPosition::SkippedSeq:
            stopped.push_back(a.rank);
            break;
        case FrRankPosition::Completed:
            completed.push_back(a.rank);
            break;
        case FrRankPosition::Started:
            started.push_back(a.rank);
            break;
        case FrRankPosition::Scheduled:
            scheduled.push_back(a.rank);
            break;
        default:
            break;
        }
    }
    const std::size_t entered = started.size() + scheduled.size();
    const std::size_t holding = entered + completed.size();
    // The values every form's words share: the suspects, the stuck collective and the PG.
    auto valuesFor = [&](const std::vector<std::int32_t>& suspects) {
        Placeholders values = placeholders(ctx, suspects.front(), pg, pg->stuckSeq);
        values["ranks"] = formatRanks(suspects);
        values["who"] = ctx.ranksObject(suspects);
        values["coll_seq"] = std::to_string(pg->stuckSeq);
        values["pg_label"] = pgText(b, *pg);
        return values;
    };

    if (!stopped.empty() && entered > 0) {
        if (stopped.size() >= holding) {
            // Most ranks never enqueued #S: the few that did issued an extra collective. On
            // an even split the dumps cannot say which side is the odd one.
            if (stopped.size() == holding)
                return;
            std::vector<std::int32_t> extra = started;
            extra.insert(extra.end(), scheduled.begin(), scheduled.end());
            extra.insert(extra.end(), completed.begin(), completed.end());
            std::sort(extra.begin(), extra.end());
            // fr.mismatch's form for a collective only the minority issued.
            static constexpr const char* kRule = "fr.mismatch";
            Placeholders values = valuesFor(extra);
            values["wait_call"] = describeFrEntry(b, pg->stuckEntry);
            values["stopped"] = formatRanks(stopped);
            values["stopped_count"] = std::to_string(stopped.size());
            values["prev_seq"] = std::to_string(pg->stuckSeq - 1);
            Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
            f.ranks = extra;
            f.confidence = 0.7;
            f.title = ctx.say(kRule, "extra_title", values);
            f.explanation = ctx.say(kRule, "extra_summary", values);
            f.evidence.push_back(entryEvidence(b, pg->stuckEntry));
            if (const FrRankAtSeq* s = pg->at(stopped.front()); s && s->lastEntry != kNoFrIndex)
                f.evidence.push_back(entryEvidence(b, s->lastEntry));
            f.codeLocation = codeLocation(b, pg->stuckEntry);
            Proposal& p
                = out.propose(RootCauseClass::CollectiveMismatch, extra, 0.7, "fr.mismatch_extra_collective",
                    ctx.say(kRule, "extra_verdict", values));
            p.stuckCollective = stuckOf(b, *pg);
            return;
        }
        bool crashed = false;
        for (const std::int32_t r : stopped)
            crashed = crashed || hasOwnFailure(ctx, r);
        const RootCauseClass cls
            = crashed ? RootCauseClass::RankCrashed : RootCauseClass::StragglerStall;
        static constexpr const char* kRule = "fr.never_entered";
        Placeholders values = valuesFor(stopped);
        values["wait_call"] = describeFrEntry(b, pg->stuckEntry);
        values["entered"] = std::to_string(entered);
        values["why"] = ctx.say(kRule, crashed ? "why_crashed" : "why_busy");
        Finding& f = out.add(ctx, kRule, cls, values);
        f.ranks = stopped;
        f.confidence = 0.85;
        // The newest entry of the rank's whole dump (any PG) shows where it went instead.
        auto newestOf = [&](const FrRankAtSeq* s) {
            if (!s || s->dump >= b.frDumps.size() || b.frDumps[s->dump].entryCount == 0)
                return kNoFrIndex;
            const FrDump& d = b.frDumps[s->dump];
            return d.firstEntry + d.entryCount - 1;
        };
        std::string last;
        for (const std::int32_t r : stopped) {
            const FrRankAtSeq* s = pg->at(r);
            const std::uint32_t newest = newestOf(s);
            const bool recordedHere = s && s->lastEntry != kNoFrIndex;
            Placeholders said { { "label", ctx.rankLabel(r) } };
            if (recordedHere)
                said["last_call"] = describeFrEntry(b, s->lastEntry);
            if (newest != kNoFrIndex && (!s || newest != s->lastEntry)) {
                Placeholders newestWords { { "newest_call", describeFrEntry(b, newest) } };
                if (const FrCall* c = callOf(b, newest))
                    newestWords["newest_pg"]
                        = ctx.say(kRule, "newest_pg", { { "pg_name", std::string(b.text(c->pg)) } });
                said["newest"] = ctx.say(kRule, "newest_entry", newestWords);
            }
            last += (last.empty() ? "" : "; ")
                + ctx.say(kRule, recordedHere ? "rank_last_enqueued" : "rank_recorded_nothing", said);
            if (newest != kNoFrIndex && f.evidence.size() < kMaxEvidence)
                f.evidence.push_back(entryEvidence(b, newest));
            if (s && s->lastEntry != kNoFrIndex && s->lastEntry != newest
                && f.evidence.size() < kMaxEvidence)
                f.evidence.push_back(entryEvidence(b, s->lastEntry));
        }
        f.evidence.push_back(entryEvidence(b, pg->stuckEntry));
        if (const std::uint32_t newest = newestOf(pg->at(stopped.front())); newest != kNoFrIndex)
            f.codeLocation = codeLocation(b, newest);
        values["last"] = last;
        f.explanation = ctx.explain(kRule, values);
        Proposal& p = out.propose(cls, stopped, 0.85,
            crashed ? Precedence("fr.never_entered_crashed") : Precedence("fr.never_entered"),
            ctx.verdict(kRule, values));
        p.stuckCollective = stuckOf(b, *pg);
        return;
    }

    // Every rank that can say enqueued #S. One that finished nothing while its peers finished
    // it is stuck inside it; one that never started it while its peers did is behind on its GPU.
    if (!stopped.empty() || holding < 2)
        return;
    std::vector<std::int32_t> stuckInside;
    if (!completed.empty() && entered > 0 && entered < completed.size()) {
        stuckInside = started;
        stuckInside.insert(stuckInside.end(), scheduled.begin(), scheduled.end());
        std::sort(stuckInside.begin(), stuckInside.end());
        static constexpr const char* kRule = "fr.stuck_inside";
        Placeholders values = valuesFor(stuckInside);
        values["completed_count"] = std::to_string(completed.size());
        Finding& f = out.add(ctx, kRule, std::nullopt, values);
        f.ranks = stuckInside;
        f.confidence = 0.75;
        addPositionEvidence(f, b, *pg, stuckInside, completed.front());
        f.explanation = ctx.explain(kRule, values);
        Proposal& p = out.propose(RootCauseClass::Unknown, stuckInside, 0.7, kRule, ctx.verdict(kRule, values));
        p.stuckCollective = stuckOf(b, *pg);
        return;
    }
    // Everyone started #S, but one rank's watchdog noticed its start only about a timeout
    // after the enqueue while its peers' noticed within moments: its watchdog thread was
    // blocked that long, which is a CUDA call that did not return ([formats 2.3] "time_discovered_*
    // can be late if the watchdog was stuck"; [formats 11] A: a CUDA API hang blocks the watchdog).
    if (completed.empty() && scheduled.empty() && started.size() >= 2) {
        struct Gap {
            std::int32_t rank;
            std::int64_t ns;
        };
        std::vector<Gap> gaps;
        std::int64_t timeoutNs = 0;
        for (const std::int32_t r : started)
            if (const FrRankAtSeq* s = pg->at(r); s && s->entry != kNoFrIndex) {
                const FrEntry& e = b.frEntries[s->entry];
                if (e.createdNs() > 0 && e.startedNs() >= e.createdNs())
                    gaps.push_back({ r, e.startedNs() - e.createdNs() });
                if (const FrCall* c = callOf(b, s->entry); c && c->timeoutMs > 0)
                    timeoutNs = std::max(timeoutNs, c->timeoutMs * 1'000'000);
            }
        std::vector<std::int64_t> sorted;
        for (const Gap& g : gaps)
            sorted.push_back(g.ns);
        std::sort(sorted.begin(), sorted.end());
        const std::int64_t median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
        const std::int64_t lateAfter = timeoutNs > 0 ? timeoutNs / 2 : 60 * kNsPerSecond;
        std::vector<std::int32_t> late;
        std::int64_t worst = 0;
        for (const Gap& g : gaps)
            if (g.ns >= lateAfter && g.ns > 100 * std::max<std::int64_t>(median, 1'000'000)) {
                late.push_back(g.rank);
                worst = std::max(worst, g.ns);
            }
        if (!late.empty() && late.size() * 2 < gaps.size()) {
            static constexpr const char* kRule = "fr.late_start";
            Placeholders values = valuesFor(late);
            values["worst"] = secondsText(worst);
            values["median"] = secondsText(median);
            values["on_time_count"] = std::to_string(gaps.size() - late.size());
            if (timeoutNs > 0)
                values["timeout_note"] = ctx.say(kRule, "timeout_note", { { "timeout", secondsText(timeoutNs) } });
            Finding& f = out.add(ctx, kRule, RootCauseClass::HardwareFault, values);
            f.ranks = late;
            f.confidence = 0.7;
            std::int32_t onTime = -1;
            for (const Gap& g : gaps)
                if (std::find(late.begin(), late.end(), g.rank) == late.end()) {
                    onTime = g.rank;
                    break;
                }
            addPositionEvidence(f, b, *pg, late, onTime);
            f.explanation = ctx.explain(kRule, values);
            Proposal& p = out.propose(RootCauseClass::HardwareFault, late, 0.7, kRule, ctx.verdict(kRule, values));
            p.stuckCollective = stuckOf(b, *pg);
            return;
        }
    }

    // Started needs TORCH_NCCL_ENABLE_TIMING: only when some rank shows it do the others'
    // "scheduled" mean "not started".
    if (completed.empty() && !started.empty() && !scheduled.empty()
        && scheduled.size() < started.size()) {
        std::int64_t longestWait = 0;
        for (const std::int32_t r : started)
            if (const FrRankAtSeq* s = pg->at(r); s && s->entry != kNoFrIndex) {
                const FrEntry& e = b.frEntries[s->entry];
                if (e.startedNs() > e.createdNs() && e.createdNs() > 0)
                    longestWait = std::max(longestWait, e.startedNs() - e.createdNs());
            }
        static constexpr const char* kRule = "fr.not_started";
        Placeholders values = valuesFor(scheduled);
        values["started_count"] = std::to_string(started.size());
        if (longestWait > 0)
            values["longest_wait"] = ctx.say(kRule, "longest_wait", { { "longest", secondsText(longestWait) } });
        Finding& f = out.add(ctx, kRule, RootCauseClass::StragglerStall, values);
        f.ranks = scheduled;
        f.confidence = 0.75;
        addPositionEvidence(f, b, *pg, scheduled, started.front());
        f.explanation = ctx.explain(kRule, values);
        Proposal& p = out.propose(RootCauseClass::StragglerStall, scheduled, 0.75, kRule, ctx.verdict(kRule, values));
        p.stuckCollective = stuckOf(b, *pg);
    }
}

// (d) A rank with no dump among ranks that dumped ([formats 2.4] pitfalls: PyTorch's own analyser notes "the culprit
// rank is often the one that does not dump"): dead, or hung so hard its dump never ran.
void ruleFrMissingDump(const RuleContext& ctx, RuleOutput& out)
{
    const FrMatchResult& fr = frOf(ctx);
    if (fr.ranksWithoutDump.empty() || fr.dumpedRanks.empty()
        || fr.ranksWithoutDump.size() >= fr.dumpedRanks.size())
        return;
    const Bundle& b = ctx.bundle;
    const std::vector<std::int32_t>& missing = fr.ranksWithoutDump;
    // The dump is written by the C++ watchdog thread ([formats 2.1]), so a rank that is merely slow
    // in Python still writes one: without a dump the process was most likely gone ([formats 11] E
    // lists "FR: missing dump file" as crash evidence), unless the logs show it alive.
    bool failed = false, alive = false;
    for (const std::int32_t r : missing) {
        failed = failed || hasOwnFailure(ctx, r);
        alive = alive || aliveAfterHang(ctx, r);
    }
    const bool crashed = failed || !alive;
    // When every rank that dumped entered the stuck collective, the missing one is the only
    // rank that can be holding it up.
    const FrPgMatch* pg = firstStuck(ctx);
    bool othersAllWaiting = pg != nullptr;
    if (pg)
        for (const FrRankAtSeq& a : pg->atStuck)
            othersAllWaiting = othersAllWaiting
                && (a.position == FrRankPosition::Started || a.position == FrRankPosition::Scheduled
                    || a.position == FrRankPosition::NoDump
                    || a.position == FrRankPosition::BufferDoesNotReach);
    const RootCauseClass cls
        = crashed ? RootCauseClass::RankCrashed : RootCauseClass::StragglerStall;
    static constexpr const char* kRule = "fr.missing_dump";
    Placeholders values = placeholders(ctx, missing.front(), pg, pg ? pg->stuckSeq : -1);
    values["ranks"] = formatRanks(missing);
    values["who"] = ctx.ranksObject(missing);
    values["dumped_count"] = std::to_string(fr.dumpedRanks.size());
    values["world_size"] = std::to_string(fr.worldSize);
    if (pg && othersAllWaiting) {
        values["waiting"] = ctx.say(kRule, "waiting",
            { { "coll_seq", std::to_string(pg->stuckSeq) }, { "pg_label", pgText(b, *pg) } });
        values["and_waited"] = ctx.say(kRule, "and_waited");
    }
    values["why"] = ctx.say(kRule, failed ? "why_failed" : alive ? "why_alive" : "why_gone");
    Finding& f = out.add(ctx, kRule, cls, values);
    f.ranks = missing;
    const double confidence = failed ? 0.8 : (othersAllWaiting ? 0.7 : 0.55);
    f.confidence = confidence;
    for (const std::int32_t r : fr.dumpedRanks) {
        if (f.evidence.size() >= 2)
            break;
        const FrDump& d = b.frDumps[fr.dumpOfRank[static_cast<std::size_t>(r)]];
        if (d.entryCount)
            f.evidence.push_back(entryEvidence(b, d.firstEntry + d.entryCount - 1));
    }
    if (pg && pg->stuckEntry != kNoFrIndex)
        f.codeLocation = codeLocation(b, pg->stuckEntry);
    f.explanation = ctx.explain(kRule, values);
    Proposal& p = out.propose(cls, missing, confidence,
        failed ? Precedence("fr.missing_dump_failed")
            : othersAllWaiting ? Precedence("fr.missing_dump_others_waiting")
                               : Precedence("fr.missing_dump"),
        ctx.verdict(kRule, values));
    if (pg)
        p.stuckCollective = stuckOf(b, *pg);
}

// (e) A pending send whose receiver never posted the recv (or the reverse), matched by peer
// pair and order ([formats 2.3] "nccl:send 1->2"): the pipeline stage pair that deadlocked.
void ruleFrP2pUnmatched(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    const FrMatchResult& fr = frOf(ctx);
    const FrP2pUnmatched* first = nullptr;
    const FrPgMatch* firstPg = nullptr;
    std::vector<std::string> pairs;
    for (const FrPgMatch& pg : fr.pgs)
        for (const FrP2pUnmatched& u : pg.unmatchedP2p) {
            if (b.frEntries[u.entry].state() == FrState::Completed)
                continue; // finished: its partner's record was evicted, nothing hangs on it
            if (!first || b.frEntries[u.entry].createdNs() < b.frEntries[first->entry].createdNs()) {
                first = &u;
                firstPg = &pg;
            }
            if (pairs.size() < 5)
                pairs.push_back(std::to_string(u.sender) + " -> " + std::to_string(u.receiver));
        }
    if (!first)
        return;
    const std::int32_t silent = first->recvMissing ? first->receiver : first->sender;
    const std::int32_t waiting = first->recvMissing ? first->sender : first->receiver;
    static constexpr const char* kRule = "fr.p2p_unmatched";
    Placeholders values = placeholders(ctx, silent, firstPg, -1);
    values["peer"] = std::to_string(waiting);
    values["ranks"] = std::to_string(first->sender) + "," + std::to_string(first->receiver);
    // The op names are NCCL's: the pending one and the one its partner never posted.
    values["pending_op"] = first->recvMissing ? "send" : "recv";
    values["missing_op"] = first->recvMissing ? "recv" : "send";
    values["sender"] = std::to_string(first->sender);
    values["receiver"] = std::to_string(first->receiver);
    values["waiting_who"] = ctx.rankLabel(waiting);
    values["silent_who"] = ctx.rankLabel(silent);
    values["waiting_rank"] = std::to_string(waiting);
    values["silent_rank"] = std::to_string(silent);
    values["entry"] = describeFrEntry(b, first->entry);
    values["pg_label"] = pgText(b, *firstPg);
    values["direction"] = ctx.say(kRule, first->recvMissing ? "waits_on_send" : "waits_on_recv");
    if (pairs.size() > 1) {
        std::string list;
        for (const auto& pair : pairs)
            list += (list.empty() ? "" : ", ") + pair;
        values["pairs"] = ctx.say(kRule, "unmatched_pairs", { { "pair_list", list } });
    }
    Finding& f = out.add(ctx, kRule, RootCauseClass::CollectiveMismatch, values);
    f.ranks = { first->sender, first->receiver };
    f.confidence = 0.7;
    f.evidence.push_back(entryEvidence(b, first->entry));
    f.codeLocation = codeLocation(b, first->entry);
    f.explanation = ctx.explain(kRule, values);
    Proposal& p = out.propose(RootCauseClass::CollectiveMismatch, { silent }, 0.7, kRule, ctx.verdict(kRule, values));
    p.pair = std::make_pair(first->sender, first->receiver);
    if (const FrPgMatch* s = firstStuck(ctx))
        p.stuckCollective = stuckOf(b, *s);
}

} // namespace rankscope::model
