// Flight Recorder reading speed (issue 6): N ranks' dumps of E entries each, in the shape
// tools/frgen/frgen.py writes (schema 2.10 with frames), pickled the way Python's pickle
// writes protocol 4 (FRAME, MEMOIZE, SHORT_BINUNICODE, BINGET, batches of 1000).
//
//   rankscope_bench_fr [--ranks 4096] [--entries 2000] [--threads 1]
//       generates each dump in memory (not timed), then times reading + mapping it into a
//       ParsedSource (picklereader + flightrecorderparser), one dump at a time per thread
//   rankscope_bench_fr --write DIR [--ranks N] [--entries E]
//       writes the dumps as DIR/nccl_trace_rank_<r> (for bench/fr/compare_python.sh)
//   rankscope_bench_fr --read DIR [--threads T]
//       times reading the files of DIR from disk and mapping them (what Python is timed on)
//   --reader-only: the pickle reader alone, without mapping ("entries" then counts values)
//   rankscope_bench_fr --digest FILE...
//       prints one hash per file over everything the parser put into its ParsedSource
//       (strings in pool order, entries, calls, stacks, dumps, events, issues), so two
//       builds of the reader can be checked for identical output on any set of files
//   rankscope_bench_fr --read DIR --match [--threads T]
//       end to end, as the app loads a bundle: the app's loader (loadBundle: every file read,
//       mapped and merged into one Bundle, T threads), then matchFlightRecorder() on the
//       bundle; each phase timed, peak RSS of the whole
//
// Prints dumps, entries, pickle bytes, seconds, MB/s and the peak RSS (getrusage).

#include "app/core/bundleloader.h"
#include "model/frmatch.h"
#include "model/parsedsource.h"
#include "parsers/flightrecorderparser.h"
#include "parsers/pathidentity.h"
#include "picklewriter.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Dumps are pickled the way Python's pickle writes protocol 4 (the shape frgen.py writes);
// the writer is the simulator's, which also writes torch's protocol 2.
using rankscope::simulator::PickleWriter;

struct Frame {
    const char* name;
    const char* file;
    int line;
};

constexpr Frame kFrames[] = {
    { "all_reduce", "torch/distributed/distributed_c10d.py", 2696 },
    { "broadcast", "torch/distributed/distributed_c10d.py", 2380 },
    { "all_gather_into_tensor", "torch/distributed/distributed_c10d.py", 3512 },
    { "send", "torch/distributed/distributed_c10d.py", 1990 },
    { "recv", "torch/distributed/distributed_c10d.py", 2040 },
    { "wrapper", "torch/distributed/c10d_logger.py", 83 },
    { "train_step", "/home/user/train.py", 120 },
    { "pipeline_step", "/home/user/train.py", 151 },
    { "main", "/home/user/train.py", 200 },
};

void writeFrame(PickleWriter& w, int index)
{
    const std::string key = "frame:" + std::to_string(index);
    if (w.sharedObject(key))
        return;
    w.emptyDict();
    w.openShared(key);
    w.mark();
    w.str("name");
    w.str(kFrames[index].name);
    w.str("filename");
    w.str(kFrames[index].file);
    w.str("line");
    w.integer(kFrames[index].line);
    w.setitems();
    w.closeShared();
}

// A Python list as pickle writes it: one item with APPEND, more in MARK … APPENDS batches.
void writeInts(PickleWriter& w, const std::vector<std::int64_t>& values)
{
    w.emptyList();
    if (values.size() == 1) {
        w.integer(values[0]);
        w.append();
        return;
    }
    w.mark();
    for (const std::int64_t v : values)
        w.integer(v);
    w.appends();
}

void writeSizes(PickleWriter& w, const std::vector<std::vector<std::int64_t>>& tensors)
{
    w.emptyList();
    if (tensors.size() == 1) {
        writeInts(w, tensors[0]);
        w.append();
        return;
    }
    w.mark();
    for (const auto& dims : tensors)
        writeInts(w, dims);
    w.appends();
}

constexpr std::int64_t kT0 = 1724779239936775119;

// "[0, 1, ..., n-1]", as pg_config writes a group's ranks (a string, [formats 2.3]).
std::string rankListText(int first, int count)
{
    std::string out = "[";
    for (int r = first; r < first + count; ++r) {
        if (r > first)
            out += ", ";
        out += std::to_string(r);
    }
    return out + "]";
}

