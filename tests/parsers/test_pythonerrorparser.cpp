// Python tracebacks, CUDA OOM / CUDA errors and fatal signals ([formats 8], [formats 9]), run through
// the real LogScanner so prefixes and times reach the parser as in production.
#include "scanhelpers.h"

#include "parsers/pythonerrorparser.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using rankscope::model::EventKind;
using rankscope::model::Severity;
using rankscope::testing::eventsOf;
using rankscope::testing::firstOf;
using rankscope::testing::identityOf;
using rankscope::testing::scan;
using rankscope::testing::str;

namespace {

const char* const kOomTraceback22 = R"(Traceback (most recent call last):
  File "/workspace/train.py", line 120, in train_step
    loss = model(batch).loss
  File "/usr/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1518, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which 842.32 MiB is free. Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 75.01 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
)";

std::string frameFunction(const model::ParsedSource& p, const model::PythonTraceback& tb, size_t i)
{
    return str(p, tb.frames.at(i).function);
}

std::string frameFile(const model::ParsedSource& p, const model::PythonTraceback& tb, size_t i)
{
    return str(p, tb.frames.at(i).file);
}

} // namespace

TEST_CASE("traceback ending in a PyTorch 2.2+ OOM yields a record, an exception and the OOM",
    "[parsers][python]")
{
    const auto p = scan(kOomTraceback22);
    REQUIRE(p.tracebacks.size() == 1);
    const auto& tb = p.tracebacks[0];
    CHECK(str(p, tb.exceptionType) == "torch.OutOfMemoryError");
    CHECK(str(p, tb.message).starts_with("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3"));
    CHECK(tb.evidence.line == 1);
    CHECK(tb.exceptionLine.line == 6);
    REQUIRE(tb.frames.size() == 2);
    CHECK(frameFile(p, tb, 0) == "/workspace/train.py");
    CHECK(tb.frames[0].line == 120);
    CHECK(frameFunction(p, tb, 0) == "train_step");
    CHECK(frameFunction(p, tb, 1) == "_wrapped_call_impl");
    CHECK(tb.frames[1].line == 1518);

    const auto* exc = firstOf(p, EventKind::PythonException);
    REQUIRE(exc);
    CHECK(exc->severity == Severity::Error);
    CHECK(str(p, exc->detail) == "torch.OutOfMemoryError");
    CHECK(str(p, exc->text) == str(p, tb.message));
    CHECK(exc->evidence.line == 6);

    const auto ooms = eventsOf(p, EventKind::CudaOutOfMemory);
    REQUIRE(ooms.size() == 1);
    CHECK(ooms[0]->code == 3);
    CHECK(ooms[0]->evidence.line == 6);
    CHECK(str(p, ooms[0]->text).starts_with("CUDA out of memory. Tried to allocate 2.00 GiB."));
    CHECK(p.issues.empty());
}

TEST_CASE("PyTorch 2.0 OOM names the GPU in parentheses", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "tools/train.py", line 250, in <module>
    main()
RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 14.56 GiB already allocated; 3.88 MiB free; 14.71 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF
)");
    const auto* oom = firstOf(p, EventKind::CudaOutOfMemory);
    REQUIRE(oom);
    CHECK(oom->code == 0);
    REQUIRE(p.tracebacks.size() == 1);
    CHECK(str(p, p.tracebacks[0].exceptionType) == "RuntimeError");
    CHECK(frameFunction(p, p.tracebacks[0], 0) == "<module>");
}

TEST_CASE("PyTorch 2.1 OOM with the 'capacty' typo still gives the ordinal", "[parsers][python]")
{
    const auto p = scan("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 "
                        "GiB. GPU 5 has a total capacty of 39.39 GiB of which 1.09 GiB is free.\n");
    const auto* oom = firstOf(p, EventKind::CudaOutOfMemory);
    REQUIRE(oom);
    CHECK(oom->code == 5);
    // Outside a traceback there is no exception record, only the OOM.
    CHECK(p.tracebacks.empty());
    CHECK(eventsOf(p, EventKind::PythonException).empty());
}

TEST_CASE("OOM without a GPU number has ordinal -1", "[parsers][python]")
{
    const auto p = scan("RuntimeError: CUDA out of memory. Tried to allocate 2.00 MiB\n");
    const auto* oom = firstOf(p, EventKind::CudaOutOfMemory);
    REQUIRE(oom);
    CHECK(oom->code == -1);
}

