// StackDumpParser: py-spy dump, faulthandler and c10 fatal-signal stacks of hung processes
// ([formats 8]), classified by where the main thread sits, through the real LogScanner.
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using model::EventKind;
using model::Severity;
using model::StackActivity;
using model::StackTool;
using testing::eventsOf;
using testing::scan;
using testing::str;

namespace {

std::string frameText(const model::ParsedSource& p, const model::StackFrame& f)
{
    std::string s = str(p, f.function) + " (" + str(p, f.file);
    if (f.line >= 0)
        s += ":" + std::to_string(f.line);
    return s + ")";
}

} // namespace

TEST_CASE("py-spy dump of a hung rank (formats notes, section 8) puts the main thread in all_reduce", "[parsers][stacks]")
{
    const auto p = scan("Process 12345: python train.py --cfg x\n"
                        "Python v3.10.12 (/usr/bin/python3.10)\n"
                        "\n"
                        "Thread 12345 (active+gil): \"MainThread\"\n"
                        "    all_reduce (torch/distributed/distributed_c10d.py:2050)\n"
                        "    wrapper (torch/distributed/c10d_logger.py:83)\n"
                        "    train_step (train.py:120)\n"
                        "Thread 12401 (idle): \"Thread-3\"\n"
                        "    wait (threading.py:320)\n",
        "pyspy_rank3.txt");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(d.tool == StackTool::PySpy);
    CHECK(d.pid == 12345);
    CHECK(str(p, d.threadName) == "MainThread");
    CHECK(d.activity == StackActivity::InCollective);
    CHECK(d.evidence.line == 1);
    REQUIRE(d.mainThread.size() == 3);
    CHECK(str(p, d.mainThread[0].function) == "all_reduce"); // innermost first
    CHECK(str(p, d.mainThread[0].file) == "torch/distributed/distributed_c10d.py");
    CHECK(d.mainThread[0].line == 2050);
    CHECK(frameText(p, d.mainThread[2]) == "train_step (train.py:120)");
    CHECK(p.identities[d.identity].pid == 12345);

    const auto events = eventsOf(p, EventKind::StackDump);
    REQUIRE(events.size() == 1);
    const auto& e = *events[0];
    CHECK(e.code == static_cast<int>(StackActivity::InCollective));
    CHECK(e.pid == 12345);
    CHECK(e.severity == Severity::Info);
    CHECK(str(p, e.text)
        == "py-spy: main thread in all_reduce (torch/distributed/distributed_c10d.py:2050)");
    CHECK(e.identity == d.identity);
}

TEST_CASE("py-spy main thread waiting on the DataLoader queue is a data-loading straggler",
    "[parsers][stacks]")
{
    const auto p = scan("Process 2001: /usr/bin/python3 -u pretrain.py\n"
                        "Python v3.11.4 (/usr/bin/python3.11)\n"
                        "\n"
                        "Thread 2001 (idle): \"MainThread\"\n"
                        "    wait (threading.py:324)\n"
                        "    get (queue.py:180)\n"
                        "    _try_get_data (torch/utils/data/dataloader.py:1133)\n"
                        "    _get_data (torch/utils/data/dataloader.py:1294)\n"
                        "    _next_data (torch/utils/data/dataloader.py:1332)\n"
                        "    __next__ (torch/utils/data/dataloader.py:631)\n"
                        "    train (pretrain.py:88)\n"
                        "Thread 2077 (idle): \"pin_memory\"\n"
                        "    all_reduce (torch/distributed/distributed_c10d.py:2050)\n");
    REQUIRE(p.stackDumps.size() == 1);
    CHECK(p.stackDumps[0].activity == StackActivity::DataLoading);
    CHECK(p.stackDumps[0].mainThread.size() == 7);
    const auto events = eventsOf(p, EventKind::StackDump);
    REQUIRE(events.size() == 1);
    CHECK(events[0]->severity == Severity::Warning);
    CHECK(events[0]->code == static_cast<int>(StackActivity::DataLoading));
    CHECK(str(p, events[0]->text) == "py-spy: main thread in get (queue.py:180)");
}

