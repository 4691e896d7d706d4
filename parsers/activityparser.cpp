#include "parsers/activityparser.h"

#include "parsers/textscan.h"

#include <array>

namespace rankscope::parsers {

using model::StackActivity;

namespace {

struct Phrase {
    std::string_view text;
    StackActivity activity;
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

bool ActivityParser::parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    const std::uint64_t found = m_keywords.find(body);
    if (!found)
        return false;
    StackActivity activity = StackActivity::Unknown;
    bool iteration = false;
    for (unsigned k = 0; k < kPhrases.size(); ++k) {
        if (!(found & (std::uint64_t { 1 } << k)))
            continue;
        if (kPhrases[k].text == " iteration ")
            iteration = true;
        else if (activity == StackActivity::Unknown)
            activity = kPhrases[k].activity;
    }
    std::int64_t step = -1;
    if (iteration) {
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
    model::Event& e = addEvent(out, ctx, model::EventKind::TrainingProgress, model::Severity::Info, trim(body));
    e.code = static_cast<std::int32_t>(activity);
    e.seq = step;
    return true;
}

} // namespace rankscope::parsers
