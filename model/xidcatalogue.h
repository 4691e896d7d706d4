#pragma once
// NVIDIA's Xid catalogue, as far as a hang diagnosis needs it: which Xids mean the GPU (or its
// links) broke, which are raised by the application's own kernels, which only follow another
// Xid and which are advisories. The kernel parser takes an event's severity from here and the
// hardware rules take "can this explain a hang" from here, so the two never disagree.

#include "model/event.h"

#include <cstdint>
#include <string_view>

namespace rankscope::model {

enum class XidCategory : std::uint8_t {
    Hardware,    // the GPU, its memory, its NVLink or its firmware failed
    Application, // the application's own kernel faulted (bad address, MMU fault): its process
                 // gets a CUDA error, which is the failure that matters
    FollowOn,    // raised because of an earlier Xid, which is the one to read
    Recovery,    // the driver asks for a reset or reboot: read with the Xid that caused it
    Advisory,    // recorded, corrected or rate warnings: worth seeing, not a fault
};

// Unlisted Xids are Advisory: every Xid is worth seeing, only listed ones are known faults.
XidCategory xidCategory(std::uint64_t xid);
// The severity an Xid event carries: Error for Hardware and Recovery, Warning otherwise.
Severity xidSeverity(std::uint64_t xid);
// A Hardware Xid: enough on its own to say a GPU broke.
bool isHardwareXid(std::uint64_t xid);
// NVLink and C2C link errors: a fault between two GPUs rather than of one.
bool isNvlinkXid(std::uint64_t xid);
std::string_view xidCategoryWords(XidCategory c);

} // namespace rankscope::model
