// Tests for parsers/pytorchparser: PyTorch ProcessGroupNCCL messages ([formats 1]). The
// example lines are shaped like real pastes of every dialect, run through the real
// LogScanner so prefixes, envelopes and times take the production path.
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using model::EventKind;
using model::OpType;
using model::Severity;
using rankscope::testing::eventsOf;
using rankscope::testing::firstOf;
using rankscope::testing::identityOf;
using rankscope::testing::scan;
using rankscope::testing::str;

namespace {

// The single event of `kind`; fails the test when there is none or more than one.
const model::Event& only(const model::ParsedSource& p, EventKind kind)
{
    const auto found = eventsOf(p, kind);
    REQUIRE(found.size() == 1);
    return *found.front();
}

bool isTorchKind(EventKind kind)
{
    return kind >= EventKind::TorchWatchdogTimeout && kind <= EventKind::TorchWorkUpdate;
}

// Events of this parser only: other parsers may read the same lines for their own kinds.
std::size_t torchEvents(const model::ParsedSource& p)
{
    std::size_t n = 0;
    for (const auto& e : p.events)
        n += isTorchKind(e.kind) ? 1 : 0;
    return n;
}

std::string envValue(const model::ParsedSource& p, std::string_view name)
{
    for (const auto& env : p.envSettings)
        if (p.text(env.name) == name)
            return std::string(p.text(env.value));
    return "<missing>";
}

} // namespace

// --- [formats 1.1] envelopes -------------------------------------------------------------------------

TEST_CASE(
    "watchdog line from PyTorch 1.13-2.1 yields timeout event without PG", "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective "
                        "operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, "
                        "Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(e.severity == Severity::Error);
    CHECK(e.pgRank == 1);
    CHECK(e.pg == model::kNoStr);
    CHECK(e.seq == 469508);
    CHECK(e.op == OpType::AllReduce);
    CHECK(e.numelIn == 0);
    CHECK(e.timeoutMs == 1800000);
    CHECK(e.durationMs == 1802212);
    CHECK(str(p, e.text).starts_with("Watchdog caught collective operation timeout: WorkNCCL("));
    CHECK_FALSE(e.time.valid());
}

