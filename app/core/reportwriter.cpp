#include "app/core/reportwriter.h"

#include "app/core/jsonexport.h"

namespace rankscope::app {

namespace {

std::string lowered(std::string_view s)
{
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

} // namespace

std::optional<ReportFormat> reportFormatFromName(std::string_view name)
{
    const std::string n = lowered(name);
    if (n == "html" || n == "htm")
        return ReportFormat::Html;
    if (n == "md" || n == "markdown")
        return ReportFormat::Markdown;
    if (n == "json")
        return ReportFormat::Json;
    return std::nullopt;
}

std::optional<ReportFormat> reportFormatFromPath(std::string_view path)
{
    const std::size_t slash = path.find_last_of("/\\");
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0)
        return std::nullopt;
    return reportFormatFromName(name.substr(dot + 1));
}

std::string_view reportFormatName(ReportFormat format)
{
    switch (format) {
    case ReportFormat::Html:
        return "html";
    case ReportFormat::Markdown:
        return "md";
    case ReportFormat::Json:
        return "json";
    }
    return "html";
}

std::string jsonReport(const ReportData& data)
{
    return dumpJson(data.json) + "\n";
}

std::string renderReport(
    const ReportData& data, ReportFormat format, const std::vector<ReportFigure>& figures)
{
    switch (format) {
    case ReportFormat::Html:
        return htmlReport(data, figures);
    case ReportFormat::Markdown:
        return markdownReport(data);
    case ReportFormat::Json:
        return jsonReport(data);
    }
    return htmlReport(data, figures);
}

std::string base64Encode(std::string_view bytes)
{
    static constexpr char kAlphabet[]
        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = (static_cast<unsigned char>(bytes[i]) << 16)
            | (static_cast<unsigned char>(bytes[i + 1]) << 8)
            | static_cast<unsigned char>(bytes[i + 2]);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
        if (rest == 2)
            v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

} // namespace rankscope::app
