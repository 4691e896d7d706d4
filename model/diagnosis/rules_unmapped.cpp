// Errors whose class is plain from the message while no rank can be named: a pasted excerpt of
// NCCL's own lines ("host:pid:tid [cudaDev]") names a process and a GPU index, not a rank,
// and nvidia-smi names a PCI address. The class is still the most useful thing to say
// ("give the class even when no rank can be named"); the rules for ranked evidence run first
// and outrank these.
//   NCCL could not allocate (src/include/alloc.h "Cuda failure 'out of memory'", "Failed to
//     CUDA calloc"): resource exhaustion on that GPU.
//   NET/IB completion errors (src/transport/net_ib.cc): one host → a link between it and a
//     peer; the same status on several hosts → the fabric's configuration.
//   nvidia-smi "Unable to determine the device handle for GPU…: Unknown Error", or a CUDA
//     error that means the GPU itself broke ("uncorrectable ECC error encountered"): a
//     hardware fault.
//   NVLS setup failing with a CUDA error (src/transport/nvls.cc): NVLink SHARP needs the
//     fabric manager's multicast objects; a CUDA error there is the node's NVSwitch/fabric
//     manager state, not the GPU or the job.
//   Socket creation or interface selection failing (src/misc/socket.cc, bootstrap): the
//     network interface configuration (NCCL_SOCKET_IFNAME, IPv4/IPv6 family).

#include "model/diagnosis/rules.h"
#include "model/ranklist.h"

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
std::string firstText(const Bundle& b, const std::vector<std::uint32_t>& events, std::size_t length = 120)
{
    return std::string(b.text(b.events[events.front()].text)).substr(0, length);
}

// A cause the messages state: its finding and its proposal say the same thing, under one id
// (the finding's rule id and the proposal's row of the precedence table).
struct StatedCause {
    Precedence rule;
    RootCauseClass cls;
    double confidence;
    std::string title;
    std::string explanation;
    std::string summary;
    Placeholders values = {};
    std::vector<std::int32_t> ranks = {};
};

void conclude(const RuleContext& ctx, RuleOutput& out, const StatedCause& c, const std::vector<std::uint32_t>& events)
{
    Finding& f = out.add(ctx, std::string(c.rule.id()), c.cls, c.values);
    f.ranks = c.ranks;
    if (f.title.empty())
        f.title = c.title;
    addEvidence(ctx.bundle, f, events);
    f.confidence = c.confidence;
    f.explanation = c.explanation;
    out.propose(c.cls, c.ranks, c.confidence, c.rule, c.summary);
}

// The dynamic loader could not give the framework a working NCCL: XLA's stub says "Unable to
// load NCCL library", Python's import says "libnccl.so.2: cannot open shared object file" or
// "undefined symbol: ncclCommRegister" (a libnccl older than the one the framework was built
// against). Nothing ran, so no rank is at fault: the installation is.
bool isNcclLibraryText(std::string_view text)
{
    return contains(text, "Unable to load NCCL library") || contains(text, "undefined symbol: nccl")
        || (contains(text, "libnccl") && (contains(text, "cannot open shared object file") || contains(text, "undefined symbol")));
}

// The one rank all the events name, or -1 (none, or several).
std::int32_t onlyRankOf(const Bundle& b, const std::vector<std::uint32_t>& events)
{
    std::set<std::int32_t> ranks;
    for (std::uint32_t i : events)
        ranks.insert(b.events[i].rank);
    return ranks.size() == 1 ? *ranks.begin() : -1;
}

} // namespace