TEST_CASE("a py-spy dump pasted without its leading blanks keeps its frames", "[parsers][stacks]")
{
    const std::string lines[] = { "Thread 2001 (idle): \"MainThread\"", "    wait (threading.py:324)",
        "    get (queue.py:180)", "    _next_data (torch/utils/data/dataloader.py:1332)",
        "    __next__ (torch/utils/data/dataloader.py:631)", "    train (pretrain.py:88)" };
    std::string indented = "Process 2001: /usr/bin/python3 -u pretrain.py\nPython v3.11.4 (/usr/bin/python3.11)\n\n";
    std::string trimmed = indented;
    for (const auto& l : lines) {
        indented += l + "\n";
        trimmed += l.substr(l.find_first_not_of(' ')) + "\n";
    }
    const auto a = scan(indented);
    const auto b = scan(trimmed + "Epoch 3 finished\n");
    REQUIRE(a.stackDumps.size() == 1);
    REQUIRE(b.stackDumps.size() == 1);
    CHECK(b.stackDumps[0].activity == StackActivity::DataLoading);
    REQUIRE(b.stackDumps[0].mainThread.size() == a.stackDumps[0].mainThread.size());
    for (std::size_t i = 0; i < a.stackDumps[0].mainThread.size(); ++i)
        CHECK(frameText(b, b.stackDumps[0].mainThread[i]) == frameText(a, a.stackDumps[0].mainThread[i]));
    // A line at the margin under an indented dump is not one of its frames.
    const auto c = scan(indented + "Rank 0 (node1:1234)\n");
    REQUIRE(c.stackDumps.size() == 1);
    CHECK(c.stackDumps[0].mainThread.size() == a.stackDumps[0].mainThread.size());
}

TEST_CASE("py-spy dumps classify checkpoint I/O, native sleep and other code", "[parsers][stacks]")
{
    const auto p = scan("Process 3001: python train.py\n"
                        "Python v3.10.12 (/usr/bin/python3.10)\n"
                        "\n"
                        "Thread 3001 (active+gil): \"MainThread\"\n"
                        "    _save (torch/serialization.py:849)\n"
                        "    save (torch/serialization.py:619)\n"
                        "    save_checkpoint (trainer.py:40)\n"
                        "Process 4001: python train.py\n"
                        "Python v3.10.12 (/usr/bin/python3.10)\n"
                        "\n"
                        "Thread 4001 (idle): \"MainThread\"\n"
                        "    clock_nanosleep (libc.so.6)\n"
                        "    pysleep (timemodule.c:2159)\n"
                        "    time_sleep (timemodule.c:383)\n"
                        "    wait_for_peer (train.py:50)\n"
                        "Process 5001: python eval.py\n"
                        "Python v3.10.12 (/usr/bin/python3.10)\n"
                        "\n"
                        "Thread 5001 (active+gil): \"MainThread\"\n"
                        "    compute_metrics (eval.py:33)\n"
                        "    evaluate (eval.py:70)\n");
    REQUIRE(p.stackDumps.size() == 3);
    CHECK(p.stackDumps[0].pid == 3001);
    CHECK(p.stackDumps[0].activity == StackActivity::CheckpointIo);
    CHECK(p.stackDumps[1].pid == 4001);
    CHECK(p.stackDumps[1].activity == StackActivity::Sleeping);
    CHECK(str(p, p.stackDumps[1].mainThread[0].file) == "libc.so.6");
    CHECK(p.stackDumps[1].mainThread[0].line == -1);
    CHECK(p.stackDumps[2].activity == StackActivity::Other);
    const auto events = eventsOf(p, EventKind::StackDump);
    REQUIRE(events.size() == 3);
    CHECK(str(p, events[0]->text) == "py-spy: main thread in _save (torch/serialization.py:849)");
    CHECK(str(p, events[1]->text) == "py-spy: main thread in pysleep (timemodule.c:2159)");
    CHECK(str(p, events[2]->text) == "py-spy: main thread in compute_metrics (eval.py:33)");
    for (const auto* e : events)
        CHECK(e->severity == Severity::Warning);
    CHECK(events[2]->evidence.line == 16);
}