TEST_CASE("watchdog line from PyTorch 2.4+ yields timeout event with numel and envelope time",
    "[parsers][pytorch]")
{
    const auto p = scan("[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] "
                        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
                        "OpType=BROADCAST, NumelIn=131072000, NumelOut=131072000, "
                        "Timeout(ms)=600000) ran for 600081 milliseconds before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(e.pgRank == 0);
    CHECK(e.seq == 1);
    CHECK(e.op == OpType::Broadcast);
    CHECK(e.numelIn == 131072000);
    CHECK(e.numelOut == 131072000);
    CHECK(e.timeoutMs == 600000);
    CHECK(e.durationMs == 600081);
    CHECK(identityOf(p, e).globalRank == 0);
    REQUIRE(e.time.valid());
    const auto civil = model::civilFromNs(e.time.ns);
    CHECK(civil.month == 12);
    CHECK(civil.day == 18);
    CHECK(civil.hour == 20);
    CHECK(civil.second == 21);
}

TEST_CASE(
    "watchdog line with _REDUCE_SCATTER_BASE and different numel in and out", "[parsers][pytorch]")
{
    const auto p
        = scan("[rank3]:[E1206 18:44:13.275158817 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog "
               "caught collective operation timeout: WorkNCCL(SeqNum=7753, "
               "OpType=_REDUCE_SCATTER_BASE, NumelIn=544997376, NumelOut=68124672, "
               "Timeout(ms)=600000) ran for 600089 milliseconds before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(e.pgRank == 3);
    CHECK(e.seq == 7753);
    CHECK(e.op == OpType::ReduceScatterBase);
    CHECK(e.numelIn == 544997376);
    CHECK(e.numelOut == 68124672);
    CHECK(e.durationMs == 600089);
}

TEST_CASE("glog envelope line is parsed and its options recorded", "[parsers][pytorch]")
{
    const auto p = scan(
        "I0527 15:16:51.665375 58626 ProcessGroupNCCL.cpp:869] [PG 0 Rank 2] ProcessGroupNCCL "
        "initialization options: size: 8, global rank: 2, TIMEOUT(ms): 180000000000, "
        "USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0\n");
    const auto& e = only(p, EventKind::TorchPgOptions);
    CHECK(e.severity == Severity::Info);
    CHECK(str(p, e.pg) == "0");
    CHECK(e.pgRank == 2);
    CHECK(e.timeoutMs == 180000000000);
    CHECK(e.time.valid());
    REQUIRE(p.pgOptions.size() == 1);
    const auto& o = p.pgOptions.front();
    CHECK(str(p, o.pg) == "0");
    CHECK(o.pgRank == 2);
    CHECK(o.size == 8);
    CHECK(o.globalRank == 2);
    CHECK(o.timeoutMs == 180000000000);
}

TEST_CASE("F envelope raises the heartbeat stuck line to fatal and doubled prefix still parses",
    "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank25]:[F ProcessGroupNCCL.cpp:1169] [PG 0 Rank 25] [PG 0 Rank 25] ProcessGroupNCCL's "
        "watchdog got stuck for 600 seconds without making progress in monitoring enqueued "
        "collectives. This typically indicates a NCCL/CUDA API hang blocking the watchdog, and "
        "could be triggered by another thread holding the GIL inside a CUDA api, or other "
        "deadlock-prone behaviors.If you suspect the watchdog is not actually stuck and a longer "
        "timeout would help, you can either increase the timeout "
        "(TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the heartbeat monitor "
        "(TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to file "
        "an issue to PyTorch about the short timeout or false positive abort; otherwise, please "
        "attempt to debug the hang. workMetaList_.size() = 2\n");
    const auto& e = only(p, EventKind::TorchHeartbeatStuck);
    CHECK(e.severity == Severity::Fatal);
    CHECK(e.durationMs == 600000);
    CHECK(str(p, e.pg) == "0");
    CHECK(e.pgRank == 25);
    CHECK(str(p, e.text).starts_with("ProcessGroupNCCL's watchdog got stuck for 600 seconds"));
}

TEST_CASE("W envelope raises an info line to a warning, E leaves kind severities alone",
    "[parsers][pytorch]")
{
    const auto p = scan("[rank3]:[W1218 20:00:00.1 ProcessGroupNCCL.cpp:1700] [PG 0 Rank 3] "
                        "ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1\n"
                        "[rank3]:[E1218 20:00:00.2 ProcessGroupNCCL.cpp:2732] [PG 0 Rank 3] "
                        "First PG on this rank to signal dumping.\n");
    const auto found = eventsOf(p, EventKind::TorchDumpProgress);
    REQUIRE(found.size() == 2);
    CHECK(found[0]->severity == Severity::Warning);
    CHECK(found[1]->severity == Severity::Info);
}

// --- [formats 1.2] PG prefixes ------------------------------------------------------------------------

TEST_CASE("every PG prefix dialect fills pg, pgRank and the PG description", "[parsers][pytorch]")
{
    struct Row {
        const char* prefix;
        const char* pg;
        int rank;
        const char* desc;
    };
    const Row rows[] = {
        { "[PG 0 Rank 25] ", "0", 25, "" },
        { "[PG 1 Rank 0] ", "1", 0, "" },
        { "[PG 0 (default_pg) Rank 1] ", "0", 1, "default_pg" },
        { "[PG ID 0 PG GUID 0(default_pg) Rank 1] ", "0", 1, "default_pg" },
        { "[PG ID 2 PG GUID 3 Rank 3] ", "3", 3, "" },
        { "[PG ID 12 PG GUID 100(EXPERT_MODEL_PARALLEL_GROUP) Rank 1] ", "100", 1,
            "EXPERT_MODEL_PARALLEL_GROUP" },
    };
    for (const Row& row : rows) {
        INFO(row.prefix);
        const std::string line = std::string("[rank9]:[E1206 18:44:13.275158817 "
                                             "ProcessGroupNCCL.cpp:1664] ")
            + row.prefix
            + "Exception (either an error or timeout) detected by watchdog at work: 808, last "
              "enqueued NCCL work: 811, last completed NCCL work: 807.\n";
        const auto p = scan(line);
        const auto& e = only(p, EventKind::TorchWatchdogStatus);
        CHECK(str(p, e.pg) == row.pg);
        CHECK(e.pgRank == row.rank);
        CHECK(str(p, e.detail) == row.desc);
        CHECK(e.seq == 808);
        CHECK(e.lastEnqueued == 811);
        CHECK(e.lastCompleted == 807);
    }
}

TEST_CASE("doubled prefix before the terminate message gives one fatal event", "[parsers][pytorch]")
{
    const auto p = scan("[rank6]:[F1218 14:03:49.000000000 ProcessGroupNCCL.cpp:1306] [PG ID 0 "
                        "PG GUID 0(default_pg) Rank 6] [PG ID 0 PG GUID 0(default_pg) Rank 6] "
                        "Terminating the process after attempting to dump debug info, due to "
                        "ProcessGroupNCCL watchdog hang.\n");
    const auto& e = only(p, EventKind::TorchHeartbeatTerminate);
    CHECK(e.severity == Severity::Fatal);
    CHECK(str(p, e.pg) == "0");
    CHECK(e.pgRank == 6);
    CHECK(str(p, e.text).starts_with("Terminating the process"));
}

// --- [formats 1.3] WorkNCCL representations -----------------------------------------------------------

TEST_CASE("early WorkNCCL with TensorShape and no SeqNum leaves seq unknown", "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:414] [Rank 2] Watchdog caught collective "
                        "operation timeout: WorkNCCL(OpType=ALLREDUCE, TensorShape=[1024, 4], "
                        "Timeout(ms)=1800000) ran for 1800350 milliseconds before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(e.seq == -1);
    CHECK(e.op == OpType::AllReduce);
    CHECK(e.timeoutMs == 1800000);
    CHECK(e.durationMs == 1800350);
    CHECK(e.pgRank == 2);
}

TEST_CASE(
    "coalesced work with NumelIn of uint64 minus one keeps the full value", "[parsers][pytorch]")
{
    const auto p = scan("[rank1]:[E ProcessGroupNCCL.cpp:565] [Rank 1] Watchdog caught "
                        "collective operation timeout: WorkNCCL(SeqNum=12, OpType=COALESCED, "
                        "NumelIn=18446744073709551615, NumelOut=18446744073709551615, "
                        "Timeout(ms)=600000) ran for 600018 milliseconds before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(e.op == OpType::Coalesced);
    CHECK(e.numelIn == 18446744073709551615ull);
    CHECK(e.numelOut == 18446744073709551615ull);
    CHECK(e.seq == 12);
}

// --- (a) -------------------------------------------------------------------------------------

TEST_CASE("several timed-out works on one rank each give a timeout event", "[parsers][pytorch]")
{
    std::string text;
    for (const char* seq : { "96117", "96120", "96125" })
        text += std::string("[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective "
                            "operation timeout: WorkNCCL(SeqNum=")
            + seq
            + ", OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25625613 milliseconds "
              "before timing out.\n";
    const auto p = scan(text);
    const auto found = eventsOf(p, EventKind::TorchWatchdogTimeout);
    REQUIRE(found.size() == 3);
    CHECK(found[0]->seq == 96117);
    CHECK(found[1]->seq == 96120);
    CHECK(found[2]->seq == 96125);
    CHECK(found[2]->durationMs == 25625613);
}

// --- (b) -------------------------------------------------------------------------------------

TEST_CASE("status line shapes of every era give seq, enqueued and completed", "[parsers][pytorch]")
{
    SECTION("2.2-2.6 timeout-only shape")
    {
        const auto p = scan("[rank0]:[E ProcessGroupNCCL.cpp:1537] [PG 0 Rank 0] Timeout at NCCL "
                            "work: 6463, last enqueued NCCL work: 6463, last completed NCCL work: "
                            "6462.\n");
        const auto& e = only(p, EventKind::TorchWatchdogStatus);
        CHECK(e.seq == 6463);
        CHECK(e.lastEnqueued == 6463);
        CHECK(e.lastCompleted == 6462);
        CHECK(e.lastStarted == -1);
        CHECK(str(p, e.pg) == "0");
        CHECK(str(p, e.text).starts_with("Timeout at NCCL work: 6463"));
    }
    SECTION("short-lived main-branch wording")
    {
        const auto p = scan("[rank1]:[E1110 10:00:00.1 ProcessGroupNCCL.cpp:1700] [PG 0 "
                            "(default_pg) Rank 1] Work timeout is detected by watchdog at work: "
                            "7, last enqueued NCCL work: 9, last completed NCCL work: 6.\n");
        const auto& e = only(p, EventKind::TorchWatchdogStatus);
        CHECK(e.seq == 7);
        CHECK(e.lastEnqueued == 9);
        CHECK(e.lastCompleted == 6);
        CHECK(str(p, e.text).starts_with("Work timeout is detected"));
    }
    SECTION("short-lived main-branch wording for NCCL errors")
    {
        const auto p = scan("[rank1]:[E1110 10:00:00.1 ProcessGroupNCCL.cpp:1700] [PG 0 "
                            "(default_pg) Rank 1] NCCL error is detected by watchdog at work: "
                            "12, last enqueued NCCL work: 12, last completed NCCL work: 11.\n");
        const auto& e = only(p, EventKind::TorchWatchdogStatus);
        CHECK(e.seq == 12);
        CHECK(e.lastCompleted == 11);
        CHECK(str(p, e.text).starts_with("NCCL error is detected"));
    }
    SECTION("2.7 failure shape with double space and -1")
    {
        const auto p = scan("[rank1]:[E813 12:25:30.948355712 ProcessGroupNCCL.cpp:2168] [PG ID 1 "
                            "PG GUID 1 Rank 1]  failure detected by watchdog at work sequence id: "
                            "1 PG status: last enqueued work: 547, last completed work: -1\n");
        const auto& e = only(p, EventKind::TorchWatchdogStatus);
        CHECK(e.seq == 1);
        CHECK(e.lastEnqueued == 547);
        CHECK(e.lastCompleted == -1);
        CHECK(str(p, e.pg) == "1");
        CHECK(e.pgRank == 1);
        CHECK(str(p, e.text).starts_with("failure detected by watchdog"));
    }
    SECTION("an extra last-started field is tolerated and kept")
    {
        const auto p = scan("[rank1]:[E513 12:25:30.9 ProcessGroupNCCL.cpp:2168] [PG ID 1 PG GUID "
                            "1 Rank 1]  failure detected by watchdog at work sequence id: 57 PG "
                            "status: last enqueued work: 57, last started work: 57, last "
                            "completed work: 56\n");
        const auto& e = only(p, EventKind::TorchWatchdogStatus);
        CHECK(e.seq == 57);
        CHECK(e.lastEnqueued == 57);
        CHECK(e.lastStarted == 57);
        CHECK(e.lastCompleted == 56);
    }
}

// --- (c) -------------------------------------------------------------------------------------

TEST_CASE("failed collective stack collects envelope-less frames until a non-frame line",
    "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank0]:[E709 17:05:38.162814866 ProcessGroupNCCL.cpp:2271] [PG ID 0 PG GUID "
        "0(default_pg) Rank 0]  failure detected by watchdog at work sequence id: 20585 PG "
        "status: last enqueued work: 20589, last completed work: 20584\n"
        "[rank0]:[E709 17:05:38.162832798 ProcessGroupNCCL.cpp:670] Stack trace of the failed "
        "collective: \n"
        "#0 all_reduce from pytorch/torch/distributed/distributed_c10d.py:2696\n"
        "#1 wrapper from pytorch/torch/distributed/c10d_logger.py:83\n"
        "#2 bar from /home/user/repro.py:15\n"
        "\n"
        "[rank0]:[E709 17:05:38.162895613 ProcessGroupNCCL.cpp:2106] [PG ID 0 PG GUID "
        "0(default_pg) Rank 0] First PG on this rank to signal dumping.\n");
    const auto& e = only(p, EventKind::TorchFailedCollectiveStack);
    CHECK(e.code == 1);
    CHECK(str(p, e.text)
        == "#0 all_reduce from pytorch/torch/distributed/distributed_c10d.py:2696\n"
           "#1 wrapper from pytorch/torch/distributed/c10d_logger.py:83\n"
           "#2 bar from /home/user/repro.py:15");
    // The stack line has no prefix of its own: the status line just before names the PG.
    CHECK(str(p, e.pg) == "0");
    CHECK(e.pgRank == 0);
    CHECK(eventsOf(p, EventKind::TorchDumpProgress).size() == 1);
}

TEST_CASE("stack trace not found variant gives code 0", "[parsers][pytorch]")
{
    const auto p = scan("[rank0]:[E813 12:25:30.948386260 ProcessGroupNCCL.cpp:670] Stack trace "
                        "of the failed collective not found, potentially because FlightRecorder "
                        "is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE "
                        "to a non-zero value.\n");
    const auto& e = only(p, EventKind::TorchFailedCollectiveStack);
    CHECK(e.code == 0);
    CHECK(str(p, e.text).find("FlightRecorder is disabled") != std::string::npos);
}

TEST_CASE("stack frames of two interleaved ranks stay with their own block", "[parsers][pytorch]")
{
    const auto p = scan("[default0]:[rank0]:[E606 09:09:08.1 ProcessGroupNCCL.cpp:801] Stack "
                        "trace of the failed collective:\n"
                        "[default1]:[rank1]:[E606 09:09:08.1 ProcessGroupNCCL.cpp:801] Stack "
                        "trace of the failed collective:\n"
                        "[default0]:#0 all_reduce from /x/distributed_c10d.py:2696\n"
                        "[default1]:#0 broadcast from /x/distributed_c10d.py:2400\n"
                        "[default0]:#1 main from /x/train.py:10\n");
    const auto found = eventsOf(p, EventKind::TorchFailedCollectiveStack);
    REQUIRE(found.size() == 2);
    CHECK(identityOf(p, *found[0]).localRank == 0);
    CHECK(str(p, found[0]->text)
        == "#0 all_reduce from /x/distributed_c10d.py:2696\n#1 main from /x/train.py:10");
    CHECK(identityOf(p, *found[1]).localRank == 1);
    CHECK(str(p, found[1]->text) == "#0 broadcast from /x/distributed_c10d.py:2400");
}

// --- (d) -------------------------------------------------------------------------------------

TEST_CASE("two-line teardown gives one error event with the PG rank", "[parsers][pytorch]")
{
    const auto p = scan("[rank0]:[E709 17:05:39.081662161 ProcessGroupNCCL.cpp:684] [Rank 0] Some "
                        "NCCL operations have failed or timed out. Due to the asynchronous nature "
                        "of CUDA kernels, subsequent GPU operations might run on "
                        "corrupted/incomplete data.\n"
                        "[rank0]:[E709 17:05:39.081690629 ProcessGroupNCCL.cpp:698] [Rank 0] To "
                        "avoid data inconsistency, we are taking the entire process down.\n");
    const auto& e = only(p, EventKind::TorchTeardown);
    // Printed only after a collective failed or timed out: an error, as its "[E" says.
    CHECK(e.severity == Severity::Error);
    CHECK(e.pgRank == 0);
    CHECK(p.source.recognisedLines == 2);
}

TEST_CASE("single-line teardown of 1.13 gives a teardown event", "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:414] Some NCCL operations have failed or timed "
                        "out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
                        "operations might run on corrupted/incomplete data. To avoid this "
                        "inconsistency, we are taking the entire process down.\n");
    const auto& e = only(p, EventKind::TorchTeardown);
    CHECK(e.pgRank == -1);
    CHECK(str(p, e.text).starts_with("Some NCCL operations have failed"));
}