// One rank's dump with `entries` entries (frgen's op mix, cycled), of a job of `worldSize`
// ranks: the default group lists every rank in pg_config (as PyTorch writes it, so the dumps
// grow with the job), and tensor-parallel pairs (2k, 2k + 1) form PG "k + 1".
const std::string& makeDump(PickleWriter& w, int rank, int entries, int worldSize)
{
    w.begin();
    w.emptyDict();
    w.mark();
    w.str("version");
    w.str("2.10");
    w.str("pg_config");
    w.emptyDict();
    w.mark();
    const std::string tp = std::to_string(rank / 2 + 1);
    for (const auto& [name, desc, ranks] :
        { std::tuple<std::string, std::string, std::string> {
              "0", "default_pg", rankListText(0, worldSize) },
            { tp, "tp_group", rankListText(rank / 2 * 2, std::min(2, worldSize - rank / 2 * 2)) } }) {
        w.str(name);
        w.emptyDict();
        w.mark();
        w.str("name");
        w.str(name);
        w.str("desc");
        w.str(desc);
        w.str("ranks");
        w.str(ranks, false);
        w.setitems();
    }
    w.setitems();
    w.str("comm_lib_version");
    w.str("2.26.2");
    w.str("pg_status");
    w.emptyDict();
    w.mark();
    for (const std::string& pg : { std::string("0"), tp }) {
        w.str(pg);
        w.emptyDict();
        w.mark();
        w.str("last_enqueued_collective");
        w.integer(entries);
        w.str("last_started_collective");
        w.integer(entries - 1);
        w.str("last_completed_collective");
        w.integer(entries - 1);
        w.setitems();
    }
    w.setitems();
    w.str("entries");
    w.emptyList();
    std::int64_t seq[3] = { 0, 0, 0 };
    std::int64_t p2pSeq = 0;
    bool worldTupleWritten = false;
    bool tpTupleWritten = false;
    for (int i = 0; i < entries; ++i) {
        if (i % 1000 == 0) {
            if (i > 0)
                w.appends();
            w.mark();
        }
        const int kind = i % 5;
        const bool world = kind != 2;
        const bool p2p = kind == 3;
        const bool last = i == entries - 1;
        const std::int64_t created = kT0 + 1'000'000LL * i + 1000LL * rank;
        w.emptyDict();
        w.mark();
        w.str("frames");
        w.emptyList();
        w.mark();
        writeFrame(w,
            kind == 0 || kind == 4 ? 0
                : kind == 1        ? 1
                : kind == 2        ? 2
                : rank % 2 == 0    ? 3
                                   : 4);
        writeFrame(w, 5);
        writeFrame(w, p2p ? 7 : 6);
        writeFrame(w, 8);
        w.appends();
        w.str("record_id");
        w.integer(i);
        w.str("pg_id");
        w.integer(world ? 0 : rank / 2 + 1);
        w.str("process_group");
        // frgen reuses one tuple object per PG: Python memoizes it and writes BINGET after.
        if (world ? worldTupleWritten : tpTupleWritten) {
            w.sharedObject(world ? "tuple:world" : "tuple:tp");
        } else {
            w.str(world ? "0" : tp);
            w.str(world ? "default_pg" : "tp_group");
            w.tuple2();
            w.openShared(world ? "tuple:world" : "tuple:tp");
            w.closeShared();
            (world ? worldTupleWritten : tpTupleWritten) = true;
        }
        w.str("thread_name");
        w.str("pt_main_thread");
        w.str("thread_id");
        w.str("140234231514944");
        w.str("collective_seq_id");
        if (!p2p)
            ++seq[world ? 0 : 1];
        else
            ++p2pSeq;
        w.integer(seq[world ? 0 : 1]);
        w.str("p2p_seq_id");
        w.integer(p2pSeq);
        w.str("op_id");
        w.integer(i + 1);
        w.str("profiling_name");
        if (p2p) {
            char name[64];
            if (rank % 2 == 0)
                std::snprintf(name, sizeof name, "nccl:send %d->%d", rank, rank + 1);
            else
                std::snprintf(name, sizeof name, "nccl:recv %d<-%d", rank, rank - 1);
            w.str(name, false);
        } else {
            w.str(kind == 1     ? "nccl:broadcast"
                    : kind == 2 ? "nccl:_allgather_base"
                                : "nccl:all_reduce");
        }
        w.str("time_created_ns");
        w.integer(created);
        if (!last) {
            w.str("duration_ms");
            w.real(0.35 + 0.01 * (i % 100));
        }
        const char* dtype = kind == 2 ? "BFloat16" : p2p ? "Half" : "Float";
        w.str("input_sizes");
        if (kind == 4)
            writeSizes(w, { { 4096, 1024 }, { 1024 } });
        else if (kind == 2)
            writeSizes(w, { { 512 } });
        else
            writeSizes(w, { { 64, 128 } });
        w.str("input_dtypes");
        w.emptyList();
        w.str(dtype);
        w.append();
        w.str("output_sizes");
        if (kind == 4)
            writeSizes(w, { { 4096, 1024 }, { 1024 } });
        else if (kind == 2)
            writeSizes(w, { { 1024 } });
        else
            writeSizes(w, { { 64, 128 } });
        w.str("output_dtypes");
        w.emptyList();
        w.str(dtype);
        w.append();
        w.str("state");
        w.str(last ? "scheduled" : "completed");
        w.str("time_discovered_started_ns");
        if (last)
            w.none();
        else
            w.integer(created + 20'000);
        w.str("time_discovered_completed_ns");
        if (last)
            w.none();
        else
            w.integer(created + 350'000);
        w.str("retired");
        w.boolean(!last);
        w.str("timeout_ms");
        w.integer(600000);
        w.str("is_p2p");
        w.boolean(p2p);
        w.setitems();
        w.maybeCommitFrame();
    }
    if (entries > 0)
        w.appends();
    w.setitems();
    return w.finish();
}

} // namespace

namespace {

struct Options {
    int ranks = 4096;
    int entries = 2000;
    int threads = 1;
    std::string writeDir;
    std::string readDir;
    bool readerOnly = false; // time the pickle reader alone, without mapping into the model
    bool match = false; // keep every dump, build the bundle and match (end to end)
};

struct Totals {
    std::uint64_t dumps = 0;
    std::uint64_t entries = 0;
    std::uint64_t bytes = 0;
    std::uint64_t issues = 0;
    std::uint64_t repeatedDicts = 0; // dicts the reader copied instead of reading
    double parseSeconds = 0; // per-dump read+map time, summed
};

long peakRssKb()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Reads + maps one dump into a fresh ParsedSource, as the bundle loader does per file.
void readDump(std::string_view bytes, int rank, rankscope::parsers::FlightRecorderScratch& scratch,
    Totals& t, bool readerOnly = false)
{
    if (readerOnly) {
        rankscope::parsers::PickleResult& read = scratch.pickle;
        rankscope::parsers::readPickle(bytes, read);
        t.dumps += 1;
        t.entries += read.document.valueCount();
        t.bytes += bytes.size();
        t.issues += read.complete ? 0 : 1;
        t.repeatedDicts += read.copies.size();
        return;
    }
    rankscope::model::Source src;
    src.id = static_cast<rankscope::model::SourceId>(rank);
    src.path = "dumps/nccl_trace_rank_" + std::to_string(rank);
    src.pathIdentity.globalRank = rank;
    rankscope::model::ParsedSource out(std::move(src));
    rankscope::parsers::parseFlightRecorderPickle(bytes, out, scratch);
    t.repeatedDicts += scratch.pickle.copies.size();
    t.dumps += 1;
    t.entries += out.frEntries.size();
    t.bytes += bytes.size();
    t.issues += out.issues.total();
}

void report(const char* mode, const Options& o, const Totals& t, double wallSeconds)
{
    std::printf("mode %s, threads %d\n", mode, o.threads);
    std::printf("dumps %llu, entries %llu, pickle bytes %.1f MB, import issues %llu\n",
        static_cast<unsigned long long>(t.dumps), static_cast<unsigned long long>(t.entries),
        t.bytes / 1e6, static_cast<unsigned long long>(t.issues));
    std::printf("dicts copied from an earlier one by the reader: %llu\n",
        static_cast<unsigned long long>(t.repeatedDicts));
    if (t.parseSeconds > 0)
        std::printf("read+map time (sum over dumps) %.3f s, %.0f MB/s per thread, %.0f ns/entry\n",
            t.parseSeconds, t.bytes / 1e6 / t.parseSeconds,
            t.parseSeconds * 1e9 / static_cast<double>(t.entries ? t.entries : 1));
    std::printf("wall time %.3f s\n", wallSeconds);
    std::printf("peak RSS %.1f MB\n", peakRssKb() / 1024.0);
    std::printf("sizeof(FrEntry) %zu bytes: keeping all %llu entries would need >= %.0f MB\n",
        sizeof(rankscope::model::FrEntry), static_cast<unsigned long long>(t.entries),
        static_cast<double>(t.entries) * sizeof(rankscope::model::FrEntry) / 1e6);
}

// Generate (untimed) then read+map (timed) each rank's dump; ranks split across threads.
int runInMemory(const Options& o)
{
    std::vector<Totals> totals(static_cast<std::size_t>(o.threads));
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (int w = 0; w < o.threads; ++w) {
        workers.emplace_back([&o, &totals, w] {
            PickleWriter writer;
            rankscope::parsers::FlightRecorderScratch scratch;
            Totals& t = totals[static_cast<std::size_t>(w)];
            for (int rank = w; rank < o.ranks; rank += o.threads) {
                const std::string& bytes = makeDump(writer, rank, o.entries, o.ranks);
                const auto t0 = Clock::now();
                readDump(bytes, rank, scratch, t, o.readerOnly);
                t.parseSeconds += std::chrono::duration<double>(Clock::now() - t0).count();
            }
        });
    }
    for (auto& w : workers)
        w.join();
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    Totals sum;
    double slowest = 0;
    for (const Totals& t : totals) {
        sum.dumps += t.dumps;
        sum.entries += t.entries;
        sum.bytes += t.bytes;
        sum.issues += t.issues;
        sum.repeatedDicts += t.repeatedDicts;
        sum.parseSeconds += t.parseSeconds;
        slowest = std::max(slowest, t.parseSeconds);
    }
    report("in-memory (generation untimed)", o, sum, wall);
    std::printf("read+map wall estimate (slowest thread) %.3f s\n", slowest);
    return sum.issues == 0 ? 0 : 1;
}

int writeDumps(const Options& o)
{
    std::filesystem::create_directories(o.writeDir);
    PickleWriter writer;
    std::uint64_t bytes = 0;
    for (int rank = 0; rank < o.ranks; ++rank) {
        const std::string& dump = makeDump(writer, rank, o.entries, o.ranks);
        std::ofstream out(
            o.writeDir + "/nccl_trace_rank_" + std::to_string(rank), std::ios::binary);
        out.write(dump.data(), static_cast<std::streamsize>(dump.size()));
        bytes += dump.size();
    }
    std::printf("wrote %d dumps, %.1f MB, to %s\n", o.ranks, bytes / 1e6, o.writeDir.c_str());
    return 0;
}

std::vector<std::filesystem::path> dumpFiles(const std::string& dir)
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().filename().string().starts_with("nccl_trace_rank_"))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Reads a whole file into `bytes`, reusing its capacity (one read call, no stream buffer).
bool readWhole(const std::filesystem::path& path, std::string& bytes)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    bytes.resize(ec ? 0 : static_cast<std::size_t>(size));
    const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    bytes.resize(got);
    return true;
}

