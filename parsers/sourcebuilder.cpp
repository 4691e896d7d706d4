#include "parsers/sourcebuilder.h"

#include "parsers/errorfileparser.h"
#include "parsers/flightrecorderparser.h"
#include "parsers/rasparser.h"
#include "parsers/pastewrapper.h"
#include "parsers/pathidentity.h"

namespace rankscope::parsers {

SourceBuilder::SourceBuilder(model::Source meta, const LoadLimits& limits, bool hashContent)
    : m_out(std::move(meta))
    , m_limits(limits)
{
    if (hashContent)
        m_hash.emplace();
    m_out.source.pathIdentity = identityFromPath(m_out.source.path);
}

void SourceBuilder::start(ContentKind kind)
{
    m_kind = kind;
    switch (*m_kind) {
    case ContentKind::Text:
    case ContentKind::Empty:
        m_out.source.kind = model::SourceKind::Log;
        m_scanner = std::make_unique<LogScanner>(m_out);
        break;
    case ContentKind::Utf16Text:
    case ContentKind::Utf16LeText:
    case ContentKind::Utf16BeText:
        m_out.source.kind = model::SourceKind::Log;
        m_scanner = std::make_unique<LogScanner>(m_out);
        m_utf16 = std::make_unique<Utf16Decoder>(*m_kind == ContentKind::Utf16Text
                ? Utf16Decoder::Start::Bom
                : (*m_kind == ContentKind::Utf16LeText ? Utf16Decoder::Start::LittleEndian
                                                       : Utf16Decoder::Start::BigEndian));
        m_out.issues.add("utf16_transcoded",
            m_out.source.path + ": UTF-16 text"
                + (*m_kind == ContentKind::Utf16Text ? "" : " without a byte order mark")
                + " read as UTF-8");
        break;
    case ContentKind::JsonLines:
        m_out.source.kind = model::SourceKind::Log;
        m_scanner = std::make_unique<LogScanner>(m_out);
        m_jsonLines = std::make_unique<JsonLogLines>();
        m_out.issues.add("json_lines_read",
            m_out.source.path + ": a log exported as JSON records; each record's line is read");
        break;
    case ContentKind::Json:
        m_out.source.kind = model::SourceKind::Unknown;
        break;
    case ContentKind::Pickle:
        // Flight Recorder dumps are read whole by the restricted pickle reader.
        m_out.source.kind = model::SourceKind::FlightRecorderPickle;
        break;
    case ContentKind::OwnOutput:
        m_out.source.kind = model::SourceKind::Skipped;
        m_out.issues.add("own_output_skipped", m_out.source.path + ": a Rankscope report or export, not a log");
        break;
    case ContentKind::Binary:
    case ContentKind::Gzip:
    case ContentKind::Zstd:
    case ContentKind::Bzip2:
    case ContentKind::Xz:
    case ContentKind::Tar:
    case ContentKind::Zip:
        // Archives reaching here were too deep or too big to open (the archive reader says
        // why); anything else with NUL bytes is not a log.
        m_out.source.kind = model::SourceKind::Skipped;
        if (*m_kind == ContentKind::Binary)
            m_out.issues.add("binary_skipped", m_out.source.path + ": binary content, not a log");
        break;
    }
}

void SourceBuilder::knownKind(ContentKind kind)
{
    if (!m_kind)
        start(kind);
}

void SourceBuilder::feed(std::string_view chunk)
{
    if (chunk.empty())
        return;
    if (!m_kind)
        start(sniffContent(chunk.substr(0, 8192)));
    const bool first = m_bytes == 0;
    if (m_hash)
        m_hash->update(chunk);
    m_bytes += chunk.size();
    if (m_scanner) {
        // UTF-16 is read as the UTF-8 it decodes to, a JSON-lines export as its records' lines;
        // a paste's wrapper is looked for in what the scanner reads (a Windows editor's UTF-16
        // copy of a quoted or hard-wrapped paste is still one), except in a JSON export,
        // whose records a program wrote.
        std::string decoded;
        std::string_view text = chunk;
        if (m_utf16) {
            decoded.reserve(chunk.size());
            m_utf16->decode(chunk, decoded);
            text = decoded;
        } else if (m_jsonLines) {
            decoded.reserve(chunk.size());
            m_jsonLines->decode(chunk, decoded);
            text = decoded;
        }
        if (first && !m_jsonLines)
            m_scanner->setPasteWrapper(detectPasteWrapper(text.substr(0, 8192)));
        m_scanner->feed(text);
        return;
    }
    if (*m_kind == ContentKind::Json || *m_kind == ContentKind::Pickle) {
        if (m_whole->size() + chunk.size() > m_limits.maxJsonBytes) {
            m_wholeTooBig = true;
            m_whole->clear();
            m_whole->shrink_to_fit();
        } else if (!m_wholeTooBig) {
            m_whole->append(chunk);
        }
    }
}

void SourceBuilder::reuseBuffers(SourceScratch* scratch)
{
    m_pickleScratch = scratch ? &scratch->flightRecorder : nullptr;
    m_whole = scratch ? &scratch->whole : &m_ownWhole;
    m_whole->clear();
}

void SourceBuilder::markTruncated(const std::string& reason)
{
    m_out.issues.add("truncated_source", m_out.source.path + ": " + reason);
}

model::ParsedSource SourceBuilder::finishWhole(std::string_view content)
{
    if (!m_kind)
        start(content.empty() ? ContentKind::Empty : sniffContent(content.substr(0, 8192)));
    const bool document = *m_kind == ContentKind::Json || *m_kind == ContentKind::Pickle;
    if (!document || m_bytes != 0 || content.size() > m_limits.maxJsonBytes) {
        feed(content);
        return finish();
    }
    // A JSON or pickle document that arrived whole is parsed where it lies: no copy.
    if (m_hash)
        m_hash->update(content);
    m_bytes = content.size();
    routeWhole(content);
    return complete();
}

void SourceBuilder::routeWhole(std::string_view whole)
{
    if (m_wholeTooBig) {
        m_out.source.kind = model::SourceKind::Skipped;
        m_out.issues.add("json_too_large", m_out.source.path + ": JSON document over the size limit, not read");
        return;
    }
    if (*m_kind == ContentKind::Pickle) {
        if (m_pickleScratch)
            parseFlightRecorderPickle(whole, m_out, *m_pickleScratch);
        else
            parseFlightRecorderPickle(whole, m_out);
        return;
    }
    if (looksLikeErrorFile(whole)) {
        m_out.source.kind = model::SourceKind::TorchrunErrorFile;
        parseErrorFile(whole, m_out);
        return;
    }
    if (looksLikeFlightRecorderJson(whole)) {
        m_out.source.kind = model::SourceKind::FlightRecorderJson;
        parseFlightRecorderJson(whole, m_out);
        return;
    }
    if (looksLikeRasJson(whole)) {
        m_out.source.kind = model::SourceKind::RasReport;
        parseRasJson(whole, m_out);
        return;
    }
    m_out.source.kind = model::SourceKind::Skipped;
    m_out.issues.add("unrecognised_json", m_out.source.path + ": JSON document of an unknown kind");
}

model::ParsedSource SourceBuilder::finish()
{
    if (!m_kind)
        start(ContentKind::Empty);
    if (m_jsonLines) {
        std::string last;
        m_jsonLines->finish(last);
        m_scanner->feed(last);
    }
    if (m_scanner)
        m_scanner->finish();
    else if (*m_kind == ContentKind::Json || *m_kind == ContentKind::Pickle)
        routeWhole(*m_whole);
    return complete();
}

model::ParsedSource SourceBuilder::complete()
{
    m_out.source.bytes = m_bytes;
    if (m_hash)
        m_out.source.sha256 = m_hash->finish();
    return std::move(m_out);
}

} // namespace rankscope::parsers