TEST_CASE("chained tracebacks give one record per traceback", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/x/c10d_rendezvous_backend.py", line 155, in _create_tcp_store
    store = TCPStore(
RuntimeError: connect() timed out. Original timeout was 60000 ms.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/x/run.py", line 719, in main
    run(args)
torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/x/launcher.py", line 3, in <module>
    cleanup()
KeyboardInterrupt
)");
    REQUIRE(p.tracebacks.size() == 3);
    CHECK(str(p, p.tracebacks[0].exceptionType) == "RuntimeError");
    CHECK(str(p, p.tracebacks[0].message) == "connect() timed out. Original timeout was 60000 ms.");
    CHECK(frameFunction(p, p.tracebacks[0], 0) == "_create_tcp_store");
    CHECK(str(p, p.tracebacks[1].exceptionType)
        == "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError");
    CHECK(frameFunction(p, p.tracebacks[1], 0) == "main");
    CHECK(str(p, p.tracebacks[2].exceptionType) == "KeyboardInterrupt");
    CHECK(str(p, p.tracebacks[2].message).empty());
    CHECK(eventsOf(p, EventKind::PythonException).size() == 3);
    CHECK(p.issues.empty());
}

TEST_CASE("two ranks' tracebacks interleaved line by line in one srun file stay apart",
    "[parsers][python]")
{
    const auto p = scan(R"(0: Traceback (most recent call last):
1: Traceback (most recent call last):
0:   File "/w/train.py", line 10, in step
1:   File "/w/train.py", line 77, in load
0:     x = f()
1:     batch = next(it)
0:   File "/w/model.py", line 5, in f
1: StopIteration
0:     raise ValueError("bad shape")
0: ValueError: bad shape
)",
        "slurm-1234.out");
    REQUIRE(p.tracebacks.size() == 2);
    // Rank 1's traceback ends first (its exception line comes first), but each keeps its own
    // frames.
    const model::PythonTraceback* r0 = nullptr;
    const model::PythonTraceback* r1 = nullptr;
    for (const auto& tb : p.tracebacks) {
        const int task = p.identities[tb.identity].srunTask;
        (task == 0 ? r0 : r1) = &tb;
    }
    REQUIRE(r0);
    REQUIRE(r1);
    CHECK(p.identities[r1->identity].srunTask == 1);
    CHECK(str(p, r0->exceptionType) == "ValueError");
    CHECK(str(p, r0->message) == "bad shape");
    REQUIRE(r0->frames.size() == 2);
    CHECK(frameFunction(p, *r0, 0) == "step");
    CHECK(frameFunction(p, *r0, 1) == "f");
    CHECK(r0->exceptionLine.line == 10);
    CHECK(str(p, r1->exceptionType) == "StopIteration");
    REQUIRE(r1->frames.size() == 1);
    CHECK(frameFunction(p, *r1, 0) == "load");
    CHECK(r1->frames[0].line == 77);
    CHECK(r1->exceptionLine.line == 8);
    for (const auto* e : eventsOf(p, EventKind::PythonException))
        CHECK(identityOf(p, *e).srunTask == (str(p, e->detail) == "ValueError" ? 0 : 1));
}

TEST_CASE("[rankN]: and [defaultN]: prefixed tracebacks are attributed to their rank",
    "[parsers][python]")
{
    const auto p = scan(R"([rank3]: Traceback (most recent call last):
[rank3]:   File "/w/train.py", line 42, in <module>
[rank3]:     dist.barrier()
[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3
[rank3]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank3]: Last error:
[rank3]: Cuda failure 'out of memory'
[default1]:Traceback (most recent call last):
[default1]:  File "/w/train.py", line 9, in <module>
[default1]:    main()
[default1]:AssertionError
)");
    REQUIRE(p.tracebacks.size() == 2);
    const auto& a = p.tracebacks[0];
    CHECK(p.identities[a.identity].globalRank == 3);
    CHECK(str(p, a.exceptionType) == "torch.distributed.DistBackendError");
    // The message goes on over the following lines of the same writer.
    const std::string message = str(p, a.message);
    CHECK(
        message.starts_with("NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp"));
    CHECK(message.ends_with("Last error:\nCuda failure 'out of memory'"));
    const auto& b = p.tracebacks[1];
    CHECK(p.identities[b.identity].localRank == 1);
    CHECK(str(p, b.exceptionType) == "AssertionError");
    CHECK(b.frames.size() == 1);
}

