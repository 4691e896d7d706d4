#pragma once
// GPU utilization samples logged next to a job ([formats 7.3]), summarised per GPU into
// GpuUtilSummary records instead of one Event per sample: a node logging every second for a
// day writes ~700k rows. The summary is what the hang rules need — a GPU pinned at 100 %
// (spinning NCCL kernel) versus the odd one at 0 % or [N/A].
//
// nvidia-smi --query-gpu=… --format=csv[,noheader][,nounits] -l 1
//   timestamp, index, pci.bus_id, utilization.gpu [%], memory.used [MiB], power.draw [W]
//       → the columns of this stream (any order; name, uuid and others are skipped)
//   2025/07/05 15:01:02.123, 0, 00000000:7E:00.0, 56 %, 1234 MiB, 70.12 W
//       → sample of GPU index 0, busId "0000:7e:00.0", utilization 56, power 70.12 W, time
//         2025-07-05 15:01:02.123 (LocalWall, the sampling host's clock)
//   "[N/A]" / "[Not Supported]" / "N/A" values are missing values; "nounits" rows parse the same.
//   A row needs a header seen earlier in its stream (or in the source: "noheader" runs after
//   a header); a row shaped like a sample without any header, or a row of the header's shape
//   whose values do not parse, counts as import issue "bad_gpu_sample".
//
// dcgmi dmon -e 203,252,1001,… [-d ms]
//   #Entity   GPUTL   FBUSD   SMACT   POWER
//       → the columns (a re-printed header replaces them)
//   ID                        W
//       → the unit line, skipped
//   GPU 0     56      500     0.005   70.1
//       → sample of GPU index 0: GPUTL is the utilization % (GRACT × 100 when GPUTL is absent),
//         POWER the watts; no time column, so the time is the line's own or the stream's
//         latest (LineContext::bestTime). Other entities (GPU-I, Switch, …) are skipped.
//
// One GpuUtilSummary per (stream identity, GPU) — the GPU keyed by bus id, else index, else
// uuid — written in finish(): samples = rows, min/max utilization over the numeric values,
// lastUtilization / lastPowerWatts = the last row's values (-1 when that row said N/A: a GPU
// that stops answering is a signal), lastTime and evidence = the last row, host = the
// stream's host prefix when it has one.

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rankscope::parsers {

class GpuTelemetryParser {
public:
    // True when the line was recognised (a header, a unit line or a sample).
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // Samples are single lines; nothing spans lines.
    bool inBlock() const { return false; }
    // Writes one GpuUtilSummary per GPU seen.
    void finish(model::ParsedSource& out);

private:
    enum class Dialect : std::uint8_t { NvidiaSmi, Dcgmi };

    // Column positions of one header; -1 when the column is absent.
    struct Columns {
        Dialect dialect = Dialect::NvidiaSmi;
        std::size_t count = 0;
        int timestamp = -1;
        int index = -1;
        int busId = -1;
        int uuid = -1;
        int utilization = -1;
        int power = -1;
        bool utilizationIsRatio = false; // dcgmi GRACT (0..1) standing in for GPUTL
    };

    struct Sample {
        std::int32_t gpuIndex = -1;
        std::string busId;
        std::string_view uuid;
        float utilization = -1.f; // -1: N/A
        float power = -1.f;
        model::TimePoint time;
    };

    struct GpuSeries {
        std::uint32_t identity = 0;
        std::int32_t gpuIndex = -1;
        std::string busId;
        std::uint32_t samples = 0;
        float lastUtilization = -1.f;
        float minUtilization = -1.f;
        float maxUtilization = -1.f;
        float lastPowerWatts = -1.f;
        model::TimePoint lastTime;
        model::EvidenceRef evidence;
    };

    bool parseNvidiaSmiHeader(const LineContext& ctx, std::string_view text);
    bool parseDcgmiHeader(const LineContext& ctx, std::string_view text);
    bool parseNvidiaSmiRow(const LineContext& ctx, std::string_view text, const Columns& columns,
        model::ParsedSource& out);
    bool parseDcgmiRow(const LineContext& ctx, std::string_view text, const Columns& columns,
        model::ParsedSource& out);
    void addSample(const LineContext& ctx, const Sample& sample);
    void reportBadSample(const LineContext& ctx, model::ParsedSource& out);

    // Columns per stream identity; m_lastColumns serves streams that never printed a header.
    std::unordered_map<std::uint32_t, Columns> m_columns;
    Columns m_lastColumns;
    bool m_haveColumns = false;
    // Streams whose dcgmi header was their latest line: the next may be its unit line ("ID  W").
    std::unordered_set<std::uint32_t> m_expectUnitLine;

    std::vector<GpuSeries> m_series;
    // (identity, GPU key) → index in m_series. Key: "b:<busId>", "i:<index>" or "u:<uuid>".
    std::unordered_map<std::string, std::size_t> m_seriesIndex;
    // Reused split buffer: rows arrive by the hundred thousand.
    std::vector<std::string_view> m_fields;
};

} // namespace rankscope::parsers