// --- (e) -------------------------------------------------------------------------------------

TEST_CASE("watchdog exception with backtrace and terminate gives one fatal event with class",
    "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank0]:[E813 12:25:31.3 ProcessGroupNCCL.cpp:1895] [PG ID 1 PG GUID 1 Rank 0] Process "
        "group watchdog thread terminated with exception: [Rank 0] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=57, OpType=ALLGATHER, NumelIn=1, NumelOut=4, "
        "Timeout(ms)=600000) ran for 600081 milliseconds before timing out.\n"
        "Exception raised from checkTimeout at "
        "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 (most recent call "
        "first):\n"
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7b99599e31b6 "
        "in /usr/lib/python3/dist-packages/torch/lib/libc10.so)\n"
        "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::"
        "duration<long, std::ratio<1l, 1000l> > >) + 0x2b4 (0x7b995a2f0a24 in "
        "/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so)\n"
        "frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x890 (0x7b995a2f8e10 in "
        "/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so)\n"
        "frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x7b995a2fa5fd in "
        "/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so)\n"
        "\n"
        "terminate called after throwing an instance of 'c10::DistBackendError'\n"
        "  what():  [PG ID 1 PG GUID 1 Rank 0] Process group watchdog thread terminated with "
        "exception: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=57, "
        "OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=600000) ran for 600081 "
        "milliseconds before timing out.\n"
        "Exception raised from checkTimeout at "
        "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:632 (most recent call "
        "first):\n"
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7b99599e31b6 "
        "in /usr/lib/python3/dist-packages/torch/lib/libc10.so)\n");
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(e.severity == Severity::Fatal);
    CHECK(str(p, e.text)
        == "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=57, "
           "OpType=ALLGATHER, NumelIn=1, NumelOut=4, Timeout(ms)=600000) ran for 600081 "
           "milliseconds before timing out.");
    CHECK(str(p, e.detail) == "c10::DistBackendError");
    CHECK(str(p, e.pg) == "1");
    CHECK(e.pgRank == 0);
    CHECK(e.seq == 57);
    CHECK(e.op == OpType::AllGather);
    CHECK(e.numelIn == 1);
    CHECK(e.numelOut == 4);
    CHECK(e.timeoutMs == 600000);
    CHECK(e.durationMs == 600081);
    // The embedded timeout text is not a second watchdog timeout.
    CHECK(eventsOf(p, EventKind::TorchWatchdogTimeout).empty());
    // Every line of the dump is recognised (10 non-blank lines).
    CHECK(p.source.recognisedLines == 10);
    CHECK(torchEvents(p) == 1);
}

TEST_CASE(
    "older NCCL watchdog exception keeps the NCCL error and its detail lines", "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:915] [Rank 16] NCCL watchdog thread terminated "
                        "with exception: NCCL error: remote process exited or there was a "
                        "network error, NCCL version 2.19.3\n"
                        "ncclRemoteError: A call failed possibly due to a network error or a "
                        "remote process exiting prematurely.\n"
                        "Last error:\n"
                        "NET/IB : Got completion from peer 10.42.0.2<47534> with error 5, opcode "
                        "48, len 32764, vendor err 244\n"
                        "terminate called after throwing an instance of 'std::runtime_error'\n"
                        "  what():  [Rank 16] NCCL watchdog thread terminated with exception: "
                        "NCCL error: remote process exited or there was a network error, NCCL "
                        "version 2.19.3\n");
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(e.pgRank == 16);
    CHECK(str(p, e.text)
        == "NCCL error: remote process exited or there was a network error, NCCL version 2.19.3");
    CHECK(str(p, e.detail) == "std::runtime_error");
    CHECK(e.seq == -1);
    CHECK(p.source.recognisedLines == 6);
    // NCCL's last WARN names the peer and the ibv status, as in an async error (f).
    CHECK(str(p, e.peer).starts_with("10.42.0.2"));
    CHECK(e.code == 5);
}

TEST_CASE("CUDA error variant of the watchdog exception keeps its text", "[parsers][pytorch]")
{
    const auto p = scan("[rank0]:[E ProcessGroupNCCL.cpp:1182] [Rank 0] NCCL watchdog thread "
                        "terminated with exception: CUDA error: unknown error\n"
                        "CUDA kernel errors might be asynchronously reported at some other API "
                        "call, so the stacktrace below might be incorrect.\n"
                        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
                        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
                        "\n"
                        "Exception raised from c10_cuda_check_implementation at "
                        "../c10/cuda/CUDAException.cpp:44 (most recent call first):\n"
                        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 "
                        "(0x7f in /x/libc10.so)\n");
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(str(p, e.text) == "CUDA error: unknown error");
    CHECK(e.pgRank == 0);
    CHECK(identityOf(p, e).globalRank == 0);
    CHECK(e.severity == Severity::Fatal);
}

TEST_CASE("terminate without an earlier log line creates the event and what() fills it",
    "[parsers][pytorch]")
{
    const auto p = scan("terminate called after throwing an instance of 'c10::DistBackendError'\n"
                        "  what():  [PG 0 Rank 3] Process group watchdog thread terminated with "
                        "exception: [Rank 3] Watchdog caught collective operation timeout: "
                        "WorkNCCL(SeqNum=880, OpType=BROADCAST, NumelIn=131137536, "
                        "NumelOut=131137536, Timeout(ms)=1800000) ran for 1800596 milliseconds "
                        "before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(str(p, e.detail) == "c10::DistBackendError");
    CHECK(str(p, e.text).starts_with("[Rank 3] Watchdog caught"));
    CHECK(str(p, e.pg) == "0");
    CHECK(e.pgRank == 3);
    CHECK(e.seq == 880);
    CHECK(e.durationMs == 1800596);
}

TEST_CASE(
    "terminate with a class and no what() still records the watchdog death", "[parsers][pytorch]")
{
    const auto p = scan("terminate called after throwing an instance of 'c10::DistBackendError'\n");
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(str(p, e.detail) == "c10::DistBackendError");
    CHECK(e.severity == Severity::Fatal);
}

TEST_CASE("1.x what() with the timeout text becomes the watchdog exception, not a second timeout",
    "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective "
                        "operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, "
                        "Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.\n"
                        "[E ProcessGroupNCCL.cpp:414] Some NCCL operations have failed or timed "
                        "out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
                        "operations might run on corrupted/incomplete data. To avoid this "
                        "inconsistency, we are taking the entire process down.\n"
                        "terminate called after throwing an instance of 'std::runtime_error'\n"
                        "  what():  [Rank 1] Watchdog caught collective operation timeout: "
                        "WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for "
                        "1802212 milliseconds before timing out.\n");
    CHECK(eventsOf(p, EventKind::TorchWatchdogTimeout).size() == 1);
    CHECK(eventsOf(p, EventKind::TorchTeardown).size() == 1);
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(str(p, e.detail) == "std::runtime_error");
    CHECK(e.seq == 469508);
    CHECK(e.pgRank == 1);
    CHECK(e.durationMs == 1802212);
}

