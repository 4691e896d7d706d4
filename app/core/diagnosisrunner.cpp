#include "app/core/diagnosisrunner.h"

#include "model/diagnosis/engine.h"
#include "parsers/knowledgeloader.h"
#include "resources/embeddedresources.h"

#include <new>

namespace rankscope::app {

model::Result<model::Knowledge> builtInKnowledge()
{
    return parsers::loadKnowledge(resources::knowledgeJson());
}

model::Result<model::Diagnosis> diagnoseBundle(const model::Bundle& bundle, unsigned threads)
{
    // Out of memory is an error value here, like a broken knowledge base: no exception leaves
    // the diagnosis (the desktop app runs it on a worker thread).
    try {
        auto knowledge = builtInKnowledge();
        if (!knowledge)
            return knowledge.error();
        return model::diagnose(bundle, knowledge.value(), threads);
    } catch (const std::bad_alloc&) {
        return model::Error { "out of memory while diagnosing the bundle" };
    }
}

} // namespace rankscope::app