TEST_CASE("py-spy --locals blocks are skipped and hex thread ids fall back to the first thread",
    "[parsers][stacks]")
{
    const auto p = scan("Thread 0x7F3C61C2B740 (active)\n"
                        "    all_gather_into_tensor (torch/distributed/distributed_c10d.py:2900)\n"
                        "        Arguments:\n"
                        "            output_tensor: <Tensor at 0x7f3b00001000>\n"
                        "            group: None (x.py:1)\n"
                        "        Locals:\n"
                        "            work: <Work at 0x7f3b00002000>\n"
                        "    forward (model.py:12)\n"
                        "Thread 0x7F3C5A1FF700 (idle)\n"
                        "    wait (threading.py:320)\n");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(d.pid == -1);
    CHECK(str(p, d.threadName) == "0x7F3C61C2B740");
    REQUIRE(d.mainThread.size() == 2);
    CHECK(str(p, d.mainThread[1].function) == "forward");
    CHECK(d.activity == StackActivity::InCollective);
}

TEST_CASE(
    "faulthandler dump after SIGABRT: the main thread is the last one listed", "[parsers][stacks]")
{
    const auto p = scan(
        "[2024-07-25 06:36:18,293] torch.distributed.elastic: [WARNING] before the dump\n"
        "Fatal Python error: Aborted\n"
        "\n"
        "Thread 0x00007f3c5a1ff700 (most recent call first):\n"
        "  File \"/usr/lib/python3.10/threading.py\", line 324 in wait\n"
        "  File \"/usr/local/lib/python3.10/dist-packages/tqdm/_monitor.py\", line 60 in run\n"
        "  File \"/usr/lib/python3.10/threading.py\", line 973 in _bootstrap\n"
        "\n"
        "Current thread 0x00007f3c61c2b740 (most recent call first):\n"
        "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", "
        "line 2050 in all_reduce\n"
        "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/c10d_logger.py\", "
        "line 83 in wrapper\n"
        "  File \"/workspace/train.py\", line 120 in train_step\n"
        "  File \"/workspace/train.py\", line 200 in <module>\n"
        "\n"
        "Extension modules: numpy.core._multiarray_umath, torch._C (total: 2)\n");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(d.tool == StackTool::Faulthandler);
    CHECK(d.pid == -1);
    CHECK(d.evidence.line == 2);
    CHECK(str(p, d.threadName) == "0x00007f3c61c2b740");
    REQUIRE(d.mainThread.size() == 4);
    CHECK(str(p, d.mainThread[0].function) == "all_reduce");
    CHECK(d.mainThread[0].line == 2050);
    CHECK(str(p, d.mainThread[3].function) == "<module>");
    CHECK(d.activity == StackActivity::InCollective);
    CHECK(d.time.inferred); // faulthandler prints no time: the stream's latest stands in
    CHECK(model::formatTime(d.time) == "2024-07-25 06:36:18.293");
    const auto events = eventsOf(p, EventKind::StackDump);
    REQUIRE(events.size() == 1);
    CHECK(str(p, events[0]->text)
        == "faulthandler: main thread in all_reduce "
           "(/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py:2050)");
}

TEST_CASE("faulthandler timeout dump: main thread last even when another thread is current",
    "[parsers][stacks]")
{
    const auto p = scan("Timeout (0:05:00)!\n"
                        "Current thread 0x00007f0000000001 (most recent call first):\n"
                        "  File \"/usr/lib/python3.10/threading.py\", line 324 in wait\n"
                        "\n"
                        "Thread 0x00007f0000000002 (most recent call first):\n"
                        "  File \"/usr/lib/python3.10/shutil.py\", line 254 in copyfile\n"
                        "  File \"/workspace/ckpt.py\", line 5 in save\n"
                        "  File \"/workspace/train.py\", line ??? in ???\n");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(str(p, d.threadName) == "0x00007f0000000002");
    CHECK(d.activity == StackActivity::CheckpointIo);
    REQUIRE(d.mainThread.size() == 3);
    CHECK(d.mainThread[2].line == -1);
    CHECK(str(p, d.mainThread[2].function) == "???");
}

