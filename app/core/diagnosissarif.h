#pragma once
// The diagnosis as SARIF 2.1.0 (OASIS), for code-scanning tools and editors' SARIF viewers.
//
//   run.tool.driver   rankscope-cli, its version, home page and one rule per root-cause
//                     class the findings argue for (rule id "network_pair")
//   run.results       one per finding: ruleId "<class>/<finding rule id>", level from the
//                     finding's role (findingwalk.h), a message with the finding, the verdict,
//                     the fix and the verification commands, and one location per evidence
//                     line at its file and line
//   run.artifacts     the files the locations point at: a file's uri is relative to the
//                     folder the user named (uriBaseId BUNDLE_ROOT, resolved in
//                     originalUriBaseIds); an archive member is a nested artifact (parentIndex)
//                     whose uri is its path inside the archive; standard input is "stdin"
//   run.properties    the verdict, exactly as rankscope.diagnosis/1 states it
//
// A no_hang_found or inconclusive verdict is a valid log too (its findings, maybe none).
// docs/editor-setup.md shows it in VS Code.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"

#include <nlohmann/json.hpp>

namespace rankscope::app {

nlohmann::json diagnosisSarif(const model::Bundle& bundle, const model::Diagnosis& diagnosis);

} // namespace rankscope::app