TEST_CASE("the same failure printed three times by one rank gives one event per kind",
    "[parsers][pytorch]")
{
    const std::string failure = "[PG 0 Rank 1] Process group watchdog thread terminated with "
                                "exception: NCCL error: unhandled system error, NCCL version "
                                "2.20.5\n";
    const auto p = scan("[rank1]:[E ProcessGroupNCCL.cpp:1316] " + failure
        + "[rank1]:[E ProcessGroupNCCL.cpp:1316] " + failure
        + "terminate called after throwing an instance of 'c10::DistBackendError'\n"
          "  what():  "
        + failure);
    const auto& e = only(p, EventKind::TorchWatchdogException);
    CHECK(str(p, e.detail) == "c10::DistBackendError");
}

TEST_CASE("the same text from two different ranks is not de-duplicated", "[parsers][pytorch]")
{
    const std::string failure = "[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Process group "
                                "watchdog thread terminated with exception: NCCL error: "
                                "unhandled system error, NCCL version 2.20.5\n";
    const auto p = scan("[default0]:" + failure + "[default1]:" + failure);
    const auto found = eventsOf(p, EventKind::TorchWatchdogException);
    REQUIRE(found.size() == 2);
    CHECK(identityOf(p, *found[0]).localRank == 0);
    CHECK(identityOf(p, *found[1]).localRank == 1);
}

// --- (f) -------------------------------------------------------------------------------------

TEST_CASE("async NCCL error takes the work fields and the last error line as detail",
    "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank0]:[E ProcessGroupNCCL.cpp:542] [Rank 0] Collective WorkNCCL(SeqNum=89, "
        "OpType=ALLREDUCE, NumelIn=67108864, NumelOut=67108864, Timeout(ms)=90000) raised the "
        "following async exception: NCCL error: remote process exited or there was a network "
        "error, NCCL version 2.19.3\n"
        "ncclRemoteError: A call failed possibly due to a network error or a remote process "
        "exiting prematurely.\n"
        "Last error:\n"
        "NET/IB : Got completion from peer 10.42.0.2<47534> with error 5, opcode 48, len 32764, "
        "vendor err 244\n"
        "[rank0]:[E ProcessGroupNCCL.cpp:1795] [PG 0 Rank 0] Exception (either an error or "
        "timeout) detected by watchdog at work: 89, last enqueued NCCL work: 89, last completed "
        "NCCL work: 88.\n");
    const auto& e = only(p, EventKind::TorchAsyncNcclError);
    CHECK(e.severity == Severity::Error);
    CHECK(e.pgRank == 0);
    CHECK(e.seq == 89);
    CHECK(e.op == OpType::AllReduce);
    CHECK(e.numelIn == 67108864);
    CHECK(e.timeoutMs == 90000);
    CHECK(str(p, e.text)
        == "NCCL error: remote process exited or there was a network error, NCCL version 2.19.3");
    CHECK(str(p, e.detail)
        == "NET/IB : Got completion from peer 10.42.0.2<47534> with error 5, opcode 48, len "
           "32764, vendor err 244");
    const auto& status = only(p, EventKind::TorchWatchdogStatus);
    CHECK(status.seq == 89);
    CHECK(status.lastCompleted == 88);
}

TEST_CASE("async NCCL error without last error text leaves detail empty and closes the block",
    "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:542] [Rank 2] Collective WorkNCCL(SeqNum=5, "
                        "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) raised the "
                        "following async exception: NCCL error: internal error, NCCL version "
                        "2.10.3\n"
                        "[E ProcessGroupNCCL.cpp:414] [Rank 2] Some NCCL operations have failed "
                        "or timed out. Due to the asynchronous nature of CUDA kernels, subsequent "
                        "GPU operations might run on corrupted/incomplete data.\n");
    const auto& e = only(p, EventKind::TorchAsyncNcclError);
    CHECK(e.detail == model::kNoStr);
    CHECK(e.numelIn == 1);
    CHECK(eventsOf(p, EventKind::TorchTeardown).size() == 1);
}

// --- (g) -------------------------------------------------------------------------------------

TEST_CASE(
    "NCCL API error after DistBackendError is parsed with its last error", "[parsers][pytorch]")
{
    const auto p = scan("[rank3]: torch.distributed.DistBackendError: NCCL error in: "
                        "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled "
                        "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\n"
                        "[rank3]: ncclSystemError: System call (e.g. socket, malloc) or external "
                        "library call failed or device error. \n"
                        "[rank3]: Last error:\n"
                        "[rank3]: socketStartConnect: Connect to 10.0.0.1<41223> failed : "
                        "Software caused connection abort\n");
    const auto& e = only(p, EventKind::TorchNcclApiError);
    CHECK(e.severity == Severity::Error);
    CHECK(str(p, e.text)
        == "NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled "
           "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1");
    CHECK(str(p, e.detail)
        == "socketStartConnect: Connect to 10.0.0.1<41223> failed : Software caused connection "
           "abort");
    CHECK(identityOf(p, e).globalRank == 3);
}

TEST_CASE("a wrapper's bare 'NCCL error: <result text>' is an NCCL API error; other prose is not",
    "[parsers][pytorch]")
{
    // vLLM's pynccl raises RuntimeError(f"NCCL error: {ncclGetErrorString(result)}"), behind
    // its own logging prefix; no file, line or NCCL version.
    const auto p = scan("ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] RuntimeError: NCCL "
                        "error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n");
    const auto& e = only(p, EventKind::TorchNcclApiError);
    CHECK(e.severity == Severity::Error);
    CHECK(str(p, e.text) == "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)");

    for (const char* line : { "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n",
             "(RayWorkerWrapper pid=11305) ERROR 08-27 05:12:18 worker_base.py:382] RuntimeError: NCCL error: "
             "remote process exited or there was a network error\n" }) {
        INFO(line);
        CHECK(eventsOf(scan(line), EventKind::TorchNcclApiError).size() == 1);
    }
    // Not an ncclGetErrorString text: a sentence that happens to say "NCCL error:".
    CHECK(eventsOf(scan("INFO hint: if you see NCCL error: check your cables\n"), EventKind::TorchNcclApiError).empty());
}

// --- (h) -------------------------------------------------------------------------------------

TEST_CASE("aborted communicator names the local PG rank and keeps the reason", "[parsers][pytorch]")
{
    const auto p = scan("RuntimeError: NCCL communicator was aborted on rank 2.  Original reason "
                        "for failure was: NCCL error: remote process exited or there was a "
                        "network error, NCCL version 2.14.3\n"
                        "RuntimeError: NCCL communicator was aborted on rank 2.  Original reason "
                        "for failure was: NCCL error: remote process exited or there was a "
                        "network error, NCCL version 2.14.3\n");
    const auto& e = only(p, EventKind::TorchCommAborted);
    CHECK(e.pgRank == 2);
    CHECK(e.severity == Severity::Error);
    CHECK(str(p, e.text).starts_with("NCCL communicator was aborted on rank 2.  Original"));
}

// --- (i) -------------------------------------------------------------------------------------

TEST_CASE("heartbeat monitor lines of 2.2 and 2.4+", "[parsers][pytorch]")
{
    SECTION("2.2-2.3 monitor timed out")
    {
        const auto p = scan("[rank25]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 25] Heartbeat "
                            "monitor timed out! Process will be terminated after dumping debug "
                            "info. workMetaList_.size()=2\n");
        const auto& e = only(p, EventKind::TorchHeartbeatStuck);
        CHECK(e.durationMs == -1);
        CHECK(e.severity == Severity::Error);
        CHECK(str(p, e.pg) == "0");
        CHECK(e.pgRank == 25);
        CHECK(identityOf(p, e).globalRank == 25);
    }
    SECTION("2.4+ stuck for 480 seconds")
    {
        const auto p = scan("[rank6]:[E1218 13:55:49.1 ProcessGroupNCCL.cpp:1394] [PG ID 0 PG "
                            "GUID 0(default_pg) Rank 6] ProcessGroupNCCL's watchdog got stuck for "
                            "480 seconds without making progress in monitoring enqueued "
                            "collectives. This typically indicates a NCCL/CUDA API (e.g., "
                            "CudaEventDestroy) hang blocking the watchdog, and could be "
                            "triggered by another thread holding the GIL inside a CUDA api (for "
                            "example, CudaEventDestroy), or other deadlock-prone behaviors.If "
                            "you suspect …\n");
        const auto& e = only(p, EventKind::TorchHeartbeatStuck);
        CHECK(e.durationMs == 480000);
        CHECK(e.severity == Severity::Error);
        CHECK(str(p, e.pg) == "0");
    }
    SECTION("GIL probe")
    {
        const auto p = scan("[rank2]:[E1218 13:55:49.1 ProcessGroupNCCL.cpp:1420] Could not "
                            "acquire GIL within 300 ms on exit, possible GIL induced hang\n");
        const auto& e = only(p, EventKind::TorchHeartbeatStuck);
        CHECK(e.code == 1);
        CHECK(e.severity == Severity::Warning);
    }
}

