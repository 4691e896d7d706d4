#pragma once
// Builds a BundleDocument from paths: load, diagnose, derive the timeline and pair data.
// Runs on a worker thread (the caller decides which); reports stages so the window can
// show the summary before the diagnosis is ready.

#include "app/core/bundleloader.h"
#include "views/bundledocument.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace rankscope::app {

struct DocumentStages {
    // Called from the worker thread as soon as the bundle is loaded (before diagnosis).
    std::function<void(views::DocumentPtr)> onBundleLoaded;
};

model::Result<views::DocumentPtr> buildDocument(const LoadRequest& request, LoadProgress* progress = nullptr,
    const std::atomic<bool>* cancel = nullptr, const DocumentStages& stages = {});

} // namespace rankscope::app
