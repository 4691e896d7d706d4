#pragma once
// Strips the wrapper prefixes that launchers and log collectors stack in front of a line
// ([formats 0]), keeping what each one says about the writer:
//   "[80746] "                  viewer line number          (ignored)
//   "Fri Aug 11 12:31:45 2023"  Open MPI --timestamp-output (ignored)
//   "[1,3]<stdout>:"            Open MPI --tag-output       → mpiRank 3
//   "[1,mpirank:3,algo-2]<stdout>:"  SageMaker's MPI launcher → mpiRank 3, host algo-2
//   "[pod/worker-0/pytorch] "   kubectl logs --prefix       → host worker-0
//   "[2024-02-27T21:35:28.7Z] fa88a9df [rank=1] || "  Determined AI, after its time → globalRank 1
//   "[3]<stderr>:"              horovodrun (Gloo)           → mpiRank 3
//   "[15]host:83:2526 [0] NCCL…" a rank glued to NCCL's header → mpiRank 15
//   "03: "                      srun --label                → srunTask 3
//   "node12: " / "10.0.0.5: "   pdsh                        → host
//   "(RayTrainWorker pid=1, ip=10.0.0.5) "  Ray            → pid, ip
//   "(VllmWorker rank=1 pid=97) "  vLLM's worker processes → globalRank 1, pid
//   "ERROR 03-20 23:26:06 [multiproc_executor.py:375] "  vLLM's logger header (ignored)
//   "[default3]:"               torchrun tee                → localRank 3
//   "[rank3]:"                  PyTorch C++ logger          → globalRank 3
//   "[rank: 1] "                Lightning                   → globalRank 1
//   "logs/rank3.log:" / "LOG1.0.txt:12:"  grep -H / -Hn over files → what the file
//                               name says (rank3.log → globalRank 3), else nothing
//   "2024-05-01T10:00:00.123456789Z " (docker logs -t, kubectl logs --timestamps, cloud
//   log exports; a tab may follow) and "… stderr F " (the CRI log file format), first on
//   the line only                → collectorTime
//   "trainer-1  | "             docker compose              → host trainer-1
//   "(worker1, rank=1, pid=2090, ip=10.0.0.6) "  SkyPilot  → host worker1, ip (node's rank, run pid ignored)
//   "12:00:07 " / "[12:00:07] " a CI runner's clock, first on the line (ignored)
//   "Dec 04 12:00:00 node3 python[4242]: " (journalctl, syslog; or an RFC 3339 time)
//                               → collectorTime, host node3 (the pid is the launcher's)
// Prefixes may come in any order; stripping stops at the first text that is none of them.

#include <cstdint>
#include <string_view>

namespace rankscope::parsers {

struct LinePrefix {
    std::int32_t globalRank = -1;
    std::int32_t localRank = -1;
    std::int32_t srunTask = -1;
    std::int32_t mpiRank = -1;
    std::int32_t pid = -1;
    std::string_view host;
    std::string_view ip;
    std::string_view role; // torchrun role name ("default", "trainer")
    // The time a log collector put in front of the line; says nothing about the writer.
    std::string_view collectorTime;
    // A logging library's header stripped from the line (vLLM's "ERROR 03-20 23:26:06
    // [file.py:375] "): says nothing about the writer, but a header that changes starts
    // another log record.
    std::string_view loggerHeader;

    bool empty() const
    {
        return globalRank < 0 && localRank < 0 && srunTask < 0 && mpiRank < 0 && pid < 0
            && host.empty() && ip.empty();
    }
};

// A line a paste set in Markdown emphasis or inline code as a whole ("**(VllmWorker rank=5
// pid=50999) ERROR … torch.OutOfMemoryError …**", "`[rank1]: … timeout`"): the line inside
// the markers. stripPrefixes takes them off like a prefix, before or after the others (a
// collector's timestamp outside the markers). Emphasis over part of a line, or an opening
// marker without its closing one, is left as written.
std::string_view stripLineEmphasis(std::string_view line);

// Returns the line with the prefixes removed and fills `prefix`.
std::string_view stripPrefixes(std::string_view line, LinePrefix& prefix);

} // namespace rankscope::parsers
