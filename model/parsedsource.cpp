#include "model/parsedsource.h"

#include "model/secretmasker.h"

namespace rankscope::model {

ParsedSource::ParsedSource()
    : ParsedSource(Source {})
{
}

ParsedSource::ParsedSource(Source src)
    : source(std::move(src))
{
    // A file or folder name is text a stranger chose (issue 21): the display path is what
    // every output prints, and root and rootRelative are printed too. containerPath and
    // memberPath stay raw: they open the bytes and
    // are never printed.
    std::string masked;
    for (std::string* printed : { &source.path, &source.root, &source.rootRelative })
        if (maskText(*printed, masked))
            *printed = std::move(masked);
    if (maskText(source.pathIdentity.host, masked))
        source.pathIdentity.host = std::move(masked);
    RawIdentity self;
    self.source = source.id;
    identityIndex(self);
}

StrId ParsedSource::intern(std::string_view text)
{
    if (!SecretMasker::mightContainSecret(text))
        return strings.intern(text);
    std::string masked;
    return maskText(text, masked) ? strings.intern(masked) : strings.intern(text);
}

std::uint32_t ParsedSource::identityIndex(const RawIdentity& identity)
{
    return m_identityIndex.findOrAdd(identity, identities);
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