// End to end, as the app loads a bundle of dumps: the app's own loader (read, map and merge
// into one Bundle on T threads, without hashing the inputs, as `rankscope-cli diagnose`
// does), then the cross-rank match.
int readAndMatch(const Options& o)
{
    rankscope::app::LoadRequest request;
    for (const auto& file : dumpFiles(o.readDir))
        request.paths.push_back(file.string());
    request.threads = static_cast<unsigned>(o.threads);
    request.hashInputs = false;
    const auto start = Clock::now();
    auto loaded = rankscope::app::loadBundle(request);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", loaded.error().message.c_str());
        return 1;
    }
    const rankscope::model::Bundle& bundle = *loaded.value();
    const auto loadedAt = Clock::now();
    const double rssLoaded = peakRssKb() / 1024.0;
    const rankscope::model::FrMatchResult r = rankscope::model::matchFlightRecorder(
        bundle, rankscope::model::FrMatchOptions { static_cast<unsigned>(o.threads) });
    const auto matchedAt = Clock::now();
    auto seconds = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double>(b - a).count();
    };
    std::size_t mismatches = 0;
    for (const auto& pg : r.pgs)
        mismatches += pg.mismatches.size();
    std::uint64_t bytes = 0;
    for (const auto& source : bundle.sources)
        bytes += source.bytes;
    std::printf(
        "mode end to end (loadBundle: read + map + merge, then match), threads %d\n", o.threads);
    std::printf("dumps %zu, entries %zu, calls %zu, pickle bytes %.1f MB, import issues %zu\n",
        bundle.frDumps.size(), bundle.frEntries.size(), bundle.frCalls.size(),
        static_cast<double>(bytes) / 1e6, bundle.issues.total());
    std::printf("read+map+merge %.3f s, match %.3f s (%zu PGs, %zu mismatches)\n",
        seconds(start, loadedAt), seconds(loadedAt, matchedAt), r.pgs.size(), mismatches);
    std::printf("wall time %.3f s\n", seconds(start, matchedAt));
    std::printf(
        "peak RSS after loading %.1f MB, at the end %.1f MB\n", rssLoaded, peakRssKb() / 1024.0);
    std::printf("peak RSS %.1f MB\n", peakRssKb() / 1024.0);
    std::printf("sizeof(FrEntry) %zu bytes, entries %.1f MB (array capacity %.1f MB)\n",
        sizeof(rankscope::model::FrEntry),
        static_cast<double>(bundle.frEntries.size() * sizeof(rankscope::model::FrEntry)) / 1e6,
        static_cast<double>(bundle.frEntries.capacity() * sizeof(rankscope::model::FrEntry)) / 1e6);
    return bundle.issues.total() == 0 ? 0 : 1;
}