TEST_CASE("the exit warning of a process group nobody destroyed, in 2.4's and 2.5's words",
    "[parsers][pytorch]")
{
    SECTION("2.5+")
    {
        const auto p = scan("[rank2]:[W205 18:00:35.271546125 ProcessGroupNCCL.cpp:1538] Warning: WARNING: "
                            "destroy_process_group() was not called before program exit, which can leak "
                            "resources. For more info, please see "
                            "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n");
        const auto& e = only(p, EventKind::TorchExitWithoutDestroy);
        CHECK(e.severity == Severity::Warning);
        CHECK(identityOf(p, e).globalRank == 2);
        CHECK(e.time.valid());
    }
    SECTION("2.4")
    {
        const auto p = scan("[rank0]:[W227 10:54:51.986111855 ProcessGroupNCCL.cpp:1374] Warning: WARNING: "
                            "process group has NOT been destroyed before we destruct ProcessGroupNCCL. On "
                            "normal program exit, the application should call destroy_process_group to "
                            "ensure that any pending NCCL operations have finished in this process. "
                            "(function operator())\n");
        CHECK(only(p, EventKind::TorchExitWithoutDestroy).severity == Severity::Warning);
    }
    SECTION("2.3")
    {
        const auto p = scan("[rank0]:[W515 07:06:42.829549331 ProcessGroupNCCL.cpp:1117] WARNING: process group "
                            "has NOT been destroyed before it is being destructed.\n");
        CHECK(only(p, EventKind::TorchExitWithoutDestroy).severity == Severity::Warning);
    }
}

// --- (j) -------------------------------------------------------------------------------------

TEST_CASE("dump signal from this local rank and from another rank", "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank3]:[E710 18:00:32.603241927 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID "
        "0(default_pg) Rank 3] Received a dump signal due to a collective timeout from this "
        "local rank and we will try our best to dump the debug info. Last enqueued NCCL work: "
        "59998, last completed NCCL work: 59957.This is most likely caused by incorrect usages "
        "of collectives, e.g., wrong sizes used across ranks, the order of collectives is not "
        "same for all ranks or the scheduled collective, for some reason, didn't run. "
        "Additionally, this can be caused by GIL deadlock or other reasons such as network "
        "errors or bugs in the communications library (e.g. NCCL), etc. \n"
        "[rank5]:[E703 17:54:18.884528282 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID "
        "0(default_pg) Rank 5] Received a dump signal due to a collective timeout from  rank 7 "
        "and we will try our best to dump the debug info. Last enqueued NCCL work: 56116, last "
        "completed NCCL work: 56116.This is most likely caused by incorrect usages of "
        "collectives.\n");
    const auto found = eventsOf(p, EventKind::TorchDumpSignal);
    REQUIRE(found.size() == 2);
    CHECK(found[0]->peerRank == -1);
    CHECK(found[0]->lastEnqueued == 59998);
    CHECK(found[0]->lastCompleted == 59957);
    CHECK(found[0]->pgRank == 3);
    CHECK(found[0]->severity == Severity::Warning);
    CHECK(found[1]->peerRank == 7);
    CHECK(found[1]->lastEnqueued == 56116);
    CHECK(found[1]->lastCompleted == 56116);
    CHECK(found[1]->pgRank == 5);
}

TEST_CASE("2.3 timeout and global dump signal wordings", "[parsers][pytorch]")
{
    const auto p = scan("[rank0]:[E ProcessGroupNCCL.cpp:1200] [PG 0 Rank 0] Received a timeout "
                        "signal from this local rank and will start to dump the debug info. Last "
                        "enqueued NCCL work: 2, last completed NCCL work: 1.\n"
                        "[rank1]:[E ProcessGroupNCCL.cpp:1200] [PG 0 Rank 1] Received a global "
                        "dump signal from rank 0, and will start to dump the debug info. Last "
                        "enqueued NCCL work: 2, last completed NCCL work: 2.\n");
    const auto found = eventsOf(p, EventKind::TorchDumpSignal);
    REQUIRE(found.size() == 2);
    CHECK(found[0]->peerRank == -1);
    CHECK(found[0]->lastEnqueued == 2);
    CHECK(found[0]->lastCompleted == 1);
    CHECK(found[1]->peerRank == 0);
    CHECK(found[1]->lastCompleted == 2);
}

TEST_CASE("dump progress lines are info events and carry the dump path", "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank3]:[E710 18:00:32.1 ProcessGroupNCCL.cpp:1700] [PG ID 0 PG GUID 0(default_pg) Rank "
        "3] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1, only active "
        "collectives: 0\n"
        "[rank3]:[I710 18:00:32.2 ProcessGroupNCCL.cpp:1300] [PG ID 0 PG GUID 0(default_pg) Rank "
        "3] ProcessGroupNCCL dumping nccl trace to /tmp/nccl_trace_rank_3\n"
        "[rank3]:[I710 18:00:32.3 FlightRecorder.cpp:200] [PG ID 0 PG GUID 0(default_pg) Rank 3] "
        "Flight Recorder trace successfully dumped.\n"
        "[rank3]:[I710 18:00:32.4 NCCLUtils.cpp:300] Finished writing NCCLPG debug info to "
        "/tmp/nccl_trace_rank_3\n"
        "[rank3]:[I710 18:00:32.5 ProcessGroupNCCL.cpp:1500] [PG ID 0 PG GUID 0(default_pg) Rank "
        "3] Finished flight recorder successfully. Output can be analyzed using the fr_trace "
        "script.\n"
        "[rank0]:[E129 16:38:47.634597716 ProcessGroupNCCL.cpp:1794] [PG ID 0 PG GUID "
        "0(default_pg) Rank 0] Observed flight recorder dump signal from another rank via "
        "TCPStore.\n"
        "[rank3]:[E710 18:00:32.427417358 ProcessGroupNCCL.cpp:2732] [PG ID 0 PG GUID "
        "0(default_pg) Rank 3] First PG on this rank to signal dumping.\n"
        "[rank3]:[E710 18:00:32.4 ProcessGroupNCCL.cpp:2000] [PG 0 (default_pg) Rank 3] "
        "Broadcasting flight-recorder dump signal to other processes via TCPStore.\n");
    const auto found = eventsOf(p, EventKind::TorchDumpProgress);
    REQUIRE(found.size() == 8);
    for (const auto* e : found) {
        CHECK(e->severity == Severity::Info);
        CHECK(e->code == 0);
    }
    CHECK(str(p, found[0]->text).starts_with("ProcessGroupNCCL preparing to dump"));
    CHECK(str(p, found[1]->detail) == "/tmp/nccl_trace_rank_3");
    CHECK(str(p, found[3]->detail) == "/tmp/nccl_trace_rank_3");
    CHECK(found[5]->pgRank == 0);
    CHECK(str(p, found[6]->pg) == "0");
}

TEST_CASE(
    "flight recorder dump timing out or failing is a warning with code 1", "[parsers][pytorch]")
{
    const auto p = scan("[rank2]:[E703 15:37:17.1 ProcessGroupNCCL.cpp:1442] [PG ID 0 PG GUID "
                        "0(default_pg) Rank 2] Future for Flight recorder dump in "
                        "heartbeatMonitor timed out after 15000 ms\n"
                        "[rank2]:[E703 15:37:17.182070226 ProcessGroupNCCL.cpp:1442] [PG ID 0 PG "
                        "GUID 0(default_pg) Rank 2] Exception thrown when waiting for future "
                        "Flight recorder dump in heartbeatMonitor: std::future_error: Broken "
                        "promise\n");
    const auto found = eventsOf(p, EventKind::TorchDumpProgress);
    REQUIRE(found.size() == 2);
    CHECK(found[0]->severity == Severity::Warning);
    CHECK(found[0]->code == 1);
    CHECK(found[0]->durationMs == 15000);
    CHECK(found[0]->pgRank == 2);
    CHECK(found[1]->code == 1);
    CHECK(found[1]->durationMs == -1);
}

TEST_CASE("remote error names the peer rank", "[parsers][pytorch]")
{
    const auto p = scan("[rank1]:[E1001 10:00:00.1 ProcessGroupNCCL.cpp:2100] [PG ID 0 PG GUID "
                        "0(default_pg) Rank 1]  remote error detected from rank: 5\n");
    const auto& e = only(p, EventKind::TorchRemoteError);
    CHECK(e.peerRank == 5);
    CHECK(e.pgRank == 1);
}

// --- (k) -------------------------------------------------------------------------------------

TEST_CASE("blocking wait timeout takes the work fields", "[parsers][pytorch]")
{
    const auto p = scan("[rank4]:[E1001 10:00:00.1 ProcessGroupNCCL.cpp:700] [Rank 4] Work "
                        "WorkNCCL(SeqNum=31, OpType=ALLGATHER, NumelIn=10, NumelOut=80, "
                        "Timeout(ms)=300000) timed out in blocking wait.\n"
                        "[rank4]:[I1001 09:00:00.1 ProcessGroupNCCL.cpp:900] [PG 0 Rank 4] "
                        "TORCH_NCCL_BLOCKING_WAIT is enabled, NO watchdog thread is created.\n");
    const auto& e = only(p, EventKind::TorchBlockingWaitTimeout);
    CHECK(e.seq == 31);
    CHECK(e.op == OpType::AllGather);
    CHECK(e.numelOut == 80);
    CHECK(e.timeoutMs == 300000);
    CHECK(e.durationMs == -1);
    CHECK(e.pgRank == 4);
    CHECK(only(p, EventKind::TorchPgEnvironment).pgRank == 4);
    CHECK(envValue(p, "TORCH_NCCL_BLOCKING_WAIT") == "1");
}

