#pragma once
// Logs exported one JSON object per line: Docker's json-file driver ({"log": "…\n",
// "stream": "stderr", "time": "…"}), Fluent Bit and Fluentd ("log"), Google Cloud Logging
// ("textPayload", "timestamp", resource.labels.pod_name), CloudWatch and Elastic exports
// ("message"), `journalctl -o json` ("MESSAGE"). Each record becomes the log line it carries,
// so the scanner reads the export like the terminal output it came from: a record's RFC 3339
// time goes before the line as a collector's time would, a Kubernetes pod name as
// `kubectl logs --prefix` would put it. One record per line keeps line numbers: evidence
// points at the record in the file.

#include <string>
#include <string_view>

namespace rankscope::parsers {

// The first whole line of `head` is a JSON object carrying a log line in one of the fields
// above (a string), and another object follows on the next line: one object alone is a
// document, not an export (a torchrun error file has a "message" string too).
bool looksLikeJsonLogLines(std::string_view head);

class JsonLogLines {
public:
    // Appends the log lines of the records `chunk` completes to `out`, one per record ("\n"
    // ended); a record split across chunks is carried over. A line that is not such a record
    // is passed on as it is.
    void decode(std::string_view chunk, std::string& out);
    // The last record, when the export does not end with a line break.
    void finish(std::string& out);

private:
    void record(std::string_view line, std::string& out) const;

    std::string m_partial;
};

} // namespace rankscope::parsers
