#include "siderenderer.h"

#include "dialect.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rankscope::simulator {

namespace {

// Source lines of the elastic agent per PyTorch version (glog-style prefixes show them).
struct AgentLines {
    int run;
    int launcherApi;
    int rendezvous;
    int startGroup;
    int sigterm;
    int failed;
    int unable;
    int errorsWrapper;
    int runMain;
    int runRun;
    int launcherCall;
    int launchAgentRaise;
};

AgentLines agentLinesFor(int order)
{
    switch (order) {
    case 113:
        return { 0, 0, 0, 0, 0, 0, 0, 346, 762, 753, 132, 246 };
    case 200:
        return { 0, 0, 0, 0, 0, 0, 0, 346, 794, 785, 134, 250 };
    case 220:
        return { 0, 0, 0, 0, 0, 0, 0, 347, 812, 803, 135, 268 };
    case 240:
        return { 779, 188, 525, 536, 858, 833, 874, 348, 901, 892, 133, 264 };
    case 260:
        return { 792, 190, 543, 554, 897, 869, 911, 355, 918, 909, 138, 269 };
    default:
        return { 766, 191, 546, 557, 900, 874, 914, 355, 892, 883, 139, 270 };
    }
}

std::string rangeList(const std::vector<int>& v)
{
    std::string s;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
            ++j;
        if (!s.empty())
            s += ',';
        s += std::to_string(v[i]);
        if (j > i)
            s += '-' + std::to_string(v[j]);
        i = j + 1;
    }
    return s;
}

std::string signalName(int code)
{
    switch (-code) {
    case 6:
        return "SIGABRT";
    case 9:
        return "SIGKILL";
    case 11:
        return "SIGSEGV";
    case 15:
        return "SIGTERM";
    default:
        return "<N/A>";
    }
}

} // namespace

void SideRenderer::agentPrefix(std::string& o, char sev, Micros t, int node,
    std::string_view module, std::string_view file, int line) const
{
    const int order = m_job.torch.order;
    const Host& h = m_job.hosts[static_cast<std::size_t>(node)];
    Text x(o);
    const char* level = sev == 'E' ? "ERROR" : (sev == 'W' ? "WARNING" : "INFO");
    if (order <= 200) {
        x << level << ':' << module << ':';
        return;
    }
    if (order == 220) {
        x << '[';
        m_job.calendar.appendDateTime(o, t, ' ');
        x << ',' << Pad { (t / kMilli) % 1000, 3, '0' } << "] " << module << ": [" << level << "] ";
        return;
    }
    x << sev;
    m_job.calendar.appendMonthDayTime(o, t);
    x << '.' << Pad { ((t / kMilli) % 1000) * 1000, 6, '0' } << ' ';
    if (order == 240)
        x << h.agentTid << ' ' << file;
    else
        x << h.agentPid << " site-packages/" << file;
    x << ':' << line << "] ";
}

void SideRenderer::agentLines(RankStream& rs, Micros t, char sev, int node, std::string_view module,
    std::string_view file, int line, const std::string& message) const
{
    LineOut l(rs, t, Stream::Err);
    const bool everyLine = m_job.torch.order > 200;
    std::size_t start = 0;
    bool first = true;
    while (start <= message.size()) {
        std::size_t nl = message.find('\n', start);
        if (nl == std::string::npos)
            nl = message.size();
        if (first || everyLine)
            agentPrefix(l.str(), sev, t, node, module, file, line);
        l << std::string_view(message).substr(start, nl - start) << '\n';
        first = false;
        if (nl == message.size())
            break;
        start = nl + 1;
    }
}

