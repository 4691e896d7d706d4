#include "app/core/bundlesourceaccess.h"

#include "model/frdumptext.h"
#include "parsers/sourcecontent.h"

#include <memory>
#include <string>

namespace rankscope::app {

namespace {

// A Flight Recorder dump is shown as the entries Rankscope read from it (model/frdumptext.h):
// its own bytes are a pickle or one long JSON line.
bool isFlightRecorder(model::SourceKind kind)
{
    return kind == model::SourceKind::FlightRecorderPickle || kind == model::SourceKind::FlightRecorderJson;
}

} // namespace

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
    std::shared_ptr<const model::SourceBytes> bytes;
    if (const model::FrDump* dump = isFlightRecorder(src->kind) ? model::frDumpOfSource(*m_bundle, source) : nullptr) {
        bytes = std::make_shared<model::OwnedSourceBytes>(model::frDumpText(*m_bundle, *dump));
    } else {
        auto opened = parsers::openSourceContent(*src, m_limits);
        if (!opened)
            return opened.error();
        bytes = opened.value();
    }
    std::lock_guard lock(m_mutex);
    m_cache.emplace_front(source, bytes);
    while (m_cache.size() > m_cacheEntries)
        m_cache.pop_back();
    return bytes;
}

} // namespace rankscope::app
