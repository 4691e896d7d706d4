// Errors whose class is plain from the message while no rank can be named: a pasted excerpt of
// NCCL's own lines ("host:pid:tid [cudaDev]") names a process and a GPU index, not a rank,
// and nvidia-smi names a PCI address. The class is still the most useful thing to say
// ("give the class even when no rank can be named"); the rules for ranked evidence run first
// and outrank these.
//   NCCL could not allocate (src/include/alloc.h "Cuda failure 'out of memory'", "Failed to
//     CUDA calloc"), as a WARN line or quoted after PyTorch's "Last error:": resource
//     exhaustion on that GPU.
//   The host's memory ran out and a process of the job was killed for it (the kernel's OOM
//     killer naming a python process whose pid no rank printed; Ray's memory monitor,
//     node_manager.cc "Workers (tasks / actors) killed due to memory pressure (OOM)"):
//     resource exhaustion on that host.
//   NET/IB completion errors (src/transport/net_ib.cc): one host → a link between it and a
//     peer; the same status on several hosts → the fabric's configuration.
//   nvidia-smi "Unable to determine the device handle for GPU…: Unknown Error", or a CUDA
//     error that means the GPU itself broke ("uncorrectable ECC error encountered"): a
//     hardware fault.
//   A topology or graph file NCCL was given that does not fit the machine (graph/search.cc,
//     graph/xml.h): NCCL_GRAPH_FILE naming a device the job lacks, NCCL_TOPO_FILE (or a
//     network plugin's static file) missing a node attribute.
//   NVLS setup failing with a CUDA error (src/transport/nvls.cc): NVLink SHARP needs the
//     fabric manager's multicast objects; a CUDA error there is the node's NVSwitch/fabric
//     manager state, not the GPU or the job.
//   Socket creation or interface selection failing (src/misc/socket.cc, bootstrap): the
//     network interface configuration (NCCL_SOCKET_IFNAME, IPv4/IPv6 family).
//   A CUDA kernel of the program faulting on a process no line ties to a rank (an illegal
//     memory access or instruction, a device-side assert): that process crashed.
//   nccl-tests printing its banner or summary twice with no result between (common.h PRINT,
//     rank 0 of a world only): every process ran a test of its own, the tests are not built
//     with the MPI that launched them.
//   nccl-tests on one host printing its table's header and nothing after it, no error: the
//     first collective never completed between GPUs of one host, where the peer-to-peer path
//     through PCIe (ACS redirecting it to the root complex, an IOMMU translating it) is the
//     known cause NCCL's troubleshooting guide names.
//   argparse refusing the script's command line ("train.py: error: unrecognized arguments:
//     --local-rank=0", exit 2): the launch, the same for every worker.
//   A Gloo connection refused by a loopback address (gloo/transport/tcp/pair.cc): a rank's
//     hostname resolved to 127.x (or to nothing, and PyTorch fell back to loopback), so it
//     published an address its peers on other hosts cannot reach (GLOO_SOCKET_IFNAME).

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"
#include "model/shortentext.h"

#include <map>
#include <set>