TEST_CASE("faulthandler list cut after too many threads: the current thread stands in",
    "[parsers][stacks]")
{
    const auto p
        = scan("Fatal Python error: Segmentation fault\n"
               "\n"
               "Current thread 0x00007f00000000aa (most recent call first):\n"
               "  File \"/x/torch/utils/data/dataloader.py\", line 1332 in _next_data\n"
               "  File \"/x/train.py\", line 5 in <module>\n"
               "\n"
               "Thread 0x00007f00000000bb (most recent call first):\n"
               "  File \"/usr/lib/python3.10/threading.py\", line 324 in wait\n"
               "\n"
               "...\n"
               "\n"
               "Current thread's C stack trace (most recent call first):\n"
               "  Binary file \"/usr/bin/python3.14\", at _Py_DumpStack+0x30 [0x4b53b0]\n");
    REQUIRE(p.stackDumps.size() == 1);
    CHECK(str(p, p.stackDumps[0].threadName) == "0x00007f00000000aa");
    CHECK(p.stackDumps[0].activity == StackActivity::DataLoading);
    CHECK(p.stackDumps[0].mainThread.size() == 2);
}

TEST_CASE(
    "faulthandler 'Stack' dump of one thread and a garbage-collecting thread", "[parsers][stacks]")
{
    const auto p
        = scan("Fatal Python error: Segmentation fault\n"
               "\n"
               "<Cannot show all threads while the GIL is disabled>\n"
               "Stack (most recent call first):\n"
               "  Garbage-collecting\n"
               "  File \"/usr/lib/python3.14t/ctypes/__init__.py\", line 590 in string_at\n"
               "  File \"/src/tests/test_b.py\", line 9 in test_one\n");
    REQUIRE(p.stackDumps.size() == 1);
    CHECK(p.stackDumps[0].activity == StackActivity::Other);
    CHECK(p.stackDumps[0].mainThread.size() == 2);
}

TEST_CASE("c10 fatal-signal dump: the thread whose id is the pid is main", "[parsers][stacks]")
{
    // Shape of pytorch/pytorch#94864 (one block per thread, frame #0 innermost).
    const auto p
        = scan("SIGABRT(6), PID: 2570285, Thread 2570378: \n"
               " frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8b "
               "(0x7fd198b7651b in "
               "/fsx/users/andgu/work/pytorch/torch/lib/libc10.so)\n"
               "frame #1: <unknown function> + 0x14420 (0x7fd1dffb8420 in "
               "/lib/x86_64-linux-gnu/libpthread.so.0)\n"
               "frame #2: pthread_cond_wait + 0x216 (0x7fd1dffb3376 in "
               "/lib/x86_64-linux-gnu/libpthread.so.0)\n"
               "frame #3: clone + 0x43 (0x7fd1dfed1133 in /lib/x86_64-linux-gnu/libc.so.6)\n"
               "SIGABRT(6), PID: 2570285, Thread 2570285: \n"
               " frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8b "
               "(0x7fd198b7651b in "
               "/fsx/users/andgu/work/pytorch/torch/lib/libc10.so)\n"
               "frame #1: <unknown function> + 0x14420 (0x7fd1dffb8420 in "
               "/lib/x86_64-linux-gnu/libpthread.so.0)\n"
               "frame #2: cudaStreamSynchronize + 0x1a2 (0x7fd1aa000000 in "
               "/usr/local/cuda/lib64/libcudart.so.12)\n"
               "frame #3: at::native::_local_scalar_dense_cuda(at::Tensor const&) + 0x3c "
               "(0x7fd1ab000000 in "
               "/opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)\n");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(d.tool == StackTool::C10Signal);
    CHECK(d.pid == 2570285);
    CHECK(str(p, d.threadName) == "2570285");
    REQUIRE(d.mainThread.size() == 4);
    CHECK(str(p, d.mainThread[0].function)
        == "c10::FatalSignalHandler::stacktraceSignalHandler(bool)");
    CHECK(str(p, d.mainThread[0].file) == "/fsx/users/andgu/work/pytorch/torch/lib/libc10.so");
    CHECK(str(p, d.mainThread[3].function)
        == "at::native::_local_scalar_dense_cuda(at::Tensor const&)");
    CHECK(d.activity == StackActivity::InCollective);
    const auto events = eventsOf(p, EventKind::StackDump);
    REQUIRE(events.size() == 1);
    CHECK(events[0]->pid == 2570285);
    CHECK(str(p, events[0]->text)
        == "c10 signal handler: main thread in cudaStreamSynchronize "
           "(/usr/local/cuda/lib64/libcudart.so.12)");
}

