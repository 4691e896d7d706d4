#include "parsers/activityparser.h"

#include "parsers/textscan.h"

#include <array>
#include <string>

namespace rankscope::parsers {

using model::StackActivity;

namespace {

struct Phrase {
    std::string_view text;
    StackActivity activity;
    bool stepNotice = false; // printed once per training step: progress; a number after "step " is the step
};

// Phrases training scripts and frameworks print before a long non-collective step.
constexpr std::array kPhrases = {
    Phrase { "Saving checkpoint", StackActivity::CheckpointIo },
    Phrase { "saving checkpoint", StackActivity::CheckpointIo },
    Phrase { "Saving model checkpoint", StackActivity::CheckpointIo },
    Phrase { "Writing checkpoint", StackActivity::CheckpointIo },
    Phrase { "writing checkpoint", StackActivity::CheckpointIo },
    Phrase { "save_checkpoint", StackActivity::CheckpointIo },
    Phrase { "Loading checkpoint", StackActivity::CheckpointIo },
    Phrase { "fetching next shard", StackActivity::DataLoading },
    Phrase { "Fetching next shard", StackActivity::DataLoading },
    Phrase { "Loading dataset", StackActivity::DataLoading },
    Phrase { "loading dataset", StackActivity::DataLoading },
    Phrase { "building dataset index", StackActivity::DataLoading },
    Phrase { "Building dataset index", StackActivity::DataLoading },
    Phrase { "Downloading shard", StackActivity::DataLoading },
    Phrase { "waiting for lock", StackActivity::Sleeping },
    Phrase { "Waiting for lock", StackActivity::Sleeping },
    Phrase { "retrying in ", StackActivity::Sleeping },
    Phrase { "Running evaluation", StackActivity::Other },
    Phrase { "running evaluation", StackActivity::Other },
    Phrase { " iteration ", StackActivity::Unknown },
    // DeepSpeed ZeRO-3 notices printed once per training step while the job runs
    // (partitioned_param_coordinator.py, stage3.py): progress, however alarming they read.
    Phrase { "Invalidate trace cache @ step ", StackActivity::Unknown, true },
    Phrase { " pytorch allocator cache flushes since last step", StackActivity::Unknown, true },
};

std::vector<std::string_view> phraseTexts()
{
    std::vector<std::string_view> out;
    for (const auto& p : kPhrases)
        out.push_back(p.text);
    return out;
}

} // namespace

const KeywordSet& activityKeywords()
{
    static const KeywordSet set(phraseTexts());
    return set;
}

ActivityParser::ActivityParser()
    : m_keywords(activityKeywords())
{
}

namespace {

// What a bar's description says the process is busy with. Scripts name their long
// non-collective steps in words like these (datasets.map's "Running tokenizer on dataset",
// "Map (num_proc=8)", Lightning's "Validation DataLoader 0", "Saving checkpoint shards").
struct DescriptionWord {
    std::string_view word; // lower case
    StackActivity activity;
};
constexpr std::array kDescriptionWords = {
    DescriptionWord { "tokeniz", StackActivity::DataLoading },
    DescriptionWord { "map", StackActivity::DataLoading },
    DescriptionWord { "preprocess", StackActivity::DataLoading },
    DescriptionWord { "preparing", StackActivity::DataLoading },
    DescriptionWord { "dataset", StackActivity::DataLoading },
    DescriptionWord { "download", StackActivity::DataLoading },
    DescriptionWord { "filter", StackActivity::DataLoading },
    DescriptionWord { "shard", StackActivity::DataLoading },
    DescriptionWord { "sav", StackActivity::CheckpointIo },
    DescriptionWord { "checkpoint", StackActivity::CheckpointIo },
    DescriptionWord { "predict", StackActivity::Other },
    DescriptionWord { "eval", StackActivity::Other },
    DescriptionWord { "valid", StackActivity::Other },
    DescriptionWord { "test", StackActivity::Other },
    DescriptionWord { "infer", StackActivity::Other },
    DescriptionWord { "generat", StackActivity::Other },
};

std::string lowerCase(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// "rank=0", "rank 0", "rank: 0", "Rank 0" in a bar's description.
std::int32_t rankNamedIn(const std::string& lower)
{
    for (std::size_t at = lower.find("rank"); at != std::string::npos; at = lower.find("rank", at + 4)) {
        std::size_t i = at + 4;
        while (i < lower.size() && (lower[i] == ' ' || lower[i] == '=' || lower[i] == ':'))
            ++i;
        const std::size_t start = i;
        std::int64_t v = 0;
        while (i < lower.size() && isDigit(lower[i]) && i - start < 7)
            v = v * 10 + (lower[i++] - '0');
        if (i > start && (i == lower.size() || !isDigit(lower[i])))
            return static_cast<std::int32_t>(v);
    }
    return -1;
}

// "29:58" or "4:48:08" right before '<' (or ']' when the bar is done): milliseconds.
std::int64_t elapsedBefore(std::string_view s, std::size_t end)
{
    std::size_t start = end;
    while (start > 0 && (isDigit(s[start - 1]) || s[start - 1] == ':'))
        --start;
    // "hhh:mm:ss" at most: a longer run is not a time (and would overflow).
    if (end - start > 12)
        return -1;
    std::int64_t total = 0, field = 0;
    int colons = 0;
    for (std::size_t i = start; i < end; ++i) {
        if (s[i] == ':') {
            total = total * 60 + field;
            field = 0;
            ++colons;
        } else {
            field = field * 10 + (s[i] - '0');
        }
    }
    if (colons < 1 || colons > 2)
        return -1;
    return (total * 60 + field) * 1000;
}

} // namespace

bool ActivityParser::parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::uint64_t found = m_keywords.find(body);
    if (!found)
        return false;
    StackActivity activity = StackActivity::Unknown;
    bool iteration = false;
    bool stepNotice = false;
    std::int64_t step = -1;
    for (unsigned k = 0; k < kPhrases.size(); ++k) {
        if (!(found & (std::uint64_t { 1 } << k)))
            continue;
        const std::string_view phrase = kPhrases[k].text;
        if (phrase == " iteration ") {
            iteration = true;
        } else if (kPhrases[k].stepNotice) {
            stepNotice = true;
            std::size_t i = findLiteral(body, phrase) + phrase.size();
            if (phrase.ends_with("step "))
                if (auto v = readUnsigned(body, i))
                    step = static_cast<std::int64_t>(*v);
        } else if (activity == StackActivity::Unknown) {
            activity = kPhrases[k].activity;
        }
    }
    if (iteration && !stepNotice) {
        // Megatron: " iteration      940/   10000 |"
        std::size_t pos = findLiteral(body, " iteration ");
        std::size_t i = pos + 11;
        while (i < body.size() && body[i] == ' ')
            ++i;
        if (auto v = readUnsigned(body, i); v && i < body.size() && body[i] == '/')
            step = static_cast<std::int64_t>(*v);
        else if (activity == StackActivity::Unknown)
            return false;
    }
    closeBarOf(ctx.identity, out); // this line is the writer's latest, after its bar
    model::Event& e = addEvent(out, ctx, model::EventKind::TrainingProgress, model::Severity::Info, trim(body));
    e.code = static_cast<std::int32_t>(activity);
    e.seq = step;
    e.peerRank = rankNamedIn(lowerCase(body.substr(0, 64)));
    return true;
}


std::size_t ActivityParser::parseProgressBar(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::size_t bar = body.find("%|");
    if (bar == std::string_view::npos || bar == 0)
        return 0;
    // The percentage, then the description before it.
    std::size_t pct = bar;
    while (pct > 0 && isDigit(body[pct - 1]))
        --pct;
    if (pct == bar)
        return 0;
    const std::size_t barEnd = body.find('|', bar + 2);
    if (barEnd == std::string_view::npos)
        return 0;
    const std::size_t open = body.find('[', barEnd);
    if (open == std::string_view::npos || open > barEnd + 40)
        return 0;
    std::size_t lt = open + 1;
    while (lt < body.size() && (isDigit(body[lt]) || body[lt] == ':'))
        ++lt;
    if (lt >= body.size() || (body[lt] != '<' && body[lt] != ',' && body[lt] != ']'))
        return 0;
    const std::int64_t elapsed = elapsedBefore(body, lt);
    if (elapsed < 0)
        return 0;
    std::string_view description = trim(body.substr(0, pct));
    while (!description.empty() && (description.back() == ':' || description.back() == ' '))
        description.remove_suffix(1);
    const std::size_t close = body.find(']', lt);
    const std::string_view text = body.substr(0, close == std::string_view::npos ? lt : close + 1);
    BarRun& run = m_bars[ctx.identity];
    // The same bar of the same writer moving on: the run's event takes this redraw's state. A
    // bar whose elapsed time goes back started again (the next epoch, the next file).
    if (run.open && elapsed >= run.elapsedMs && run.description == description) {
        model::Event& e = out.events[run.event];
        e.evidence = ctx.evidence();
        e.time = ctx.bestTime();
        e.durationMs = elapsed;
        run.text.assign(trim(text).substr(0, kMaxEventText));
        run.elapsedMs = elapsed;
        return text.size();
    }
    closeBar(run, out);
    const std::string lower = lowerCase(description);
    StackActivity activity = StackActivity::Unknown;
    for (const auto& w : kDescriptionWords)
        if (lower.find(w.word) != std::string::npos) {
            activity = w.activity;
            break;
        }
    const std::size_t index = out.events.size();
    model::Event& e = addEvent(out, ctx, model::EventKind::TrainingProgress, model::Severity::Info, trim(text));
    e.code = static_cast<std::int32_t>(activity);
    e.durationMs = elapsed;
    e.peerRank = rankNamedIn(lower);
    run.event = index;
    run.description.assign(description);
    run.text.clear();
    run.elapsedMs = elapsed;
    run.open = true;
    return text.size();
}

void ActivityParser::closeBar(BarRun& run, model::ParsedSource& out)
{
    if (run.open && !run.text.empty())
        out.events[run.event].text = out.intern(run.text);
    run.open = false;
    run.text.clear();
}

void ActivityParser::closeBarOf(std::uint32_t identity, model::ParsedSource& out)
{
    if (m_bars.empty())
        return;
    if (const auto it = m_bars.find(identity); it != m_bars.end())
        closeBar(it->second, out);
}

void ActivityParser::finish(model::ParsedSource& out)
{
    for (auto& [identity, run] : m_bars)
        closeBar(run, out);
    m_bars.clear();
}

} // namespace rankscope::parsers
