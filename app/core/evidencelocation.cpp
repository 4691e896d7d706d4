#include "app/core/evidencelocation.h"

namespace rankscope::app {

std::string evidenceLocation(const model::Bundle& b, const model::EvidenceRef& ref)
{
    const model::Source* src = b.source(ref.source);
    std::string out = src ? src->path : std::string("?");
    if (ref.line)
        out += ":" + std::to_string(ref.line);
    return out;
}

} // namespace rankscope::app
