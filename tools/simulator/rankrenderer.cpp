#include "rankrenderer.h"

#include "dialect.h"
#include "trainscript.h"

#include <algorithm>
#include <cmath>

namespace rankscope::simulator {

namespace {

// Python's "{:.6E}": 3.000000E-04
std::string sci(double v, int decimals, char e)
{
    int exp = 0;
    if (v != 0.0) {
        exp = static_cast<int>(std::floor(std::log10(std::fabs(v))));
        double m = v / std::pow(10.0, exp);
        if (std::fabs(m) >= 10.0 - 0.5 * std::pow(10.0, -decimals)) {
            ++exp;
        }
    }
    const double mant = v / std::pow(10.0, exp);
    std::string s;
    Text(s) << Fixed { mant, decimals } << e << (exp < 0 ? '-' : '+')
            << Pad { std::abs(exp), 2, '0' };
    return s;
}

class Writer {
public:
    Writer(const Job& job, const ScenarioPlan& plan, int rank, RankStream& rs)
        : J(job)
        , P(plan)
        , D(job, rank)
        , r(rank)
        , ri(job.rankInfo(rank))
        , host(job.hostOf(rank))
        , rp(plan.ranks[static_cast<std::size_t>(rank)])
        , rs(rs)
        , rng(Rng::derived(job.seed, "render", static_cast<std::uint64_t>(rank)))
    {
        const NcclDebug lvl = job.options.ncclDebug;
        ncclWarnOn = lvl != NcclDebug::Off;
        ncclInfoOn = lvl == NcclDebug::Info || lvl == NcclDebug::Coll;
        ncclCollOn = lvl == NcclDebug::Coll;
        torchPy = job.sitePackages + "/torch";
        scriptPath = job.scriptDir + "/" + job.script;
    }

    void run();
    std::string traceback() const;
    std::string exceptionLine() const;

private:
    // Pieces, in the order a process writes them.
    void startup();
    void torchInitInfo(Micros t);
    void ncclProcessSetup(Micros t);
    void ncclCommInit(Micros tStart, Micros tComplete, std::uint64_t comm, std::uint64_t commId,
        const std::vector<int>& members, bool world, std::string_view fn);
    void setupPhase();
    void training();
    void collLine(
        Micros t, const Collective& c, std::int64_t opCount, std::uint64_t comm, int nranks);
    void progress(int step, Micros t);
    void straggleLines();
    void aftermath();
    void timeoutLines(Micros t);
    void dumpLines(Micros t, bool local);
    void detectLines(Micros t, std::string_view ncclErrorText);
    void teardownLines(Micros t);
    void terminate(Micros t, const std::string& reason, FrameSite site);
    void heartbeatLines();
    void fatalLines(Micros t);
    void netErrorLines();
    void gpuErrorLines();
    void crashLines();
    void initErrorLines();
    void cleanExitLines();
    void completionLines(Micros end);
    void notDestroyedWarning(Micros t);
    void pythonTraceback(Micros t);
    void serviceThreadLines();

    // Helpers.
    int progressRank() const { return J.framework == Framework::Megatron ? J.world - 1 : 0; }
    std::string lastNcclError() const;
    std::string ncclErrorName(int code) const;
    std::string peerAddress(int peer) const;
    std::string watchdogMessage() const;
    Micros activeUntil() const;
    bool reachedNcclInit() const;
    std::vector<int> tpMembers() const;
    void ncclPyError(std::string& o, const std::string& reason, const std::string& detail,
        const std::string& last) const;

