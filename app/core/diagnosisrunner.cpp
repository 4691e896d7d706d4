#include "app/core/diagnosisrunner.h"

#include "model/diagnosis/engine.h"
#include "parsers/knowledgeloader.h"
#include "resources/embeddedresources.h"

namespace rankscope::app {

model::Result<model::Knowledge> builtInKnowledge()
{
    return parsers::loadKnowledge(resources::knowledgeJson());
}

model::Result<model::Diagnosis> diagnoseBundle(const model::Bundle& bundle, unsigned threads)
{
    auto knowledge = builtInKnowledge();
    if (!knowledge)
        return knowledge.error();
    return model::diagnose(bundle, knowledge.value(), threads);
}

} // namespace rankscope::app
