#pragma once
// Kernel and hardware lines of the hosts a job ran on ([formats 7.1], [formats 7.2] and the host OOM
// of [formats 9]), from dmesg ("[ 1399.140323] NVRM: …", the scanner already read the boot-relative
// time), dmesg -T ("[Tue Jun 11 10:00:00 2024] NVRM: …") and the journal or syslog
// ("Jun 11 10:00:00 node1 kernel: NVRM: …"; there the line names the HOST, which becomes the
// host of the event's identity). Every grammar is searched anywhere in the line: kernel lines
// are glued to other output in pasted bundles.
//
//   NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, …
//       → GpuXid code=63, detail="0000:10:1c.0", pid=1896, text="Row Remapper: New row …", Warning
//   NVRM: Xid (PCI:0000:61:00): 119, pid=123417, name=nv-hostengine, Timeout after 6s of …
//       → GpuXid code=119, detail="0000:61:00.0", pid=123417, text="Timeout after 6s of …", Error
//   NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous …
//       → GpuXid code=45, Warning (a follow-on; the text names the root Xid)
//   NVRM: Xid (0000:01:00): 32, Channel ID 00000009 intr 00800000   (old drivers: no pid, no PCI:)
//       → GpuXid code=32, pid=-1, Error. pid='<unknown>' and pid=0 (no process) also give pid=-1.
//   NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.
//   NVRM: The NVIDIA GPU 0000:b3:00.0                                   (three dmesg lines, the
//   NVRM: (PCI ID: 10de:26b5) installed in this system has              last two without a time)
//   NVRM: fallen off the bus and is not responding to commands.
//       → GpuXid code=79, detail="0000:b3:00.0", Error, at the first line. The driver repeats
//         these on every access to the dead GPU, so they yield one event per (stream, GPU), and
//         none when an Xid 79 line already reported that GPU.
//   nvidia-nvswitch1: SXid (PCI:0000:aa:00.0): 24007, Severity 1 Engine instance 12 …
//       → GpuXid code=24007, detail="0000:aa:00.0", text="SXid: Severity 1 Engine instance 12 …",
//         Error, and pgRank = 1: an NVSwitch SXid, not a GPU Xid (pgRank stays -1 for Xids).
//   mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link DOWN                    (IB core, any state)
//       → NicLinkState text="DOWN", detail="mlx5_5", peer="0000:ab:00.0", Warning; Info for ACTIVE
//   mlx5_core 0000:53:00.0 enp83s0f0np0: Link down                      (the port's netdev)
//       → NicLinkState text="DOWN" (or "UP"), detail="enp83s0f0np0", peer="0000:53:00.0"
//   pcieport 0000:00:03.0: AER: Corrected error received: 0000:00:03.0
//   pcieport 0000:00:03.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (…)
//       → PcieError detail="0000:00:03.0", Warning (Error for Uncorrected/Uncorrectable/Fatal).
//         The kernel prints both lines for one error: a Bus Error line right after a "received"
//         line for the same device updates that event (text, severity) instead of adding one.
//   Out of memory: Killed process 1234 (python) total-vm:…
//   Memory cgroup out of memory: Killed process 1234 (python) total-vm:…
//   oom-kill:constraint=CONSTRAINT_MEMCG,…,task=python,pid=1234,uid=0
//       → HostOutOfMemory pid=1234, detail="python", text from "Out of memory"/"oom-kill" on,
//         Error. One kill prints several of these lines: they yield one event.
//   Unable to determine the device handle for GPU0000:03:00.0: Unknown Error     (nvidia-smi)
//       → GpuInaccessible detail="0000:03:00.0", Error

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace rankscope::parsers {

// A PCI address as the tools print it ("0000:10:1c" in Xid lines, "00000000:7E:00.0" from
// nvidia-smi, "0000:aa:00.0" elsewhere) in the form NCCL busIds and sysfs use:
// "0000:7e:00.0" — lowercase, domain with at least 4 digits, function ".0" added when absent.
// `s` must start with the address; `consumed` receives its length. nullopt when it is none.
std::optional<std::string> normalisePciAddress(std::string_view s, std::size_t* consumed = nullptr);

class KernelParser {
public:
    // True when the line was recognised (and events or records were added).
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // The three-line "fallen off the bus" message has begun and waits for its last line.
    bool inBlock() const { return !m_pendingFallenOff.empty(); }
    // End of input: an unfinished three-line message is dropped (it never said "fallen off").
    void finish(model::ParsedSource& out);

private:
    bool parseSmiUnknownError(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    struct PendingFallenOff {
        std::string busId;
        model::EvidenceRef evidence;
        model::TimePoint time;
        std::uint32_t identity = 0;
        int linesLeft = 0;
    };
    struct RecentAer {
        std::size_t eventIndex = 0;
        std::uint64_t lineNo = 0;
        std::string address;
    };
    struct RecentOom {
        std::int32_t pid = -1;
        std::uint64_t lineNo = 0;
    };

    bool parseXid(
        const LineContext& ctx, std::string_view body, std::size_t at, model::ParsedSource& out);
    bool parseFallenOff(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool continueFallenOff(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool parseLinkState(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool parseAer(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool parseOom(const LineContext& ctx, std::string_view body, model::ParsedSource& out);

    model::Event& emit(model::ParsedSource& out, const LineContext& ctx, std::string_view body,
        model::EventKind kind, model::Severity severity, std::string_view text);
    void reportFallenOff(model::ParsedSource& out, const model::EvidenceRef& evidence,
        const model::TimePoint& time, std::uint32_t identity, const std::string& busId);

    // Keyed by the scanner's prefix identity: combined files interleave hosts.
    std::unordered_map<std::uint32_t, PendingFallenOff> m_pendingFallenOff;
    // (event identity, busId) of GPUs already reported as fallen off the bus.
    std::set<std::pair<std::uint32_t, std::string>> m_fallenOffReported;
    std::unordered_map<std::uint32_t, RecentAer> m_recentAer;
    std::unordered_map<std::uint32_t, RecentOom> m_recentOom;
};

} // namespace rankscope::parsers