RankStream SideRenderer::agentLog(int node) const
{
    RankStream rs;
    const Job& J = m_job;
    const Host& h = J.hosts[static_cast<std::size_t>(node)];
    const AgentLines L = agentLinesFor(J.torch.order);
    const NodeOutcome& out = m_plan.nodes[static_cast<std::size_t>(node)];
    const Micros t0 = h.agentStart;
    const int first = J.firstRankOf(node);
    const int cnt = J.ranksOn(node);
    const std::string runModule = "torch.distributed.run";
    if (cnt > 1)
        agentLines(rs, t0, 'W', node, runModule, "torch/distributed/run.py", L.run,
            "\n*****************************************\nSetting OMP_NUM_THREADS environment "
            "variable for each process to be 1 in default, to avoid your system being overloaded, "
            "please further tune the variable for optimal performance in your application as "
            "needed. \n*****************************************");
    const std::string elasticDir = J.elasticRunDir(node);
    if (J.elasticInfoLogs) {
        std::string cfg;
        Text c(cfg);
        c << "Starting elastic_operator with launch configs:\n  entrypoint       : " << J.script
          << "\n  min_nodes        : " << J.nodes << "\n  max_nodes        : " << J.nodes
          << "\n  nproc_per_node   : " << cnt << "\n  run_id           : " << J.runId
          << "\n  rdzv_backend     : c10d\n  rdzv_endpoint    : " << J.hosts[0].name << ':'
          << J.masterPort
          << "\n  rdzv_configs     : {'timeout': 900}\n  max_restarts     : 0\n  monitor_interval "
             ": "
          << (J.monitorIntervalMs >= 1000 ? std::to_string(J.monitorIntervalMs / 1000)
                                          : std::string("0.1"))
          << "\n  log_dir          : "
          << (J.options.layout == Layout::TorchrunLogdir ? "/logs" : "None")
          << "\n  metrics_cfg      : {}\n";
        agentLines(rs, t0 + 5 * kMilli, 'I', node, "torch.distributed.launcher.api",
            "torch/distributed/launcher/api.py", L.launcherApi, cfg);
        agentLines(rs, t0 + 9 * kMilli, 'I', node,
            "torch.distributed.elastic.agent.server.local_elastic_agent",
            "torch/distributed/elastic/agent/server/local_elastic_agent.py", L.launcherApi + 40,
            "log directory set to: " + elasticDir);
        agentLines(rs, t0 + 10 * kMilli, 'I', node, "torch.distributed.elastic.agent.server.api",
            "torch/distributed/elastic/agent/server/api.py", L.rendezvous - 120,
            "[default] starting workers for entrypoint: python");
        agentLines(rs, t0 + 11 * kMilli, 'I', node, "torch.distributed.elastic.agent.server.api",
            "torch/distributed/elastic/agent/server/api.py", L.rendezvous + 160,
            "[default] Rendezvous'ing worker group");
        Micros rdzv = 0;
        for (const Host& o : J.hosts)
            rdzv = std::max(rdzv, o.agentStart);
        rdzv += 400 * kMilli
            + Rng::derived(J.seed, "rdzv", static_cast<std::uint64_t>(node)).uniform(0, 300)
                * kMilli;
        std::string res;
        Text x(res);
        auto list = [&](auto fn) {
            x << '[';
            for (int i = 0; i < cnt; ++i)
                x << (i ? ", " : "") << fn(i);
            x << ']';
        };
        x << "[default] Rendezvous complete for workers. Result:\n  restart_count=0\n  master_addr="
          << J.hosts[0].fqdn << "\n  master_port=" << J.masterPort + 1 << "\n  group_rank=" << node
          << "\n  group_world_size=" << J.nodes << "\n  local_ranks=";
        list([](int i) { return i; });
        x << "\n  role_ranks=";
        list([&](int i) { return first + i; });
        x << "\n  global_ranks=";
        list([&](int i) { return first + i; });
        x << "\n  role_world_sizes=";
        list([&](int) { return J.world; });
        x << "\n  global_world_sizes=";
        list([&](int) { return J.world; });
        x << '\n';
        agentLines(rs, rdzv, 'I', node, "torch.distributed.elastic.agent.server.api",
            "torch/distributed/elastic/agent/server/api.py", L.rendezvous, res);
        agentLines(rs, rdzv + 3 * kMilli, 'I', node, "torch.distributed.elastic.agent.server.api",
            "torch/distributed/elastic/agent/server/api.py", L.startGroup,
            "[default] Starting worker group");
        agentLines(rs, rdzv + 4 * kMilli, 'I', node,
            "torch.distributed.elastic.agent.server.local_elastic_agent",
            "torch/distributed/elastic/agent/server/local_elastic_agent.py", 236,
            "Environment variable 'TORCHELASTIC_ENABLE_FILE_TIMER' not found. Do not start "
            "FileTimerServer.");
        for (int i = 0; i < cnt; ++i)
            agentLines(rs, rdzv + (5 + i) * kMilli, 'I', node,
                "torch.distributed.elastic.multiprocessing",
                "torch/distributed/elastic/multiprocessing/__init__.py", 229,
                "Setting worker" + std::to_string(i) + " reply file to: " + elasticDir
                    + "/attempt_0/" + std::to_string(i) + "/error.json");
    }
    const std::string mp = "torch.distributed.elastic.multiprocessing.api";
    const std::string mpFile = "torch/distributed/elastic/multiprocessing/api.py";
    if (out.pollAt >= 0) {
        Micros t = out.pollAt;
        for (int r : out.terminated) {
            t += Rng::derived(J.seed, "sigterm-line", static_cast<std::uint64_t>(r))
                     .uniform(100, 4000);
            agentLines(rs, t, 'W', node, mp, mpFile, L.sigterm,
                "Sending process " + std::to_string(J.rankInfo(r).pid) + " closing signal SIGTERM");
        }
        for (int r : out.sigkilled)
            agentLines(rs, out.pollAt + 30 * kSecond, 'W', node, mp, mpFile, L.unable,
                "Unable to shutdown process " + std::to_string(J.rankInfo(r).pid)
                    + " via Signals.SIGTERM, forcefully exiting via Signals.SIGKILL");
        if (!out.failed.empty()) {
            // SubprocessContext reports min(failures, key=timestamp) of this node only.
            int rootRank = out.failed.front();
            Micros best = -1;
            for (int r : out.failed) {
                const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(r)];
                const bool file = !m_ranks.errorJson(r).empty();
                const Micros ts
                    = file ? p.deathAt / kSecond * kSecond : out.pollAt / kSecond * kSecond;
                if (best < 0 || ts < best) {
                    best = ts;
                    rootRank = r;
                }
            }
            const RankInfo& ri = J.rankInfo(rootRank);
            agentLines(rs, out.finishedAt, 'E', node, mp, mpFile, L.failed,
                "failed (exitcode: "
                    + std::to_string(m_plan.ranks[static_cast<std::size_t>(rootRank)].exitCode)
                    + ") local_rank: " + std::to_string(ri.local)
                    + " (pid: " + std::to_string(ri.pid) + ") of binary: " + J.pythonExe);
            if (J.options.torchrunSummary)
                childFailedTable(rs, node);
        }
    } else if (out.succeeded && J.elasticInfoLogs) {
        const std::string api = "torch.distributed.elastic.agent.server.api";
        const std::string apiFile = "torch/distributed/elastic/agent/server/api.py";
        agentLines(rs, out.finishedAt, 'I', node, api, apiFile, L.rendezvous + 200,
            "[default] worker group successfully finished. Waiting 300 seconds for other agents to "
            "finish.");
        agentLines(rs, out.finishedAt + kMilli, 'I', node, api, apiFile, L.rendezvous + 330,
            "Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other "
            "agents to finish");
        agentLines(rs, out.finishedAt + 2 * kSecond, 'I', node, api, apiFile, L.rendezvous + 340,
            "Done waiting for other agents. Elapsed: 1.9832172393798828 seconds");
    }
    rs.finalize(m_plan.collectAt);
    return rs;
}

