// A paste rendered as a paragraph glues records into one line; each is read from its start.
#include "parsers/flattenedpaste.h"
#include "parsers/pastewrapper.h"
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace rankscope;

namespace {

const std::string kParagraph = "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or "
                               "timed out. Due to the asynchronous nature of "
                               "CUDA kernels, subsequent GPU operations might run on "
                               "corrupted/incomplete data. [E ProcessGroupNCCL.cpp:460] To "
                               "avoid data inconsistency, we are taking the entire process down. "
                               "terminate called after throwing an instance "
                               "of 'std::runtime_error' what(): NCCL error: remote process exited "
                               "or there was a network error";

} // namespace

TEST_CASE("records glued into one line are found where they start", "[parsers][flattened]")
{
    const auto starts = parsers::gluedRecordStarts(kParagraph);
    REQUIRE(starts.size() == 2);
    CHECK(kParagraph.substr(starts[0]).starts_with("[E ProcessGroupNCCL.cpp:460]"));
    CHECK(kParagraph.substr(starts[1]).starts_with("terminate called"));
    CHECK(parsers::looksFlattened(kParagraph + "\n"));

    const std::string ranks
        = "[rank1]:[E1206 18:44:13.2 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective "
          "operation timeout: WorkNCCL(SeqNum=7) ran for 600011 ms. [rank2]:[E1206 18:44:13.3 "
          "ProcessGroupNCCL.cpp:632] [Rank 2] x node-3:4122:4180 [2] NCCL WARN NET/IB : Got "
          "completion";
    const auto r = parsers::gluedRecordStarts(ranks);
    REQUIRE(r.size() == 2);
    CHECK(ranks.substr(r[0]).starts_with("[rank2]:"));
    CHECK(ranks.substr(r[1]).starts_with("node-3:4122:4180 [2] NCCL WARN"));

    // Ordinary lines hold no second record: a message that mentions a file or a bracket.
    for (const char* line : { "[rank3]:[E ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught "
                              "collective operation timeout",
             "node-3:4122:4180 [2] NCCL INFO Channel 00/02 : 0 1 2 3 [E] nothing",
             "see [E foo.cpp] and [W 12]", "RuntimeError: host:12:34 [0] NCCLX not a header",
             "Epoch 3 [default] done" })
        CHECK(parsers::gluedRecordStarts(line).empty());
    CHECK_FALSE(parsers::looksFlattened(
        "[E ProcessGroupNCCL.cpp:455] one record\n[E ProcessGroupNCCL.cpp:460] another\n"));
}

TEST_CASE("a flattened paste is read record by record", "[parsers][flattened]")
{
    // Two ranks' watchdog timeouts and an NCCL warning, pasted as one paragraph.
    const std::string paragraph
        = "[rank1]:[E1206 18:44:13.275 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught "
          "collective operation timeout: "
          "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for "
          "600011 milliseconds "
          "before timing out. [rank2]:[E1206 18:44:13.276 ProcessGroupNCCL.cpp:632] [Rank 2] "
          "Watchdog caught collective "
          "operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=8, NumelOut=8, "
          "Timeout(ms)=600000) ran for "
          "600012 milliseconds before timing out. node-3:4122:4180 [2] NCCL WARN NET/IB : Got "
          "completion from peer "
          "10.0.0.4<56013> with error 12, opcode 0, len 0, vendor err 129\n";
    const auto parsed = testing::built(paragraph);
    std::vector<std::int32_t> timedOut;
    bool ibError = false;
    for (const auto& e : parsed.events) {
        CHECK(e.evidence.line == 1);
        if (e.kind == model::EventKind::TorchWatchdogTimeout)
            timedOut.push_back(parsed.identities[e.identity].globalRank);
        ibError = ibError || e.kind == model::EventKind::NcclIbCompletionError;
    }
    CHECK(timedOut == std::vector<std::int32_t> { 1, 2 });
    CHECK(ibError);
}

TEST_CASE("Open MPI labels and NCCL warnings with their source line start glued records", "[parsers][flattened]")
{
    const std::string line = "[1,3]<stdout>:smc-gpu-03:29881:30401 [0] NCCL INFO init.cc:903 -> 5 "
                             "[1,2]<stdout>:smc-gpu-03:29880:30398 [0] init.cc:497 NCCL WARN Duplicate GPU "
                             "detected : rank 2 and rank 0 both on CUDA device 1000 "
                             "smc-gpu-03:29882:30400 [0] init.cc:497 NCCL WARN Duplicate GPU detected : "
                             "rank 4 and rank 0 both on CUDA device 1000 [1,0]<stderr>: done";
    const auto starts = parsers::gluedRecordStarts(line);
    REQUIRE(starts.size() == 3);
    CHECK(line.substr(starts[0]).starts_with("[1,2]<stdout>:"));
    CHECK(line.substr(starts[1]).starts_with("smc-gpu-03:29882:30400 [0] init.cc:497 NCCL WARN"));
    CHECK(line.substr(starts[2]).starts_with("[1,0]<stderr>:"));
    // Lightning's rank announcements, old and new wording.
    const std::string lightning = "GPU available: True, used: True initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8 "
                                  "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8 Initializing distributed: GLOBAL_RANK: 2, MEMBER: 3/8";
    CHECK(parsers::gluedRecordStarts(lightning).size() == 3);
    // Not a label, not a warning's source line.
    for (const char* other : { "x [1,2] <stdout>: y", "x [1,2]<stdin>: y", "x [a,2]<stdout>: y",
             "x host:1:2 [0] init.cc NCCL WARN y", "x host:1:2 [0] init.cc:12 NCCL INFO y" })
        CHECK(parsers::gluedRecordStarts(other).empty());
}

