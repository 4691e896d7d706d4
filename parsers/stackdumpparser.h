#pragma once
// Stack dumps of hung processes ([formats 8]): where each rank's main thread sits tells a
// victim waiting on its peers (in a collective) from the straggler (loading data, writing a
// checkpoint, sleeping). A dump spans many lines; the parser keeps one open dump per stream
// identity (combined files interleave ranks) and reports it when it closes: on a blank line
// followed by text that is not part of it, a new dump's first line, after a few foreign lines
// in a row, or at the end of input.
//
// py-spy dump --pid P (benfred/py-spy src/dump.rs; threads oldest first, frames innermost first)
//   Process 12345: python train.py --cfg x                     → opens a dump, pid 12345
//   Python v3.10.12 (/usr/bin/python3.10)
//   Thread 12345 (active+gil): "MainThread"                    → a thread (id, status, name)
//       all_reduce (torch/distributed/distributed_c10d.py:2050) → a frame
//           Arguments: / Locals: / name: repr                  → --locals lines, skipped
//   Main thread: the one named "MainThread", else the one whose id equals the pid, else the
//   first listed (py-spy prints the interpreter's oldest thread first).
//
// faulthandler (CPython Python/traceback.c; frames most recent call first = innermost first)
//   Fatal Python error: Aborted / Timeout (0:05:00)! / Windows fatal exception: …  → opens a dump
//   Thread 0x00007f3c5a1ff700 (most recent call first):        → a thread
//   Current thread 0x00007f3c61c2b740 (most recent call first): → the thread that dumped
//     File "/path/x.py", line 320 in wait                      → a frame
//   Stack (most recent call first):                            → a one-thread dump
//   Main thread: the LAST thread listed. CPython pushes each new thread state at the head of
//   the interpreter's list and faulthandler walks it from the head, so the main thread — the
//   first state created — comes last, whichever thread received the signal. When the list
//   was cut ("..." after 100 threads) the main thread is missing: the current thread stands
//   in if there is one, else the dump has no main thread.
//
// c10 fatal-signal handler (pytorch c10/util/signal_handler.cpp; one block per thread)
//   SIGABRT(6), PID: 3154296, Thread 3154392:                  → a thread of dump pid 3154296
//    frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8b (0x7fd1… in /…)
//                                                              → a frame: function, library
//   [0] ???(0x7fb5808c16a9) in /…/libtorch_cpu.so              → older frame shape
//   Main thread: the thread whose id equals the PID, else the first listed.
//
// gdb backtrace (bt; frames innermost first)
//   #0  0x00007fffa99437f8 in accept () from /usr/lib64/libpthread.so.0  → opens a dump, a frame
//   #3  bootstrapRecv (commState=0x1b0, …) at bootstrap.cc:332  → a frame: function, file:line
//   Each "#0" starts another thread; the first backtrace stands for the process (a plain bt
//   is the thread gdb stopped in, the one attached to a hung process is its main thread).
//
// Each dump yields a StackDump record (model/records.h: main thread's frames innermost first,
// activity classified by the table in the .cpp) and a StackDump event: code = activity,
// pid, text "py-spy: main thread in all_reduce (torch/distributed/distributed_c10d.py:2050)",
// Severity Info when the main thread waits in a collective or is unknown, Warning when it is
// elsewhere (data loading, checkpoint I/O, sleeping, other) — the straggler signal of [formats 11] F.
// Dumps that name their process (py-spy, c10) are attributed to that pid's identity.

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rankscope::parsers {

class StackDumpParser {
public:
    // True when the line was recognised as part of a dump.
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A dump is open in some stream: the scanner must hand over every following line.
    bool inBlock() const { return !m_open.empty(); }
    // End of input: reports the dumps still open (truncated dumps are still evidence).
    void finish(model::ParsedSource& out);

private:
    struct Frame {
        std::string function;
        std::string file;
        std::int32_t line = -1;
    };
    struct Thread {
        std::string id;
        std::string name;
        bool current = false; // faulthandler "Current thread"
        std::vector<Frame> frames;
    };
    struct Dump {
        model::StackTool tool = model::StackTool::PySpy;
        std::int32_t pid = -1;
        model::EvidenceRef evidence;
        model::TimePoint time;
        std::uint32_t identity = 0;
        std::vector<Thread> threads;
        bool threadListCut = false; // faulthandler stopped listing threads
        bool inLocals = false; // inside a py-spy --locals block
        bool framesUnindented = false; // a py-spy paste that lost its leading blanks
        bool inNativeStack = false; // faulthandler's "C stack trace" section
        bool blankPending = false;
        int foreignLines = 0;
        std::uint64_t lastLine = 0;
    };
    Dump& open(const LineContext& ctx, model::StackTool tool, std::int32_t pid);
    void close(std::uint32_t streamIdentity, model::ParsedSource& out);
    void report(const Dump& dump, model::ParsedSource& out);
    bool header(const LineContext& ctx, std::string_view text, model::ParsedSource& out);
    bool continuation(Dump& dump, std::string_view text);
    void closeStale(const LineContext& ctx, model::ParsedSource& out);

    // Open dumps per stream identity.
    std::unordered_map<std::uint32_t, Dump> m_open;
    std::uint64_t m_nextStaleCheck = 0;
};

} // namespace rankscope::parsers