namespace rankscope::model {

namespace {

std::string hostOfEvent(const Bundle& b, const Event& e)
{
    if (e.rank >= 0 && b.ranks[e.rank].host != kNoStr)
        return std::string(b.text(b.ranks[e.rank].host));
    if (e.identity < b.identities.size() && b.identities[e.identity].host != kNoStr)
        return std::string(b.text(b.identities[e.identity].host));
    return {};
}

bool contains(std::string_view text, std::string_view needle)
{
    return text.find(needle) != std::string_view::npos;
}

void addEvidence(const Bundle& b, Finding& f, const std::vector<std::uint32_t>& events)
{
    for (std::size_t i = 0; i < events.size() && f.evidence.size() < 4; ++i)
        f.evidence.push_back(evidenceOf(b, events[i]));
}

// The first event's message, cut for a sentence.
std::string firstText(
    const Bundle& b, const std::vector<std::uint32_t>& events, std::size_t length = 120)
{
    return shortenText(b.text(b.events[events.front()].text), length);
}

// A cause the messages state: its finding and its proposal say the same thing, under one id
// (the finding's rule id and the proposal's row of the precedence table). The words — title,
// explanation, the verdict's sentence — are the rule's entry in the knowledge base, filled
// with `values` ({evidence}: the first line's message, {evidence_short}: its first 80 bytes).
// The NVLS set-up events of the processes whose NCCL output ends on one (NCCL 2.17–2.21's "NVLS
// Bind mem …" and the group-joining steps before it), when every process that started NCCL's
// set-up and did not complete it ends so. Empty otherwise.
std::vector<std::uint32_t> nvlsSetupStalled(const Bundle& b)
{
    std::map<std::uint32_t, std::uint32_t> lastNccl; // identity → its last NCCL event
    std::set<std::uint32_t> completed;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        const bool nccl = (e.kind >= EventKind::NcclVersion && e.kind <= EventKind::NcclErrorChain)
            || e.kind == EventKind::NcclNvlsSetup;
        if (nccl)
            lastNccl[e.identity] = i;
        if (e.kind == EventKind::NcclInitComplete)
            completed.insert(e.identity);
    }
    for (const CommInit& c : b.commInits)
        if (c.complete)
            completed.insert(c.identity);
    for (const CollTrace& t : b.collTraces)
        completed.insert(t.identity);
    std::vector<std::uint32_t> stalled;
    for (const auto& [identity, last] : lastNccl) {
        if (completed.count(identity))
            continue;
        if (b.events[last].kind != EventKind::NcclNvlsSetup)
            return {};
        stalled.push_back(last);
    }
    return stalled;
}

struct StatedCause {
    Precedence rule;
    RootCauseClass cls;
    double confidence;
    Placeholders values = {};
    std::vector<std::int32_t> ranks = {};
    // A lead rather than a cause: where to look, stated as inconclusive (with the class when
    // one is known).
    bool lead = false;
};

void conclude(const RuleContext& ctx, RuleOutput& out, StatedCause c,
    const std::vector<std::uint32_t>& events)
{
    const std::string id(c.rule.id());
    c.values.emplace("evidence", firstText(ctx.bundle, events));
    c.values.emplace("evidence_short", firstText(ctx.bundle, events, 80));
    const KnowledgeEntry* words = ctx.knowledge.forRule(id);
    Finding& f = out.add(ctx, id, c.cls, c.values);
    f.ranks = c.ranks;
    if (f.title.empty())
        f.title = id; // a knowledge base without the rule: its id, never an empty title
    addEvidence(ctx.bundle, f, events);
    f.confidence = c.confidence;
    f.explanation = words ? renderTemplate(words->summary, c.values) : std::string();
    Proposal& p = out.propose(c.cls, c.ranks, c.confidence, c.rule,
        words ? renderTemplate(words->verdict, c.values) : id);
    if (c.lead)
        p.status = DiagnosisStatus::Inconclusive;
}

// The dynamic loader could not give the framework a working NCCL: XLA's stub says "Unable to
// load NCCL library", Python's import says "libnccl.so.2: cannot open shared object file" or
// "undefined symbol: ncclCommRegister" (a libnccl older than the one the framework was built
// against). Nothing ran, so no rank is at fault: the installation is.
bool isNcclLibraryText(std::string_view text)
{
    return contains(text, "Unable to load NCCL library") || contains(text, "undefined symbol: nccl")
        || (contains(text, "libnccl")
            && (contains(text, "cannot open shared object file")
                || contains(text, "undefined symbol")));
}

// CUDA refusing the setup rather than failing a computation: a device index past the GPUs
// the process can see, no GPU at all, a driver older than the CUDA runtime. The host's or the
// launch's configuration; every rank started the same way meets it.
bool isCudaSetupText(std::string_view text)
{
    return contains(text, "invalid device ordinal") || contains(text, "no CUDA-capable device")
        || contains(text, "driver version is insufficient") || contains(text, "forward compatibility was attempted")
        || contains(text, "unsupported display driver");
}

// A kernel of the program faulted on its GPU (CUDA's strings for it, or the device's own assert
// message): the context is lost and the process can only exit. The program's fault, not the
// GPU's (those are isCudaStickyText).
bool isCudaKernelFaultText(std::string_view text)
{
    return contains(text, "an illegal memory access was encountered") || contains(text, "illegal instruction")
        || contains(text, "ILLEGAL_INSTRUCTION") || contains(text, "ILLEGAL_ADDRESS")
        || contains(text, "device-side assert triggered") || contains(text, "misaligned address")
        || contains(text, "unspecified launch failure")
        || (contains(text, ".cu:") && contains(text, "Assertion `") && contains(text, "` failed"));
}

// The process ran out of file descriptors (EMFILE, "Too many open files"): PyTorch's DataLoader
// says so in its own words ("Too many open files. Communication with the workers is no longer
// possible. Please increase the limit using `ulimit -n` …", torch/utils/data/dataloader.py), and
// a worker's batch whose descriptors could not be passed arrives as "received 0 items of
// ancdata" (multiprocessing.reduction, the file_descriptor sharing strategy). The limit is the
// job's setting; every rank has the same.
bool isOpenFilesLimitText(std::string_view text)
{
    return contains(text, "Too many open files") || contains(text, "received 0 items of ancdata");
}

// NCCL's ncclSystemError as PyTorch, XLA, vLLM or nccl-tests quote it ("unhandled system error";
// PyTorch ≤1.3 spelled it "unhanled"), with nothing of the call that failed.
bool isNcclSystemErrorText(std::string_view text)
{
    return contains(text, "unhandled system error") || contains(text, "unhanled system error")
        || contains(text, "ncclSystemError");
}

// transport/nvls.cc's own words for cuMulticastBindMem failing (NCCL ≥2.27; older releases
// printed "Cuda failure N" from the same file, an NcclCudaFailure whose file says nvls).
bool isNvlsBindText(std::string_view text)
{
    return contains(text, "(NVLS)") && contains(text, "CUDA error");
}

// NCCL could not open its socket on the interface it chose (src/misc/socket.cc, bootstrap.cc):
// no interface matched NCCL_SOCKET_IFNAME, or it has no address of the family asked for.
bool isSocketInterfaceText(std::string_view text)
{
    return contains(text, "Address family not supported") || contains(text, "no socket interface found")
        || contains(text, "No socket interface found") || contains(text, "Socket creation failed")
        // ncclSocketInit on an address never filled in: no interface matched NCCL_SOCKET_IFNAME.
        || contains(text, "is neither AF_INET") || contains(text, "No usable listening interface");
}

// NCCL read a topology or graph description that does not fit the machine it runs on: a
// channel of NCCL_GRAPH_FILE names a device the job does not have (graph/search.cc "XML Import
// Channel : dev N not found"), or a node of the topology XML (NCCL_TOPO_FILE, a network
// plugin's static file) lacks an attribute NCCL needs (graph/xml.h "Attribute arch of node cpu
// not found", a WARN; the INFO of the same words is NCCL probing optional attributes).
bool isTopologyFileText(std::string_view text)
{
    return contains(text, "XML Import Channel") || (contains(text, "Attribute ") && contains(text, " of node ") && contains(text, " not found"));
}

// The one rank all the events name, or -1 (none, or several).
std::int32_t onlyRankOf(const Bundle& b, const std::vector<std::uint32_t>& events)
{
    std::set<std::int32_t> ranks;
    for (std::uint32_t i : events)
        ranks.insert(b.events[i].rank);
    return ranks.size() == 1 ? *ranks.begin() : -1;
}

// The kinds of event that quote an NCCL error's words as their message: where a bare
// ncclSystemError shows.
bool quotesNcclError(EventKind kind)
{
    return kind == EventKind::TorchNcclApiError || kind == EventKind::TorchAsyncNcclError
        || kind == EventKind::TorchWatchdogException || kind == EventKind::PythonException
        || kind == EventKind::NcclTestsFailure;
}

} // namespace

