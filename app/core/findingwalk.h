#pragma once
// The findings of a diagnosis as every output walks them, worked out once: each finding's
// role in the verdict, and for each evidence line its source, the rank that wrote it and its
// own role. The JSON, SARIF and GNU outputs all read this walk, so none of them decides on
// its own which line is whose.
//
// Roles, and the severity editors show for them (docs/editor-setup.md):
//   initiating  the verdict's finding, a finding about an initiating rank or the stuck
//               pair, and an initiating rank's own line in a supporting finding     error
//   supporting  a finding that argues for the verdict's class, or any finding of an
//               inconclusive verdict                                               warning
//   collateral  a finding about collateral ranks only, and a collateral rank's timeout
//               line anywhere (it only waited)                                      note
//   context     everything else: findings of a no_hang_found verdict, or that argue for
//               another class                                                        note
// An evidence line has its finding's role but for the two exceptions named above.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::app {

enum class FindingRole : std::uint8_t { Initiating, Supporting, Collateral, Context };
enum class Severity : std::uint8_t { Error, Warning, Note };

std::string_view findingRoleName(FindingRole role); // "initiating"
Severity severityOf(FindingRole role);
std::string_view severityName(Severity severity); // "error", "warning", "note"

struct WalkedEvidence {
    const model::EvidenceLine* line = nullptr;
    const model::Source* source = nullptr; // null when the reference names no source
    std::int32_t rank = -1; // the rank that wrote the line; -1 when not known
    FindingRole role = FindingRole::Context;
};

struct WalkedFinding {
    const model::Finding* finding = nullptr;
    FindingRole role = FindingRole::Context;
    // The class the finding argues for: its own, else the verdict's for the verdict's
    // finding, else Unknown.
    model::RootCauseClass rootCause = model::RootCauseClass::Unknown;
    std::vector<WalkedEvidence> evidence;
};

// In the diagnosis' order (the verdict's finding first). Pointers into both arguments.
std::vector<WalkedFinding> walkFindings(const model::Bundle& bundle, const model::Diagnosis& diagnosis);

// Where an editor opens a source, relative to the current folder when the inputs were named
// so: "logs/run1/node-1/rank3.log" (the folder given, then the path below it),
// "logs/job.tgz!node-1/rank3.log" for an archive member (no editor opens that, but it names
// the member), "stdin" for standard input.
std::string editorPath(const model::Source& source);

// "Verdict: hang_diagnosed, network_pair (confidence 0.92). <summary>": the sentence the
// editor outputs (SARIF messages, the GNU verdict line) state the verdict in.
std::string verdictSentence(const model::Diagnosis& diagnosis);
// The verdict's own severity: a hang is an error, an inconclusive run a warning, no hang a note.
Severity verdictSeverity(const model::Diagnosis& diagnosis);

} // namespace rankscope::app
