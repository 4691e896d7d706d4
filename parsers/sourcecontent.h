#pragma once
// Re-opens a source's (decompressed) bytes after loading: plain files are memory-mapped;
// compressed files and archive members (also nested ones, "node1.tgz!rank2.log") are
// decompressed into memory under the same limits as loading.

#include "model/source.h"
#include "model/sourceaccess.h"
#include "parsers/inputplan.h"

namespace rankscope::parsers {

model::Result<std::shared_ptr<const model::SourceBytes>> openSourceContent(const model::Source& source,
    const LoadLimits& limits);

} // namespace rankscope::parsers
