#pragma once
// What a rank says it is doing between collectives (log-formats §11 F): a straggler's last
// words are usually its script announcing a long step — saving a checkpoint, fetching a
// data shard, waiting on a lock, evaluating — and Megatron-style iteration lines give the
// step each rank reached.
//   "[rank 0] Saving checkpoint to /ckpt/run/step_000939 ..."   → TrainingProgress, code = CheckpointIo
//   "[rank 53] fetching next shard train-01340-of-01024.arrow" → TrainingProgress, code = DataLoading
//   "waiting for lock /mnt/shared/.lock …, retrying in 30s"    → TrainingProgress, code = Sleeping
//   " iteration      940/   10000 | consumed samples: …"       → TrainingProgress, seq = 940
// Event::code holds a model::StackActivity value (Unknown for plain progress).

#include "model/parsedsource.h"
#include "parsers/keywordset.h"
#include "parsers/linecontext.h"

#include <string_view>

namespace rankscope::parsers {

class ActivityParser {
public:
    ActivityParser();

    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return false; }
    void finish(model::ParsedSource&) { }

private:
    const KeywordSet& m_keywords; // shared, immutable
};

} // namespace rankscope::parsers
