#pragma once
// Test helpers: scan a text as one source and look up what came out.

#include "model/parsedsource.h"
#include "parsers/logscanner.h"
#include "parsers/sourcebuilder.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::testing {

inline model::ParsedSource scan(std::string_view text, std::string path = "rank0.log")
{
    model::Source src;
    src.id = 0;
    src.path = std::move(path);
    model::ParsedSource out(std::move(src));
    parsers::scanText(text, out);
    return out;
}

// `text` read as a whole file is: sniffed, its paste wrapper found on its head, scanned.
inline model::ParsedSource built(std::string_view text, std::string path = "paste.log")
{
    model::Source meta;
    meta.id = 1;
    meta.path = std::move(path);
    parsers::LoadLimits limits;
    parsers::SourceBuilder builder(meta, limits);
    builder.feed(text);
    return builder.finish();
}

inline std::vector<const model::Event*> eventsOf(const model::ParsedSource& p, model::EventKind kind)
{
    std::vector<const model::Event*> found;
    for (const auto& e : p.events)
        if (e.kind == kind)
            found.push_back(&e);
    return found;
}

inline const model::Event* firstOf(const model::ParsedSource& p, model::EventKind kind)
{
    for (const auto& e : p.events)
        if (e.kind == kind)
            return &e;
    return nullptr;
}

inline std::string str(const model::ParsedSource& p, model::StrId id)
{
    return std::string(p.text(id));
}

// The identity the event was attributed to.
inline const model::RawIdentity& identityOf(const model::ParsedSource& p, const model::Event& e)
{
    return p.identities[e.identity];
}

} // namespace rankscope::testing
