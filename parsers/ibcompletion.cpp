#include "parsers/ibcompletion.h"

#include "parsers/textscan.h"

namespace rankscope::parsers {

namespace {

std::string_view tokenAt(std::string_view s, std::size_t i)
{
    std::size_t end = i;
    while (end < s.size() && s[end] != ' ' && s[end] != ',')
        ++end;
    return i < s.size() ? s.substr(i, end - i) : std::string_view();
}

bool consume(std::string_view s, std::size_t& i, std::string_view literal)
{
    if (s.substr(i).starts_with(literal)) {
        i += literal.size();
        return true;
    }
    return false;
}

} // namespace

std::optional<IbCompletion> parseIbCompletion(std::string_view msg)
{
    constexpr std::string_view kPeer = "Got completion from peer ";
    constexpr std::string_view kNoPeer = "Got completion with ";
    IbCompletion c;
    std::size_t i = findLiteral(msg, kPeer);
    if (i != std::string_view::npos) {
        i += kPeer.size();
        const std::string_view peer = tokenAt(msg, i);
        if (peer != "with") {
            c.peer = peer;
            i += peer.size();
        }
    } else if (i = findLiteral(msg, kNoPeer); i != std::string_view::npos) {
        i += kNoPeer.size() - 5; // at "with "
    } else {
        return std::nullopt;
    }
    const std::size_t with = findLiteral(msg, "with ", i);
    if (with != std::string_view::npos) {
        i = with + 5;
        if (consume(msg, i, "error ") || consume(msg, i, "status=")) {
            if (i < msg.size() && !isDigit(msg[i])) {
                // "IBV_WC_RETRY_EXC_ERR(12)"
                while (i < msg.size() && (isAlnum(msg[i]) || msg[i] == '_'))
                    ++i;
                consume(msg, i, "(");
            }
            std::size_t j = i;
            if (auto v = readSigned(msg, j); v && *v >= 0 && *v < 1000) {
                c.status = static_cast<int>(*v);
                i = j;
            }
        }
    }
    if (const std::size_t hca = findLiteral(msg, " hca ", i); hca != std::string_view::npos)
        c.hca = tokenAt(msg, hca + 5);
    return c;
}

bool isBareIbCompletion(std::string_view line)
{
    return line.starts_with("NET/IB") && findLiteral(line, "Got completion ") != std::string_view::npos
        && findLiteral(line, "Got completion ") < 24;
}

std::string_view socketErrorPeer(std::string_view text)
{
    for (std::string_view marker : { "Connection closed by remote peer ", "Call to recv from ", "Call to send to ",
             "Connect to ", "connect to " }) {
        const std::size_t at = findLiteral(text, marker);
        if (at != std::string_view::npos)
            return tokenAt(text, at + marker.size());
    }
    return {};
}

} // namespace rankscope::parsers