    const Job& J;
    const ScenarioPlan& P;
    Dialect D;
    int r;
    const RankInfo& ri;
    const Host& host;
    const RankPlan& rp;
    RankStream& rs;
    Rng rng;
    bool ncclWarnOn = false;
    bool ncclInfoOn = false;
    bool ncclCollOn = false;
    bool tqdmOpen = false;
    std::string torchPy;
    std::string scriptPath;
};

// ------------------------------------------------------------------------------------
// Helpers

Micros Writer::activeUntil() const
{
    switch (rp.fate) {
    case Fate::NeverEnters:
    case Fate::Silent:
    case Fate::InitMissing:
    case Fate::Frozen:
        return rp.stallAt;
    case Fate::CleanExit:
        return rp.stallAt;
    case Fate::Crashes:
    case Fate::InitError:
        return rp.eventAt >= 0 ? rp.eventAt : rp.logEnd;
    default:
        return rp.logEnd;
    }
}

bool Writer::reachedNcclInit() const
{
    if (rp.fate == Fate::InitMissing || rp.fate == Fate::Frozen)
        return false;
    if (rp.fate == Fate::Crashes && rp.kind == "startup_exception")
        return false;
    if (rp.fate == Fate::InitError && (rp.kind == "store"))
        return false;
    return true;
}

std::vector<int> Writer::tpMembers() const
{
    std::vector<int> m;
    if (J.tpSize <= 0)
        return m;
    const int base = r - (ri.local % J.tpSize);
    for (int i = 0; i < J.tpSize; ++i)
        m.push_back(base + i);
    return m;
}

std::string Writer::peerAddress(int peer) const
{
    const Host& h = J.hostOf(peer);
    std::string s;
    Text(s) << h.ip << '<' << J.rankInfo(peer).netPort << '>';
    return s;
}

std::string Writer::ncclErrorName(int code) const
{
    const bool newStrings = J.nccl.minor >= 18;
    switch (code) {
    case 1:
        return newStrings ? "unhandled cuda error (run with NCCL_DEBUG=INFO for details)"
                          : "unhandled cuda error";
    case 2:
        return newStrings ? "unhandled system error (run with NCCL_DEBUG=INFO for details)"
                          : "unhandled system error";
    case 3:
        return newStrings ? "internal error - please report this issue to the NCCL developers"
                          : "internal error";
    default:
        return "remote process exited or there was a network error";
    }
}

// The WARN text a network failure leaves ([formats 3.7] / [formats 3.8] per NCCL version).
std::string Writer::lastNcclError() const
{
    std::string s;
    Text x(s);
    const int peer = rp.peer;
    if (rp.kind == "closed_by_peer" || rp.kind == "socket_closed") {
        const Host& h = J.hostOf(peer);
        x << "socketProgress: Connection closed by remote peer " << h.fqdn << '<'
          << J.rankInfo(peer).netPort + 1 << '>';
        return s;
    }
    if (rp.kind == "socket") {
        x << "socketProgressOpt: Call to recv from " << peerAddress(peer)
          << " failed : Connection reset by peer";
        return s;
    }
    const int st = rp.errorStatus;
    const int vendor = st == 12 ? 129 : 244;
    const int opcode = st == 12 ? 0 : 32764;
    const int len = st == 12 ? 0 : 32764;
    const char* req = st == 12 ? "Send" : "Recv";
    std::string gids;
    if (J.roce) {
        Text(gids) << " localGid ::ffff:" << J.hostOf(r).ip
                   << " remoteGids::ffff:" << J.hostOf(peer).ip;
    }
    const int nicIdx = ri.nic;
    switch (J.nccl.ibErrorStyle) {
    case 0:
        x << "NET/IB : Got completion from peer " << peerAddress(peer) << " with error " << st
          << ", opcode " << opcode << ", len " << len << ", vendor err " << vendor;
        break;
    case 1:
        x << "NET/IB : Got completion from peer " << peerAddress(peer) << " with error " << st
          << ", opcode " << opcode << ", len " << len << ", vendor err " << vendor << " (" << req
          << ")" << gids;
        break;
    case 2:
        x << "NET/IB : Got completion from peer " << peerAddress(peer) << " with status=" << st
          << " opcode=" << opcode << " len=" << len << " vendor err " << vendor << " (" << req
          << ")" << gids;
        break;
    case 3:
        x << "NET/IB: Got completion from peer " << peerAddress(peer) << " with status=" << st
          << " opcode=" << opcode << " len=" << len << " vendor err " << vendor << " (" << req
          << ")" << gids << " hca mlx5_" << nicIdx;
        break;
    default:
        x << "NET/IB: Got completion from peer " << peerAddress(peer)
          << " with status=" << (st == 12 ? "IBV_WC_RETRY_EXC_ERR" : "IBV_WC_WR_FLUSH_ERR") << '('
          << st << ") opcode=" << (st == 12 ? "IBV_WC_SEND" : "IBV_WC_RECV") << '('
          << (st == 12 ? 0 : 128) << ") vendor_err=" << vendor << ' ' << gids << " hca mlx5_"
          << nicIdx;
        break;
    }
    return s;
}

std::string Writer::watchdogMessage() const
{
    std::string s;
    Text(s) << "[Rank " << r << "] Watchdog caught collective operation timeout: ";
    D.work(s, rp.work);
    Text(s) << " ran for " << (rp.timeoutAt - rp.enqueueAt) / kMilli
            << " milliseconds before timing out.";
    return s;
}

// ------------------------------------------------------------------------------------
// Startup

void Writer::startup()
{
    const Micros t0 = ri.procStart;
    const Noise noise = J.options.noise;
    const Micros stop = activeUntil();
    auto warnLine = [&](Micros t, const std::string& text) {
        if (t > stop)
            return;
        LineOut l(rs, t, Stream::Err);
        l << text;
    };
    const std::string& sp = J.sitePackages;
    Micros t = t0 + rng.uniform(1500, 4000) * kMilli;
    if (noise != Noise::Low) {
        if (J.framework == Framework::DeepSpeed) {
            LineOut l(rs, t, Stream::Out);
            l << '[';
            J.calendar.appendDateTime(l.str(), t, ' ');
            l << ',' << Pad { (t / kMilli) % 1000, 3, '0' }
              << "] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to "
                 "cuda (auto detect)\n";
        }
        if (J.torch.order >= 240)
            warnLine(t + 300 * kMilli,
                scriptPath + ":" + std::to_string(233)
                    + ": FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please "
                      "use `torch.amp.GradScaler('cuda', args...)` instead.\n  scaler = "
                      "torch.cuda.amp.GradScaler()\n");
        else if (J.torch.order >= 200)
            warnLine(t + 300 * kMilli,
                sp
                    + "/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be "
                      "removed in the future and UntypedStorage will be the only storage class. "
                      "This should only matter to you if you are using storages directly.  To "
                      "access UntypedStorage directly, use tensor.untyped_storage() instead of "
                      "tensor.storage()\n  return self.fget.__get__(instance, owner)()\n");
        if (noise == Noise::High || rng.chance(0.5))
            warnLine(t + 420 * kMilli,
                sp
                    + "/torch/utils/data/dataloader.py:557: UserWarning: This DataLoader will "
                      "create 16 worker processes in total. Our suggested max number of worker in "
                      "current system is 12, which is smaller than what this DataLoader is going "
                      "to create. Please be aware that excessive worker creation might get "
                      "DataLoader running slow or even freeze, lower the worker number to avoid "
                      "potential slowness/freeze if necessary.\n  "
                      "warnings.warn(_create_warning_msg(\n");
        if (noise == Noise::High && J.framework == Framework::DeepSpeed)
            warnLine(t + 500 * kMilli,
                sp
                    + "/transformers/tokenization_utils_base.py:1601: FutureWarning: "
                      "`clean_up_tokenization_spaces` was not set. It will be set to `True` by "
                      "default. This behavior will be depracted in transformers v4.45, and will be "
                      "then set to `False` by default. For more details check this issue: "
                      "https://github.com/huggingface/transformers/issues/31884\n  "
                      "warnings.warn(\n");
    }
    const Micros pgInit = t0 + rng.uniform(6000, 9000) * kMilli;
    if (pgInit <= stop) {
        switch (J.framework) {
        case Framework::Plain: {
            LineOut l(rs, pgInit - 5 * kMilli, Stream::Out);
            l << "| distributed init (rank " << r << "): env://, gpu " << ri.local << '\n';
            break;
        }
        case Framework::DeepSpeed: {
            LineOut l(rs, pgInit - 5 * kMilli, Stream::Out);
            l << '[';
            J.calendar.appendDateTime(l.str(), pgInit, ' ');
            l << ',' << Pad { (pgInit / kMilli) % 1000, 3, '0' }
              << "] [INFO] [comm.py:652:init_distributed] cdb=None\n";
            if (r == 0) {
                l << '[';
                J.calendar.appendDateTime(l.str(), pgInit, ' ');
                l << ',' << Pad { (pgInit / kMilli) % 1000 + 1, 3, '0' }
                  << "] [INFO] [comm.py:683:init_distributed] Initializing TorchBackend in "
                     "DeepSpeed with backend nccl\n";
            }
            break;
        }
        case Framework::Megatron:
            if (r == 0) {
                LineOut l(rs, pgInit - 5 * kMilli, Stream::Out);
                l << "> initializing torch distributed ...\n";
            }
            break;
        }
        if (J.torchInfoLogs)
            torchInitInfo(pgInit);
    }
    if (rp.fate == Fate::InitMissing) {
        LineOut l(rs, rp.stallAt - 200 * kMilli, Stream::Out);
        l << "Rank " << r
          << ": loading tokenizer and dataset index from /mnt/shared/datasets/pile-dedup/ ...\n";
    }
    if (rp.fate == Fate::Frozen) {
        LineOut l(rs, rp.stallAt - 300 * kMilli, Stream::Out);
        if (rp.kind == "cuda_hang")
            l << "[rank " << r << "] enabling peer access between local GPUs for the model's "
                                  "pipeline stages ...\n";
        else
            l << "[rank " << r
              << "] starting background prefetch thread for /mnt/nfs/datasets/redpajama/shards "
                 "...\n";
    }
    if (rp.fate == Fate::Crashes && rp.kind == "startup_exception")
        return;
    // Rank-0 banners.
    if (r == 0 && J.options.noise != Noise::Low && pgInit + 2 * kSecond <= stop) {
        LineOut l(rs, pgInit + 2 * kSecond, Stream::Out);
        if (J.framework == Framework::Megatron) {
            l << "> initialized tensor model parallel with size " << std::max(1, J.tpSize) << '\n';
            l << "> initialized pipeline model parallel with size 1\n";
            l << "> setting random seeds to 1234 ...\n";
            l << "building GPT model ...\n";
        } else {
            l << "Loaded config " << J.scriptArgs.substr(J.scriptArgs.rfind(' ') + 1) << '\n';
            l << "World size: " << J.world << ", nodes: " << J.nodes
              << ", gpus per node: " << J.perNode << '\n';
        }
    }
}

void Writer::torchInitInfo(Micros t)
{
    const TorchDialect& T = J.torch;
    LineOut l(rs, t, Stream::Err);
    if (T.order <= 200) {
        D.envelope(l.str(), 'I', t, "ProcessGroupNCCL.cpp", T.lnInitOptions);
        l << "[Rank " << r
          << "] ProcessGroupNCCL initialization options:NCCL_ASYNC_ERROR_HANDLING: 1, "
             "NCCL_DESYNC_DEBUG: 0, NCCL_ENABLE_TIMING: 0, NCCL_BLOCKING_WAIT: 0, TIMEOUT(ms): "
          << J.timeoutMs
          << ", USE_HIGH_PRIORITY_STREAM: 0, TORCH_DISTRIBUTED_DEBUG: OFF, NCCL_DEBUG: "
          << (J.options.ncclDebug == NcclDebug::Off
                     ? "OFF"
                     : (J.options.ncclDebug == NcclDebug::Warn ? "WARN" : "INFO"))
          << ", ID=" << (94000000000000ULL + ri.commPtr % 1000000000ULL) << '\n';
        D.envelope(l.str(), 'I', t + 2 * kMilli, "ProcessGroupNCCL.cpp", T.lnCreatedComm);
        l << "[Rank " << r << "] NCCL watchdog thread started!\n";
        return;
    }
    D.envelope(l.str(), 'I', t, "ProcessGroupNCCL.cpp", T.lnInitOptions);
    D.pgPrefix(l.str(), 0, r);
    if (T.order == 220) {
        l << "ProcessGroupNCCL initialization options: NCCL version: " << J.nccl.version
          << ", size: " << J.world << ", global rank: " << r
          << ", TORCH_NCCL_ASYNC_ERROR_HANDLING: 3, TORCH_NCCL_DUMP_ON_TIMEOUT: 0, "
             "TORCH_NCCL_DESYNC_DEBUG: 0, TORCH_NCCL_ENABLE_TIMING: "
          << (J.ncclTiming ? 1 : 0) << ", TORCH_NCCL_BLOCKING_WAIT: 0, TIMEOUT(ms): "
          << J.timeoutMs
          << ", USE_HIGH_PRIORITY_STREAM: 0, TORCH_DISTRIBUTED_DEBUG: OFF, "
             "TORCH_NCCL_ENABLE_MONITORING: 1, TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC: "
          << J.heartbeatSec
          << ", TORCH_NCCL_TRACE_BUFFER_SIZE: " << (J.flightRecorder ? J.frBufferSize : 0)
          << ", TORCH_NCCL_COORD_CHECK_MILSEC: 1000, ID="
          << (94000000000000ULL + ri.commPtr % 1000000000ULL) << '\n';
        return;
    }
    l << "ProcessGroupNCCL initialization options: size: " << J.world << ", global rank: " << r
      << ", TIMEOUT(ms): " << J.timeoutMs
      << ", USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0\n";
    D.envelope(l.str(), 'I', t + kMilli, "ProcessGroupNCCL.cpp", T.lnEnvironments);
    D.pgPrefix(l.str(), 0, r);
    l << "ProcessGroupNCCL environments: NCCL version: " << J.nccl.version
      << ", TORCH_NCCL_ASYNC_ERROR_HANDLING: 3, TORCH_NCCL_DUMP_ON_TIMEOUT: "
      << (P.dumpOnTimeout ? 1 : 0)
      << ", TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC: " << (T.order >= 260 ? 15000 : 60000)
      << ", TORCH_NCCL_DESYNC_DEBUG: 0, TORCH_NCCL_ENABLE_TIMING: " << (J.ncclTiming ? 1 : 0)
      << ", TORCH_NCCL_BLOCKING_WAIT: 0, "
         "TORCH_DISTRIBUTED_DEBUG: "
      << (P.detailFingerprint ? "DETAIL" : "OFF")
      << ", TORCH_NCCL_ENABLE_MONITORING: 1, TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC: " << J.heartbeatSec
      << ", TORCH_NCCL_TRACE_BUFFER_SIZE: " << (J.flightRecorder ? J.frBufferSize : 0)
      << ", TORCH_NCCL_COORD_CHECK_MILSEC: 1000, TORCH_NCCL_NAN_CHECK: 0, "
         "TORCH_NCCL_CUDA_EVENT_CACHE: "
      << (T.order >= 260 ? 1 : 0) << ", TORCH_NCCL_LOG_CPP_STACK_ON_UNCLEAN_SHUTDOWN: 1\n";
}

// ------------------------------------------------------------------------------------
// NCCL init

void Writer::ncclProcessSetup(Micros t)
{
    const NcclDialect& N = J.nccl;
    const int tid = ri.pid;
    auto info = [&](Micros at, auto&& body) {
        LineOut l(rs, at, Stream::Out);
        D.ncclInfo(l.str(), tid);
        body(l);
        l << '\n';
    };
    Micros at = t;
    auto step = [&at]() { return at += 137; };
    const bool socket = P.socketTransport;
    const std::string ifname = P.dockerIfname ? "docker0" : J.ifname;
    for (const std::string& e : J.ncclEnv) {
        if (e.rfind("NCCL_SOCKET_IFNAME=", 0) == 0) {
            const std::string value = P.badIfname.empty() ? e.substr(19) : P.badIfname;
            info(step(),
                [&](LineOut& l) { l << "NCCL_SOCKET_IFNAME set by environment to " << value; });
        }
    }
    if (!P.badIfname.empty()
        && std::none_of(J.ncclEnv.begin(), J.ncclEnv.end(),
            [](const std::string& e) { return e.rfind("NCCL_SOCKET_IFNAME=", 0) == 0; }))
        info(step(),
            [&](LineOut& l) { l << "NCCL_SOCKET_IFNAME set by environment to " << P.badIfname; });
    if (!P.badIfname.empty())
        return; // bootstrap fails next (initErrorLines)
    info(step(),
        [&](LineOut& l) { l << "Bootstrap : Using " << ifname << ':' << host.ip << "<0>"; });
    if (N.minor <= 18)
        info(step(), [&](LineOut& l) {
            l << "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation";
        });
    else if (N.minor <= 21)
        info(step(), [&](LineOut& l) {
            l << "NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such "
                 "file or directory No plugin found (libnccl-net.so), using internal "
                 "implementation";
        });
    else
        info(step(), [&](LineOut& l) {
            l << "NET/Plugin: Could not find: libnccl-net.so. Using internal net plugin.";
        });
    info(step(), [&](LineOut& l) { l << "cudaDriverVersion " << (N.minor >= 26 ? 12080 : 12040); });
    if (N.bannerPerProcess)
        info(step(), [&](LineOut& l) { l << "NCCL version " << N.full; });
    else if (r == 0) {
        LineOut l(rs, step(), Stream::Out);
        l << "NCCL version " << N.full << '\n';
    }
    const int itid = ri.initTid;
    auto info2 = [&](Micros a, auto&& body) {
        LineOut l(rs, a, Stream::Out);
        D.ncclInfo(l.str(), itid);
        body(l);
        l << '\n';
    };
    for (const std::string& e : J.ncclEnv) {
        if (e.rfind("NCCL_SOCKET_IFNAME=", 0) == 0)
            continue;
        const auto eq = e.find('=');
        const std::string key = e.substr(0, eq);
        const std::string value = e.substr(eq + 1);
        const bool text = key == "NCCL_IB_HCA" || key == "NCCL_ALGO" || key == "NCCL_PROTO";
        if (key == "NCCL_ALGO" || key == "NCCL_PROTO")
            continue; // echoed by the tuning step of comm init
        info2(step(), [&](LineOut& l) {
            l << key << " set by environment to " << value << (text ? "" : ".");
        });
    }
    if (socket) {
        info2(step(), [&](LineOut& l) { l << "NET/IB : No device found."; });
        info2(step(), [&](LineOut& l) {
            l << "NET/Socket : Using [0]" << ifname << ':' << host.ip << "<0>";
        });
        if (N.minor >= 19)
            info2(step(), [&](LineOut& l) { l << "Using non-device net plugin version 0"; });
        info2(step(), [&](LineOut& l) { l << "Using network Socket"; });
        return;
    }
    info2(step(), [&](LineOut& l) {
        l << "NET/IB : Using";
        for (int i = 0; i < J.nicsPerNode; ++i)
            l << " [" << i << "]mlx5_" << i << ":1/" << (J.roce ? "RoCE" : "IB");
        l << " [RO]; OOB " << ifname << ':' << host.ip << "<0>";
    });
    if (N.minor >= 19)
        info2(step(), [&](LineOut& l) { l << "Using non-device net plugin version 0"; });
    info2(step(), [&](LineOut& l) { l << "Using network IB"; });
}

void Writer::ncclCommInit(Micros tStart, Micros tComplete, std::uint64_t comm, std::uint64_t commId,
    const std::vector<int>& members, bool world, std::string_view fn)
{
    const NcclDialect& N = J.nccl;
    const int tid = ri.initTid;
    const int n = static_cast<int>(members.size());
    const int me = static_cast<int>(std::find(members.begin(), members.end(), r) - members.begin());
    Micros at = tStart;
    auto step = [&at]() { return at += 211; };
    auto info = [&](Micros a, auto&& body) {
        LineOut l(rs, a, Stream::Out);
        D.ncclInfo(l.str(), tid);
        body(l);
        l << '\n';
    };
    auto initLine = [&](LineOut& l, std::string_view phase) {
        if (N.initStyle == 3)
            l << "[Rank " << me << "] ";
        if (N.initStyle >= 2)
            l << fn << ' ';
        l << "comm 0x" << Hex { comm } << " rank " << me << " nranks " << n << " cudaDev "
          << ri.local;
        if (N.initStyle >= 1)
            l << " nvmlDev " << ri.local;
        l << " busId " << Hex { ri.busId } << " commId 0x" << Hex { commId } << " - Init " << phase;
    };
    if (N.initStyle >= 1)
        info(step(), [&](LineOut& l) { initLine(l, "START"); });
    if (N.bootstrapTimings)
        info(step(), [&](LineOut& l) {
            l << "Bootstrap timings total "
              << Fixed { static_cast<double>(
                             tComplete > 0 ? std::min<Micros>(tComplete - tStart, 3 * kSecond) : 0)
                         / 2e6,
                     6 }
              << " (create 0.000031, send 0.000254, recv "
              << Fixed { static_cast<double>(
                             tComplete > 0 ? std::min<Micros>(tComplete - tStart, 3 * kSecond) : 0)
                         / 2.2e6,
                     6 }
              << ", ring 0.000861, delay 0.000000)";
        });
    if (tComplete < 0)
        return;
    // Everything below happens once all ranks are bootstrapped.
    at = std::max(at, tComplete - 160 * kMilli);
    const int nodesInComm = world ? J.nodes : 1;
    const int localRanks = world ? J.ranksOn(ri.node) : n;
    info(step(), [&](LineOut& l) {
        l << "Setting affinity for GPU " << ri.local << " to "
          << (ri.local < std::max(1, J.perNode / 2)
                     ? "ffffff,ffffffff,00000000,00ffffff,ffffffff"
                     : "ffffffff,ffff0000,00000000,ffffffff,ff000000");
    });
    if (N.mnnvl)
        info(step(), [&](LineOut& l) {
            l << "comm 0x" << Hex { comm } << " rank " << me << " nRanks " << n << " nNodes "
              << nodesInComm << " localRanks " << localRanks << " localRank "
              << (world ? ri.local : me) << " MNNVL 0";
        });
    const int channels = J.channels;
    // Ring order within this communicator (comm ranks).
    auto commRingNext = [&](int commRank, int c) {
        if (world)
            return J.ringNext(members[static_cast<std::size_t>(commRank)], c);
        return members[static_cast<std::size_t>((commRank + (c % 2 == 0 ? 1 : n - 1)) % n)];
    };
    auto commRingPrev = [&](int commRank, int c) {
        if (world)
            return J.ringPrev(members[static_cast<std::size_t>(commRank)], c);
        return members[static_cast<std::size_t>((commRank + (c % 2 == 0 ? n - 1 : 1)) % n)];
    };
    auto commRankOf = [&](int global) {
        return static_cast<int>(
            std::find(members.begin(), members.end(), global) - members.begin());
    };
    if (me == 0) {
        for (int c = 0; c < channels; ++c) {
            std::string prefix;
            Text(prefix) << "Channel " << Pad { c, 2, '0' } << '/' << Pad { channels, 2, '0' }
                         << " : ";
            std::string lineText = prefix;
            std::vector<int> order;
            if (world) {
                order = J.ring(c);
            } else {
                int cur = members[0];
                for (int i = 0; i < n; ++i) {
                    order.push_back(cur);
                    cur = commRingNext(commRankOf(cur), c);
                }
            }
            for (int g : order) {
                Text(lineText) << ' ' << Pad { commRankOf(g), 3 };
                if (lineText.size() >= 127)
                    break;
            }
            // dumpLine formats into a 128-byte buffer: long rings are cut.
            if (lineText.size() > 127)
                lineText.resize(127);
            info(step(), [&](LineOut& l) { l << lineText; });
        }
    }
    // Trees: intra-node chain, node leaders in a binary tree.
    info(step(), [&](LineOut& l) {
        l << "Trees";
        for (int c = 0; c < channels; ++c) {
            int down0 = -1, down1 = -1, down2 = -1, up = -1;
            if (world) {
                const int node = ri.node;
                const int cnt = J.ranksOn(node);
                if (ri.local + 1 < cnt)
                    down0 = r + 1;
                if (ri.local > 0) {
                    up = r - 1;
                } else {
                    const int c1 = 2 * node + 1, c2 = 2 * node + 2;
                    if (c1 < J.nodes)
                        down1 = J.firstRankOf(c1);
                    if (c2 < J.nodes)
                        down2 = J.firstRankOf(c2);
                    if (node > 0)
                        up = J.firstRankOf((node - 1) / 2);
                }
                if (c % 2 == 1 && down1 >= 0 && down2 >= 0)
                    std::swap(down1, down2);
            } else {
                down0 = me + 1 < n ? me + 1 : -1;
                up = me > 0 ? me - 1 : -1;
            }
            l << " [" << c << "] " << down0 << '/' << down1 << '/' << down2 << "->" << me << "->"
              << up;
        }
    });
    info(step(),
        [&](LineOut& l) { l << "P2P Chunksize set to " << (N.minor >= 19 ? 131072 : 524288); });
    // Per-rank ring neighbours (GRAPH) and connections.
    for (int c = 0; c < channels; ++c) {
        const int prev = commRingPrev(me, c);
        const int next = commRingNext(me, c);
        info(step(), [&](LineOut& l) {
            l << "Ring " << Pad { c, 2, '0' } << " : " << commRankOf(prev) << " -> " << me << " -> "
              << commRankOf(next);
        });
    }
    auto dev = [&](LineOut& l, int global) {
        if (N.connByNvmlDev)
            l << '[' << J.rankInfo(global).local << ']';
        else
            l << '[' << Hex { J.rankInfo(global).busId } << ']';
    };
    const bool shmHost = P.shmNode == ri.node;
    for (int c = 0; c < channels; ++c) {
        const int prev = commRingPrev(me, c);
        const int next = commRingNext(me, c);
        const bool prevRemote = J.rankInfo(prev).node != ri.node;
        const bool nextRemote = J.rankInfo(next).node != ri.node;
        const std::string net
            = P.socketTransport ? "NET/Socket/0" : "NET/IB/" + std::to_string(ri.nic) + "/GDRDMA";
        if (prevRemote)
            info(step(), [&](LineOut& l) {
                l << "Channel " << Pad { c, 2, '0' } << "/0 : " << commRankOf(prev);
                dev(l, prev);
                l << " -> " << me;
                dev(l, r);
                l << " [receive] via " << net;
            });
        if (nextRemote)
            info(step(), [&](LineOut& l) {
                l << "Channel " << Pad { c, 2, '0' } << "/0 : " << me;
                dev(l, r);
                l << " -> " << commRankOf(next);
                dev(l, next);
                l << " [send] via " << net;
            });
        else if (next != r)
            info(step(), [&](LineOut& l) {
                l << "Channel " << Pad { c, 2, '0' } << "/0 : " << me;
                dev(l, r);
                l << " -> " << commRankOf(next);
                dev(l, next);
                l << " via "
                  << (shmHost ? "SHM/direct/direct"
                              : (N.minor >= 19 ? "P2P/CUMEM/read" : "P2P/IPC/read"));
            });
    }
    info(step(), [&](LineOut& l) { l << "Connected all rings"; });
    info(step(), [&](LineOut& l) { l << "Connected all trees"; });
    for (const std::string& e : J.ncclEnv) {
        if (e.rfind("NCCL_ALGO=", 0) == 0 || e.rfind("NCCL_PROTO=", 0) == 0) {
            const auto eq = e.find('=');
            info(step(), [&](LineOut& l) {
                l << e.substr(0, eq) << " set by environment to " << e.substr(eq + 1);
            });
        }
    }
    info(step(),
        [&](LineOut& l) { l << "threadThresholds 8/8/64 | " << 8 * n << "/8/64 | 512 | 512"; });
    info(step(), [&](LineOut& l) {
        if (N.minor >= 18)
            l << channels << " coll channels, 0 collnet channels, 0 nvls channels, " << channels
              << " p2p channels, " << std::max(1, channels / 2) << " p2p channels per peer";
        else
            l << channels << " coll channels, 0 nvls channels, " << channels << " p2p channels, "
              << std::max(1, channels / 2) << " p2p channels per peer";
    });
    at = std::max(at, tComplete);
    info(step(), [&](LineOut& l) {
        if (N.initStyle == 0) {
            l << "comm 0x" << Hex { comm } << " rank " << me << " nranks " << n << " cudaDev "
              << ri.local << " busId " << Hex { ri.busId } << " commId 0x" << Hex { commId }
              << " - Init COMPLETE";
        } else {
            initLine(l, "COMPLETE");
        }
    });
    if (N.initTimings)
        info(step(), [&](LineOut& l) {
            const double total = static_cast<double>(tComplete - tStart) / 1e6;
            l << "Init timings - " << fn << ": rank " << me << " nranks " << n << " total "
              << Fixed { total, 2 } << " (kernels 0.16, alloc 0.02, bootstrap "
              << Fixed { std::max(0.0, total - 0.81), 2 }
              << ", allgathers 0.01, topo 0.37, graphs 0.02, connections 0.21, rest 0.02)";
        });
}

// ------------------------------------------------------------------------------------
// Setup and training

void Writer::collLine(
    Micros t, const Collective& c, std::int64_t opCount, std::uint64_t comm, int nranks)
{
    LineOut l(rs, t, Stream::Out);
    D.ncclInfo(l.str(), ri.pid);
    std::uint64_t count = c.numelIn;
    if (c.op == Op::ReduceScatterBase)
        count = c.numelOut;
    const std::uint64_t slot = static_cast<std::uint64_t>(opCount % 48);
    const std::uint64_t recv
        = ri.bufBase + slot * 0x2000000ULL + (c.pg == 1 ? 0x40000000000ULL : 0);
    const int elem = c.dtype == 9 ? 2 : 4;
    std::uint64_t send = recv;
    if (c.op == Op::AllGatherBase)
        send = recv
            + static_cast<std::uint64_t>(r % nranks) * count * static_cast<std::uint64_t>(elem);
    l << ncclOpName(c.op) << ": opCount " << Hex { static_cast<std::uint64_t>(opCount) }
      << " sendbuff 0x" << Hex { send } << " recvbuff 0x"
      << Hex { c.op == Op::ReduceScatterBase ? recv + 0x1000000ULL : recv } << " count " << count
      << " datatype " << c.dtype << " op 0 root 0 comm 0x" << Hex { comm } << " [nranks=" << nranks
      << "] stream 0x" << Hex { ri.streamPtr + (c.pg == 1 ? 0x2a0 : 0) } << '\n';
}

void Writer::setupPhase()
{
    const Micros stop = activeUntil();
    const TorchDialect& T = J.torch;
    if (!reachedNcclInit())
        return;
    const bool initError = rp.fate == Fate::InitError
        && (rp.kind == "shm" || rp.kind == "socket_timeout" || rp.kind == "ifname");
    const Micros barrierAt = J.setupAt + J.rankJitter(r, 0);
    if (barrierAt > stop && !initError)
        return;
    // dist.barrier() before the device is known (≥2.2 wording from real pastes).
    if (J.options.noise != Noise::Low || T.order >= 240) {
        LineOut l(rs, barrierAt, Stream::Err);
        if (T.order <= 200) {
            D.envelope(l.str(), 'W', barrierAt, "ProcessGroupNCCL.cpp", 2903);
            l << "Rank " << r << " using best-guess GPU " << ri.local
              << " to perform barrier as devices used by this process are currently unknown. This "
                 "can potentially cause a hang if this rank to GPU mapping is incorrect.Specify "
                 "device_ids in barrier() to force use of a particular device.\n";
        } else {
            D.envelope(l.str(), 'W', barrierAt, "ProcessGroupNCCL.cpp", T.lnBarrierWarn);
            D.pgPrefix(l.str(), 0, r);
            l << " using GPU " << ri.local
              << " to perform barrier as devices used by this process are currently unknown. This "
                 "can potentially cause a hang if this rank to GPU mapping is incorrect.Specify "
                 "device_ids in barrier() to force use of a particular device,or call "
                 "init_process_group() with a device_id.\n";
        }
    }
    const Micros initStart = barrierAt + rng.uniform(2, 40) * kMilli;
    // All ranks bootstrap together: COMPLETE follows the slowest START.
    Micros slowest = 0;
    for (int q = 0; q < J.world; q += std::max(1, J.world / 64))
        slowest = std::max(slowest, J.setupAt + J.rankJitter(q, 0));
    slowest = std::max(slowest, J.setupAt + 90 * kMilli);
    Micros complete = slowest + 600 * kMilli
        + static_cast<Micros>(Rng::derived(J.seed, "complete").uniform(100, 1800)) * kMilli
        + rng.uniform(0, 40) * kMilli;
    if ((rp.fate == Fate::InitWait && P.newPgId < 0) || initError)
        complete = -1;
    std::vector<int> all(static_cast<std::size_t>(J.world));
    for (int i = 0; i < J.world; ++i)
        all[static_cast<std::size_t>(i)] = i;
    if (ncclInfoOn) {
        ncclProcessSetup(initStart);
        if (P.badIfname.empty())
            ncclCommInit(initStart + 3 * kMilli, complete, ri.commPtr, J.worldCommId, all, true,
                "ncclCommInitRank");
    } else if (ncclWarnOn && r == 0 && !J.nccl.bannerPerProcess) {
        LineOut l(rs, initStart, Stream::Out);
        l << "NCCL version " << J.nccl.full << '\n';
    } else if (ncclWarnOn && J.nccl.bannerPerProcess) {
        LineOut l(rs, initStart, Stream::Out);
        l << "NCCL version " << J.nccl.full << '\n';
    }
    if (P.harmlessWarn && ncclWarnOn && ri.local == 0) {
        LineOut l(rs, initStart + 40 * kMilli, Stream::Out);
        D.ncclWarn(l.str(), initStart + 40 * kMilli, ri.initTid, "transport/p2p.cc", 275);
        l << "Missing \"iommu=pt\" from kernel command line which can lead to system instablity or "
             "hang!\n";
    }
    if (initError || complete < 0)
        return;
    if (J.torchInfoLogs && T.order >= 220) {
        LineOut l(rs, complete + 2 * kMilli, Stream::Err);
        D.envelope(l.str(), 'I', complete + 2 * kMilli, "ProcessGroupNCCL.cpp", T.lnCreatedComm);
        D.pgPrefix(l.str(), 0, r);
        l << "ProcessGroupNCCL created ncclComm_ 0x" << Hex { ri.commPtr } << " on CUDA device: ";
        if (T.order == 240)
            l << static_cast<char>(ri.local); // int8 device index streamed as a raw byte
        else
            l << ri.local;
        l << '\n';
    }
}

void Writer::progress(int step, Micros t)
{
    const double loss = lossAt(J.seed, step);
    const double stepSec = static_cast<double>(J.stepDuration) / 1e6;
    const int total = J.steps;
    const bool tqdm = (J.framework != Framework::Megatron) && (r == 0 || J.tqdmAllRanks);
    if (tqdm) {
        LineOut l(rs, t + 3 * kMilli, Stream::Err);
        l << '\r';
        std::string post;
        Text(post) << ", loss=" << Fixed { loss, 2 };
        tqdmBar(l.str(), J.framework == Framework::DeepSpeed ? "Training" : "Epoch 0", step, total,
            static_cast<double>(t - J.trainStart) / 1e6, 1.0 / stepSec, post);
        tqdmOpen = true;
        if (step == total) {
            l << '\n';
            tqdmOpen = false;
        }
    }
    const int interval
        = J.options.noise == Noise::High ? 1 : (J.options.noise == Noise::Low ? 10 : 5);
    if (r != progressRank() || (step % interval != 0 && step != total))
        return;
    LineOut l(rs, t, Stream::Out);
    const double lr = 3e-4 * std::min(1.0, step / 10.0);
    switch (J.framework) {
    case Framework::Plain:
        l << "step " << step << '/' << total << " | loss " << Fixed { loss, 4 } << " | lr "
          << Fixed { lr * 1e4, 2 } << "e-04 | grad_norm "
          << Fixed { 0.6 + 0.4 * std::fmod(loss, 1.0), 3 } << " | "
          << static_cast<int>(41000 + 900 * std::sin(step)) << " tok/s\n";
        break;
    case Framework::Megatron: {
        l << " [";
        J.calendar.appendDateTime(l.str(), t, ' ');
        l << "] iteration " << Pad { step, 8 } << '/' << Pad { total, 8 }
          << " | consumed samples: " << Pad { step * 512LL, 12 }
          << " | elapsed time per iteration (ms): "
          << Fixed { stepSec * 1000.0 * (1.0 + 0.01 * std::sin(step)), 1 }
          << " | learning rate: " << sci(lr, 6, 'E') << " | global batch size: " << Pad { 512, 5 }
          << " | lm loss: " << sci(loss, 6, 'E')
          << " | loss scale: 1.0 | grad norm: " << Fixed { 0.6 + 0.4 * std::fmod(loss, 1.0), 3 }
          << " | number of skipped iterations: " << Pad { 0, 3 }
          << " | number of nan iterations: " << Pad { 0, 3 } << " |\n";
        break;
    }
    case Framework::DeepSpeed: {
        l << '[';
        J.calendar.appendDateTime(l.str(), t, ' ');
        l << ',' << Pad { (t / kMilli) % 1000, 3, '0' }
          << "] [INFO] [logging.py:128:log_dist] [Rank 0] step=" << step << ", skipped=0, lr=["
          << Fixed { lr, 8 } << "], mom=[(0.9, 0.95)]\n";
        l << '[';
        J.calendar.appendDateTime(l.str(), t, ' ');
        l << ',' << Pad { (t / kMilli + 1) % 1000, 3, '0' }
          << "] [INFO] [timer.py:264:stop] epoch=0/micro_step=" << step << "/global_step=" << step
          << ", RunningAvgSamplesPerSec=" << Fixed { 60.0 / stepSec, 2 }
          << ", CurrSamplesPerSec=" << Fixed { 59.5 / stepSec, 2 }
          << ", MemAllocated=13.08GB, MaxMemAllocated=21.62GB\n";
        l << "{'loss': " << Fixed { loss, 4 }
          << ", 'grad_norm': " << Fixed { 0.6 + 0.4 * std::fmod(loss, 1.0), 4 }
          << ", 'learning_rate': " << sci(lr, 4, 'e')
          << ", 'epoch': " << Fixed { static_cast<double>(step) / total, 2 } << "}\n";
        break;
    }
    }
}

void Writer::training()
{
    const Micros stop = activeUntil();
    if (!reachedNcclInit() || rp.fate == Fate::InitWait || rp.fate == Fate::InitError) {
        // A resource_exhaustion InitWait/InitError rank trained normally before the sub-group.
        if (!(P.newPgId > 0 && (rp.fate == Fate::InitWait || rp.fate == Fate::InitError)))
            return;
    }
    const int nOps = static_cast<int>(J.program.size());
    const int stopOp = rp.stopOp < 0 ? nOps : rp.stopOp;
    // Collective enqueues (COLL lines) and the tensor-parallel group.
    if (ncclCollOn) {
        std::int64_t opCount = 0;
        for (int i = 0; i < stopOp; ++i) {
            if (i == rp.skipOp)
                continue;
            Collective c = J.program[static_cast<std::size_t>(i)];
            Micros t = J.enqueueTime(r, i);
            if (i == P.stuckOp && rp.hasWork) {
                c.op = rp.work.op;
                c.numelIn = rp.work.numelIn;
                c.numelOut = rp.work.numelOut;
                t = rp.enqueueAt;
            } else if (rp.skipOp >= 0 && i == rp.skipOp + 1) {
                t = rp.enqueueAt;
            } else if (P.stuckOp >= 0 && i > P.stuckOp && rp.enqueueAt >= 0) {
                t = std::max(t, rp.enqueueAt + (i - P.stuckOp) * 3 * kMilli);
            }
            if (t > stop + (P.stuckOp >= 0 ? 0 : 0) && rp.fate != Fate::Waits
                && rp.fate != Fate::GpuHung && rp.fate != Fate::NetError
                && rp.fate != Fate::GpuError)
                break;
            collLine(t, c, opCount++, ri.commPtr, J.world);
        }
    }
    // TP group comm init and its collectives.
    if (J.tpSize > 0) {
        const std::vector<int> members = tpMembers();
        const int groupIndex = r / J.tpSize;
        const std::uint64_t commId
            = Rng::mix(J.tpCommIdBase, static_cast<std::uint64_t>(groupIndex));
        const Micros first = J.stepStart[1] + (J.tpProgram.empty() ? 0 : J.tpProgram[0].offset)
            + J.rankJitter(r, 1);
        if (first <= stop && ncclInfoOn) {
            Micros slow = first;
            for (int q : members)
                slow = std::max(slow, J.stepStart[1] + J.tpProgram[0].offset + J.rankJitter(q, 1));
            ncclCommInit(first, slow + 350 * kMilli, ri.tpCommPtr, commId, members, false,
                "ncclCommInitRankConfig");
        }
        if (ncclCollOn) {
            const int hang = P.hasHang && P.hangStep > 0 ? P.hangStep : J.steps + 1;
            std::int64_t opCount = 0;
            for (const Collective& c : J.tpProgram) {
                if (c.step > hang)
                    break;
                const Micros t = J.stepStart[static_cast<std::size_t>(c.step)] + c.offset
                    + J.rankJitter(r, c.step);
                if (t > stop
                    || (c.step == hang && P.stuckOp >= 0
                        && c.offset >= J.program[static_cast<std::size_t>(P.stuckOp)].offset))
                    break;
                collLine(t, c, opCount++, ri.tpCommPtr, J.tpSize);
            }
        }
    }
    // Progress output for every step the whole job completed.
    const int lastStep = P.hasHang && P.hangStep > 0 ? P.hangStep - 1 : J.steps;
    for (int s = 1; s <= lastStep; ++s) {
        const Micros t = J.stepStart[static_cast<std::size_t>(s)] + J.stepDuration * 97 / 100
            + J.rankJitter(r, s) / 3;
        if (t > stop)
            break;
        progress(s, t);
    }
}

// ------------------------------------------------------------------------------------
// Fates

void Writer::straggleLines()
{
    if (rp.fate != Fate::NeverEnters)
        return;
    LineOut l(rs, rp.stallAt, Stream::Out);
    if (rp.kind == "checkpoint") {
        l << "[rank " << r << "] Saving checkpoint to /checkpoints/" << J.runId << "/step_"
          << Pad { P.hangStep - 1, 6, '0' } << " (model + optimizer shard " << r << ") ...\n";
    } else if (rp.kind == "sleep") {
        l << "[rank " << r << "] waiting for lock /mnt/shared/" << J.runId
          << "/.shard_index.lock held by another process, retrying in 30s\n";
    } else {
        l << "[rank " << r << "] fetching next shard train-" << Pad { 400 + P.hangStep, 5, '0' }
          << "-of-01024.arrow from /mnt/datasets/pile-dedup ...\n";
    }
}

// Each process group runs its own watchdog: the lines about a failed work carry the prefix of
// the group that work ran on (the metrics group's in collective_mismatch/subgroup_skip).
void Writer::dumpLines(Micros t, bool local)
{
    const TorchDialect& T = J.torch;
    if (!T.dumpSignals)
        return;
    std::int64_t e = rp.lastEnqueued;
    std::int64_t c = rp.lastCompleted;
    LineOut l(rs, t, Stream::Err);
    if (local && T.order >= 260) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnFirstPg);
        D.pgPrefix(l.str(), rp.work.pg, r);
        l << "First PG on this rank to signal dumping.\n";
    }
    if (!local) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnObserved);
        D.pgPrefix(l.str(), rp.work.pg, r);
        if (T.newDumpWording)
            l << "Observed flight recorder dump signal from another rank via TCPStore.\n";
        else
            l << "First PG on this rank detecting the dump signal through tcpstore.\n";
    }
    const Micros t2 = t + (local ? 320 : 1) * kMilli;
    D.envelope(l.str(), 'E', t2, "ProcessGroupNCCL.cpp", T.lnDumpSignal);
    D.pgPrefix(l.str(), rp.work.pg, r);
    if (T.newDumpWording) {
        l << "Received a dump signal due to a collective timeout from ";
        if (local)
            l << "this local rank";
        else
            l << " rank " << P.firstSignalRank;
        l << " and we will try our best to dump the debug info. Last enqueued NCCL work: " << e
          << ", last completed NCCL work: " << c
          << ".This is most likely caused by incorrect usages of collectives, e.g., wrong sizes "
             "used across ranks, the order of collectives is not same for all ranks or the "
             "scheduled collective, for some reason, didn't run. Additionally, this can be caused "
             "by GIL deadlock or other reasons such as network errors or bugs in the "
             "communications library (e.g. NCCL), etc. \n";
    } else if (local) {
        l << "Received a timeout signal from this local rank and will start to dump the debug "
             "info. Last enqueued NCCL work: "
          << e << ", last completed NCCL work: " << c << ".\n";
    } else {
        l << "Received a global dump signal from rank " << P.firstSignalRank
          << ", and will start to dump the debug info. Last enqueued NCCL work: " << e
          << ", last completed NCCL work: " << c << ".\n";
    }
    D.envelope(l.str(), 'E', t2, "ProcessGroupNCCL.cpp", T.lnPrepareDump);
    D.pgPrefix(l.str(), rp.work.pg, r);
    l << "ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1\n";
    if (J.torchInfoLogs && J.flightRecorder) {
        D.envelope(l.str(), 'I', t2 + 400 * kMilli, "ProcessGroupNCCL.cpp", T.lnPrepareDump + 11);
        D.pgPrefix(l.str(), rp.work.pg, r);
        l << "ProcessGroupNCCL dumping nccl trace to /tmp/nccl_trace_rank_" << r << '\n';
        D.envelope(l.str(), 'I', t2 + 430 * kMilli, "NCCLUtils.cpp", 348);
        l << "Finished writing NCCLPG debug info to /tmp/nccl_trace_rank_" << r << '\n';
    }
}