// FNV-1a over the bytes of what a parse produced; field by field, so padding never counts.
class Digest {
public:
    template <typename T> void add(const T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        const auto* p = reinterpret_cast<const unsigned char*>(&v);
        for (std::size_t i = 0; i < sizeof v; ++i)
            m_h = (m_h ^ p[i]) * 1099511628211ull;
    }
    void add(std::string_view s)
    {
        add(s.size());
        for (const char c : s)
            add(c);
    }
    std::uint64_t value() const { return m_h; }

private:
    std::uint64_t m_h = 1469598103934665603ull;
};

std::uint64_t digestOf(const rankscope::model::ParsedSource& p)
{
    Digest d;
    d.add(p.strings.size());
    for (std::size_t i = 0; i < p.strings.size(); ++i)
        d.add(p.strings.view(static_cast<rankscope::model::StrId>(i)));
    d.add(p.frEntries.size());
    for (const auto& e : p.frEntries) {
        d.add(e.call);
        d.add(e.collectiveSeq);
        d.add(e.recordId);
        d.add(e.p2pSeq);
        d.add(e.createdNs());
        d.add(e.startedNs());
        d.add(e.completedNs());
        d.add(e.durationMs());
        d.add(e.state());
        d.add(e.retired());
        d.add(e.clamped());
    }
    d.add(p.frCalls.size());
    for (const auto& c : p.frCalls) {
        for (const auto v : { c.pg, c.pgDesc, c.profilingName, c.inputSizes, c.outputSizes,
                 c.inputDtypes, c.outputDtypes, c.dump, c.stack })
            d.add(v);
        d.add(c.p2pSrc);
        d.add(c.p2pDst);
        d.add(c.inputNumel);
        d.add(c.outputNumel);
        d.add(c.timeoutMs);
        d.add(c.op);
        d.add(c.isP2p);
    }
    d.add(p.frStacks.frames.size());
    for (const auto& f : p.frStacks.frames) {
        d.add(f.function);
        d.add(f.file);
        d.add(f.line);
    }
    for (const auto b : p.frStacks.begin)
        d.add(b);
    d.add(p.frDumps.size());
    for (const auto& dump : p.frDumps) {
        d.add(dump.identity);
        d.add(dump.globalRank);
        d.add(dump.version);
        d.add(dump.firstEntry);
        d.add(dump.entryCount);
        d.add(dump.truncated);
        for (const auto& c : dump.pgConfig) {
            d.add(c.name);
            d.add(c.desc);
            for (const auto r : c.ranks.toVector())
                d.add(r);
        }
        for (const auto& s : dump.pgStatus) {
            d.add(s.pg);
            d.add(s.lastEnqueued);
            d.add(s.lastStarted);
            d.add(s.lastCompleted);
        }
    }
    d.add(p.events.size());
    for (const auto& e : p.events) {
        d.add(e.kind);
        d.add(e.severity);
        d.add(e.time.ns);
        d.add(e.time.inferred);
        d.add(e.text);
        d.add(e.detail);
        d.add(e.identity);
    }
    for (const auto& issue : p.issues.list()) {
        d.add(std::string_view(issue.kind));
        d.add(issue.count);
        for (const auto& sample : issue.samples)
            d.add(std::string_view(sample));
    }
    return d.value();
}