// --- (l) -------------------------------------------------------------------------------------

TEST_CASE("desync report naming lagging ranks that never joined", "[parsers][pytorch]")
{
    const auto p = scan("[rank3]:[E1001 10:00:00.1 ProcessGroupNCCL.cpp:1600] Rank 3\n"
                        "\t - [3] Timeout at collective: ALLREDUCE, #4084\n"
                        "\t - To our best knowledge, ranks [5, 6] are the lagging ranks that "
                        "caused this timeout. They never joined any collectives\n"
                        "[rank3]:[E1001 10:00:00.2 ProcessGroupNCCL.cpp:700] [Rank 3] Some NCCL "
                        "operations have failed or timed out. Due to the asynchronous nature of "
                        "CUDA kernels, subsequent GPU operations might run on "
                        "corrupted/incomplete data.\n");
    REQUIRE(p.desyncReports.size() == 1);
    const auto& r = p.desyncReports.front();
    CHECK(r.reportingPgRank == 3);
    CHECK(r.seq == 4084);
    CHECK(r.op == OpType::AllReduce);
    CHECK(r.laggingRanks == std::vector<std::int32_t> { 5, 6 });
    CHECK(r.joinedNotFinished.empty());
    const auto& e = only(p, EventKind::TorchDesyncReport);
    CHECK(e.code == 1);
    CHECK(e.seq == 4084);
    CHECK(e.op == OpType::AllReduce);
    CHECK(e.pgRank == 3);
    CHECK(eventsOf(p, EventKind::TorchTeardown).size() == 1);
}

TEST_CASE("a desync report pasted without its leading blanks reads as the indented one", "[parsers][pytorch]")
{
    const std::string lines[] = { "[rank1]:[E ProcessGroupNCCL.cpp:1580] [PG 0 Rank 1] ",
        "\t - [1] Timeout at collective: _REDUCE_SCATTER_BASE, #330",
        "\t - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:",
        "\t   - [1] joined but didn't finish collective #330 (count from 1)",
        "\t     [0] finished collective #329, but didn't join collective #330 (count from 1)",
        "\t - Snapshot of ranks' latest states:", "\t   #329 finished ranks:",
        "\t     [0] finished _REDUCE_SCATTER_BASE", "\t   #330 started ranks:",
        "\t     [1] started _REDUCE_SCATTER_BASE",
        "[rank1]:[E ProcessGroupNCCL.cpp:700] [Rank 1] Some NCCL operations have failed or timed out." };
    std::string indented;
    std::string trimmed;
    for (const auto& l : lines) {
        indented += l + "\n";
        trimmed += l.substr(l.find_first_not_of(" \t")) + "\n";
    }
    const auto a = scan(indented);
    const auto b = scan(trimmed);
    REQUIRE(a.desyncReports.size() == 1);
    REQUIRE(b.desyncReports.size() == 1);
    CHECK(b.desyncReports[0].reportingPgRank == a.desyncReports[0].reportingPgRank);
    CHECK(b.desyncReports[0].seq == a.desyncReports[0].seq);
    CHECK(b.desyncReports[0].joinedNotFinished == a.desyncReports[0].joinedNotFinished);
    CHECK(b.desyncReports[0].finishedNotJoined == std::vector<std::int32_t> { 0 });
    // The record after the report is read as itself.
    CHECK(eventsOf(b, EventKind::TorchTeardown).size() == eventsOf(a, EventKind::TorchTeardown).size());
}

TEST_CASE("desync report with joined and finished ranks after a bare PG prefix header",
    "[parsers][pytorch]")
{
    const auto p = scan("[rank1]:[E ProcessGroupNCCL.cpp:1580] [PG 0 Rank 1] \n"
                        "\t - [1] Timeout at collective: _REDUCE_SCATTER_BASE, #330\n"
                        "\t - To our best knowledge, the lagging/dead/mismatched ranks that "
                        "caused the desync are:\n"
                        "\t   - [1] joined but didn't finish collective #330 (count from 1)\n"
                        "\t     [0] finished collective #329, but didn't join collective #330 "
                        "(count from 1)\n"
                        "\t - Snapshot of ranks' latest states:\n"
                        "\t   #329 finished ranks:\n"
                        "\t     [0] finished _REDUCE_SCATTER_BASE\n"
                        "\t   #330 started ranks:\n"
                        "\t     [1] started _REDUCE_SCATTER_BASE\n");
    REQUIRE(p.desyncReports.size() == 1);
    const auto& r = p.desyncReports.front();
    CHECK(r.reportingPgRank == 1);
    CHECK(r.seq == 330);
    CHECK(r.op == OpType::ReduceScatterBase);
    CHECK(r.laggingRanks.empty());
    CHECK(r.joinedNotFinished == std::vector<std::int32_t> { 1 });
    CHECK(r.finishedNotJoined == std::vector<std::int32_t> { 0 });
    const auto& e = only(p, EventKind::TorchDesyncReport);
    CHECK(str(p, e.pg) == "0");
    CHECK(e.pgRank == 1);
    CHECK(p.source.recognisedLines == 10);
}

TEST_CASE("desync report appended to a 2.1 watchdog line", "[parsers][pytorch]")
{
    const auto p = scan("[E ProcessGroupNCCL.cpp:458] [Rank 2] Watchdog caught collective "
                        "operation timeout: WorkNCCL(SeqNum=4084, OpType=ALLREDUCE, "
                        "Timeout(ms)=1800000) ran for 1800083 milliseconds before timing out.\n"
                        "\t - [2] Timeout at collective: ALLREDUCE, #4084\n"
                        "\t - To our best knowledge, ranks [3] are the lagging ranks that caused "
                        "this timeout. They never joined any collectives\n");
    CHECK(only(p, EventKind::TorchWatchdogTimeout).seq == 4084);
    REQUIRE(p.desyncReports.size() == 1);
    CHECK(p.desyncReports.front().laggingRanks == std::vector<std::int32_t> { 3 });
    CHECK(only(p, EventKind::TorchDesyncReport).pgRank == 2);
}

TEST_CASE("failed desync retrieval is a report with code 0 and no record", "[parsers][pytorch]")
{
    const auto p = scan("[rank1]:[E ProcessGroupNCCL.cpp:1580] [PG 0 Rank 1] Failed to retrieve "
                        "TORCH_NCCL_DESYNC_DEBUG report.  Please file an issue. Error: "
                        "traceMap[thisSeq][myRank].second == kEventStart INTERNAL ASSERT FAILED "
                        "at \"../torch/csrc/distributed/c10d/TraceUtils.h\":244\n"
                        "[rank2]:[E1001 10:00:00.1 ProcessGroupNCCL.cpp:1600] Rank 2 Failed to "
                        "rerieve TORCH_NCCL_DESYNC_DEBUG report with unknown error. Please file "
                        "an issue.\n");
    CHECK(p.desyncReports.empty());
    const auto found = eventsOf(p, EventKind::TorchDesyncReport);
    REQUIRE(found.size() == 2);
    CHECK(found[0]->code == 0);
    CHECK(found[0]->pgRank == 1);
    CHECK(str(p, found[0]->pg) == "0");
    CHECK(found[1]->code == 0);
    CHECK(found[1]->pgRank == 2);
}

// --- (m) -------------------------------------------------------------------------------------

TEST_CASE("fingerprint mismatch names both ranks and both op types", "[parsers][pytorch]")
{
    const auto p
        = scan("RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running "
               "collective: CollectiveFingerPrint(SequenceNumber=18, OpType=ALLGATHER, "
               "TensorShape=[4], TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float "
               "(default), device=cuda, layout=Strided (default), requires_grad=false (default), "
               "pinned_memory=false (default), memory_format=(nullopt))), but Rank 2 is running "
               "collective: CollectiveFingerPrint(SequenceNumber=18, OpType=BROADCAST).\n");
    const auto& e = only(p, EventKind::TorchFingerprintMismatch);
    CHECK(e.pgRank == 0);
    CHECK(e.peerRank == 2);
    CHECK(e.seq == 18);
    CHECK(e.op == OpType::AllGather);
    CHECK(str(p, e.detail) == "BROADCAST");
    CHECK(str(p, e.text).starts_with("Detected mismatch between collectives on ranks. Rank 0"));
    CHECK(e.severity == Severity::Error);
}

TEST_CASE("fingerprint mismatch with an empty peer fingerprint", "[parsers][pytorch]")
{
    const auto p = scan("RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is "
                        "running collective: CollectiveFingerPrint(OpType=ALLGATHER, "
                        "TensorShape=[4], TensorDtypes=Float), but Rank 2 is running collective: "
                        "CollectiveFingerPrint(OpType=ALLGATHER).\n");
    const auto& e = only(p, EventKind::TorchFingerprintMismatch);
    CHECK(e.seq == -1);
    CHECK(e.op == OpType::AllGather);
    CHECK(e.peerRank == 2);
    CHECK(str(p, e.detail) == "ALLGATHER");
}

