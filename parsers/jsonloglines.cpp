#include "parsers/jsonloglines.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>

namespace rankscope::parsers {

namespace {

using Json = nlohmann::json;

// Where each exporter keeps the line, the time and the pod, most common first.
constexpr std::array<std::string_view, 5> kMessageKeys
    = { "log", "textPayload", "message", "MESSAGE", "msg" };
constexpr std::array<std::string_view, 3> kTimeKeys = { "time", "timestamp", "@timestamp" };

// No exported record is longer; past it a line is passed on as text rather than parsed.
constexpr std::size_t kMaxRecord = 1 << 20;

const Json* member(const Json& object, std::string_view key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

const std::string* stringMember(const Json& object, std::string_view key)
{
    const Json* value = member(object, key);
    return value && value->is_string() ? &value->get_ref<const std::string&>() : nullptr;
}

// The line a record carries: a top-level field, or Cloud Logging's jsonPayload.message.
const std::string* messageOf(const Json& record)
{
    for (std::string_view key : kMessageKeys)
        if (const std::string* text = stringMember(record, key))
            return text;
    if (const Json* payload = member(record, "jsonPayload"); payload && payload->is_object())
        return stringMember(*payload, "message");
    return nullptr;
}

std::optional<Json> objectOf(std::string_view line)
{
    if (line.size() > kMaxRecord)
        return std::nullopt;
    Json record = Json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object())
        return std::nullopt;
    return record;
}

// "2024-05-01T10:00:00.123456789Z": a time with its 'T' and zone, read as a collector's.
bool isZonedTime(const std::string& t)
{
    return t.size() >= 20 && t.size() <= 40 && t[4] == '-' && t[7] == '-' && t[10] == 'T'
        && (t.back() == 'Z' || t[t.size() - 6] == '+' || t[t.size() - 6] == '-');
}

// The pod and container a Kubernetes record names (Cloud Logging's resource labels, Fluent
// Bit's and Fluentd's kubernetes block).
std::string podPrefix(const Json& record)
{
    for (const auto& [block, labels] :
        { std::pair { "resource", "labels" }, std::pair { "kubernetes", "" } }) {
        const Json* outer = member(record, block);
        if (!outer || !outer->is_object())
            continue;
        const Json* inner = *labels ? member(*outer, labels) : outer;
        if (!inner || !inner->is_object())
            continue;
        const std::string* pod = stringMember(*inner, "pod_name");
        if (!pod || pod->empty() || pod->size() > 253
            || pod->find_first_of(" /[]") != std::string::npos)
            continue;
        const std::string* container = stringMember(*inner, "container_name");
        const bool named = container && !container->empty()
            && container->find_first_of(" /[]") == std::string::npos;
        return "[pod/" + *pod + "/" + (named ? *container : std::string("main")) + "] ";
    }
    return {};
}

} // namespace

bool looksLikeJsonLogLines(std::string_view head)
{
    const std::size_t end = head.find('\n');
    if (end == std::string_view::npos)
        return false; // the first record is not whole in the head
    const auto record = objectOf(head.substr(0, end));
    if (!record || !messageOf(*record))
        return false;
    // A second record: one object alone is a document (a torchrun error file has a
    // "message" string too).
    const std::size_t next = head.find_first_not_of(" \t\r\n", end);
    return next != std::string_view::npos && head[next] == '{';
}

void JsonLogLines::record(std::string_view line, std::string& out) const
{
    if (line.ends_with('\r'))
        line.remove_suffix(1);
    const auto parsed
        = line.find_first_not_of(" \t") != std::string_view::npos ? objectOf(line) : std::nullopt;
    const std::string* message = parsed ? messageOf(*parsed) : nullptr;
    if (!message) {
        out.append(line);
        out += '\n';
        return;
    }
    for (std::string_view key : kTimeKeys)
        if (const std::string* time = stringMember(*parsed, key); time && isZonedTime(*time)) {
            out += *time;
            out += ' ';
            break;
        }
    out += podPrefix(*parsed);
    std::string_view text = *message;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.remove_suffix(1);
    // A record that holds several lines (a traceback logged as one entry) keeps them apart
    // as pieces of its one line, so line numbers still count records.
    for (char c : text)
        out += c == '\n' ? '\r' : c;
    out += '\n';
}

void JsonLogLines::decode(std::string_view chunk, std::string& out)
{
    while (!chunk.empty()) {
        const std::size_t nl = chunk.find('\n');
        if (nl == std::string_view::npos) {
            if (m_partial.size() + chunk.size() > kMaxRecord) {
                // Not a record any exporter writes: pass the bytes on as text.
                out += m_partial;
                out.append(chunk);
                m_partial.clear();
            } else {
                m_partial.append(chunk);
            }
            return;
        }
        if (m_partial.empty()) {
            record(chunk.substr(0, nl), out);
        } else {
            m_partial.append(chunk.substr(0, nl));
            record(m_partial, out);
            m_partial.clear();
        }
        chunk.remove_prefix(nl + 1);
    }
}

void JsonLogLines::finish(std::string& out)
{
    if (m_partial.empty())
        return;
    record(m_partial, out);
    m_partial.clear();
}

} // namespace rankscope::parsers
