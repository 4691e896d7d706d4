#pragma once
// Python tracebacks, CUDA out-of-memory and CUDA errors, fatal signals ([formats 8], [formats 9]).
// One input line → what it yields:
//
// Tracebacks (a block per writer, keyed by ctx.identity, so interleaved ranks stay apart):
//   "Traceback (most recent call last):"                  opens the block
//   "  File "/x/train.py", line 120, in train_step"        frame (source and caret lines skipped)
//   "torch.OutOfMemoryError: CUDA out of memory. …"        exception line; the message may go on
//                                                          over further lines
//     → PythonTraceback record (frames in Python's order) + PythonException event
//       (detail = exception type, text = message, evidence = the exception line), Error.
//   "During handling of the above exception, another exception occurred:" /
//   "The above exception was the direct cause of the following exception:"
//                                                          close the block; the chained traceback
//                                                          that follows is a record of its own.
//   A block without an exception line (file cut off)     → PythonTraceback with an empty type and
//                                                          import issue "truncated_traceback".
//   A marker after other text ("ERROR 09-01 02:20:44 [engine.py:458] Traceback …", torchrun's
//   "  traceback : Traceback …") remembers that lead: the block's later lines are read with the
//   repeated lead or the lead's indentation removed.
//
// CUDA ([formats 9]), found anywhere in a line, inside a traceback or not:
//   "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; …"  ≤2.0
//   "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacty of …"    2.1
//   "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of …"   ≥2.2
//     → CudaOutOfMemory, code = local CUDA ordinal (-1 when not printed), Error.
//   "CUDA error: an illegal memory access was encountered", "CUDA error: unknown error",
//   "CUBLAS_STATUS_EXECUTION_FAILED …", "cuda runtime error (59) : device-side assert triggered",
//   "uncorrectable ECC error encountered"                 → CudaError, text = the error, Error.
//   "CUDA kernel errors might be asynchronously reported …", "For debugging consider passing
//   CUDA_LAUNCH_BLOCKING=1.", "Compile with `TORCH_USE_CUDA_DSA` …"
//                                                          → recognised, no event (advice only).
//   Lines of NCCL's own output ("… NCCL WARN Cuda failure …") are left to the NCCL parser.
//
// Fatal signals ([formats 8]), Fatal severity, code = signal number:
//   "Fatal Python error: Segmentation fault"              → 11 (Aborted 6, Bus error 7,
//                                                           Floating point exception 8,
//                                                           Illegal instruction 4)
//   "SIGABRT(6), PID: 3154296, Thread 3154392: "          → 6, pid 3154296 (c10 handler)
//   "Signal 6 (SIGABRT) received by PID 2385923"          → 6, pid 2385923 (torchrun message)
//   "Segmentation fault (core dumped)", "Aborted (core dumped)"           → 11, 6
//   "bash: line 1: 4242 Killed                  python train.py"        → 9, pid 4242
//   "Killed" alone on a line (the shell reporting SIGKILL)                → 9
// Host OOM ("Out of memory: Killed process …") belongs to the kernel parser and is not matched.

#include "model/parsedsource.h"
#include "parsers/keywordset.h"
#include "parsers/linecontext.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope::parsers {

class PythonErrorParser {
public:
    PythonErrorParser();

    // True when the line was recognised (and events or records were added).
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    // A traceback is open for some writer: the scanner must hand over every following line.
    bool inBlock() const { return !m_blocks.empty(); }
    // End of input: close open tracebacks.
    void finish(model::ParsedSource& out);

    // Splits a Python exception line "pkg.mod.Type: message" (or a bare "KeyboardInterrupt")
    // into type and message. False when the line does not look like one.
    static bool splitExceptionLine(
        std::string_view line, std::string_view& type, std::string_view& message);

private:
    enum class Stage : std::uint8_t { Frames, Message };

    struct Block {
        model::PythonTraceback record; // frames are added as they come
        std::string truncationSample; // "path:line: Traceback …" for the import issue
        std::string lead; // text before the marker, when there was any
        std::size_t leadIndent = 0; // its leading spaces
        std::string loggerHeader; // the logger header stripped from the marker's line, if any
        bool leadRepeats = false; // the lead was seen again on a later line
        Stage stage = Stage::Frames;
        std::string exceptionType;
        std::string message;
        model::TimePoint exceptionTime;
        unsigned messageLines = 0;
        unsigned foreignLines = 0; // consecutive lines that are no part of the traceback
    };

    enum class BlockLine : std::uint8_t {
        Frame, // part of the traceback, nothing else to look for
        Text, // exception or message line: also look for CUDA errors and signals
        NotMine, // not part of the block: treat it as a fresh line
    };

    BlockLine feedBlock(Block& block, const LineContext& ctx, std::string_view body,
        std::string_view& text, bool& closeNow, model::ParsedSource& out);
    void addFrame(Block& block, std::string_view rest, model::ParsedSource& out);
    void openBlock(const LineContext& ctx, std::string_view text, std::size_t markerPos,
        model::ParsedSource& out);
    void closeBlock(Block& block, model::ParsedSource& out);

    bool scanErrors(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool emitOutOfMemory(const LineContext& ctx, std::string_view text, model::ParsedSource& out);
    bool emitCudaError(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool emitFatalSignal(const LineContext& ctx, std::string_view text, std::uint64_t found,
        model::ParsedSource& out);
    bool emitKernelAssertion(const LineContext& ctx, std::string_view text, model::ParsedSource& out);
    bool emitArgparseError(const LineContext& ctx, std::string_view text, model::ParsedSource& out);

    // Bit i set when keyword i occurs in the text (the list is in the .cpp).
    std::uint64_t findKeywords(std::string_view text) const { return m_keywords.find(text); }

    std::unordered_map<std::uint32_t, Block> m_blocks; // open tracebacks by writer identity
    // The last kernel assertion each writer printed: the device repeats it once per thread.
    std::unordered_map<std::uint32_t, std::string> m_lastKernelAssertion;
    // The program each writer's last argparse usage line named.
    std::unordered_map<std::uint32_t, std::string> m_usageProg;
    // One-pass prefilter over the keyword list in the .cpp; shared by every instance (it is
    // immutable), so a bundle of 4096 files does not build 4096 copies.
    const KeywordSet& m_keywords;
};

} // namespace rankscope::parsers
