#pragma once
// Reading a source's text again after loading (the log viewer, evidence context in
// reports). The model only knows this interface; the application implements it with the
// parsers' file mapping and archive reading, so views never parse or touch archives.

#include "model/error.h"
#include "model/evidence.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace rankscope::model {

// Bytes of one source, alive as long as the object (a mapping or a decompressed buffer).
class SourceBytes {
public:
    virtual ~SourceBytes() = default;
    virtual std::string_view bytes() const = 0;
};

// Bytes held in memory: a decompressed member, or text Rankscope renders for a binary
// source (a Flight Recorder dump's entries).
class OwnedSourceBytes final : public SourceBytes {
public:
    explicit OwnedSourceBytes(std::string data)
        : m_data(std::move(data))
    {
    }
    std::string_view bytes() const override { return m_data; }

private:
    std::string m_data;
};

// Bytes owned elsewhere and kept alive by sharing them: a pasted log's text.
class SharedSourceBytes final : public SourceBytes {
public:
    explicit SharedSourceBytes(std::shared_ptr<const std::string> data)
        : m_data(std::move(data))
    {
    }
    std::string_view bytes() const override { return m_data ? std::string_view(*m_data) : std::string_view(); }

private:
    std::shared_ptr<const std::string> m_data;
};

class SourceAccess {
public:
    virtual ~SourceAccess() = default;
    virtual Result<std::shared_ptr<const SourceBytes>> open(SourceId source) const = 0;
};

} // namespace rankscope::model