void ruleUnmappedErrors(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::uint32_t> allocation, ib, inaccessible, nvls, socketConfig, brokenGpu,
        portInUse, memlock, ncclMismatch, ncclLibrary, ofiRegistration, glooLoopback, glooFallback,
        loadingBarrier, testsSetup, testsWorlds, testsStalled, testsStalledHosts, rankDisagreement, kernelFault, qpSetup, commandLine,
        openFiles, topologyFile, p2pUnsupported;
    std::map<std::pair<SourceId, std::int32_t>, std::vector<std::uint32_t>> rankStatements;
    std::map<std::int32_t, std::set<std::string>> ibHostsByStatus;
    std::vector<std::uint32_t> systemError;
    bool ran = false; // a step logged or a collective timed out
    bool anyFailure = false;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        const std::string_view text = b.text(e.text);
        anyFailure |= e.severity >= Severity::Error;
        ran |= e.kind == EventKind::TrainingProgress || isCollectiveTimeout(e);
        if (quotesNcclError(e.kind) && isNcclSystemErrorText(text))
            systemError.push_back(i);
        switch (e.kind) {
        case EventKind::NcclCudaFailure:
            if (contains(b.text(e.detail), "nvls") || contains(text, "nvls.cc")
                || contains(text, "NVLS"))
                nvls.push_back(i);
            else if (e.rank < 0 && isResourceText(text))
                allocation.push_back(i);
            break;
        case EventKind::TorchNcclApiError:
        case EventKind::TorchAsyncNcclError:
            // The same NCCL WARN quoted by PyTorch after "Last error:" ("Failed to CUDA calloc
            // async 1920 bytes"): the allocation failed in NCCL, the exception only carries it.
            // /dev/shm failures are the shared-memory rule's.
            // NCCL's own NVLS bind failure quoted the same way ("Failed to bind NVLink SHARP
            // (NVLS) Multicast memory … : CUDA error 401 …", NCCL ≥2.27).
            if (isNvlsBindText(b.text(e.detail)))
                nvls.push_back(i);
            // "Bootstrap : no socket interface found" and the like, quoted the same way.
            else if (isSocketInterfaceText(b.text(e.detail)))
                socketConfig.push_back(i);
            else if (isTopologyFileText(b.text(e.detail)))
                topologyFile.push_back(i);
            else if (e.rank < 0 && isResourceText(b.text(e.detail)) && !isNcclShmText(b.text(e.detail)))
                allocation.push_back(i);
            break;
        case EventKind::NcclIbCompletionError:
            if (e.rank < 0 && e.code != 5) {
                ib.push_back(i);
                ibHostsByStatus[e.code].insert(hostOfEvent(b, e));
            }
            break;
        case EventKind::GpuInaccessible:
            inaccessible.push_back(i);
            break;
        case EventKind::PythonException:
            if (isNcclLibraryText(text))
                ncclLibrary.push_back(i);
            if (isOpenFilesLimitText(text))
                openFiles.push_back(i);
            // argparse refusing the command line: whichever rank printed it, every worker got
            // the same arguments.
            if (b.text(e.detail) == kArgparseRefusal)
                commandLine.push_back(i);
            [[fallthrough]];
        case EventKind::CudaError:
            // A process that ended on CUDA refusing peer access between two of its GPUs
            // (cudaIpcOpenMemHandle / cudaDeviceEnablePeerAccess, e.g. a custom all-reduce's
            // setup): the platform has no P2P path between them (consumer GPUs, PCIe ACS, an
            // IOMMU, a VM). NCCL's own WARN of the same words falls back to another transport.
            if (contains(text, "peer access is not supported"))
                p2pUnsupported.push_back(i);
            [[fallthrough]];
        case EventKind::TorchWatchdogException:
            // "CUDA error: uncorrectable ECC error encountered" from a process no line names:
            // the GPU's own fault (ranked ones are judged by the hardware rules).
            if (e.rank < 0 && isCudaStickyText(text))
                brokenGpu.push_back(i);
            else if (e.rank < 0 && isCudaKernelFaultText(text))
                kernelFault.push_back(i);
            break;
        case EventKind::FrameworkInfo:
            if (e.peerRank >= 0)
                rankStatements[{ e.evidence.source, e.peerRank }].push_back(i);
            break;
        case EventKind::LauncherRendezvousError:
            if (contains(text, "Address already in use") || contains(text, "EADDRINUSE")
                || contains(text, "errno: 98"))
                portInUse.push_back(i);
            break;
        case EventKind::NcclWarn:
            // ibv_reg_mr failing with ENOMEM: the pinned-memory limit (ulimit -l), not the GPU's.
            if (contains(text, "ibv_reg_mr") && contains(text, "Cannot allocate memory"))
                memlock.push_back(i);
            // ibv_modify_qp refused while NCCL brings a queue pair up (INIT → RTR → RTS): the
            // verbs layer cannot reach the peer through this NIC, port or GID at all (an HCA
            // that is not cabled, a GID index or rail the peer does not share), before any
            // data moved; a link that breaks later fails completions instead.
            else if (contains(text, "ibv_modify_qp failed"))
                qpSetup.push_back(i);
            // The libfabric plugin (aws-ofi-nccl: EFA, Slingshot/CXI) could not register a
            // buffer with its provider: the plugin, libfabric and NCCL versions or the
            // provider's settings disagree; every transfer through the NIC fails the same way.
            else if (contains(text, "NET/OFI Unable to register memory")
                || contains(text, "NET/OFI Couldn't register memory"))
                ofiRegistration.push_back(i);
            // NCCL 2.4's own cross-rank check: the message states the class; its "around rank
            // N" is where the check noticed, not who diverged.
            else if (contains(text, "Mismatched collective detected"))
                ncclMismatch.push_back(i);
            else if (isNcclLibraryText(text))
                ncclLibrary.push_back(i);
            else if (isTopologyFileText(text))
                topologyFile.push_back(i);
            break;
        case EventKind::GlooConnectError:
            if (b.text(e.peer).starts_with("127."))
                glooLoopback.push_back(i);
            break;
        case EventKind::GlooLoopbackFallback:
            glooFallback.push_back(i);
            break;
        case EventKind::FrameworkCheck:
            if (b.text(e.detail) == "loading_barrier")
                loadingBarrier.push_back(i);
            else if (b.text(e.detail) == "rank_disagreement")
                rankDisagreement.push_back(i);
            break;
        case EventKind::NcclTestsFailure:
            if (isCudaSetupText(text))
                testsSetup.push_back(i);
            break;
        case EventKind::NcclTestsSeparateRuns:
            testsWorlds.push_back(i);
            break;
        case EventKind::NcclTestsStalled:
            // Only where every GPU of the test sits in one host: across hosts the network
            // is as likely.
            (e.detail != kNoStr ? testsStalled : testsStalledHosts).push_back(i);
            break;
        case EventKind::NcclSocketError:
        case EventKind::NcclBootstrapError:
            if (isSocketInterfaceText(text))
                socketConfig.push_back(i);
            break;
        default:
            break;
        }
    }

    if (!glooLoopback.empty()) {
        // On one host a refused loopback connection is a peer that is not listening (yet, or
        // any more). It is the address that is wrong when PyTorch said it fell back to
        // loopback, when the address is a hostname's own (127.0.1.1, not the 127.0.0.1 a
        // single-host job binds to), or when the bundle names more than one host.
        const std::string_view address = b.text(b.events[glooLoopback.front()].peer);
        const bool hostnameAddress = !address.starts_with("127.0.0.1:") && address != "127.0.0.1";
        if (!glooFallback.empty() || hostnameAddress || b.hostNames().size() > 1) {
            std::vector<std::uint32_t> events = glooFallback;
            events.insert(events.end(), glooLoopback.begin(), glooLoopback.end());
            conclude(ctx, out,
                { "configuration.gloo_loopback", RootCauseClass::Configuration,
                    glooFallback.empty() ? 0.65 : 0.75, { { "address", std::string(address) } } },
                events);
        }
    }
    if (!allocation.empty()) {
        // Quote NCCL's own words: for an exception they are its "Last error:" line.
        const Event& first = b.events[allocation.front()];
        const bool quoted = first.kind != EventKind::NcclCudaFailure && first.detail != kNoStr;
        StatedCause c { "resource.nccl_allocation_unmapped", RootCauseClass::ResourceExhaustion, 0.65 };
        if (quoted) {
            const std::string_view detail = b.text(first.detail);
            c.values["evidence"] = shortenText(detail, 120);
            c.values["evidence_short"] = shortenText(detail, 80);
        }
        conclude(ctx, out, c, allocation);
    }
    // Host memory ran out and a process of the job was killed for it (the kernel's OOM killer,
    // Ray's memory monitor, Slurm's cgroup limit): that process is gone, so its peers wait or
    // fail after it.
    if (!ctx.facts.unmappedHostOom.empty()) {
        const std::string_view by = b.text(b.events[ctx.facts.unmappedHostOom.front()].detail);
        StatedCause c { "resource.host_memory_unmapped", RootCauseClass::ResourceExhaustion, 0.6 };
        c.values["killer"] = ctx.say("resource.host_memory_unmapped",
            by == kOomByRayMonitor ? "killer_ray" : by == kOomBySlurmCgroup ? "killer_slurm" : "killer_kernel");
        conclude(ctx, out, c, ctx.facts.unmappedHostOom);
    }
    if (!inaccessible.empty())
        conclude(ctx, out,
            { "hardware.gpu_inaccessible", RootCauseClass::HardwareFault, 0.7,
                { { "bus_id", std::string(b.text(b.events[inaccessible.front()].detail)) } } },
            inaccessible);
    // A kernel fault on a process no line names: that process died of its own bug; the class is
    // known, the rank is not.
    if (!kernelFault.empty() && brokenGpu.empty() && inaccessible.empty())
        conclude(ctx, out, { "crash.cuda_fault_unmapped", RootCauseClass::RankCrashed, 0.6 }, kernelFault);
    if (!brokenGpu.empty() && inaccessible.empty())
        conclude(ctx, out, { "hardware.cuda_error_unmapped", RootCauseClass::HardwareFault, 0.65 },
            brokenGpu);
    // Two processes announcing the same global rank within a few lines ("initializing ddp:
    // GLOBAL_RANK: 1, MEMBER: 2/8" twice): the launcher started more processes than ranks (srun
    // tasks vs devices, two launchers on one node). A restarted job repeats its lines too, but
    // a whole run apart, so only neighbouring duplicates count.
    std::vector<std::uint32_t> duplicates;
    for (const auto& [key, events] : rankStatements)
        for (std::size_t k = 1; k < events.size(); ++k)
            if (b.events[events[k]].evidence.line <= b.events[events[k - 1]].evidence.line + 3) {
                duplicates.push_back(events[k]);
                break;
            }
    if (!duplicates.empty())
        conclude(ctx, out,
            { "configuration.duplicate_rank", RootCauseClass::Configuration, 0.7,
                { { "count", std::to_string(duplicates.size()) } } },
            duplicates);
    // Causes the messages state in full: the class from the words, no rank, the first line
    // quoted. One row each, in the order their findings are listed.
    const std::pair<const std::vector<std::uint32_t>&, StatedCause> stated[] = {
        { portInUse, { "configuration.port_in_use", RootCauseClass::Configuration, 0.75 } },
        // DeepSpeed ZeRO-3 saw a rank gather other parameters than rank 0: which is wrong it
        // does not say.
        { rankDisagreement, { "mismatch.framework_detected", RootCauseClass::CollectiveMismatch, 0.8 } },
        { testsSetup, { "configuration.nccl_tests_setup", RootCauseClass::Configuration, 0.75 } },
        // nccl-tests printed its banner or summary twice at once: each process ran its own test.
        { testsWorlds, { "configuration.nccl_tests_without_mpi", RootCauseClass::Configuration, 0.7 } },
        // A framework's barrier after loading the model timed out: the ranks that reached it
        // name themselves, the one that did not (slow storage, a slow node, a failure before
        // it) is not named by the message.
        { loadingBarrier, { "straggler.loading_barrier", RootCauseClass::StragglerStall, 0.6 } },
        { ncclMismatch, { "mismatch.nccl_detected", RootCauseClass::CollectiveMismatch, 0.7 } },
        { commandLine, { "configuration.command_line", RootCauseClass::Configuration, 0.75 } },
        { openFiles, { "configuration.open_files_limit", RootCauseClass::Configuration, 0.7 } },
        { memlock, { "configuration.memlock_limit", RootCauseClass::Configuration, 0.7 } },
        { qpSetup, { "configuration.ib_qp_setup", RootCauseClass::Configuration, 0.65 } },
        { ofiRegistration, { "configuration.ofi_registration", RootCauseClass::Configuration, 0.7 } },
        { nvls, { "configuration.nvls_setup", RootCauseClass::Configuration, 0.7 } },
        { topologyFile, { "configuration.nccl_topology_file", RootCauseClass::Configuration, 0.7 } },
        { p2pUnsupported, { "configuration.p2p_unsupported", RootCauseClass::Configuration, 0.7 } },
        { ncclLibrary, { "configuration.nccl_library", RootCauseClass::Configuration, 0.8 } },
    };
    for (const auto& [events, cause] : stated)
        if (!events.empty())
            conclude(ctx, out, cause, events);
    // nccl-tests on one host stopped before its first result with no error: the GPUs'
    // peer-to-peer path through PCIe (ACS, IOMMU) is where such a first transfer hangs. A
    // process that failed (an error, a launcher's exit record) stopped it instead.
    if (!testsStalled.empty() && !anyFailure)
        conclude(ctx, out,
            { "configuration.pcie_peer_path", RootCauseClass::Configuration, 0.5,
                { { "host", std::string(b.text(b.events[testsStalled.front()].detail)) } } },
            testsStalled);
    // Every process whose NCCL output stopped in set-up stopped at a step of joining the NVLS
    // multicast group, with nothing failed: the bind there waits for every rank of the node
    // (Fabric Manager or IMEX not serving the GPUs, a container without the multicast
    // handles). A lead: NCCL_NVLS_ENABLE=0 confirms it.
    if (!anyFailure && !ran)
        if (const auto stalled = nvlsSetupStalled(b); !stalled.empty())
            conclude(ctx, out, { "configuration.nvls_setup_stalled", RootCauseClass::Configuration, 0.4, {}, {}, true },
                stalled);
    // NCCL returned ncclSystemError ("unhandled system error"): a system call of its own failed
    // (src/include/socket.h, shmutils.cc, misc/ibvwrap.cc: socket, connect, open, ftruncate, mmap
    // on /dev/shm). Before anything ran that is the environment NCCL was set up in: a container's
    // /dev/shm or IPC namespace, its network interfaces, a locked-memory limit. After a logged step
    // or a timeout a peer's exit or a link fails the same way. Which call, only NCCL_DEBUG=INFO
    // says, so it is a lead; any rule that read the failing call outranks it.
    if (!systemError.empty() && !ran)
        conclude(ctx, out,
            { "configuration.nccl_system_error", RootCauseClass::Configuration, 0.4, {}, {}, true }, systemError);
    // Across hosts (or hosts unnamed) the same stop says a hang, not where: the network and the
    // peer path are both candidates, so it is a lead, stated as inconclusive.
    if (testsStalled.empty() && !testsStalledHosts.empty() && !anyFailure)
        conclude(ctx, out, { "hang.nccl_tests_stalled", RootCauseClass::Unknown, 0.25, {}, {}, true }, testsStalledHosts);
    if (!socketConfig.empty()) {
        // One rank alone meeting it is named: an interface or address family one host lacks
        // (the others connect and wait for it).
        const std::int32_t rank = onlyRankOf(b, socketConfig);
        StatedCause c { "configuration.socket_interface", RootCauseClass::Configuration, 0.7 };
        if (rank >= 0) {
            c.values = ctx.placeholdersFor(rank);
            c.ranks = { rank };
        }
        c.values["who"] = rank >= 0 ? ctx.rankLabel(rank) : ctx.sayShared("a_process");
        conclude(ctx, out, c, socketConfig);
    }
    if (!ib.empty()) {
        std::size_t hosts = 0;
        std::int32_t status = -1;
        for (const auto& [st, h] : ibHostsByStatus)
            if (h.size() > hosts) {
                hosts = h.size();
                status = st;
            }
        const Placeholders values { { "status", std::to_string(status) },
            { "host_count", std::to_string(hosts) } };
        if (hosts >= 2)
            conclude(ctx, out,
                { "network.many_hosts_unmapped", RootCauseClass::Configuration, 0.65, values }, ib);
        else
            conclude(
                ctx, out, { "network.ib_unmapped", RootCauseClass::NetworkPair, 0.55, values }, ib);
    }
}

} // namespace rankscope::model
