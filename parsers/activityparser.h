#pragma once
// What a rank says it is doing between collectives ([formats 11] F): a straggler's last
// words are usually its script announcing a long step — saving a checkpoint, fetching a
// data shard, waiting on a lock, evaluating — and Megatron-style iteration lines give the
// step each rank reached.
//   "[rank 0] Saving checkpoint to /ckpt/run/step_000939 ..."   → TrainingProgress, code = CheckpointIo
//   "[rank 53] fetching next shard train-01340-of-01024.arrow" → TrainingProgress, code = DataLoading
//   "waiting for lock /mnt/shared/.lock …, retrying in 30s"    → TrainingProgress, code = Sleeping
//   " iteration      940/   10000 | consumed samples: …"       → TrainingProgress, seq = 940
//   tqdm bars: see parseProgressBar
// Event::code holds a model::StackActivity value (Unknown for plain progress); Event::peerRank
// a rank the line names about itself ("[rank 53] fetching …"), -1 otherwise.

#include "model/parsedsource.h"
#include "parsers/keywordset.h"
#include "parsers/linecontext.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope::parsers {

class ActivityParser {
public:
    ActivityParser();

    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A tqdm progress bar anywhere in the line (other output is often glued after it):
    //   "Running tokenizer on dataset:  47%|████▊   | 3169000/6811963 [30:11<38:27, 1578.58 examples/s]"
    //   → TrainingProgress, code = activity read from the description, durationMs = the bar's
    //     elapsed time, peerRank = a rank the description names ("… on rank=0:"), -1 otherwise.
    // Offered every line that is not NCCL output, whether or not another parser took it.
    // Returns where the bar ends in `body` (0 without a bar): what is glued after it is
    // another message.
    std::size_t parseProgressBar(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return false; }
    // Gives each writer's last bar its final text.
    void finish(model::ParsedSource& out);

private:
    // A bar being redrawn: tqdm rewrites the same line (\r) several times a second, and a
    // 4096-rank bundle holds millions of redraws. The rules read a bar's latest state (what
    // the writer was last doing, for how long), so one redraw run of one writer is one event,
    // updated in place; its text is interned once, when the run ends.
    struct BarRun {
        std::size_t event = 0; // index in out.events
        std::string description; // before the percentage: what the bar counts
        std::string text; // the latest redraw, interned when the run ends
        std::int64_t elapsedMs = -1;
        bool open = false;
    };
    void closeBar(BarRun& run, model::ParsedSource& out);
    void closeBarOf(std::uint32_t identity, model::ParsedSource& out);

    const KeywordSet& m_keywords; // shared, immutable
    std::unordered_map<std::uint32_t, BarRun> m_bars; // by writer identity
};

} // namespace rankscope::parsers
