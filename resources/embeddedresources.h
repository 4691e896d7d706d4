#pragma once
// Resources compiled into the binaries.

#include <string>
#include <string_view>

namespace rankscope::resources {

// resources/knowledge/knowledge.json as it was at build time.
std::string_view knowledgeJson();

// resources/catalogue/errors.json as it was at build time.
std::string_view errorCatalogueJson();

// The folder holding the built-in sample bundles: the source tree's resources/samples when
// it exists (developer builds), else <prefix>/share/rankscope/samples next to the binary.
std::string samplesDirectory(std::string_view executablePath = {});

} // namespace rankscope::resources
