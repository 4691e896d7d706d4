#include "parsers/logscanner.h"

#include "parsers/flattenedpaste.h"
#include "parsers/terminalescape.h"
#include "parsers/textscan.h"
#include "parsers/timesniff.h"

namespace rankscope::parsers {

namespace {

bool samePrefix(const LinePrefix& a, const LinePrefix& b)
{
    return a.globalRank == b.globalRank && a.localRank == b.localRank && a.srunTask == b.srunTask
        && a.mpiRank == b.mpiRank && a.pid == b.pid && a.host == b.host && a.ip == b.ip;
}

} // namespace

LogScanner::LogScanner(model::ParsedSource& out)
    : m_out(out)
{
}

void LogScanner::feed(std::string_view chunk)
{
    m_splitter.feed(chunk, [this](const LineSegment& s) { onSegment(s); });
}

std::uint32_t LogScanner::prefixIdentity(const LinePrefix& prefix)
{
    if (prefix.empty())
        return 0;
    if (m_haveLastPrefix && samePrefix(prefix, m_lastPrefix))
        return m_lastPrefixIdentity;
    model::RawIdentity id;
    id.source = m_out.source.id;
    id.globalRank = prefix.globalRank;
    id.localRank = prefix.localRank;
    id.srunTask = prefix.srunTask;
    id.mpiRank = prefix.mpiRank;
    id.pid = prefix.pid;
    id.host = m_out.intern(prefix.host);
    id.ip = m_out.intern(prefix.ip);
    m_lastPrefixIdentity = m_out.identityIndex(id);
    // The views in the cached prefix point into the current line; keep interned copies.
    m_lastPrefix = prefix;
    m_lastPrefix.host = m_out.text(id.host);
    m_lastPrefix.ip = m_out.text(id.ip);
    m_lastPrefix.role = {};
    m_haveLastPrefix = true;
    return m_lastPrefixIdentity;
}

// In a doubled paste, the second of two equal lines in a row (and every piece of it): the same
// line again. Pairs are taken in order, so a line the log really printed twice, doubled into
// four, is read twice.
bool LogScanner::repeatsLineBefore(const LineSegment& segment)
{
    if (m_repeatedLineNo != 0 && segment.lineNo == m_repeatedLineNo)
        return true;
    if (segment.lineNo == m_lineBeforeNo)
        return false; // a later piece of a line kept
    std::string_view text = segment.text;
    if (segment.offset == 0 && text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    const bool repeat = !m_skippedLineBefore && m_lineBeforeNo != 0
        && segment.lineNo == m_lineBeforeNo + 1 && text == m_lineBefore;
    m_skippedLineBefore = repeat;
    if (repeat) {
        if (m_repeatedLineNo == 0)
            m_out.issues.add("doubled_lines",
                m_out.source.path + ": every line appears twice in a row (output captured twice, or pasted twice); "
                                    "each repeated line is read once");
        m_repeatedLineNo = segment.lineNo;
        return true;
    }
    m_lineBefore.assign(text);
    m_lineBeforeNo = segment.lineNo;
    return false;
}

namespace {

// No terminal line is longer: past it, pieces are parsed as they are (a hostile file of
// lines that all have the wrap width must not grow one line without bound).
constexpr std::size_t kMaxWrappedLine = 64 * 1024;

// The prefixes a tool put before every physical line (a collector's time, a pdsh label, a grep
// file name), in the shape two such lines share.
std::string decorationShape(std::string_view line)
{
    LinePrefix prefix;
    const std::string_view body = stripPrefixes(line, prefix);
    return digitsAsZero(line.substr(0, line.size() - body.size()));
}

} // namespace

// In a hard-wrapped paste, a piece of exactly the wrap width is kept until the line it was cut
// from ends; the joined line is parsed in its place, at its first piece's line. A piece that
// ends in two blanks (colour codes aside) is the padded end of a line, not a cut. What was put
// before every physical line after the wrap — a quote mark, cat -n's number, a collector's
// prefix the first piece has too — is taken off the pieces that continue a line.
bool LogScanner::joinsHardWrap(const LineSegment& segment)
{
    std::string_view text = segment.text;
    if (text.ends_with('\r'))
        text.remove_suffix(1);
    std::size_t width = columnsOf(text);
    if (segment.offset == 0 && text.starts_with("\xEF\xBB\xBF"))
        width -= 1;
    std::string_view visible = text;
    if (text.find('\x1b') != std::string_view::npos && stripTerminalEscapes(text, m_plainLine))
        visible = m_plainLine;
    const bool cut = width == m_wrapper.wrapWidth && !visible.ends_with("  ");
    if (m_wrapPieces.empty() && !cut)
        return false;
    if (m_wrapPieces.empty()) {
        m_wrapStart = segment;
        m_wrapDecoration = decorationShape(m_wrapper.strip(visible));
    } else {
        text = m_wrapper.strip(text);
        LinePrefix prefix;
        const std::string_view body = stripPrefixes(text, prefix);
        if (m_wrapDecoration.starts_with(digitsAsZero(text.substr(0, text.size() - body.size()))))
            text = body;
    }
    m_wrapPieces.append(text);
    if (!cut || m_wrapPieces.size() >= kMaxWrappedLine)
        flushHardWrap();
    return true;
}

void LogScanner::flushHardWrap()
{
    if (m_wrapPieces.empty())
        return;
    m_wrappedLine.swap(m_wrapPieces);
    m_wrapPieces.clear();
    LineSegment joined = m_wrapStart;
    joined.text = m_wrappedLine;
    joined.batched = false;
    parseSegment(joined);
}

void LogScanner::onSegment(const LineSegment& rawSegment)
{
    if (m_wrapper.doubled && repeatsLineBefore(rawSegment))
        return;
    if (m_wrapper.doubleSpaced && rawSegment.text.find_first_not_of(" \t\r") == std::string_view::npos)
        return; // the copy's blank line, not the log's
    if (m_wrapper.wrapWidth > 0 && joinsHardWrap(rawSegment))
        return;
    if (m_wrapper.flattened && readsGluedRecords(rawSegment))
        return;
    parseSegment(rawSegment);
}

// In a flattened paste, a line that glues records is read as one piece per record, each at
// the line's number, as the pieces of a line a carriage return split are.
bool LogScanner::readsGluedRecords(const LineSegment& segment)
{
    const std::vector<std::size_t> starts = gluedRecordStarts(segment.text);
    if (starts.empty())
        return false;
    std::size_t from = 0;
    for (std::size_t i = 0; i <= starts.size(); ++i) {
        const std::size_t to = i < starts.size() ? starts[i] : segment.text.size();
        std::string_view text = segment.text.substr(from, to - from);
        while (!text.empty() && text.back() == ' ')
            text.remove_suffix(1);
        LineSegment piece { text, segment.lineNo, segment.offset + from, false };
        parseSegment(piece);
        from = to;
    }
    return true;
}

void LogScanner::parseSegment(const LineSegment& rawSegment)
{
    // Most lines of a big bundle repeat the last COLL line of the same writer (the same
    // launcher prefix and NCCL header) but for its opCount, buffers and count, whether the
    // file holds one process or interleaves several line by line. Such a line (a whole line
    // of the chunk, new, with no time of its own after its prefix, while no parser has a
    // block open and the masker is not inside a private key) is what only the NCCL parser
    // looks at in the full path below: it records the line directly when it can show that
    // the masker would leave it as it is.
    if (rawSegment.batched && !m_masker.inPrivateKey() && !m_blockOpen
        && rawSegment.lineNo != m_currentLine) {
        const auto lane = m_nccl.findRepeatedCollLane(rawSegment.text);
        if (lane && !sniffLeadingTime(rawSegment.text.substr(lane->prefixSize)).time.valid()
            && m_nccl.recordRepeatedColl(*lane, rawSegment.text,
                { m_out.source.id, rawSegment.lineNo, rawSegment.offset }, m_out)) {
            m_lineBeforeCurrent = m_currentLine;
            m_currentLine = rawSegment.lineNo;
            m_currentLineIdentity = lane->prefixIdentity;
            m_lastErrorPending = false; // what the full path concludes from a COLL line
            ++m_recognised;
            return;
        }
    }
    // A UTF-8 byte-order mark (Windows editors, PowerShell redirections) glued to the first
    // line, a paste's wrapper (quote marks, a code block's indent, cat -n numbers; at the
    // start of a line only) and terminal colour codes would hide a line's prefix and message
    // from the parsers.
    LineSegment segment = rawSegment;
    if (segment.offset == 0 && segment.text.starts_with("\xEF\xBB\xBF"))
        segment.text.remove_prefix(3);
    std::string_view stamp; // a time-stamped paste's time, kept as a collector's
    if (!m_wrapper.empty() && segment.lineNo != m_currentLine)
        segment.text = m_wrapper.strip(segment.text, &stamp);
    if (stripTerminalEscapes(segment.text, m_plainLine))
        segment.text = m_plainLine;
    // Masking at ingress (issue 5): a line holding a secret is replaced by its masked form
    // before prefixes are stripped and parsers run, so no raw token reaches an event, an
    // interned string, an import-issue sample or an export. The prefilter rejects ordinary
    // lines without copying; evidence offsets still point at the raw bytes on disk.
    if (m_masker.mask(segment.text, m_maskedLine)) {
        segment.text = m_maskedLine;
        m_out.issues.add("secret_masked", m_out.sampleAt(segment.lineNo, segment.text));
    }
    LineContext ctx;
    ctx.prefix.collectorTime = stamp;
    ctx.source = m_out.source.id;
    ctx.lineNo = segment.lineNo;
    ctx.offset = segment.offset;
    ctx.line = segment.text;
    ctx.lineStart = segment.lineNo != m_currentLine;
    ctx.lineBefore = ctx.lineStart ? m_currentLine : m_lineBeforeCurrent;
    // Most lines of a big bundle repeat the NCCL header of the line before: nothing to strip.
    const bool ncclHeaderFirst = m_nccl.startsWithCachedHeader(segment.text);
    std::string_view body
        = ncclHeaderFirst ? segment.text : stripPrefixes(segment.text, ctx.prefix);
    const bool noPrefix = ncclHeaderFirst || ctx.prefix.empty();
    // A launcher labels a whole \n-terminated line; the pieces after a \r (a progress bar
    // redrawn, then a log line glued to it) belong to the same writer.
    if (segment.lineNo == m_currentLine && noPrefix) {
        ctx.identity = m_currentLineIdentity;
    } else {
        ctx.identity = noPrefix ? 0 : prefixIdentity(ctx.prefix);
        if (segment.lineNo != m_currentLine) {
            m_lineBeforeCurrent = m_currentLine;
            m_currentLine = segment.lineNo;
            m_currentLineIdentity = ctx.identity;
        }
    }

    SniffedTime sniffed = sniffLeadingTime(body);
    if (!sniffed.time.valid() && !ctx.prefix.collectorTime.empty())
        sniffed = sniffTimeAtStart(ctx.prefix.collectorTime);
    if (ctx.identity >= m_streamTime.size())
        m_streamTime.resize(ctx.identity + 1);
    model::TimePoint& streamTime = m_streamTime[ctx.identity];
    ctx.streamTime = streamTime;
    if (sniffed.time.valid()) {
        ctx.time = sniffed.time;
        streamTime = sniffed.time;
    }

    // A launcher prefix stripped above may have uncovered the cached header.
    bool recognised = m_nccl.parseLine(ctx, body, m_out,
        ncclHeaderFirst
            || (body.size() != segment.text.size() && m_nccl.startsWithCachedHeader(body)));
    const bool ncclLine = recognised;
    auto offer = [&](auto& parser) {
        if (!ncclLine || parser.inBlock())
            recognised |= parser.parseLine(ctx, body, m_out);
    };
    std::apply([&](auto&... parser) { (offer(parser), ...); }, lineParsers());
    // NCCL prints RAS's own verdicts as INFO lines ("NCCL INFO RAS declaring peer … as
    // DEAD; rasDeadPeersHash …"); the NCCL parser claims them as NCCL output, so they are
    // offered here too. Only lines whose message starts with "RAS " (or torn lines, where an
    // earlier message may) are searched: a search through every NCCL line cost 12%.
    if (ncclLine && !m_ras.inBlock()) {
        if ((m_nccl.lastMessage().starts_with("RAS ") || m_nccl.lastLineHadSeveralHeaders())
            && findLiteral(body, "DEAD;") != std::string_view::npos)
            recognised |= m_ras.parseLine(ctx, body, m_out);
    } else {
        offer(m_ras);
    }
    if (!recognised && !m_pytorch.inBlock()) {
        // PyTorch prints NCCL's last WARN on the line after "Last error:"; in a paste cut
        // above the exception's first line no block holds the pair, so the scanner does.
        if (m_lastErrorPending && m_lastErrorIdentity == ctx.identity)
            recognised = m_nccl.parseQuotedWarn(ctx, trim(body), {}, m_out);
        else
            recognised = m_nccl.parseBareWarn(ctx, body, m_out);
    }
    m_lastErrorPending = trim(body) == "Last error:";
    if (m_lastErrorPending) {
        m_lastErrorIdentity = ctx.identity;
        recognised = true;
    }
    const std::size_t barEnd = ncclLine ? 0 : m_activity.parseProgressBar(ctx, body, m_out);
    if (!recognised || barEnd > 0)
        recognised
            = m_activity.parseLine(ctx, body.substr(barEnd), m_out) || recognised || barEnd > 0;
    if (!recognised)
        recognised = m_ncclTests.parseLine(ctx, body, m_out);
    if (recognised)
        ++m_recognised;
    m_blockOpen = m_ras.inBlock()
        || std::apply([](const auto&... parser) { return (parser.inBlock() || ...); }, lineParsers());
}

void LogScanner::finish()
{
    m_splitter.finish([this](const LineSegment& s) { onSegment(s); });
    flushHardWrap(); // the paste may end on a cut piece
    m_nccl.finish(m_out);
    std::apply([this](auto&... parser) { (parser.finish(m_out), ...); }, lineParsers());
    m_ras.finish(m_out);
    m_activity.finish(m_out);
    m_ncclTests.finish(m_out);

    m_out.source.lines = m_splitter.lines();
    m_out.source.recognisedLines = m_recognised;
    if (m_splitter.bytes() > m_out.source.bytes)
        m_out.source.bytes = m_splitter.bytes();
    if (const auto overlong = m_splitter.overlongLines())
        m_out.issues.add("overlong_line",
            m_out.source.path + ": " + std::to_string(overlong)
                + " line(s) longer than 1 MiB were cut at 1 MiB");
}

void scanText(std::string_view text, model::ParsedSource& out)
{
    LogScanner scanner(out);
    scanner.feed(text);
    scanner.finish();
}

} // namespace rankscope::parsers