// PyTorch ≤1.12's wording with the fingerprint pretty-printed on the lines after it: the
// mismatch line ends at "inconsistent collective:".
TEST_CASE("old fingerprint mismatch whose fingerprint follows on other lines", "[parsers][pytorch]")
{
    const auto p = scan("Detected mismatch between collectives on ranks. Rank 1 is running inconsistent collective:\n"
                        "CollectiveFingerPrint(\n"
                        "    OpType=ALLGATHER,\n"
                        "    TensorShape=[1, 279, 44, 72],\n");
    const auto& e = only(p, EventKind::TorchFingerprintMismatch);
    CHECK(e.pgRank == 1);
    CHECK(e.peerRank == -1);
    // "inconsistent collectives" elsewhere in a sentence is not the check's message.
    const auto q = scan("Detected mismatch between collectives on ranks. Rank 1 is running inconsistent collectively\n");
    CHECK(firstOf(q, EventKind::TorchFingerprintMismatch) == nullptr);
}

// --- (n) -------------------------------------------------------------------------------------

TEST_CASE("initialization options of 2.4+ give a record with size, global rank and timeout",
    "[parsers][pytorch]")
{
    const auto p = scan("[rank3]:[I1218 20:00:00.1 ProcessGroupNCCL.cpp:900] [PG ID 0 PG GUID "
                        "0(default_pg) Rank 3] ProcessGroupNCCL initialization options: size: 8, "
                        "global rank: 3, TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0, "
                        "SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0\n");
    REQUIRE(p.pgOptions.size() == 1);
    const auto& o = p.pgOptions.front();
    CHECK(str(p, o.pg) == "0");
    CHECK(str(p, o.pgDesc) == "default_pg");
    CHECK(o.pgRank == 3);
    CHECK(o.size == 8);
    CHECK(o.globalRank == 3);
    CHECK(o.timeoutMs == 600000);
    const auto& e = only(p, EventKind::TorchPgOptions);
    CHECK(e.timeoutMs == 600000);
    CHECK(str(p, e.detail) == "default_pg");
}

TEST_CASE("environments lines become one setting per pair", "[parsers][pytorch]")
{
    const auto p = scan(
        "[rank0]:[I1218 20:00:00.1 ProcessGroupNCCL.cpp:910] [PG ID 0 PG GUID 0(default_pg) Rank "
        "0] ProcessGroupNCCL environments: NCCL version: 2.21.5, TORCH_NCCL_ASYNC_ERROR_HANDLING: "
        "3, TORCH_NCCL_ENABLE_TIMING: 0, TORCH_NCCL_BLOCKING_WAIT: 0, TORCH_DISTRIBUTED_DEBUG: "
        "OFF, TORCH_NCCL_TRACE_BUFFER_SIZE: 2000, TORCH_NCCL_NAN_CHECK: 0, "
        "TORCH_NCCL_CUDA_EVENT_CACHE: 1\n"
        "[rank0]:[I1218 20:00:00.2 ProcessGroupNCCL.cpp:920] [PG ID 0 PG GUID 0(default_pg) Rank "
        "0] HeartbeatMonitor environments: TORCH_NCCL_ENABLE_MONITORING (Whether to kill program "
        "when no watchdog heartbeat detected): 1, TORCH_NCCL_DUMP_ON_TIMEOUT: 1, "
        "TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC: 15000, TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC: 480\n");
    const auto found = eventsOf(p, EventKind::TorchPgEnvironment);
    REQUIRE(found.size() == 2);
    CHECK(str(p, found[0]->detail) == "2.21.5");
    CHECK(envValue(p, "NCCL version") == "2.21.5");
    CHECK(envValue(p, "TORCH_NCCL_ASYNC_ERROR_HANDLING") == "3");
    CHECK(envValue(p, "TORCH_DISTRIBUTED_DEBUG") == "OFF");
    CHECK(envValue(p, "TORCH_NCCL_TRACE_BUFFER_SIZE") == "2000");
    CHECK(envValue(p, "TORCH_NCCL_CUDA_EVENT_CACHE") == "1");
    CHECK(envValue(p, "TORCH_NCCL_ENABLE_MONITORING") == "1");
    CHECK(envValue(p, "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC") == "480");
    CHECK(p.envSettings.size() == 12);
    CHECK(identityOf(p, *found[1]).globalRank == 0);
}

TEST_CASE("2.2-era options line with environment values keeps both", "[parsers][pytorch]")
{
    const auto p = scan("[rank1]:[I ProcessGroupNCCL.cpp:750] [PG 0 Rank 1] ProcessGroupNCCL "
                        "initialization options: NCCL version: 2.19.3, size: 4, global rank: 1, "
                        "TORCH_NCCL_ASYNC_ERROR_HANDLING: 1, TORCH_NCCL_DUMP_ON_TIMEOUT: 0, "
                        "TORCH_NCCL_DESYNC_DEBUG: 0, TIMEOUT(ms): 1800000, "
                        "USE_HIGH_PRIORITY_STREAM: 0, TORCH_DISTRIBUTED_DEBUG: OFF, ID=1234\n");
    REQUIRE(p.pgOptions.size() == 1);
    CHECK(p.pgOptions.front().size == 4);
    CHECK(p.pgOptions.front().globalRank == 1);
    CHECK(p.pgOptions.front().timeoutMs == 1800000);
    CHECK(envValue(p, "TORCH_NCCL_DESYNC_DEBUG") == "0");
    CHECK(envValue(p, "NCCL version") == "2.19.3");
}

TEST_CASE(
    "communicator creation maps the PG to the ncclComm pointer and device", "[parsers][pytorch]")
{
    SECTION("decimal device")
    {
        const auto p = scan("[rank5]:[I1218 20:00:00.1 ProcessGroupNCCL.cpp:2000] [PG ID 0 PG "
                            "GUID 0(default_pg) Rank 5] ProcessGroupNCCL created ncclComm_ "
                            "0x555b8d27b370 on CUDA device: 5\n");
        const auto& e = only(p, EventKind::TorchCommCreated);
        CHECK(str(p, e.detail) == "0x555b8d27b370");
        CHECK(e.code == 5);
        CHECK(e.pgRank == 5);
    }
    SECTION("raw control byte device")
    {
        const auto p = scan(std::string("[rank5]:[I1218 20:00:00.1 ProcessGroupNCCL.cpp:2000] [PG "
                                        "0 Rank 5] ProcessGroupNCCL created ncclComm_ "
                                        "0x555b8d27b370 on CUDA device: ")
            + '\x05' + "\n");
        const auto& e = only(p, EventKind::TorchCommCreated);
        CHECK(str(p, e.detail) == "0x555b8d27b370");
        CHECK(e.code == 5);
    }
}

TEST_CASE("store get error during unique id exchange names the rank asked", "[parsers][pytorch]")
{
    const auto p = scan("[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL "
                        "communicator and retrieving ncclUniqueId from [0] via c10d key-value "
                        "store by key '0', but store->get('0') got error: Connection reset by "
                        "peer. This may indicate a possible application crash on rank 0 or a "
                        "network set up issue.\n");
    const auto& e = only(p, EventKind::TorchStoreError);
    CHECK(e.pgRank == 3);
    CHECK(e.peerRank == 0);
    CHECK(e.severity == Severity::Error);
    CHECK(str(p, e.text).starts_with("[3] is setting up NCCL communicator"));
}

TEST_CASE("store get error in PyTorch 1.13's spelling (retreiving) is the same error",
    "[parsers][pytorch]")
{
    const auto p = scan("RuntimeError: [96] is setting up NCCL communicator and retreiving "
                        "ncclUniqueId from [0] via c10d key-value store by key '0', but "
                        "store->get('0') got error: Connection reset by peer\n");
    const auto& e = only(p, EventKind::TorchStoreError);
    CHECK(e.pgRank == 96);
    CHECK(e.peerRank == 0);
}

TEST_CASE("unique id broadcast time and periodic work update", "[parsers][pytorch]")
{
    const auto p = scan("[rank0]:[I1218 20:00:00.1 ProcessGroupNCCL.cpp:2100] [PG ID 0 PG GUID "
                        "0(default_pg) Rank 0] ProcessGroupNCCL broadcast unique ID through "
                        "store took 4103.04 ms\n"
                        "I0527 15:20:00.000000 58629 ProcessGroupNCCL.cpp:1800] [PG 0 Rank 2] "
                        "NCCL Work update periodically: last enqueued NCCL work: 120, last "
                        "completed NCCL work: 118.\n");
    const auto& b = only(p, EventKind::TorchUniqueIdBroadcast);
    CHECK(b.durationMs == 4103);
    CHECK(b.pgRank == 0);
    const auto& w = only(p, EventKind::TorchWorkUpdate);
    CHECK(w.lastEnqueued == 120);
    CHECK(w.lastCompleted == 118);
    CHECK(w.pgRank == 2);
}