void Writer::detectLines(Micros t, std::string_view /*ncclErrorText*/)
{
    const TorchDialect& T = J.torch;
    const bool timeout = rp.timeoutAt >= 0 && t >= rp.timeoutAt && rp.fate != Fate::NetError;
    if (T.order <= 200)
        return;
    LineOut l(rs, t, Stream::Err);
    if (T.failureDetectedLine) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnDetect);
        D.pgPrefix(l.str(), rp.work.pg, r);
        l << " failure detected by watchdog at work sequence id: " << rp.work.seq
          << " PG status: last enqueued work: " << rp.lastEnqueued
          << ", last completed work: " << rp.lastCompleted << '\n';
        if (timeout) {
            D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnStackTrace);
            if (J.flightRecorder) {
                l << "Stack trace of the failed collective: \n";
                l << "#0 " << c10dFunction(rp.work.op) << " from " << torchPy
                  << "/distributed/distributed_c10d.py:" << T.c10dAllReduceLine << '\n';
                l << "#1 wrapper from " << torchPy
                  << "/distributed/c10d_logger.py:" << T.c10dLoggerLine << '\n';
                l << "#2 " << (rp.work.cpuSync ? "global_token_count" : "_sync_grads") << " from "
                  << scriptPath << ':' << kLineTokenCount << '\n';
                l << "#3 train_step from " << scriptPath << ':' << kLineTrainStep << '\n';
                l << "#4 train from " << scriptPath << ':' << kLineTrainCall << '\n';
                l << "#5 main from " << scriptPath << ':' << kLineMain << '\n';
                l << "#6 <module> from " << scriptPath << ':' << kLineModule << '\n';
            } else {
                l << "Stack trace of the failed collective not found, potentially because "
                     "FlightRecorder is disabled. You can enable it by setting "
                     "TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.\n";
            }
        }
        return;
    }
    if (T.lnDetect > 0) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnDetect);
        D.pgPrefix(l.str(), rp.work.pg, r);
        l << "Exception (either an error or timeout) detected by watchdog at work: " << rp.work.seq
          << ", last enqueued NCCL work: " << rp.lastEnqueued
          << ", last completed NCCL work: " << rp.lastCompleted << ".\n";
    }
    if (timeout) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnTimeoutAt);
        D.pgPrefix(l.str(), rp.work.pg, r);
        l << "Timeout at NCCL work: " << rp.work.seq
          << ", last enqueued NCCL work: " << rp.lastEnqueued
          << ", last completed NCCL work: " << rp.lastCompleted << ".\n";
    }
}

