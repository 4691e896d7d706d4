#include "dialect.h"

#include <cmath>

namespace rankscope::simulator {

Dialect::Dialect(const Job& j, int r)
    : job(j)
    , info(j.rankInfo(r))
    , host(j.hostOf(r))
    , rank(r)
{
    Rng rng = Rng::derived(j.seed, "libs", static_cast<std::uint64_t>(r));
    auto base = [&rng]() {
        return 0x7f0000000000ULL
            + (static_cast<std::uint64_t>(rng.uniform(0x100000, 0xfffffff)) << 12);
    };
    m_libc10 = base();
    m_libc10cuda = base();
    m_libtorchCuda = base();
    m_libstdcxx = base();
    m_libc = base();
}

void Dialect::envelope(std::string& o, char sev, Micros t, std::string_view file, int line) const
{
    Text x(o);
    if (job.torch.rankPrefix)
        x << "[rank" << rank << "]:";
    x << '[' << sev;
    if (job.torch.envelopeTime) {
        // Real pastes show a nanosecond fraction that advances with the wall clock
        // ([formats 1.1] warns it comes from a different clock, so parsers must not order by it). Lines
        // written in one burst are tens of microseconds apart.
        Micros shown = t;
        if (t <= m_lastEnvelope && t > m_lastEnvelope - kMilli)
            shown = m_lastEnvelope + 15 + static_cast<Micros>((++m_envelopeCalls * 7919) % 240);
        m_lastEnvelope = shown;
        job.calendar.appendMonthDayTime(o, shown);
        const std::uint64_t sub
            = (++m_envelopeCalls * 7919 + static_cast<std::uint64_t>(rank) * 131) % 1000;
        const std::uint64_t ns = static_cast<std::uint64_t>(shown % kSecond) * 1000 + sub;
        x << '.' << Pad { static_cast<std::int64_t>(ns), 9, '0' };
    }
    x << ' ' << file << ':' << line << "] ";
}

void Dialect::pgPrefix(std::string& o, int pgId, int pgRank) const
{
    Text x(o);
    switch (job.torch.pgStyle) {
    case 0:
        x << "[Rank " << pgRank << "] ";
        break;
    case 1:
        x << "[PG " << pgId << " Rank " << pgRank << "] ";
        break;
    case 2:
        if (pgId == 0)
            x << "[PG 0 (default_pg) Rank " << pgRank << "] ";
        else
            x << "[PG " << pgId << " Rank " << pgRank << "] ";
        break;
    default:
        if (pgId == 0)
            x << "[PG ID 0 PG GUID 0(default_pg) Rank " << pgRank << "] ";
        else
            x << "[PG ID " << pgId << " PG GUID " << pgId << " Rank " << pgRank << "] ";
        break;
    }
}

void Dialect::work(std::string& o, const Collective& c) const
{
    Text x(o);
    x << "WorkNCCL(SeqNum=" << c.seq << ", OpType=" << torchOpName(c.op);
    if (job.torch.numel)
        x << ", NumelIn=" << c.numelIn << ", NumelOut=" << c.numelOut;
    x << ", Timeout(ms)=" << job.timeoutMs << ')';
}

void Dialect::ncclHeader(std::string& o, int tid) const
{
    Text(o) << host.name << ':' << info.pid << ':' << tid << " [" << info.local << "] ";
}

void Dialect::ncclInfo(std::string& o, int tid) const
{
    ncclHeader(o, tid);
    o += "NCCL INFO ";
}

void Dialect::ncclWarn(std::string& o, Micros t, int tid, std::string_view file, int line) const
{
    // WARN lines are preceded by an empty line (debug.cc prepends '\n').
    o += '\n';
    if (job.nccl.warnTimestamp) {
        o += '[';
        job.calendar.appendDateTime(o, t, ' ');
        o += "] ";
    }
    ncclHeader(o, tid);
    Text(o) << file << ':' << line << " NCCL WARN ";
}

std::string Dialect::sourcePath(std::string_view rel) const
{
    return (job.torch.order >= 260 ? "/pytorch/" : "../") + std::string(rel);
}

void Dialect::frame(std::string& o, int idx, std::string_view sym, std::uint64_t off,
    std::uint64_t base, std::string_view lib) const
{
    Text(o) << "frame #" << idx << ": " << sym << " + 0x" << Hex { off } << " (0x"
            << Hex { base + off * 7 + 0x1d000 } << " in " << lib << ")\n";
}

void Dialect::frames(std::string& o, FrameSite site) const
{
    const TorchDialect& t = job.torch;
    const bool conda = job.pythonExe.find("conda") != std::string::npos;
    const std::string lib = job.sitePackages + "/torch/lib/";
    const std::string c10 = lib + "libc10.so";
    const std::string c10cuda = lib + "libc10_cuda.so";
    const std::string tcuda = lib + "libtorch_cuda.so";
    const std::string stdcxx
        = conda ? "/opt/conda/bin/../lib/libstdc++.so.6" : "/lib/x86_64-linux-gnu/libstdc++.so.6";
    const std::string libc
        = conda ? "/usr/lib/x86_64-linux-gnu/libc.so.6" : "/lib/x86_64-linux-gnu/libc.so.6";
    const std::string pthread = "/usr/lib/x86_64-linux-gnu/libpthread.so.0";
    const std::string errorCtor = t.order >= 260
        ? "c10::Error::Error(c10::SourceLocation, std::__cxx11::basic_string<char, "
          "std::char_traits<char>, std::allocator<char> >)"
        : "c10::Error::Error(c10::SourceLocation, std::string)";
    const std::string optional = t.order <= 220 ? "c10::optional" : "std::optional";
    const std::string pgncclCpp = sourcePath("torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp");

    auto tail = [&](int idx) {
        frame(o, idx, "<unknown function>", conda ? 0xd8198 : 0xdc253, m_libstdcxx, stdcxx);
        if (conda) {
            frame(o, idx + 1, "<unknown function>", 0x7ea7, m_libc, pthread);
            frame(o, idx + 2, "clone", 0x3f, m_libc, libc);
        } else {
            frame(o, idx + 1, "<unknown function>", 0x94ac3, m_libc, libc);
            frame(o, idx + 2, "clone", 0x44, m_libc, libc);
        }
    };
    switch (site) {
    case FrameSite::CheckTimeout:
        Text(o) << "Exception raised from checkTimeout at " << pgncclCpp << ':'
                << t.lnCheckTimeoutThrow << " (most recent call first):\n";
        frame(o, 0, errorCtor, t.order >= 260 ? 0x98 : 0x96, m_libc10, c10);
        frame(o, 1,
            "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(" + optional
                + "<std::chrono::duration<long, std::ratio<1l, 1000l> > >)",
            t.order >= 270 ? 0x23d : 0x1d2, m_libtorchCuda, tcuda);
        frame(o, 2, "c10d::ProcessGroupNCCL::" + t.loopFrame + "()", t.order >= 270 ? 0xc80 : 0x233,
            m_libtorchCuda, tcuda);
        frame(o, 3, "c10d::ProcessGroupNCCL::ncclCommWatchdog()", 0x14d, m_libtorchCuda, tcuda);
        tail(4);
        break;
    case FrameSite::CommWatchdog:
        Text(o) << "Exception raised from ncclCommWatchdog at " << pgncclCpp << ':'
                << t.lnWatchdogThrow << " (most recent call first):\n";
        frame(o, 0, errorCtor, t.order >= 260 ? 0x98 : 0x96, m_libc10, c10);
        frame(o, 1, "<unknown function>", t.order >= 270 ? 0x11b4abe : 0xe5aa84, m_libtorchCuda,
            tcuda);
        tail(2);
        break;
    case FrameSite::CudaCheck:
        Text(o) << "Exception raised from c10_cuda_check_implementation at "
                << sourcePath("c10/cuda/CUDAException.cpp") << ':' << (t.order <= 200 ? 44 : 43)
                << " (most recent call first):\n";
        frame(o, 0, errorCtor, t.order >= 260 ? 0x98 : 0x96, m_libc10, c10);
        frame(o, 1,
            "c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string "
            "const&)",
            0x64, m_libc10, c10);
        frame(o, 2,
            "c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool)",
            0x118, m_libc10cuda, c10cuda);
        frame(o, 3, "c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const", 0x56,
            m_libtorchCuda, tcuda);
        frame(o, 4, "c10d::ProcessGroupNCCL::WorkNCCL::isCompleted()", 0xa0, m_libtorchCuda, tcuda);
        frame(o, 5, "c10d::ProcessGroupNCCL::" + t.loopFrame + "()", 0x1da, m_libtorchCuda, tcuda);
        frame(o, 6, "c10d::ProcessGroupNCCL::ncclCommWatchdog()", 0x10c, m_libtorchCuda, tcuda);
        tail(7);
        break;
    case FrameSite::CheckErrors:
        Text(o) << "Exception raised from checkForNCCLErrorsInternal at " << pgncclCpp << ':'
                << t.lnCheckErrorsThrow << " (most recent call first):\n";
        frame(o, 0, errorCtor, t.order >= 260 ? 0x98 : 0x96, m_libc10, c10);
        frame(o, 1,
            "c10d::ProcessGroupNCCL::checkForNCCLErrorsInternal(std::shared_ptr<c10d::NCCLComm>&)",
            0x220, m_libtorchCuda, tcuda);
        frame(o, 2, "c10d::ProcessGroupNCCL::WorkNCCL::checkAndSetException()", 0x7c,
            m_libtorchCuda, tcuda);
        frame(o, 3, "c10d::ProcessGroupNCCL::" + t.loopFrame + "()", 0x213, m_libtorchCuda, tcuda);
        frame(o, 4, "c10d::ProcessGroupNCCL::ncclCommWatchdog()", 0x14d, m_libtorchCuda, tcuda);
        tail(5);
        break;
    case FrameSite::StoreRecv:
        Text(o) << "Exception raised from recvBytes at "
                << sourcePath("torch/csrc/distributed/c10d/Utils.hpp")
                << ":670 (most recent call first):\n";
        frame(o, 0, errorCtor, t.order >= 260 ? 0x98 : 0x96, m_libc10, c10);
        frame(o, 1, "<unknown function>", 0x5b8e1fe, m_libtorchCuda, lib + "libtorch_cpu.so");
        frame(o, 2,
            "c10d::TCPStore::doWait(c10::ArrayRef<std::string>, std::chrono::duration<long, "
            "std::ratio<1l, 1000l> >)",
            0x1a8, m_libtorchCuda, lib + "libtorch_cpu.so");
        frame(o, 3, "c10d::TCPStore::doGet(std::string const&)", 0x32, m_libtorchCuda,
            lib + "libtorch_cpu.so");
        frame(o, 4, "c10d::TCPStore::get(std::string const&)", 0xa1, m_libtorchCuda,
            lib + "libtorch_cpu.so");
        frame(o, 5, "c10d::PrefixStore::get(std::string const&)", 0x32, m_libtorchCuda,
            lib + "libtorch_cpu.so");
        frame(o, 6,
            "c10d::ProcessGroupNCCL::broadcastUniqueNCCLID(ncclUniqueId*, bool, std::string "
            "const&, int)",
            0x2d5, m_libtorchCuda, tcuda);
        frame(o, 7,
            "c10d::ProcessGroupNCCL::getNCCLComm(std::string const&, c10::Device&, c10d::OpType, "
            "int, bool)",
            0x1d8f, m_libtorchCuda, tcuda);
        frame(o, 8, "c10d::ProcessGroupNCCL::barrier(c10d::BarrierOptions const&)", 0x6c0,
            m_libtorchCuda, tcuda);
        frame(o, 9, "<unknown function>", 0x5f3e4c8, m_libtorchCuda, lib + "libtorch_cpu.so");
        frame(o, 10, "<unknown function>", 0xe8b3f6, m_libc10, lib + "libtorch_python.so");
        frame(o, 11, "<unknown function>", 0x4cb474, m_libc10, lib + "libtorch_python.so");
        // The main thread's stack continues into the interpreter (c10 elides those frames).
        o += "<omitting python frames>\n";
        frame(o, 25, "<unknown function>", 0x29d90, m_libc, libc);
        frame(o, 26, "__libc_start_main", 0x80, m_libc, libc);
        break;
    }
}

void tqdmBar(std::string& o, std::string_view desc, int n, int total, double elapsedSec,
    double itPerSec, std::string_view postfix)
{
    static const char* kPartial[] = { "", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
        "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89" };
    Text x(o);
    x << desc << ": ";
    const double frac = total > 0 ? static_cast<double>(n) / total : 0.0;
    const int pct = static_cast<int>(std::lround(frac * 100.0));
    x << Pad { pct, 3 } << "%|";
    const double cells = frac * 10.0;
    int full = static_cast<int>(cells);
    full = std::min(full, 10);
    int used = full;
    for (int i = 0; i < full; ++i)
        x << "\xe2\x96\x88";
    if (full < 10) {
        const int part = static_cast<int>((cells - full) * 8.0);
        if (part > 0) {
            x << kPartial[part];
            ++used;
        }
    }
    for (int i = used; i < 10; ++i)
        x << ' ';
    x << "| " << n << '/' << total << " [";
    auto clock = [&x](double secs) {
        const auto s = static_cast<std::int64_t>(secs);
        if (s >= 3600)
            x << s / 3600 << ':' << Pad { (s / 60) % 60, 2, '0' } << ':' << Pad { s % 60, 2, '0' };
        else
            x << Pad { s / 60, 2, '0' } << ':' << Pad { s % 60, 2, '0' };
    };
    clock(elapsedSec);
    if (n == 0 || itPerSec <= 0.0) {
        x << "<?, ?it/s" << postfix << ']';
        return;
    }
    x << '<';
    clock((total - n) / itPerSec);
    x << ", ";
    std::string rate;
    if (itPerSec >= 1.0)
        Text(rate) << Fixed { itPerSec, 2 } << "it/s";
    else
        Text(rate) << Fixed { 1.0 / itPerSec, 2 } << "s/it";
    // "{:5.2f}": right-aligned in five columns before the unit.
    const std::size_t numLen = rate.size() - 4;
    for (std::size_t i = numLen; i < 5; ++i)
        x << ' ';
    x << rate << postfix << ']';
}

void pyJsonString(std::string& o, std::string_view s)
{
    o += '"';
    for (char c : s) {
        switch (c) {
        case '"':
            o += "\\\"";
            break;
        case '\\':
            o += "\\\\";
            break;
        case '\n':
            o += "\\n";
            break;
        case '\t':
            o += "\\t";
            break;
        case '\r':
            o += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                Text(o) << "\\u" << Hex { static_cast<unsigned char>(c), 4 };
            } else {
                o += c;
            }
        }
    }
    o += '"';
}

double lossAt(std::uint64_t seed, int step)
{
    Rng r = Rng::derived(seed, "loss", static_cast<std::uint64_t>(step));
    return 1.9 + 8.5 * std::exp(-static_cast<double>(step) / 18.0) + r.real(-0.08, 0.08);
}

} // namespace rankscope::simulator
