#pragma once
// SourceAccess over a loaded bundle: re-opens sources with the parsers (mapping plain
// files, decompressing archive members) and keeps the most recently used ones, so paging
// through evidence does not decompress the same member again and again.

#include "model/bundle.h"
#include "model/sourceaccess.h"
#include "parsers/inputplan.h"

#include <list>
#include <memory>
#include <mutex>
#include <utility>

namespace rankscope::app {

class BundleSourceAccess final : public model::SourceAccess {
public:
    // The bundle must outlive this object (keep both in the same shared document).
    explicit BundleSourceAccess(std::shared_ptr<const model::Bundle> bundle, parsers::LoadLimits limits = {},
        std::size_t cacheEntries = 4);

    model::Result<std::shared_ptr<const model::SourceBytes>> open(model::SourceId source) const override;

private:
    std::shared_ptr<const model::Bundle> m_bundle;
    parsers::LoadLimits m_limits;
    std::size_t m_cacheEntries;
    // Most recently used first. Guarded: the GUI thread and report rendering may both read.
    mutable std::mutex m_mutex;
    mutable std::list<std::pair<model::SourceId, std::shared_ptr<const model::SourceBytes>>> m_cache;
};

} // namespace rankscope::app
