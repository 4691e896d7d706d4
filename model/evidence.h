#pragma once
// Where a fact came from: enough to show the exact line in the log viewer and in reports.

#include <cstdint>

namespace rankscope::model {

using SourceId = std::uint32_t;
inline constexpr SourceId kNoSource = 0xffffffffu;

struct EvidenceRef {
    SourceId source = kNoSource;
    std::uint64_t line = 0;   // 1-based line number counting \n only (what an editor shows)
    std::uint64_t offset = 0; // byte offset of the segment start (a \r-glued piece starts mid-line)

    bool valid() const { return source != kNoSource; }
    friend bool operator==(const EvidenceRef&, const EvidenceRef&) = default;
};

} // namespace rankscope::model
