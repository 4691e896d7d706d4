#pragma once
// Builds one ParsedSource from the bytes of one file or archive member, fed in chunks:
// sniffs the content on the first chunk, hashes everything (unless told not to), and routes the bytes to the
// log scanner, the error.json parser, or marks the source as skipped.

#include "model/parsedsource.h"
#include "parsers/contentsniff.h"
#include "parsers/flightrecorderparser.h"
#include "parsers/inputplan.h"
#include "parsers/jsonloglines.h"
#include "parsers/logscanner.h"
#include "parsers/sha256.h"
#include "parsers/utf16decoder.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rankscope::parsers {

// What a loader thread keeps across the sources it reads: fresh memory for every source
// would be zeroed by the kernel page by page (4096 dumps in one archive: 0.37 M page faults).
struct SourceScratch {
    std::string whole; // a JSON or pickle document fed in pieces (archive members)
    FlightRecorderScratch flightRecorder; // a dump's decoded values and rank lists
};

class SourceBuilder {
public:
    SourceBuilder(model::Source meta, const LoadLimits& limits, bool hashContent = true);

    // Buffers kept by the caller across sources (optional; must outlive finish()).
    void reuseBuffers(SourceScratch* scratch);

    // `head` must be the first bytes of the content (at least the first chunk). Returns the
    // sniffed kind so an archive reader can divert nested archives before any feed().
    static ContentKind classify(std::string_view head) { return sniffContent(head); }

    // The caller has already sniffed the first chunk (sniffContent of its first 8 KiB):
    // saves sniffing it twice. Optional; must come before the first feed().
    void knownKind(ContentKind kind);
    void feed(std::string_view chunk);
    // The content ended early (truncated archive member, read error): say so in the source.
    void markTruncated(const std::string& reason);
    model::ParsedSource finish();
    // The whole content at once: like feed(content) then finish(), except that a JSON or
    // pickle document (a Flight Recorder dump) is parsed in place instead of copied first.
    model::ParsedSource finishWhole(std::string_view content);

private:
    void start(ContentKind kind);
    void routeWhole(std::string_view whole);
    model::ParsedSource complete(); // sizes and hash, then hands the source over

    model::ParsedSource m_out;
    const LoadLimits& m_limits;
    std::optional<Sha256> m_hash; // absent when the caller does not want source hashes
    std::optional<ContentKind> m_kind;
    std::unique_ptr<LogScanner> m_scanner;
    std::unique_ptr<Utf16Decoder> m_utf16;
    std::unique_ptr<JsonLogLines> m_jsonLines;
    std::string m_ownWhole;
    std::string* m_whole = &m_ownWhole; // JSON-like content that is parsed in one go
    FlightRecorderScratch* m_pickleScratch = nullptr;
    std::uint64_t m_bytes = 0;
    bool m_wholeTooBig = false;
};

} // namespace rankscope::parsers
