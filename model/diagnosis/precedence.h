#pragma once
// Causal precedence of every cause a rule can propose: the one place that says which verdict
// outranks which. A rule states what it saw and how sure it is; where its cause sits against
// the others is decided here, by a band, with the reason it sits there. The engine keeps the
// proposal whose band is highest (arbitration.h); a cause that explains another outranks it
// (a GPU that fell off the bus explains why its rank never entered the collective, not the
// other way round), and direct observations outrank inferences from silence.
//
// Adding a rule: add a row {id, band, rationale} where its band falls, and propose with that
// id. The id is the rule id of its finding where one cause maps to one finding; a rule that
// concludes differently by situation has one id per situation. The table's invariants
// (highest band first, ids unique, every rationale written) are checked at compile time in
// precedence.cpp and by tests/model/test_precedence.cpp.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rankscope::model {

struct PrecedenceEntry {
    std::string_view id;        // stable, "crash.first_failure"
    int band;                   // higher outranks lower; equal bands fall to confidence
    std::string_view rationale; // why it sits here, against its neighbours
};

// clang-format off
inline constexpr auto kPrecedenceTable = std::to_array<PrecedenceEntry>({
    // Direct observations of the cause by PyTorch itself.
    { "mismatch.fingerprint", 95, "TORCH_DISTRIBUTED_DEBUG=DETAIL saw this rank call a different collective before it ran: a direct observation outranks every inference" },
    { "mismatch.fingerprint_no_culprit", 94, "the same direct observation of a mismatch, one notch lower because it cannot name the rank" },
    { "mismatch.framework_detected", 93, "DeepSpeed's own cross-rank check saw a rank fetch different parameters than rank 0: a direct observation of ranks on different paths" },
    { "mismatch.nccl_detected", 93, "NCCL's own cross-rank check saw mismatched calls: a direct observation, under PyTorch's, whose fingerprints say more" },

    // Broken hardware and exhausted resources: the causes crashes and timeouts follow from.
    { "hardware.xid", 90, "a GPU that fell off the bus (Xid tied to its rank by busId) explains why its rank never entered the collective, not the other way round" },
    { "resource.shm_node", 88, "a node's full /dev/shm stops NCCL creating its buffers for every rank there: the crashes and timeouts follow from it" },
    { "configuration.shm_permission", 88, "/dev/shm refusing the job's segments (EACCES) stops NCCL on that node as surely as a full one; the same place, a setting not a lack of space" },
    { "resource.init_allocation", 88, "a rank out of GPU memory inside NCCL's setup failed for a stated reason; its crash and its peers' waits follow from it" },
    { "hardware.cuda_error", 87, "a sticky CUDA error in a rank's watchdog is its GPU failing; the rank's crash and its peers' timeouts follow from it" },
    { "hardware.gpu_inaccessible", 87, "nvidia-smi losing a GPU is a hardware fault whichever rank ran on it; the hang is its consequence" },
    { "hardware.cuda_error_unmapped", 86, "a CUDA error that means the GPU broke states a hardware cause without a rank; just under ranked hardware evidence" },
    { "resource.allocation_after_exit", 86, "NCCL failing to allocate states the class, but a peer had already exited before it, so no rank is named: level with the unranked allocation failure" },
    { "resource.nccl_allocation_unmapped", 86, "NCCL failing to allocate states the cause even with no rank named; just under the ranked allocation failure" },
    { "resource.shm_sigbus", 86, "SIGBUS on shared memory is the node's /dev/shm limit; the process death it causes ranks under it" },
    { "configuration.command_line", 86, "a script refusing its command line (argparse, exit 2) is why its worker exited; every worker got the same arguments, so the launcher's record of one rank follows from it" },
    { "configuration.open_files_limit", 86, "a process out of file descriptors (ulimit -n) failed for a stated reason; every rank runs under the same limit, so the one that hit it first is chance and its crash follows from the setting" },
    { "configuration.duplicate_gpu", 86, "ranks sharing a GPU cannot form a communicator at all; any failure or hang after it is its consequence" },

    // A process's own failure, or a configuration cause the error message names itself.
    { "crash.first_failure", 85, "a rank's own error before anyone timed out is why the others waited: the first failure outranks its collateral timeouts" },
    { "hardware.xid_unmapped", 85, "a hang-relevant Xid says a GPU broke even when no line ties it to a rank; level with a rank's own first failure" },
    { "init.rank_failed_at_startup", 84, "a rank's own failure before any collective; a notch under a mid-run failure so the stated startup configuration causes compete with it on confidence" },
    { "configuration.duplicate_rank", 84, "two processes claiming one rank keep the process group from forming; the message states the cause" },
    { "configuration.port_in_use", 84, "EADDRINUSE on the rendezvous port is the whole reason the store never formed" },
    { "configuration.memlock_limit", 84, "ibv_reg_mr failing with ENOMEM names the locked-memory limit; the failed transport setup follows from it" },
    { "configuration.ib_qp_setup", 84, "an RDMA queue pair that cannot be brought up means this NIC, port or GID cannot reach the peer at all: the transport's setup, stated by the verbs call; every failed connection follows from it" },
    { "configuration.ofi_registration", 84, "the libfabric plugin refusing to register memory is the network stack's setup; every failed transfer follows from it" },
    { "resource.host_memory_unmapped", 84, "the OOM killer or Ray's memory monitor taking a process of the job states why that process is gone, though no line names its rank; under a rank's own failure" },
    { "configuration.p2p_unsupported", 84, "a process ending on CUDA refusing peer access between its GPUs is the platform's P2P support, stated by the error: above the crash it looks like" },
    { "configuration.nccl_topology_file", 84, "NCCL refusing the topology or graph file it was given (a device or attribute the machine does not have) stops every communicator set-up on that node: stated by the message" },
    { "configuration.nvls_setup", 84, "a CUDA error in NVLS setup is the node's fabric-manager state, stated by the message, not a GPU or rank fault" },
    { "configuration.nccl_library", 84, "a NCCL that cannot be loaded means no collective ran on any rank: the installation, not a rank" },
    { "crash.cuda_fault_unmapped", 83, "a CUDA kernel fault (illegal address or instruction, device-side assert) kills the process that hit it though no line names its rank; under a ranked first failure" },
    { "crash.early_exit", 83, "a rank that destroyed its communicator and left explains the others timing out in the next collective" },
    { "fr.never_entered_crashed", 83, "the Flight Recorder shows the rank never enqueued the collective and it failed on its own: a crash, as the traceback rules say" },
    { "configuration.gloo_loopback", 83, "a Gloo rank that published a loopback address is refused by every peer on another host; the connection failures all follow from it" },
    { "configuration.socket_interface", 83, "NCCL unable to open a socket on its interface is the configuration every later connection failure follows from" },
    { "configuration.nccl_tests_setup", 83, "nccl-tests' own check says CUDA refused the setup (device index, driver): the message states the cause" },
    { "configuration.nccl_tests_without_mpi", 83, "nccl-tests printing its banner or summary once per process shows each process ran a test of its own: the build's or the launch's MPI, stated by the output's shape" },

    // The network seen whole or from both ends, and deaths seen from outside the process.
    { "network.many_hosts", 82, "the same IB error on many hosts at once is the fabric's configuration; it explains each single-link error it contains" },
    { "network.transport_everywhere", 82, "socket connections failing from every host at the same stage are the network setup, not one link" },
    { "network.transport_socket_fallback", 82, "no InfiniBand found and the socket fallback never connected: the network setup failed before any link could break" },
    { "fr.missing_dump_failed", 82, "a rank with no Flight Recorder dump that also failed on its own died before the dump was requested: a crash" },
    { "network.many_hosts_unmapped", 81, "the same IB completion error on several hosts is fabric configuration even with no rank named; a notch under the ranked form" },
    { "ras.dead_process", 81, "NCCL RAS declaring a process dead observes that it is gone; its peers can only wait" },
    { "network.ib_pair", 80, "an IB completion error with both ends known names the broken link; the other ranks waited on it" },
    { "network.port_error", 79, "an IB port going down on one host cuts every rank there off the fabric; the waits elsewhere follow" },
    { "hardware.hca_catastrophic", 79, "an InfiniBand adapter's catastrophic error is that host's hardware failing; ranks elsewhere only wait" },
    { "network.ib_peer_host", 78, "an IB completion error with one end's rank and only the peer's host known: a link fault, weaker than a named pair" },

    // Ranks running different collectives; links with one end known.
    { "fr.mismatch", 77, "Flight Recorder entries disagreeing at one sequence number with a clear minority: above the watchdog-line mismatch, whose view is coarser" },
    { "network.socket_timed_out", 77, "a socket connection from a known rank timed out toward an address no rank maps to: a path failure with one end named" },
    { "mismatch.coll_lines", 76, "NCCL COLL lines show a minority calling a different collective at one opCount: ranks running different code" },
    { "network.socket_closed", 76, "a socket between two ranks broke while neither failed on its own: the path between them" },
    { "mismatch.op_or_size", 75, "watchdog lines show a minority timing out in a different op or size at the stuck SeqNum" },
    { "network.ib_unmapped", 75, "IB completion errors on one host with no rank named: a link fault, weaker than one tied to ranks" },
    { "mismatch.op_or_size_even_split", 74, "watchdog lines disagree at the stuck SeqNum with no minority: the class is known, the ranks are not" },
    { "mismatch.coll_lines_processes", 74, "COLL lines of processes, not ranks, disagree at an opCount: a mismatch with no rank to name" },
    { "mismatch.coll_lines_even_split", 74, "COLL lines disagree at an opCount with no minority: a mismatch with no rank to name" },
    { "mismatch.waits_elsewhere", 74, "a rank waiting in another collective while the rest time out in this one took a different code path" },
    { "fr.mismatch_even_split", 74, "Flight Recorder dumps disagree in an even split: a mismatch, no side picked" },
    { "mismatch.timeout_seq_offset", 74, "members of one group timed out two or more SeqNums apart: the ones ahead finished calls the others never made, a mismatch seen in the timeout lines alone" },
    { "fr.mismatch_extra_collective", 74, "a few ranks enqueued a collective the others never issued: a mismatch, a notch under an entry-by-entry disagreement" },
    { "horovod.stall_inspector_mismatch", 74, "Horovod's stall inspector shows ranks submitting different tensors: a mismatch between code paths" },

    // The job never got going, or one rank was visibly elsewhere.
    { "straggler.busy_while_others_waited", 72, "one rank visibly busy (data, checkpoint, evaluation) while the others timed out is direct evidence of a straggler" },
    { "configuration.nvls_setup_stalled", 71, "every process whose set-up stopped stopped joining the NVLS multicast group, whose bind waits for the whole node: where init hung, a lead stated as inconclusive, above the bare 'no collective completed'" },
    { "crash.store_server_gone", 71, "ranks asking the store for NCCL's unique id saw its connection reset: the process serving it went away, more than a hang at start-up" },
    { "init.no_collective_completed", 70, "communicators never came up; under the stated causes that would say why, above inferences from silence" },

    // Inferred from what peers logged, or from absence: weaker evidence.
    { "crash.local_peer_closed", 66, "every other process of the host saw only one peer's proxy connection close: that one exited, inferred from its peers" },
    { "straggler.stacks_busy_while_others_wait", 66, "stack dumps taken with no timeout yet: one rank outside any collective while the others wait in one; direct, but no watchdog confirms the wait" },
    { "fr.late_start", 66, "a watchdog blocked for about the timeout says the GPU or driver hung; under an Xid on the rank, which states it" },
    { "fr.never_entered", 64, "the Flight Recorder shows the rank never enqueued the stuck collective: above the log-only never-entered, which infers it" },
    { "fr.stuck_inside", 64, "a rank stuck inside a collective every peer completed is the odd one, though the dumps do not say why" },
    { "fr.not_started", 63, "a rank that scheduled but never started the collective its peers ran: a straggler seen in the dumps" },
    { "fr.p2p_unmatched", 63, "a send or recv whose peer never posted its side: the silent peer holds the pair" },
    { "straggler.monitored_barrier", 62, "rank 0 of Gloo's monitored barrier names the ranks that never checked in: stated by PyTorch, as the desync report is" },
    { "straggler.desync_report", 62, "PyTorch's desync report names the ranks that never joined: stated by PyTorch, above Rankscope's own inference" },
    { "straggler.loading_barrier", 62, "SGLang's own barrier after loading the model says ranks did not finish loading: stated by the framework, the rank behind unnamed" },
    { "horovod.stall_inspector_straggler", 62, "ranks that submitted none of the tensors the others wait on never reached the step: a straggler" },
    { "fr.missing_dump_others_waiting", 62, "no dump from a rank while every rank that dumped waits in the stuck collective: a notch above a bare missing dump" },
    { "fr.missing_dump", 61, "a rank with no Flight Recorder dump: absence alone is weak evidence" },
    { "straggler.never_entered", 60, "watchdog lines show a rank never entered the stuck collective: inferred from what the others logged" },
    { "hardware.xid_off_odd_rank", 58, "an Xid on a rank that behaves like its peers while another rank never entered explains less than the odd rank does" },
    { "mismatch.enqueued_ahead", 58, "a rank that enqueued past the stuck SeqNum diverged, seen only in its counters" },
    { "ras.count_behind", 58, "NCCL RAS counts a rank behind on a collective: a straggler from counters, not from its own lines" },
    { "ras.unresponsive", 56, "a rank that did not answer NCCL RAS may be frozen or only overloaded: suggestive, not proof" },
    { "configuration.p2p_unavailable", 56, "a worker that exited with nothing said after TensorRT-LLM or TurboMind warned its GPUs have no peer access most likely ended in the custom all-reduce's IPC set-up: the likely cause of a failure that names none, inferred, not stated" },
    { "crash.monitored_barrier_coordinator", 55, "ranks that reached a monitored barrier lost rank 0, which alone enforces it: rank 0's side ended, a lead to rank 0 stated as inconclusive, above a launcher's exit that names no rank" },
    { "crash.unmapped_worker_failure", 54, "a launcher saw a worker exit on its own with no timeout anywhere: a crash, with no line to say which rank" },
    { "configuration.exit_without_destroy", 52, "a watchdog stuck after other ranks reached their exit with live process groups is the script's teardown, inferred from the order of the lines; above the bare stuck watchdog, under anything that names a fault" },
    { "configuration.pcie_peer_path", 52, "nccl-tests stopping before its first result on one host, with no error, points at the PCIe peer path (ACS, IOMMU): a known cause inferred from where it stopped, not stated" },
    { "mismatch.algorithm_deadlock", 52, "every rank inside the collective with an NCCL algorithm or protocol forced: a plausible deadlock, no rank to blame" },
    { "silent.stopped_logging", 50, "a rank that went silent while the others timed out is odd, but silence alone does not say why" },
    { "silent.missing_rank", 50, "a rank missing from the stuck collective's lines is odd only by absence, the weakest named cause" },

    // Inconclusive: something to say, nobody to name.
    { "configuration.nccl_system_error", 30, "NCCL's bare 'unhandled system error' before anything ran points at the environment (container /dev/shm, interfaces) without saying which call: a lead, stated as inconclusive, under every rule that read the call" },
    { "hang.watchdog_blocked", 9, "PyTorch says a rank's watchdog thread got stuck with no collective timed out: where to look, not why; any cause found outranks it" },
    { "hang.nccl_tests_stalled", 8, "nccl-tests stopping before its first result across hosts says the first collective hung, not why: a lead, stated as inconclusive" },
    { "hang.stacks_without_timeout", 8, "stack dumps show where ranks stood with nothing timed out or failed: a lead on where to look, never a cause" },
    { "straggler.sync_point_timeout", 8, "a timeout at a one-element call says a member had not reached it, but not which: a lead, stated as inconclusive, above the other inconclusive sayings" },
    { "ras.dead_unmapped", 7, "NCCL RAS reports a dead process no line ties to a rank: inconclusive, but more than nothing" },
    { "ras.count_ahead", 6, "RAS counts name the ranks ahead, not the ones holding the job: inconclusive" },
    { "hang.all_entered", 5, "every rank entered the collective and timed out: the honest 'the logs do not say why'" },
});
// clang-format on

// Called only where an id is not in the table: a compile error at the rule that names it.
void unknownPrecedenceId();

// One row of kPrecedenceTable, named by its id and checked when the rule compiles.
class Precedence {
public:
    // Not explicit: rules write the id, out.propose(..., "crash.first_failure", ...).
    consteval Precedence(const char* id)
        : index_(indexOf(id))
    {
    }

    const PrecedenceEntry& entry() const { return kPrecedenceTable[index_]; }
    std::string_view id() const { return entry().id; }
    int band() const { return entry().band; }

    friend bool operator==(Precedence, Precedence) = default;

private:
    static consteval std::uint16_t indexOf(std::string_view id)
    {
        for (std::size_t i = 0; i < kPrecedenceTable.size(); ++i)
            if (kPrecedenceTable[i].id == id)
                return static_cast<std::uint16_t>(i);
        unknownPrecedenceId();
        return 0;
    }

    std::uint16_t index_;
};

} // namespace rankscope::model
