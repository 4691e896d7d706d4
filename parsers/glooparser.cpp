#include "parsers/glooparser.h"

#include "parsers/bytescan.h"
#include "parsers/textscan.h"

#include <string>

namespace rankscope::parsers {

namespace {

// "[127.0.1.1]:3210" after `marker` (which ends with '['): "127.0.1.1:3210", empty when absent.
std::string bracketedAddressAfter(std::string_view text, std::string_view marker)
{
    const std::size_t at = text.find(marker);
    if (at == std::string_view::npos)
        return {};
    const std::size_t open = at + marker.size() - 1;
    const std::size_t close = text.find(']', open);
    if (close == std::string_view::npos || close == open + 1 || close - open > 64)
        return {};
    std::string address(text.substr(open + 1, close - open - 1));
    std::size_t end = close + 1;
    if (end < text.size() && text[end] == ':') {
        ++end;
        while (end < text.size() && isDigit(text[end]))
            ++end;
        address += text.substr(close + 1, end - close - 1);
    }
    return address;
}

// Every line pays this search: both messages hold "loo" ("Gloo", "gloo/", "loopback"). It
// looks for the rare "oo" and checks the 'l' before it, rather than stopping at every 'l'.
bool holdsLoo(std::string_view text)
{
    const char* const end = text.data() + text.size();
    for (const char* p = text.data() + 1; p < end; ++p) {
        p = findBytePair(p, end, 'o', 'o');
        if (p == end)
            return false;
        if (p[-1] == 'l')
            return true;
    }
    return false;
}

} // namespace

bool GlooParser::parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    // A pasted message wrapped before its address ("… Connection refused,\n        remote=
    // [127.0.0.1]:14215"): the next line of the same writer, indented, may carry it.
    const bool continues = m_addressPending && ctx.identity == m_pendingIdentity && !body.empty()
        && (body.front() == ' ' || body.front() == '\t');
    m_addressPending = false;
    if (!continues && !holdsLoo(body))
        return false;
    const std::string_view text = trim(body);
    if (text.find("Using the loopback") != std::string_view::npos) {
        addEvent(out, ctx, model::EventKind::GlooLoopbackFallback, model::Severity::Warning, text);
        return true;
    }
    const bool gloo = text.find("gloo") != std::string_view::npos || text.find("Gloo") != std::string_view::npos;
    if (!gloo && !continues)
        return false;
    std::string address = bracketedAddressAfter(text, "connect [");
    if (address.empty())
        address = bracketedAddressAfter(text, "remote=[");
    if (address.empty()) {
        // "Gloo connectFullMesh failed …" with the address on the next line.
        if (gloo && text.find("connect") != std::string_view::npos && text.find("failed") != std::string_view::npos) {
            m_addressPending = true;
            m_pendingIdentity = ctx.identity;
        }
        return false;
    }
    model::Event& e = addEvent(out, ctx, model::EventKind::GlooConnectError, model::Severity::Error, text);
    e.peer = out.intern(address);
    return true;
}

} // namespace rankscope::parsers