void Writer::teardownLines(Micros t)
{
    const TorchDialect& T = J.torch;
    LineOut l(rs, t, Stream::Err);
    if (T.order <= 113) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnTeardown1);
        l << "Some NCCL operations have failed or timed out. Due to the asynchronous nature of "
             "CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To "
             "avoid this inconsistency, we are taking the entire process down.\n";
        return;
    }
    D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnTeardown1);
    if (T.order >= 220)
        l << "[Rank " << r << "] ";
    l << "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA "
         "kernels, subsequent GPU operations might run on corrupted/incomplete data.\n";
    D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnTeardown2);
    if (T.order >= 220)
        l << "[Rank " << r << "] ";
    l << "To avoid data inconsistency, we are taking the entire process down.\n";
}

// (e): the watchdog thread's exception, then std::terminate's copy of it.
void Writer::terminate(Micros t, const std::string& reason, FrameSite site)
{
    const TorchDialect& T = J.torch;
    LineOut l(rs, t, Stream::Err);
    if (T.order <= 113) {
        l << "terminate called after throwing an instance of '" << T.terminateType << "'\n";
        l << "  what():  " << reason << '\n';
        return;
    }
    std::string exitMsg;
    if (T.order <= 200) {
        Text(exitMsg) << "[Rank " << r
                      << "] NCCL watchdog thread terminated with exception: " << reason;
        if (site == FrameSite::CudaCheck) {
            exitMsg += '\n';
            D.frames(exitMsg, site);
            exitMsg.pop_back();
        }
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnWatchdogExit);
        l << exitMsg << '\n';
        l << "terminate called after throwing an instance of '" << T.terminateType << "'\n";
        l << "  what():  " << exitMsg << '\n';
        return;
    }
    D.pgPrefix(exitMsg, rp.work.pg, r);
    Text(exitMsg) << "Process group watchdog thread terminated with exception: " << reason;
    std::string body = exitMsg;
    body += '\n';
    D.frames(body, site);
    D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnWatchdogExit);
    l << body << '\n';
    l << "terminate called after throwing an instance of '" << T.terminateType << "'\n";
    l << "  what():  " << body << '\n';
    D.frames(l.str(), FrameSite::CommWatchdog);
    l << '\n';
}