TEST_CASE("NCCL's last warning glued to PyTorch's \"Last error:\" is read as the line after it", "[parsers][flattened]")
{
    const std::string exception = "torch.distributed.DistBackendError: NCCL error in: "
                                  "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, invalid usage (run "
                                  "with NCCL_DEBUG=WARN for details), NCCL version 2.19.3";
    const std::string warn = "Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 2000";
    auto detail = [](const model::ParsedSource& p) {
        for (const auto& e : p.events)
            if (e.kind == model::EventKind::TorchNcclApiError)
                return std::string(p.text(e.detail));
        return std::string("(no error)");
    };
    const auto lines = testing::built(exception + "\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\n" + warn + "\n");
    const auto glued = testing::built(exception + " ncclInvalidUsage: This usually reflects invalid usage of NCCL library. Last error: " + warn + "\n");
    CHECK(detail(lines) == warn);
    CHECK(detail(glued) == warn);
    CHECK(glued.events.size() == lines.events.size());
    // "Last error:" at the end of the line: the next line is still the one.
    CHECK(detail(testing::built(exception + " Last error:\n" + warn + "\n")) == warn);
}

TEST_CASE("logger headers, launcher labels, kernel times and gdb frames start glued records", "[parsers][flattened]")
{
    auto startsOf = [](const std::string& line) {
        std::vector<std::string> out;
        for (std::size_t at : parsers::gluedRecordStarts(line))
            out.push_back(line.substr(at, 12));
        return out;
    };
    // Python logging's default format with any logger, vLLM's logger, horovodrun's and TorchX's
    // labels, a rank tag glued to an NCCL header.
    CHECK(startsOf("a INFO:root:Waiting x ERROR:mlpf:Saved y WARNING:torch.distributed.run: z")
        == std::vector<std::string> { "INFO:root:Wa", "ERROR:mlpf:S", "WARNING:torc" });
    CHECK(startsOf("a ERROR 07-07 15:19:51 [core.py:515] EngineCore failed b")
        == std::vector<std::string> { "ERROR 07-07 " });
    CHECK(startsOf("a [0]<stderr>:x [trainer3]:node:1:2 [3] NCCL INFO y [trainer0|0]:ncclInternalError z")
        == std::vector<std::string> { "[0]<stderr>:", "[trainer3]:n", "[trainer0|0]" });
    CHECK(startsOf("-> 2 [15]worker-23:83:2526 [0] NCCL INFO misc/socket.cc:520 -> 2")
        == std::vector<std::string> { "[15]worker-2" });
    // dmesg's times, gdb's frames, nvidia-smi's lost GPU after the command's prompt.
    CHECK(startsOf("x [  +0.000316] pcieport y [ 8421.103417] NVRM: Xid z")
        == std::vector<std::string> { "[  +0.000316", "[ 8421.10341" });
    CHECK(startsOf("#0  0x00007fff in accept () #1  0x00007fff in ncclSocketAccept () #3  bootstrapRecv (c=0x1)")
        == std::vector<std::string> { "#1  0x00007f", "#3  bootstra" });
    CHECK(startsOf("user@cn-234 ~ % nvidia-smi Unable to determine the device handle for GPU0000:03:00.0")
        == std::vector<std::string> { "Unable to de" });
    // A Ray prefix starts a record; the line it labels does not start another.
    CHECK(startsOf("x (VllmWorker rank=5 pid=50999) ERROR 07-07 15:19:48 [a.py:1] y (raylet) A worker died")
        == std::vector<std::string> { "(VllmWorker ", "(raylet) A w" });
    // An exception's line and NCCL's WARN cut from its header split a flattened line, but not
    // after a prefix of their own line or a WARN's source location.
    CHECK(startsOf("work = f() RuntimeError: NCCL error x [a.py:9] torch.OutOfMemoryError: CUDA")
        == std::vector<std::string> { "RuntimeError" });
    CHECK(startsOf("via NET/IB/1 NCCL WARN NET/IB : Got completion y h:1:2 [1] net_ib.cc:1 NCCL WARN z")
        == std::vector<std::string> { "NCCL WARN NE", "h:1:2 [1] ne" });
    // Those two do not make a paste look flattened on their own: prose names exceptions.
    CHECK_FALSE(parsers::looksFlattened(std::string(200, 'x')
        + " caused by ValueError: bad value, then KeyError: 'x' and TypeError: y\n"));
    // Not starts: a level word inside prose, bracketed words, a '#' that is no frame.
    for (const char* other : { "x INFO: done", "x ERROR:  two blanks", "x INFO 7-07 1:19:51 [a]",
             "x [trainer]: y", "x [  0.1] y", "x #1 item", "x #12  ", "x (pid=abc) y", "x (not ray) y" })
        CHECK(parsers::gluedRecordStarts(other).empty());
}
