#pragma once
// `rankscope-cli explain`: "what does this line mean?" answered from the built-in error
// catalogue, as text for a terminal or as a rankscope.explain/1 JSON object. The desktop
// app's NCCL Error Hub reads the same catalogue through builtInErrorCatalogue().

#include "parsers/errorcatalogue.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace rankscope::app {

// Loaded once from resources/catalogue/errors.json; null only if that file is broken, which
// a test rules out.
const parsers::ErrorCatalogue* builtInErrorCatalogue();

enum class ExplainedBy {
    Pattern, // the text is (or holds) a line the catalogue recognises
    Id,      // the text is an entry's id
    Words,   // the text is a few words found in entries' titles and explanations
    Nothing,
};

struct Explanation {
    ExplainedBy by = ExplainedBy::Nothing;
    std::vector<const parsers::CatalogueEntry*> entries;
};

// Each line of `text` is matched; the entries of all lines are kept once, in the order they
// were first matched. With no match, an id, then words.
Explanation explain(const parsers::ErrorCatalogue& catalogue, std::string_view text);

std::string explanationText(const Explanation& explanation);
nlohmann::json explanationJson(const Explanation& explanation);

// One line per entry: id and title, by family.
std::string catalogueListText(const parsers::ErrorCatalogue& catalogue);

} // namespace rankscope::app