void ruleUnmappedErrors(const RuleContext& ctx, RuleOutput& out)
{
    const Bundle& b = ctx.bundle;
    std::vector<std::uint32_t> allocation, ib, inaccessible, nvls, socketConfig, brokenGpu, portInUse, memlock, ncclMismatch,
        ncclLibrary, ofiRegistration;
    std::map<std::pair<SourceId, std::int32_t>, std::vector<std::uint32_t>> rankStatements;
    std::map<std::int32_t, std::set<std::string>> ibHostsByStatus;
    for (std::uint32_t i = 0; i < b.events.size(); ++i) {
        const Event& e = b.events[i];
        const std::string_view text = b.text(e.text);
        switch (e.kind) {
        case EventKind::NcclCudaFailure:
            if (contains(b.text(e.detail), "nvls") || contains(text, "nvls.cc") || contains(text, "NVLS"))
                nvls.push_back(i);
            else if (e.rank < 0 && isResourceText(text))
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
            [[fallthrough]];
        case EventKind::CudaError:
        case EventKind::TorchWatchdogException:
            // "CUDA error: uncorrectable ECC error encountered" from a process no line names:
            // the GPU's own fault (ranked ones are judged by the hardware rules).
            if (e.rank < 0 && isCudaStickyText(text))
                brokenGpu.push_back(i);
            break;
        case EventKind::FrameworkInfo:
            if (e.peerRank >= 0)
                rankStatements[{ e.evidence.source, e.peerRank }].push_back(i);
            break;
        case EventKind::LauncherRendezvousError:
            if (contains(text, "Address already in use") || contains(text, "EADDRINUSE") || contains(text, "errno: 98"))
                portInUse.push_back(i);
            break;
        case EventKind::NcclWarn:
            // ibv_reg_mr failing with ENOMEM: the pinned-memory limit (ulimit -l), not the GPU's.
            if (contains(text, "ibv_reg_mr") && contains(text, "Cannot allocate memory"))
                memlock.push_back(i);
            // The libfabric plugin (aws-ofi-nccl: EFA, Slingshot/CXI) could not register a
            // buffer with its provider: the plugin, libfabric and NCCL versions or the
            // provider's settings disagree; every transfer through the NIC fails the same way.
            else if (contains(text, "NET/OFI Unable to register memory") || contains(text, "NET/OFI Couldn't register memory"))
                ofiRegistration.push_back(i);
            // NCCL 2.4's own cross-rank check: the message states the class; its "around rank
            // N" is where the check noticed, not who diverged.
            else if (contains(text, "Mismatched collective detected"))
                ncclMismatch.push_back(i);
            else if (isNcclLibraryText(text))
                ncclLibrary.push_back(i);
            break;
        case EventKind::NcclSocketError:
        case EventKind::NcclBootstrapError:
            if (contains(text, "Address family not supported") || contains(text, "no socket interface found")
                || contains(text, "No socket interface found") || contains(text, "Socket creation failed")
                // ncclSocketInit on an address never filled in: no interface matched NCCL_SOCKET_IFNAME.
                || contains(text, "is neither AF_INET") || contains(text, "No usable listening interface"))
                socketConfig.push_back(i);
            break;
        default:
            break;
        }
    }

    if (!allocation.empty())
        conclude(ctx, out,
            { "resource.nccl_allocation_unmapped", RootCauseClass::ResourceExhaustion, 0.65,
                "NCCL ran out of GPU memory on a process no line ties to a rank",
                "NCCL could not allocate GPU memory (" + firstText(b, allocation)
                    + "). NCCL allocates its buffers when a communicator is created or connected; with the GPU full,"
                      " that process fails and its peers wait for it. The lines name a process and a local GPU index,"
                      " not a rank.",
                "NCCL could not allocate GPU memory for its buffers; the rank it happened on is not in the logs." },
            allocation);
    if (!inaccessible.empty()) {
        const std::string bus(b.text(b.events[inaccessible.front()].detail));
        conclude(ctx, out,
            { "hardware.gpu_inaccessible", RootCauseClass::HardwareFault, 0.7, "nvidia-smi cannot reach GPU " + bus,
                "nvidia-smi could not get a handle for GPU " + bus
                    + " (\"Unknown Error\"): the driver no longer reaches that GPU, as after it fell off the bus or hung"
                      " in its firmware. The process on it cannot finish any collective, and the others wait. The logs"
                      " do not say which rank used that GPU.",
                "GPU " + bus + " is unreachable (nvidia-smi: Unknown Error): a hardware fault; the rank on it is not"
                               " named in the logs.",
                { { "bus_id", bus } } },
            inaccessible);
    }
    if (!brokenGpu.empty() && inaccessible.empty())
        conclude(ctx, out,
            { "hardware.cuda_error_unmapped", RootCauseClass::HardwareFault, 0.65,
                "A GPU reported a hardware error (no rank named)",
                "A process got \"" + firstText(b, brokenGpu)
                    + "\": the GPU itself failed (an uncorrectable memory error or a lost device), not the program."
                      " Every later CUDA call on it fails, its collectives never finish and its peers wait. The lines"
                      " do not say which rank ran on it; nvidia-smi -q -d ECC on the node shows which GPU.",
                "A GPU failed with a hardware error (" + firstText(b, brokenGpu, 80)
                    + "); the rank on it is not named in the logs." },
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
                "Several processes announced the same global rank",
                "The same GLOBAL_RANK was announced by two processes (" + std::to_string(duplicates.size())
                    + " rank(s) twice): more processes were started than the job has ranks, so two of them join as one"
                      " rank and the process group never forms. Match the launcher to the framework (srun"
                      " --ntasks-per-node = devices per node, one launcher per node).",
                "Two processes announced the same global rank: the launcher and the framework disagree on how many"
                " processes to start." },
            duplicates);
    if (!portInUse.empty())
        conclude(ctx, out,
            { "configuration.port_in_use", RootCauseClass::Configuration, 0.75, "The rendezvous port is already in use",
                "The c10d store could not listen on its port: errno 98, EADDRINUSE (" + firstText(b, portInUse)
                    + "). Another process holds MASTER_PORT: a leftover process of an earlier run, or two jobs on one"
                      " node with the same fixed port. Free the port or choose another (MASTER_PORT, --master_port,"
                      " --rdzv-endpoint).",
                "The rendezvous port is already in use (EADDRINUSE): a leftover process or a second job holds"
                " MASTER_PORT." },
            portInUse);
    if (!ncclMismatch.empty())
        conclude(ctx, out,
            { "mismatch.nccl_detected", RootCauseClass::CollectiveMismatch, 0.7,
                "NCCL detected mismatched collective calls",
                "NCCL itself reports mismatched collectives (" + firstText(b, ncclMismatch)
                    + "): ranks passed different sizes or called collectives in a different order. The rank it names is"
                      " where the check noticed the mismatch, not necessarily the one that diverged; the COLL lines"
                      " (NCCL_DEBUG_SUBSYS=COLL) of the ranks around it show which call differs.",
                "NCCL detected mismatched collective calls between ranks (different sizes or a different order)." },
            ncclMismatch);
    if (!memlock.empty())
        conclude(ctx, out,
            { "configuration.memlock_limit", RootCauseClass::Configuration, 0.7,
                "InfiniBand memory registration failed: pinned-memory limit",
                "ibv_reg_mr failed with ENOMEM (\"Cannot allocate memory\"): registering memory with the NIC pins it,"
                " and the process's locked-memory limit is too low. Raise it (ulimit -l unlimited, the container's"
                " memlock ulimit, Slurm's PropagateResourceLimits).",
                "InfiniBand memory registration failed (ENOMEM): the locked-memory limit (ulimit -l) is too low." },
            memlock);
    if (!ofiRegistration.empty())
        conclude(ctx, out,
            { "configuration.ofi_registration", RootCauseClass::Configuration, 0.7,
                "The libfabric network plugin could not register memory with the NIC",
                "NCCL's libfabric plugin could not register a buffer with its provider (" + firstText(b, ofiRegistration)
                    + "). That is the software stack, not a link or a rank: the EFA installer's libfabric older than the"
                      " NCCL in use (Invalid argument), GPU memory registration not enabled for the provider (Bad"
                      " address, Permission denied, Function not implemented). Every rank that sends through the NIC"
                      " fails the same way. Match the plugin, libfabric and NCCL versions and check the provider's"
                      " FI_* settings.",
                "The libfabric network plugin (NET/OFI) could not register memory with the NIC: a version or"
                " provider-setting mismatch in the network stack." },
            ofiRegistration);
    if (!nvls.empty())
        conclude(ctx, out,
            { "configuration.nvls_setup", RootCauseClass::Configuration, 0.7,
                "NVLink SHARP (NVLS) setup failed with a CUDA error",
                "NCCL's NVLS transport failed a CUDA call while creating its multicast objects (" + firstText(b, nvls)
                    + "). They are provided by the NVSwitch fabric manager: a fabric manager restarted without a GPU"
                      " reset, or not running, fails this way on any GPU of the node. Check nvidia-fabricmanager and"
                      " reset the GPUs, or run with NCCL_NVLS_ENABLE=0.",
                "NVLink SHARP setup failed (CUDA error in NCCL's NVLS transport): the node's fabric manager state, not"
                " a bad GPU." },
            nvls);
    if (!ncclLibrary.empty())
        conclude(ctx, out,
            { "configuration.nccl_library", RootCauseClass::Configuration, 0.8,
                "The NCCL library could not be loaded",
                "The framework could not load a working NCCL (" + firstText(b, ncclLibrary)
                    + "): the library is missing from the library path, or older than the one the framework was"
                      " built against. No collective can run on any rank. Install the NCCL the framework expects"
                      " (the pip or conda package that ships with it) and check LD_LIBRARY_PATH for an older"
                      " libnccl that shadows it.",
                "The NCCL library could not be loaded: an installation or library-path problem, not a rank." },
            ncclLibrary);
    if (!socketConfig.empty()) {
        const std::int32_t rank = onlyRankOf(b, socketConfig);
        StatedCause c { "configuration.socket_interface", RootCauseClass::Configuration, 0.7,
            "NCCL could not open a socket on the chosen network interface",
            "NCCL failed to create or bind its socket (" + firstText(b, socketConfig)
                + "): the interface it picked has no address of the family it asked for, or does not exist. Set"
                  " NCCL_SOCKET_IFNAME (and NCCL_SOCKET_FAMILY) to an interface every node has.",
            (rank >= 0 ? ctx.rankLabel(rank) + " could" : std::string("A process could"))
                + " not open NCCL's socket on its network interface: an interface or address-family configuration"
                  " problem." };
        if (rank >= 0) {
            c.values = ctx.placeholdersFor(rank);
            c.ranks = { rank };
        }
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
        if (hosts >= 2)
            conclude(ctx, out,
                { "network.many_hosts_unmapped", RootCauseClass::Configuration, 0.65,
                    "The same IB completion error on " + std::to_string(hosts) + " hosts",
                    "InfiniBand/RoCE completion error " + std::to_string(status) + " on " + std::to_string(hosts)
                        + " hosts at once: one cable or NIC breaks one link, an error everywhere points at the fabric's"
                          " configuration (ACS/IOMMU with GPUDirect RDMA, GID index, MTU, IB timeout settings).",
                    "The same InfiniBand completion error on " + std::to_string(hosts)
                        + " hosts: a fabric configuration problem, not one link." },
                ib);
        else
            conclude(ctx, out,
                { "network.ib_unmapped", RootCauseClass::NetworkPair, 0.55,
                    "IB completion errors on one host, no rank named",
                    "InfiniBand/RoCE completion errors (status " + std::to_string(status)
                        + ") on one host: the link between it and its peer failed (retries exhausted, a port or a"
                          " cable). The lines name a process, not a rank; NCCL_DEBUG=INFO init lines would tie it to"
                          " one.",
                    "InfiniBand completion errors on one host: a broken link toward its peer; no rank is named in the"
                    " logs." },
                ib);
    }
}

} // namespace rankscope::model