void Writer::timeoutLines(Micros t)
{
    const TorchDialect& T = J.torch;
    const std::string msg = watchdogMessage();
    {
        LineOut l(rs, t, Stream::Err);
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnCheckTimeout);
        l << msg << '\n';
    }
    detectLines(t, {});
    if (rp.dumpFrom == -1 && rp.dumpSignalAt >= 0)
        dumpLines(rp.dumpSignalAt, true);
    const Micros death = rp.deathAt >= 0 ? rp.deathAt : rp.logEnd;
    const Micros td = std::max(t + 2 * kMilli, death - 8 * kMilli);
    teardownLines(td);
    terminate(td + kMilli, msg, FrameSite::CheckTimeout);
}

void Writer::heartbeatLines()
{
    const TorchDialect& T = J.torch;
    const Micros t = rp.heartbeatAt;
    const int inflight = rp.fate == Fate::Frozen
        ? 0
        : static_cast<int>(std::max<std::int64_t>(1, rp.lastEnqueued - rp.lastCompleted));
    LineOut l(rs, t, Stream::Err);
    if (T.order >= 260) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnHeartbeat);
        D.pgPrefix(l.str(), 0, r);
        l << "ProcessGroupNCCL's watchdog got stuck for " << J.heartbeatSec
          << " seconds without making progress in monitoring enqueued collectives. This typically "
             "indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and "
             "could be triggered by another thread holding the GIL inside a CUDA api (for example, "
             "CudaEventDestroy), or other deadlock-prone behaviors.If you suspect the watchdog is "
             "not actually stuck and a longer timeout would help, you can either increase the "
             "timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the "
             "heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned "
             "helps, feel free to file an issue to PyTorch about the short timeout or false "
             "positive abort; otherwise, please attempt to debug the hang. \n";
        D.envelope(l.str(), 'E', t + kMilli, "ProcessGroupNCCL.cpp", T.lnPrepareDump);
        D.pgPrefix(l.str(), 0, r);
        l << "ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1\n";
        return;
    }
    if (T.order >= 240) {
        D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnObserved);
        D.pgPrefix(l.str(), 0, r);
        l << "First PG on this rank that detected no heartbeat of its watchdog.\n";
    }
    D.envelope(l.str(), 'E', t, "ProcessGroupNCCL.cpp", T.lnHeartbeat);
    D.pgPrefix(l.str(), 0, r);
    l << "Heartbeat monitor timed out! Process will be terminated after dumping debug info. "
         "workMetaList_.size()="
      << inflight << '\n';
    D.envelope(l.str(), 'E', t + kMilli, "ProcessGroupNCCL.cpp", T.lnPrepareDump);
    D.pgPrefix(l.str(), 0, r);
    l << "ProcessGroupNCCL preparing to dump debug info."
      << (T.order >= 240 ? " Include stack trace: 1" : "") << '\n';
}

