// Flight Recorder cross-rank matching speed and memory (issue 6: 4096 dumps × 2000 entries
// matched in ≤ 1 s, linear in ranks × entries). Builds the model records the reader would
// produce — per dump a few de-duplicated calls and stacks, entries of 32 bytes — in memory
// (not timed), then times matchFlightRecorder() on them.
//
//   rankscope_bench_frmatch [--ranks 4096] [--entries 2000] [--repeat 3] [--threads 1]
//   rankscope_bench_frmatch --sweep [--entries 2000]     ranks 512, 1024, 2048, 4096
//
// The job: one world PG of all ranks plus TP groups of 8 (a quarter of the entries); every
// collective completed except the last one on the world PG, which one rank never enqueued
// (a straggler) and one rank issued with a different size (a mismatch), so the matcher does
// the same work as on a real hang. Prints entries, model bytes, match seconds, ns per entry
// and the process's peak RSS (getrusage; sizes run in ascending order, so it is the peak of
// the largest size so far).

#include "model/frmatch.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace rankscope::model;
using Clock = std::chrono::steady_clock;

constexpr std::int32_t kTpSize = 8;
constexpr std::int64_t kT0 = 1'724'779'239'936'775'119;

struct SyntheticJob {
    StringPool strings;
    std::vector<FrDump> dumps;
    std::vector<FrEntry> entries;
    std::vector<FrCall> calls;
    FrStacks stacks;

    std::size_t modelBytes() const
    {
        return entries.capacity() * sizeof(FrEntry) + calls.capacity() * sizeof(FrCall)
            + stacks.frames.capacity() * sizeof(StackFrame)
            + stacks.begin.capacity() * sizeof(std::uint32_t);
    }
};

SyntheticJob buildJob(std::int32_t ranks, std::int32_t entriesPerRank)
{
    SyntheticJob job;
    const StrId world = job.strings.intern("0");
    const StrId worldDesc = job.strings.intern("default_pg");
    const StrId tpDesc = job.strings.intern("tp_group");
    const StrId allReduce = job.strings.intern("nccl:all_reduce");
    const StrId allGather = job.strings.intern("nccl:_allgather_base");
    const StrId small = job.strings.intern("[[1024]]");
    const StrId big = job.strings.intern("[[4096, 4096]]");
    const StrId wrong = job.strings.intern("[[4096, 2048]]");
    const StrId floatType = job.strings.intern("Float");
    const StrId bf16 = job.strings.intern("BFloat16");
    const StrId file = job.strings.intern("/home/user/train.py");
    const StrId c10d = job.strings.intern("torch/distributed/distributed_c10d.py");
    const StrId fn = job.strings.intern("train_step");
    const StrId arFn = job.strings.intern("all_reduce");
    std::vector<StrId> tpNames;
    for (std::int32_t g = 0; g < (ranks + kTpSize - 1) / kTpSize; ++g)
        tpNames.push_back(job.strings.intern(std::to_string(g + 1)));
    std::vector<std::int32_t> everyone(static_cast<std::size_t>(ranks));
    for (std::int32_t r = 0; r < ranks; ++r)
        everyone[static_cast<std::size_t>(r)] = r;

    const std::int32_t straggler = ranks / 3;
    const std::int32_t odd = ranks / 2 + 1;
    job.entries.reserve(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(entriesPerRank));
    for (std::int32_t r = 0; r < ranks; ++r) {
        const auto d = static_cast<std::uint32_t>(job.dumps.size());
        FrDump dump;
        dump.globalRank = r;
        dump.firstEntry = static_cast<std::uint32_t>(job.entries.size());
        const std::int32_t g = r / kTpSize;
        std::vector<std::int32_t> tpRanks;
        for (std::int32_t t = g * kTpSize; t < std::min(ranks, (g + 1) * kTpSize); ++t)
            tpRanks.push_back(t);
        dump.pgConfig.push_back({ world, worldDesc, everyone });
        dump.pgConfig.push_back({ tpNames[static_cast<std::size_t>(g)], tpDesc, tpRanks });
        // The reader de-duplicates per dump: each dump owns its few calls and stacks.
        const auto stackBase = static_cast<std::uint32_t>(job.stacks.size());
        for (int s = 0; s < 2; ++s) {
            job.stacks.begin.push_back(static_cast<std::uint32_t>(job.stacks.frames.size()));
            job.stacks.frames.push_back({ arFn, c10d, 2696 + s });
            for (int k = 0; k < 7; ++k)
                job.stacks.frames.push_back({ fn, file, 100 + k });
        }
        const auto callBase = static_cast<std::uint32_t>(job.calls.size());
        FrCall worldCall { world, worldDesc, allReduce, big, big, floatType, floatType, -1, -1,
            4096u * 4096u, 4096u * 4096u, 600000, d, stackBase, OpType::AllReduce, false };
        job.calls.push_back(worldCall);
        worldCall.inputSizes = worldCall.outputSizes = wrong;
        worldCall.inputNumel = worldCall.outputNumel = 4096u * 2048u;
        job.calls.push_back(worldCall);
        job.calls.push_back(
            { tpNames[static_cast<std::size_t>(g)], tpDesc, allGather, small, small, bf16, bf16, -1,
                -1, 1024, 1024, 600000, d, stackBase + 1, OpType::AllGatherBase, false });
        std::int32_t worldSeq = 0, tpSeq = 0;
        const std::int32_t count = r == straggler ? entriesPerRank - 1 : entriesPerRank;
        for (std::int32_t i = 0; i < count; ++i) {
            FrEntry e;
            e.recordId = i;
            const std::int64_t created = kT0 + static_cast<std::int64_t>(i) * 1'000'000;
            const bool last = i == entriesPerRank - 1;
            if (i % 4 == 3 && !last) {
                e.collectiveSeq = ++tpSeq;
                e.call = callBase + 2;
            } else {
                e.collectiveSeq = ++worldSeq;
                e.call = callBase + (last && r == odd ? 1 : 0);
            }
            e.setState(last ? FrState::Scheduled : FrState::Completed);
            e.setTimes(created, 0, last ? 0 : created + 350'000);
            job.entries.push_back(e);
        }
        dump.entryCount = static_cast<std::uint32_t>(job.entries.size()) - dump.firstEntry;
        job.dumps.push_back(std::move(dump));
    }
    return job;
}

double peakRssMb()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // KiB on Linux
}

