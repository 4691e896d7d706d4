#include "model/frdumptext.h"

#include <algorithm>
#include <filesystem>

namespace rankscope::model {

namespace {

const FrCall* callOf(const Bundle& b, const FrEntry& e)
{
    return e.call < b.frCalls.size() ? &b.frCalls[e.call] : nullptr;
}

std::string_view stateText(FrState s)
{
    switch (s) {
    case FrState::Completed:
        return "completed";
    case FrState::Started:
        return "started";
    case FrState::Scheduled:
        return "scheduled";
    case FrState::Unknown:
        break;
    }
    return "state unknown";
}

void appendTime(std::string& out, std::string_view label, const TimePoint& t)
{
    if (t.domain == TimeDomain::None)
        return;
    out += "  ";
    out += label;
    out += ' ';
    out += formatTime(t);
}

} // namespace

std::string describeFrEntry(const Bundle& b, std::uint32_t entry)
{
    if (entry >= b.frEntries.size())
        return "an entry";
    const FrEntry& e = b.frEntries[entry];
    const FrCall* c = callOf(b, e);
    if (!c)
        return "an entry";
    std::string out(b.text(c->profilingName));
    if (!c->isP2p && e.collectiveSeq >= 0)
        out += " #" + std::to_string(e.collectiveSeq);
    if (c->inputSizes != kNoStr)
        out += ", input " + std::string(b.text(c->inputSizes));
    if (c->inputDtypes != kNoStr)
        out += " " + std::string(b.text(c->inputDtypes));
    if (c->outputSizes != kNoStr && c->outputSizes != c->inputSizes)
        out += ", output " + std::string(b.text(c->outputSizes));
    out += ", ";
    out += stateText(e.state());
    return out;
}

std::uint64_t frEntryLine(const Bundle& b, std::uint32_t entry)
{
    if (entry >= b.frEntries.size())
        return 0;
    const FrEntry& e = b.frEntries[entry];
    const std::uint32_t dump = frDumpOf(b.frCalls, e);
    if (dump >= b.frDumps.size() || entry < b.frDumps[dump].firstEntry)
        return 0;
    return kFrFirstEntryLine + (entry - b.frDumps[dump].firstEntry);
}

const FrDump* frDumpOfSource(const Bundle& b, SourceId source)
{
    for (const FrDump& d : b.frDumps)
        if (d.evidence.source == source)
            return &d;
    return nullptr;
}

std::string frDumpText(const Bundle& b, const FrDump& dump)
{
    std::string out = "# Flight Recorder dump";
    if (const Source* s = b.source(dump.evidence.source))
        out += " " + std::filesystem::path(s->path).filename().string();
    if (dump.version != kNoStr)
        out += ", format " + std::string(b.text(dump.version));
    if (dump.globalRank >= 0)
        out += ", rank " + std::to_string(dump.globalRank);
    out += ", " + std::to_string(dump.entryCount) + " entries";
    if (dump.truncated)
        out += " (the dump ends early; entries read so far)";
    out += " - decoded by Rankscope, one entry per line\n";

    out += "# process groups:";
    for (const FrPgConfig& pg : dump.pgConfig) {
        out += " ";
        out += b.text(pg.name);
        if (pg.desc != kNoStr)
            out += "(" + std::string(b.text(pg.desc)) + ")";
    }
    for (const FrPgStatus& st : dump.pgStatus)
        out += "; pg " + std::string(b.text(st.pg)) + " last enqueued " + std::to_string(st.lastEnqueued)
            + " started " + std::to_string(st.lastStarted) + " completed "
            + std::to_string(st.lastCompleted);
    out += '\n';

    const std::uint64_t end = std::min<std::uint64_t>(
        static_cast<std::uint64_t>(dump.firstEntry) + dump.entryCount, b.frEntries.size());
    for (std::uint64_t i = dump.firstEntry; i < end; ++i) {
        const auto index = static_cast<std::uint32_t>(i);
        const FrEntry& e = b.frEntries[index];
        out += "record_id " + std::to_string(e.recordId);
        if (const FrCall* c = callOf(b, e); c && c->pg != kNoStr)
            out += "  pg " + std::string(b.text(c->pg));
        out += "  " + describeFrEntry(b, index);
        appendTime(out, "created", e.created());
        appendTime(out, "started", e.discoveredStarted());
        appendTime(out, "completed", e.discoveredCompleted());
        // The innermost frame outside torch itself: where the training code made the call.
        const auto [first, last] = b.frStacks.of(frStackOf(b.frCalls, e));
        const StackFrame* shown = first;
        for (const StackFrame* f = first; f != last; ++f)
            if (b.text(f->file).find("torch/") == std::string_view::npos) {
                shown = f;
                break;
            }
        if (shown != last) {
            out += "  at ";
            out += b.text(shown->file);
            if (shown->line >= 0)
                out += ":" + std::to_string(shown->line);
            if (shown->function != kNoStr)
                out += " in " + std::string(b.text(shown->function));
        }
        out += '\n';
    }
    return out;
}

} // namespace rankscope::model
