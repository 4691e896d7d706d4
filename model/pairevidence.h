#pragma once
// Where the trouble sits between ranks: a sparse N×N matrix of evidence per rank pair, for
// the rank-pair heatmap and reports. Each cell sums one kind of evidence; the combined
// score weights them. Derived from the bundle and the verdict; no new conclusions here.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rankscope::model {

enum class PairMetric : std::uint8_t {
    NetworkErrors,   // IB/socket errors logged by `from` naming `to`'s address
    StalledNeighbour, // ring/tree/channel neighbours: `from` entered the stuck collective, `to` did not
    NvlinkFault,     // NVLink Xids on both GPUs of the pair
    WaitsOn,         // collateral `from` waits on initiating `to` in the stuck collective
    P2pUnmatched,    // Flight Recorder send/recv ops of `from` to/from peer `to` that never completed
    Combined,        // weighted sum of the above
    Count
};

std::string_view pairMetricName(PairMetric metric);
// What one unit of a cell's value counts, for a legend ("error lines naming the peer").
std::string_view pairMetricUnit(PairMetric metric);

struct PairCell {
    std::int32_t from = -1;
    std::int32_t to = -1;
    std::array<float, static_cast<std::size_t>(PairMetric::Count)> value {};
    std::vector<EvidenceRef> evidence; // up to a few lines per cell
};

class PairEvidence {
public:
    static PairEvidence build(const Bundle& bundle, const Diagnosis& diagnosis);

    std::int32_t size() const { return m_size; }
    const std::vector<PairCell>& cells() const { return m_cells; }
    // nullptr when the pair has no evidence.
    const PairCell* cell(std::int32_t from, std::int32_t to) const;
    float maxValue(PairMetric metric) const;

    // The same matrix between hosts (index = position in bundle.world.hosts): for large
    // worlds where one pixel per rank pair is too fine to read.
    PairEvidence aggregateToHosts(const Bundle& bundle) const;

private:
    PairCell& at(std::int32_t from, std::int32_t to);
    void finish();

    std::int32_t m_size = 0;
    std::vector<PairCell> m_cells; // sorted by (from, to) after finish()
};

} // namespace rankscope::model
