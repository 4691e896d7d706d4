// Misleading signals, judged against the verdict ([formats 5.2], [formats 1.4] j):
// torchrun's "Root Cause (first observed failure)" is only the earliest failure on that
// node (for signal deaths, the agent's poll time), and the rank a dump signal comes from
// is the first rank whose watchdog fired — a healthy waiter.

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

#include <algorithm>
#include <set>

namespace rankscope::model {

void ruleLauncherRootCause(const RuleContext& ctx, const std::vector<std::int32_t>& initiating, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::set<std::int32_t> reported;
    for (std::uint32_t i : ctx.facts.launcherRootCauses) {
        const LauncherFailure& lf = b.launcherFailures[i];
        if (lf.globalRank < 0 || !reported.insert(lf.globalRank).second)
            continue;
        const bool agrees = std::find(initiating.begin(), initiating.end(), lf.globalRank) != initiating.end();
        Placeholders values = ctx.placeholdersFor(lf.globalRank);
        Finding& f = out.add(ctx, agrees ? "launcher.root_cause_agrees" : "launcher.root_cause_collateral", std::nullopt, values);
        f.ranks = { lf.globalRank };
        f.evidence.push_back(evidenceOf(b, lf.evidence, "Root Cause (first observed failure): rank " + std::to_string(lf.globalRank)
                + " (local_rank " + std::to_string(lf.localRank) + "), exitcode " + std::to_string(lf.exitCode) + " on "
                + std::string(b.text(lf.host))));
        if (agrees) {
            if (f.title.empty())
                f.title = "torchrun's reported root cause agrees: rank " + std::to_string(lf.globalRank);
            f.confidence = 0.5;
            f.explanation = "torchrun on " + std::string(b.text(lf.host)) + " reports rank " + std::to_string(lf.globalRank)
                + " as \"Root Cause (first observed failure)\", which matches the diagnosis.";
            continue;
        }
        if (f.title.empty())
            f.title = "torchrun's \"Root Cause\" names rank " + std::to_string(lf.globalRank) + ", a collateral rank";
        f.confidence = initiating.empty() ? 0.4 : 0.8;
        f.explanation = "torchrun on " + std::string(b.text(lf.host)) + " reports rank " + std::to_string(lf.globalRank)
            + " (exit code " + std::to_string(lf.exitCode) + ") as \"Root Cause (first observed failure)\". torchrun only"
              " compares the workers of its own node, and for signal deaths it records its own polling time, so on a"
              " node without the faulty rank it names whichever victim it noticed first."
            + (initiating.empty() ? std::string(" It is not evidence of a cause by itself.")
                                  : " The evidence points at " + formatRanks(initiating) + " instead; rank "
                      + std::to_string(lf.globalRank) + " only " + (lf.exitCode == -6 ? "aborted after its watchdog timed out." : "went down with the job."));
    }
    // "Received a dump signal ... from rank F": F is the first rank to time out.
    std::set<std::int32_t> sources;
    std::uint32_t sample = kNoIndex;
    for (std::uint32_t i : ctx.facts.dumpSignals) {
        if (sources.insert(b.events[i].peerRank).second && sample == kNoIndex)
            sample = i;
    }
    for (std::int32_t src : sources) {
        if (std::find(initiating.begin(), initiating.end(), src) != initiating.end())
            continue;
        Placeholders values = ctx.placeholdersFor(src);
        Finding& f = out.add(ctx, "launcher.dump_signal_source", std::nullopt, values);
        f.ranks = { src };
        if (f.title.empty())
            f.title = "Dump signals come from rank " + std::to_string(src) + ", the first rank to time out";
        f.evidence.push_back(evidenceOf(b, sample));
        f.confidence = 0.7;
        f.explanation = "Ranks log \"Received a dump signal ... from rank " + std::to_string(src)
            + "\". That rank is the first whose watchdog fired and asked everyone to dump debug info: a healthy rank"
              " waiting for the stuck one, not the cause.";
        break;
    }
}

} // namespace rankscope::model