void Writer::fatalLines(Micros t)
{
    const TorchDialect& T = J.torch;
    const bool hang = rp.heartbeatAt >= 0;
    const int inflight = rp.fate == Fate::Frozen
        ? 0
        : static_cast<int>(std::max<std::int64_t>(1, rp.lastEnqueued - rp.lastCompleted));
    LineOut l(rs, t, Stream::Err);
    D.envelope(l.str(), 'F', t, "ProcessGroupNCCL.cpp", T.lnHeartbeatFatal);
    D.pgPrefix(l.str(), 0, r);
    D.pgPrefix(l.str(), 0, r);
    if (T.order >= 260) {
        l << "Terminating the process after attempting to dump debug info, due to "
          << (hang ? "ProcessGroupNCCL watchdog hang" : "collective timeout or exception") << ".\n";
        return;
    }
    if (hang) {
        l << "ProcessGroupNCCL's watchdog got stuck for " << J.heartbeatSec
          << " seconds without making progress in monitoring enqueued collectives. This typically "
             "indicates a NCCL/CUDA API hang blocking the watchdog, and could be triggered by "
             "another thread holding the GIL inside a CUDA api, or other deadlock-prone "
             "behaviors.If you suspect the watchdog is not actually stuck and a longer timeout "
             "would help, you can either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) "
             "to a larger value or disable the heartbeat monitor "
             "(TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to "
             "file an issue to PyTorch about the short timeout or false positive abort; otherwise, "
             "please attempt to debug the hang. workMetaList_.size() = "
          << inflight << '\n';
        return;
    }
    l << "ProcessGroupNCCL's watchdog detected a dump signal from rank " << P.firstSignalRank
      << " and notified the current rank. This is most likely caused by incorrect usages of "
         "collectives, e.g., wrong sizes used across ranks, the order of collectives is not same "
         "for all ranks or the scheduled collective, for some reason, didn't run. Additionally, "
         "this can be caused by GIL deadlock or other reasons such as network errors or bugs in "
         "the communications library (e.g. NCCL), etc. We tried our best to dump the debug info "
         "into the storage to help you debug the issue.\n";
}

void Writer::netErrorLines()
{
    const TorchDialect& T = J.torch;
    const std::string last = lastNcclError();
    const Micros t = rp.eventAt;
    // NCCL: the proxy progress thread's WARN and its error chain ([formats 3.6]).
    if (ncclWarnOn) {
        LineOut l(rs, t, Stream::Out);
        const bool socket = rp.kind != "ib";
        D.ncclWarn(l.str(), t, ri.proxyTid, socket ? J.nccl.socketFile : J.nccl.ibFile,
            socket ? J.nccl.socketLine : J.nccl.ibLine);
        l << last << '\n';
        if (ncclInfoOn) {
            D.ncclInfo(l.str(), ri.proxyTid);
            l << (socket ? "transport/net_socket.cc:" : "transport/net.cc:")
              << (socket ? 511 : 1298) << " -> 6\n";
            D.ncclInfo(l.str(), ri.proxyTid);
            l << "proxy.cc:694 -> 6\n";
            D.ncclInfo(l.str(), ri.proxyTid);
            l << "proxy.cc:874 -> 6 [Progress Thread]\n";
        }
    }
    Micros tw = t + rng.uniform(40, 600) * kMilli;
    // The watchdog logs the error and only then aborts the process: the lines come first.
    if (rp.deathAt >= 0)
        tw = std::min(tw, std::max(t, rp.deathAt - 50 * kMilli));
    std::string reason;
    Text(reason) << "NCCL error: " << ncclErrorName(6) << ", NCCL version " << J.nccl.version
                 << "\nncclRemoteError: A call failed possibly due to a network error or a remote "
                    "process exiting prematurely.\nLast error:\n"
                 << last;
    if (T.order <= 200) {
        const Micros td = std::max(tw, rp.deathAt - 5 * kMilli);
        terminate(td, reason, FrameSite::CheckErrors);
        return;
    }
    {
        LineOut l(rs, tw, Stream::Err);
        D.envelope(l.str(), 'E', tw, "ProcessGroupNCCL.cpp", T.lnAsyncError);
        l << "[Rank " << r << "] Collective ";
        D.work(l.str(), rp.work);
        l << " raised the following async exception: " << reason << '\n';
        D.frames(l.str(), FrameSite::CheckErrors);
        l << '\n';
    }
    detectLines(tw + kMilli, last);
    if (rp.dumpFrom == -1 && rp.dumpSignalAt >= 0)
        dumpLines(std::max(rp.dumpSignalAt, tw + 2 * kMilli), true);
    const Micros death = rp.deathAt >= 0 ? rp.deathAt : rp.logEnd;
    const Micros td = std::max(tw + 3 * kMilli, death - 8 * kMilli);
    teardownLines(td);
    terminate(td + kMilli, reason, FrameSite::CheckErrors);
}

void Writer::gpuErrorLines()
{
    const TorchDialect& T = J.torch;
    std::string reason = "CUDA error: " + rp.kind + "\n";
    if (T.order <= 200)
        reason += "CUDA kernel errors might be asynchronously reported at some other API call,so "
                  "the stacktrace below might be incorrect.\nFor debugging consider passing "
                  "CUDA_LAUNCH_BLOCKING=1.";
    else
        reason += "CUDA kernel errors might be asynchronously reported at some other API call, so "
                  "the stacktrace below might be incorrect.\nFor debugging consider passing "
                  "CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side "
                  "assertions.\n";
    const Micros death = rp.deathAt >= 0 ? rp.deathAt : rp.logEnd;
    terminate(std::max(rp.eventAt, death - 6 * kMilli), reason, FrameSite::CudaCheck);
}

// (g) text: "NCCL error in: <file>:<line>, <error>, NCCL version x\n<detail>\nLast error:\n<warn>"
void Writer::ncclPyError(std::string& o, const std::string& reason, const std::string& detail,
    const std::string& last) const
{
    const TorchDialect& T = J.torch;
    Text(o) << (T.order <= 200 ? "RuntimeError: " : "torch.distributed.DistBackendError: ")
            << "NCCL error in: "
            << D.sourcePath(T.order >= 240 ? "torch/csrc/distributed/c10d/NCCLUtils.hpp"
                                           : "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp")
            << ':' << (T.order >= 240 ? 317 : 1269) << ", " << reason << ", NCCL version "
            << J.nccl.version << '\n'
            << detail << "\nLast error:\n"
            << last << '\n';
}

std::string Writer::exceptionLine() const
{
    const TorchDialect& T = J.torch;
    const std::string& k = rp.kind;
    std::string s;
    Text x(s);
    if (k == "exception")
        x << "KeyError: 'attention_mask'";
    else if (k == "cuda_oom") {
        if (T.order <= 200)
            x << "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU "
              << ri.local
              << "; 79.15 GiB total capacity; 74.11 GiB already allocated; 1.62 GiB free; 76.14 "
                 "GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try "
                 "setting max_split_size_mb to avoid fragmentation.  See documentation for Memory "
                 "Management and PYTORCH_CUDA_ALLOC_CONF";
        else
            x << (T.order >= 240 ? "torch.OutOfMemoryError" : "torch.cuda.OutOfMemoryError")
              << ": CUDA out of memory. Tried to allocate 2.50 GiB. GPU " << ri.local
              << " has a total capacity of 79.15 GiB of which 1.62 GiB is free. Including "
                 "non-PyTorch memory, this process has 77.52 GiB memory in use. Of the allocated "
                 "memory 74.11 GiB is allocated by PyTorch, and 2.03 GiB is reserved by PyTorch "
                 "but unallocated. If reserved but unallocated memory is large try setting "
                 "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See "
                 "documentation for Memory Management  "
                 "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";
    } else if (k == "illegal_memory_access")
        x << "RuntimeError: CUDA error: an illegal memory access was encountered";
    else if (k == "startup_exception")
        x << "FileNotFoundError: [Errno 2] No such file or directory: "
             "'/checkpoints/base/model_00.pt'";
    else if (k == "fingerprint") {
        const int other = r == rp.peer ? (rp.peer == 0 ? 1 : 0) : rp.peer;
        auto fp = [&](int who) {
            const bool odd = who == rp.peer;
            std::string f;
            Text(f) << "CollectiveFingerPrint(SequenceNumber=" << P.stuckSeq
                    << ", OpType=" << (odd ? "BROADCAST" : "ALLREDUCE") << ", TensorShape=["
                    << (odd ? 4 : 1)
                    << "], TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float "
                       "(default), device=cuda, layout=Strided (default), requires_grad=false "
                       "(default), pinned_memory=false (default), memory_format=(nullopt)))";
            return f;
        };
        x << "RuntimeError: Detected mismatch between collectives on ranks. Rank " << r
          << " is running collective: " << fp(r) << ", but Rank " << other
          << " is running collective: " << fp(other)
          << ".Collectives differ in the following aspects: \t Op type: "
          << (r == rp.peer ? "BROADCAST" : "ALLREDUCE") << "vs "
          << (other == rp.peer ? "BROADCAST" : "ALLREDUCE")
          << "  Tensor Tensor shapes: " << (r == rp.peer ? 4 : 1) << "vs "
          << (other == rp.peer ? 4 : 1);
    }
    return s;
}

