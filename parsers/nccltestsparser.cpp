#include "parsers/nccltestsparser.h"

#include "parsers/textscan.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

namespace rankscope::parsers {

namespace {

// The comment lines common.cu prints around the result table.
constexpr std::array kCommentStarts = {
    std::string_view("# nThread "),
    std::string_view("# Using devices"),
    std::string_view("#  Rank "),
    std::string_view("#   Rank "),
    std::string_view("# Avg bus bandwidth"),
    std::string_view("# Out of bounds values"),
};

// The element types and reduction ops common.cu prints in a result row.
constexpr std::array kTypes = { std::string_view("float"), std::string_view("half"), std::string_view("bfloat16"),
    std::string_view("double"), std::string_view("int8"), std::string_view("uint8"), std::string_view("int32"),
    std::string_view("uint32"), std::string_view("int64"), std::string_view("uint64"), std::string_view("fp8_e4m3"),
    std::string_view("fp8_e5m2") };

std::size_t skipBlanks(std::string_view s, std::size_t i)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    return i;
}

std::string_view tokenFrom(std::string_view s, std::size_t i)
{
    std::size_t end = i;
    while (end < s.size() && s[end] != ' ' && s[end] != '\t')
        ++end;
    return s.substr(i, end - i);
}

bool isNumberToken(std::string_view t)
{
    if (t.empty())
        return false;
    bool digit = false;
    for (char c : t) {
        if (isDigit(c))
            digit = true;
        else if (c != '.' && c != '-' && c != 'e' && c != '+')
            return false;
    }
    return digit;
}

// "   131072008      32768002     float     sum      -1   2604.6   50.32   96.45      0 …":
// size and count, then a type, then at least five numbers (or "N/A" for an unchecked error).
// The table right-aligns its columns, but a paste may have lost the leading blanks (a chat
// or a form that trims lines); the type in third place and seven numbers say enough.
bool isResultRow(std::string_view body)
{
    std::size_t i = skipBlanks(body, 0);
    if (i >= body.size() || !isDigit(body[i]))
        return false;
    int numbers = 0;
    bool typed = false;
    while (i < body.size()) {
        const std::string_view token = tokenFrom(body, i);
        if (token.empty())
            break;
        i += token.size();
        i = skipBlanks(body, i);
        if (isNumberToken(token) || token == "N/A")
            ++numbers;
        else if (!typed && numbers == 2)
            typed = std::find(kTypes.begin(), kTypes.end(), token) != kTypes.end();
        else if (!typed || token.size() > 8)
            return false;
    }
    return typed && numbers >= 7;
}

// nccl-tests' CUDACHECK / NCCLCHECK (src/common.h): "[host: ]Test CUDA failure common.cu:892
// 'invalid device ordinal'", "Test NCCL failure …"; before 2.x "Cuda failure common.cu:891 '…'".
// The source location is a .cu (or .h) file of the tests, which tells the line from NCCL's own
// "Cuda failure 'out of memory'" WARN, which has none.
bool parseCheckFailure(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    std::size_t at = std::string_view::npos;
    std::string_view api;
    for (const auto& [lead, name] : { std::pair { std::string_view("Test CUDA failure "), std::string_view("cuda") },
             std::pair { std::string_view("Test NCCL failure "), std::string_view("nccl") },
             std::pair { std::string_view("Cuda failure "), std::string_view("cuda") },
             std::pair { std::string_view("NCCL failure "), std::string_view("nccl") } }) {
        at = body.find(lead);
        if (at != std::string_view::npos) {
            at += lead.size();
            api = name;
            break;
        }
    }
    if (at == std::string_view::npos)
        return false;
    const std::string_view where = tokenFrom(body, at);
    const std::size_t colon = where.rfind(':');
    if (colon == std::string_view::npos || !(where.substr(0, colon).ends_with(".cu") || where.substr(0, colon).ends_with(".h"))
        || colon + 1 >= where.size() || !std::all_of(where.begin() + static_cast<std::ptrdiff_t>(colon) + 1, where.end(), isDigit))
        return false;
    const std::size_t open = body.find('\'', at + where.size());
    const std::size_t close = body.rfind('\'');
    if (open == std::string_view::npos || close <= open + 1)
        return false;
    model::Event& e = addEvent(out, ctx, model::EventKind::NcclTestsFailure, model::Severity::Error,
        body.substr(open + 1, close - open - 1));
    e.detail = out.intern(api);
    const std::size_t hostEnd = body.find(": ");
    if (hostEnd != std::string_view::npos && hostEnd < at && hostEnd > 0 && body.substr(0, hostEnd).find(' ') == std::string_view::npos)
        e.peer = out.intern(body.substr(0, hostEnd));
    return true;
}

// The column header of the result table: "#       size         count      type   redop    root
// time   algbw   busbw #wrong …" (2.x), "#      bytes             N    type      op     time
// algbw  busbw      res" (the 1.x tests); the units line under it has no "algbw".
bool isTableHeader(std::string_view body)
{
    return contains(body, "algbw") && contains(body, "busbw") && contains(body, " time");
}

// The host of "#  Rank  0 Group  0 Pid   9822 on node1 device  0 [0x2c] …" (and "#   Rank  0 Pid
// 15833 on host device  0" before groups); the 1.x tests' "#   Rank  0 uses device  0" has none.
std::string_view rankLineHost(std::string_view body)
{
    const std::size_t on = body.find(" on ");
    if (on == std::string_view::npos)
        return {};
    const std::size_t at = skipBlanks(body, on + 4);
    const std::string_view host = tokenFrom(body, at);
    const std::size_t next = skipBlanks(body, at + host.size());
    return body.substr(next).starts_with("device") ? host : std::string_view();
}

} // namespace