TEST_CASE("older c10 dump lines behind CI timestamps parse and pick the first thread",
    "[parsers][stacks]")
{
    // Shape of pytorch/pytorch#56110 (caffe2-era frames, a CI log time on every line).
    const auto p = scan("Apr 14 21:02:39 SIGABRT(6), PID: 18612, Thread 18628: \n"
                        "Apr 14 21:02:39 [0] \?\?\?(0x7fb5808c16a9) in "
                        "/opt/conda/lib/python3.8/site-packages/torch/lib/libtorch_cpu.so\n"
                        "Apr 14 21:02:39 [18] _PyFunction_Vectorcall+0x10b(0x56428432c4bb) in "
                        "/opt/conda/bin/python\n"
                        "Apr 14 21:02:39 [32] \?\?\?(0)\n"
                        "Apr 14 21:02:39 \n"
                        "Apr 14 21:02:39 Something else entirely\n");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(d.pid == 18612);
    CHECK(str(p, d.threadName) == "18628");
    REQUIRE(d.mainThread.size() == 3);
    CHECK(str(p, d.mainThread[0].function) == "???");
    CHECK(str(p, d.mainThread[1].function) == "_PyFunction_Vectorcall");
    CHECK(str(p, d.mainThread[1].file) == "/opt/conda/bin/python");
    CHECK(d.activity == StackActivity::Other);
    const auto events = eventsOf(p, EventKind::StackDump);
    REQUIRE(events.size() == 1);
    CHECK(str(p, events[0]->text)
        == "c10 signal handler: main thread in _PyFunction_Vectorcall (/opt/conda/bin/python)");
}

TEST_CASE("older c10 frames whose [N] index the scanner took for a line number still parse",
    "[parsers][stacks]")
{
    const auto p = scan(
        "SIGSEGV(11), PID: 500, Thread 500: \n"
        "[0] \?\?\?(0x7fb5808c16a9) in /x/libtorch_cpu.so\n"
        "[1] c10::ThreadPool::main_loop(unsigned long)+0x33b(0x7fd4c8fa6e0b) in /x/libc10.so\n"
        "[2] \?\?\?(0)\n");
    REQUIRE(p.stackDumps.size() == 1);
    const auto& d = p.stackDumps[0];
    CHECK(str(p, d.threadName) == "500");
    REQUIRE(d.mainThread.size() == 3);
    CHECK(str(p, d.mainThread[1].function) == "c10::ThreadPool::main_loop(unsigned long)");
    CHECK(str(p, d.mainThread[1].file) == "/x/libc10.so");
    CHECK(str(p, d.mainThread[2].function) == "???");
}

TEST_CASE("dumps of two ranks interleave, and an NCCL line inside a dump does not end it",
    "[parsers][stacks]")
{
    const auto p
        = scan("[rank0]:Process 100: python train.py\n"
               "[rank1]:Process 101: python train.py\n"
               "[rank0]:Thread 100 (idle): \"MainThread\"\n"
               "[rank1]:Thread 101 (active): \"MainThread\"\n"
               "[rank0]:    all_reduce (torch/distributed/distributed_c10d.py:2050)\n"
               "[rank1]:    _next_data (torch/utils/data/dataloader.py:1332)\n"
               "[rank0]:node1:32619:32711 [0] NCCL INFO comm 0x5614942e7890 rank 0 nranks 2 "
               "cudaDev 0 busId 7e000 commId 0x898b6d578585998c - Init COMPLETE\n"
               "[rank0]:    train_step (train.py:120)\n"
               "[rank1]:    train_step (train.py:120)\n");
    REQUIRE(p.stackDumps.size() == 2);
    const model::StackDump* rank0 = nullptr;
    const model::StackDump* rank1 = nullptr;
    for (const auto& d : p.stackDumps)
        (p.identities[d.identity].globalRank == 0 ? rank0 : rank1) = &d;
    REQUIRE(rank0);
    REQUIRE(rank1);
    CHECK(p.identities[rank0->identity].pid == 100);
    CHECK(rank0->activity == StackActivity::InCollective);
    CHECK(rank0->mainThread.size() == 2);
    CHECK(p.identities[rank1->identity].globalRank == 1);
    CHECK(rank1->activity == StackActivity::DataLoading);
    CHECK(rank1->mainThread.size() == 2);
}