// One line per file: entries, calls, stacks and the digest of the whole ParsedSource.
int digestFiles(const std::vector<std::string>& paths)
{
    rankscope::parsers::FlightRecorderScratch scratch;
    std::string bytes;
    for (const std::string& path : paths) {
        if (!readWhole(path, bytes)) {
            std::printf("%s: cannot read\n", path.c_str());
            continue;
        }
        rankscope::model::Source src;
        src.path = path;
        src.pathIdentity = rankscope::parsers::identityFromPath(path);
        rankscope::model::ParsedSource out(std::move(src));
        if (path.ends_with(".json"))
            rankscope::parsers::parseFlightRecorderJson(bytes, out);
        else
            rankscope::parsers::parseFlightRecorderPickle(bytes, out, scratch);
        std::printf("%s entries %zu calls %zu stacks %zu issues %zu digest %016llx\n", path.c_str(),
            out.frEntries.size(), out.frCalls.size(), out.frStacks.size(), out.issues.total(),
            static_cast<unsigned long long>(digestOf(out)));
    }
    return 0;
}

// Reads every nccl_trace_rank_* file of a directory from disk and maps it (wall time).
int readFiles(const Options& o)
{
    const std::vector<std::filesystem::path> files = dumpFiles(o.readDir);
    std::vector<Totals> totals(static_cast<std::size_t>(o.threads));
    std::atomic<std::size_t> next { 0 };
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (int w = 0; w < o.threads; ++w) {
        workers.emplace_back([&, w] {
            rankscope::parsers::FlightRecorderScratch scratch;
            std::string bytes;
            Totals& t = totals[static_cast<std::size_t>(w)];
            for (std::size_t i = next++; i < files.size(); i = next++) {
                readWhole(files[i], bytes);
                const auto identity = rankscope::parsers::identityFromPath(files[i].string());
                readDump(bytes, identity.globalRank, scratch, t, o.readerOnly);
            }
        });
    }
    for (auto& w : workers)
        w.join();
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    Totals sum;
    for (const Totals& t : totals) {
        sum.dumps += t.dumps;
        sum.entries += t.entries;
        sum.bytes += t.bytes;
        sum.issues += t.issues;
        sum.repeatedDicts += t.repeatedDicts;
    }
    report("files (read from disk + map, timed as a whole)", o, sum, wall);
    return sum.issues == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (argc > 1 && std::string_view(argv[1]) == "--digest")
        return digestFiles(std::vector<std::string>(argv + 2, argv + argc));
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        if (arg == "--ranks" && value) {
            o.ranks = std::atoi(value);
            ++i;
        } else if (arg == "--entries" && value) {
            o.entries = std::atoi(value);
            ++i;
        } else if (arg == "--threads" && value) {
            o.threads = std::max(1, std::atoi(value));
            ++i;
        } else if (arg == "--write" && value) {
            o.writeDir = value;
            ++i;
        } else if (arg == "--match") {
            o.match = true;
        } else if (arg == "--reader-only") {
            o.readerOnly = true;
        } else if (arg == "--read" && value) {
            o.readDir = value;
            ++i;
        } else {
            std::fprintf(stderr,
                "usage: %s [--ranks N] [--entries E] [--threads T] [--reader-only] [--write DIR | "
                "--read DIR [--match]]\n",
                argv[0]);
            return 2;
        }
    }
    if (!o.writeDir.empty())
        return writeDumps(o);
    if (!o.readDir.empty())
        return o.match ? readAndMatch(o) : readFiles(o);
    return runInMemory(o);
}
