#include "model/parsedsource.h"

namespace rankscope::model {

ParsedSource::ParsedSource()
    : ParsedSource(Source {})
{
}

ParsedSource::ParsedSource(Source src)
    : source(std::move(src))
{
    RawIdentity self;
    self.source = source.id;
    identityIndex(self);
}

std::uint32_t ParsedSource::identityIndex(const RawIdentity& identity)
{
    auto [it, inserted] = m_identityIndex.try_emplace(identity,
        static_cast<std::uint32_t>(identities.size()));
    if (inserted)
        identities.push_back(identity);
    return it->second;
}

std::string ParsedSource::sampleAt(std::uint64_t line, std::string_view text) const
{
    constexpr std::size_t kMaxSample = 200;
    std::string out = source.path;
    out += ':';
    out += std::to_string(line);
    out += ": ";
    if (text.size() > kMaxSample) {
        out.append(text.substr(0, kMaxSample));
        out += "…";
    } else {
        out.append(text);
    }
    return out;
}

} // namespace rankscope::model
