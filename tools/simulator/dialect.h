#pragma once
// Shared text pieces in the job's dialects: PyTorch c10 envelopes and PG prefixes
// ([formats 1.1]–1.3), NCCL line headers ([formats 3.1]), C++ frame dumps ([formats 1.4] e), tqdm bars,
// Python-json escaping. Used by the rank renderer and the launcher/kernel renderers.

#include "jobmodel.h"
#include "rankstream.h"
#include "textout.h"

#include <string>
#include <string_view>

namespace rankscope::simulator {

// One chunk being written: LineOut l(rs, t, Stream::Err); l << "text\n";
class LineOut {
public:
    LineOut(RankStream& rs, Micros t, Stream s)
        : m_rs(rs)
        , m_out(rs.open(t, s))
    {
    }
    ~LineOut() { m_rs.close(); }
    LineOut(const LineOut&) = delete;
    LineOut& operator=(const LineOut&) = delete;
    std::string& str() { return m_out; }
    template <typename T> LineOut& operator<<(const T& v)
    {
        Text(m_out) << v;
        return *this;
    }

private:
    RankStream& m_rs;
    std::string& m_out;
};

enum class FrameSite { CheckTimeout, CommWatchdog, CudaCheck, CheckErrors, StoreRecv };

class Dialect {
public:
    Dialect(const Job& job, int rank);

    // "[rank3]:[E1105 03:12:44.123456789 ProcessGroupNCCL.cpp:607] " per torch version.
    void envelope(std::string& o, char sev, Micros t, std::string_view file, int line) const;
    // "[PG 0 (default_pg) Rank 3] " per torch version ("[Rank 3] " before 2.2).
    void pgPrefix(std::string& o, int pgId, int pgRank) const;
    // WorkNCCL(SeqNum=…, OpType=…, [NumelIn=…, NumelOut=…,] Timeout(ms)=…)
    void work(std::string& o, const Collective& c) const;
    // "node-07:2364:2364 [3] " (NCCL INFO/WARN header without level).
    void ncclHeader(std::string& o, int tid) const;
    // Full NCCL INFO line start: header + "NCCL INFO ".
    void ncclInfo(std::string& o, int tid) const;
    // "\n[2025-03-01 12:00:05] host:pid:tid [dev] file:line NCCL WARN " (timestamp ≥2.26).
    void ncclWarn(std::string& o, Micros t, int tid, std::string_view file, int line) const;
    // "Exception raised from <site> at …:N (most recent call first):\nframe #0: …\n…"
    void frames(std::string& o, FrameSite site) const;
    // "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp" or "/pytorch/…" (≥2.6 builds).
    std::string sourcePath(std::string_view rel) const;

    const Job& job;
    const RankInfo& info;
    const Host& host;
    int rank;

private:
    void frame(std::string& o, int idx, std::string_view sym, std::uint64_t off, std::uint64_t base,
        std::string_view lib) const;
    std::uint64_t m_libc10 = 0;
    std::uint64_t m_libc10cuda = 0;
    std::uint64_t m_libtorchCuda = 0;
    std::uint64_t m_libstdcxx = 0;
    std::uint64_t m_libc = 0;
    mutable std::uint64_t m_envelopeCalls = 0;
    mutable Micros m_lastEnvelope = -1;
};

// tqdm's default bar: "desc:  12%|█▏        | 120/1000 [02:01<14:50,  1.01s/it, loss=2.45]"
void tqdmBar(std::string& o, std::string_view desc, int n, int total, double elapsedSec,
    double itPerSec, std::string_view postfix);

// Python json.dumps string escaping (ensure_ascii).
void pyJsonString(std::string& o, std::string_view s);

// "2.4531" style helpers for losses.
double lossAt(std::uint64_t seed, int step);

} // namespace rankscope::simulator