bool NcclTestsParser::Repeat::printedAgain()
{
    const bool again = seen > 0 && !rowSince;
    if (seen < std::numeric_limits<std::int32_t>::max())
        ++seen;
    rowSince = false;
    return again;
}

void NcclTestsParser::noteRepeat(Repeat& r, const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (!r.printedAgain())
        return;
    model::Event& e = addEvent(out, ctx, model::EventKind::NcclTestsSeparateRuns, model::Severity::Warning, trim(body));
    e.code = r.seen;
}

bool NcclTestsParser::parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (body.empty())
        return false;
    if (body[0] != '#') {
        if (isResultRow(body)) {
            m_banner.row();
            m_summary.row();
            m_openTable.reset();
            return true;
        }
        if (!parseCheckFailure(ctx, body, out))
            return false;
        m_openTable.reset(); // it failed rather than stalled
        return true;
    }
    if (isTableHeader(body)) {
        m_openTable = ctx;
        m_openTable->line = {};
        m_openTable->prefix = {};
        return true;
    }
    for (std::string_view start : kCommentStarts) {
        if (!body.starts_with(start))
            continue;
        if (start == "# Out of bounds values" && contains(body, "FAILED"))
            addEvent(out, ctx, model::EventKind::NcclWarn, model::Severity::Error,
                "nccl-tests found wrong results: " + std::string(trim(body.substr(2))));
        else if (start == "# nThread ")
            noteRepeat(m_banner, ctx, body, out);
        else if (start == "# Avg bus bandwidth")
            noteRepeat(m_summary, ctx, body, out);
        else if (start == "#  Rank " || start == "#   Rank ") {
            if (m_rankLines < std::numeric_limits<std::int32_t>::max())
                ++m_rankLines;
            // Whether one host or several is all that is asked: two are kept at most.
            if (const std::string_view host = rankLineHost(body); !host.empty() && m_rankHosts.size() < 2)
                m_rankHosts.emplace(host);
        }
        if (start == "# Avg bus bandwidth" || start == "# Out of bounds values")
            m_openTable.reset();
        return true;
    }
    return false;
}

void NcclTestsParser::finish(model::ParsedSource& out)
{
    if (!m_openTable)
        return;
    model::Event& e = addEvent(out, *m_openTable, model::EventKind::NcclTestsStalled, model::Severity::Warning,
        "nccl-tests printed its result table's header and no result after it");
    e.code = m_rankLines;
    if (m_rankHosts.size() == 1)
        e.detail = out.intern(*m_rankHosts.begin());
    m_openTable.reset();
}

} // namespace rankscope::parsers
