#pragma once
// Runs every text-log dialect parser over one source, streaming: bytes are fed in chunks
// of any size, lines are split without copies, prefixes are stripped once, the leading
// timestamp is read once, and each line goes to the dialect parsers. NCCL lines, the bulk
// of large bundles, stop there unless another parser has a multi-line block open; a COLL
// line that repeats its writer's last one but for its counters takes a shorter lane straight
// to the NCCL parser (onSegment), also where several processes alternate line by line.

#include "model/parsedsource.h"
#include "model/secretmasker.h"
#include "parsers/activityparser.h"
#include "parsers/gputelemetryparser.h"
#include "parsers/horovodparser.h"
#include "parsers/glooparser.h"
#include "parsers/jaxcoordinationparser.h"
#include "parsers/kernelparser.h"
#include "parsers/launcherparser.h"
#include "parsers/linecontext.h"
#include "parsers/linesplitter.h"
#include "parsers/pastewrapper.h"
#include "parsers/ncclparser.h"
#include "parsers/nccltestsparser.h"
#include "parsers/pythonerrorparser.h"
#include "parsers/pytorchparser.h"
#include "parsers/rasparser.h"
#include "parsers/stackdumpparser.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace rankscope::parsers {

class LogScanner {
public:
    explicit LogScanner(model::ParsedSource& out);

    void feed(std::string_view chunk);
    // Lines wrapped by a paste (a Markdown quote, a code block's indentation) lose the
    // wrapper before they are parsed; SourceBuilder finds it on the source's head.
    void setPasteWrapper(const PasteWrapper& wrapper) { m_wrapper = wrapper; }
    // Closes open blocks, fills in inferred times and the source's line statistics.
    void finish();

private:
    void onSegment(const LineSegment& segment);
    bool repeatsLineBefore(const LineSegment& segment);
    bool joinsHardWrap(const LineSegment& segment);
    void flushHardWrap();
    bool readsGluedRecords(const LineSegment& segment);
    void parseSegment(const LineSegment& segment);
    std::uint32_t prefixIdentity(const LinePrefix& prefix);

    model::ParsedSource& m_out;
    LineSplitter m_splitter;
    // Secrets are masked before any parser sees a line (see onSegment); the masker keeps
    // the state of a multi-line private key, so there is one per source.
    model::SecretMasker m_masker;
    std::string m_maskedLine;
    std::string m_plainLine; // the line without terminal escapes, when it had any
    PasteWrapper m_wrapper;
    // A doubled paste (m_wrapper.doubled): the last line kept, and the line being skipped.
    std::string m_lineBefore;
    std::uint64_t m_lineBeforeNo = 0;
    std::uint64_t m_repeatedLineNo = 0;
    bool m_skippedLineBefore = false;
    // A hard-wrapped paste (m_wrapper.wrapWidth): the pieces of the line being joined, where
    // its first piece starts, and the joined line handed on.
    std::string m_wrapPieces;
    LineSegment m_wrapStart;
    std::string m_wrapDecoration; // the first piece's prefixes (decorationShape)
    std::string m_wrappedLine;
    NcclParser m_nccl;
    PytorchParser m_pytorch;
    PythonErrorParser m_python;
    LauncherParser m_launcher;
    KernelParser m_kernel;
    StackDumpParser m_stacks;
    GpuTelemetryParser m_gpu;
    ActivityParser m_activity;
    NcclTestsParser m_ncclTests;
    HorovodParser m_horovod;
    JaxCoordinationParser m_jax;
    GlooParser m_gloo;
    RasTextParser m_ras;
    // The parsers offered every line after NCCL's, in this order; whose open blocks send the
    // next line down the full path; and that finish after NCCL's. NCCL, RAS (offered NCCL's
    // lines too), progress and nccl-tests lines have rules of their own in onSegment.
    auto lineParsers() { return std::tie(m_pytorch, m_python, m_launcher, m_kernel, m_stacks, m_gpu, m_horovod, m_jax, m_gloo); }

    // Latest timestamp per prefix identity: lines without a time of their own inherit it.
    // Indexed by identity index (dense, small).
    std::vector<model::TimePoint> m_streamTime;
    // Consecutive lines usually share a prefix; remember the last one to skip hashing.
    LinePrefix m_lastPrefix;
    std::uint32_t m_lastPrefixIdentity = 0;
    bool m_haveLastPrefix = false;
    std::uint64_t m_recognised = 0;
    // Some parser had a multi-line block open after the last line of the full path (only
    // that path can open or close one).
    bool m_blockOpen = false;
    // The line before was a bare "Last error:" of this prefix identity.
    bool m_lastErrorPending = false;
    std::uint32_t m_lastErrorIdentity = 0;
    // Identity of the current physical line's first segment (see onSegment).
    std::uint64_t m_currentLine = 0;
    std::uint64_t m_lineBeforeCurrent = 0; // the line read before m_currentLine
    std::uint32_t m_currentLineIdentity = 0;
};

// Convenience for tests and small inputs: scans `text` completely into `out`.
void scanText(std::string_view text, model::ParsedSource& out);

} // namespace rankscope::parsers
