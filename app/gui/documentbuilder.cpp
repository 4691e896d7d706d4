#include "app/gui/documentbuilder.h"

#include "app/core/bundlesourceaccess.h"
#include "app/core/diagnosisrunner.h"

namespace rankscope::app {

model::Result<views::DocumentPtr> buildDocument(const LoadRequest& request, LoadProgress* progress,
    const std::atomic<bool>* cancel, const DocumentStages& stages)
{
    auto loaded = loadBundle(request, progress, cancel);
    if (!loaded)
        return loaded.error();
    auto doc = std::make_shared<views::BundleDocument>();
    doc->inputPaths = request.paths;
    doc->bundle = loaded.value();
    doc->sources = std::make_shared<BundleSourceAccess>(doc->bundle, request.limits);
    if (stages.onBundleLoaded)
        stages.onBundleLoaded(std::make_shared<const views::BundleDocument>(*doc));
    if (cancel && cancel->load())
        return model::Error { "loading cancelled" };
    auto diagnosis = diagnoseBundle(*doc->bundle);
    if (!diagnosis)
        return diagnosis.error();
    doc->diagnosis = std::make_shared<const model::Diagnosis>(std::move(diagnosis.value()));
    doc->timeline = std::make_shared<const model::TimelineData>(model::TimelineData::build(*doc->bundle, *doc->diagnosis));
    doc->pairs = std::make_shared<const model::PairEvidence>(model::PairEvidence::build(*doc->bundle, *doc->diagnosis));
    doc->reach = std::make_shared<const model::JobReach>(model::measureReach(*doc->bundle));
    return views::DocumentPtr(std::move(doc));
}

} // namespace rankscope::app
