#include "model/xidcatalogue.h"

namespace rankscope::model {

namespace {

struct XidRange {
    std::uint64_t first;
    std::uint64_t last;
    XidCategory category;
    Severity severity;
};

// From NVIDIA's published Xid catalogue (the XID errors table of its GPU documentation,
// version by version of the driver). Row remapping that failed
// (64) is a hardware fault whose own message is only a warning.
constexpr XidRange kXids[] = {
    { 13, 13, XidCategory::Application, Severity::Warning }, // graphics engine exception (bad address in a kernel)
    { 31, 31, XidCategory::Application, Severity::Warning }, // MMU page fault of a kernel
    { 32, 32, XidCategory::Hardware, Severity::Error },      // corrupted push buffer (PCIe/DMA)
    { 43, 43, XidCategory::Application, Severity::Warning }, // GPU stopped processing the faulting context
    { 45, 45, XidCategory::FollowOn, Severity::Warning },    // preemptive cleanup after another Xid
    { 48, 48, XidCategory::Hardware, Severity::Error },      // double-bit ECC
    { 61, 62, XidCategory::Hardware, Severity::Error },      // micro-controller breakpoint / halt
    { 63, 63, XidCategory::Advisory, Severity::Warning },    // page retirement / row remap recorded
    { 64, 64, XidCategory::Hardware, Severity::Warning },    // page retirement / row remap failed
    { 74, 74, XidCategory::Hardware, Severity::Error },      // NVLink error
    { 79, 79, XidCategory::Hardware, Severity::Error },      // fallen off the bus
    { 92, 92, XidCategory::Advisory, Severity::Warning },    // high single-bit ECC rate
    { 94, 95, XidCategory::Hardware, Severity::Error },      // contained / uncontained ECC
    { 109, 109, XidCategory::Hardware, Severity::Error },    // context switch timeout
    { 119, 120, XidCategory::Hardware, Severity::Error },    // GSP RPC timeout / GSP error
    { 140, 140, XidCategory::Hardware, Severity::Error },    // unrecovered ECC
    { 144, 150, XidCategory::Hardware, Severity::Error },    // NVLink / C2C fatal errors (Hopper, Blackwell)
    { 154, 154, XidCategory::Recovery, Severity::Error },    // recovery action changed: reset / reboot required
};

const XidRange* find(std::uint64_t xid)
{
    for (const XidRange& r : kXids)
        if (xid >= r.first && xid <= r.last)
            return &r;
    return nullptr;
}

} // namespace

XidCategory xidCategory(std::uint64_t xid)
{
    const XidRange* r = find(xid);
    return r ? r->category : XidCategory::Advisory;
}

Severity xidSeverity(std::uint64_t xid)
{
    const XidRange* r = find(xid);
    return r ? r->severity : Severity::Warning;
}

bool isHardwareXid(std::uint64_t xid)
{
    return xidCategory(xid) == XidCategory::Hardware;
}

bool isNvlinkXid(std::uint64_t xid)
{
    return xid == 74 || (xid >= 144 && xid <= 150);
}

std::string_view xidCategoryWords(XidCategory c)
{
    switch (c) {
    case XidCategory::Hardware:
        return "a hardware fault";
    case XidCategory::Application:
        return "raised by an application's own kernel";
    case XidCategory::FollowOn:
        return "a consequence of an earlier Xid";
    case XidCategory::Recovery:
        return "the driver asking for a GPU reset";
    case XidCategory::Advisory:
        return "an advisory";
    }
    return "an advisory";
}

} // namespace rankscope::model
