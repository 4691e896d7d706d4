#include "parsers/gputelemetryparser.h"

#include "parsers/kernelparser.h"
#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace rankscope::parsers {

namespace {

// A stream with a header may still carry other lines; a row needs at least this much shape.
constexpr std::size_t kMaxColumns = 64;

enum class ValueState { Number, Missing, Bad };

// "56 %", "56", "70.12 W", "[N/A]", "[Not Supported]", "N/A".
ValueState readValue(std::string_view field, float& value)
{
    field = trim(field);
    if (field.empty() || field.front() == '[' || field == "N/A")
        return ValueState::Missing;
    const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || ptr == field.data() || !std::isfinite(value))
        return ValueState::Bad;
    const std::string_view unit = trim(field.substr(static_cast<std::size_t>(ptr - field.data())));
    for (char c : unit)
        if (!isAlpha(c) && c != '%')
            return ValueState::Bad;
    return ValueState::Number;
}

bool digitsAt(std::string_view s, std::size_t pos, std::size_t count)
{
    if (pos + count > s.size())
        return false;
    for (std::size_t i = pos; i < pos + count; ++i)
        if (!isDigit(s[i]))
            return false;
    return true;
}

unsigned number(std::string_view s, std::size_t pos, std::size_t count)
{
    unsigned v = 0;
    for (std::size_t i = pos; i < pos + count; ++i)
        v = v * 10 + static_cast<unsigned>(s[i] - '0');
    return v;
}

// nvidia-smi's "2025/07/05 15:01:02.123" at the start of `s`.
bool looksLikeSmiTime(std::string_view s)
{
    return s.size() >= 19 && digitsAt(s, 0, 4) && s[4] == '/' && digitsAt(s, 5, 2) && s[7] == '/'
        && digitsAt(s, 8, 2) && s[10] == ' ' && digitsAt(s, 11, 2) && s[13] == ':'
        && digitsAt(s, 14, 2) && s[16] == ':' && digitsAt(s, 17, 2);
}

std::optional<model::TimePoint> parseSmiTime(std::string_view s)
{
    s = trim(s);
    if (!looksLikeSmiTime(s))
        return std::nullopt;
    std::int64_t fraction = 0;
    std::size_t digits = 0;
    if (s.size() > 19) {
        if (s[19] != '.')
            return std::nullopt;
        for (std::size_t i = 20; i < s.size(); ++i) {
            if (!isDigit(s[i]) || digits == 9)
                return std::nullopt;
            fraction = fraction * 10 + (s[i] - '0');
            ++digits;
        }
    }
    for (std::size_t k = digits; k < 9; ++k)
        fraction *= 10;
    const auto precision = digits == 0 ? model::TimePrecision::Second
        : digits <= 3                  ? model::TimePrecision::Millisecond
        : digits <= 6                  ? model::TimePrecision::Microsecond
                                       : model::TimePrecision::Nanosecond;
    return model::makeLocalWall(static_cast<int>(number(s, 0, 4)), number(s, 5, 2), number(s, 8, 2),
        number(s, 11, 2), number(s, 14, 2), number(s, 17, 2), fraction, precision);
}

// The body without the leading timestamp the scanner already read (a collector's "[2025-…] "
// in front of dcgmi rows or py-spy frames), so column and indentation grammars line up.
std::string_view withoutLeadingTime(const LineContext& ctx, std::string_view body)
{
    if (!ctx.time.valid())
        return body;
    const SniffedTime sniffed = sniffLeadingTime(body);
    if (sniffed.length == 0 || sniffed.length > body.size())
        return body;
    body.remove_prefix(sniffed.length);
    if (!body.empty() && body.front() == ' ')
        body.remove_prefix(1);
    return body;
}

