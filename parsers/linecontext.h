#pragma once
// What a dialect parser gets for each line besides its text: where the line is, what
// the stripped prefixes said about the writer, and the line's timestamp if it had one.

#include "model/evidence.h"
#include "model/parsedsource.h"
#include "model/timepoint.h"
#include "parsers/lineprefix.h"

#include <cstdint>
#include <string_view>

namespace rankscope::parsers {

struct LineContext {
    model::SourceId source = model::kNoSource;
    std::uint64_t lineNo = 0;
    std::uint64_t lineBefore = 0; // the line read before this one: lineNo - 1 unless a doubled paste's copy was skipped
    std::uint64_t offset = 0;
    LinePrefix prefix;
    std::uint32_t identity = 0;   // prefix-only identity index in ParsedSource::identities
    model::TimePoint time;        // this line's own leading timestamp, if any
    model::TimePoint streamTime;  // latest timestamp seen earlier in the same stream
    std::string_view line;        // the whole segment, prefixes included
    bool lineStart = true;        // the segment begins its physical line (no '\r' piece)

    model::EvidenceRef evidence() const { return { source, lineNo, offset }; }
    // The line's own time, else the stream's latest time marked as inferred.
    model::TimePoint bestTime() const
    {
        if (time.valid())
            return time;
        model::TimePoint t = streamTime;
        t.inferred = t.valid();
        return t;
    }
};

// Longest message body kept per event; the full line stays reachable via the evidence.
inline constexpr std::size_t kMaxEventText = 2048;

// Appends an event stamped with the line's evidence, identity and best time.
inline model::Event& addEvent(model::ParsedSource& out, const LineContext& ctx,
    model::EventKind kind, model::Severity severity, std::string_view text)
{
    model::Event& e = out.events.emplace_back();
    e.kind = kind;
    e.severity = severity;
    e.evidence = ctx.evidence();
    e.identity = ctx.identity;
    e.time = ctx.bestTime();
    e.text = out.intern(text.substr(0, kMaxEventText));
    return e;
}

// The identity of the line's writer refined with what the message itself says (the NCCL
// header "host:pid:tid" names the process even in a combined file).
inline std::uint32_t identityWithProcess(model::ParsedSource& out, const LineContext& ctx,
    std::string_view host, std::int32_t pid)
{
    model::RawIdentity id = out.identities[ctx.identity];
    if (!host.empty())
        id.host = out.intern(host);
    if (pid >= 0)
        id.pid = pid;
    return out.identityIndex(id);
}

} // namespace rankscope::parsers