std::string Writer::traceback() const
{
    const std::string& k = rp.kind;
    const std::string& sp = J.sitePackages;
    std::string s;
    Text x(s);
    x << "Traceback (most recent call last):\n";
    x << "  File \"" << scriptPath << "\", line " << kLineModule << ", in <module>\n    main()\n";
    if (k == "startup_exception") {
        x << "  File \"" << scriptPath << "\", line 318, in main\n    model = build_model(cfg)\n";
        x << "  File \"" << scriptPath
          << "\", line 102, in build_model\n    state = torch.load(cfg.init_checkpoint, "
             "map_location=\"cpu\")\n";
        x << "  File \"" << sp
          << "/torch/serialization.py\", line 1065, in load\n    with _open_file_like(f, 'rb') as "
             "opened_file:\n";
        x << "  File \"" << sp
          << "/torch/serialization.py\", line 468, in _open_file_like\n    return "
             "_open_file(name_or_buffer, mode)\n";
        x << "  File \"" << sp
          << "/torch/serialization.py\", line 449, in __init__\n    super().__init__(open(name, "
             "mode))\n";
        return s + exceptionLine() + "\n";
    }
    x << "  File \"" << scriptPath << "\", line " << kLineMain
      << ", in main\n    train(cfg, model, optimizer, loader)\n";
    if (k == "exception") {
        x << "  File \"" << scriptPath << "\", line 281, in train\n    batch = next(data_iter)\n";
        x << "  File \"" << sp
          << "/torch/utils/data/dataloader.py\", line 631, in __next__\n    data = "
             "self._next_data()\n";
        x << "  File \"" << sp
          << "/torch/utils/data/dataloader.py\", line 675, in _next_data\n    data = "
             "self._dataset_fetcher.fetch(index)  # may raise StopIteration\n";
        x << "  File \"" << sp
          << "/torch/utils/data/_utils/fetch.py\", line 54, in fetch\n    return "
             "self.collate_fn(data)\n";
        x << "  File \"" << J.scriptDir
          << "/data/collate.py\", line 38, in __call__\n    mask = "
             "torch.stack([ex[\"attention_mask\"] for ex in batch])\n";
        x << "  File \"" << J.scriptDir
          << "/data/collate.py\", line 38, in <listcomp>\n    mask = "
             "torch.stack([ex[\"attention_mask\"] for ex in batch])\n";
        return s + exceptionLine() + "\n";
    }
    if (k == "cuda_oom") {
        x << "  File \"" << scriptPath << "\", line " << kLineTrainCall
          << ", in train\n    loss = train_step(model, batch, optimizer, scaler)\n";
        x << "  File \"" << scriptPath << "\", line " << kLineTrainStep
          << ", in train_step\n    out = model(**batch)\n";
        x << "  File \"" << sp
          << "/torch/nn/modules/module.py\", line 1532, in _wrapped_call_impl\n    return "
             "self._call_impl(*args, **kwargs)\n";
        x << "  File \"" << sp
          << "/torch/nn/modules/module.py\", line 1541, in _call_impl\n    return "
             "forward_call(*args, **kwargs)\n";
        x << "  File \"" << J.scriptDir
          << "/model/attention.py\", line 97, in forward\n    attn = torch.softmax(scores.float(), "
             "dim=-1).to(q.dtype)\n";
        return s + exceptionLine() + "\n";
    }
    if (k == "illegal_memory_access") {
        x << "  File \"" << scriptPath << "\", line " << kLineTrainCall
          << ", in train\n    loss = train_step(model, batch, optimizer, scaler)\n";
        x << "  File \"" << scriptPath
          << "\", line 226, in train_step\n    running_loss += loss.item()\n";
        std::string tail = exceptionLine() + "\n";
        if (J.torch.order <= 200)
            tail += "CUDA kernel errors might be asynchronously reported at some other API call,so "
                    "the stacktrace below might be incorrect.\nFor debugging consider passing "
                    "CUDA_LAUNCH_BLOCKING=1.\n";
        else
            tail += "CUDA kernel errors might be asynchronously reported at some other API call, "
                    "so the stacktrace below might be incorrect.\nFor debugging consider passing "
                    "CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable "
                    "device-side assertions.\n\n";
        return s + tail;
    }
    if (k == "fingerprint") {
        x << "  File \"" << scriptPath << "\", line " << kLineTrainCall
          << ", in train\n    n_tokens = global_token_count(batch)\n";
        x << "  File \"" << scriptPath << "\", line " << kLineTokenCount
          << ", in global_token_count\n    dist.all_reduce(n, op=dist.ReduceOp.SUM)\n";
        if (J.torch.c10dLogger)
            x << "  File \"" << sp << "/torch/distributed/c10d_logger.py\", line "
              << J.torch.c10dLoggerLine << ", in wrapper\n    return func(*args, **kwargs)\n";
        x << "  File \"" << sp << "/torch/distributed/distributed_c10d.py\", line "
          << J.torch.c10dAllReduceLine
          << ", in all_reduce\n    work = group.allreduce([tensor], opts)\n";
        return s + exceptionLine() + "\n";
    }
    // Errors raised from a collective call during communicator setup.
    const bool evalGroup = P.newPgId > 0;
    if (evalGroup) {
        x << "  File \"" << scriptPath
          << "\", line 297, in train\n    val_loss = evaluate(model, val_loader, eval_group)\n";
        x << "  File \"" << scriptPath
          << "\", line 176, in evaluate\n    dist.all_reduce(total, group=group)\n";
    } else {
        x << "  File \"" << scriptPath << "\", line 268, in train\n    dist.barrier()\n";
    }
    if (J.torch.c10dLogger)
        x << "  File \"" << sp << "/torch/distributed/c10d_logger.py\", line "
          << J.torch.c10dLoggerLine << ", in wrapper\n    return func(*args, **kwargs)\n";
    if (evalGroup)
        x << "  File \"" << sp << "/torch/distributed/distributed_c10d.py\", line "
          << J.torch.c10dAllReduceLine
          << ", in all_reduce\n    work = group.allreduce([tensor], opts)\n";
    else
        x << "  File \"" << sp << "/torch/distributed/distributed_c10d.py\", line "
          << J.torch.c10dAllReduceLine + 1871
          << ", in barrier\n    work = default_pg.barrier(opts=opts)\n";
    return s;
}

void Writer::pythonTraceback(Micros t)
{
    LineOut l(rs, t, Stream::Err);
    l << traceback();
}

void Writer::crashLines()
{
    const Micros t = rp.eventAt;
    const std::string& k = rp.kind;
    if (k == "host_oom_kill")
        return; // SIGKILL: nothing reaches the log
    if (k == "segfault") {
        if (J.recordDecorator) {
            LineOut l(rs, t, Stream::Err);
            l << "Fatal Python error: Segmentation fault\n\n";
            l << "Thread 0x00007f" << Hex { (ri.bufBase >> 12) & 0xffffffffULL, 8 }
              << "000 (most recent call first):\n";
            l << "  File \"/usr/lib/python3." << J.torch.pythonMinor
              << "/threading.py\", line 324 in wait\n";
            l << "  File \"/usr/lib/python3." << J.torch.pythonMinor
              << "/threading.py\", line 607 in wait\n";
            l << "  File \"" << J.sitePackages << "/tqdm/_monitor.py\", line 60 in run\n\n";
            l << "Current thread 0x00007f" << Hex { (ri.commPtr >> 4) & 0xffffffffULL, 8 }
              << "740 (most recent call first):\n";
            l << "  File \"" << J.scriptDir << "/ops/fused_rope.py\", line 61 in apply_rotary\n";
            l << "  File \"" << J.scriptDir << "/model/attention.py\", line 88 in forward\n";
            l << "  File \"" << J.sitePackages
              << "/torch/nn/modules/module.py\", line 1541 in _call_impl\n";
            l << "  File \"" << scriptPath << "\", line " << kLineTrainStep << " in train_step\n";
            l << "  File \"" << scriptPath << "\", line " << kLineTrainCall << " in train\n";
            l << "  File \"" << scriptPath << "\", line " << kLineMain << " in main\n";
            l << "  File \"" << scriptPath << "\", line " << kLineModule << " in <module>\n";
        }
        return;
    }
    pythonTraceback(t);
    if (J.torch.order >= 240 && k != "startup_exception")
        notDestroyedWarning(t + 300 * kMilli);
}

void Writer::initErrorLines()
{
    const Micros t = rp.eventAt;
    if (t < 0)
        return;
    const std::string& k = rp.kind;
    std::string last;
    std::string reasonText;
    std::string detail;
    if (k == "store") {
        LineOut l(rs, t, Stream::Err);
        l << traceback();
        const TorchDialect& T = J.torch;
        l << (T.order <= 200 ? "RuntimeError: [" : "torch.distributed.DistBackendError: [") << r
          << "] is setting up NCCL communicator and "
          << (T.order <= 200 ? "retreiving" : "retrieving")
          << " ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got "
             "error: Connection reset by peer\n";
        D.frames(l.str(), FrameSite::StoreRecv);
        if (T.order >= 240)
            l << ". This may indicate a possible application crash on rank 0 or a network set up "
                 "issue.\n";
        return;
    }
    const int tid = ri.initTid;
    if (k == "calloc" || k == "cuda_oom") {
        // The evaluation sub-group's communicator: Init START, then the allocation fails.
        if (ncclInfoOn) {
            std::vector<int> all(static_cast<std::size_t>(J.world));
            for (int i = 0; i < J.world; ++i)
                all[static_cast<std::size_t>(i)] = i;
            ncclCommInit(t - 400 * kMilli, -1, ri.commPtr + 0x5a3e40, Rng::mix(J.worldCommId, 99),
                all, true, "ncclCommInitRankConfig");
        }
        last = k == "calloc" ? "Failed to CUDA calloc 6291456 bytes"
                             : "Cuda failure 'out of memory'";
        reasonText = ncclErrorName(1);
        detail = "ncclUnhandledCudaError: Call to CUDA function failed.";
        if (ncclWarnOn) {
            LineOut l(rs, t, Stream::Out);
            D.ncclWarn(l.str(), t, tid, "include/alloc.h", k == "calloc" ? 125 : 103);
            l << last << '\n';
            if (ncclInfoOn) {
                for (const char* where :
                    { "include/alloc.h:133", "transport/p2p.cc:413", "transport.cc:33",
                        "transport.cc:113", "init.cc:1222", "init.cc:1501", "init.cc:1746" }) {
                    D.ncclInfo(l.str(), tid);
                    l << where << " -> 1\n";
                }
            }
        }
    } else if (k == "shm") {
        std::string seg = "/dev/shm/nccl-";
        static const char kAlnum[]
            = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        for (int i = 0; i < 6; ++i)
            seg += kAlnum[rng.uniform(0, 61)];
        last = "Error while creating shared memory segment " + seg + " (size 9637888)";
        reasonText = ncclErrorName(2);
        detail = "ncclSystemError: System call (e.g. socket, malloc) or external library call "
                 "failed or device error. ";
        if (ncclWarnOn) {
            LineOut l(rs, t, Stream::Out);
            D.ncclWarn(l.str(), t, tid, "misc/shmutils.cc", 72);
            l << "Error: failed to extend " << seg << " to 9637892 bytes\n";
            D.ncclWarn(l.str(), t, tid, "misc/shmutils.cc", 113);
            l << last << '\n';
            if (ncclInfoOn) {
                for (const char* where : { "misc/shmutils.cc:115", "transport/shm.cc:114",
                         "transport.cc:33", "transport.cc:113", "init.cc:1222", "init.cc:1501" }) {
                    D.ncclInfo(l.str(), tid);
                    l << where << " -> 2\n";
                }
            }
        }
    } else if (k == "socket_timeout") {
        std::string addr = peerAddress(rp.peer);
        if (J.nccl.minor >= 21)
            last = "socketPollConnect: Connect to " + addr
                + " returned 110(Connection timed out) errno 110(Connection timed out)";
        else
            last = "socketStartConnect: Connect to " + addr + " failed : Connection timed out";
        reasonText = ncclErrorName(2);
        detail = "ncclSystemError: System call (e.g. socket, malloc) or external library call "
                 "failed or device error. ";
        if (ncclWarnOn) {
            LineOut l(rs, t, Stream::Out);
            D.ncclWarn(l.str(), t, ri.proxyTid, J.nccl.socketFile, J.nccl.minor >= 21 ? 346 : 597);
            l << last << '\n';
            if (ncclInfoOn) {
                for (const char* where : { "misc/socket.cc:752", "transport/net_socket.cc:420",
                         "transport/net.cc:684", "proxy.cc:1460" }) {
                    D.ncclInfo(l.str(), ri.proxyTid);
                    l << where << " -> 2\n";
                }
            }
        }
    } else if (k == "ifname") {
        last = "Bootstrap : no socket interface found";
        reasonText = ncclErrorName(3);
        detail = "ncclInternalError: Internal check failed.";
        if (ncclWarnOn) {
            LineOut l(rs, t, Stream::Out);
            D.ncclWarn(l.str(), t, ri.pid, "bootstrap.cc", 96);
            l << last << '\n';
            if (ncclInfoOn) {
                for (const char* where : { "bootstrap.cc:101", "init.cc:1617", "init.cc:1700" }) {
                    D.ncclInfo(l.str(), ri.pid);
                    l << where << " -> 3\n";
                }
            }
        }
    }
    const Micros tp = t + rng.uniform(20, 200) * kMilli;
    LineOut l(rs, tp, Stream::Err);
    l << traceback();
    ncclPyError(l.str(), reasonText, detail, last);
    if (J.torch.order >= 240)
        notDestroyedWarning(tp + 250 * kMilli);
}

