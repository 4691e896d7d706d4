#pragma once
// Loads a bundle into a full BundleDocument for view tests (the same path the app uses).

#include "app/gui/documentbuilder.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace rankscope::testing {

inline views::DocumentPtr loadDocument(const std::vector<std::string>& paths)
{
    app::LoadRequest request;
    request.paths = paths;
    request.threads = 2;
    auto doc = app::buildDocument(request);
    if (!doc)
        FAIL("loading " << paths.front() << " failed: " << doc.error().message);
    return doc.value();
}

} // namespace rankscope::testing