void SideRenderer::childFailedTable(RankStream& rs, int node) const
{
    const Job& J = m_job;
    const NodeOutcome& out = m_plan.nodes[static_cast<std::size_t>(node)];
    const AgentLines L = agentLinesFor(J.torch.order);
    const std::string sp = J.sitePackages + "/torch/distributed/";
    std::string o;
    Text x(o);
    x << "Traceback (most recent call last):\n  File \"" << J.torchrunPath
      << "\", line 8, in <module>\n    sys.exit(main())\n";
    x << "  File \"" << sp << "elastic/multiprocessing/errors/__init__.py\", line "
      << L.errorsWrapper << ", in wrapper\n    return f(*args, **kwargs)\n";
    x << "  File \"" << sp << "run.py\", line " << L.runMain << ", in main\n    run(args)\n";
    x << "  File \"" << sp << "run.py\", line " << L.runRun << ", in run\n    elastic_launch(\n";
    x << "  File \"" << sp << "launcher/api.py\", line " << L.launcherCall
      << ", in __call__\n    return launch_agent(self._config, self._entrypoint, list(args))\n";
    x << "  File \"" << sp << "launcher/api.py\", line " << L.launchAgentRaise
      << ", in launch_agent\n    raise ChildFailedError(\n";
    x << "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n";

    struct Failure {
        int rank;
        std::string text;
        Micros ts;
    };
    std::vector<Failure> failures;
    const std::string title = J.script + " FAILED";
    std::size_t width = title.size();
    for (std::size_t idx = 0; idx < out.failed.size(); ++idx) {
        const int r = out.failed[idx];
        const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(r)];
        const RankInfo& ri = J.rankInfo(r);
        const std::string ej = m_ranks.errorJson(r);
        const bool hasFile = !ej.empty();
        // Signals have no error file: the timestamp is the agent's poll time ([formats 5.2]).
        const Micros ts = hasFile ? p.deathAt : out.pollAt;
        std::string f;
        Text y(f);
        y << '[' << idx << "]:\n  time      : ";
        J.calendar.appendDateTime(f, ts, '_');
        y << "\n  host      : " << J.hosts[static_cast<std::size_t>(node)].fqdn
          << "\n  rank      : " << r << " (local_rank: " << ri.local
          << ")\n  exitcode  : " << p.exitCode << " (pid: " << ri.pid << ")\n  error_file: ";
        if (hasFile) {
            y << J.elasticRunDir(node) << "/attempt_0/" << ri.local << "/error.json";
        } else {
            y << "<N/A>";
        }
        y << "\n  traceback : ";
        if (hasFile) {
            std::string tb = m_ranks.pythonTraceback(r);
            while (!tb.empty() && tb.back() == '\n')
                tb.pop_back();
            std::string indented;
            for (char c : tb) {
                indented += c;
                if (c == '\n')
                    indented += "  ";
            }
            y << indented;
        } else if (p.exitCode < 0) {
            y << "Signal " << -p.exitCode << " (" << signalName(p.exitCode) << ") received by PID "
              << ri.pid;
        } else {
            y << "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html";
        }
        std::size_t start = 0;
        while (start < f.size()) {
            std::size_t nl = f.find('\n', start);
            if (nl == std::string::npos)
                nl = f.size();
            width = std::max(width, nl - start);
            start = nl + 1;
        }
        failures.push_back({ r, f, ts / kSecond });
    }
    width = std::min<std::size_t>(width, 60);
    // Root cause: min by timestamp; ties keep dict (local rank) order.
    std::size_t root = 0;
    for (std::size_t i = 1; i < failures.size(); ++i)
        if (failures[i].ts < failures[root].ts)
            root = i;
    x << '\n'
      << std::string(width, '=') << '\n'
      << title << '\n'
      << std::string(width, '-') << "\nFailures:\n";
    bool any = false;
    for (std::size_t i = 0; i < failures.size(); ++i) {
        if (i == root)
            continue;
        x << failures[i].text << '\n';
        any = true;
    }
    if (!any)
        x << "  <NO_OTHER_FAILURES>\n";
    x << std::string(width, '-') << "\nRoot Cause (first observed failure):\n"
      << failures[root].text << '\n'
      << std::string(width, '=') << '\n';
    LineOut l(rs, out.finishedAt + 40 * kMilli, Stream::Err);
    l << o;
}

