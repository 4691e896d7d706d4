#include "app/gui/anonymizeddocument.h"

#include "app/core/anonymizer.h"

#include <string>

namespace rankscope::app {

namespace {

// Everything but the string pool, which cannot be copied (its views point into its own
// chunks). Keep in step with model/bundle.h: a member missing here is empty in the figures
// (tests/app/test_gui_export.cpp counts the members and fails when one is added).
void copyBundleExceptStrings(const model::Bundle& from, model::Bundle& to)
{
    to.sources = from.sources;
    to.identities = from.identities;
    to.identityRank = from.identityRank;
    to.events = from.events;
    to.commInits = from.commInits;
    to.bootstrapAddresses = from.bootstrapAddresses;
    to.commLinks = from.commLinks;
    to.collTraces = from.collTraces;
    to.envSettings = from.envSettings;
    to.launcherFailures = from.launcherFailures;
    to.workerGroups = from.workerGroups;
    to.tracebacks = from.tracebacks;
    to.stackDumps = from.stackDumps;
    to.desyncReports = from.desyncReports;
    to.pgOptions = from.pgOptions;
    to.gpuUtil = from.gpuUtil;
    to.frDumps = from.frDumps;
    to.frEntries = from.frEntries;
    to.frCalls = from.frCalls;
    to.frStacks = from.frStacks;
    to.issues = from.issues;
    to.world = from.world;
    to.ranks = from.ranks;
    to.processGroups = from.processGroups;
    to.processGroupsByKey = from.processGroupsByKey;
    to.progress = from.progress;
    to.progressByPgRank = from.progressByPgRank;
    to.progressByRank = from.progressByRank;
    to.referenceYear = from.referenceYear;
    to.yearKnown = from.yearKnown;
    to.localRanksAreGlobal = from.localRanksAreGlobal;
}

} // namespace

views::DocumentPtr anonymizedDocument(const views::DocumentPtr& document)
{
    if (!document || !document->bundle)
        return document;
    const model::Bundle& original = *document->bundle;
    const Anonymizer anonymizer(original);

    auto bundle = std::make_shared<model::Bundle>();
    copyBundleExceptStrings(original, *bundle);
    // Re-intern in id order so that id i of the copy is the pseudonymised string i. Two
    // originals can share a pseudonym (a host's short and fully qualified name), and the
    // pool would then hand back the earlier id; a trailing space keeps them apart without
    // changing what is drawn.
    for (model::StrId id = 1; id < original.strings.size(); ++id) {
        std::string text = anonymizer.apply(original.strings.view(id));
        if (text.empty())
            text = " ";
        while (bundle->strings.find(text) != model::kNoStr)
            text += ' ';
        bundle->strings.intern(text);
    }

    auto copy = std::make_shared<views::BundleDocument>(*document);
    copy->bundle = std::move(bundle);
    // The log viewer's source access re-reads the original files; figures never use it.
    copy->sources.reset();
    return copy;
}

} // namespace rankscope::app