TEST_CASE("a traceback cut off by the end of the file is closed as truncated", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/w/train.py", line 88, in <module>
    trainer.fit()
  File "/w/trainer.py", line 12, in fit)");
    REQUIRE(p.tracebacks.size() == 1);
    CHECK(str(p, p.tracebacks[0].exceptionType).empty());
    CHECK(p.tracebacks[0].frames.size() == 2);
    CHECK(eventsOf(p, EventKind::PythonException).empty());
    CHECK(p.issues.count("truncated_traceback") == 1);
}

TEST_CASE("a new traceback marker closes an unfinished one as truncated", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/w/a.py", line 1, in <module>
Traceback (most recent call last):
  File "/w/b.py", line 2, in <module>
    go()
OSError: [Errno 28] No space left on device
)");
    REQUIRE(p.tracebacks.size() == 2);
    CHECK(str(p, p.tracebacks[0].exceptionType).empty());
    CHECK(str(p, p.tracebacks[1].exceptionType) == "OSError");
    CHECK(str(p, p.tracebacks[1].message) == "[Errno 28] No space left on device");
    CHECK(p.issues.count("truncated_traceback") == 1);
}

TEST_CASE("illegal memory access yields one CUDA error; the advice lines add nothing",
    "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/w/train.py", line 5, in <module>
    torch.cuda.synchronize()
RuntimeError: CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.

)");
    const auto errors = eventsOf(p, EventKind::CudaError);
    REQUIRE(errors.size() == 1);
    CHECK(str(p, errors[0]->text) == "CUDA error: an illegal memory access was encountered");
    CHECK(errors[0]->evidence.line == 4);
    REQUIRE(p.tracebacks.size() == 1);
    CHECK(str(p, p.tracebacks[0].message)
              .starts_with("CUDA error: an illegal memory access was encountered\nCUDA kernel "
                           "errors might be"));
    CHECK(str(p, p.tracebacks[0].message).ends_with("to enable device-side assertions."));
}

TEST_CASE("CUDA error kinds outside tracebacks", "[parsers][python]")
{
    const auto p = scan(
        "[E ProcessGroupNCCL.cpp:1182] [Rank 2] NCCL watchdog thread terminated with exception: "
        "CUDA error: unknown error\n"
        "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
        "RuntimeError: CUDA error: device-side assert triggered\n"
        "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( "
        "handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, "
        "CUDA_R_16F, ldc, CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`\n"
        "RuntimeError: CUBLAS error: CUBLAS_STATUS_NOT_INITIALIZED when calling "
        "`cublasCreate(handle)`\n"
        "RuntimeError: CUDA error: misaligned address\n"
        "RuntimeError: cuda runtime error (59) : device-side assert triggered at "
        "/pytorch/aten/src/THC/generic/THCTensorMath.cu:26\n");
    const auto errors = eventsOf(p, EventKind::CudaError);
    REQUIRE(errors.size() == 7);
    CHECK(str(p, errors[0]->text) == "CUDA error: unknown error");
    CHECK(str(p, errors[1]->text) == "CUDA error: uncorrectable ECC error encountered");
    CHECK(str(p, errors[2]->text) == "CUDA error: device-side assert triggered");
    CHECK(str(p, errors[3]->text).starts_with("CUDA error: CUBLAS_STATUS_EXECUTION_FAILED"));
    CHECK(str(p, errors[4]->text).starts_with("CUBLAS_STATUS_NOT_INITIALIZED when calling"));
    CHECK(str(p, errors[5]->text) == "CUDA error: misaligned address");
    CHECK(str(p, errors[6]->text).starts_with("RuntimeError: cuda runtime error (59)"));
    for (const auto* e : errors)
        CHECK(e->severity == Severity::Error);
}

TEST_CASE("NCCL's own Cuda failure lines are left to the NCCL parser", "[parsers][python]")
{
    const auto p = scan("node1:123:456 [0] include/alloc.h:48 NCCL WARN Cuda failure "
                        "'an illegal memory access was encountered'\n");
    CHECK(eventsOf(p, EventKind::CudaError).empty());
}

TEST_CASE("a CUDA error string in a traceback's source line is no CUDA error", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/w/check.py", line 3, in <module>
    raise RuntimeError("CUDA error: simulated for a test")
RuntimeError: simulated
)");
    CHECK(eventsOf(p, EventKind::CudaError).empty());
    REQUIRE(p.tracebacks.size() == 1);
    CHECK(str(p, p.tracebacks[0].message) == "simulated");
}

