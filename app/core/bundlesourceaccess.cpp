#include "app/core/bundlesourceaccess.h"

#include "parsers/sourcecontent.h"

namespace rankscope::app {

BundleSourceAccess::BundleSourceAccess(std::shared_ptr<const model::Bundle> bundle, parsers::LoadLimits limits,
    std::size_t cacheEntries)
    : m_bundle(std::move(bundle))
    , m_limits(limits)
    , m_cacheEntries(cacheEntries)
{
}

model::Result<std::shared_ptr<const model::SourceBytes>> BundleSourceAccess::open(model::SourceId source) const
{
    const model::Source* src = m_bundle ? m_bundle->source(source) : nullptr;
    if (!src)
        return model::Error { "no such source" };
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_cache.begin(); it != m_cache.end(); ++it)
            if (it->first == source) {
                m_cache.splice(m_cache.begin(), m_cache, it);
                return m_cache.front().second;
            }
    }
    auto opened = parsers::openSourceContent(*src, m_limits);
    if (!opened)
        return opened.error();
    std::lock_guard lock(m_mutex);
    m_cache.emplace_front(source, opened.value());
    while (m_cache.size() > m_cacheEntries)
        m_cache.pop_back();
    return opened.value();
}

} // namespace rankscope::app