void Writer::notDestroyedWarning(Micros t)
{
    const TorchDialect& T = J.torch;
    LineOut l(rs, t, Stream::Err);
    D.envelope(l.str(), 'W', t, "ProcessGroupNCCL.cpp", T.lnNotDestroyed);
    if (T.order >= 270)
        l << "Warning: WARNING: destroy_process_group() was not called before program exit, which "
             "can leak resources. For more info, please see "
             "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n";
    else
        l << "Warning: WARNING: process group has NOT been destroyed before we destruct "
             "ProcessGroupNCCL. On normal program exit, the application should call "
             "destroy_process_group to ensure that any pending NCCL operations have finished in "
             "this process. In rare cases this process can exit before this point and block the "
             "progress of another member of the process group. This constraint has always been "
             "present,  but this warning has only been added since PyTorch 2.4 (function "
             "operator())\n";
}

void Writer::cleanExitLines()
{
    {
        LineOut l(rs, rp.stallAt, Stream::Out);
        l << "[rank " << r
          << "] Early stopping: validation loss did not improve for 5 evaluations (best "
          << Fixed { lossAt(J.seed, P.hangStep - 6), 4 } << " at step "
          << std::max(1, P.hangStep - 6) << "). Stopping training.\n";
    }
    if (ncclInfoOn) {
        LineOut l(rs, rp.eventAt - 80 * kMilli, Stream::Out);
        D.ncclInfo(l.str(), ri.pid);
        l << "comm 0x" << Hex { ri.commPtr } << " rank " << r << " nranks " << J.world
          << " cudaDev " << ri.local << " busId " << Hex { ri.busId } << " - "
          << (J.torch.order >= 220 ? "Abort" : "Destroy") << " COMPLETE\n";
    }
    LineOut l(rs, rp.eventAt - 20 * kMilli, Stream::Out);
    l << "[rank " << r << "] done.\n";
}

void Writer::completionLines(Micros end)
{
    if (tqdmOpen && (r == 0 || J.tqdmAllRanks)) {
        LineOut l(rs, end - 900 * kMilli, Stream::Err);
        l << '\n';
        tqdmOpen = false;
    }
    if (r == progressRank()) {
        LineOut l(rs, end - 800 * kMilli, Stream::Out);
        if (J.framework == Framework::Megatron)
            l << "[after training is done] datetime: ";
        else
            l << "Training finished at ";
        J.calendar.appendDateTime(l.str(), end, ' ');
        l << '\n';
    }
    // Megatron's scripts, and the benign_noise job's, end without destroy_process_group():
    // ProcessGroupNCCL's destructor then warns (≥2.4) that a peer *could* be left blocked.
    const bool destroys = J.framework != Framework::Megatron && !P.benignNoise;
    if (destroys && ncclInfoOn) {
        LineOut l(rs, end - 300 * kMilli, Stream::Out);
        D.ncclInfo(l.str(), ri.pid);
        l << "comm 0x" << Hex { ri.commPtr } << " rank " << r << " nranks " << J.world
          << " cudaDev " << ri.local << " busId " << Hex { ri.busId } << " - Destroy COMPLETE\n";
    }
    if (!destroys && J.torch.order >= 240)
        notDestroyedWarning(end - 100 * kMilli);
}

void Writer::aftermath()
{
    switch (rp.fate) {
    case Fate::Waits:
        if (rp.dumpFrom >= 0 && rp.dumpSignalAt >= 0)
            dumpLines(rp.dumpSignalAt, false);
        if (rp.timeoutAt >= 0)
            timeoutLines(rp.timeoutAt);
        break;
    case Fate::NeverEnters:
        straggleLines();
        if (rp.dumpFrom >= 0)
            dumpLines(rp.dumpSignalAt, false);
        if (rp.fatalAt >= 0)
            fatalLines(rp.fatalAt);
        break;
    case Fate::GpuHung:
    case Fate::Frozen:
        if (rp.heartbeatAt >= 0)
            heartbeatLines();
        if (rp.dumpFrom >= 0)
            dumpLines(rp.dumpSignalAt, false);
        if (rp.fatalAt >= 0)
            fatalLines(rp.fatalAt);
        break;
    case Fate::GpuError:
        gpuErrorLines();
        break;
    case Fate::NetError:
        if (rp.dumpFrom >= 0)
            dumpLines(rp.dumpSignalAt, false);
        netErrorLines();
        break;
    case Fate::Crashes:
        crashLines();
        break;
    case Fate::InitError:
        initErrorLines();
        break;
    case Fate::CleanExit:
        cleanExitLines();
        break;
    case Fate::Completes:
        completionLines(rp.deathAt >= 0 ? rp.deathAt : rp.logEnd);
        break;
    case Fate::InitWait:
        if (rp.dumpFrom >= 0)
            dumpLines(rp.dumpSignalAt, false);
        if (rp.fatalAt >= 0)
            fatalLines(rp.fatalAt);
        break;
    default:
        break;
    }
}

void Writer::run()
{
    startup();
    setupPhase();
    training();
    if (P.newPgId > 0 && rp.fate == Fate::InitWait && ncclInfoOn) {
        std::vector<int> all(static_cast<std::size_t>(J.world));
        for (int i = 0; i < J.world; ++i)
            all[static_cast<std::size_t>(i)] = i;
        ncclCommInit(P.newPgAt + J.rankJitter(r, 999), -1, ri.commPtr + 0x5a3e40,
            Rng::mix(J.worldCommId, 99), all, true, "ncclCommInitRankConfig");
    }
    aftermath();
    serviceThreadLines();
}

// A sibling process on this host died: the proxy service thread sees its connections
// close ([formats 3.9], "[Service thread] Connection closed by localRank N").
void Writer::serviceThreadLines()
{
    if (!ncclInfoOn || !reachedNcclInit() || rp.fate == Fate::InitWait
        || rp.fate == Fate::InitError)
        return;
    const int first = J.firstRankOf(ri.node);
    for (int q = first; q < first + J.ranksOn(ri.node); ++q) {
        const RankPlan& other = P.ranks[static_cast<std::size_t>(q)];
        if (q == r || other.deathAt < 0 || other.killedByLauncher || other.exitCode == 0)
            continue;
        if (other.fate == Fate::InitWait || other.fate == Fate::InitError
            || other.fate == Fate::InitMissing || other.fate == Fate::Frozen
            || (other.fate == Fate::Crashes && other.kind == "startup_exception"))
            continue;
        const Micros t = other.deathAt + 3 * kMilli + (r % 7) * 2 * kMilli;
        LineOut l(rs, t, Stream::Out);
        D.ncclInfo(l.str(), ri.proxyTid + 1);
        l << "[Service thread] Connection closed by localRank " << J.rankInfo(q).local << '\n';
    }
}

} // namespace

RankStream RankRenderer::render(int rank) const
{
    RankStream rs;
    if (m_plan.outputLost(rank))
        return rs; // the collector never picked its output up: not one byte of it
    const RankPlan& rp = m_plan.ranks[static_cast<std::size_t>(rank)];
    Writer w(m_job, m_plan, rank, rs);
    w.run();
    rs.finalize(rp.logEnd);
    // A copy cut by size or time (head -c, a scrollback limit, a shipper's byte budget) ends
    // wherever the budget ran out: half-way through the last line with text, no newline. Only
    // a file that is this rank's own ends with its last line; a combined file (srun, per-node
    // consoles) would end with whichever writer came last, so those layouts are left whole.
    const Layout layout = m_job.options.layout;
    const bool ownFile = layout == Layout::PerRank || layout == Layout::TorchrunLogdir;
    if (m_plan.cutMidLine && ownFile && !rs.chunks.empty()) {
        Chunk& last = rs.chunks.back();
        const std::string_view text = rs.text(last);
        const std::size_t textEnd = text.find_last_not_of('\n');
        if (textEnd != std::string_view::npos) {
            const std::size_t nl = text.substr(0, textEnd).rfind('\n');
            const std::size_t lineStart = nl == std::string_view::npos ? 0 : nl + 1;
            const std::size_t keep = std::max<std::size_t>(1, (textEnd + 1 - lineStart) / 2);
            last.length = static_cast<std::uint32_t>(lineStart + keep);
        }
    }
    return rs;
}

std::string RankRenderer::pythonTraceback(int rank) const
{
    const RankPlan& rp = m_plan.ranks[static_cast<std::size_t>(rank)];
    const bool python
        = (rp.fate == Fate::Crashes && rp.kind != "segfault" && rp.kind != "host_oom_kill")
        || (rp.fate == Fate::InitError && rp.eventAt >= 0);
    if (!python)
        return {};
    RankStream dummy;
    Writer w(m_job, m_plan, rank, dummy);
    std::string tb = w.traceback();
    if (rp.fate == Fate::Crashes && rp.kind == "illegal_memory_access")
        return tb;
    if (rp.fate == Fate::Crashes)
        return tb;
    // InitError: the exception line is appended by the writer; rebuild it here.
    RankStream rs;
    Writer full(m_job, m_plan, rank, rs);
    full.run();
    rs.finalize(rp.logEnd);
    std::string out;
    for (const Chunk& c : rs.chunks) {
        const std::string_view t = rs.text(c);
        if (t.rfind("Traceback (most recent call last):", 0) == 0) {
            out.assign(t);
            // Keep only the Python part (the traceback and exception line).
            const auto cut = out.find("\nException raised from");
            if (cut != std::string::npos)
                out.resize(cut + 1);
        }
    }
    return out;
}

std::string RankRenderer::errorJson(int rank) const
{
    const RankPlan& rp = m_plan.ranks[static_cast<std::size_t>(rank)];
    if (!m_job.recordDecorator || rp.deathAt < 0 || rp.exitCode != 1 || rp.killedByLauncher)
        return {};
    if (m_plan.outputLost(rank))
        return {};
    std::string tb = pythonTraceback(rank);
    if (tb.empty())
        return {};
    // The exception line: the first line that is neither the header nor an indented frame.
    std::string excLine;
    std::size_t i = 0;
    while (i < tb.size() && excLine.empty()) {
        std::size_t nl = tb.find('\n', i);
        if (nl == std::string::npos)
            nl = tb.size();
        const std::string_view line(tb.data() + i, nl - i);
        if (!line.empty() && line[0] != ' ' && line.rfind("Traceback", 0) != 0)
            excLine.assign(line);
        i = nl + 1;
    }
    std::string o;
    o += "{\"message\": {\"message\": ";
    pyJsonString(o, excLine);
    o += ", \"extraInfo\": {\"py_callstack\": ";
    pyJsonString(o, tb);
    o += ", \"timestamp\": \"";
    Text(o) << m_job.calendar.epochSeconds(rp.deathAt);
    o += "\"}}}";
    return o;
}

} // namespace rankscope::simulator