TEST_CASE("fatal signal lines give the signal number and pid", "[parsers][python]")
{
    const auto p = scan("Fatal Python error: Segmentation fault\n"
                        "Fatal Python error: Aborted\n"
                        "Fatal Python error: Bus error\n"
                        "SIGABRT(6), PID: 3154296, Thread 3154392: \n"
                        "Signal 6 (SIGABRT) received by PID 2385923\n"
                        "Segmentation fault (core dumped)\n"
                        "Aborted (core dumped)\n"
                        "Killed\n"
                        "/var/spool/slurmd/job01234/slurm_script: line 15: 123456 Killed           "
                        "       python train.py\n"
                        "bash: line 1: 4242 Segmentation fault      (core dumped) python x.py\n"
                        "srun: error: node7: task 3: Bus error (core dumped)\n");
    const auto signals = eventsOf(p, EventKind::FatalSignal);
    REQUIRE(signals.size() == 11);
    const int codes[] = { 11, 6, 7, 6, 6, 11, 6, 9, 9, 11, 7 };
    const int pids[] = { -1, -1, -1, 3154296, 2385923, -1, -1, -1, 123456, 4242, -1 };
    for (size_t i = 0; i < signals.size(); ++i) {
        INFO("line " << i + 1);
        CHECK(signals[i]->code == codes[i]);
        CHECK(signals[i]->pid == pids[i]);
        CHECK(signals[i]->severity == Severity::Fatal);
        CHECK(signals[i]->evidence.line == i + 1);
    }
}

TEST_CASE("a DataLoader worker's SIGBUS is a fatal signal 7, from either of its messages", "[parsers][python]")
{
    const auto p = scan("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\n"
                        "Traceback (most recent call last):\n"
                        "  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/signal_handling.py\", line 66, in handler\n"
                        "    _error_if_any_worker_fails()\n"
                        "RuntimeError: DataLoader worker (pid 56811) is killed by signal: Bus error. It is possible that "
                        "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.\n");
    const auto signals = eventsOf(p, EventKind::FatalSignal);
    REQUIRE(signals.size() == 2);
    CHECK(signals[0]->code == 7);
    CHECK(signals[0]->pid == -1);
    CHECK(signals[1]->code == 7);
    CHECK(signals[1]->pid == 56811);
    // The traceback is still read as the exception it is.
    REQUIRE(p.tracebacks.size() == 1);
    // A worker the OOM killer took names no shared memory: not read as one.
    CHECK(eventsOf(scan("RuntimeError: DataLoader worker (pid 12) is killed by signal: Killed.\n"), EventKind::FatalSignal).empty());
}

TEST_CASE("words that merely mention a signal are no fatal signal", "[parsers][python]")
{
    const auto p = scan("[ 1234.567890] Out of memory: Killed process 1234 (python) total-vm:1kB\n"
                        "Killed 3 zombie workers\n"
                        "job was Aborted by user request at step 10\n"
                        "Fatal Python error: _enter_buffered_busy: could not acquire lock\n"
                        "Signal 6 (SIGABRT) received by\n"
                        "SIGTERM(15), PID: x\n");
    CHECK(eventsOf(p, EventKind::FatalSignal).empty());
}

TEST_CASE("a traceback whose lines repeat a log envelope is read through it", "[parsers][python]")
{
    const auto p = scan(
        R"(ERROR 09-01 02:20:44 [engine.py:458] Timed out after 601 seconds waiting for clients. 1/8 clients joined.
ERROR 09-01 02:20:44 [engine.py:458] Traceback (most recent call last):
ERROR 09-01 02:20:44 [engine.py:458]   File "/usr/local/lib/python3.12/dist-packages/vllm/engine/multiprocessing/engine.py", line 446, in run_mp_engine
ERROR 09-01 02:20:44 [engine.py:458]     engine = MQLLMEngine.from_vllm_config(
ERROR 09-01 02:20:45 [engine.py:458] torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/8 clients joined.
INFO 09-01 02:20:45 [launcher.py:80] Shutting down.
)");
    REQUIRE(p.tracebacks.size() == 1);
    const auto& tb = p.tracebacks[0];
    CHECK(str(p, tb.exceptionType) == "torch.distributed.DistStoreError");
    CHECK(str(p, tb.message)
        == "Timed out after 601 seconds waiting for clients. 1/8 clients joined.");
    REQUIRE(tb.frames.size() == 1);
    CHECK(frameFunction(p, tb, 0) == "run_mp_engine");
    CHECK(tb.frames[0].line == 446);
}

TEST_CASE("the traceback inside a ChildFailedError record is read through its indentation",
    "[parsers][python]")
{
    const auto p = scan(R"([0]:
  time      : 2024-03-01_10:00:00
  host      : node1
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 4242)
  error_file: /tmp/torchelastic_x/attempt_0/0/error.json
  traceback : Traceback (most recent call last):
    File "/w/train.py", line 30, in main
      loss.backward()
  RuntimeError: CUDA error: unknown error
  
============================================================
)");
    REQUIRE(p.tracebacks.size() == 1);
    CHECK(str(p, p.tracebacks[0].exceptionType) == "RuntimeError");
    CHECK(str(p, p.tracebacks[0].message) == "CUDA error: unknown error");
    REQUIRE(p.tracebacks[0].frames.size() == 1);
    CHECK(frameFunction(p, p.tracebacks[0], 0) == "main");
    CHECK(p.issues.count("truncated_traceback") == 0);
}

