#pragma once
// One loaded bundle as every view sees it: the model, the verdict and the derived data
// the views draw. Immutable once built (off the GUI thread) and shared as
// std::shared_ptr<const BundleDocument>; a new load replaces the whole document.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"
#include "model/jobreach.h"
#include "model/pairevidence.h"
#include "model/sourceaccess.h"
#include "model/timelinedata.h"

#include <memory>
#include <string>
#include <vector>

namespace rankscope::views {

struct BundleDocument {
    std::vector<std::string> inputPaths; // what the user opened
    std::shared_ptr<const model::Bundle> bundle;
    std::shared_ptr<const model::Diagnosis> diagnosis; // null until diagnosed
    std::shared_ptr<const model::TimelineData> timeline;
    std::shared_ptr<const model::PairEvidence> pairs;
    std::shared_ptr<const model::SourceAccess> sources; // re-reads source text (log viewer)
    // How far the job got (the root-cause panel's account of a run with no hang); null until
    // diagnosed.
    std::shared_ptr<const model::JobReach> reach;
};

using DocumentPtr = std::shared_ptr<const BundleDocument>;

} // namespace rankscope::views