void splitFields(std::string_view s, char separator, std::vector<std::string_view>& fields)
{
    fields.clear();
    std::size_t start = 0;
    while (fields.size() <= kMaxColumns) {
        const std::size_t end = s.find(separator, start);
        fields.push_back(s.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
}

void splitWords(std::string_view s, std::vector<std::string_view>& words)
{
    words.clear();
    std::size_t i = 0;
    while (i < s.size() && words.size() <= kMaxColumns + 2) {
        while (i < s.size() && (isSpace(s[i]) || s[i] == '\r'))
            ++i;
        const std::size_t start = i;
        while (i < s.size() && !isSpace(s[i]) && s[i] != '\r')
            ++i;
        if (i > start)
            words.push_back(s.substr(start, i - start));
    }
}

// "utilization.gpu [%]" → "utilization.gpu".
std::string_view columnName(std::string_view field)
{
    field = trim(field);
    if (const std::size_t unit = field.find(" ["); unit != std::string_view::npos)
        field = trim(field.substr(0, unit));
    return field;
}

// The line names an nvidia-smi query field ("utilization.gpu", "power.draw", "pci.bus_id"):
// found via the dots with memchr, which beats three memmem calls on every log line.
bool namesSmiQuery(std::string_view s)
{
    for (std::size_t dot = s.find('.'); dot != std::string_view::npos; dot = s.find('.', dot + 1)) {
        const std::string_view after = s.substr(dot + 1);
        if (after.starts_with("gpu") || after.starts_with("draw") || after.starts_with("bus_id"))
            return true;
    }
    return false;
}

// An nvidia-smi timestamp anywhere in the line (a headerless row behind a prefix).
bool holdsSmiTime(std::string_view s)
{
    for (std::size_t slash = s.find('/'); slash != std::string_view::npos;
         slash = s.find('/', slash + 1)) {
        if (slash >= 4 && looksLikeSmiTime(s.substr(slash - 4)))
            return true;
    }
    return false;
}

bool isQueryName(std::string_view name)
{
    if (name.empty())
        return false;
    for (char c : name)
        if (!isLower(c) && !isDigit(c) && c != '.' && c != '_')
            return false;
    return true;
}

std::optional<std::int32_t> readIndex(std::string_view field)
{
    const auto value = toUnsigned(trim(field));
    if (!value || *value > 4096)
        return std::nullopt;
    return static_cast<std::int32_t>(*value);
}

} // namespace

bool GpuTelemetryParser::parseLine(
    const LineContext& ctx, std::string_view body, model::ParsedSource& out)
{
    if (!m_haveColumns) {
        // Until a header appears only headers and stray headerless rows matter: keep the cost
        // for ordinary log lines to a few memchr/memmem calls.
        if (body.find('#') == std::string_view::npos && !namesSmiQuery(body) && !holdsSmiTime(body))
            return false;
    }
    const std::string_view text = withoutLeadingTime(ctx, body);
    const std::string_view trimmed = trim(text);
    if (trimmed.empty())
        return false;

    if (trimmed.front() == '#') {
        if (parseDcgmiHeader(ctx, trimmed))
            return true;
    } else if (namesSmiQuery(trimmed) && parseNvidiaSmiHeader(ctx, trimmed)) {
        return true;
    }

    const Columns* columns = nullptr;
    if (auto it = m_columns.find(ctx.identity); it != m_columns.end())
        columns = &it->second;
    else if (m_haveColumns)
        columns = &m_lastColumns;

    if (!columns) {
        // A headerless nvidia-smi row with nothing to name its columns.
        if (looksLikeSmiTime(trimmed) && contains(trimmed, ", "))
            reportBadSample(ctx, out);
        return false;
    }
    if (columns->dialect == Dialect::Dcgmi) {
        if (auto expect = m_expectUnitLine.find(ctx.identity); expect != m_expectUnitLine.end()) {
            const bool unitLine
                = trimmed.starts_with("ID") && (trimmed.size() == 2 || isSpace(trimmed[2]));
            m_expectUnitLine.erase(expect);
            if (unitLine)
                return true;
        }
        return parseDcgmiRow(ctx, trimmed, *columns, out);
    }
    return parseNvidiaSmiRow(ctx, trimmed, *columns, out);
}

// "timestamp, index, pci.bus_id, utilization.gpu [%], memory.used [MiB], power.draw [W]"
bool GpuTelemetryParser::parseNvidiaSmiHeader(const LineContext& ctx, std::string_view text)
{
    splitFields(text, ',', m_fields);
    if (m_fields.size() < 2 || m_fields.size() > kMaxColumns)
        return false;
    Columns columns;
    columns.dialect = Dialect::NvidiaSmi;
    columns.count = m_fields.size();
    for (std::size_t i = 0; i < m_fields.size(); ++i) {
        const std::string_view name = columnName(m_fields[i]);
        if (!isQueryName(name))
            return false;
        const int at = static_cast<int>(i);
        if (name == "timestamp")
            columns.timestamp = at;
        else if (name == "index")
            columns.index = at;
        else if (name == "pci.bus_id" || name == "gpu_bus_id")
            columns.busId = at;
        else if (name == "uuid" || name == "gpu_uuid")
            columns.uuid = at;
        else if (name == "utilization.gpu")
            columns.utilization = at;
        else if (name == "power.draw" || (name.starts_with("power.draw.") && columns.power < 0))
            columns.power = at;
    }
    if (columns.utilization < 0 && columns.power < 0)
        return false;
    m_columns[ctx.identity] = columns;
    m_lastColumns = columns;
    m_haveColumns = true;
    return true;
}

// "#Entity   GPUTL   FBUSD   SMACT …" (also "# Entity"): dcgmi's short field names.
bool GpuTelemetryParser::parseDcgmiHeader(const LineContext& ctx, std::string_view text)
{
    std::string_view rest = trim(text.substr(1));
    if (!rest.starts_with("Entity"))
        return false;
    splitWords(rest.substr(6), m_fields);
    if (m_fields.empty() || m_fields.size() > kMaxColumns)
        return false;
    Columns columns;
    columns.dialect = Dialect::Dcgmi;
    columns.count = m_fields.size();
    int gract = -1;
    for (std::size_t i = 0; i < m_fields.size(); ++i) {
        const std::string_view name = m_fields[i];
        const int at = static_cast<int>(i);
        if (name == "GPUTL")
            columns.utilization = at;
        else if (name == "GRACT")
            gract = at;
        else if (name == "POWER" || name == "POWR")
            columns.power = at;
    }
    // GRACT (graphics engine active, 0..1) is the closest stand-in when GPUTL was not asked for.
    if (columns.utilization < 0 && gract >= 0) {
        columns.utilization = gract;
        columns.utilizationIsRatio = true;
    }
    m_columns[ctx.identity] = columns;
    m_lastColumns = columns;
    m_haveColumns = true;
    m_expectUnitLine.insert(ctx.identity);
    return true;
}

// "2025/07/05 15:01:02.123, 0, 00000000:7E:00.0, 56 %, 1234 MiB, 70.12 W"
bool GpuTelemetryParser::parseNvidiaSmiRow(
    const LineContext& ctx, std::string_view text, const Columns& columns, model::ParsedSource& out)
{
    if (text.find(',') == std::string_view::npos)
        return false;
    splitFields(text, ',', m_fields);
    if (m_fields.size() != columns.count) {
        if (looksLikeSmiTime(text))
            reportBadSample(ctx, out);
        return false;
    }
    auto field = [&](int at) {
        return at >= 0 ? m_fields[static_cast<std::size_t>(at)] : std::string_view {};
    };

    Sample sample;
    bool keyed = false; // some column says this is a GPU row, not a stray line with commas
    bool bad = false;
    if (columns.timestamp >= 0) {
        if (auto time = parseSmiTime(field(columns.timestamp))) {
            sample.time = *time;
            keyed = true;
        } else {
            bad = true;
        }
    } else {
        sample.time = ctx.bestTime();
    }
    if (columns.index >= 0) {
        if (auto index = readIndex(field(columns.index))) {
            sample.gpuIndex = *index;
            keyed = true;
        } else {
            bad = true;
        }
    }
    if (columns.busId >= 0) {
        std::size_t used = 0;
        const std::string_view bus = trim(field(columns.busId));
        if (auto normalised = normalisePciAddress(bus, &used); normalised && used == bus.size()) {
            sample.busId = std::move(*normalised);
            keyed = true;
        } else {
            bad = true;
        }
    }
    if (columns.uuid >= 0)
        sample.uuid = trim(field(columns.uuid));
    float value = 0;
    if (columns.utilization >= 0) {
        const ValueState state = readValue(field(columns.utilization), value);
        if (state == ValueState::Bad || (state == ValueState::Number && (value < 0 || value > 100)))
            bad = true;
        else if (state == ValueState::Number)
            sample.utilization = value;
    }
    if (columns.power >= 0) {
        const ValueState state = readValue(field(columns.power), value);
        if (state == ValueState::Bad || (state == ValueState::Number && value < 0))
            bad = true;
        else if (state == ValueState::Number)
            sample.power = value;
    }
    if (columns.timestamp < 0 && columns.index < 0 && columns.busId < 0 && columns.uuid < 0)
        keyed = sample.utilization >= 0 || sample.power >= 0; // one unnamed GPU
    if (!keyed)
        return false;
    if (bad) {
        reportBadSample(ctx, out);
        return false;
    }
    addSample(ctx, sample);
    return true;
}

// "GPU 0     56      500     0.005   70.1"
bool GpuTelemetryParser::parseDcgmiRow(
    const LineContext& ctx, std::string_view text, const Columns& columns, model::ParsedSource& out)
{
    if (!isUpper(text.front()))
        return false;
    splitWords(text, m_fields);
    if (m_fields.size() < 2)
        return false;
    if (m_fields[0] != "GPU") {
        // Other entities (GPU-I 0, GPU-CI 0, Switch 0, …) carry no whole-GPU utilization.
        const bool otherEntity = m_fields[0].starts_with("GPU-") || m_fields[0] == "Switch"
            || m_fields[0] == "NvSwitch" || m_fields[0] == "Link" || m_fields[0] == "CPU"
            || m_fields[0] == "Core";
        return otherEntity && m_fields.size() == columns.count + 2 && toUnsigned(m_fields[1]);
    }
    const auto index = readIndex(m_fields[1]);
    if (!index)
        return false;
    if (m_fields.size() != columns.count + 2) {
        reportBadSample(ctx, out);
        return false;
    }
    Sample sample;
    sample.gpuIndex = *index;
    sample.time = ctx.bestTime();
    float value = 0;
    if (columns.utilization >= 0) {
        const ValueState state
            = readValue(m_fields[static_cast<std::size_t>(columns.utilization) + 2], value);
        if (state == ValueState::Number && columns.utilizationIsRatio)
            value *= 100.f;
        if (state == ValueState::Bad
            || (state == ValueState::Number && (value < 0 || value > 100))) {
            reportBadSample(ctx, out);
            return false;
        }
        if (state == ValueState::Number)
            sample.utilization = value;
    }
    if (columns.power >= 0) {
        const ValueState state
            = readValue(m_fields[static_cast<std::size_t>(columns.power) + 2], value);
        if (state == ValueState::Bad || (state == ValueState::Number && value < 0)) {
            reportBadSample(ctx, out);
            return false;
        }
        if (state == ValueState::Number)
            sample.power = value;
    }
    addSample(ctx, sample);
    return true;
}

void GpuTelemetryParser::addSample(const LineContext& ctx, const Sample& sample)
{
    std::string key = std::to_string(ctx.identity);
    if (!sample.busId.empty()) {
        key += "|b:";
        key += sample.busId;
    } else if (sample.gpuIndex >= 0) {
        key += "|i:";
        key += std::to_string(sample.gpuIndex);
    } else {
        key += "|u:";
        key += sample.uuid;
    }
    auto [it, inserted] = m_seriesIndex.try_emplace(std::move(key), m_series.size());
    if (inserted) {
        GpuSeries& fresh = m_series.emplace_back();
        fresh.identity = ctx.identity;
    }
    GpuSeries& series = m_series[it->second];
    if (series.gpuIndex < 0)
        series.gpuIndex = sample.gpuIndex;
    if (series.busId.empty())
        series.busId = sample.busId;
    ++series.samples;
    series.lastUtilization = sample.utilization;
    if (sample.utilization >= 0) {
        series.minUtilization = series.minUtilization < 0
            ? sample.utilization
            : std::min(series.minUtilization, sample.utilization);
        series.maxUtilization = std::max(series.maxUtilization, sample.utilization);
    }
    series.lastPowerWatts = sample.power;
    series.lastTime = sample.time;
    series.evidence = ctx.evidence();
}

void GpuTelemetryParser::reportBadSample(const LineContext& ctx, model::ParsedSource& out)
{
    out.issues.add("bad_gpu_sample", out.sampleAt(ctx.lineNo, ctx.line));
}

void GpuTelemetryParser::finish(model::ParsedSource& out)
{
    out.gpuUtil.reserve(out.gpuUtil.size() + m_series.size());
    for (const GpuSeries& series : m_series) {
        model::GpuUtilSummary& summary = out.gpuUtil.emplace_back();
        summary.evidence = series.evidence;
        if (series.identity < out.identities.size())
            summary.host = out.identities[series.identity].host;
        summary.gpuIndex = series.gpuIndex;
        summary.busId = out.intern(series.busId);
        summary.samples = series.samples;
        summary.lastUtilization = series.lastUtilization;
        summary.minUtilization = series.minUtilization;
        summary.maxUtilization = series.maxUtilization;
        summary.lastPowerWatts = series.lastPowerWatts;
        summary.lastTime = series.lastTime;
    }
    m_series.clear();
    m_seriesIndex.clear();
    m_columns.clear();
    m_expectUnitLine.clear();
    m_haveColumns = false;
}

} // namespace rankscope::parsers