// --- torn, prefixed, repeated, garbage -------------------------------------------------------

TEST_CASE("watchdog line glued to a tqdm bar is still found", "[parsers][pytorch]")
{
    const auto p = scan("Epoch 0:   6%|██        | 3/50 [00:10<02:40, global_step=3.2e+4, "
                        "consumed_samples=2.56e+7][E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog "
                        "caught collective operation timeout: WorkNCCL(SeqNum=96117, "
                        "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25625613 milliseconds "
                        "before timing out.\n");
    const auto& e = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(e.seq == 96117);
    CHECK(e.pgRank == 0);
    CHECK(str(p, e.text).starts_with("Watchdog caught"));
}

TEST_CASE("a 2.4+ line glued behind a progress bar keeps its rank tag and envelope time",
    "[parsers][pytorch]")
{
    const auto p = scan("Epoch 10/10: 241it [15:55, 181.19s/it, loss=5.09][rank0]:[E709 "
                        "17:05:39.081662161 ProcessGroupNCCL.cpp:684] [Rank 0] Some NCCL "
                        "operations have failed or timed out. Due to the asynchronous nature of "
                        "CUDA kernels, subsequent GPU operations might run on "
                        "corrupted/incomplete data.\n");
    const auto& e = only(p, EventKind::TorchTeardown);
    CHECK(identityOf(p, e).globalRank == 0);
    CHECK(e.pgRank == 0);
}

TEST_CASE("the envelope time of a glued line is read at the envelope", "[parsers][pytorch]")
{
    const auto p = scan("Epoch 10/10: 241it [15:55, 181.19s/it, loss=5.09][rank0]:[E1209 "
                        "17:05:39.081662161 ProcessGroupNCCL.cpp:684] [Rank 0] Some NCCL "
                        "operations have failed or timed out. Due to the asynchronous nature of "
                        "CUDA kernels, subsequent GPU operations might run on "
                        "corrupted/incomplete data.\n");
    const auto& e = only(p, EventKind::TorchTeardown);
    REQUIRE(e.time.valid());
    CHECK_FALSE(e.time.inferred);
    const auto civil = model::civilFromNs(e.time.ns);
    CHECK(civil.month == 12);
    CHECK(civil.day == 9);
    CHECK(civil.minute == 5);
    CHECK(civil.second == 39);
}

TEST_CASE("carriage returns from tqdm and Windows line ends do not hurt", "[parsers][pytorch]")
{
    const auto p = scan("loss 1.0\rloss 0.9\r[rank2]:[E1206 18:44:13.275158817 "
                        "ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective operation "
                        "timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                        "Timeout(ms)=600000) ran for 600001 milliseconds before timing out.\r\n"
                        "[rank2]:[E1206 18:44:13.3 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 2] "
                        "Exception (either an error or timeout) detected by watchdog at work: "
                        "7, last enqueued NCCL work: 7, last completed NCCL work: 6.\r\n");
    const auto& a = only(p, EventKind::TorchWatchdogTimeout);
    CHECK(a.durationMs == 600001);
    CHECK(str(p, a.text).back() == '.');
    const auto& b = only(p, EventKind::TorchWatchdogStatus);
    CHECK(b.lastCompleted == 6);
    CHECK(str(p, b.pg) == "1");
    CHECK(identityOf(p, b).globalRank == 2);
}

TEST_CASE("torchrun and launcher prefixes attribute the event to the writer", "[parsers][pytorch]")
{
    const auto p = scan("[80746] [default3]:[rank11]:[E321 10:11:12.000000001 "
                        "ProcessGroupNCCL.cpp:1709] [PG 0 (default_pg) Rank 11] Exception "
                        "(either an error or timeout) detected by watchdog at work: 335, last "
                        "enqueued NCCL work: 731, last completed NCCL work: 334.\n");
    const auto& e = only(p, EventKind::TorchWatchdogStatus);
    CHECK(identityOf(p, e).globalRank == 11);
    CHECK(identityOf(p, e).localRank == 3);
    CHECK(e.seq == 335);
    CHECK(e.lastEnqueued == 731);
}

TEST_CASE("truncated lines, binary bytes and absurd numbers neither crash nor mislead",
    "[parsers][pytorch]")
{
    std::string text;
    text += "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=46950\n";
    text += "[E ProcessGroupNCCL.cpp:737] [Rank 99999999999999999999] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=999999999999999999999999, OpType=ALLREDUCE, "
            "Timeout(ms)=1) ran for 99999999999999999999999 milliseconds before timing out.\n";
    text += std::string("\x00\xff\xfe[PG \x01 Rank ]] NCCL \x80\x81 atchdog", 33) + "\n";
    text += "[PG 0 Rank 1] Exception (either an error or timeout) detected by watchdog at work: "
            "x, last enqueued NCCL work: 2\n";
    text += "[PG ID  PG GUID Rank 3] Timeout at NCCL work: 18446744073709551616999, last\n";
    text += "Received a dump signal from rank\n";
    text += "NCCL communicator was aborted on rank \n";
    text += "Detected mismatch between collectives on ranks. Rank \n";
    text += "what():\n";
    text += "terminate called after throwing an instance of '\n";
    text += "\t - [\n";
    text += "\t - [1, 2, ] Timeout at collective: , #\n";
    text += "ProcessGroupNCCL created ncclComm_ \n";
    text += "[3] is setting up NCCL communicator and retrieving ncclUniqueId from [\n";
    text += "ProcessGroupNCCL initialization options: size: 99999999999999999999, global rank: "
            "-5\n";
    text += "NCCL error in: \n";
    text += "Stack trace of the failed collective: \n#\n#99999999999999999999999 x from \n";
    std::string big(200000, 'A');
    text += big + "Watchdog caught collective operation timeout: WorkNCCL(" + big + "\n";
    const auto p = scan(text);
    // The truncated watchdog lines still give their events with what could be read.
    const auto timeouts = eventsOf(p, EventKind::TorchWatchdogTimeout);
    REQUIRE(timeouts.size() >= 2);
    CHECK(timeouts[0]->seq == 46950);
    CHECK(timeouts[0]->pgRank == 1);
    CHECK(timeouts[1]->seq == -1);
    CHECK(timeouts[1]->pgRank == -1);
    CHECK(timeouts[1]->durationMs == -1);
    CHECK(p.issues.count("pytorch_truncated_work") >= 1);
    // Statuses without a sequence number are not events.
    CHECK(eventsOf(p, EventKind::TorchWatchdogStatus).empty());
    CHECK(eventsOf(p, EventKind::TorchCommAborted).empty());
    CHECK(eventsOf(p, EventKind::TorchDumpSignal).empty());
    CHECK(p.desyncReports.empty());
    REQUIRE(p.pgOptions.size() == 1);
    CHECK(p.pgOptions.front().size == -1);
    CHECK(p.pgOptions.front().globalRank == -1);
}

TEST_CASE("ordinary training output is not recognised", "[parsers][pytorch]")
{
    const auto p = scan("Rank 0: step 100 loss 2.31\n"
                        "Epoch 1:  50%|█████     | 50/100 [00:10<00:10]\n"
                        "NCCL_DEBUG is not set\n"
                        "\t - a tab-indented note\n"
                        "#0 a markdown heading from notes\n"
                        "frame #3 is missing\n"
                        "Exception raised from nowhere\n"
                        "Received a letter from rank 5\n"
                        "what is going on\n");
    CHECK(torchEvents(p) == 0);
}

TEST_CASE("a pasted desync report whose tabs became spaces is still read", "[parsers][pytorch]")
{
    auto p = rankscope::testing::scan(
        "[rank0]:[E515 18:36:47.343377708 ProcessGroupNCCL.cpp:1937] Rank 0\n"
        "         - [0] Timeout at collective: ALLREDUCE, #315\n"
        "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n"
        "             [7] finished collective #182, but didn't join collective #183 (count from 1)\n"
        "         - Snapshot of ranks' latest states:\n"
        "           #182 finished ranks:\n"
        "             [7] finished ALLREDUCE\n");
    REQUIRE(p.desyncReports.size() == 1);
    CHECK(p.desyncReports[0].seq == 315);
    REQUIRE(p.desyncReports[0].finishedNotJoined.size() == 1);
    CHECK(p.desyncReports[0].finishedNotJoined[0] == 7);
}

TEST_CASE("TORCH_WARN's deprecated-variable notices are read as notices, not failures", "[parsers][pytorch]")
{
    const auto out = scan(
        "[rank3]:[W Utils.hpp:164] Warning: Environment variable NCCL_DESYNC_DEBUG is deprecated; use "
        "TORCH_NCCL_DESYNC_DEBUG instead (function getCvarBool)\n"
        "[W Utils.hpp:135] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use "
        "TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function getCvarInt)\n"
        "[W Utils.hpp] Warning: not an envelope\n");
    CHECK(out.source.recognisedLines == 2);
    for (const auto& e : out.events)
        CHECK(e.severity != Severity::Error);
}
