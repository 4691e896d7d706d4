#include "jobmodel.h"

#include "textout.h"

#include <algorithm>

namespace rankscope::simulator {

std::string_view torchOpName(Op op)
{
    switch (op) {
    case Op::Broadcast:
        return "BROADCAST";
    case Op::AllReduce:
        return "ALLREDUCE";
    case Op::AllGatherBase:
        return "_ALLGATHER_BASE";
    case Op::ReduceScatterBase:
        return "_REDUCE_SCATTER_BASE";
    }
    return "UNKNOWN";
}

std::string_view ncclOpName(Op op)
{
    switch (op) {
    case Op::Broadcast:
        return "Broadcast";
    case Op::AllReduce:
        return "AllReduce";
    case Op::AllGatherBase:
        return "AllGather";
    case Op::ReduceScatterBase:
        return "ReduceScatter";
    }
    return "AllReduce";
}

std::string_view c10dFunction(Op op)
{
    switch (op) {
    case Op::Broadcast:
        return "broadcast";
    case Op::AllReduce:
        return "all_reduce";
    case Op::AllGatherBase:
        return "all_gather_into_tensor";
    case Op::ReduceScatterBase:
        return "reduce_scatter_tensor";
    }
    return "all_reduce";
}

bool knownTorch(std::string_view name)
{
    return name == "1.13" || name == "2.0" || name == "2.2" || name == "2.4" || name == "2.6"
        || name == "2.7";
}

bool knownNccl(std::string_view name)
{
    return name == "2.17" || name == "2.18" || name == "2.21" || name == "2.26" || name == "2.29";
}

TorchDialect torchDialect(std::string_view name)
{
    TorchDialect d;
    d.name = std::string(name);
    if (name == "1.13" || name == "2.0") {
        const bool old = name == "1.13";
        d.full = old ? "1.13.1+cu117" : "2.0.1+cu118";
        d.order = old ? 113 : 200;
        d.defaultTimeoutMs = 1800000;
        d.terminateType = "std::runtime_error";
        d.loopFrame = "workCleanupLoop";
        d.lnCheckTimeout = 737;
        d.lnTeardown1 = old ? 414 : 455;
        d.lnTeardown2 = old ? 414 : 460;
        d.lnWatchdogExit = old ? 0 : 841;
        d.lnAsyncError = old ? 813 : 841;
        d.lnInitOptions = old ? 587 : 665;
        d.lnCreatedComm = old ? 751 : 842; // "NCCL watchdog thread started!"
        d.lnStoreError = old ? 1157 : 1269;
        d.c10dAllReduceLine = old ? 1536 : 1700;
        d.pythonMinor = old ? 8 : 9;
        return d;
    }
    d.rankPrefix = true;
    d.numel = true;
    d.c10dLogger = true;
    d.terminateType = "c10::DistBackendError";
    d.loopFrame = "watchdogHandler";
    if (name == "2.2") {
        d.full = "2.2.2+cu121";
        d.order = 220;
        d.pgStyle = 1;
        d.heartbeatSec = 600;
        d.lnCheckTimeout = 563;
        d.lnCheckTimeoutThrow = 565;
        d.lnTimeoutAt = 1537;
        d.lnTeardown1 = 577;
        d.lnTeardown2 = 583;
        d.lnWatchdogExit = 1414;
        d.lnWatchdogThrow = 1418;
        d.lnHeartbeat = 1316;
        d.lnPrepareDump = 1153;
        d.lnHeartbeatFatal = 1169;
        d.lnAsyncError = 1331;
        d.lnCheckErrorsThrow = 1701;
        d.lnInitOptions = 826;
        d.lnCreatedComm = 1788;
        d.lnBarrierWarn = 3620;
        d.lnStoreError = 1852;
        d.c10dAllReduceLine = 2050;
        d.c10dLoggerLine = 72;
        d.pythonMinor = 10;
        return d;
    }
    d.envelopeTime = true;
    d.dumpSignals = true;
    if (name == "2.4") {
        d.full = "2.4.1+cu124";
        d.order = 240;
        d.pgStyle = 2;
        d.heartbeatSec = 600;
        d.lnCheckTimeout = 607;
        d.lnCheckTimeoutThrow = 609;
        d.lnDetect = 1664;
        d.lnTimeoutAt = 1709;
        d.lnTeardown1 = 621;
        d.lnTeardown2 = 627;
        d.lnWatchdogExit = 1515;
        d.lnWatchdogThrow = 1521;
        d.lnFirstPg = 1370;
        d.lnObserved = 1370;
        d.lnDumpSignal = 1390;
        d.lnPrepareDump = 1182;
        d.lnHeartbeat = 1415;
        d.lnHeartbeatFatal = 1198;
        d.lnAsyncError = 1595;
        d.lnCheckErrorsThrow = 2027;
        d.lnInitOptions = 852;
        d.lnEnvironments = 861;
        d.lnCreatedComm = 2188;
        d.lnBarrierWarn = 4115;
        d.lnNotDestroyed = 1250;
        d.lnStoreError = 2043;
        d.c10dAllReduceLine = 2288;
        d.c10dLoggerLine = 79;
        d.pythonMinor = 10;
        return d;
    }
    d.pgStyle = 3;
    d.newDumpWording = true;
    d.heartbeatSec = 480;
    if (name == "2.6") {
        d.full = "2.6.0+cu124";
        d.order = 260;
        d.lnCheckTimeout = 616;
        d.lnCheckTimeoutThrow = 618;
        d.lnDetect = 1785;
        d.lnTimeoutAt = 1834;
        d.lnTeardown1 = 630;
        d.lnTeardown2 = 636;
        d.lnWatchdogExit = 1601;
        d.lnWatchdogThrow = 1607;
        d.lnFirstPg = 1820;
        d.lnObserved = 1756;
        d.lnDumpSignal = 1743;
        d.lnPrepareDump = 1533;
        d.lnHeartbeat = 1719;
        d.lnHeartbeatFatal = 1485;
        d.lnAsyncError = 1700;
        d.lnCheckErrorsThrow = 2167;
        d.lnInitOptions = 947;
        d.lnEnvironments = 956;
        d.lnCreatedComm = 2562;
        d.lnBarrierWarn = 4561;
        d.lnNotDestroyed = 1427;
        d.lnStoreError = 2368;
        d.c10dAllReduceLine = 2806;
        d.c10dLoggerLine = 81;
        d.pythonMinor = 11;
        return d;
    }
    // 2.7
    d.full = "2.7.1+cu126";
    d.order = 270;
    d.failureDetectedLine = true;
    d.lnCheckTimeout = 632;
    d.lnCheckTimeoutThrow = 635;
    d.lnDetect = 2271;
    d.lnStackTrace = 670;
    d.lnTeardown1 = 684;
    d.lnTeardown2 = 698;
    d.lnWatchdogExit = 1899;
    d.lnWatchdogThrow = 1905;
    d.lnFirstPg = 2106;
    d.lnObserved = 1759;
    d.lnDumpSignal = 1746;
    d.lnPrepareDump = 1536;
    d.lnHeartbeat = 1722;
    d.lnHeartbeatFatal = 1488;
    d.lnAsyncError = 2006;
    d.lnCheckErrorsThrow = 2429;
    d.lnInitOptions = 995;
    d.lnEnvironments = 1004;
    d.lnCreatedComm = 2861;
    d.lnBarrierWarn = 4857;
    d.lnNotDestroyed = 1476;
    d.lnStoreError = 2633;
    d.c10dAllReduceLine = 2810;
    d.c10dLoggerLine = 81;
    d.pythonMinor = 11;
    return d;
}

NcclDialect ncclDialect(std::string_view name)
{
    NcclDialect d;
    d.name = std::string(name);
    d.socketFile = "misc/socket.cc";
    if (name == "2.17") {
        d.version = "2.17.1";
        d.full = "2.17.1+cuda11.8";
        d.minor = 17;
        d.initStyle = 0;
        d.ibErrorStyle = 0;
        d.connByNvmlDev = false;
        d.mnnvl = false;
        d.ibFile = "transport/net_ib.cc";
        d.ibLine = 1147;
        d.socketLine = 521;
        d.sizeUnsigned = false;
    } else if (name == "2.18") {
        d.version = "2.18.6";
        d.full = "2.18.6+cuda12.1";
        d.minor = 18;
        d.initStyle = 1;
        d.ibErrorStyle = 1;
        d.connByNvmlDev = false;
        d.mnnvl = false;
        d.ibFile = "transport/net_ib.cc";
        d.ibLine = 1295;
        d.socketLine = 49;
        d.sizeUnsigned = false;
    } else if (name == "2.21") {
        d.version = "2.21.5";
        d.full = "2.21.5+cuda12.4";
        d.minor = 21;
        d.initStyle = 1;
        d.ibErrorStyle = 2;
        d.ibFile = "transport/net_ib.cc";
        d.ibLine = 1696;
        d.socketLine = 49;
        d.sizeUnsigned = false;
    } else if (name == "2.26") {
        d.version = "2.26.2";
        d.full = "2.26.2+cuda12.8";
        d.minor = 26;
        d.bannerPerProcess = true;
        d.warnTimestamp = true;
        d.initStyle = 2;
        d.ibErrorStyle = 3;
        d.initTimings = true;
        d.bootstrapTimings = true;
        d.ibFile = "transport/net_ib.cc";
        d.ibLine = 2385;
        d.socketLine = 49;
    } else {
        d.version = "2.29.2";
        d.full = "2.29.2+cuda12.9";
        d.minor = 29;
        d.bannerPerProcess = true;
        d.warnTimestamp = true;
        d.initStyle = 3;
        d.ibErrorStyle = 4;
        d.initTimings = true;
        d.bootstrapTimings = true;
        d.ibFile = "transport/net_ib/p2p.cc";
        d.ibLine = 418;
        d.socketLine = 53;
    }
    return d;
}

std::string pciShort(std::uint32_t busId)
{
    std::string s;
    Text(s) << Hex { busId >> 20, 4 } << ':' << Hex { (busId & 0xff000) >> 12, 2 } << ':'
            << Hex { (busId & 0xff0) >> 4, 2 };
    return s;
}

std::string pciFull(std::uint32_t busId)
{
    std::string s = pciShort(busId);
    Text(s) << '.' << Hex { busId & 0xf, 0 };
    return s;
}

int Job::ranksOn(int node) const
{
    return std::min(perNode, world - node * perNode);
}

std::vector<int> Job::ring(int channel) const
{
    std::vector<int> r;
    r.reserve(static_cast<std::size_t>(world));
    for (int n = 0; n < nodes; ++n) {
        const int cnt = ranksOn(n);
        for (int i = 0; i < cnt; ++i) {
            const int local = (channel % 2 == 0) ? i : cnt - 1 - i;
            r.push_back(n * perNode + local);
        }
    }
    return r;
}

namespace {

int ringPosition(const Job& job, int rank, int channel)
{
    const int node = rank / job.perNode;
    const int cnt = job.ranksOn(node);
    const int local = rank % job.perNode;
    const int inNode = (channel % 2 == 0) ? local : cnt - 1 - local;
    return node * job.perNode + inNode;
}

int rankAtPosition(const Job& job, int pos, int channel)
{
    const int node = pos / job.perNode;
    const int cnt = job.ranksOn(node);
    const int inNode = pos % job.perNode;
    const int local = (channel % 2 == 0) ? inNode : cnt - 1 - inNode;
    return node * job.perNode + local;
}

} // namespace

int Job::ringPrev(int rank, int channel) const
{
    const int pos = ringPosition(*this, rank, channel);
    return rankAtPosition(*this, (pos + world - 1) % world, channel);
}

int Job::ringNext(int rank, int channel) const
{
    const int pos = ringPosition(*this, rank, channel);
    return rankAtPosition(*this, (pos + 1) % world, channel);
}

int Job::opIndex(std::int64_t seq) const
{
    for (std::size_t i = 0; i < program.size(); ++i)
        if (program[i].seq == seq)
            return static_cast<int>(i);
    return -1;
}

Micros Job::rankJitter(int rank, int step) const
{
    // Ranks leave a synchronizing collective within tens of milliseconds of each other.
    const std::uint64_t h = Rng::mix(
        Rng::mix(seed, static_cast<std::uint64_t>(rank) + 77), static_cast<std::uint64_t>(step));
    return static_cast<Micros>(h % (90 * kMilli));
}

Micros Job::enqueueTime(int rank, int opIdx) const
{
    const Collective& c = program[static_cast<std::size_t>(opIdx)];
    return stepStart[static_cast<std::size_t>(c.step)] + c.offset + rankJitter(rank, c.step)
        + (opIdx % 5) * 37;
}

std::string Job::runDirName(int node) const
{
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    Rng rng = Rng::derived(seed, "mkdtemp", static_cast<std::uint64_t>(node));
    std::string s = runId + "_";
    for (int i = 0; i < 8; ++i)
        s.push_back(kChars[rng.uniform(0, 36)]);
    return s;
}

std::string Job::elasticRunDir(int node) const
{
    const std::string base
        = options.layout == Layout::TorchrunLogdir ? "/logs" : "/tmp/" + logDirTag;
    return base + "/" + runDirName(node);
}

namespace {

void buildHosts(Job& job, Rng& rng)
{
    static const char* kStyles[] = { "node", "gpu", "ip", "dgx" };
    const std::string style = rng.pick(kStyles);
    const int base = rng.uniformInt(1, 40);
    const int ipA = rng.uniformInt(1, 240);
    const int ipC = rng.uniformInt(0, 30);
    const int ipD = rng.uniformInt(10, 120);
    const bool container = rng.chance(0.5);
    static const char* kGpuKinds[] = { "a100", "h100" };
    const std::string gpuKind = rng.pick(kGpuKinds);
    if (style == "node") {
        static const char* kDomains[] = { "cluster.local", "hpc.local", "int.example.org" };
        job.clusterDomain = rng.pick(kDomains);
    } else if (style == "gpu") {
        job.clusterDomain = "cluster.internal";
    } else if (style == "ip") {
        job.clusterDomain = "ec2.internal";
    } else {
        job.clusterDomain = "cm.cluster";
    }
    job.hosts.resize(static_cast<std::size_t>(job.nodes));
    for (int i = 0; i < job.nodes; ++i) {
        Host& h = job.hosts[static_cast<std::size_t>(i)];
        h.index = i;
        const int d = ipD + i;
        const int a = (style == "ip") ? 0 : ipA;
        const int c = ipC + d / 240;
        const int dd = 10 + d % 240;
        Text(h.ip) << "10." << a << '.' << c << '.' << dd;
        if (style == "node")
            Text(h.name) << "node-" << Pad { base + i, 2, '0' };
        else if (style == "gpu")
            Text(h.name) << "gpu-" << gpuKind << '-' << Pad { base + i, 3, '0' };
        else if (style == "ip")
            Text(h.name) << "ip-10-0-" << c << '-' << dd;
        else
            Text(h.name) << "dgx" << Pad { base + i, 2, '0' };
        h.fqdn = h.name + "." + job.clusterDomain;
        Rng hr = Rng::derived(job.seed, "host", static_cast<std::uint64_t>(i));
        const Micros uptime = hr.uniform(2, 60) * 86400 * kSecond + hr.uniform(0, 86399) * kSecond
            + hr.uniform(0, 999999);
        h.bootAt = -uptime;
        h.monoNsAtStart = static_cast<std::uint64_t>(uptime) * 1000
            + static_cast<std::uint64_t>(hr.uniform(0, 999));
        h.agentPid = container ? hr.uniformInt(7, 400) : hr.uniformInt(20000, 3900000);
        h.agentTid = 139600000000000ULL + static_cast<std::uint64_t>(hr.uniform(0, 900000000000LL));
        h.agentStart = hr.uniform(0, 2500) * kMilli;
    }
}

void buildRanks(Job& job)
{
    static const std::uint32_t kBusSets[3][8] = {
        { 0x18000, 0x2a000, 0x3a000, 0x5d000, 0x9a000, 0xab000, 0xba000, 0xdb000 },
        { 0x07000, 0x0f000, 0x47000, 0x4e000, 0x87000, 0x90000, 0xb7000, 0xbd000 },
        { 0x19000, 0x3b000, 0x4c000, 0x5d000, 0x9b000, 0xbb000, 0xcb000, 0xdb000 },
    };
    Rng rng = Rng::derived(job.seed, "ranks");
    const int set = rng.uniformInt(0, 2);
    const bool newPtrs = job.nccl.minor >= 23;
    job.ranks.resize(static_cast<std::size_t>(job.world));
    for (int r = 0; r < job.world; ++r) {
        RankInfo& ri = job.ranks[static_cast<std::size_t>(r)];
        Rng rr = Rng::derived(job.seed, "rank", static_cast<std::uint64_t>(r));
        ri.rank = r;
        ri.node = r / job.perNode;
        ri.local = r % job.perNode;
        const Host& h = job.hosts[static_cast<std::size_t>(ri.node)];
        if (job.launcher == Launcher::Torchrun)
            ri.pid = h.agentPid + 12 + ri.local;
        else
            ri.pid = h.agentPid + 3 + ri.local * 2;
        ri.initTid = ri.pid + rr.uniformInt(90, 220);
        ri.proxyTid = ri.initTid + rr.uniformInt(4, 60);
        ri.netPort = rr.uniformInt(32768, 60999);
        if (ri.local < 8)
            ri.busId = kBusSets[set][ri.local];
        else
            ri.busId = 0xe0000 + static_cast<std::uint32_t>(ri.local - 8) * 0x2000;
        ri.nic
            = job.nicsPerNode >= job.perNode ? ri.local : ri.local * job.nicsPerNode / job.perNode;
        if (newPtrs) {
            ri.commPtr = 0x5000000ULL + (static_cast<std::uint64_t>(rr.uniform(0, 0x3ffffff)) << 4);
            ri.tpCommPtr
                = ri.commPtr + 0x1a2c40 + (static_cast<std::uint64_t>(rr.uniform(0, 0xfff)) << 4);
        } else {
            ri.commPtr = 0x550000000000ULL
                + (static_cast<std::uint64_t>(rr.uniform(0, 0xffffffffLL)) << 4);
            ri.tpCommPtr
                = ri.commPtr + 0x2b7c90 + (static_cast<std::uint64_t>(rr.uniform(0, 0xfff)) << 4);
        }
        ri.streamPtr = (ri.commPtr & 0xffffff000000ULL) + 0x6b8d0
            + (static_cast<std::uint64_t>(rr.uniform(0, 0xfffff)) << 4);
        ri.bufBase
            = 0x7f0000000000ULL + (static_cast<std::uint64_t>(rr.uniform(0, 0xfffffff)) << 12);
        ri.procStart = h.agentStart + rr.uniform(900, 1600) * kMilli;
    }
}

void buildProgram(Job& job, Rng& rng)
{
    const int n = job.world;
    job.program.clear();
    job.stepFirstOp.assign(static_cast<std::size_t>(job.steps) + 1, 0);
    std::int64_t seq = 0;
    auto add = [&](Collective c) {
        c.pg = 0;
        c.seq = ++seq;
        job.program.push_back(c);
    };
    // Setup: a barrier (an all-reduce of one element on NCCL) and the DDP/FSDP parameter
    // broadcast from rank 0.
    job.stepFirstOp[0] = 0;
    {
        Collective barrier;
        barrier.op = Op::AllReduce;
        barrier.numelIn = barrier.numelOut = 1;
        barrier.cpuSync = true;
        barrier.offset = 0;
        add(barrier);
        const int nb = rng.uniformInt(1, 3);
        for (int i = 0; i < nb; ++i) {
            Collective b;
            b.op = Op::Broadcast;
            b.numelIn = b.numelOut = (i + 1 < nb)
                ? 65536000
                : static_cast<std::uint64_t>(rng.uniform(1000000, 60000000));
            b.offset = (2 + i * 3) * kSecond;
            add(b);
        }
    }
    const Micros dur = job.stepDuration;
    auto at = [&](double frac) { return static_cast<Micros>(static_cast<double>(dur) * frac); };
    const int buckets = rng.uniformInt(3, 6);
    const int layers = rng.uniformInt(4, 8);
    const std::uint64_t lastBucket = static_cast<std::uint64_t>(rng.uniform(500000, 6000000));
    const std::uint64_t layerParams = static_cast<std::uint64_t>(
        rng.pick(std::vector<std::int64_t> { 50331648, 67108864, 113246208, 201326592 }));
    const std::uint64_t shard
        = (layerParams + static_cast<std::uint64_t>(n) - 1) / static_cast<std::uint64_t>(n);
    for (int s = 1; s <= job.steps; ++s) {
        job.stepFirstOp[static_cast<std::size_t>(s)] = static_cast<int>(job.program.size());
        Collective tok;
        tok.op = Op::AllReduce;
        tok.numelIn = tok.numelOut = 1;
        tok.step = s;
        tok.offset = at(0.06);
        tok.cpuSync = true;
        add(tok);
        if (!job.fsdp) {
            for (int b = 0; b < buckets; ++b) {
                Collective c;
                c.op = Op::AllReduce;
                c.numelIn = c.numelOut = (b + 1 < buckets) ? 6553600 : lastBucket;
                c.step = s;
                c.bucket = b;
                c.offset = at(0.45 + 0.4 * b / buckets);
                add(c);
            }
        } else {
            for (int l = 0; l < layers; ++l) {
                Collective c;
                c.op = Op::AllGatherBase;
                c.numelIn = shard;
                c.numelOut = shard * static_cast<std::uint64_t>(n);
                c.dtype = 9;
                c.step = s;
                c.offset = at(0.10 + 0.30 * l / layers);
                add(c);
            }
            for (int l = 0; l < layers; ++l) {
                Collective g;
                g.op = Op::AllGatherBase;
                g.numelIn = shard;
                g.numelOut = shard * static_cast<std::uint64_t>(n);
                g.dtype = 9;
                g.step = s;
                g.offset = at(0.45 + 0.42 * l / layers);
                add(g);
                Collective r;
                r.op = Op::ReduceScatterBase;
                r.numelIn = shard * static_cast<std::uint64_t>(n);
                r.numelOut = shard;
                r.dtype = 9;
                r.step = s;
                r.offset = g.offset + at(0.02);
                add(r);
            }
        }
        Collective loss;
        loss.op = Op::AllReduce;
        loss.numelIn = loss.numelOut = 2;
        loss.step = s;
        loss.offset = at(0.93);
        loss.cpuSync = true;
        add(loss);
    }
    // Tensor-parallel group: two all-reduces per layer and step, forward and backward.
    job.tpProgram.clear();
    if (job.tpSize > 0) {
        std::int64_t tseq = 0;
        for (int s = 1; s <= job.steps; ++s) {
            for (int l = 0; l < 2 * layers; ++l) {
                Collective c;
                c.pg = 1;
                c.seq = ++tseq;
                c.op = Op::AllReduce;
                c.numelIn = c.numelOut = 16777216;
                c.dtype = 9;
                c.step = s;
                c.offset
                    = at(l < layers ? 0.10 + 0.3 * l / layers : 0.45 + 0.4 * (l - layers) / layers)
                    + 150;
                job.tpProgram.push_back(c);
            }
        }
    }
}

std::string randomTag(Rng& rng, int len)
{
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    std::string s;
    for (int i = 0; i < len; ++i)
        s.push_back(kChars[rng.uniform(0, 36)]);
    return s;
}

} // namespace

Job buildJob(const ScenarioOptions& options, std::uint64_t seed)
{
    Job job;
    job.options = options;
    job.seed = seed;
    job.torch = torchDialect(options.torch);
    job.nccl = ncclDialect(options.nccl);
    Rng rng = Rng::derived(seed, "job");
    auto draw = [seed](const char* what) { return Rng::derived(seed, what); };

    // A realistic local start: 2023-03 .. 2025-12, any hour.
    const std::int64_t day0 = Calendar::daysFromCivil(2023, 3, 1);
    const std::int64_t day1 = Calendar::daysFromCivil(2025, 12, 20);
    const std::int64_t day = rng.uniform(day0, day1);
    job.calendar = Calendar(day * 86400 + rng.uniform(0, 86399));

    job.world = options.ranks;
    job.perNode = std::min(options.ranksPerNode, options.ranks);
    job.nodes = (job.world + job.perNode - 1) / job.perNode;
    switch (options.layout) {
    case Layout::PerRank:
        job.launcher = options.torchrunSummary ? Launcher::Torchrun : Launcher::Srun;
        break;
    case Layout::SrunCombined:
        job.launcher = Launcher::Srun;
        break;
    default:
        job.launcher = Launcher::Torchrun;
        break;
    }
    static const Framework kFrameworks[]
        = { Framework::Plain, Framework::Plain, Framework::Megatron, Framework::DeepSpeed };
    job.framework = rng.pick(kFrameworks);
    job.fsdp = draw("fsdp").chance(0.35) && job.framework == Framework::Plain;
    job.tpSize = 0;
    {
        Rng tp = draw("tp");
        const bool wantTp = tp.chance(0.6);
        const int size = tp.pick(std::vector<int> { 2, 4, 8 });
        if (job.framework == Framework::Megatron && job.perNode >= 2 && wantTp)
            job.tpSize = job.perNode >= 8 ? size : 2;
    }
    job.roce = rng.chance(0.3);
    static const char* kIfnames[] = { "eth0", "eth0", "ens5", "enp45s0f0", "bond0", "ibp12s0" };
    job.ifname = rng.pick(kIfnames);
    job.nicsPerNode = rng.chance(0.7) ? std::max(1, std::min(job.perNode, 8))
                                      : std::max(1, std::min(job.perNode, 4));
    job.channels = rng.pick(std::vector<int> { 2, 2, 4, 4, 8 });
    job.worldCommId = rng.next();
    job.tpCommIdBase = rng.next();

    // Software environment.
    const int pyMinor = job.torch.pythonMinor;
    const int env = rng.uniformInt(0, 2);
    static const char* kUsers[] = { "alice", "mlops", "jdoe", "train" };
    const std::string user = rng.pick(kUsers);
    std::string pyver = "3." + std::to_string(pyMinor);
    static const char* kPatch[] = { "12", "14", "9", "4" };
    job.pythonVersion = pyver + "." + rng.pick(kPatch);
    if (env == 0) {
        job.pythonExe = "/usr/bin/python";
        job.sitePackages = "/usr/local/lib/python" + pyver + "/dist-packages";
        job.torchrunPath = "/usr/local/bin/torchrun";
    } else if (env == 1) {
        job.pythonExe = "/opt/conda/bin/python" + pyver;
        job.sitePackages = "/opt/conda/lib/python" + pyver + "/site-packages";
        job.torchrunPath = "/opt/conda/bin/torchrun";
    } else {
        job.pythonExe = "/home/" + user + "/venvs/llm/bin/python";
        job.sitePackages = "/home/" + user + "/venvs/llm/lib/python" + pyver + "/site-packages";
        job.torchrunPath = "/home/" + user + "/venvs/llm/bin/torchrun";
    }
    switch (job.framework) {
    case Framework::Megatron:
        job.script = "pretrain_gpt.py";
        job.scriptDir = "/workspace/Megatron-LM";
        job.scriptArgs = "--tensor-model-parallel-size " + std::to_string(std::max(job.tpSize, 1))
            + " --num-layers 32 --hidden-size 4096 --micro-batch-size 1 --global-batch-size 512 "
              "--bf16";
        break;
    case Framework::DeepSpeed:
        job.script = "finetune.py";
        job.scriptDir = "/workspace/llm-finetune";
        job.scriptArgs
            = "--deepspeed ds_config_zero2.json --model_name_or_path meta-llama/Llama-2-7b-hf";
        break;
    case Framework::Plain:
        job.script = "train.py";
        job.scriptDir = rng.chance(0.5) ? "/workspace" : "/home/" + user + "/proj/trainer";
        job.scriptArgs = "--config configs/"
            + std::string(job.fsdp ? "llama_13b_fsdp" : "vit_l16_ddp") + ".yaml";
        break;
    }
    job.slurmJobId = rng.uniformInt(180000, 9800000);
    job.runId = rng.chance(0.5) ? "none" : std::to_string(job.slurmJobId);
    job.logDirTag = "torchelastic_" + randomTag(rng, 8);
    job.masterPort = rng.chance(0.7) ? 29500 : rng.uniformInt(20000, 40000);
    job.recordDecorator = draw("record").chance(0.5) || options.layout == Layout::TorchrunLogdir;
    job.torchInfoLogs = draw("torchinfo").chance(0.4);
    job.elasticInfoLogs = draw("elasticinfo").chance(0.4) || job.torch.order <= 200;
    job.flightRecorder = draw("fr").chance(0.5) && job.torch.order >= 240;
    if (options.flightRecorder) {
        // Dumps were asked for: the job ran with the trace buffer and CUDA-event timing on,
        // so entries go scheduled → started → completed ([formats 2.3] "state").
        job.flightRecorder = true;
        job.frBufferSize = options.frBufferSize;
        job.ncclTiming = true;
    }
    job.tqdmAllRanks = options.noise == Noise::High
        || (draw("tqdm").chance(0.25) && options.noise == Noise::Normal);
    job.killOnBadExit = draw("killonbadexit").chance(0.25) && job.launcher == Launcher::Srun;
    job.timeoutMs = job.torch.defaultTimeoutMs;
    if (draw("timeout30").chance(0.2) && job.torch.order >= 220)
        job.timeoutMs = 1800000;
    job.heartbeatSec = job.torch.heartbeatSec;
    job.monitorIntervalMs = job.torch.order <= 220 ? 5000 : 100;

    static const char* kRankNames[]
        = { "rank{R}.log", "rank_{R}.txt", "rank-{R4}.out", "train-{R4}.out" };
    job.perRankNameStyle = rng.pick(kRankNames);
    job.dmesgNameStyle = rng.chance(0.5) ? "{node}/dmesg.txt" : "dmesg-{node}.log";

    // NCCL environment echoed by INIT,ENV.
    if (rng.chance(0.7))
        job.ncclEnv.push_back("NCCL_SOCKET_IFNAME=" + job.ifname);
    if (rng.chance(0.5))
        job.ncclEnv.push_back(
            "NCCL_IB_TIMEOUT=" + std::to_string(rng.pick(std::vector<int> { 20, 22, 23 })));
    if (rng.chance(0.3))
        job.ncclEnv.push_back("NCCL_IB_RETRY_CNT=" + std::to_string(rng.uniformInt(7, 13)));
    if (rng.chance(0.4))
        job.ncclEnv.push_back("NCCL_IB_HCA=mlx5");
    if (job.roce)
        job.ncclEnv.push_back("NCCL_IB_GID_INDEX=3");

    {
        Rng hostRng = draw("hosts");
        buildHosts(job, hostRng);
    }
    buildRanks(job);

    job.steps = options.steps > 0 ? options.steps : 40;
    {
        Rng sd = draw("stepduration");
        const Micros fsdpDur = sd.uniform(1500, 5200) * kMilli;
        const Micros ddpDur = sd.uniform(350, 1500) * kMilli;
        job.stepDuration = job.fsdp ? fsdpDur : ddpDur;
    }
    Micros latestStart = 0;
    for (const RankInfo& ri : job.ranks)
        latestStart = std::max(latestStart, ri.procStart);
    job.setupAt = latestStart + rng.uniform(14, 30) * kSecond;
    job.trainStart = job.setupAt + rng.uniform(25, 70) * kSecond;
    job.stepStart.assign(static_cast<std::size_t>(job.steps) + 1, 0);
    job.stepStart[0] = job.setupAt;
    Micros t = job.trainStart;
    for (int s = 1; s <= job.steps; ++s) {
        job.stepStart[static_cast<std::size_t>(s)] = t;
        const double wobble = 1.0 + (rng.unit() - 0.5) * 0.06;
        t += static_cast<Micros>(static_cast<double>(job.stepDuration) * wobble);
    }
    {
        Rng programRng = draw("program");
        buildProgram(job, programRng);
    }
    return job;
}

} // namespace rankscope::simulator
