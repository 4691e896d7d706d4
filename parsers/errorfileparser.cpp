#include "parsers/errorfileparser.h"

#include "parsers/linecontext.h"
#include "parsers/pythonerrorparser.h"
#include "parsers/textscan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>

namespace rankscope::parsers {

namespace {

using nlohmann::json;

// nlohmann recurses once per nesting level while parsing and destroying: a hostile file of
// a million "[" must be refused before it reaches the library. Real error files nest 3 deep.
constexpr std::size_t kMaxNesting = 64;
// Epoch seconds beyond year ~2500 are not a timestamp torchrun wrote.
constexpr std::int64_t kMaxEpochSeconds = 16'725'225'600;

bool nestingWithin(std::string_view s, std::size_t limit)
{
    std::size_t depth = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : s) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > limit)
                return false;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return true;
}

const json* member(const json* j, const char* key)
{
    if (j == nullptr || !j->is_object())
        return nullptr;
    const auto it = j->find(key);
    return it == j->end() ? nullptr : &*it;
}

std::string stringOf(const json* j)
{
    return j != nullptr && j->is_string() ? j->get<std::string>() : std::string {};
}

// torchrun writes the timestamp as a string in extraInfo and as a number in the new format.
std::optional<std::int64_t> integerOf(const json* j)
{
    if (j == nullptr)
        return std::nullopt;
    if (j->is_number_unsigned()) {
        const auto v = j->get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(INT64_MAX))
            return std::nullopt;
        return static_cast<std::int64_t>(v);
    }
    if (j->is_number_integer())
        return j->get<std::int64_t>();
    if (j->is_number_float()) {
        const double d = j->get<double>();
        if (!std::isfinite(d) || std::fabs(d) > 9.0e18)
            return std::nullopt;
        return static_cast<std::int64_t>(d);
    }
    if (j->is_string())
        return toSigned(trim(j->get_ref<const std::string&>()));
    return std::nullopt;
}

void reportBadFile(model::ParsedSource& out, std::string_view reason)
{
    std::string sample = out.source.path;
    sample += ": ";
    sample.append(reason);
    out.issues.add("bad_error_file", std::move(sample));
}

struct ErrorFileContent {
    std::string message;
    std::string callstack;
    std::optional<std::int64_t> timestamp;
    std::optional<std::int64_t> errorCode;
};

// Reads both layouts; returns the reason when the document is not an error file.
std::optional<std::string> readContent(const json& doc, ErrorFileContent& content)
{
    const json* message = member(&doc, "message");
    if (message == nullptr)
        return "no \"message\" key: not a torchrun error file";
    if (message->is_string()) {
        content.message = message->get<std::string>();
        content.timestamp = integerOf(member(&doc, "timestamp"));
        content.errorCode = integerOf(member(&doc, "errorCode"));
    } else if (message->is_object()) {
        const json* extraInfo = member(message, "extraInfo");
        content.message = stringOf(member(message, "message"));
        content.callstack = stringOf(member(extraInfo, "py_callstack"));
        content.timestamp = integerOf(member(extraInfo, "timestamp"));
        if (!content.timestamp)
            content.timestamp = integerOf(member(&doc, "timestamp"));
        content.errorCode = integerOf(member(message, "errorCode"));
    } else {
        return "\"message\" is neither text nor an object";
    }
    if (trim(content.message).empty() && trim(content.callstack).empty())
        return "no error message";
    return std::nullopt;
}

// Feeds text line by line through a PythonErrorParser: the traceback grammar lives there
// only. Its PythonException events repeat the LauncherErrorFile event and are dropped.
void scanPythonText(std::string_view text, LineContext ctx, model::ParsedSource& out)
{
    const std::size_t firstNew = out.events.size();
    PythonErrorParser parser;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view {} : text.substr(nl + 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        ctx.line = line;
        parser.parseLine(ctx, line, out);
    }
    parser.finish(out);
    out.events.erase(
        std::remove_if(out.events.begin() + static_cast<std::ptrdiff_t>(firstNew), out.events.end(),
            [](const model::Event& e) { return e.kind == model::EventKind::PythonException; }),
        out.events.end());
}

void parseErrorFileContent(std::string_view bytes, model::ParsedSource& out)
{
    if (!nestingWithin(bytes, kMaxNesting)) {
        reportBadFile(out, "JSON nested deeper than 64 levels");
        return;
    }
    const json doc = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (doc.is_discarded()) {
        reportBadFile(out, "not valid JSON");
        return;
    }
    ErrorFileContent content;
    if (const auto reason = readContent(doc, content)) {
        reportBadFile(out, *reason);
        return;
    }

    LineContext ctx;
    ctx.source = out.source.id;
    ctx.lineNo = 1;
    ctx.offset = 0;
    ctx.identity = 0;
    if (content.timestamp && *content.timestamp > 0 && *content.timestamp < kMaxEpochSeconds)
        ctx.time = { *content.timestamp * model::kNsPerSecond, model::TimeDomain::Utc,
            model::TimePrecision::Second };

    // "RuntimeError: boom" → type and message; anything else is all message.
    std::string_view message = trim(content.message);
    std::string_view type;
    std::string_view firstLineMessage;
    const std::string_view firstLine = message.substr(0, message.find('\n'));
    if (PythonErrorParser::splitExceptionLine(firstLine, type, firstLineMessage))
        message = type.size() < message.size() ? trim(message.substr(type.size() + 1))
                                               : std::string_view {};
    else
        type = {};

    model::Event& e
        = addEvent(out, ctx, model::EventKind::LauncherErrorFile, model::Severity::Error, message);
    e.detail = out.intern(type);
    if (content.errorCode && *content.errorCode >= INT32_MIN && *content.errorCode <= INT32_MAX)
        e.code = static_cast<std::int32_t>(*content.errorCode);

    // The callstack gives the PythonTraceback record; without one, the message itself may
    // still name a CUDA error or a signal.
    scanPythonText(content.callstack.empty() ? std::string_view(content.message)
                                             : std::string_view(content.callstack),
        ctx, out);
}

} // namespace

void parseErrorFile(std::string_view bytes, model::ParsedSource& out)
{
    // The library boundary: nothing thrown below (allocation, nlohmann) may escape.
    try {
        parseErrorFileContent(bytes, out);
    } catch (const std::exception& e) {
        reportBadFile(out, e.what());
    } catch (...) {
        reportBadFile(out, "unreadable error file");
    }
}

bool looksLikeErrorFile(std::string_view head)
{
    if (head.starts_with("\xEF\xBB\xBF"))
        head.remove_prefix(3);
    std::size_t i = 0;
    while (i < head.size()
        && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        ++i;
    return i < head.size() && head[i] == '{' && contains(head, "\"message\"");
}

} // namespace rankscope::parsers