TEST_CASE("a traceback marker inside printed JSON opens no block", "[parsers][python]")
{
    const auto p = scan(
        R"(      "py_callstack": "Traceback (most recent call last):\n  File \"/root/x.py\", line 155, in f\n    store = TCPStore(\nRuntimeError: connect() timed out.",
)");
    CHECK(p.tracebacks.empty());
    CHECK(p.issues.empty());
}

TEST_CASE(
    "the message ends at a blank line or at the next timestamped log line", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/w/a.py", line 1, in <module>
ValueError: first line
second line
[2024-07-25 06:36:18,293] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 179 closing signal SIGTERM
Traceback (most recent call last):
  File "/w/b.py", line 2, in <module>
TypeError: only this

unrelated output
)");
    REQUIRE(p.tracebacks.size() == 2);
    CHECK(str(p, p.tracebacks[0].message) == "first line\nsecond line");
    CHECK(str(p, p.tracebacks[1].message) == "only this");
}

TEST_CASE(
    "SyntaxError frames without a function and faulthandler-style frames", "[parsers][python]")
{
    const auto p = scan(R"(Traceback (most recent call last):
  File "/w/run.py", line 7, in <module>
    import cfg
  File "/w/cfg.py", line 3
    x = (
        ^
SyntaxError: '(' was never closed
)");
    REQUIRE(p.tracebacks.size() == 1);
    const auto& tb = p.tracebacks[0];
    REQUIRE(tb.frames.size() == 2);
    CHECK(frameFile(p, tb, 1) == "/w/cfg.py");
    CHECK(tb.frames[1].line == 3);
    CHECK(frameFunction(p, tb, 1).empty());
    CHECK(str(p, tb.exceptionType) == "SyntaxError");
}

TEST_CASE("deep recursion keeps the outermost and innermost frames only", "[parsers][python]")
{
    std::string text = "Traceback (most recent call last):\n";
    for (int i = 0; i < 2000; ++i)
        text += "  File \"/w/r.py\", line " + std::to_string(i + 1) + ", in f\n    f()\n";
    text += "RecursionError: maximum recursion depth exceeded\n";
    const auto p = scan(text);
    REQUIRE(p.tracebacks.size() == 1);
    const auto& frames = p.tracebacks[0].frames;
    REQUIRE(frames.size() == 256);
    CHECK(frames.front().line == 1);
    CHECK(frames.back().line == 2000);
}

TEST_CASE(
    "garbage, binary bytes and absurd numbers neither crash nor invent errors", "[parsers][python]")
{
    std::string junk = "Traceback (most recent call last):\n";
    junk += "  File \"/w/x.py\", line 99999999999999999999999, in f\n";
    junk += std::string("\x00\xff\xfe\x01 CUDA out of mem", 20) + "\n";
    junk += "  File \"unterminated\n";
    junk += "  File \"\n";
    junk += "SIGABRT(99999999999999999999), PID: 99999999999999999999\n";
    junk += "Signal 6 (SIGABRT) received by PID 99999999999999999999\n";
    junk += std::string(5000, 'x') + "\n";
    junk += "CUDA out of memory. Tried to allocate 1 GiB. GPU 99999999999999999999999 has\n";
    junk += "Traceback (most recent call last):";
    const auto p = scan(junk);
    CHECK(eventsOf(p, EventKind::FatalSignal).empty());
    const auto ooms = eventsOf(p, EventKind::CudaOutOfMemory);
    REQUIRE(ooms.size() == 1);
    CHECK(ooms[0]->code == -1);
    REQUIRE(p.tracebacks.size() == 2);
    CHECK(p.tracebacks[0].frames.front().line == -1);
    CHECK(p.issues.count("truncated_traceback") == 2);
}

TEST_CASE("exception lines are split into type and message", "[parsers][python]")
{
    using parsers::PythonErrorParser;
    std::string_view type;
    std::string_view message;
    CHECK(PythonErrorParser::splitExceptionLine("RuntimeError: boom", type, message));
    CHECK(type == "RuntimeError");
    CHECK(message == "boom");
    CHECK(PythonErrorParser::splitExceptionLine("torch.OutOfMemoryError: CUDA out", type, message));
    CHECK(type == "torch.OutOfMemoryError");
    CHECK(PythonErrorParser::splitExceptionLine(
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", type, message));
    CHECK(message.empty());
    CHECK(PythonErrorParser::splitExceptionLine("KeyboardInterrupt", type, message));
    CHECK_FALSE(PythonErrorParser::splitExceptionLine("INFO: started", type, message));
    CHECK_FALSE(PythonErrorParser::splitExceptionLine("loss: 0.25", type, message));
    CHECK_FALSE(PythonErrorParser::splitExceptionLine("Epoch 3: 45%", type, message));
    CHECK_FALSE(PythonErrorParser::splitExceptionLine("", type, message));
    CHECK_FALSE(PythonErrorParser::splitExceptionLine("a.:", type, message));
}

TEST_CASE("an exception raised by torch.distributed's rendezvous is a store failure too", "[parsers][python]")
{
    // Before DistStoreError, rendezvous.py let TCPStore's own exception through: the same
    // failure to reach or set up the store, in words the launcher's keywords do not name.
    const auto p = scan(R"(Traceback (most recent call last):
  File "train.py", line 12, in <module>
    torch.distributed.init_process_group(backend="nccl")
  File "/opt/conda/lib/python3.6/site-packages/torch/distributed/distributed_c10d.py", line 423, in init_process_group
    store, rank, world_size = next(rendezvous_iterator)
  File "/opt/conda/lib/python3.6/site-packages/torch/distributed/rendezvous.py", line 172, in _env_rendezvous_handler
    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)
ValueError: host not found: Name or service not known
Traceback (most recent call last):
  File "train.py", line 12, in <module>
    torch.distributed.init_process_group(backend="nccl")
  File "/opt/conda/lib/python3.6/site-packages/torch/distributed/distributed_c10d.py", line 423, in init_process_group
    raise ValueError("oops")
ValueError: oops
)");
    const auto stores = eventsOf(p, EventKind::LauncherRendezvousError);
    REQUIRE(stores.size() == 1);
    CHECK(str(p, stores[0]->text) == "host not found: Name or service not known");
    CHECK(str(p, stores[0]->detail) == "ValueError");
    CHECK(stores[0]->evidence.line == 8);
    CHECK(eventsOf(p, EventKind::PythonException).size() == 2);
}

// The device prints a failed kernel assert() once per failing thread; XLA puts CUDA's string
// for a faulting kernel on a line of its own under its own message.
TEST_CASE("a kernel's failed assert is one CUDA error per run of repeats", "[parsers][python]")
{
    const auto p = scan(
        "../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block: [949,0,0], thread: [62,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n"
        "../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex: block: [949,0,0], thread: [63,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n"
        "  CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was encountered\n"
        "test.py:12: the Assertion `x` failed.\n");
    const auto errors = eventsOf(p, EventKind::CudaError);
    REQUIRE(errors.size() == 2);
    CHECK(str(p, errors[0]->text)
        == "Assertion `srcIndex < srcSelectDimSize` failed. (../aten/src/ATen/native/cuda/Indexing.cu:1290: indexSelectLargeIndex)");
    CHECK(str(p, errors[1]->text) == "CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was encountered");
}

TEST_CASE("argparse's error line is the script refusing its command line", "[parsers][python]")
{
    const auto p = scan("usage: launch_me [-h] [--local_rank LOCAL_RANK]\n"
                        "launch_me: error: unrecognized arguments: --local-rank=0\n"
                        "train.py: error: the following arguments are required: --config\n"
                        "gcc: error: no input files\n"
                        "some words: error: not a program name\n");
    const auto errors = eventsOf(p, EventKind::PythonException);
    REQUIRE(errors.size() == 2);
    CHECK(str(p, errors[0]->detail) == "argparse");
    CHECK(str(p, errors[0]->text) == "error: unrecognized arguments: --local-rank=0");
    CHECK(errors[0]->code == 2);
    CHECK(str(p, errors[1]->text) == "error: the following arguments are required: --config");
}