RankStream SideRenderer::srunLog() const
{
    RankStream rs;
    const Job& J = m_job;
    if (J.launcher != Launcher::Srun)
        return rs;
    // Group task exits per node and status, as srun reports them; tasks the step kill
    // terminated are reported per node once the step is gone.
    struct Group {
        Micros first = -1;
        int node = 0;
        std::string status;
        std::vector<int> ranks;
    };
    std::map<std::tuple<std::int64_t, int, std::string>, Group> groups;
    for (int r = 0; r < J.world; ++r) {
        const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(r)];
        if (p.deathAt < 0 || p.exitCode == 0)
            continue;
        std::string status;
        switch (p.exitCode) {
        case 1:
            status = "Exited with exit code 1";
            break;
        case -6:
            status = "Aborted (core dumped)";
            break;
        case -9:
            status = "Killed";
            break;
        case -11:
            status = "Segmentation fault (core dumped)";
            break;
        default:
            status = "Terminated";
            break;
        }
        const int node = J.rankInfo(r).node;
        const std::int64_t bucket = p.killedByLauncher ? -1 : (p.deathAt + 150 * kMilli) / kSecond;
        Group& g = groups[{ bucket, node, status }];
        g.node = node;
        g.status = status;
        g.ranks.push_back(r);
        const Micros shown
            = p.killedByLauncher ? p.deathAt + 400 * kMilli : p.deathAt + 150 * kMilli;
        g.first = g.first < 0 ? shown : std::max(g.first, shown);
    }
    if (m_plan.stepKilledAt >= 0) {
        LineOut l(rs, m_plan.stepKilledAt, Stream::Err);
        l << "srun: Job step aborted: Waiting up to 32 seconds for job step to "
             "finish.\nslurmstepd: error: *** STEP "
          << J.slurmJobId << ".0 ON " << J.hosts[0].name << " CANCELLED AT ";
        J.calendar.appendDateTime(l.str(), m_plan.stepKilledAt, 'T');
        l << " ***\n";
    }
    for (const auto& [key, g] : groups) {
        LineOut l(rs, g.first + g.node * 50, Stream::Err);
        l << "srun: error: " << J.hosts[static_cast<std::size_t>(g.node)].name << ": task"
          << (g.ranks.size() > 1 ? "s " : " ") << rangeList(g.ranks) << ": " << g.status << '\n';
    }
    if (m_plan.timeLimit) {
        LineOut l(rs, m_plan.collectAt, Stream::Err);
        l << "slurmstepd: error: *** JOB " << J.slurmJobId << " ON " << J.hosts[0].name
          << " CANCELLED AT ";
        J.calendar.appendDateTime(l.str(), m_plan.collectAt, 'T');
        l << " DUE TO TIME LIMIT ***\nslurmstepd: error: *** STEP " << J.slurmJobId << ".0 ON "
          << J.hosts[0].name << " CANCELLED AT ";
        J.calendar.appendDateTime(l.str(), m_plan.collectAt, 'T');
        l << " DUE TO TIME LIMIT ***\n";
    }
    rs.finalize(m_plan.collectAt);
    return rs;
}

// ------------------------------------------------------------------------------------