void runOne(std::int32_t ranks, std::int32_t entries, int repeat, unsigned threads)
{
    const SyntheticJob job = buildJob(ranks, entries);
    const double rssAfterBuild = peakRssMb();
    FrMatchInput in;
    in.dumps = job.dumps;
    in.entries = job.entries;
    in.calls = job.calls;
    in.strings = &job.strings;
    double best = 1e30;
    std::size_t mismatches = 0;
    std::int64_t stuck = -1;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = Clock::now();
        const FrMatchResult r = matchFlightRecorder(in, FrMatchOptions { threads });
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        best = std::min(best, s);
        mismatches = 0;
        for (const auto& pg : r.pgs)
            mismatches += pg.mismatches.size();
        stuck = r.firstStuck ? r.pgs[*r.firstStuck].stuckSeq : -1;
    }
    const double n = static_cast<double>(job.entries.size());
    std::printf(
        "ranks %5d  entries/rank %5d  entries %9zu  model %7.1f MB  threads %u  match %.3f s"
        "  %6.1f ns/entry"
        "  peak RSS %7.1f MB (after build %7.1f MB)  stuck #%lld, %zu mismatch(es)\n",
        ranks, entries, job.entries.size(), static_cast<double>(job.modelBytes()) / 1e6, threads,
        best, best * 1e9 / n, peakRssMb(), rssAfterBuild, static_cast<long long>(stuck),
        mismatches);
}

} // namespace

int main(int argc, char** argv)
{
    std::int32_t ranks = 4096, entries = 2000;
    int repeat = 3;
    unsigned threads = 1;
    bool sweep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--ranks" && i + 1 < argc)
            ranks = std::atoi(argv[++i]);
        else if (a == "--entries" && i + 1 < argc)
            entries = std::atoi(argv[++i]);
        else if (a == "--repeat" && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--threads" && i + 1 < argc)
            threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
        else if (a == "--sweep")
            sweep = true;
        else {
            std::fprintf(stderr,
                "usage: %s [--ranks N] [--entries E] [--repeat R] [--threads T] [--sweep]\n",
                argv[0]);
            return 2;
        }
    }
    if (ranks < 2 || entries < 2) {
        std::fprintf(stderr, "need at least 2 ranks and 2 entries\n");
        return 2;
    }
    std::printf("sizeof(FrEntry) = %zu bytes, sizeof(FrCall) = %zu bytes\n", sizeof(FrEntry),
        sizeof(FrCall));
    if (sweep)
        for (const std::int32_t n : { 512, 1024, 2048, 4096 })
            runOne(n, entries, repeat, threads);
    else
        runOne(ranks, entries, repeat, threads);
    return 0;
}
