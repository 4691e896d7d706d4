#include "model/evidencelocation.h"

namespace rankscope::model {

std::string evidenceLocation(const Bundle& b, const EvidenceRef& ref)
{
    const Source* src = b.source(ref.source);
    std::string out = src ? src->path : std::string("?");
    if (ref.line)
        out += ":" + std::to_string(ref.line);
    return out;
}

} // namespace rankscope::model
