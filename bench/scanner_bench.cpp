// Parsing throughput of the log scanner on the lines that dominate big bundles (NCCL INFO,
// COLL lines, training noise), next to a memchr line count over the same bytes in the same
// run: the ratio is what matters on a shared 2-core machine, not the absolute MB/s.

#include "model/parsedsource.h"
#include "parsers/logscanner.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>

namespace {

std::string makeLog(std::size_t targetBytes)
{
    std::mt19937 rng(7);
    std::string out;
    out.reserve(targetBytes + 256);
    unsigned op = 0;
    while (out.size() < targetBytes) {
        const unsigned kind = rng() % 10;
        char line[400];
        if (kind < 6) {
            std::snprintf(line, sizeof line,
                "gpu-node-017:48213:48213 [3] NCCL INFO AllReduce: opCount %x sendbuff 0x7f5dd32b2100 recvbuff 0x7f5dd32b2100 count 9984512 datatype 7 op 0 root 0 comm 0x55bef0201370 [nranks=4096] stream 0x55bef0208bd0\n",
                op++);
        } else if (kind < 8) {
            std::snprintf(line, sizeof line,
                "gpu-node-017:48213:48990 [3] NCCL INFO Channel %02u/0 : 27[3] -> 35[3] [send] via NET/IB/3/GDRDMA\n", static_cast<unsigned>(rng() % 32));
        } else if (kind == 8) {
            std::snprintf(line, sizeof line,
                "[rank27]:[W1205 03:12:%02u.123456789 ProcessGroupNCCL.cpp:4561] Warning: some noise %u\n", static_cast<unsigned>(rng() % 60), static_cast<unsigned>(rng()));
        } else {
            std::snprintf(line, sizeof line, "Epoch 3:  41%%|████      | 410/1000 [03:12<04:36,  2.13it/s, loss=1.%03u]\n", static_cast<unsigned>(rng() % 1000));
        }
        out += line;
    }
    return out;
}

const std::string& corpus()
{
    static const std::string log = makeLog(64 << 20);
    return log;
}

void BM_ScanBundleLines(benchmark::State& state)
{
    const std::string& log = corpus();
    for (auto _ : state) {
        rankscope::model::Source src;
        src.id = 0;
        src.path = "rank27.log";
        rankscope::model::ParsedSource out(std::move(src));
        rankscope::parsers::LogScanner scanner(out);
        scanner.feed(log);
        scanner.finish();
        benchmark::DoNotOptimize(out.collTraces.size());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.size()));
}

// Baseline: the least any line-oriented tool must do — find every newline.
void BM_CountLinesMemchr(benchmark::State& state)
{
    const std::string& log = corpus();
    for (auto _ : state) {
        std::size_t lines = 0;
        const char* p = log.data();
        const char* end = p + log.size();
        while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))))) {
            ++lines;
            ++p;
        }
        benchmark::DoNotOptimize(lines);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.size()));
}

} // namespace

BENCHMARK(BM_CountLinesMemchr)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScanBundleLines)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
