#pragma once
// Everything one source yields, before sources are merged into a Bundle. Parsers fill it
// from one thread each; it owns its own string pool so no locking is needed, and the
// bundle builder remaps ids when merging. It is where strings enter the model: the source's
// display path, interned strings and import-issue samples are masked on their way in
// (SecretMasker), so no view or export can see a raw secret.

#include "model/event.h"
#include "model/identity.h"
#include "model/identityindex.h"
#include "model/importissues.h"
#include "model/records.h"
#include "model/source.h"
#include "model/stringpool.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::model {

struct ParsedSource {
    Source source;
    StringPool strings;
    std::vector<RawIdentity> identities;
    std::vector<Event> events;
    std::vector<CommInit> commInits;
    std::vector<BootstrapAddress> bootstrapAddresses;
    std::vector<CommLink> commLinks;
    std::vector<CollTrace> collTraces;
    std::vector<EnvSetting> envSettings;
    std::vector<LauncherFailure> launcherFailures;
    std::vector<WorkerGroupLayout> workerGroups;
    std::vector<PythonTraceback> tracebacks;
    std::vector<StackDump> stackDumps;
    std::vector<DesyncReport> desyncReports;
    std::vector<ProcessGroupOptions> pgOptions;
    std::vector<GpuUtilSummary> gpuUtil;
    std::vector<FrDump> frDumps;
    std::vector<FrEntry> frEntries; // FrEntry::dump indexes frDumps
    std::vector<FrCall> frCalls;    // FrEntry::call, de-duplicated per source
    FrStacks frStacks;              // FrEntry::stack, de-duplicated per source
    ImportIssues issues;

    ParsedSource();
    explicit ParsedSource(Source src);

    // Every string a parser keeps enters the model here, so it is masked here (issue 21):
    // dump fields, error.json messages, thread and process-group names never hold a raw
    // secret, whatever parser read them. Log lines arrive masked already (LogScanner); the
    // masker's prefilter passes them by.
    StrId intern(std::string_view text);
    std::string_view text(StrId id) const { return strings.view(id); }

    // Index of this identity in `identities`, adding it on first use. Index 0 is the
    // source itself with nothing known from line prefixes.
    std::uint32_t identityIndex(const RawIdentity& identity);

    // "path:line: text" for an import-issue sample.
    std::string sampleAt(std::uint64_t line, std::string_view text) const;

private:
    IdentityIndex m_identityIndex;
};

} // namespace rankscope::model