std::string SideRenderer::dmesg(int node) const
{
    const Job& J = m_job;
    const Host& h = J.hosts[static_cast<std::size_t>(node)];
    Rng rng = Rng::derived(J.seed, "dmesg", static_cast<std::uint64_t>(node));
    std::vector<std::pair<Micros, std::string>> lines;
    auto boot
        = [&](Micros uptime, std::string text) { lines.emplace_back(uptime, std::move(text)); };
    auto job
        = [&](Micros t, std::string text) { lines.emplace_back(t - h.bootAt, std::move(text)); };
    const bool h100 = J.ranks[0].busId == 0x19000;
    const std::string pciId = h100 ? "10de:2330" : "10de:20b2";
    boot(0,
        "Linux version 5.15.0-105-generic (buildd@lcy02-amd64-054) (gcc (Ubuntu "
        "11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #115-Ubuntu SMP Mon "
        "Apr 15 09:52:04 UTC 2024 (Ubuntu 5.15.0-105.115-generic 5.15.149)");
    boot(0,
        "Command line: BOOT_IMAGE=/boot/vmlinuz-5.15.0-105-generic "
        "root=UUID=3f9c2a4e-7b1d-4e0a-9c55-1d2e8f6a0b13 ro console=tty0 console=ttyS0,115200n8 "
        "iommu=pt pci=realloc=off");
    boot(0, "KERNEL supported cpus:");
    boot(0, "  Intel GenuineIntel");
    boot(0, "  AMD AuthenticAMD");
    boot(0, "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'");
    boot(0, "BIOS-provided physical RAM map:");
    boot(12, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 04/26/2024");
    boot(412, "tsc: Detected 2000.000 MHz processor");
    Micros u = 1200000 + rng.uniform(0, 200000);
    for (int l = 0; l < J.ranksOn(node); ++l) {
        const std::uint32_t bus = J.ranks[static_cast<std::size_t>(J.firstRankOf(node) + l)].busId;
        boot(u += 1311, "pci " + pciFull(bus) + ": [" + pciId + "] type 00 class 0x030200");
    }
    for (int l = 0; l < J.nicsPerNode; ++l) {
        const std::uint32_t bus = J.ranks[static_cast<std::size_t>(J.firstRankOf(node)
                                              + std::min(l, J.ranksOn(node) - 1))]
                                      .busId
            - 0x3000;
        boot(u += 977, "pci " + pciFull(bus) + ": [15b3:101b] type 00 class 0x020700");
    }
    boot(4102334, "nvme nvme0: 32/0/0 default/read/poll queues");
    u = 9800000 + rng.uniform(0, 500000);
    for (int l = 0; l < J.nicsPerNode; ++l) {
        const std::uint32_t bus = J.ranks[static_cast<std::size_t>(J.firstRankOf(node)
                                              + std::min(l, J.ranksOn(node) - 1))]
                                      .busId
            - 0x3000;
        boot(u += 41233, "mlx5_core " + pciFull(bus) + ": firmware version: 28.39.1002");
    }
    boot(14931002, "nvidia: loading out-of-tree module taints kernel.");
    boot(15002341, "nvidia-nvlink: Nvlink Core is being initialized, major device number 234");
    boot(15209877,
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.08  Tue Mar  5 22:42:15 UTC 2024");
    boot(15633014, "nvidia-uvm: Loaded the UVM driver, major device number 510.");
    u = 20100000 + rng.uniform(0, 800000);
    for (int l = 0; l < J.nicsPerNode; ++l) {
        const std::uint32_t bus = J.ranks[static_cast<std::size_t>(J.firstRankOf(node)
                                              + std::min(l, J.ranksOn(node) - 1))]
                                      .busId
            - 0x3000;
        boot(u += 30011,
            "mlx5_core " + pciFull(bus) + " mlx5_" + std::to_string(l) + ": Port: 1 Link ACTIVE");
    }
    boot(22004512,
        "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: "
        "none.");
    boot(31519877, "NFS: Registering the id_resolver key type");
    boot(31520101, "Key type id_resolver registered");
    // Background noise while the job runs.
    const Micros end = m_plan.collectAt;
    if (node == 0 && J.world > 64)
        job(J.hosts[0].agentStart + 900 * kMilli,
            "TCP: request_sock_TCP: Possible SYN flooding on port " + std::to_string(J.masterPort)
                + ". Sending cookies.  Check SNMP counters.");
    for (Micros t = -rng.uniform(2, 30) * kMinute; t < end; t += rng.uniform(3, 25) * kMinute) {
        const int kind = rng.uniformInt(0, 2);
        if (kind == 0)
            job(t,
                "perf: interrupt took too long (" + std::to_string(2501 + rng.uniformInt(0, 800))
                    + " > 2500), lowering kernel.perf_event_max_sample_rate to 79750");
        else if (kind == 1)
            job(t,
                "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, "
                "skipping further processing");
        else
            job(t,
                "systemd-journald[812]: Data hash table of "
                "/var/log/journal/5c1e0d6f2b7a4e2f9d0b3c7a1e8f4d26/system.journal has a fill level "
                "at 75.0 (7679 of 10239 items, 6291456 file size, 819 bytes per item), suggesting "
                "rotation.");
    }
    // healthy/benign_noise. NVIDIA's Xid catalogue files 13 (graphics engine exception), 31
    // (MMU fault) and 43 (channel stopped after such an error) under the application: here an
    // earlier job's process (a pid none of this job's ranks has) hit them hours before this job
    // started. Corrected errors were fixed by the hardware: a host DIMM's EDAC "CE" line, a
    // PCIe AER "severity=Corrected" notice, and Xid 92 (high single-bit ECC rate) on a GPU of
    // this job while it trains. None stops a kernel; every rank of the job exits 0.
    if (m_plan.benignNoise) {
        const int first = J.firstRankOf(node);
        const RankInfo& g0 = J.rankInfo(first);
        const RankInfo& g1 = J.rankInfo(first + std::min(1, J.ranksOn(node) - 1));
        const int oldPid = 100000 + static_cast<int>(rng.uniform(0, 800000));
        const Micros before = -rng.uniform(45, 180) * kMinute;
        const std::string x0 = "NVRM: Xid (PCI:" + pciShort(g0.busId) + "): ";
        const std::string x1 = "NVRM: Xid (PCI:" + pciShort(g1.busId) + "): ";
        const std::string who = ", pid=" + std::to_string(oldPid) + ", name=python3, ";
        job(before,
            x0 + "13" + who
                + "Graphics SM Warp Exception on (GPC 1, TPC 2, SM 0): Out Of Range Address");
        job(before + 15,
            x0 + "13" + who
                + "Graphics Exception: ESR 0x50c648=0x102000e 0x50c650=0x24 0x50c644=0xd3eff2 "
                  "0x50c64c=0x17f");
        job(before + 2 * kMilli, x0 + "43" + who + "Ch 00000008");
        const Micros later = before + rng.uniform(3, 20) * kMinute;
        job(later,
            x1 + "31, pid=" + std::to_string(oldPid + 17)
                + ", name=python3, Ch 00000010, intr 00000000. MMU Fault: ENGINE GRAPHICS "
                  "GPCCLIENT_T1_3 faulted @ 0x7f4a_12340000. Fault is of type FAULT_PDE "
                  "ACCESS_TYPE_VIRT_READ");
        const Micros during = J.trainStart + rng.uniform(5, 60) * kSecond;
        job(during,
            "EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 "
            "page:0x3f1a2c offset:0x740 grain:32 syndrome:0x0 - err_code:0x0000:0x009f)");
        job(during + 40 * kMilli, "mce: [Hardware Error]: Machine check events logged");
        const std::string rootPort = "0000:00:03.0"; // a root port, not a GPU
        job(during + rng.uniform(1, 9) * kSecond,
            "pcieport " + rootPort + ": AER: Corrected error received: " + rootPort);
        job(during + rng.uniform(1, 9) * kSecond + 30,
            "pcieport " + rootPort
                + ": PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)");
        job(during + rng.uniform(20, 90) * kSecond,
            x1 + "92, pid=" + std::to_string(g1.pid)
                + ", name=python, High single-bit ECC error rate");
    }
    // Scenario signals.
    for (int r : m_plan.xidRanks) {
        const RankInfo& ri = J.rankInfo(r);
        if (ri.node != node)
            continue;
        const std::string pci = pciShort(ri.busId);
        const std::string head = "NVRM: Xid (PCI:" + pci + "): " + std::to_string(m_plan.xid)
            + ", pid=" + std::to_string(ri.pid) + ", name=python, ";
        const Micros t = m_plan.xidAt + (r - m_plan.xidRanks[0]) * 3 * kMilli;
        switch (m_plan.xid) {
        case 79:
            job(t,
                "NVRM: Xid (PCI:" + pci + "): 79, pid=" + std::to_string(ri.pid)
                    + ", name=python, GPU has fallen off the bus.");
            job(t + 40, "NVRM: GPU " + pciFull(ri.busId) + ": GPU has fallen off the bus.");
            job(t + 90,
                "NVRM: GPU Board Serial Number: 1652"
                    + std::to_string(100000000 + ri.pid % 900000000));
            job(t + 120, "NVRM: A GPU crash dump has been created. If possible, please run");
            job(t + 121, "NVRM: nvidia-bug-report.sh as root to collect this data before");
            job(t + 122, "NVRM: the NVIDIA kernel module is unloaded.");
            break;
        case 48:
            job(t, head + "DBE (double bit error) ECC error.");
            job(t + 2 * kMilli,
                "NVRM: Xid (PCI:" + pci + "): 63, pid=" + std::to_string(ri.pid)
                    + ", name=python, Row Remapper: New row marked for remapping, reset gpu to "
                      "activate.");
            break;
        case 119:
            job(t,
                head + "Timeout after 6s of waiting for RPC response from GPU"
                    + std::to_string(ri.local)
                    + " GSP! Expected function 76 (GSP_RM_CONTROL) (0x2080014b 0x5).");
            job(t + 20,
                "NVRM: GPU" + std::to_string(ri.local)
                    + " GSP RPC buffer contains function 76 (GSP_RM_CONTROL) and data "
                      "0x000000002080014b 0x0000000000000005.");
            job(t + 6 * kSecond,
                head + "Timeout after 6s of waiting for RPC response from GPU"
                    + std::to_string(ri.local)
                    + " GSP! Expected function 10 (FREE) (0xa55a0040 0x0).");
            break;
        case 94:
            job(t, head + "Contained: SM (0x1). RST: No, D-RST: No");
            break;
        case 95:
            job(t, head + "Uncontained: FBHUB. RST: Yes, D-RST: No");
            break;
        case 74:
            job(t,
                head + "NVLink: fatal error detected on link "
                    + std::to_string(rng.uniformInt(0, 17))
                    + "(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)");
            break;
        default:
            break;
        }
    }
    if (m_plan.oomKilledRank >= 0 && J.rankInfo(m_plan.oomKilledRank).node == node) {
        const RankInfo& ri = J.rankInfo(m_plan.oomKilledRank);
        const Micros t
            = m_plan.ranks[static_cast<std::size_t>(m_plan.oomKilledRank)].eventAt - 40 * kMilli;
        const std::string pid = std::to_string(ri.pid);
        job(t,
            "python invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), "
            "order=0, oom_score_adj=0");
        job(t + 1,
            "CPU: 23 PID: " + pid
                + " Comm: python Tainted: P           OE     5.15.0-105-generic #115-Ubuntu");
        job(t + 2, "Mem-Info:");
        job(t + 30 * kMilli,
            "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/"
            ",mems_allowed=0-1,global_oom,task_memcg=/system.slice/slurmstepd.scope/job_"
                + std::to_string(J.slurmJobId) + ",task=python,pid=" + pid + ",uid=1000");
        job(t + 31 * kMilli,
            "Out of memory: Killed process " + pid
                + " (python) total-vm:412334556kB, anon-rss:1963311044kB, file-rss:412332kB, "
                  "shmem-rss:1048576kB, UID:1000 pgtables:3986432kB oom_score_adj:0");
    }
    if (m_plan.linkDownAt >= 0
        && std::find(m_plan.linkDownNodes.begin(), m_plan.linkDownNodes.end(), node)
            != m_plan.linkDownNodes.end()) {
        int nic = 0;
        for (const RankPlan& p : m_plan.ranks)
            if (p.fate == Fate::NetError && p.eventAt >= 0) {
                const int who = static_cast<int>(&p - m_plan.ranks.data());
                if (J.rankInfo(who).node == node)
                    nic = J.rankInfo(who).nic;
            }
        const std::uint32_t bus = J.ranks[static_cast<std::size_t>(J.firstRankOf(node)
                                              + std::min(nic, J.ranksOn(node) - 1))]
                                      .busId
            - 0x3000;
        const std::string dev
            = "mlx5_core " + pciFull(bus) + " mlx5_" + std::to_string(nic) + ": Port: 1 Link ";
        job(m_plan.linkDownAt, dev + "DOWN");
        job(m_plan.linkDownAt + 8 * kSecond + 123456, dev + "INIT");
        job(m_plan.linkDownAt + 9 * kSecond + 401122, dev + "ACTIVE");
    }
    std::stable_sort(
        lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out;
    for (const auto& [up, text] : lines) {
        if (up > end - h.bootAt)
            break;
        Text(out) << '[' << Pad { up / kSecond, 5 } << '.' << Pad { up % kSecond, 6, '0' } << "] "
                  << text << '\n';
    }
    return out;
}

// ------------------------------------------------------------------------------------

std::vector<int> SideRenderer::pyspyRanks() const
{
    std::vector<int> out;
    const Job& J = m_job;
    if (!J.options.pyspy || m_plan.forcedPyspyOff || !m_plan.hasHang || m_plan.pyspyAt < 0
        || m_plan.excerpt)
        return out;
    Rng rng = Rng::derived(J.seed, "pyspy-pick");
    for (int r = 0; r < J.world; ++r) {
        const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(r)];
        const bool alive = p.deathAt < 0 || p.deathAt > m_plan.pyspyAt;
        if (!alive || p.fate == Fate::Silent || m_plan.outputLost(r))
            continue;
        const bool initiating = std::find(m_plan.verdict.initiatingRanks.begin(),
                                    m_plan.verdict.initiatingRanks.end(), r)
            != m_plan.verdict.initiatingRanks.end();
        if (J.world <= 32 || initiating || rng.chance(24.0 / J.world))
            out.push_back(r);
    }
    return out;
}

std::string SideRenderer::pyspy(int rank) const
{
    const Job& J = m_job;
    const RankPlan& p = m_plan.ranks[static_cast<std::size_t>(rank)];
    const RankInfo& ri = J.rankInfo(rank);
    const TorchDialect& T = J.torch;
    std::string o;
    Text x(o);
    const std::string py = "3." + std::to_string(T.pythonMinor);
    x << "Process " << ri.pid << ": " << J.pythonExe
      << (J.launcher == Launcher::Torchrun ? " -u " : " ") << J.scriptDir << '/' << J.script << ' '
      << J.scriptArgs << '\n';
    x << "Python v" << J.pythonVersion << " (/usr/bin/python" << py << ")\n\n";
    const std::string script = J.script;
    auto frame = [&x](std::string_view fn, std::string_view file, int line) {
        x << "    " << fn << " (" << file << ':' << line << ")\n";
    };
    std::string status = "active";
    switch (p.fate) {
    case Fate::NeverEnters:
        status = p.kind == "checkpoint" ? "active" : "idle";
        break;
    case Fate::InitMissing:
    case Fate::Frozen:
        status = "idle";
        break;
    default:
        break;
    }
    x << "Thread " << ri.pid << " (" << status << "): \"MainThread\"\n";
    const std::string c10d = "torch/distributed/distributed_c10d.py";
    auto tailFrames = [&](int trainLine) {
        frame("train", script, trainLine);
        frame("main", script, 331);
        frame("<module>", script, 345);
    };
    switch (p.fate) {
    case Fate::NeverEnters:
        if (p.kind == "checkpoint") {
            frame("_save", "torch/serialization.py", T.order >= 240 ? 862 : 653);
            frame("save", "torch/serialization.py", T.order >= 240 ? 629 : 441);
            frame("save_checkpoint", script, 160);
            tailFrames(301);
        } else if (p.kind == "sleep") {
            frame("wait_for_lock", "utils/fs.py", 57);
            frame("load_next_shard_index", "data/shards.py", 112);
            tailFrames(279);
        } else {
            frame("select", "selectors.py", 416);
            frame("wait", "multiprocessing/connection.py", 931);
            frame("_poll", "multiprocessing/connection.py", 424);
            frame("poll", "multiprocessing/connection.py", 257);
            frame("get", "multiprocessing/queues.py", 113);
            frame("_try_get_data", "torch/utils/data/dataloader.py", 1133);
            frame("_get_data", "torch/utils/data/dataloader.py", 1294);
            frame("_next_data", "torch/utils/data/dataloader.py", 1332);
            frame("__next__", "torch/utils/data/dataloader.py", 631);
            tailFrames(281);
        }
        break;
    case Fate::InitMissing:
        frame("_do_read", "data/indexed_dataset.py", 211);
        frame("__init__", "data/indexed_dataset.py", 180);
        frame("build_dataset", "data/builder.py", 66);
        frame("main", script, 309);
        frame("<module>", script, 345);
        break;
    case Fate::Frozen:
        frame("read_index", "data/shards.py", 74);
        frame("build_index", "data/shards.py", 131);
        frame("main", script, 309);
        frame("<module>", script, 345);
        break;
    case Fate::InitWait:
        if (m_plan.newPgId > 0) {
            frame("all_reduce", c10d, T.c10dAllReduceLine);
            if (T.c10dLogger)
                frame("wrapper", "torch/distributed/c10d_logger.py", T.c10dLoggerLine);
            frame("evaluate", script, 176);
            tailFrames(297);
        } else {
            frame("barrier", c10d, T.c10dAllReduceLine + 1871);
            if (T.c10dLogger)
                frame("wrapper", "torch/distributed/c10d_logger.py", T.c10dLoggerLine);
            tailFrames(268);
        }
        break;
    default: {
        const Collective& w
            = p.hasWork ? p.work : J.program[static_cast<std::size_t>(std::max(0, m_plan.stuckOp))];
        if (w.cpuSync || !p.hasWork) {
            frame(
                c10dFunction(w.op), c10d, T.c10dAllReduceLine + (w.op == Op::Broadcast ? -480 : 0));
            if (T.c10dLogger)
                frame("wrapper", "torch/distributed/c10d_logger.py", T.c10dLoggerLine);
            frame(w.op == Op::Broadcast ? "sync_eval_flag" : "global_token_count", script, 141);
            frame("train_step", script, 214);
        } else {
            frame("train_step", script, 226);
        }
        tailFrames(288);
        break;
    }
    }
    x << "Thread " << ri.pid + 61 << " (idle): \"Thread-1 (_pin_memory_loop)\"\n";
    frame("select", "selectors.py", 416);
    frame("wait", "multiprocessing/connection.py", 931);
    frame("_poll", "multiprocessing/connection.py", 424);
    frame("poll", "multiprocessing/connection.py", 257);
    frame("get", "multiprocessing/queues.py", 113);
    frame("do_one_step", "torch/utils/data/_utils/pin_memory.py", 31);
    frame("_pin_memory_loop", "torch/utils/data/_utils/pin_memory.py", 54);
    frame("run", "threading.py", 953);
    frame("_bootstrap_inner", "threading.py", 1016);
    frame("_bootstrap", "threading.py", 973);
    if (rank == 0 || J.tqdmAllRanks) {
        x << "Thread " << ri.pid + 58 << " (idle): \"Thread-2\"\n";
        frame("wait", "threading.py", 324);
        frame("wait", "threading.py", 607);
        frame("run", "tqdm/_monitor.py", 60);
        frame("_bootstrap_inner", "threading.py", 1016);
        frame("_bootstrap", "threading.py", 973);
    }
    return o;
}

} // namespace rankscope::simulator
