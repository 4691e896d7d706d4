#include "app/core/diagnosissarif.h"

#include "app/about/version.h"
#include "app/core/diagnosisjson.h"
#include "app/core/findingwalk.h"
#include "app/core/jsonexport.h"
#include "app/core/reportdata.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

namespace rankscope::app {

using nlohmann::json;

namespace {

constexpr const char* kSchema
    = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

// A path as a URI reference (RFC 3986): '/' separates segments, and everything outside the
// unreserved and sub-delimiter characters is percent-encoded, ':' too, so that a first
// segment never reads as a scheme.
std::string uriPath(std::string_view path)
{
    static constexpr std::string_view kKept = "-._~!$&'()*+,;=@/";
    std::string out;
    for (const char c : path) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9')
            || kKept.find(c) != std::string_view::npos) {
            out += c;
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", u);
            out += buf;
        }
    }
    return out;
}

std::string textOf(const std::vector<std::string>& items, std::string_view separator)
{
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : std::string(separator)) + item;
    return out;
}

double rounded(double v)
{
    return std::round(v * 100.0) / 100.0;
}

// run.artifacts and the base URIs their locations are relative to, each added once.
class Artifacts {
public:
    // The artifactLocation of a source, adding it (and the archives holding it) first.
    json locationOf(const model::Source& source)
    {
        if (source.rootRelative.empty()) // a stream: nothing to resolve it against
            return leaf("\n" + source.path, { { "uri", uriPath(source.path) } }, std::nullopt,
                source);
        std::vector<std::string> chain; // "job.tgz", "inner.tgz", "rank3.log"
        std::size_t start = 0;
        for (;;) {
            const std::size_t bang = source.rootRelative.find('!', start);
            chain.push_back(source.rootRelative.substr(start, bang - start));
            if (bang == std::string::npos)
                break;
            start = bang + 1;
        }
        std::string key = source.root + "\n" + chain.front();
        json top = { { "uri", uriPath(chain.front()) }, { "uriBaseId", baseIdOf(source.root) } };
        if (chain.size() == 1)
            return leaf(key, top, std::nullopt, source);
        std::optional<std::size_t> parent = container(key, top);
        for (std::size_t i = 1; i + 1 < chain.size(); ++i) {
            key += "!" + chain[i];
            parent = container(key, { { "uri", uriPath(chain[i]) } }, parent);
        }
        key += "!" + chain.back();
        return leaf(key, { { "uri", uriPath(chain.back()) } }, parent, source);
    }

    bool empty() const { return m_list.empty(); }
    const json& list() const { return m_list; }
    const json& baseIds() const { return m_baseIds; }

private:
    // "BUNDLE_ROOT" for the first folder, "BUNDLE_ROOT_2" for the next one named, …
    std::string baseIdOf(const std::string& root)
    {
        auto [it, added] = m_roots.try_emplace(root);
        if (!added)
            return it->second;
        it->second = m_roots.size() == 1 ? "BUNDLE_ROOT" : "BUNDLE_ROOT_" + std::to_string(m_roots.size());
        std::error_code ec;
        std::string absolute = std::filesystem::absolute(root, ec).lexically_normal().generic_string();
        if (ec)
            absolute = root;
        if (!absolute.ends_with('/'))
            absolute += '/';
        m_baseIds[it->second] = { { "uri", "file://" + uriPath(absolute) },
            { "description",
                { { "text",
                    "The folder " + root
                        + ": one given on the command line, or the one holding a file given" } } } };
        return it->second;
    }

    std::size_t add(const std::string& key, json artifact)
    {
        auto [it, added] = m_index.try_emplace(key, m_list.size());
        if (added)
            m_list.push_back(std::move(artifact));
        return it->second;
    }

    std::size_t container(const std::string& key, const json& location,
        std::optional<std::size_t> parent = std::nullopt)
    {
        json artifact = { { "location", location }, { "roles", json::array({ "analysisTarget" }) } };
        if (parent)
            artifact["parentIndex"] = *parent;
        return add(key, std::move(artifact));
    }

    json leaf(const std::string& key, json location, std::optional<std::size_t> parent,
        const model::Source& source)
    {
        json artifact = { { "location", location }, { "roles", json::array({ "analysisTarget" }) } };
        if (parent)
            artifact["parentIndex"] = *parent;
        if (source.stream)
            artifact["description"] = { { "text", "read once from a stream; not kept" } };
        // Its length and hash are of the bytes the lines are counted in: a compressed file's
        // are of what it expands to, so they are left out there.
        const bool bytesAreArtifact = !source.compressed
            || (!source.memberPath.empty() && !source.memberPath.ends_with('!'));
        if (bytesAreArtifact) {
            artifact["length"] = source.bytes;
            if (!source.sha256.empty())
                artifact["hashes"] = { { "sha-256", source.sha256 } };
        }
        location["index"] = add(key, std::move(artifact));
        return location;
    }

    json m_list = json::array();
    json m_baseIds = json::object();
    std::map<std::string, std::size_t> m_index;
    std::map<std::string, std::string> m_roots;
};

