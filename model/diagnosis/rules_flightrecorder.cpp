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

std::string ranksText(const RuleContext& ctx, const std::vector<std::int32_t>& ranks)
{
    return ranks.size() == 1 ? ctx.rankLabel(ranks.front()) : "ranks " + formatRanks(ranks);
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
    const std::string at = "collective #" + std::to_string(first->seq) + " of " + pgText(b, *pg);
    const std::string sides = "ranks " + formatRanks(first->agreeing) + " recorded "
        + describeFrEntry(b, first->agreeingEntry) + "; " + ranksText(ctx, first->deviating)
        + " recorded " + describeFrEntry(b, first->deviatingEntry);
    std::string tail;
    if (further || pg->consequencesSuppressed)
        tail = " Matching continued past it: " + std::to_string(further)
            + " further independent mismatch(es) on this PG, "
            + std::to_string(pg->consequencesSuppressed)
            + " later disagreement(s) that only follow from this one were not counted again.";

    Placeholders values
        = placeholders(ctx, first->evenSplit ? -1 : first->deviating.front(), pg, first->seq);
    values["ranks"] = formatRanks(first->deviating);
    Finding& f = out.add(ctx, "fr.mismatch", RootCauseClass::CollectiveMismatch, values);
    f.evidence.push_back(entryEvidence(b, first->deviatingEntry));
    f.evidence.push_back(entryEvidence(b, first->agreeingEntry));
    f.codeLocation = codeLocation(b, first->deviatingEntry);
    const std::string kind(frMismatchKindName(first->kind));
    if (first->evenSplit) {
        f.title = "Flight Recorder: ranks disagree on " + at + " in an even split (" + kind + ")";
        f.confidence = 0.6;
        f.explanation = "The Flight Recorder dumps disagree on " + at + " (" + kind + "): " + sides
            + ". Neither side is a minority, so the dumps cannot say which one took the wrong code "
              "path and no rank is named."
              " Compare the code that issues this collective on both sides (the stacks of both "
              "entries)."
            + tail;
        Proposal& p = out.propose(RootCauseClass::CollectiveMismatch, {}, 0.6, "fr.mismatch_even_split",
            "The Flight Recorder shows ranks disagreeing on " + at
                + " in an even split; Rankscope does not pick a side.");
        p.stuckCollective = stuckOf(b, *pg);
        return;
    }
    f.ranks = first->deviating;
    f.title = "Flight Recorder: " + ranksText(ctx, first->deviating)
        + " issued a different collective at " + at + " (" + kind + ")";
    f.confidence = 0.9;
    f.explanation = "Lined up by sequence number, the dumps show " + sides + ". The "
        + std::to_string(first->agreeing.size())
        + " ranks that agree are the reference (consensus, not whichever file came first), so "
        + ranksText(ctx, first->deviating)
        + " took a different code path: a skipped or extra collective, a rank-dependent branch or "
          "a different tensor shape, "
          "and every rank deadlocked on the mismatched call. The code location is where it issued "
          "its call."
        + tail;
    Proposal& p
        = out.propose(RootCauseClass::CollectiveMismatch, first->deviating, 0.9, "fr.mismatch",
            ranksText(ctx, first->deviating) + " issued " + describeFrEntry(b, first->deviatingEntry)
                + " at " + at + " while " + std::to_string(first->agreeing.size())
                + " ranks issued " + describeFrEntry(b, first->agreeingEntry)
                + " (Flight Recorder): a collective mismatch.");
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
    const std::string at = "collective #" + std::to_string(pg->stuckSeq) + " of " + pgText(b, *pg);
    const std::string waitText = describeFrEntry(b, pg->stuckEntry);

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
            Placeholders values = placeholders(ctx, extra.front(), pg, pg->stuckSeq);
            values["ranks"] = formatRanks(extra);
            Finding& f = out.add(ctx, "fr.mismatch", RootCauseClass::CollectiveMismatch, values);
            f.ranks = extra;
            f.confidence = 0.7;
            f.title = "Flight Recorder: " + ranksText(ctx, extra) + " issued " + at
                + ", which the other ranks never issued";
            f.explanation = ranksText(ctx, extra) + " enqueued " + at + " (" + waitText
                + "), while " + std::to_string(stopped.size()) + " ranks (" + formatRanks(stopped)
                + ") recorded nothing after #" + std::to_string(pg->stuckSeq - 1)
                + " on this PG. The minority issued an extra collective (a rank-dependent branch "
                  "such as logging or"
                  " evaluation on one rank), and waits for peers that will never join.";
            f.evidence.push_back(entryEvidence(b, pg->stuckEntry));
            if (const FrRankAtSeq* s = pg->at(stopped.front()); s && s->lastEntry != kNoFrIndex)
                f.evidence.push_back(entryEvidence(b, s->lastEntry));
            f.codeLocation = codeLocation(b, pg->stuckEntry);
            Proposal& p
                = out.propose(RootCauseClass::CollectiveMismatch, extra, 0.7, "fr.mismatch_extra_collective",
                    ranksText(ctx, extra) + " issued " + at
                        + " that the other ranks never issued (Flight Recorder): a collective "
                          "mismatch.");
            p.stuckCollective = stuckOf(b, *pg);
            return;
        }
        bool crashed = false;
        for (const std::int32_t r : stopped)
            crashed = crashed || hasOwnFailure(ctx, r);
        const RootCauseClass cls
            = crashed ? RootCauseClass::RankCrashed : RootCauseClass::StragglerStall;
        Placeholders values = placeholders(ctx, stopped.front(), pg, pg->stuckSeq);
        values["ranks"] = formatRanks(stopped);
        Finding& f = out.add(ctx, "fr.never_entered", cls, values);
        f.ranks = stopped;
        f.confidence = 0.85;
        f.title = "Flight Recorder: " + ranksText(ctx, stopped) + " never enqueued " + at;
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
            std::string said = !s || s->lastEntry == kNoFrIndex
                ? " recorded nothing on this PG"
                : " last enqueued " + describeFrEntry(b, s->lastEntry) + " on it";
            if (newest != kNoFrIndex && (!s || newest != s->lastEntry)) {
                const FrCall* c = callOf(b, newest);
                said += ", and its newest entry is " + describeFrEntry(b, newest)
                    + (c ? " on PG " + std::string(b.text(c->pg)) : std::string());
            }
            last += (last.empty() ? "" : "; ") + ctx.rankLabel(r) + said;
            if (newest != kNoFrIndex && f.evidence.size() < kMaxEvidence)
                f.evidence.push_back(entryEvidence(b, newest));
            if (s && s->lastEntry != kNoFrIndex && s->lastEntry != newest
                && f.evidence.size() < kMaxEvidence)
                f.evidence.push_back(entryEvidence(b, s->lastEntry));
        }
        f.evidence.push_back(entryEvidence(b, pg->stuckEntry));
        if (const std::uint32_t newest = newestOf(pg->at(stopped.front())); newest != kNoFrIndex)
            f.codeLocation = codeLocation(b, newest);
        f.explanation = std::to_string(entered) + " rank(s) enqueued " + at + " (" + waitText
            + ") and wait in it, but " + last
            + ". Its own buffer reaches back far enough to show it, so the rank never got to the "
              "collective:"
            + (crashed ? " it failed first (see its own error)."
                       : " it was busy elsewhere (data loading, checkpoint I/O, a different code "
                         "path) or hung in Python.")
            + " The code location is the newest collective it did issue (on any PG).";
        Proposal& p = out.propose(cls, stopped, 0.85,
            crashed ? Precedence("fr.never_entered_crashed") : Precedence("fr.never_entered"),
            ranksText(ctx, stopped) + " never enqueued " + at + " while " + std::to_string(entered)
                + " rank(s) waited in it (Flight Recorder).");
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
        Placeholders values = placeholders(ctx, stuckInside.front(), pg, pg->stuckSeq);
        values["ranks"] = formatRanks(stuckInside);
        Finding& f = out.add(ctx, "fr.stuck_inside", std::nullopt, values);
        f.ranks = stuckInside;
        f.confidence = 0.75;
        f.title = "Flight Recorder: " + ranksText(ctx, stuckInside) + " is stuck inside " + at
            + " that every peer completed";
        addPositionEvidence(f, b, *pg, stuckInside, completed.front());
        f.explanation = std::to_string(completed.size()) + " rank(s) completed " + at + ", but "
            + ranksText(ctx, stuckInside)
            + " enqueued it and never completed it. PyTorch's \"last enqueued\" counter cannot "
              "tell this from never"
              " reaching it; the Flight Recorder can: the rank is inside the collective, so its "
              "GPU kernel, its NCCL"
              " transport or its watchdog is stuck. Look for an Xid, NVLink or IB error on its "
              "host.";
        Proposal& p = out.propose(RootCauseClass::Unknown, stuckInside, 0.7, "fr.stuck_inside",
            ranksText(ctx, stuckInside) + " is stuck inside " + at
                + " that every peer completed (Flight Recorder).");
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
            Placeholders values = placeholders(ctx, late.front(), pg, pg->stuckSeq);
            values["ranks"] = formatRanks(late);
            Finding& f = out.add(ctx, "fr.late_start", RootCauseClass::HardwareFault, values);
            f.ranks = late;
            f.confidence = 0.7;
            f.title = "Flight Recorder: " + ranksText(ctx, late) + " was noticed starting " + at
                + " only " + secondsText(worst) + " after enqueuing it";
            std::int32_t onTime = -1;
            for (const Gap& g : gaps)
                if (std::find(late.begin(), late.end(), g.rank) == late.end()) {
                    onTime = g.rank;
                    break;
                }
            addPositionEvidence(f, b, *pg, late, onTime);
            f.explanation = "Every rank started " + at + " and none finished it. On "
                + std::to_string(gaps.size() - late.size())
                + " rank(s) the watchdog saw the start within " + secondsText(median)
                + " of the enqueue, but on " + ranksText(ctx, late) + " only after "
                + secondsText(worst)
                + (timeoutNs > 0 ? " (the timeout is " + secondsText(timeoutNs) + ")"
                                 : std::string())
                + ". The watchdog polls every few milliseconds, so it was blocked for that long: a "
                  "CUDA call on that rank"
                  " did not return, which is what a hung GPU or driver does. Its peers wait in the "
                  "collective for it.";
            Proposal& p = out.propose(RootCauseClass::HardwareFault, late, 0.7, "fr.late_start",
                ranksText(ctx, late)
                    + "'s watchdog was blocked for about the timeout while its peers waited in "
                    + at + " (Flight Recorder): its GPU or driver is hung.");
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
        Placeholders values = placeholders(ctx, scheduled.front(), pg, pg->stuckSeq);
        values["ranks"] = formatRanks(scheduled);
        Finding& f = out.add(ctx, "fr.not_started", RootCauseClass::StragglerStall, values);
        f.ranks = scheduled;
        f.confidence = 0.75;
        f.title = "Flight Recorder: " + ranksText(ctx, scheduled) + " never started " + at
            + " that its peers started";
        addPositionEvidence(f, b, *pg, scheduled, started.front());
        f.explanation = std::to_string(started.size()) + " rank(s) started " + at
            + " and are still in it"
            + (longestWait > 0 ? " (" + secondsText(longestWait) + " from enqueue to start at most)"
                               : std::string())
            + ", but " + ranksText(ctx, scheduled)
            + " only enqueued it: its GPU never began the collective's kernel, so earlier work on "
              "its stream (a long or"
              " hung kernel, a blocking copy) held it back and the peers wait for it inside the "
              "collective.";
        Proposal& p
            = out.propose(RootCauseClass::StragglerStall, scheduled, 0.75, "fr.not_started",
                ranksText(ctx, scheduled) + " never started " + at
                    + " while its peers did (Flight Recorder).");
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
    Placeholders values = placeholders(ctx, missing.front(), pg, pg ? pg->stuckSeq : -1);
    values["ranks"] = formatRanks(missing);
    Finding& f = out.add(ctx, "fr.missing_dump", cls, values);
    f.ranks = missing;
    const double confidence = failed ? 0.8 : (othersAllWaiting ? 0.7 : 0.55);
    f.confidence = confidence;
    f.title = "Flight Recorder: no dump from " + ranksText(ctx, missing) + " while "
        + std::to_string(fr.dumpedRanks.size()) + " ranks dumped";
    for (const std::int32_t r : fr.dumpedRanks) {
        if (f.evidence.size() >= 2)
            break;
        const FrDump& d = b.frDumps[fr.dumpOfRank[static_cast<std::size_t>(r)]];
        if (d.entryCount)
            f.evidence.push_back(entryEvidence(b, d.firstEntry + d.entryCount - 1));
    }
    if (pg && pg->stuckEntry != kNoFrIndex)
        f.codeLocation = codeLocation(b, pg->stuckEntry);
    std::string waiting;
    if (pg && othersAllWaiting)
        waiting = " Every rank that dumped had enqueued collective #" + std::to_string(pg->stuckSeq)
            + " of " + pgText(b, *pg) + " and was waiting in it.";
    f.explanation = "The job has " + std::to_string(fr.worldSize) + " ranks and "
        + std::to_string(fr.dumpedRanks.size()) + " of them wrote a Flight Recorder dump, but "
        + ranksText(ctx, missing) + " did not." + waiting
        + (failed ? " The rank also failed on its own (see its error), so it died before the dump "
                    "was requested."
                : alive ? " Its logs show it alive after the hang began, so it was hung so hard "
                          "(GIL deadlock, stuck CUDA"
                          " call) that its dump never completed, or the file was left uncollected "
                          "on its host."
                        : " The dump is written by PyTorch's watchdog thread, which keeps running "
                          "while Python is busy, so"
                          " a rank that is only slow still writes one: the process was most likely "
                          "gone (crashed or"
                          " killed) before the dump was requested. Make sure the file was not just "
                          "left uncollected on its host.");
    Proposal& p = out.propose(cls, missing, confidence,
        failed ? Precedence("fr.missing_dump_failed")
            : othersAllWaiting ? Precedence("fr.missing_dump_others_waiting")
                               : Precedence("fr.missing_dump"),
        "No Flight Recorder dump from " + ranksText(ctx, missing) + " while the other ranks dumped"
            + (othersAllWaiting ? " and waited in the stuck collective." : "."));
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
    Placeholders values = placeholders(ctx, silent, firstPg, -1);
    values["peer"] = std::to_string(waiting);
    values["ranks"] = std::to_string(first->sender) + "," + std::to_string(first->receiver);
    Finding& f = out.add(ctx, "fr.p2p_unmatched", RootCauseClass::CollectiveMismatch, values);
    f.ranks = { first->sender, first->receiver };
    f.confidence = 0.7;
    f.title = "Flight Recorder: " + std::string(first->recvMissing ? "send" : "recv")
        + " from rank " + std::to_string(first->sender) + " to rank "
        + std::to_string(first->receiver) + " has no matching "
        + (first->recvMissing ? "recv" : "send");
    f.evidence.push_back(entryEvidence(b, first->entry));
    f.codeLocation = codeLocation(b, first->entry);
    f.explanation = ctx.rankLabel(waiting) + " posted " + describeFrEntry(b, first->entry) + " on "
        + pgText(b, *firstPg) + ", but " + ctx.rankLabel(silent) + " never posted the matching "
        + (first->recvMissing ? "recv" : "send")
        + " (counted by peer pair in order, from where both ring buffers reach). A point-to-point "
          "op blocks until its"
          " partner arrives, so this pair deadlocked: "
        + ctx.rankLabel(silent)
        + " took a different path through the pipeline schedule or is stuck before it."
        + (pairs.size() > 1 ? " Unmatched pairs (sender -> receiver): " +
                    [&] {
                        std::string s;
                        for (const auto& p : pairs)
                            s += (s.empty() ? "" : ", ") + p;
                        return s;
                    }()
                    + "."
                            : std::string());
    Proposal& p = out.propose(RootCauseClass::CollectiveMismatch, { silent }, 0.7, "fr.p2p_unmatched",
        "Rank " + std::to_string(waiting) + " waits on a "
            + (first->recvMissing ? "send to" : "recv from") + " rank " + std::to_string(silent)
            + " that never posted its side (Flight Recorder p2p).");
    p.pair = std::make_pair(first->sender, first->receiver);
    if (const FrPgMatch* s = firstStuck(ctx))
        p.stuckCollective = stuckOf(b, *s);
}

} // namespace rankscope::model
