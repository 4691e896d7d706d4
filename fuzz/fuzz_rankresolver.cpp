// The rank resolver fed by parsed claims: a few files (names and lines that claim ranks,
// world sizes, hosts; see fuzzinput.h) are parsed, merged into a bundle (which resolves
// ranks and builds per-rank tables) and diagnosed. Claims must never size a table past
// what the bundle shows: the fuzzer runs with -rss_limit_mb.

#include "fuzzinput.h"
#include "model/bundlebuilder.h"
#include "model/diagnosis/engine.h"
#include "model/diagnosis/knowledge.h"
#include "parsers/sourcebuilder.h"

using namespace rankscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    parsers::LoadLimits limits;
    limits.maxJsonBytes = 1 << 20;
    model::BundleBuilder builder;
    for (const auto& file : fuzz::splitFiles(fuzz::bytesOf(data, size), 8)) {
        model::Source meta;
        meta.id = 0;
        meta.path = file.name;
        meta.containerPath = file.name;
        parsers::SourceBuilder source(meta, limits, false);
        builder.add(source.finishWhole(file.content));
    }
    const model::Bundle bundle = std::move(builder).finish({});
    const model::Knowledge knowledge;
    const model::Diagnosis diagnosis = model::diagnose(bundle, knowledge, 1);
    (void)diagnosis;
    return 0;
}