// One rule per root-cause class the findings argue for, in order of first use.
class Rules {
public:
    std::size_t indexOf(model::RootCauseClass cls, const model::Finding& f)
    {
        const std::string id(model::rootCauseClassName(cls));
        for (std::size_t i = 0; i < m_list.size(); ++i)
            if (m_list[i]["id"] == id)
                return i;
        json rule = { { "id", id }, { "shortDescription", { { "text", rootCauseLabel(cls) } } },
            { "properties", { { "tags", json::array({ "rankscope", "root-cause-class" }) } } } };
        if (!f.confirm.empty())
            rule["help"] = { { "text", "How to confirm: " + textOf(f.confirm, " ") } };
        m_list.push_back(std::move(rule));
        return m_list.size() - 1;
    }
    const json& list() const { return m_list; }

private:
    json m_list = json::array();
};

json messageOf(const model::Diagnosis& d, const model::Finding& f)
{
    std::string text = f.title + ". " + f.explanation + "\n\n" + verdictSentence(d);
    std::string markdown = "**" + f.title + "** (`" + f.rule + "`)\n\n" + f.explanation + "\n\n"
        + verdictSentence(d);
    if (!f.fix.empty()) {
        text += "\n\nFix: " + textOf(f.fix, " ");
        markdown += "\n\n**Fix**\n";
        for (const auto& s : f.fix)
            markdown += "\n- " + s;
    }
    if (!f.verify.empty()) {
        const std::vector<std::string> lines = model::verifyStepLines(f.verify);
        text += "\n\nVerify: " + textOf(lines, "; ");
        markdown += "\n\n**Verify**\n\n```sh\n" + textOf(lines, "\n") + "\n```";
    }
    return { { "text", text }, { "markdown", markdown } };
}

json locationOf(const WalkedEvidence& e, Artifacts& artifacts)
{
    json physical = { { "artifactLocation", artifacts.locationOf(*e.source) } };
    if (e.line->ref.line > 0)
        physical["region"] = { { "startLine", e.line->ref.line },
            { "snippet", { { "text", e.line->text } } } };
    std::string who = e.rank >= 0 ? "rank " + std::to_string(e.rank) + ", " : std::string();
    json location = { { "physicalLocation", physical },
        { "message", { { "text", who + std::string(findingRoleName(e.role)) } } },
        { "properties", { { "role", findingRoleName(e.role) } } } };
    if (e.rank >= 0)
        location["properties"]["rank"] = e.rank;
    return location;
}

} // namespace

json diagnosisSarif(const model::Bundle& b, const model::Diagnosis& d)
{
    Artifacts artifacts;
    Rules rules;
    json results = json::array();
    for (const WalkedFinding& walked : walkFindings(b, d)) {
        const model::Finding& f = *walked.finding;
        const std::size_t rule = rules.indexOf(walked.rootCause, f);
        json locations = json::array();
        for (const WalkedEvidence& e : walked.evidence)
            if (e.source)
                locations.push_back(locationOf(e, artifacts));
        json result = { { "ruleId", std::string(model::rootCauseClassName(walked.rootCause)) + "/" + f.rule },
            { "ruleIndex", rule }, { "level", severityName(severityOf(walked.role)) },
            { "message", messageOf(d, f) }, { "locations", locations },
            { "properties",
                { { "rule", f.rule }, { "role", findingRoleName(walked.role) },
                    { "ranks", f.ranks }, { "confidence", rounded(f.confidence) },
                    { "fix", f.fix }, { "verify", model::verifyStepLines(f.verify) } } } };
        results.push_back(std::move(result));
    }

    json driver = { { "name", "rankscope-cli" }, { "fullName", about::versionLine("rankscope-cli") },
        { "version", std::string(about::version()) },
        { "semanticVersion", std::string(about::version()) },
        { "informationUri", std::string(about::homepage()) }, { "rules", rules.list() } };
    // Import issues are what the tool met while reading, not findings about the run.
    json notifications = json::array();
    for (const auto& issue : b.issues.list())
        notifications.push_back({ { "level", "warning" },
            { "descriptor", { { "id", issue.kind } } },
            { "message",
                { { "text", issue.kind + " x" + std::to_string(issue.count)
                        + (issue.samples.empty() ? "" : ": " + issue.samples.front()) } } } });
    json run = { { "tool", { { "driver", driver } } },
        { "invocations",
            json::array({ json { { "executionSuccessful", true },
                { "toolExecutionNotifications", notifications } } }) },
        { "results", results }, { "columnKind", "unicodeCodePoints" },
        { "properties", { { "schema", "rankscope.diagnosis/1" }, { "verdict", verdictJson(b, d) } } } };
    if (!artifacts.empty())
        run["artifacts"] = artifacts.list();
    if (!artifacts.baseIds().empty())
        run["originalUriBaseIds"] = artifacts.baseIds();
    return { { "$schema", kSchema }, { "version", "2.1.0" }, { "runs", json::array({ run }) } };
}

} // namespace rankscope::app
