#include "parsers/horovodparser.h"

#include "parsers/textscan.h"

namespace rankscope::parsers {

namespace {

// A stall report of a big model lists thousands of tensors; the diagnosis needs who is
// missing, which a few hundred (tensor, rank) pairs per line already show.
constexpr std::size_t kMaxEventsPerLine = 512;

std::string_view trimTensor(std::string_view t)
{
    t = trim(t);
    while (!t.empty() && (t.front() == ',' || t.front() == ' '))
        t.remove_prefix(1);
    while (!t.empty() && (t.back() == ',' || t.back() == ' ' || t.back() == '.'))
        t.remove_suffix(1);
    if (t.starts_with("Stalled ops:"))
        t = trim(t.substr(12));
    return t;
}

} // namespace

void HorovodParser::emit(const LineContext& ctx, std::string_view tensor, std::int32_t rank, bool ready,
    model::ParsedSource& out)
{
    if (tensor.empty() || rank < 0 || m_eventsThisLine >= kMaxEventsPerLine)
        return;
    ++m_eventsThisLine;
    model::Event& e = addEvent(out, ctx, model::EventKind::HorovodStalledTensor, model::Severity::Warning, tensor);
    e.peerRank = rank;
    e.code = ready ? 1 : 0;
}

// "<tensor> [ready ranks: 5, 6, 3]" / "<tensor> [missing ranks: 3, 6]", any number per line.
bool HorovodParser::parseRankLists(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    bool any = false;
    std::size_t from = 0;
    while (true) {
        const std::size_t readyAt = body.find(" [ready ranks: ", from);
        const std::size_t missingAt = body.find(" [missing ranks: ", from);
        const std::size_t at = std::min(readyAt, missingAt);
        if (at == std::string_view::npos)
            break;
        const bool ready = at == readyAt;
        std::size_t i = at + (ready ? 15 : 17);
        // The tensor: back to the previous "], " (or the line's start).
        const std::size_t prev = body.rfind("], ", at);
        const std::size_t start = prev == std::string_view::npos || prev < from ? from : prev + 3;
        const std::string_view tensor = trimTensor(body.substr(start, at - start));
        while (i < body.size() && body[i] != ']') {
            if (const auto r = readUnsigned(body, i); r && *r < (1u << 24))
                emit(ctx, tensor, static_cast<std::int32_t>(*r), ready, out);
            else if (i < body.size())
                ++i;
            while (i < body.size() && (body[i] == ',' || body[i] == ' '))
                ++i;
        }
        any = true;
        from = i;
    }
    return any;
}

bool HorovodParser::parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    m_eventsThisLine = 0;
    if (m_inMissingBlock) {
        // "1: [allreduce.a, allreduce.b ...]": the rank came as the srun-label-shaped prefix.
        if (ctx.prefix.srunTask >= 0 && body.starts_with("[")) {
            // A line cut before its "]" lost tensors: reading it would make its rank look
            // different from the others.
            if (body.find(']') == std::string_view::npos)
                return true;
            std::size_t i = 1;
            while (i < body.size() && body[i] != ']') {
                std::size_t end = i;
                while (end < body.size() && body[end] != ',' && body[end] != ']')
                    ++end;
                std::string_view tensor = trim(body.substr(i, end - i));
                if (tensor != "..." && !tensor.ends_with("..."))
                    emit(ctx, tensor, ctx.prefix.srunTask, false, out);
                else if (tensor.size() > 3)
                    emit(ctx, trim(tensor.substr(0, tensor.size() - 3)), ctx.prefix.srunTask, false, out);
                i = end < body.size() && body[end] == ',' ? end + 1 : end;
            }
            return true;
        }
        m_inMissingBlock = false;
    }
    if (trim(body) == "Missing ranks:") {
        m_inMissingBlock = true;
        return true;
    }
    if (findLiteral(body, " ranks: ") == std::string_view::npos)
        return false;
    return parseRankLists(ctx, body, out);
}

} // namespace rankscope::parsers