TEST_CASE("a dump cut off at the end of the file is still reported", "[parsers][stacks]")
{
    const auto p = scan("Process 7: python x.py\n"
                        "Python v3.10.12 (/usr/bin/python3.10)\n"
                        "\n"
                        "Thread 7 (active+gil): \"MainThread\"\n"
                        "    _save (torch/serialization.py:849)\n"
                        "    save (torch/serial");
    REQUIRE(p.stackDumps.size() == 1);
    CHECK(p.stackDumps[0].mainThread.size() == 1);
    CHECK(p.stackDumps[0].activity == StackActivity::CheckpointIo);
}

TEST_CASE("a blank line then other text closes a dump; the following traceback is not absorbed",
    "[parsers][stacks]")
{
    const auto p = scan("Fatal Python error: Aborted\n"
                        "\n"
                        "Current thread 0x00007f3c61c2b740 (most recent call first):\n"
                        "  File \"/workspace/train.py\", line 120 in train_step\n"
                        "\n"
                        "Traceback (most recent call last):\n"
                        "  File \"/workspace/train.py\", line 3 in looks_like_a_frame\n"
                        "Thread 55 (idle): \"MainThread\"\n"
                        "    barrier (torch/distributed/distributed_c10d.py:4000)\n");
    REQUIRE(p.stackDumps.size() == 2);
    CHECK(p.stackDumps[0].tool == StackTool::Faulthandler);
    CHECK(p.stackDumps[0].mainThread.size() == 1);
    CHECK(p.stackDumps[0].activity == StackActivity::Other);
    CHECK(p.stackDumps[1].tool == StackTool::PySpy);
    CHECK(p.stackDumps[1].pid == 55); // MainThread's native id is the pid
    CHECK(p.stackDumps[1].activity == StackActivity::InCollective);
}

TEST_CASE("Python tracebacks, prose and binary junk are not stack dumps", "[parsers][stacks]")
{
    std::string text = "Traceback (most recent call last):\n"
                       "  File \"train.py\", line 3, in <module>\n"
                       "    main()\n"
                       "RuntimeError: boom\n"
                       "Thread pool started with 4 workers\n"
                       "Process finished with exit code 1\n"
                       "Current thread 0xZZ (most recent call first):\n"
                       "SIGSEGV(11), PID: 99999999999999999999, Thread 1: \n"
                       "Thread 99999999999999999999999999 (idle)\n"
                       "Stack overflow in parser\n";
    text += std::string("Thread \xff\xfe (idle\x00)\n", 17);
    const auto p = scan(text);
    CHECK(p.stackDumps.empty());
    CHECK(eventsOf(p, EventKind::StackDump).empty());
}

TEST_CASE("a gdb backtrace is a stack dump; NCCL init frames read as waiting in init", "[parsers][stacks]")
{
    const auto parsed = scan("#0  0x00007fffa99437f8 in accept () from /usr/lib64/libpthread.so.0\n"
                                 "#1  0x00007fff86bdb958 in ncclSocketAccept (listenComm=0x1b0, recvComm=0x7ff) at "
                                 "transport/net_socket.cc:153\n"
                                 "#2  bootstrapRecv (commState=0x1b0, peer=<optimized out>) at bootstrap.cc:332\n"
                                 "#3  0x00007fff86bbb3d0 in initTransportsRank (commId=0x7ff, comm=0x1b1) at init.cc:814\n"
                                 "\n"
                                 "training resumed\n");
    REQUIRE(parsed.stackDumps.size() == 1);
    const auto& dump = parsed.stackDumps.front();
    CHECK(dump.tool == StackTool::Gdb);
    CHECK(dump.activity == StackActivity::InNcclInit);
    REQUIRE(dump.mainThread.size() == 4);
    CHECK(str(parsed, dump.mainThread[1].function) == "ncclSocketAccept");
    CHECK(str(parsed, dump.mainThread[1].file) == "transport/net_socket.cc");
    CHECK(dump.mainThread[1].line == 153);
    CHECK(str(parsed, dump.mainThread[0].file) == "/usr/lib64/libpthread.so.0");
}
